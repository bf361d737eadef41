/* st_derive (symbolic-tiles.md §3.1-§3.3, §3.7), evaluation at concrete
 * tile sizes (§5.5) and the offsets of a whole tiling. The size and stride
 * of each strided part come from tile_extract.c. */
#include "symbolic_tile.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "map_print.h"
#include "../parser/base/oom.h"
#include "simplify.h"
#include "tile_extract.h"

__attribute__((format(printf, 4, 5))) static st_status give_up(st_status st, char *why, size_t cap, const char *fmt,
                                                               ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
  return st;
}

/* A copy of M with the given results, simplified in preserve-points mode:
 * XLA simplifies each offset and each strided part as a one-result map with
 * M's domain and constraints; the result simplification is per result, so
 * one map holding all of them gives the same expressions. */
static bool simplified_results(hb_arena *a, const imap *m, const ae **res) {
  imap *t = imap_copy(a, m);
  for (uint32_t j = 0; j < m->nresults; j++) imap_set_result(t, j, res[j]);
  if (imap_simplify_budgeted(t, SIMPLIFY_PRESERVE_POINTS, ST_NODE_BUDGET) != SIMPLIFY_OK) return false;
  for (uint32_t j = 0; j < m->nresults; j++) res[j] = t->results[j];
  return true;
}

/* §3.1 step 3: a constraint must cut off high indices of one result. */
static st_status check_constraints(const imap *m, char *why, size_t cap) {
  for (uint32_t i = 0; i < m->ncons; i++) {
    const imap_constraint *k = &m->cons[i];
    bool on_result = false;
    for (uint32_t j = 0; j < m->nresults && !on_result; j++) on_result = m->results[j] == k->expr;
    if (k->iv.lo == 0 && on_result) continue;
    hb_strbuf b = HB_STRBUF_INIT;
    map_print_constraint(&b, k->expr, k->iv, m->nrange);
    give_up(ST_NONE, why, cap, "%s: %s", on_result ? "a constraint that does not start at 0" : "a constraint that is not on a result",
            hb_sb_str(&b));
    hb_sb_free(&b);
    return ST_NONE;
  }
  return ST_OK;
}

st_status st_derive(hb_arena *a, const imap *m0, bool xla_compat, st_tile *t, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  if (m0->undefined) return give_up(ST_NONE, why, cap, "the map is undefined (unknown indexing)");
  ae_ctx *c = m0->ctx;
  imap *m = imap_copy(a, m0);
  if (imap_simplify_budgeted(m, SIMPLIFY_PRESERVE_POINTS, ST_NODE_BUDGET) != SIMPLIFY_OK)
    return give_up(ST_TOO_LARGE, why, cap, "simplifying the map exceeds the budget of %zu expression nodes", ST_NODE_BUDGET);
  st_status st = check_constraints(m, why, cap);
  if (st != ST_OK) return st;
  /* max and min come only from maps read as text (XLA's symbolic
   * expressions): XLA's symbolic tiles are of affine maps, which have none.
   * hloidx's own semantics tiles a map whose max and min involve runtime
   * variables only (they stay in the offsets); tx_extract rejects the rest. */
  for (uint32_t j = 0; xla_compat && j < m->nresults; j++)
    if (ae_has_minmax(m->results[j])) {
      hb_strbuf b = HB_STRBUF_INIT;
      map_print_expr(&b, m->results[j], m->nrange);
      give_up(ST_NONE, why, cap, "a max or min (XLA's symbolic tiles are of affine maps): %s", hb_sb_str(&b));
      hb_sb_free(&b);
      return ST_NONE;
    }
  uint32_t nd = m->ndims, ns = imap_nsyms(m), nr = m->nresults;

  /* §3.2 offsets: dimensions and range variables at 0, runtime variables kept */
  const ae **zero_d = hb_arena_array(a, nd + 1, sizeof *zero_d), **zero_s = hb_arena_array(a, ns + 1, sizeof *zero_s);
  for (uint32_t i = 0; i < nd; i++) zero_d[i] = ae_const(c, 0);
  for (uint32_t i = 0; i < ns; i++) zero_s[i] = i < m->nrange ? ae_const(c, 0) : NULL;
  const ae **off = hb_arena_array(a, nr + 1, sizeof *off), **part = hb_arena_array(a, nr + 1, sizeof *part);
  ae_subst_many(c, nr, m->results, off, zero_d, nd, zero_s, ns);
  /* (simplifying constants, or M's own simplified results again, changes
   * nothing: the simplifier runs to a fixed point; those are skipped) */
  bool consts = true, same = true, ok = true;
  for (uint32_t j = 0; j < nr; j++) consts &= off[j]->kind == AE_CONST;
  if (!consts) ok = simplified_results(a, m, off);
  /* §3.3 strided parts: result - offset */
  for (uint32_t j = 0; ok && j < nr; j++) {
    part[j] = ae_add(c, m->results[j], ae_mul(c, off[j], ae_const(c, -1)));
    same &= part[j] == m->results[j];
  }
  if (!ok || (!same && !simplified_results(a, m, part)))
    return give_up(ST_TOO_LARGE, why, cap, "simplifying the offsets exceeds the budget of %zu expression nodes", ST_NODE_BUDGET);

  /* §3.4 sizes and strides */
  t->sizes = hb_arena_array(a, nr + 1, sizeof *t->sizes);
  t->strides = hb_arena_array(a, nr + 1, sizeof *t->strides);
  tx_ctx x = {a, m, &t->cons, why, cap, xla_compat};
  for (uint32_t j = 0; j < nr; j++)
    if (!tx_extract(&x, part[j], &t->sizes[j], &t->strides[j])) return ST_NONE;

  /* §3.7 the runtime variables the offsets use, renumbered s0, s1, ... */
  bool *used = hb_arena_zalloc(a, ns + 1);
  for (uint32_t j = 0; j < nr; j++) ae_collect_vars(off[j], NULL, 0, used, ns);
  const ae **renum = hb_arena_array(a, ns + 1, sizeof *renum);
  uint32_t *rt_of = hb_arena_array(a, m->nrt + 1, sizeof *rt_of);
  interval *rt_iv = hb_arena_array(a, m->nrt + 1, sizeof *rt_iv);
  uint32_t nrt = 0;
  for (uint32_t i = 0; i < ns; i++) {
    renum[i] = NULL;
    if (i < m->nrange || !used[i]) continue;
    rt_of[nrt] = i - m->nrange;
    rt_iv[nrt] = m->sym_iv[i];
    renum[i] = ae_sym(c, nrt++);
  }
  t->offsets = hb_arena_array(a, nr + 1, sizeof *t->offsets);
  ae_subst_many(c, nr, off, t->offsets, NULL, 0, renum, ns);
  t->nrt = nrt;
  t->rt_of = rt_of;
  t->rt_iv = rt_iv;

  interval *size_iv = hb_arena_array(a, nd + 1, sizeof *size_iv);
  for (uint32_t i = 0; i < nd; i++) {
    interval iv = m->dim_iv[i];
    if (!hb_ck_add(iv.lo, 1, &size_iv[i].lo)) size_iv[i].lo = iv.lo;
    if (!hb_ck_add(iv.hi, 1, &size_iv[i].hi)) size_iv[i].hi = iv.hi;
  }
  t->map = m;
  t->ndims = nd;
  t->size_iv = size_iv;
  t->nresults = nr;
  if (ae_ctx_status(c) != AE_STATUS_OK) {
    ae_ctx_clear_status(c);
    return give_up(ST_TOO_LARGE, why, cap, "the tile's expressions exceed the expression limits");
  }
  return ST_OK;
}

