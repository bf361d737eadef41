/* Gather and scatter in general form (hlo-text-format.md §6.3), hloidx's
 * semantics; under --xla-compat gather is XLA's simplified form only
 * (op_dynamic.c) and scatter has no rule.
 *
 * The start of a window along operand dim i is the index vector's
 * component t (start_index_map / scatter_dims_to_operand_dims), read at
 * the vector's position in the indices: a runtime variable, described by
 * that element of the indices, as XLA's simplified gather does. Gather
 * clamps the start into [0, operand - slice] (the variable is the clamped
 * value, its interval that range); scatter drops a window out of range
 * (the variable's interval is the valid range, so values outside denote
 * no element). Start indices whose values are known fold: a scalar
 * constant (gather: its clamped value), an iota (its index along
 * iota_dimension; gather: where the clamp changes it, a second map for
 * those positions holds the clamped value; scatter: a constraint keeps it
 * in range). Batching dims (operand_batching_dims /
 * input_batching_dims) follow the paired indices dimension.
 *
 * Maps (x = operand, r = gather result / scatter updates):
 *   gather out2in x:        r -> x   offset + start (+ batch position)
 *   gather out2in indices:  r -> the whole index vector at r's position
 *   gather in2out x:        x -> r   batch positions as range variables,
 *                                    offset = x - start in [0, slice)
 *   gather in2out indices:  every offset of the position's slice
 *   scatter out2in:         every operand at the same position (the
 *                           combiner may mix them); every element of the
 *                           indices (any of them may move a window onto or
 *                           off an element); each update whose window
 *                           lands there (scatter positions as range
 *                           variables)
 *   scatter in2out:         the transposed relations. */
#include "ii_internal.h"

/* Index-vector geometry shared by gather (r = its result) and scatter (r =
 * the updates). */
typedef struct {
  const hlo_shape *x, *is, *r;
  int64_t ivd, ncomp;
  uint32_t rx, ri, rr;
  int32_t *comp;  /* rx: the component giving operand dim i's start, or -1 */
  int32_t *batch; /* rx: the indices dim operand batching dim i pairs with, or -1 */
  int32_t *wres;  /* rx: the r dim of window dim i, or -1 (collapsed / inserted / batching) */
  int64_t *wsize; /* rx: window size along operand dim i */
  int32_t *bres;  /* ri: the r dim of indices batch dim j, -1 for index_vector_dim */
} geom;

static bool listed(const hlo_ints *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* Entries distinct and in [0, n) (and increasing when sorted). */
static bool dims_ok(const hlo_ints *l, int64_t n, bool sorted) {
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= n) return false;
    for (int j = 0; j < i; j++)
      if (l->v[j] == l->v[i] || (sorted && l->v[j] > l->v[i])) return false;
  }
  return true;
}

typedef struct {
  const hlo_ints *map, *collapsed, *xb, *ib, *window;
  const hlo_ints *slice; /* gather's slice_sizes; NULL for scatter (the updates' window dims) */
  int64_t ivd;
  const char *names; /* "offset_dims" or "update_window_dims", for messages */
} dimnums;

static ii_status bad(const hlo_instr *in, const char *why, ii_error *err) {
  return ii_fail(err, in, "%s '%s': its dimension numbers do not fit its shapes: %s", hlo_instr_opcode_text(in),
                 in->name, why);
}

