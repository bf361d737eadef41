/* Contractions: dot §3.15, scaled-dot §3.16, convolution §3.17. */
#include "ii_internal.h"

/* ---- dot ------------------------------------------------------------------------------------------- */

static bool in_list(const hlo_ints *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* The lhs and rhs maps of a dot (shared by scaled-dot). */
static ii_status dot_maps(ii_ctx *c, const hlo_instr *in, imap **lhs_map, imap **rhs_map, ii_error *err) {
  static const hlo_dot_dims none = {{0, NULL}, {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL}};
  const hlo_dot_dims *dd = in->cold->ext->dot ? in->cold->ext->dot : &none;
  const hlo_shape *a = in->operands[0]->shape, *b = in->operands[1]->shape, *o = in->shape;
  uint32_t ra = ii_rank(a), rb = ii_rank(b), ro = ii_rank(o);
  if (!ii_is_array(a) || !ii_is_array(b) || !ii_is_array(o) || dd->lhs_batch.n != dd->rhs_batch.n ||
      dd->lhs_contracting.n != dd->rhs_contracting.n)
    return ii_fail(err, in, "%s '%s': invalid dimension numbers", hlo_instr_opcode_text(in), in->name);
  const ae **lr = ii_exprs(c, ra), **rr = ii_exprs(c, rb);
  for (uint32_t i = 0; i < ra; i++) lr[i] = NULL;
  for (uint32_t i = 0; i < rb; i++) rr[i] = NULL;
  uint32_t od = 0;
  for (int t = 0; t < dd->lhs_batch.n; t++) {
    int64_t l = dd->lhs_batch.v[t], r = dd->rhs_batch.v[t];
    if (l < 0 || l >= (int64_t)ra || r < 0 || r >= (int64_t)rb) goto bad;
    lr[l] = rr[r] = D(c, od++);
  }
  for (uint32_t i = 0; i < ra; i++)
    if (!in_list(&dd->lhs_batch, i) && !in_list(&dd->lhs_contracting, i)) lr[i] = D(c, od++);
  for (uint32_t i = 0; i < rb; i++)
    if (!in_list(&dd->rhs_batch, i) && !in_list(&dd->rhs_contracting, i)) rr[i] = D(c, od++);
  int64_t *csize = hb_arena_array(c->scratch, (size_t)dd->lhs_contracting.n + 1, sizeof *csize);
  for (int t = 0; t < dd->lhs_contracting.n; t++) {
    int64_t l = dd->lhs_contracting.v[t], r = dd->rhs_contracting.v[t];
    if (l < 0 || l >= (int64_t)ra || r < 0 || r >= (int64_t)rb) goto bad;
    lr[l] = rr[r] = S(c, (uint32_t)t);
    csize[t] = a->dims[l];
  }
  if (od != ro) goto bad;
  for (uint32_t i = 0; i < ra; i++)
    if (!lr[i]) goto bad;
  for (uint32_t i = 0; i < rb; i++)
    if (!rr[i]) goto bad;
  *lhs_map = ii_map(c, ro, ii_dims(o), (uint32_t)dd->lhs_contracting.n, csize, ra, lr);
  *rhs_map = ii_map(c, ro, ii_dims(o), (uint32_t)dd->lhs_contracting.n, csize, rb, rr);
  return II_OK;
bad:
  return ii_fail(err, in, "%s '%s': the dimension numbers do not match the operand and result shapes",
                 hlo_instr_opcode_text(in), in->name);
}

ii_status ii_dot_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  imap *l, *r;
  if (dot_maps(c, in, &l, &r, err) != II_OK) return II_ERROR;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  ii_add(c, out, 0, l);
  ii_add(c, out, 1, r);
  /* operands beyond lhs and rhs (old sparse-dot metadata) have no rule */
  for (int k = 2; k < in->n_operands; k++) ii_add(c, out, (uint32_t)k, imap_new_undefined(c->scratch, c->ae));
  return II_OK;
}

/* ---- scaled-dot ------------------------------------------------------------------------------------- */

/* The map of an operand with each result e_i divided by operand_dim_i /
 * scale_dim_i where the sizes differ (same variables, no constraints). */
