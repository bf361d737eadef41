/* Data-movement ops without arithmetic on sizes beyond offsets:
 * broadcast §3.2, transpose §3.3, reverse §3.4, slice §3.5, concatenate §3.6,
 * pad §3.7, tuple / get-tuple-element §3.12. None of these maps is
 * simplified (§6.7). */
#include "ii_internal.h"

/* ---- broadcast ---------------------------------------------------------------------------------- */

static ii_status broadcast_dims(const hlo_instr *in, ii_error *err) {
  const hlo_shape *o = in->operands[0]->shape;
  if (in->cold->dimensions.n != (int)ii_rank(o))
    return ii_fail(err, in, "broadcast '%s': dimensions= must have one entry per operand dimension", in->name);
  for (int j = 0; j < in->cold->dimensions.n; j++)
    if (in->cold->dimensions.v[j] < 0 || in->cold->dimensions.v[j] >= (int64_t)ii_rank(in->shape))
      return ii_fail(err, in, "broadcast '%s': dimension %lld is out of range", in->name,
                     (long long)in->cold->dimensions.v[j]);
  return II_OK;
}

ii_status ii_broadcast_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (broadcast_dims(in, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape;
  uint32_t n = (uint32_t)in->cold->dimensions.n;
  const ae **res = ii_exprs(c, n);
  for (uint32_t j = 0; j < n; j++) res[j] = D(c, (uint32_t)in->cold->dimensions.v[j]);
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, ii_rank(r), ii_dims(r), 0, NULL, n, res));
  return II_OK;
}

ii_status ii_broadcast_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (broadcast_dims(in, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape, *o = in->operands[0]->shape;
  uint32_t rr = ii_rank(r);
  const ae **res = ii_exprs(c, rr);
  int64_t *sym_sizes = hb_arena_array(c->scratch, rr ? rr : 1, sizeof *sym_sizes);
  uint32_t nsym = 0;
  for (uint32_t d = 0; d < rr; d++) {
    int pos = -1;
    for (int j = 0; j < in->cold->dimensions.n; j++)
      if (in->cold->dimensions.v[j] == (int64_t)d) pos = j;
    if (pos >= 0) {
      res[d] = D(c, (uint32_t)pos);
    } else {
      sym_sizes[nsym] = r->dims[d];
      res[d] = S(c, nsym++);
    }
  }
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, ii_rank(o), ii_dims(o), nsym, sym_sizes, rr, res));
  return II_OK;
}

/* ---- transpose ---------------------------------------------------------------------------------- */

static ii_status transpose_perm(ii_ctx *c, const hlo_instr *in, uint32_t **perm, uint32_t **inv, ii_error *err) {
  uint32_t r = ii_rank(in->operands[0]->shape);
  if (in->cold->dimensions.n != (int)r || ii_rank(in->shape) != r)
    return ii_fail(err, in, "transpose '%s': dimensions= must be a permutation of the operand's dimensions",
                   in->name);
  *perm = hb_arena_array(c->scratch, r ? r : 1, sizeof **perm);
  *inv = hb_arena_array(c->scratch, r ? r : 1, sizeof **inv);
  for (uint32_t i = 0; i < r; i++) (*inv)[i] = UINT32_MAX;
  for (uint32_t i = 0; i < r; i++) {
    int64_t p = in->cold->dimensions.v[i];
    if (p < 0 || p >= (int64_t)r || (*inv)[p] != UINT32_MAX)
      return ii_fail(err, in, "transpose '%s': dimensions= is not a permutation", in->name);
    (*perm)[i] = (uint32_t)p;
    (*inv)[p] = i;
  }
  return II_OK;
}

ii_status ii_transpose_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  uint32_t *perm = NULL, *inv = NULL;
  if (transpose_perm(c, in, &perm, &inv, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, imap_permutation(c->scratch, c->ae, ii_rank(r), ii_dims(r), inv));
  return II_OK;
}

ii_status ii_transpose_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  uint32_t *perm = NULL, *inv = NULL;
  if (transpose_perm(c, in, &perm, &inv, err) != II_OK) return II_ERROR;
  const hlo_shape *o = in->operands[0]->shape;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, imap_permutation(c->scratch, c->ae, ii_rank(o), ii_dims(o), perm));
  return II_OK;
}

/* ---- reverse ------------------------------------------------------------------------------------- */

/* Result i is d_i, or (d_i * -1 + size) + (-1) for a reversed dimension,
 * which the constructors fold to `-d_i + (size - 1)`. */