static ii_status geom_build(ii_ctx *c, const hlo_instr *in, const hlo_shape *x, const hlo_shape *is,
                            const hlo_shape *r, const dimnums *dn, geom *g, ii_error *err) {
  if (!ii_is_array(x) || !ii_is_array(is) || !ii_is_array(r)) return bad(in, "a tuple where an array is needed", err);
  g->x = x, g->is = is, g->r = r, g->ivd = dn->ivd;
  g->rx = ii_rank(x), g->ri = ii_rank(is), g->rr = ii_rank(r);
  if (dn->ivd < 0 || dn->ivd > (int64_t)g->ri) return bad(in, "index_vector_dim is beyond the indices' rank", err);
  g->ncomp = dn->ivd < (int64_t)g->ri ? is->dims[dn->ivd] : 1;
  if (dn->map->n != g->ncomp || !dims_ok(dn->map, g->rx, false))
    return bad(in, "the start index map needs one distinct operand dim per index vector component", err);
  if (!dims_ok(dn->collapsed, g->rx, false) || !dims_ok(dn->xb, g->rx, false) || !dims_ok(dn->ib, g->ri, false) ||
      dn->xb->n != dn->ib->n || listed(dn->ib, dn->ivd))
    return bad(in, "collapsed, inserted or batching dims out of range, repeated or unpaired", err);
  if (!dims_ok(dn->window, g->rr, true) || dn->window->n != (int)g->rx - dn->collapsed->n - dn->xb->n ||
      g->rr != (uint32_t)dn->window->n + g->ri - (dn->ivd < (int64_t)g->ri))
    return bad(in, dn->names, err);
  if (dn->slice && dn->slice->n != (int)g->rx) return bad(in, "slice_sizes needs one size per operand dim", err);
  g->comp = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *g->comp);
  g->batch = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *g->batch);
  g->wres = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *g->wres);
  g->wsize = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *g->wsize);
  g->bres = hb_arena_array(c->scratch, g->ri ? g->ri : 1, sizeof *g->bres);
  for (uint32_t i = 0; i < g->rx; i++) g->comp[i] = g->batch[i] = g->wres[i] = -1;
  for (int t = 0; t < dn->map->n; t++) g->comp[dn->map->v[t]] = t;
  for (int q = 0; q < dn->xb->n; q++) {
    int64_t i = dn->xb->v[q], j = dn->ib->v[q];
    if (listed(dn->collapsed, i) || g->comp[i] >= 0 || x->dims[i] != is->dims[j])
      return bad(in, "a batching dim that is also collapsed or indexed, or of another size than its pair", err);
    g->batch[i] = (int32_t)j;
  }
  for (uint32_t i = 0, m = 0; i < g->rx; i++) {
    bool window = !listed(dn->collapsed, i) && g->batch[i] < 0;
    if (window) g->wres[i] = (int32_t)dn->window->v[m++];
    int64_t size = dn->slice ? dn->slice->v[i] : window ? r->dims[g->wres[i]] : 1;
    if (size < 0 || size > x->dims[i] || (!window && size != 1) || (window && r->dims[g->wres[i]] != size))
      return bad(in, dn->slice ? "a slice size that does not fit the operand or the result"
                               : "a window larger than the operand",
                 err);
    g->wsize[i] = size;
  }
  for (uint32_t d = 0, j = 0; d < g->rr; d++) {
    if (listed(dn->window, d)) continue;
    if (j == (uint32_t)dn->ivd) g->bres[j++] = -1;
    if (r->dims[d] != is->dims[j]) return bad(in, "a batch dim of another size than the indices'", err);
    g->bres[j++] = (int32_t)d;
  }
  if (dn->ivd < (int64_t)g->ri) g->bres[dn->ivd] = -1;
  return II_OK;
}

/* Runtime variables (symbols after nrange range variables) and the index
 * positions their descriptions read; the maps of the descriptions are made
 * once the operand's map exists (they may read its range variables). */
typedef struct {
  uint32_t n, nrange;
  interval *iv;
  ii_rtvar *rt;
  const ae ***pos;
  uint32_t choice, nsplit; /* gather: which side of each split clamp this member takes */
} rtset;

/* A clamped iota start that the clamp changes for some positions splits
 * the map in two members; at most this many splits (then a runtime
 * variable). */
#define MAX_SPLITS 4

static void rts_init(ii_ctx *c, rtset *R, const geom *g, uint32_t nrange, uint32_t choice) {
  R->n = 0;
  R->nsplit = 0;
  R->choice = choice;
  R->nrange = nrange;
  R->iv = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *R->iv);
  R->rt = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *R->rt);
  R->pos = hb_arena_array(c->scratch, g->rx ? g->rx : 1, sizeof *R->pos);
}

/* Constraints collected while building a map. */
typedef struct {
  uint32_t n;
  const ae **e;
  interval *iv;
} conset;