static ii_status scale_map(ii_ctx *c, const hlo_instr *in, const imap *m, const hlo_shape *x, const hlo_shape *sc,
                           imap **res, ii_error *err) {
  if (!ii_is_array(sc) || ii_rank(sc) != ii_rank(x))
    return ii_fail(err, in, "scaled-dot '%s': a scale must have the rank of its operand", in->name);
  const ae **r = ii_exprs(c, m->nresults);
  for (uint32_t i = 0; i < m->nresults; i++) {
    r[i] = m->results[i];
    if (x->dims[i] == sc->dims[i]) continue;
    if (sc->dims[i] <= 0) return ii_fail(err, in, "scaled-dot '%s': a scale dimension is empty", in->name);
    r[i] = ae_floordiv(c->ae, r[i], K(c, x->dims[i] / sc->dims[i]));
  }
  *res = imap_new(c->scratch, c->ae, m->ndims, m->nrange, m->nrt, m->dim_iv, m->sym_iv, m->nresults, r);
  return II_OK;
}

ii_status ii_scaled_dot_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  imap *l, *r, *ls, *rs;
  if (dot_maps(c, in, &l, &r, err) != II_OK) return II_ERROR;
  if (scale_map(c, in, l, in->operands[0]->shape, in->operands[2]->shape, &ls, err) != II_OK ||
      scale_map(c, in, r, in->operands[1]->shape, in->operands[3]->shape, &rs, err) != II_OK)
    return II_ERROR;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  ii_add(c, out, 0, l);
  ii_add(c, out, 1, r);
  ii_add(c, out, 2, ls);
  ii_add(c, out, 3, rs);
  for (int k = 4; k < in->n_operands; k++) ii_add(c, out, (uint32_t)k, imap_new_undefined(c->scratch, c->ae));
  return II_OK;
}

/* ---- convolution ------------------------------------------------------------------------------------ */

static bool dim_ok(int64_t d, uint32_t rank) { return d >= 0 && d < (int64_t)rank; }

