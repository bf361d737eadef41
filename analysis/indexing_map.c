#include "indexing_map.h"

#include <string.h>

static interval *dup_ivs(hb_arena *a, const interval *src, uint32_t n) {
  interval *p = hb_arena_array(a, n ? n : 1, sizeof *p);
  if (n && src) memcpy(p, src, n * sizeof *p);
  return p;
}

static bool all_feasible(const interval *iv, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (!iv_feasible(iv[i])) return false;
  return true;
}

imap *imap_new(hb_arena *a, ae_ctx *ctx, uint32_t ndims, uint32_t nrange, uint32_t nrt, const interval *dim_iv,
               const interval *sym_iv, uint32_t nresults, const ae *const *results) {
  imap *m = hb_arena_zalloc(a, sizeof *m);
  m->ctx = ctx;
  m->arena = a;
  m->ndims = ndims;
  m->nrange = nrange;
  m->nrt = nrt;
  m->dim_iv = dup_ivs(a, dim_iv, ndims);
  m->sym_iv = dup_ivs(a, sym_iv, nrange + nrt);
  m->nresults = nresults;
  m->results = hb_arena_array(a, nresults ? nresults : 1, sizeof *m->results);
  for (uint32_t i = 0; i < nresults; i++) m->results[i] = results[i];
  if (!all_feasible(m->dim_iv, ndims) || !all_feasible(m->sym_iv, nrange + nrt)) imap_set_known_empty(m);
  return m;
}

