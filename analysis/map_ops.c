#include "map_ops.h"

#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "simplify.h"

static const char *dim_name(const map_names *n, uint32_t i) { return n->dims ? n->dims[i] : NULL; }
static const char *sym_name(const map_names *n, uint32_t i) { return n->syms ? n->syms[i] : NULL; }

mo_map mo_compose(hb_arena *a, mo_map first, mo_map second) {
  mo_map r = {imap_compose(a, first.map, second.map), {NULL, NULL}};
  if (r.map->undefined) return r;
  const imap *F = first.map, *S = second.map;
  uint32_t Sr = S->nrange, St = S->nrt, Fr = F->nrange, Ft = F->nrt;
  r.names = map_names_new(a, F->ndims, Sr + Fr + St + Ft);
  for (uint32_t i = 0; i < F->ndims; i++) r.names.dims[i] = dim_name(&first.names, i);
  /* the symbol order of imap_compose: [S.range | F.range | S.rt | F.rt] */
  for (uint32_t i = 0; i < Sr; i++) r.names.syms[i] = sym_name(&second.names, i);
  for (uint32_t i = 0; i < Fr; i++) r.names.syms[Sr + i] = sym_name(&first.names, i);
  for (uint32_t i = 0; i < St; i++) r.names.syms[Sr + Fr + i] = sym_name(&second.names, Sr + i);
  for (uint32_t i = 0; i < Ft; i++) r.names.syms[Sr + Fr + St + i] = sym_name(&first.names, Fr + i);
  return r;
}

mo_map mo_submap(hb_arena *a, mo_map m, const uint32_t *results, uint32_t n) {
  const imap *M = m.map;
  const ae **res = hb_arena_array(a, n ? n : 1, sizeof *res);
  for (uint32_t i = 0; i < n; i++) res[i] = M->results[results[i]];
  mo_map r = {imap_new(a, M->ctx, M->ndims, M->nrange, M->nrt, M->dim_iv, M->sym_iv, n, res), m.names};
  if (M->known_empty) imap_set_known_empty(r.map);
  for (uint32_t k = 0; k < M->ncons; k++) imap_put_constraint(r.map, M->cons[k].expr, M->cons[k].iv);
  return r;
}

mo_map mo_symbols_to_dims(hb_arena *a, mo_map m) {
  const imap *M = m.map;
  ae_ctx *c = M->ctx;
  uint32_t nd = M->ndims, ns = imap_nsyms(M);
  if (M->undefined) return m;
  const ae **repl = hb_arena_array(a, ns ? ns : 1, sizeof *repl);
  for (uint32_t j = 0; j < ns; j++) repl[j] = ae_dim(c, nd + j);
  interval *div = hb_arena_array(a, (size_t)nd + ns + 1, sizeof *div);
  memcpy(div, M->dim_iv, nd * sizeof *div);
  memcpy(div + nd, M->sym_iv, ns * sizeof *div);
  uint32_t nk = M->nresults + M->ncons;
  const ae **in = hb_arena_array(a, (size_t)nk + 1, sizeof *in);
  const ae **out = hb_arena_array(a, (size_t)nk + 1, sizeof *out);
  for (uint32_t i = 0; i < M->nresults; i++) in[i] = M->results[i];
  for (uint32_t k = 0; k < M->ncons; k++) in[M->nresults + k] = M->cons[k].expr;
  ae_subst_many(c, nk, in, out, NULL, 0, repl, ns);
  mo_map r;
  r.map = imap_new(a, c, nd + ns, 0, 0, div, NULL, M->nresults, out);
  if (M->known_empty) imap_set_known_empty(r.map);
  for (uint32_t k = 0; k < M->ncons; k++) imap_add_constraint(r.map, out[M->nresults + k], M->cons[k].iv);
  r.names = map_names_new(a, nd + ns, 0);
  for (uint32_t i = 0; i < nd; i++) r.names.dims[i] = dim_name(&m.names, i);
  for (uint32_t j = 0; j < ns; j++) r.names.dims[nd + j] = sym_name(&m.names, j);
  return r;
}