static void cons_init(ii_ctx *c, conset *C, uint32_t cap) {
  C->n = 0;
  C->e = ii_exprs(c, cap);
  C->iv = hb_arena_array(c->scratch, cap ? cap : 1, sizeof *C->iv);
}

static void cons_add(conset *C, const ae *e, interval iv) {
  C->e[C->n] = e;
  C->iv[C->n++] = iv;
}

/* The start along operand dim i of the index vector at pos (pos[j], of
 * range pr[j], for the indices' batch dims j). */
static const ae *start_of(ii_ctx *c, const geom *g, const hlo_instr *ind, uint32_t i, const ae *const *pos,
                          const interval *pr, bool clamped, rtset *R, conset *C) {
  int64_t hi = g->x->dims[i] - g->wsize[i], t = g->comp[i], v;
  interval range = iv_make(0, hi);
  const ae *e = NULL;
  interval er = iv_make(0, -1);
  if (ind->op == HLO_OP_CONSTANT && g->ri == 0 && hlo_constant_scalar_int(ind, &v)) {
    e = K(c, v), er = iv_point(v);
  } else if (ind->op == HLO_OP_IOTA && ind->cold->ext->has_iota_dimension && ind->cold->ext->iota_dimension >= 0 &&
             ind->cold->ext->iota_dimension < (int64_t)g->ri) {
    int64_t j = ind->cold->ext->iota_dimension;
    e = j == g->ivd ? K(c, t) : pos[j];
    er = j == g->ivd ? iv_point(t) : pr[j];
  }
  if (e && !clamped) { /* scatter: a window out of range is dropped */
    cons_add(C, e, range);
    return e;
  }
  if (e && er.lo >= 0 && er.hi <= hi) return e;
  if (e && er.lo == er.hi) return K(c, er.lo < 0 ? 0 : hi); /* a known value, clamped */
  if (e && er.lo >= 0 && er.lo <= hi && R->nsplit < MAX_SPLITS) { /* an iota: clamped above hi */
    if ((R->choice >> R->nsplit++) & 1) {
      cons_add(C, e, iv_make(hi + 1, er.hi));
      return K(c, hi);
    }
    cons_add(C, e, iv_make(er.lo, hi));
    return e;
  }
  const ae **p = ii_exprs(c, g->ri);
  for (uint32_t j = 0; j < g->ri; j++) p[j] = (int64_t)j == g->ivd ? K(c, t) : pos[j];
  R->iv[R->n] = range;
  R->rt[R->n] = (ii_rtvar){ind, NULL, clamped, range};
  R->pos[R->n] = p;
  return S(c, R->nrange + R->n++);
}

/* The operand indexing: a map over `ndims` dims of sizes `dims` with
 * R->nrange range variables of sizes `ranges`, R's runtime variables, the
 * results and constraints; unused symbols removed. */
static ii_status finish(ii_ctx *c, const geom *g, uint32_t ndims, const int64_t *dims, const int64_t *ranges,
                        const rtset *R, uint32_t nres, const ae **res, const conset *C, ii_operand **px) {
  interval *div = hb_arena_array(c->scratch, ndims ? ndims : 1, sizeof *div);
  interval *siv = hb_arena_array(c->scratch, R->nrange + R->n + 1, sizeof *siv);
  for (uint32_t i = 0; i < ndims; i++) div[i] = iv_make(0, dims[i] - 1);
  for (uint32_t s = 0; s < R->nrange; s++) siv[s] = iv_make(0, ranges[s] - 1);
  for (uint32_t j = 0; j < R->n; j++) siv[R->nrange + j] = R->iv[j];
  imap *m = imap_new(c->scratch, c->ae, ndims, R->nrange, R->n, div, siv, nres, res);
  for (uint32_t k = 0; k < C->n; k++) imap_add_constraint(m, C->e[k], C->iv[k]);
  ii_operand *x = ii_wrap(c, m);
  x->nrt = R->n;
  x->rt = R->rt;
  for (uint32_t j = 0; j < R->n; j++) x->rt[j].map = ii_desc_map(c, m, g->ri, R->pos[j]);
  *px = x;
  return ii_operand_simplify(c, x, false, true);
}

/* A map over `ndims` dims reading every element of a shape of rank n:
 * (d...)[s0, ...] -> (s0, ...). */