imap *imap_new_undefined(hb_arena *a, ae_ctx *ctx) {
  imap *m = hb_arena_zalloc(a, sizeof *m);
  m->ctx = ctx;
  m->arena = a;
  m->undefined = true;
  m->dim_iv = m->sym_iv = NULL;
  return m;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

uint64_t imap_text_nodes(const imap *m) {
  if (!m || m->undefined || m->known_empty) return 0;
  uint64_t n = 0;
  for (uint32_t i = 0; i < m->nresults; i++) n = sat_add(n, m->results[i]->tree_size);
  for (uint32_t k = 0; k < m->ncons; k++) n = sat_add(n, m->cons[k].expr->tree_size);
  return n;
}

imap *imap_copy(hb_arena *a, const imap *src) {
  imap *m = hb_arena_zalloc(a, sizeof *m);
  *m = *src;
  m->arena = a;
  m->dim_iv = dup_ivs(a, src->dim_iv, src->ndims);
  m->sym_iv = dup_ivs(a, src->sym_iv, imap_nsyms(src));
  m->results = hb_arena_array(a, src->nresults ? src->nresults : 1, sizeof *m->results);
  for (uint32_t i = 0; i < src->nresults; i++) m->results[i] = src->results[i];
  m->cons_cap = src->ncons;
  m->cons = src->ncons ? hb_arena_dup(a, src->cons, src->ncons * sizeof *src->cons) : NULL;
  return m;
}

static interval *size_ivs(hb_arena *a, uint32_t n, const int64_t *sizes) {
  interval *iv = hb_arena_array(a, n ? n : 1, sizeof *iv);
  for (uint32_t i = 0; i < n; i++) iv[i] = iv_make(0, sizes[i] - 1); /* sizes >= 0: no overflow */
  return iv;
}

imap *imap_permutation(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes, const uint32_t *perm) {
  const ae **res = hb_arena_array(a, ndims ? ndims : 1, sizeof *res);
  for (uint32_t i = 0; i < ndims; i++) res[i] = ae_dim(ctx, perm ? perm[i] : i);
  return imap_new(a, ctx, ndims, 0, 0, size_ivs(a, ndims, sizes), NULL, ndims, res);
}

imap *imap_identity(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes) {
  return imap_permutation(a, ctx, ndims, sizes, NULL);
}

imap *imap_scalar(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes) {
  return imap_new(a, ctx, ndims, 0, 0, size_ivs(a, ndims, sizes), NULL, 0, NULL);
}

void imap_set_result(imap *m, uint32_t i, const ae *e) { m->results[i] = e; }
void imap_set_dim_interval(imap *m, uint32_t i, interval iv) {
  m->dim_iv[i] = iv;
  m->gen++;
}
void imap_set_sym_interval(imap *m, uint32_t i, interval iv) {
  m->sym_iv[i] = iv;
  m->gen++;
}

void imap_set_known_empty(imap *m) {
  if (m->undefined) return;
  const ae *zero = ae_const(m->ctx, 0);
  for (uint32_t i = 0; i < m->nresults; i++) m->results[i] = zero;
  for (uint32_t i = 0; i < m->ndims; i++) m->dim_iv[i] = iv_make(0, -1);
  for (uint32_t i = 0; i < m->nrange; i++) m->sym_iv[i] = iv_make(0, -1);
  m->ncons = 0;
  m->known_empty = true;
  m->gen++;
}

/* ---- constraints ---------------------------------------------------------------------- */

int64_t imap_find_constraint(const imap *m, const ae *e) {
  for (uint32_t i = 0; i < m->ncons; i++)
    if (m->cons[i].expr == e) return i;
  return -1;
}

bool imap_erase_constraint(imap *m, const ae *e) {
  int64_t i = imap_find_constraint(m, e);
  if (i < 0) return false;
  memmove(&m->cons[i], &m->cons[i + 1], (m->ncons - (uint32_t)i - 1) * sizeof *m->cons);
  m->ncons--;
  m->gen++;
  return true;
}

void imap_put_constraint(imap *m, const ae *e, interval iv) {
  int64_t i = imap_find_constraint(m, e);
  m->gen++;
  if (i >= 0) {
    m->cons[i].iv = iv;
    return;
  }
  if (m->ncons == m->cons_cap) {
    uint32_t ncap = m->cons_cap ? m->cons_cap * 2 : 4;
    m->cons = hb_arena_grow(m->arena, m->cons, m->ncons, ncap, sizeof *m->cons);
    m->cons_cap = ncap;
  }
  m->cons[m->ncons++] = (imap_constraint){e, iv};
}

static void narrow(imap *m, interval *var, interval iv) {
  *var = iv_intersect(*var, iv);
  m->gen++;
  if (!iv_feasible(*var)) imap_set_known_empty(m);
}

void imap_add_constraint(imap *m, const ae *e, interval iv) {
  if (m->undefined || m->known_empty) return;
  if (!iv_feasible(iv)) {
    imap_set_known_empty(m);
    return;
  }
  switch (e->kind) {
  case AE_DIM:
    if ((uint64_t)e->value < m->ndims) {
      narrow(m, &m->dim_iv[e->value], iv);
      return;
    }
    break;
  case AE_SYM:
    if ((uint64_t)e->value < imap_nsyms(m)) {
      narrow(m, &m->sym_iv[e->value], iv);
      return;
    }
    break;
  case AE_CONST:
    if (!iv_contains(iv, e->value)) imap_set_known_empty(m);
    return;
  default: break;
  }
  int64_t i = imap_find_constraint(m, e);
  if (i >= 0) {
    m->cons[i].iv = iv_intersect(m->cons[i].iv, iv);
    m->gen++;
    if (!iv_feasible(m->cons[i].iv)) imap_set_known_empty(m);
    return;
  }
  imap_put_constraint(m, e, iv);
}

/* ---- composition ---------------------------------------------------------------------------- */

imap *imap_compose(hb_arena *a, const imap *first, const imap *second) {
  ae_ctx *c = first->ctx;
  if (first->undefined || second->undefined || first->nresults != second->ndims) return imap_new_undefined(a, c);
  const imap *F = first, *S = second;
  uint32_t Sr = S->nrange, St = S->nrt, Fr = F->nrange, Ft = F->nrt;
  uint32_t nsyms = Sr + St + Fr + Ft;

  /* Step 3: F's symbol p becomes p + Sr + St in the intermediate numbering. */
  const ae **fsh = hb_arena_array(a, (size_t)F->nresults + 1, sizeof *fsh);
  {
    const ae **shift = hb_arena_array(a, (size_t)Fr + Ft + 1, sizeof *shift);
    for (uint32_t p = 0; p < Fr + Ft; p++) shift[p] = ae_sym(c, Sr + St + p);
    ae_subst_many(c, F->nresults, F->results, fsh, NULL, 0, shift, Fr + Ft);
  }
  /* Step 4 (only when St > 0): [S.range | S.rt | F.range | F.rt] ->
   * [S.range | F.range | S.rt | F.rt]. */
  const ae **reorder = NULL;
  if (St > 0) {
    reorder = hb_arena_array(a, nsyms, sizeof *reorder);
    for (uint32_t i = 0; i < Sr; i++) reorder[i] = ae_sym(c, i);
    for (uint32_t i = 0; i < St; i++) reorder[Sr + i] = ae_sym(c, Sr + Fr + i);
    for (uint32_t i = 0; i < Fr; i++) reorder[Sr + St + i] = ae_sym(c, Sr + i);
    for (uint32_t i = 0; i < Ft; i++) reorder[Sr + St + Fr + i] = ae_sym(c, Sr + Fr + St + i);
  }
  /* S's results and constraint expressions, rewritten the same way. */
  uint32_t nS = S->nresults + S->ncons;
  const ae **sin = hb_arena_array(a, (size_t)nS + 1, sizeof *sin);
  const ae **sout = hb_arena_array(a, (size_t)nS + 1, sizeof *sout);
  for (uint32_t i = 0; i < S->nresults; i++) sin[i] = S->results[i];
  for (uint32_t i = 0; i < S->ncons; i++) sin[S->nresults + i] = S->cons[i].expr;
  ae_subst_many(c, nS, sin, sout, fsh, F->nresults, NULL, 0);
  if (reorder) {
    const ae **tmp = hb_arena_array(a, (size_t)nS + 1, sizeof *tmp);
    ae_subst_many(c, nS, sout, tmp, NULL, 0, reorder, nsyms);
    sout = tmp;
  }

  /* Step 5: variables. */
  interval *sym_iv = hb_arena_array(a, nsyms ? nsyms : 1, sizeof *sym_iv);
  for (uint32_t i = 0; i < Sr; i++) sym_iv[i] = S->sym_iv[i];
  for (uint32_t i = 0; i < Fr; i++) sym_iv[Sr + i] = F->sym_iv[i];
  for (uint32_t i = 0; i < St; i++) sym_iv[Sr + Fr + i] = S->sym_iv[Sr + i];
  for (uint32_t i = 0; i < Ft; i++) sym_iv[Sr + Fr + St + i] = F->sym_iv[Fr + i];
  imap *m = imap_new(a, c, F->ndims, Sr + Fr, St + Ft, F->dim_iv, sym_iv, S->nresults, sout);

  /* Step 6a: S's constraints. */
  for (uint32_t i = 0; i < S->ncons; i++) imap_add_constraint(m, sout[S->nresults + i], S->cons[i].iv);
  /* Steps 6b, 6c: F's symbols to their final positions. */
  uint32_t nF = F->ncons + F->nresults;
  const ae **fin = hb_arena_array(a, (size_t)nF + 1, sizeof *fin);
  const ae **fout = hb_arena_array(a, (size_t)nF + 1, sizeof *fout);
  for (uint32_t i = 0; i < F->ncons; i++) fin[i] = F->cons[i].expr;
  for (uint32_t i = 0; i < F->nresults; i++) fin[F->ncons + i] = F->results[i];
  {
    const ae **ren = hb_arena_array(a, (size_t)Fr + Ft + 1, sizeof *ren);
    for (uint32_t j = 0; j < Fr; j++) ren[j] = ae_sym(c, Sr + j);
    for (uint32_t j = 0; j < Ft; j++) ren[Fr + j] = ae_sym(c, Sr + Fr + St + j);
    ae_subst_many(c, nF, fin, fout, NULL, 0, ren, Fr + Ft);
  }
  for (uint32_t i = 0; i < F->ncons; i++) imap_add_constraint(m, fout[i], F->cons[i].iv);
  for (uint32_t i = 0; i < F->nresults; i++) imap_add_constraint(m, fout[F->ncons + i], S->dim_iv[i]);
  return m;
}

/* ---- unused symbols ---------------------------------------------------------------------- */

/* Steps 1-3 of §6.6: the symbols the results and the constraints use
 * (seeded with keep), and the constraints to drop (drop may be NULL). */
static void used_symbols(const imap *m, const bool *keep, bool *used, bool *drop) {
  uint32_t ns = imap_nsyms(m);
  hb_arena *a = m->arena;
  for (uint32_t i = 0; keep && i < ns; i++) used[i] = keep[i];
  for (uint32_t i = 0; i < m->nresults; i++) ae_collect_vars(m->results[i], NULL, 0, used, ns);

  /* Step 3: constraints. */
  bool *cand = hb_arena_zalloc(a, m->ncons ? m->ncons : 1);
  bool *mentions = hb_arena_zalloc(a, ns);
  for (uint32_t k = 0; k < m->ncons; k++) {
    const ae *e = m->cons[k].expr;
    memset(mentions, 0, ns);
    ae_collect_vars(e, NULL, 0, mentions, ns);
    bool all_unused = true;
    for (uint32_t i = 0; i < ns; i++)
      if (mentions[i] && used[i]) all_unused = false;
    if (ae_has_dim(e) || !all_unused) {
      for (uint32_t i = 0; i < ns; i++)
        if (mentions[i]) used[i] = true;
    } else {
      cand[k] = true;
    }
  }
  /* Candidates whose symbols are all still unused are deleted. */
  for (uint32_t k = 0; drop && k < m->ncons; k++) {
    if (!cand[k]) continue;
    memset(mentions, 0, ns);
    ae_collect_vars(m->cons[k].expr, NULL, 0, mentions, ns);
    bool all_unused = true;
    for (uint32_t i = 0; i < ns; i++)
      if (mentions[i] && used[i]) all_unused = false;
    drop[k] = all_unused;
  }
}

void imap_used_symbols(const imap *m, const bool *keep, bool *used) {
  if (!m->undefined && imap_nsyms(m)) used_symbols(m, keep, used, NULL);
}

uint32_t imap_remove_unused_symbols(imap *m, int32_t *old_to_new) {
  return imap_remove_unused_symbols_keep(m, NULL, old_to_new);
}

uint32_t imap_remove_unused_symbols_keep(imap *m, const bool *keep, int32_t *old_to_new) {
  uint32_t ns = imap_nsyms(m);
  if (old_to_new)
    for (uint32_t i = 0; i < ns; i++) old_to_new[i] = (int32_t)i;
  if (m->undefined || ns == 0) return 0;
  hb_arena *a = m->arena;
  ae_ctx *c = m->ctx;
  bool *used = hb_arena_zalloc(a, ns);
  bool *drop = hb_arena_zalloc(a, m->ncons ? m->ncons : 1);
  used_symbols(m, keep, used, drop);
  uint32_t removed = 0;
  for (uint32_t i = 0; i < ns; i++) removed += !used[i];
  if (removed == 0) {
    /* XLA returns early here: nothing changes, not even dropped candidates
     * (a candidate only exists when one of its symbols is unused). */
    return 0;
  }

  /* Step 4: renumber; removed symbols become the constant 0. */
  const ae **repl = hb_arena_array(a, ns, sizeof *repl);
  interval *nsym_iv = hb_arena_array(a, ns, sizeof *nsym_iv);
  uint32_t next = 0, nrange = 0, nrt = 0;
  for (uint32_t i = 0; i < ns; i++) {
    if (used[i]) {
      if (old_to_new) old_to_new[i] = (int32_t)next;
      nsym_iv[next] = m->sym_iv[i];
      repl[i] = ae_sym(c, next++);
      if (i < m->nrange) nrange++;
      else nrt++;
    } else {
      if (old_to_new) old_to_new[i] = -1;
      repl[i] = ae_const(c, 0);
    }
  }
  uint32_t nk = m->nresults + m->ncons;
  const ae **in = hb_arena_array(a, (size_t)nk + 1, sizeof *in);
  const ae **out = hb_arena_array(a, (size_t)nk + 1, sizeof *out);
  for (uint32_t i = 0; i < m->nresults; i++) in[i] = m->results[i];
  for (uint32_t k = 0; k < m->ncons; k++) in[m->nresults + k] = m->cons[k].expr;
  ae_subst_many(c, nk, in, out, NULL, 0, repl, ns);
  for (uint32_t i = 0; i < m->nresults; i++) m->results[i] = out[i];
  m->sym_iv = nsym_iv;
  m->nrange = nrange;
  m->nrt = nrt;
  uint32_t oldn = m->ncons;
  imap_constraint *old = m->cons;
  m->cons = NULL;
  m->ncons = m->cons_cap = 0;
  m->gen++;
  for (uint32_t k = 0; k < oldn; k++) {
    if (drop[k]) continue;
    imap_add_constraint(m, out[m->nresults + k], old[k].iv);
  }
  return removed;
}

/* ---- equality ------------------------------------------------------------------------------ */

bool imap_equal(const imap *a, const imap *b) {
  if (a->undefined || b->undefined) return a->undefined == b->undefined;
  if (a->known_empty != b->known_empty) return false;
  if (a->ndims != b->ndims || a->nrange != b->nrange || a->nrt != b->nrt || a->nresults != b->nresults ||
      a->ncons != b->ncons)
    return false;
  for (uint32_t i = 0; i < a->nresults; i++)
    if (a->results[i] != b->results[i]) return false;
  for (uint32_t i = 0; i < a->ndims; i++)
    if (!iv_eq(a->dim_iv[i], b->dim_iv[i])) return false;
  for (uint32_t i = 0; i < imap_nsyms(a); i++)
    if (!iv_eq(a->sym_iv[i], b->sym_iv[i])) return false;
  for (uint32_t k = 0; k < a->ncons; k++) {
    int64_t j = imap_find_constraint(b, a->cons[k].expr);
    if (j < 0 || !iv_eq(a->cons[k].iv, b->cons[j].iv)) return false;
  }
  return true;
}

static uint64_t hmix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 29);
}