static ii_status reverse_map(ii_ctx *c, const hlo_instr *in, ii_indexing *out, ii_error *err) {
  const hlo_shape *r = in->shape;
  uint32_t n = ii_rank(r);
  const ae **res = ii_exprs(c, n);
  for (uint32_t i = 0; i < n; i++) res[i] = D(c, i);
  for (int j = 0; j < in->cold->dimensions.n; j++) {
    int64_t d = in->cold->dimensions.v[j];
    if (d < 0 || d >= (int64_t)n) return ii_fail(err, in, "reverse '%s': dimension %lld is out of range", in->name, (long long)d);
    const ae *x = ae_add(c->ae, ae_mul(c->ae, D(c, (uint32_t)d), K(c, -1)), K(c, r->dims[d]));
    res[d] = ae_add(c->ae, x, K(c, -1));
  }
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, n, ii_dims(r), 0, NULL, n, res));
  return II_OK;
}

ii_status ii_reverse_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  return reverse_map(c, in, out, err);
}
ii_status ii_reverse_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  return reverse_map(c, in, out, err);
}

/* ---- slice --------------------------------------------------------------------------------------- */

static ii_status slice_check(const hlo_instr *in, ii_error *err) {
  uint32_t r = ii_rank(in->operands[0]->shape);
  if (in->cold->ext->n_slice != (int)r || ii_rank(in->shape) != r)
    return ii_fail(err, in, "slice '%s' needs one range per operand dimension", in->name);
  for (uint32_t i = 0; i < r; i++)
    if (in->cold->ext->slice[i].stride < 1) return ii_fail(err, in, "slice '%s': strides must be positive", in->name);
  return II_OK;
}

ii_status ii_slice_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (slice_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape;
  uint32_t n = ii_rank(r);
  const ae **res = ii_exprs(c, n);
  for (uint32_t i = 0; i < n; i++)
    res[i] = ae_add(c->ae, ae_mul(c->ae, D(c, i), K(c, in->cold->ext->slice[i].stride)),
                    K(c, in->cold->ext->slice[i].start));
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, n, ii_dims(r), 0, NULL, n, res));
  return II_OK;
}

/* i2o: (d_i - start) floordiv stride, with d_i in [start, (out_i-1)*stride +
 * start] and (d_i - start) mod stride in [0, 0] added as constraints. */
ii_status ii_slice_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (slice_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *o = in->operands[0]->shape, *r = in->shape;
  uint32_t n = ii_rank(o);
  const ae **res = ii_exprs(c, n);
  for (uint32_t i = 0; i < n; i++) {
    const ae *x = ae_add(c->ae, D(c, i), K(c, -in->cold->ext->slice[i].start));
    res[i] = ae_floordiv(c->ae, x, K(c, in->cold->ext->slice[i].stride));
  }
  imap *m = ii_map(c, n, ii_dims(o), 0, NULL, n, res);
  for (uint32_t i = 0; i < n; i++) {
    int64_t start = in->cold->ext->slice[i].start, stride = in->cold->ext->slice[i].stride;
    /* (out-1)*stride + start stays within the operand's size: no overflow */
    imap_add_constraint(m, D(c, i), iv_make(start, (r->dims[i] - 1) * stride + start));
    imap_add_constraint(m, ae_mod(c->ae, ae_add(c->ae, D(c, i), K(c, -start)), K(c, stride)), iv_make(0, 0));
  }
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, m);
  return II_OK;
}

/* ---- concatenate ------------------------------------------------------------------------------------ */

/* The checks and the operands' offsets, once per instruction: a
 * concatenate of N operands is queried N + 1 times (its in2out blocks). */
const int64_t *ii_concat_offsets(ii_ctx *c, const hlo_instr *in, uint32_t *cd, ii_error *err) {
  uint32_t r = ii_rank(in->shape);
  if (in->cold->dimensions.n != 1 || in->cold->dimensions.v[0] < 0 || in->cold->dimensions.v[0] >= (int64_t)r) {
    ii_fail(err, in, "concatenate '%s' needs one dimension in range", in->name);
    return NULL;
  }
  *cd = (uint32_t)in->cold->dimensions.v[0];
  bool found;
  const int64_t *memo = hb_ptrmap_get_ptr(&c->concat_offsets, in, &found);
  if (found) return memo;
  int64_t *off = hb_arena_array(c->keep, (size_t)in->n_operands + 1, sizeof *off);
  off[0] = 0;
  for (int k = 0; k < in->n_operands; k++) {
    const hlo_shape *x = in->operands[k]->shape;
    if (ii_rank(x) != r) {
      ii_fail(err, in, "concatenate '%s': operand %d has another rank than the result", in->name, k);
      return NULL;
    }
    off[k + 1] = off[k] + x->dims[*cd]; /* (sizes are checked against II_MAX_DIM: no overflow) */
  }
  if (ii_in_module(in)) hb_ptrmap_put_ptr(&c->concat_offsets, in, off);
  return off;
}

