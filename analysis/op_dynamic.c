/* Ops with runtime variables: dynamic-slice §3.18, dynamic-update-slice
 * §3.19 (and their in2out maps, hloidx's), gather §3.20 in XLA's
 * simplified form (--xla-compat; op_gather.c has the general form), and
 * all-gather §3.22 (replica id). [V2] form: an offset that folds (a scalar constant inside its
 * feasible interval; an iota of gather indices) creates no runtime
 * variable, the others are numbered in order; then unused symbols are
 * removed (§6.7). Runtime-variable maps are never simplified. */
#include "ii_internal.h"

/* Collects runtime variables while a map is being built. */
typedef struct {
  uint32_t n;
  interval *iv;
  ii_rtvar *rt;
} rt_list;

static void rt_init(ii_ctx *c, rt_list *l, uint32_t cap) {
  l->n = 0;
  l->iv = hb_arena_array(c->scratch, cap ? cap : 1, sizeof *l->iv);
  l->rt = hb_arena_array(c->scratch, cap ? cap : 1, sizeof *l->rt);
}

/* A new runtime variable (symbol position = its number: these maps have no
 * range variables). */
static const ae *rt_new(ii_ctx *c, rt_list *l, interval iv, const hlo_instr *instr, imap *map) {
  l->iv[l->n] = iv;
  l->rt[l->n] = (ii_rtvar){instr, map, true, iv}; /* start indices are clamped into the feasible range */
  return S(c, l->n++);
}

/* The operand indexing of a map over `out` with results `res` whose
 * symbols are the runtime variables of l, and constraints cons[k] in
 * civ[k]; unused symbols removed ([V2]). */
static ii_status rt_operand_cons(ii_ctx *c, const hlo_shape *out, uint32_t nres, const ae **res, rt_list *l,
                                 uint32_t ncons, const ae **cons, const interval *civ, ii_operand **px) {
  uint32_t n = ii_rank(out);
  interval *div = hb_arena_array(c->scratch, n ? n : 1, sizeof *div);
  for (uint32_t i = 0; i < n; i++) div[i] = iv_make(0, out->dims[i] - 1);
  imap *m = imap_new(c->scratch, c->ae, n, 0, l->n, div, l->iv, nres, res);
  for (uint32_t k = 0; k < ncons; k++) imap_add_constraint(m, cons[k], civ[k]);
  ii_operand *x = ii_wrap(c, m);
  x->nrt = l->n;
  x->rt = l->rt;
  *px = x;
  return ii_operand_simplify(c, x, false, true);
}

static ii_status rt_operand(ii_ctx *c, const hlo_shape *out, uint32_t nres, const ae **res, rt_list *l,
                            ii_operand **px) {
  return rt_operand_cons(c, out, nres, res, l, 0, NULL, NULL, px);
}

/* The value of a scalar integer constant offset, if any. */
static bool constant_offset(const hlo_instr *in, int64_t *v) {
  return in->op == HLO_OP_CONSTANT && in->shape->type != HLO_TUPLE && in->shape->rank == 0 &&
         hlo_constant_scalar_int(in, v);
}

/* Start indices must be scalars (XLA CHECKs this; the old single-vector
 * form is rejected). */
static ii_status scalar_starts(const hlo_instr *in, int first, uint32_t rank, ii_error *err) {
  if ((uint32_t)(in->n_operands - first) != rank)
    return ii_fail(err, in, "%s '%s' needs one scalar start index per dimension (%u), it has %d operand%s after %s",
                   hlo_instr_opcode_text(in), in->name, rank, in->n_operands - first,
                   in->n_operands - first == 1 ? "" : "s", first == 1 ? "the operand" : "the update");
  for (int k = first; k < in->n_operands; k++) {
    const hlo_shape *s = in->operands[k]->shape;
    if (!ii_is_array(s) || s->rank != 0)
      return ii_fail(err, in, "%s '%s': start index operand %d is not a scalar (XLA's indexing analysis requires "
                     "scalar start indices)", hlo_instr_opcode_text(in), in->name, k);
  }
  return II_OK;
}

