/* Elementwise ops and `map` (indexing-semantics.md §3.1, §3.9): the EW
 * family. Which opcodes belong to it is the table's (parser/hlo_ir.h). */
#include "ii_internal.h"

/* o2i: identity over the output for every operand, except a scalar operand
 * of a non-scalar output, which gets the scalar map `(d...) -> ()`. A tuple
 * result (variadic all-reduce-start) stands for its first element, as in
 * XLA's CreateIdentityMap. */
ii_status ii_elementwise_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  const hlo_shape *o = ii_array_shape(in->shape);
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  for (int k = 0; k < in->n_operands; k++) {
    const hlo_shape *s = in->operands[k]->shape;
    bool scalar = ii_is_array(s) && s->rank == 0 && ii_rank(o) > 0;
    ii_add(c, out, (uint32_t)k, scalar ? ii_scalar_map(c, o) : ii_identity(c, o));
  }
  return II_OK;
}

/* i2o: one entry, the identity over the output, whatever the input (XLA
 * returns it even for a scalar input, §3.1). */
ii_status ii_elementwise_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_identity(c, in->shape));
  return II_OK;
}