static imap *every_element(ii_ctx *c, uint32_t ndims, const int64_t *dims, const hlo_shape *s) {
  const ae **res = ii_exprs(c, ii_rank(s));
  for (uint32_t j = 0; j < ii_rank(s); j++) res[j] = S(c, j);
  return ii_map(c, ndims, dims, ii_rank(s), ii_dims(s), ii_rank(s), res);
}

/* ---- gather ------------------------------------------------------------------------------------------------ */

static ii_status gather_geom(ii_ctx *c, const hlo_instr *in, geom *g, ii_error *err) {
  const hlo_gather_dims *gd = in->cold->ext->gather;
  if (!gd) return ii_fail(err, in, "gather '%s' has no dimension numbers", in->name);
  dimnums dn = {&gd->start_index_map, &gd->collapsed_slice_dims, &gd->operand_batching_dims,
                &gd->start_indices_batching_dims, &gd->offset_dims, &gd->slice_sizes, gd->index_vector_dim,
                "offset_dims must be sorted result dims, one per operand dim neither collapsed nor batching"};
  return geom_build(c, in, in->operands[0]->shape, in->operands[1]->shape, in->shape, &dn, g, err);
}

ii_status ii_gather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  if (c->xla_compat) return ii_gather_o2i_xla(c, in, id, out, err);
  geom g;
  if (gather_geom(c, in, &g, err) != II_OK) return II_ERROR;
  const hlo_instr *ind = in->operands[1];
  const ae **pos = ii_exprs(c, g.ri), **res = ii_exprs(c, g.rx);
  interval *pr = hb_arena_array(c->scratch, g.ri + 1, sizeof *pr);
  for (uint32_t j = 0; j < g.ri; j++)
    if (g.bres[j] >= 0) pos[j] = D(c, (uint32_t)g.bres[j]), pr[j] = iv_make(0, g.r->dims[g.bres[j]] - 1);
  ii_indexing_init(c, out, 2);
  uint32_t choice = 0, members = 1;
  do {
    rtset R;
    conset C;
    rts_init(c, &R, &g, 0, choice);
    cons_init(c, &C, g.rx);
    for (uint32_t i = 0; i < g.rx; i++) {
      const ae *e = g.wres[i] >= 0 ? D(c, (uint32_t)g.wres[i]) : K(c, 0);
      if (g.batch[i] >= 0) e = ae_add(c->ae, e, pos[g.batch[i]]);
      if (g.comp[i] >= 0) e = ae_add(c->ae, e, start_of(c, &g, ind, i, pos, pr, true, &R, &C));
      res[i] = e;
    }
    ii_operand *x0;
    ii_status st = finish(c, &g, g.rr, g.r->dims, NULL, &R, g.rx, res, &C, &x0);
    if (st != II_OK) return st;
    ii_set_insert(c, &out->sets[0], x0);
    members = 1u << R.nsplit;
  } while (++choice < members);
  /* the indices: the whole vector at the position */
  const ae **ir = ii_exprs(c, g.ri);
  for (uint32_t j = 0; j < g.ri; j++) ir[j] = g.bres[j] >= 0 ? pos[j] : S(c, 0);
  bool vec = g.ivd < (int64_t)g.ri;
  ii_add(c, out, 1, ii_map(c, g.rr, g.r->dims, vec, &g.ncomp, g.ri, ir));
  return II_OK;
}

/* The position of an index vector seen from the operand side (gather
 * in2out, scatter out2in): a batching dim follows the operand dim it pairs
 * with, every other batch dim is a range variable. */
static uint32_t batch_positions(ii_ctx *c, const geom *g, const ae **pos, interval *pr, int64_t *ranges) {
  uint32_t nr = 0;
  for (uint32_t j = 0; j < g->ri; j++) {
    if ((int64_t)j == g->ivd) continue;
    int32_t paired = -1;
    for (uint32_t i = 0; i < g->rx; i++)
      if (g->batch[i] == (int32_t)j) paired = (int32_t)i;
    pr[j] = iv_make(0, g->is->dims[j] - 1);
    if (paired >= 0) {
      pos[j] = D(c, (uint32_t)paired);
    } else {
      ranges[nr] = g->is->dims[j];
      pos[j] = S(c, nr++);
    }
  }
  return nr;
}