/* ---- dynamic-slice ----------------------------------------------------------------------------------- */

/* The start along dim i: a scalar constant inside its feasible interval
 * folds, any other offset is a runtime variable described over `from`. */
static const ae *offset_of(ii_ctx *c, rt_list *l, const hlo_instr *idx, interval feasible, const hlo_shape *from) {
  int64_t v;
  if (constant_offset(idx, &v) && iv_contains(feasible, v)) return K(c, v);
  return rt_new(c, l, feasible, idx, ii_scalar_map(c, from));
}

/* An offset operand decides where every output element comes from. */
static void every_output(ii_ctx *c, const hlo_shape *o, ii_indexing *out) {
  uint32_t r = ii_rank(o);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) res[i] = S(c, i);
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_map(c, 0, NULL, r, ii_dims(o), r, res));
}

static ii_status ds_check(const hlo_instr *in, ii_error *err) {
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  if (!ii_is_array(x) || !ii_is_array(o) || ii_rank(o) != ii_rank(x))
    return ii_fail(err, in, "dynamic-slice '%s': the result must have the operand's rank", in->name);
  return scalar_starts(in, 1, ii_rank(x), err);
}

ii_status ii_dynamic_slice_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (ds_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  uint32_t r = ii_rank(x);
  rt_list l;
  rt_init(c, &l, r);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++)
    res[i] = ae_add(c->ae, D(c, i), offset_of(c, &l, in->operands[i + 1], iv_make(0, x->dims[i] - o->dims[i]), o));
  ii_operand *x0;
  ii_status st = rt_operand(c, o, r, res, &l, &x0);
  if (st != II_OK) return st;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  ii_set_insert(c, &out->sets[0], x0);
  for (int k = 1; k < in->n_operands; k++) ii_add(c, out, (uint32_t)k, ii_scalar_map(c, o));
  return II_OK;
}

/* in2out (hloidx's): operand element x feeds output x - start where that
 * lies in the slice; each offset feeds every output element. */
ii_status ii_dynamic_slice_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  if (ds_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  if (input_id > 0) {
    every_output(c, o, out);
    return II_OK;
  }
  uint32_t r = ii_rank(x);
  rt_list l;
  rt_init(c, &l, r);
  const ae **res = ii_exprs(c, r), **cons = ii_exprs(c, r);
  interval *civ = hb_arena_array(c->scratch, r ? r : 1, sizeof *civ);
  for (uint32_t i = 0; i < r; i++) {
    const ae *off = offset_of(c, &l, in->operands[i + 1], iv_make(0, x->dims[i] - o->dims[i]), x);
    res[i] = cons[i] = ae_sub(c->ae, D(c, i), off);
    civ[i] = iv_make(0, o->dims[i] - 1);
  }
  ii_operand *x0;
  ii_status st = rt_operand_cons(c, x, r, res, &l, r, cons, civ, &x0);
  if (st != II_OK) return st;
  ii_indexing_init(c, out, 1);
  ii_set_insert(c, &out->sets[0], x0);
  return II_OK;
}

/* ---- dynamic-update-slice ------------------------------------------------------------------------------ */

static ii_status dus_check(const hlo_instr *in, ii_error *err) {
  const hlo_shape *o = in->shape, *u = in->operands[1]->shape;
  if (!ii_is_array(o) || !ii_is_array(u) || ii_rank(u) != ii_rank(o))
    return ii_fail(err, in, "dynamic-update-slice '%s': the update must have the operand's rank", in->name);
  return scalar_starts(in, 2, ii_rank(o), err);
}

/* Operand 0 gets the identity (the updated window is not excluded, as in
 * XLA); the update gets d_i - rt_i over the whole output. */
