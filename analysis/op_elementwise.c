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

/* bitcast-convert (BCONV, hloidx's semantics; XLA treats it as elementwise
 * even when the element width changes, §3.1, §7): to a type narrower by a
 * factor k the result has one more, minor-most dimension of size k, and a
 * result element reads the operand element at its other coordinates; to a
 * wider type the operand's minor-most dimension (of size k) disappears,
 * and a result element reads those k operand elements (hlo-text-format.md
 * §6.3). Same width: elementwise. */
typedef enum { BC_SAME, BC_NARROWER, BC_WIDER } bc_kind;

static ii_status bconv_kind(const hlo_instr *in, bc_kind *kind, ii_error *err) {
  const hlo_shape *o = in->shape, *x = in->operands[0]->shape;
  bool ok = ii_is_array(o) && ii_is_array(x) && in->n_operands == 1;
  uint32_t ro = ii_rank(o), rx = ii_rank(x), lead = ro < rx ? ro : rx;
  for (uint32_t i = 0; ok && i < lead; i++) ok = o->dims[i] == x->dims[i];
  ok = ok && (ro == rx || ro == rx + 1 || rx == ro + 1);
  if (!ok)
    return ii_fail(err, in, "bitcast-convert '%s': the result must have the operand's dimensions, with one minor-most "
                   "dimension more or less", in->name);
  *kind = ro == rx ? BC_SAME : ro > rx ? BC_NARROWER : BC_WIDER;
  return II_OK;
}

/* FROM's index to TO's: the shared dimensions as they are; a minor-most
 * dimension TO has beyond FROM is one symbol over its range (SPLIT: a FROM
 * element is several TO elements); one FROM has beyond TO is dropped (a
 * FROM element is part of one TO element). */
static void bconv_map(ii_ctx *c, const hlo_shape *from, const hlo_shape *to, bool split, ii_indexing *out) {
  uint32_t rf = ii_rank(from), rt = ii_rank(to);
  const ae **res = ii_exprs(c, rt);
  for (uint32_t i = 0; i < rt; i++) res[i] = i < rf ? D(c, i) : S(c, 0);
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, rf, from->dims, split, to->dims + rf, rt, res));
}

ii_status ii_bitcast_convert_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  bc_kind kind;
  if (bconv_kind(in, &kind, err) != II_OK) return II_ERROR;
  if (kind == BC_SAME) return ii_elementwise_o2i(c, in, id, out, err);
  bconv_map(c, in->shape, in->operands[0]->shape, kind == BC_WIDER, out);
  return II_OK;
}

ii_status ii_bitcast_convert_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  bc_kind kind;
  if (bconv_kind(in, &kind, err) != II_OK) return II_ERROR;
  if (kind == BC_SAME) return ii_elementwise_i2o(c, in, id, out, err);
  bconv_map(c, in->operands[0]->shape, in->shape, kind == BC_NARROWER, out);
  return II_OK;
}