/* Window offsets x_i - start_i along the window dims (in [0, size)), and
 * x_i = start_i along collapsed / inserted dims; res gets the offsets at
 * the window's r dims. */
static void window_offsets(ii_ctx *c, const geom *g, const hlo_instr *ind, const ae *const *pos, const interval *pr,
                           bool clamped, rtset *R, conset *C, const ae **res) {
  for (uint32_t i = 0; i < g->rx; i++) {
    if (g->batch[i] >= 0) continue;
    const ae *st = g->comp[i] >= 0 ? start_of(c, g, ind, i, pos, pr, clamped, R, C) : K(c, 0);
    const ae *off = ae_sub(c->ae, D(c, i), st);
    cons_add(C, off, iv_make(0, g->wsize[i] - 1));
    if (g->wres[i] >= 0) res[g->wres[i]] = off;
  }
}

ii_status ii_gather_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  geom g;
  if (gather_geom(c, in, &g, err) != II_OK) return II_ERROR;
  ii_indexing_init(c, out, 1);
  const ae **pos = ii_exprs(c, g.ri), **res = ii_exprs(c, g.rr);
  if (input_id == 1) { /* an index vector feeds its position's whole slice */
    int64_t *ranges = hb_arena_array(c->scratch, g.rr + 1, sizeof *ranges);
    uint32_t nr = 0;
    for (uint32_t d = 0; d < g.rr; d++) {
      res[d] = NULL;
      for (uint32_t j = 0; j < g.ri; j++)
        if (g.bres[j] == (int32_t)d) res[d] = D(c, j);
      if (!res[d]) ranges[nr] = g.r->dims[d], res[d] = S(c, nr++);
    }
    ii_add(c, out, 0, ii_map(c, g.ri, g.is->dims, nr, ranges, g.rr, res));
    return II_OK;
  }
  interval *pr = hb_arena_array(c->scratch, g.ri + 1, sizeof *pr);
  int64_t *ranges = hb_arena_array(c->scratch, g.ri + 1, sizeof *ranges);
  uint32_t nrange = batch_positions(c, &g, pos, pr, ranges), choice = 0, members = 1;
  do {
    rtset R;
    conset C;
    rts_init(c, &R, &g, nrange, choice);
    cons_init(c, &C, 2 * g.rx);
    for (uint32_t j = 0; j < g.ri; j++)
      if (g.bres[j] >= 0) res[g.bres[j]] = pos[j];
    window_offsets(c, &g, in->operands[1], pos, pr, true, &R, &C, res);
    ii_operand *x;
    ii_status st = finish(c, &g, g.rx, g.x->dims, ranges, &R, g.rr, res, &C, &x);
    if (st != II_OK) return st;
    ii_set_insert(c, &out->sets[0], x);
    members = 1u << R.nsplit;
  } while (++choice < members);
  return II_OK;
}

/* ---- scatter ----------------------------------------------------------------------------------------------- */

static ii_status scatter_geom(ii_ctx *c, const hlo_instr *in, geom *g, uint32_t *nout, ii_error *err) {
  const hlo_scatter_dims *sd = in->cold->ext->scatter;
  int n = in->n_operands / 2;
  if (!sd || in->n_operands % 2 != 1 || n < 1)
    return ii_fail(err, in, "scatter '%s' needs operands, indices and as many updates, and dimension numbers",
                   in->name);
  const hlo_shape *x = in->operands[0]->shape;
  for (int j = 0; j < n; j++) {
    const hlo_shape *xj = in->operands[j]->shape, *uj = in->operands[n + 1 + j]->shape;
    const hlo_shape *oj = ii_output_shape(in, n > 1 ? j : 0);
    bool same = ii_is_array(xj) && ii_is_array(oj) && ii_is_array(uj) && xj->rank == x->rank && oj->rank == x->rank &&
                uj->rank == in->operands[n + 1]->shape->rank;
    for (int i = 0; same && i < x->rank; i++) same = xj->dims[i] == x->dims[i] && oj->dims[i] == x->dims[i];
    for (int i = 0; same && i < uj->rank; i++) same = uj->dims[i] == in->operands[n + 1]->shape->dims[i];
    if (!same || (n > 1 && (in->shape->type != HLO_TUPLE || in->shape->n_elems != n)))
      return bad(in, "operands, results and updates of different shapes", err);
  }
  dimnums dn = {&sd->scatter_dims_to_operand_dims, &sd->inserted_window_dims, &sd->input_batching_dims,
                &sd->scatter_indices_batching_dims, &sd->update_window_dims, NULL, sd->index_vector_dim,
                "update_window_dims must be sorted update dims, one per operand dim neither inserted nor batching"};
  *nout = (uint32_t)n;
  return geom_build(c, in, x, in->operands[n]->shape, in->operands[n + 1]->shape, &dn, g, err);
}