/* ---- unused variables ----------------------------------------------------------------------- */

/* XLA's DetectUnusedVariables / RemoveUnusedVars for dimensions (and symbols
 * with them): a variable is unused when no result mentions it; a constraint
 * that mentions only unused variables of the kinds being removed is a
 * candidate, any other marks its variables used; candidates whose
 * variables are all still unused at the end are dropped. Removed variables
 * become the constant 0 in the constraints that stay. */
static uint32_t remove_unused_vars(mo_map *mm, bool dims, bool syms) {
  imap *m = mm->map;
  hb_arena *a = m->arena;
  ae_ctx *c = m->ctx;
  uint32_t nd = m->ndims, ns = imap_nsyms(m), nv = nd + ns;
  if (m->undefined || nv == 0) return 0;
  bool *used = hb_arena_zalloc(a, nv + 1);
  for (uint32_t i = 0; i < nd; i++) used[i] = !dims;
  for (uint32_t j = 0; j < ns; j++) used[nd + j] = !syms;
  for (uint32_t i = 0; i < m->nresults; i++) ae_collect_vars(m->results[i], used, nd, used + nd, ns);
  bool *cand = hb_arena_zalloc(a, m->ncons + 1);
  bool *ment = hb_arena_zalloc(a, nv + 1);
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t k = 0; k < m->ncons; k++) {
      if (pass == 1 && !cand[k]) continue;
      memset(ment, 0, nv);
      ae_collect_vars(m->cons[k].expr, ment, nd, ment + nd, ns);
      bool only_unused = true;
      for (uint32_t v = 0; v < nv; v++)
        if (ment[v] && used[v]) only_unused = false;
      if (pass == 0) {
        if (only_unused) cand[k] = true;
        else
          for (uint32_t v = 0; v < nv; v++) used[v] |= ment[v];
      } else {
        cand[k] = only_unused; /* now: dropped */
      }
    }
  }
  uint32_t removed = 0;
  for (uint32_t v = 0; v < nv; v++) removed += !used[v];
  if (removed == 0) return 0;

  const ae **drepl = hb_arena_array(a, nd + 1, sizeof *drepl), **srepl = hb_arena_array(a, ns + 1, sizeof *srepl);
  interval *div = hb_arena_array(a, nd + 1, sizeof *div), *siv = hb_arena_array(a, ns + 1, sizeof *siv);
  map_names nn = map_names_new(a, nd, ns);
  uint32_t ndn = 0, nsn = 0, nrange = 0;
  for (uint32_t i = 0; i < nd; i++) {
    if (!used[i]) {
      drepl[i] = ae_const(c, 0);
      continue;
    }
    nn.dims[ndn] = dim_name(&mm->names, i);
    div[ndn] = m->dim_iv[i];
    drepl[i] = ae_dim(c, ndn++);
  }
  for (uint32_t j = 0; j < ns; j++) {
    if (!used[nd + j]) {
      srepl[j] = ae_const(c, 0);
      continue;
    }
    nn.syms[nsn] = sym_name(&mm->names, j);
    siv[nsn] = m->sym_iv[j];
    srepl[j] = ae_sym(c, nsn++);
    nrange += j < m->nrange;
  }
  uint32_t nk = m->nresults + m->ncons;
  const ae **in = hb_arena_array(a, (size_t)nk + 1, sizeof *in);
  const ae **out = hb_arena_array(a, (size_t)nk + 1, sizeof *out);
  for (uint32_t i = 0; i < m->nresults; i++) in[i] = m->results[i];
  for (uint32_t k = 0; k < m->ncons; k++) in[m->nresults + k] = m->cons[k].expr;
  ae_subst_many(c, nk, in, out, drepl, nd, srepl, ns);
  imap *r = imap_new(a, c, ndn, nrange, nsn - nrange, div, siv, m->nresults, out);
  if (m->known_empty) imap_set_known_empty(r);
  for (uint32_t k = 0; k < m->ncons; k++)
    if (!cand[k]) imap_add_constraint(r, out[m->nresults + k], m->cons[k].iv);
  mm->map = r;
  mm->names = nn;
  return removed;
}