bool st_eval(const st_tile *t, const int64_t *ts, int64_t *sizes, int64_t *strides) {
  int64_t *clamped = hb_malloc((t->ndims + 1) * sizeof *clamped);
  for (uint32_t i = 0; i < t->ndims; i++) clamped[i] = ts[i] > t->size_iv[i].hi ? t->size_iv[i].hi : ts[i];
  bool ok = true;
  for (uint32_t j = 0; j < t->nresults && ok; j++)
    ok = ae_eval_point(t->sizes[j], ts, t->ndims, NULL, 0, &sizes[j]) &&
         ae_eval_point(t->strides[j], clamped, t->ndims, NULL, 0, &strides[j]);
  free(clamped);
  return ok;
}

bool st_holds(const st_tile *t, const int64_t *ts) { return tc_factors_hold(&t->cons, ts, t->ndims); }

imap *st_offsets_map(hb_arena *a, const st_tile *t, const int64_t *ts, const int64_t *extent, int32_t *rt_of) {
  const imap *m = t->map;
  ae_ctx *c = m->ctx;
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  const ae **dsub = hb_arena_array(a, nd + 1, sizeof *dsub), **ssub = hb_arena_array(a, ns + 1, sizeof *ssub);
  interval *div = hb_arena_array(a, nd + 1, sizeof *div);
  for (uint32_t i = 0; i < nd; i++) {
    dsub[i] = ae_mul(c, ae_dim(c, i), ae_const(c, ts[i]));
    /* the tiles that meet the map's domain: the others do not read the operand */
    int64_t n = 0, lo = 0, hi = 0;
    hb_ck_ceildiv(extent[i], ts[i], &n);
    interval d = m->dim_iv[i];
    if (d.lo > 0) hb_ck_floordiv(d.lo, ts[i], &lo);
    hb_ck_floordiv(d.hi, ts[i], &hi);
    div[i] = iv_make(lo, hi < n - 1 ? hi : n - 1);
  }
  for (uint32_t i = 0; i < ns; i++) ssub[i] = i < m->nrange ? ae_const(c, 0) : ae_sym(c, i - m->nrange);
  const ae **res = hb_arena_array(a, m->nresults + 1, sizeof *res);
  ae_subst_many(c, m->nresults, m->results, res, dsub, nd, ssub, ns);
  imap *o = imap_new(a, c, nd, 0, m->nrt, div, m->sym_iv + m->nrange, m->nresults, res);
  if (imap_simplify_budgeted(o, SIMPLIFY_REPLACE_POINTS, ST_NODE_BUDGET) != SIMPLIFY_OK) return NULL;
  int32_t *map = hb_arena_array(a, m->nrt + 1, sizeof *map);
  imap_remove_unused_symbols(o, map);
  if (rt_of)
    for (uint32_t j = 0; j < m->nrt; j++) rt_of[j] = map[j];
  return o;
}