ii_status ii_conv_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_conv_dims *cd = in->cold->ext->conv_dims;
  const hlo_shape *xs = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  uint32_t rank = ii_rank(os);
  if (!cd || cd->n_spatial < 0 || (uint32_t)cd->n_spatial + 2 != rank || ii_rank(xs) != rank || ii_rank(ks) != rank)
    return ii_fail(err, in, "convolution '%s' needs dim_labels= matching the ranks of its operands and result",
                   in->name);
  uint32_t k = (uint32_t)cd->n_spatial;
  if ((uint32_t)in->cold->ext->n_window != k)
    return ii_fail(err, in, "convolution '%s' needs a window with one entry per spatial dimension", in->name);
  bool ok = dim_ok(cd->input_batch, rank) && dim_ok(cd->input_feature, rank) &&
            dim_ok(cd->kernel_input_feature, rank) && dim_ok(cd->kernel_output_feature, rank) &&
            dim_ok(cd->output_batch, rank) && dim_ok(cd->output_feature, rank);
  for (uint32_t i = 0; i < k; i++) {
    ok &= dim_ok(cd->input_spatial[i], rank) && dim_ok(cd->kernel_spatial[i], rank) &&
          dim_ok(cd->output_spatial[i], rank);
    ok &= in->cold->ext->window[i].stride >= 1 && in->cold->ext->window[i].lhs_dilate >= 1 &&
          in->cold->ext->window[i].rhs_dilate >= 1;
  }
  int64_t fgc = in->cold->ext->feature_group_count, bgc = in->cold->ext->batch_group_count;
  int64_t out_features = os->dims[cd->output_feature];
  ok &= fgc >= 1 && bgc >= 1 && out_features % fgc == 0 && out_features % bgc == 0;
  if (!ok) return ii_fail(err, in, "convolution '%s': invalid dimension labels, window or group counts", in->name);

  int64_t *in_sp = hb_arena_array(c->scratch, k + 1, sizeof *in_sp);
  int64_t *out_sp = hb_arena_array(c->scratch, k + 1, sizeof *out_sp);
  int64_t *ker_sp = hb_arena_array(c->scratch, k + 1, sizeof *ker_sp);
  for (uint32_t i = 0; i < k; i++) {
    in_sp[i] = xs->dims[cd->input_spatial[i]];
    out_sp[i] = os->dims[cd->output_spatial[i]];
    ker_sp[i] = ks->dims[cd->kernel_spatial[i]];
  }

  /* Input: the spatial window map with its dims renamed to the output's
   * spatial dims, then the feature and batch parts. */
  imap *wsp;
  ii_status st = ii_window_map(c, k, in_sp, out_sp, in->cold->ext->window, &wsp);
  if (st != II_OK) return st;
  const ae **ren = ii_exprs(c, k);
  for (uint32_t i = 0; i < k; i++) ren[i] = D(c, (uint32_t)cd->output_spatial[i]);
  const ae **ix = ii_exprs(c, rank);
  for (uint32_t i = 0; i < rank; i++) ix[i] = NULL;
  const ae **wres = ii_exprs(c, k);
  ae_subst_many(c->ae, k, wsp->results, wres, ren, k, NULL, 0);
  for (uint32_t i = 0; i < k; i++) ix[cd->input_spatial[i]] = wres[i];
  uint32_t nsp = wsp->nrange;
  int64_t group = ks->dims[cd->kernel_input_feature];
  const ae *feat = S(c, nsp);
  if (fgc > 1) {
    const ae *grp = ae_floordiv(c->ae, D(c, (uint32_t)cd->output_feature), K(c, out_features / fgc));
    feat = ae_add(c->ae, ae_mul(c->ae, grp, K(c, group)), feat);
  }
  ix[cd->input_feature] = feat;
  /* Batch groups: output feature f belongs to group f floordiv (F / bgc)
   * and reads input batch group * out_batch + b (XLA's group converter
   * splits the features [bgc, F/bgc] and the input batch [bgc, out_batch]).
   * XLA's map has a free symbol over the groups instead (--xla-compat). */
  const ae *batch = D(c, (uint32_t)cd->output_batch);
  bool free_group = bgc > 1 && c->xla_compat;
  if (bgc > 1) {
    const ae *grp = free_group ? S(c, nsp + 1)
                               : ae_floordiv(c->ae, D(c, (uint32_t)cd->output_feature), K(c, out_features / bgc));
    batch = ae_add(c->ae, ae_mul(c->ae, grp, K(c, os->dims[cd->output_batch])), batch);
  }
  ix[cd->input_batch] = batch;
  for (uint32_t i = 0; i < rank; i++)
    if (!ix[i]) return ii_fail(err, in, "convolution '%s': dim_labels= assign an input dimension twice", in->name);
  uint32_t nin_sym = nsp + 1 + free_group;
  interval *div = hb_arena_array(c->scratch, rank, sizeof *div);
  for (uint32_t i = 0; i < rank; i++) div[i] = iv_make(0, os->dims[i] - 1);
  interval *isym = hb_arena_array(c->scratch, nin_sym, sizeof *isym);
  for (uint32_t j = 0; j < nsp; j++) isym[j] = wsp->sym_iv[j];
  isym[nsp] = iv_make(0, group - 1);
  if (free_group) isym[nsp + 1] = iv_make(0, bgc - 1);
  /* (a known-empty window map has zero results and no constraints; like
   * XLA, only its results and constraints are carried over) */
  imap *im = imap_new(c->scratch, c->ae, rank, nin_sym, 0, div, isym, rank, ix);
  for (uint32_t j = 0; j < wsp->ncons; j++) {
    const ae *e = ae_subst(c->ae, wsp->cons[j].expr, ren, k, NULL, 0);
    imap_add_constraint(im, e, wsp->cons[j].iv);
  }

  /* Kernel: spatial dims are window symbols, output feature d_of, input
   * feature the group symbol. */
  const ae **kx = ii_exprs(c, rank);
  for (uint32_t i = 0; i < rank; i++) kx[i] = NULL;
  for (uint32_t i = 0; i < k; i++) kx[cd->kernel_spatial[i]] = S(c, i);
  kx[cd->kernel_output_feature] = D(c, (uint32_t)cd->output_feature);
  kx[cd->kernel_input_feature] = S(c, k);
  for (uint32_t i = 0; i < rank; i++)
    if (!kx[i]) return ii_fail(err, in, "convolution '%s': dim_labels= assign a kernel dimension twice", in->name);
  int64_t *ksym = hb_arena_array(c->scratch, k + 1, sizeof *ksym);
  for (uint32_t i = 0; i < k; i++) ksym[i] = ker_sp[i];
  ksym[k] = group;
  imap *km = ii_map(c, rank, ii_dims(os), k + 1, ksym, rank, kx);

  /* [V2] both maps are simplified and their unused symbols removed. */
  if (ii_simplify_map(c, im, SIMPLIFY_REPLACE_POINTS) != II_OK ||
      ii_simplify_map(c, km, SIMPLIFY_REPLACE_POINTS) != II_OK)
    return II_TOO_LARGE;
  imap_remove_unused_symbols(im, NULL);
  imap_remove_unused_symbols(km, NULL);
  ii_indexing_init(c, out, 2);
  ii_add(c, out, 0, im);
  ii_add(c, out, 1, km);
  return ii_budget_status(c);
}