uint32_t mo_remove_unused(mo_map *m, int what) {
  if (what == MO_UNUSED_SYMBOLS) {
    /* exactly the analysis's RemoveUnusedSymbols (§6.6) */
    uint32_t ns = imap_nsyms(m->map);
    int32_t *o2n = hb_arena_array(m->map->arena, ns + 1, sizeof *o2n);
    uint32_t removed = imap_remove_unused_symbols(m->map, o2n);
    if (removed && m->names.syms) {
      const char **s = hb_arena_zalloc(m->map->arena, (ns + 1) * sizeof *s);
      for (uint32_t j = 0; j < ns; j++)
        if (o2n[j] >= 0) s[o2n[j]] = m->names.syms[j];
      m->names.syms = s;
    }
    return removed;
  }
  return remove_unused_vars(m, (what & MO_UNUSED_DIMS) != 0, (what & MO_UNUSED_SYMBOLS) != 0);
}

/* ---- queries ------------------------------------------------------------------------------------ */

mo_eval_status mo_eval(const imap *m, const int64_t *vals, int64_t *results, mo_violation *viol, uint32_t *nviol) {
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  *nviol = 0;
  for (uint32_t v = 0; v < nd + ns; v++) {
    interval iv = v < nd ? m->dim_iv[v] : m->sym_iv[v - nd];
    if (!iv_contains(iv, vals[v])) viol[(*nviol)++] = (mo_violation){true, v, vals[v]};
  }
  for (uint32_t k = 0; k < m->ncons; k++) {
    int64_t x;
    if (!ae_eval_point(m->cons[k].expr, vals, nd, vals + nd, ns, &x)) return MO_EVAL_ARITH;
    if (!iv_contains(m->cons[k].iv, x)) viol[(*nviol)++] = (mo_violation){false, k, x};
  }
  for (uint32_t i = 0; i < m->nresults; i++)
    if (!ae_eval_point(m->results[i], vals, nd, vals + nd, ns, &results[i])) return MO_EVAL_ARITH;
  return MO_EVAL_OK;
}

uint64_t mo_box_points(const imap *m) {
  uint64_t n = 1;
  for (uint32_t v = 0; v < m->ndims + imap_nsyms(m); v++) {
    interval iv = v < m->ndims ? m->dim_iv[v] : m->sym_iv[v - m->ndims];
    if (!iv_feasible(iv)) return 0;
    uint64_t w = (uint64_t)iv.hi - (uint64_t)iv.lo + 1; /* 0 when the interval is all of int64 */
    if (w == 0 || n > UINT64_MAX / w) return UINT64_MAX;
    n *= w;
  }
  return n;
}

/* Odometer over vals[from, to) within their intervals; false after the last point. */
static bool next_point(const imap *m, int64_t *vals, uint32_t from, uint32_t to) {
  for (uint32_t v = to; v-- > from;) {
    interval iv = v < m->ndims ? m->dim_iv[v] : m->sym_iv[v - m->ndims];
    if (vals[v] < iv.hi) {
      vals[v]++;
      return true;
    }
    vals[v] = iv.lo;
  }
  return false;
}

static bool holds(const imap *m, const int64_t *vals, bool *arith) {
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  for (uint32_t k = 0; k < m->ncons; k++) {
    int64_t x;
    if (!ae_eval_point(m->cons[k].expr, vals, nd, vals + nd, ns, &x)) {
      *arith = true;
      return false;
    }
    if (!iv_contains(m->cons[k].iv, x)) return false;
  }
  return true;
}