ii_status ii_dus_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (dus_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *o = in->shape, *u = in->operands[1]->shape;
  uint32_t r = ii_rank(o);
  rt_list l;
  rt_init(c, &l, r);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++)
    res[i] = ae_sub(c->ae, D(c, i), offset_of(c, &l, in->operands[i + 2], iv_make(0, o->dims[i] - u->dims[i]), o));
  ii_operand *x1;
  ii_status st = rt_operand(c, o, r, res, &l, &x1);
  if (st != II_OK) return st;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  ii_add(c, out, 0, ii_identity(c, o));
  ii_set_insert(c, &out->sets[1], x1);
  for (int k = 2; k < in->n_operands; k++) ii_add(c, out, (uint32_t)k, ii_scalar_map(c, o));
  return II_OK;
}

/* in2out (hloidx's): the base as out2in (the identity, over-approximating
 * the overwritten window), an update element lands at start + its index,
 * each offset feeds every output element. */
ii_status ii_dus_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  if (dus_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *o = in->shape, *u = in->operands[1]->shape;
  if (input_id != 1) {
    if (input_id > 1) every_output(c, o, out);
    else ii_indexing_init(c, out, 1), ii_add(c, out, 0, ii_identity(c, o));
    return II_OK;
  }
  uint32_t r = ii_rank(o);
  rt_list l;
  rt_init(c, &l, r);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++)
    res[i] = ae_add(c->ae, D(c, i), offset_of(c, &l, in->operands[i + 2], iv_make(0, o->dims[i] - u->dims[i]), u));
  ii_operand *x1;
  ii_status st = rt_operand(c, u, r, res, &l, &x1);
  if (st != II_OK) return st;
  ii_indexing_init(c, out, 1);
  ii_set_insert(c, &out->sets[0], x1);
  return II_OK;
}

/* ---- gather ---------------------------------------------------------------------------------------------- */

/* XLA only indexes the "simplified" gather (GatherSimplifier): indices of
 * rank 2 with index_vector_dim = 1, no collapsed or batching dims, and
 * offset_dims = {1, ..., rank(operand)}; output = [batch, slice sizes]. */
static ii_status gather_check(const hlo_instr *in, ii_error *err) {
  const hlo_gather_dims *g = in->cold->ext->gather;
  const hlo_shape *x = in->operands[0]->shape, *ind = in->operands[1]->shape, *o = in->shape;
  uint32_t r = ii_rank(x);
  bool ok = g && ii_is_array(x) && ii_is_array(ind) && ii_is_array(o) && ind->rank == 2 && g->index_vector_dim == 1 &&
            g->collapsed_slice_dims.n == 0 && g->operand_batching_dims.n == 0 &&
            g->start_indices_batching_dims.n == 0 && g->offset_dims.n == (int)r && g->slice_sizes.n == (int)r &&
            ii_rank(o) == r + 1 && g->start_index_map.n == ind->dims[1] && o->dims[0] == ind->dims[0];
  for (uint32_t i = 0; ok && i < r; i++) ok = g->offset_dims.v[i] == (int64_t)i + 1 && g->slice_sizes.v[i] == o->dims[i + 1];
  for (int t = 0; ok && t < g->start_index_map.n; t++) {
    ok = g->start_index_map.v[t] >= 0 && g->start_index_map.v[t] < (int64_t)r;
    for (int u = 0; ok && u < t; u++) ok = g->start_index_map.v[u] != g->start_index_map.v[t];
  }
  if (!ok)
    return ii_fail(err, in, "gather '%s' is not in the simplified form XLA's indexing analysis requires (indices of "
                   "rank 2, index_vector_dim=1, no collapsed or batching dims, offset_dims={1,...,rank})", in->name);
  return II_OK;
}