uint64_t imap_hash(const imap *m) {
  if (m->undefined) return 0x5eed;
  uint64_t h = hmix(m->known_empty, m->ndims);
  h = hmix(h, m->nrange);
  h = hmix(h, m->nrt);
  h = hmix(h, m->nresults);
  for (uint32_t i = 0; i < m->nresults; i++) h = hmix(h, m->results[i]->hash);
  for (uint32_t i = 0; i < m->ndims; i++) h = hmix(hmix(h, (uint64_t)m->dim_iv[i].lo), (uint64_t)m->dim_iv[i].hi);
  for (uint32_t i = 0; i < imap_nsyms(m); i++)
    h = hmix(hmix(h, (uint64_t)m->sym_iv[i].lo), (uint64_t)m->sym_iv[i].hi);
  uint64_t cs = 0;
  for (uint32_t k = 0; k < m->ncons; k++)
    cs += hmix(hmix(m->cons[k].expr->hash, (uint64_t)m->cons[k].iv.lo), (uint64_t)m->cons[k].iv.hi);
  return hmix(h, cs);
}

bool imap_is_identity(const imap *m) {
  if (m->undefined || m->nresults != m->ndims) return false;
  for (uint32_t i = 0; i < m->nresults; i++) {
    const ae *e = m->results[i];
    if (e->kind != AE_DIM || e->value != (int64_t)i) return false;
  }
  return true;
}