static int cmp_tuple(const int64_t *a, const int64_t *b, size_t w) {
  for (size_t i = 0; i < w; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Sorts n tuples of w values (bottom-up merge sort through tmp). */
static void sort_tuples(int64_t *v, int64_t *tmp, uint64_t n, size_t w) {
  for (uint64_t run = 1; run < n; run *= 2) {
    for (uint64_t lo = 0; lo < n; lo += 2 * run) {
      uint64_t mid = lo + run < n ? lo + run : n, hi = lo + 2 * run < n ? lo + 2 * run : n;
      uint64_t i = lo, j = mid, k = lo;
      while (i < mid || j < hi) {
        bool left = j >= hi || (i < mid && cmp_tuple(v + i * w, v + j * w, w) <= 0);
        memcpy(tmp + k++ * w, v + (left ? i++ : j++) * w, w * sizeof *v);
      }
    }
    memcpy(v, tmp, n * w * sizeof *v);
  }
}

bool mo_image(hb_arena *a, const imap *m, const int64_t *dims, uint64_t max_points, int64_t **tuples,
              uint64_t *ntuples, const char **why) {
  uint32_t nd = m->ndims, ns = imap_nsyms(m), nr = m->nresults;
  *ntuples = 0;
  *tuples = NULL;
  if (m->known_empty) return true;
  uint64_t pts = 1;
  for (uint32_t j = 0; j < ns; j++) {
    interval iv = m->sym_iv[j];
    uint64_t w = (uint64_t)iv.hi - (uint64_t)iv.lo + 1;
    if (!iv_feasible(iv)) return true;
    if (w == 0 || pts > max_points / w) {
      *why = "the symbols take too many values to enumerate";
      return false;
    }
    pts *= w;
  }
  if (nr && pts > max_points / nr) {
    *why = "the symbols take too many values to enumerate";
    return false;
  }
  for (uint32_t i = 0; i < nd; i++)
    if (!iv_contains(m->dim_iv[i], dims[i])) return true;
  int64_t *vals = hb_arena_array(a, nd + ns + 1, sizeof *vals);
  memcpy(vals, dims, nd * sizeof *vals);
  for (uint32_t j = 0; j < ns; j++) vals[nd + j] = m->sym_iv[j].lo;
  int64_t *out = hb_arena_array(a, (size_t)pts * (nr ? nr : 1), sizeof *out);
  uint64_t n = 0;
  do {
    bool arith = false;
    if (holds(m, vals, &arith)) {
      for (uint32_t i = 0; i < nr; i++)
        if (!ae_eval_point(m->results[i], vals, nd, vals + nd, ns, &out[n * nr + i])) arith = true;
      n++;
    }
    if (arith) {
      *why = "an expression overflows int64 or divides by zero";
      return false;
    }
  } while (next_point(m, vals, nd, nd + ns));
  if (nr == 0) n = n ? 1 : 0; /* () -> (): one empty tuple */
  if (nr) sort_tuples(out, hb_arena_array(a, (size_t)n * nr + 1, sizeof *out), n, nr);
  uint64_t u = 0;
  for (uint64_t i = 0; i < n; i++)
    if (u == 0 || nr == 0 || cmp_tuple(out + (u - 1) * nr, out + i * nr, nr) != 0) {
      if (u != i) memmove(out + u * nr, out + i * nr, nr * sizeof *out);
      u++;
    }
  *tuples = out;
  *ntuples = u;
  return true;
}

void mo_range(const imap *m, uint32_t i, uint64_t max_points, mo_range_info *out) {
  memset(out, 0, sizeof *out);
  out->bound = imap_eval_range(m, m->results[i], true);
  uint64_t pts = mo_box_points(m);
  if (m->known_empty || pts == 0) {
    out->empty = true;
    return;
  }
  if (pts > max_points) return;
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  int64_t *vals = calloc(nd + ns + 1, sizeof *vals);
  for (uint32_t v = 0; v < nd + ns; v++) vals[v] = v < nd ? m->dim_iv[v].lo : m->sym_iv[v - nd].lo;
  bool any = false, arith = false;
  do {
    if (!holds(m, vals, &arith)) {
      if (arith) break;
      continue;
    }
    int64_t x;
    if (!ae_eval_point(m->results[i], vals, nd, vals + nd, ns, &x)) {
      arith = true;
      break;
    }
    if (!any) out->exact = iv_point(x);
    else out->exact = iv_union(out->exact, iv_point(x));
    any = true;
  } while (next_point(m, vals, 0, nd + ns));
  free(vals);
  if (arith) return;
  out->have_exact = any;
  out->empty = !any;
}