ii_status ii_gather_o2i_xla(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (gather_check(in, err) != II_OK) return II_ERROR;
  const hlo_gather_dims *g = in->cold->ext->gather;
  const hlo_instr *indices = in->operands[1];
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  uint32_t r = ii_rank(x), ro = ii_rank(o);
  int64_t L = indices->shape->dims[1];
  rt_list l;
  rt_init(c, &l, r);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) {
    res[i] = D(c, (uint32_t)g->offset_dims.v[i]);
    int t = -1;
    for (int u = 0; u < g->start_index_map.n; u++)
      if (g->start_index_map.v[u] == (int64_t)i) t = u;
    if (t < 0) continue;
    /* the index vector component t of batch row d0: (d0, ...) -> (d0, t) */
    const ae **dr = ii_exprs(c, 2);
    dr[0] = D(c, 0);
    dr[1] = K(c, t);
    const ae *off;
    if (indices->op == HLO_OP_IOTA && indices->cold->ext->has_iota_dimension &&
        indices->cold->ext->iota_dimension >= 0 && indices->cold->ext->iota_dimension < 2) {
      off = dr[indices->cold->ext->iota_dimension]; /* an iota holds its own index along iota_dimension */
    } else {
      imap *dm = ii_map(c, ro, ii_dims(o), 0, NULL, 2, dr);
      off = rt_new(c, &l, iv_make(0, x->dims[i] - g->slice_sizes.v[i]), indices, dm);
    }
    res[i] = ae_add(c->ae, res[i], off);
  }
  ii_operand *x0;
  ii_status st = rt_operand(c, o, r, res, &l, &x0);
  if (st != II_OK) return st;
  const ae **ir = ii_exprs(c, 2);
  ir[0] = D(c, 0);
  ir[1] = S(c, 0);
  ii_indexing_init(c, out, 2);
  ii_set_insert(c, &out->sets[0], x0);
  ii_add(c, out, 1, ii_map(c, ro, ii_dims(o), 1, &L, 2, ir));
  return II_OK;
}

/* ---- all-gather ------------------------------------------------------------------------------------------ */

/* Operand k, gathered along g with per-replica size n: (.., d_g mod n, ..)
 * over output k, and the replica-id map (d_g floordiv n). The output of
 * all-gather-start is its tuple element 1. */
ii_status ii_all_gather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_shape *outs = in->shape;
  if (in->op == HLO_OP_ALL_GATHER_START) {
    if (outs->type != HLO_TUPLE || outs->n_elems < 2)
      return ii_fail(err, in, "all-gather-start '%s' must have a tuple shape (operands, outputs)", in->name);
    outs = outs->elems[1];
  }
  if (in->cold->dimensions.n != 1)
    return ii_fail(err, in, "%s '%s' needs dimensions= with one entry", hlo_instr_opcode_text(in), in->name);
  int64_t g = in->cold->dimensions.v[0];
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  for (int k = 0; k < in->n_operands; k++) {
    const hlo_shape *x = in->operands[k]->shape;
    const hlo_shape *o = outs->type == HLO_TUPLE ? (k < outs->n_elems ? outs->elems[k] : NULL) : outs;
    if (!o || !ii_is_array(o) || !ii_is_array(x) || ii_rank(o) != ii_rank(x) || g < 0 || g >= (int64_t)ii_rank(x))
      return ii_fail(err, in, "%s '%s': operand %d does not match its output along dimension %lld",
                     hlo_instr_opcode_text(in), in->name, k, (long long)g);
    uint32_t r = ii_rank(o);
    int64_t n = x->dims[g];
    if (n == 0 && o->dims[g] != 0)
      return ii_fail(err, in, "%s '%s': operand %d is empty along dimension %lld", hlo_instr_opcode_text(in), in->name,
                     k, (long long)g);
    const ae **res = ii_exprs(c, r);
    for (uint32_t i = 0; i < r; i++) res[i] = D(c, i);
    const ae **rep = ii_exprs(c, 1);
    res[g] = n ? ae_mod(c->ae, D(c, (uint32_t)g), K(c, n)) : K(c, 0);
    rep[0] = n ? ae_floordiv(c->ae, D(c, (uint32_t)g), K(c, n)) : K(c, 0);
    ii_operand *op = ii_wrap(c, ii_map(c, r, ii_dims(o), 0, NULL, r, res));
    op->replica = ii_map(c, r, ii_dims(o), 0, NULL, 1, rep);
    ii_set_insert(c, &out->sets[k], op);
  }
  return II_OK;
}
