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

/* i2o: one entry, the identity over the output. A scalar input of a
 * non-scalar output feeds every output element: `()[s0, ...] -> (s0, ...)`;
 * XLA returns the identity over the output even then (§3.1), which
 * --xla-compat keeps. */
ii_status ii_elementwise_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  const hlo_shape *o = ii_array_shape(in->shape), *x = in->operands[id]->shape;
  ii_indexing_init(c, out, 1);
  if (c->xla_compat || !ii_is_array(x) || x->rank != 0 || ii_rank(o) == 0) {
    ii_add(c, out, 0, ii_identity(c, in->shape));
    return II_OK;
  }
  uint32_t r = ii_rank(o);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) res[i] = S(c, i);
  ii_add(c, out, 0, ii_map(c, 0, NULL, r, ii_dims(o), r, res));
  return II_OK;
}
