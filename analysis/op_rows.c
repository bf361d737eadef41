/* Ops whose output elements read whole rows (hloidx's semantics; XLA has
 * no rule): the other dimensions map to themselves, the read dimensions
 * are range variables over the operand's size there.
 *
 *   SORT    sort along `dimensions={d}`: output n reads the row along d of
 *           operand n, and of every operand whose elements the comparator
 *           reads (parameters 2k and 2k+1 stand for operand k): which
 *           element lands where depends on them;
 *   TOPK    topk: values and indices read the whole last dimension;
 *   FFT     fft: every element of the transformed (last len(fft_length))
 *           dimensions; the batch dimensions map to themselves;
 *   RNGBIT  rng-bit-generator: the new state and every random number read
 *           every element of the state. */
#include "ii_internal.h"

/* Operand K over output O: identity on the dims not in READ (a flag per
 * dim), a range variable over the operand's size on the others. The
 * output's dims are the operand's, except that a read dim may differ in
 * size. */
static void rows(ii_ctx *c, const hlo_instr *in, uint32_t k, const hlo_shape *o, const bool *read, ii_indexing *out) {
  const hlo_shape *x = in->operands[k]->shape;
  uint32_t r = ii_rank(x), nr = 0;
  bool ok = ii_is_array(o) && ii_is_array(x) && ii_rank(o) == r;
  for (uint32_t i = 0; ok && i < r; i++) ok = read[i] || o->dims[i] == x->dims[i];
  if (!ok) {
    ii_add_unknown(c, out, k,
                   ii_why(c, "%s whose operand %u and result differ in shape", hlo_instr_opcode_text(in), k));
    return;
  }
  const ae **res = ii_exprs(c, r);
  int64_t *sizes = hb_arena_array(c->scratch, r ? r : 1, sizeof *sizes);
  for (uint32_t i = 0; i < r; i++) {
    if (!read[i]) {
      res[i] = D(c, i);
      continue;
    }
    sizes[nr] = x->dims[i];
    res[i] = S(c, nr++);
  }
  ii_add(c, out, k, ii_map(c, r, ii_dims(o), nr, sizes, r, res));
}

static bool *dim_flags(ii_ctx *c, uint32_t r) { return hb_arena_zalloc(c->scratch, r ? r : 1); }

/* X, when it is a parameter of COMP, is used. */
static void mark_param(bool *used, const hlo_computation *comp, const hlo_instr *x) {
  if (x->op == HLO_OP_PARAMETER && x->parent == comp && x->parameter_number >= 0 && x->parameter_number < comp->n_params)
    used[x->parameter_number] = true;
}

/* Which parameters of COMP it uses (some instruction reads it, or it is
 * the root), one flag per parameter: one walk per computation and module
 * (a sort of N operands asks N times for each of its N outputs). */
static const bool *params_used(ii_ctx *c, const hlo_computation *comp) {
  bool found;
  const bool *memo = hb_ptrmap_get_ptr(&c->params_used, comp, &found);
  if (found) return memo;
  bool *used = hb_arena_zalloc(c->keep, (size_t)comp->n_params + 1);
  for (int i = 0; i < comp->n_instrs; i++)
    for (int j = 0; j < comp->instrs[i]->n_operands; j++) mark_param(used, comp, comp->instrs[i]->operands[j]);
  if (comp->root) mark_param(used, comp, comp->root);
  hb_ptrmap_put_ptr(&c->params_used, comp, used);
  return used;
}

static bool param_used(const bool *used, const hlo_computation *comp, int64_t p) {
  return p < comp->n_params && used[p];
}

ii_status ii_sort_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *o = ii_output_shape(in, id);
  uint32_t r = ii_rank(o);
  if (in->cold->dimensions.n != 1 || in->cold->dimensions.v[0] < 0 || in->cold->dimensions.v[0] >= (int64_t)r ||
      id >= in->n_operands)
    return ii_fail(err, in, "sort '%s' needs dimensions= with one dimension of its result", in->name);
  const hlo_computation *cmp = ii_called(in, HLO_CALL_TO_APPLY);
  bool *read = dim_flags(c, r);
  read[in->cold->dimensions.v[0]] = true;
  const bool *used = cmp ? params_used(c, cmp) : NULL;
  /* only the operands read are stored: the others have no map */
  uint32_t nids = 0, *ids = hb_arena_array(c->scratch, (size_t)in->n_operands + 1, sizeof *ids);
  for (int k = 0; k < in->n_operands; k++)
    if (k == id || !cmp || param_used(used, cmp, 2 * k) || param_used(used, cmp, 2 * k + 1)) ids[nids++] = (uint32_t)k;
  ii_indexing_init_sparse(c, out, (uint32_t)in->n_operands, nids, ids);
  for (uint32_t i = 0; i < nids; i++) rows(c, in, ids[i], o, read, out);
  return II_OK;
}

ii_status ii_topk_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *o = ii_output_shape(in, id);
  uint32_t r = ii_rank(o);
  if (in->n_operands != 1 || r == 0) return ii_fail(err, in, "topk '%s' needs one operand of rank 1 or more", in->name);
  bool *read = dim_flags(c, r);
  read[r - 1] = true;
  ii_indexing_init(c, out, 1);
  rows(c, in, 0, o, read, out);
  return II_OK;
}

ii_status ii_fft_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  int64_t len[8];
  int nl = ii_attr_ints(in, "fft_length", len, 8);
  const hlo_shape *o = ii_output_shape(in, id);
  uint32_t r = ii_rank(o);
  if (in->n_operands != 1 || nl < 1 || (uint32_t)nl > r)
    return ii_fail(err, in, "fft '%s' needs fft_length= with 1 to 3 dimensions of its operand", in->name);
  bool *read = dim_flags(c, r);
  for (uint32_t i = r - (uint32_t)nl; i < r; i++) read[i] = true;
  ii_indexing_init(c, out, 1);
  rows(c, in, 0, o, read, out);
  return II_OK;
}

ii_status ii_rngbit_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  const hlo_shape *o = ii_array_shape(ii_output_shape(in, id)), *x = in->operands[0]->shape;
  if (!ii_is_array(x) || !ii_is_array(o)) {
    ii_add_unknown(c, out, 0, ii_why(c, "rng-bit-generator whose state or result is not an array"));
    return II_OK;
  }
  uint32_t r = ii_rank(x);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) res[i] = S(c, i);
  ii_add(c, out, 0, ii_map(c, ii_rank(o), ii_dims(o), r, x->dims, r, res));
  return II_OK;
}