/* Operands [LO, HI) of a concatenate's out2in result OUT: operand k reads
 * the output's slab [off_k, off_k + size_k) along the concatenated
 * dimension, shifted back by off_k. */
static ii_status concat_fill(ii_ctx *c, const hlo_instr *in, uint32_t lo, uint32_t hi, ii_indexing *out,
                             ii_error *err) {
  uint32_t cd;
  const int64_t *offsets = ii_concat_offsets(c, in, &cd, err);
  if (!offsets) return II_ERROR;
  const hlo_shape *r = in->shape;
  uint32_t n = ii_rank(r);
  /* (one pair of arrays for every operand: imap_new copies them) */
  const ae **res = ii_exprs(c, n);
  for (uint32_t i = 0; i < n; i++) res[i] = D(c, i);
  interval *div = hb_arena_array(c->scratch, n, sizeof *div);
  for (uint32_t i = 0; i < n; i++) div[i] = iv_make(0, r->dims[i] - 1);
  for (uint32_t k = lo; k < hi; k++) {
    int64_t off = offsets[k], nk = offsets[k + 1] - off;
    res[cd] = ae_add(c->ae, D(c, cd), K(c, -off));
    div[cd] = iv_make(off, off + nk - 1);
    ii_add(c, out, k, imap_new(c->scratch, c->ae, n, 0, 0, div, NULL, n, res));
  }
  return II_OK;
}

ii_status ii_concat_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  return concat_fill(c, in, 0, (uint32_t)in->n_operands, out, err);
}

ii_status ii_concat_o2i_part(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi, ii_indexing *out,
                             ii_error *err) {
  (void)id;
  ii_indexing_init_range(c, out, (uint32_t)in->n_operands, lo, hi);
  return concat_fill(c, in, lo, hi, out, err);
}

ii_status ii_concat_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  uint32_t cd;
  const int64_t *offsets = ii_concat_offsets(c, in, &cd, err);
  if (!offsets) return II_ERROR;
  int64_t off = offsets[input_id];
  const hlo_shape *o = in->operands[input_id]->shape;
  uint32_t n = ii_rank(o);
  const ae **res = ii_exprs(c, n);
  for (uint32_t i = 0; i < n; i++) res[i] = D(c, i);
  res[cd] = ae_add(c->ae, D(c, cd), K(c, off));
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, n, ii_dims(o), 0, NULL, n, res));
  return II_OK;
}

/* ---- pad ------------------------------------------------------------------------------------------ */

ii_status ii_pad_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_shape *r = in->shape;
  uint32_t n = ii_rank(r);
  if (in->cold->ext->n_padding != (int)n || ii_rank(in->operands[0]->shape) != n)
    return ii_fail(err, in, "pad '%s' needs one padding entry per dimension", in->name);
  int64_t *lo = hb_arena_array(c->scratch, n ? n : 1, sizeof *lo);
  int64_t *hi = hb_arena_array(c->scratch, n ? n : 1, sizeof *hi);
  int64_t *inr = hb_arena_array(c->scratch, n ? n : 1, sizeof *inr);
  for (uint32_t i = 0; i < n; i++) {
    lo[i] = in->cold->ext->padding[i].lo;
    hi[i] = in->cold->ext->padding[i].hi;
    inr[i] = in->cold->ext->padding[i].interior;
    if (inr[i] < 0) return ii_fail(err, in, "pad '%s': interior padding must not be negative", in->name);
  }
  ii_indexing_init(c, out, 2);
  ii_add(c, out, 0, ii_pad_map(c, n, ii_dims(r), lo, hi, inr));
  ii_add(c, out, 1, ii_scalar_map(c, r));
  return II_OK;
}

/* ---- tuple / get-tuple-element --------------------------------------------------------------------- */

/* i2o of tuple: one entry, the identity over element input_id. */
ii_status ii_tuple_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_identity(c, ii_output_shape(in, input_id)));
  return II_OK;
}

/* [V2] o2i of get-tuple-element: one entry, the identity over its own
 * shape, which indexes element `index` of the operand. */
ii_status ii_gte_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  for (int k = 0; k < in->n_operands; k++) {
    ii_add(c, out, (uint32_t)k, ii_identity(c, in->shape));
    const hlo_shape *x = in->operands[k]->shape;
    out->sets[k].in_elem = x->type == HLO_TUPLE && in->cold->tuple_index >= 0 && in->cold->tuple_index < x->n_elems;
    out->sets[k].elem = in->cold->tuple_index;
  }
  return II_OK;
}