ii_status ii_scatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id; /* every output reads alike */
  geom g;
  uint32_t n;
  if (scatter_geom(c, in, &g, &n, err) != II_OK) return II_ERROR;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  for (uint32_t j = 0; j < n; j++) ii_add(c, out, j, ii_identity(c, g.x));
  ii_add(c, out, n, every_element(c, g.rx, g.x->dims, g.is));
  const ae **pos = ii_exprs(c, g.ri), **res = ii_exprs(c, g.rr);
  interval *pr = hb_arena_array(c->scratch, g.ri + 1, sizeof *pr);
  int64_t *ranges = hb_arena_array(c->scratch, g.ri + 1, sizeof *ranges);
  rtset R;
  conset C;
  rts_init(c, &R, &g, batch_positions(c, &g, pos, pr, ranges), 0);
  cons_init(c, &C, 3 * g.rx);
  for (uint32_t j = 0; j < g.ri; j++)
    if (g.bres[j] >= 0) res[g.bres[j]] = pos[j];
  window_offsets(c, &g, in->operands[n], pos, pr, false, &R, &C, res);
  ii_operand *u;
  ii_status st = finish(c, &g, g.rx, g.x->dims, ranges, &R, g.rr, res, &C, &u);
  if (st != II_OK) return st;
  for (uint32_t j = 0; j < n; j++) ii_set_insert(c, &out->sets[n + 1 + j], u);
  return II_OK;
}

ii_status ii_scatter_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  geom g;
  uint32_t n;
  if (scatter_geom(c, in, &g, &n, err) != II_OK) return II_ERROR;
  ii_indexing_init(c, out, n);
  imap *m = NULL;
  ii_operand *u = NULL;
  if (input_id < (int64_t)n) {
    m = ii_identity(c, g.x);
  } else if (input_id == (int64_t)n) {
    m = every_element(c, g.ri, g.is->dims, g.x);
  } else { /* an update element lands at start + window offset */
    const ae **pos = ii_exprs(c, g.ri), **res = ii_exprs(c, g.rx);
    interval *pr = hb_arena_array(c->scratch, g.ri + 1, sizeof *pr);
    for (uint32_t j = 0; j < g.ri; j++)
      if (g.bres[j] >= 0) pos[j] = D(c, (uint32_t)g.bres[j]), pr[j] = iv_make(0, g.r->dims[g.bres[j]] - 1);
    rtset R;
    conset C;
    rts_init(c, &R, &g, 0, 0);
    cons_init(c, &C, g.rx);
    for (uint32_t i = 0; i < g.rx; i++) {
      const ae *e = g.wres[i] >= 0 ? D(c, (uint32_t)g.wres[i]) : K(c, 0);
      if (g.batch[i] >= 0) e = ae_add(c->ae, e, pos[g.batch[i]]);
      if (g.comp[i] >= 0) e = ae_add(c->ae, e, start_of(c, &g, in->operands[n], i, pos, pr, false, &R, &C));
      res[i] = e;
    }
    ii_status st = finish(c, &g, g.rr, g.r->dims, NULL, &R, g.rx, res, &C, &u);
    if (st != II_OK) return st;
  }
  for (uint32_t k = 0; k < n; k++) {
    if (u) ii_set_insert(c, &out->sets[k], u);
    else ii_add(c, out, k, m);
  }
  return II_OK;
}
