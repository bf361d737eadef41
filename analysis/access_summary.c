/* Access summary of an operand from its maps (access_summary.h). */
#include "access_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "ii_internal.h"
#include "../parser/base/oom.h"
#include "simplify.h"
#include "tiled_layout.h"

#define NODE_BUDGET ((size_t)1 << 20)

const char *as_class_name(as_class c) {
  static const char *const names[] = {
      [AS_IDENTITY] = "identity",     [AS_PERMUTATION] = "permutation", [AS_BROADCAST] = "broadcast",
      [AS_SLICED] = "strided/sliced", [AS_RESHAPED] = "reshaped",       [AS_PADDED] = "padded",
      [AS_REDUCTION] = "reduction",   [AS_DYNAMIC] = "gathered/dynamic", [AS_UNKNOWN] = "unknown",
  };
  return names[c];
}

static as_count iv_count(interval iv) { return iv.hi < iv.lo ? 0 : (as_count)((uint64_t)iv.hi - (uint64_t)iv.lo) + 1; }
static as_count min_count(as_count a, as_count b) { return a < b ? a : b; }
/* Saturating product (counts never come near 2^127 for valid shapes, but
 * products of many range variables could). */
static as_count mul_count(as_count a, as_count b) {
  as_count max = ~(as_count)0;
  if (a && b > max / a) return max;
  return a * b;
}

static bool is_array(const hlo_shape *s) { return s->type != HLO_TUPLE && s->type != HLO_BUFFER; }

static as_count shape_elements(const hlo_shape *s) {
  as_count n = 1;
  for (int i = 0; i < s->rank; i++) n = mul_count(n, (as_count)s->dims[i]);
  return n;
}

/* ---- hash set of (a, b) keys ----------------------------------------------------------------------- */

/* Exact keys of up to three words (no lossy hashing of indices). */
typedef struct {
  uint64_t (*k)[3];
  uint8_t *used;
  size_t cap, n;
} hset;

static uint64_t mix(const uint64_t *k) {
  uint64_t h = 0x632be59bd9b4e019ULL;
  for (int i = 0; i < 3; i++) {
    h = (h ^ k[i]) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 31;
  }
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

static void hs_grow(hset *h);

static bool hs_add(hset *h, uint64_t a, uint64_t b, uint64_t c) {
  if (2 * (h->n + 1) > h->cap) hs_grow(h);
  uint64_t key[3] = {a, b, c};
  size_t i = (size_t)mix(key) & (h->cap - 1);
  while (h->used[i]) {
    if (h->k[i][0] == a && h->k[i][1] == b && h->k[i][2] == c) return false;
    i = (i + 1) & (h->cap - 1);
  }
  h->used[i] = 1;
  memcpy(h->k[i], key, sizeof key);
  h->n++;
  return true;
}

static void hs_grow(hset *h) {
  hset g = {0};
  g.cap = h->cap ? h->cap * 2 : 1024;
  g.k = hb_malloc(g.cap * sizeof *g.k);
  g.used = hb_calloc(g.cap, 1);
  for (size_t i = 0; i < h->cap; i++)
    if (h->used[i]) hs_add(&g, h->k[i][0], h->k[i][1], h->k[i][2]);
  free(h->k);
  free(h->used);
  *h = g;
}

static void hs_free(hset *h) {
  free(h->k);
  free(h->used);
  memset(h, 0, sizeof *h);
}

/* ---- classes ------------------------------------------------------------------------------------------ */

/* A result of the form c * d_j + b (c != 0): *dim = j, *coef = c. */
static bool single_dim(const ae *e, uint32_t *dim, int64_t *coef) {
  if (e->kind == AE_ADD && e->rhs->kind == AE_CONST) e = e->lhs;
  int64_t c = 1;
  if (e->kind == AE_MUL && e->rhs->kind == AE_CONST) {
    c = e->rhs->value;
    e = e->lhs;
  }
  if (e->kind != AE_DIM || c == 0) return false;
  *dim = (uint32_t)e->value;
  *coef = c;
  return true;
}

static as_class classify(const ii_operand *x, const hlo_shape *os, const hlo_shape *xs) {
  const imap *m = x->map;
  if (m->undefined) return AS_UNKNOWN;
  if (m->nrt > 0 || x->replica) return AS_DYNAMIC;
  if (m->known_empty) return AS_PADDED;
  for (uint32_t i = 0; i < m->nresults; i++)
    if (ae_has_sym(m->results[i])) return AS_REDUCTION;
  if (m->ncons > 0) return AS_PADDED;
  bool os_ok = is_array(os) && (uint32_t)os->rank == m->ndims;
  for (uint32_t i = 0; os_ok && i < m->ndims; i++)
    if (m->dim_iv[i].lo != 0 || m->dim_iv[i].hi != os->dims[i] - 1) return AS_PADDED;
  bool xs_ok = is_array(xs) && (uint32_t)xs->rank == m->nresults;
  bool *used = hb_calloc(m->ndims + 1, 1);
  bool simple = true, bare_in_order = m->nresults == m->ndims, full = true;
  for (uint32_t r = 0; r < m->nresults && simple; r++) {
    const ae *e = m->results[r];
    uint32_t j;
    int64_t c;
    if (e->kind == AE_CONST) {
      bare_in_order = false;
      if (!(xs_ok && xs->dims[r] == 1 && e->value == 0)) full = false;
      continue;
    }
    if (!single_dim(e, &j, &c)) {
      simple = false;
      break;
    }
    if (used[j]) full = false; /* one dimension in two results: a diagonal */
    used[j] = true;
    bool bare = e->kind == AE_DIM;
    if (!bare || j != r) bare_in_order = false;
    bool covers = xs_ok && os_ok && (c == 1 || c == -1) && xs->dims[r] == os->dims[j];
    if (covers && !bare) { /* -d_j + (n - 1): a reversal */
      interval v = imap_eval_range(m, e, false);
      covers = v.lo == 0 && v.hi == xs->dims[r] - 1;
    }
    if (!covers) full = false;
  }
  as_class cls = AS_RESHAPED;
  if (simple) {
    bool unused = false;
    for (uint32_t j = 0; j < m->ndims; j++)
      if (!used[j] && (!os_ok || os->dims[j] > 1)) unused = true;
    if (unused) cls = AS_BROADCAST;
    else if (!full) cls = AS_SLICED;
    else if (bare_in_order && xs_ok && os_ok) cls = AS_IDENTITY;
    else cls = AS_PERMUTATION;
    /* a permutation must also use every dimension of size > 1 of the operand */
    if (cls == AS_PERMUTATION && xs_ok)
      for (uint32_t r = 0; r < m->nresults; r++)
        if (m->results[r]->kind == AE_CONST && xs->dims[r] > 1) cls = AS_SLICED;
  }
  free(used);
  return cls;
}

/* ---- counting one map ----------------------------------------------------------------------------------- */

typedef struct {
  ii_ctx *c;
  const imap *m;
  const hlo_shape *xs;
  as_count budget; /* points left to enumerate */
  bool exact;
  char why[160];
} counter;

static void estimate(counter *K, const char *why) {
  if (K->exact) snprintf(K->why, sizeof K->why, "%s", why);
  K->exact = false;
}

/* Number of values of sum(a_i * v_i), v_i in [0, n_i - 1]; false when the
 * progressions overlap in a way this does not count. */
static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static bool sumset(int n, int64_t (*an)[2], as_count *out) {
  int64_t g = 0;
  for (int i = 0; i < n; i++) {
    if (an[i][0] < 0) an[i][0] = -an[i][0];
    int64_t a = an[i][0], b = g;
    while (b) {
      int64_t t = a % b;
      a = b;
      b = t;
    }
    g = a;
  }
  qsort(an, (size_t)n, sizeof *an, cmp_i64);
  as_count count = 1, span = 0;
  bool contiguous = true;
  for (int i = 0; i < n; i++) {
    as_count b = (as_count)(an[i][0] / g), len = (as_count)an[i][1];
    if (len <= 1 || b == 0) continue;
    if (contiguous && b <= span + 1) {
      span += b * (len - 1);
      count = span + 1;
    } else if (b > span) {
      count = mul_count(count, len);
      span += b * (len - 1);
      contiguous = false;
    } else {
      return false;
    }
  }
  *out = count;
  return true;
}

/* Coefficients of an affine expression over dims [0, nd) and range symbols
 * [0, nr) (runtime symbols are constants here). */
static bool affine(const ae *e, int64_t mult, int64_t *coef, uint32_t nd, uint32_t nr) {
  int64_t t;
  switch (e->kind) {
  case AE_CONST: return true;
  case AE_DIM:
    return e->value < (int64_t)nd && hb_ck_add(coef[e->value], mult, &coef[e->value]);
  case AE_SYM:
    if (e->value >= (int64_t)nr) return true;
    return hb_ck_add(coef[nd + e->value], mult, &coef[nd + e->value]);
  case AE_ADD: return affine(e->lhs, mult, coef, nd, nr) && affine(e->rhs, mult, coef, nd, nr);
  case AE_MUL:
    if (e->rhs->kind == AE_CONST) return hb_ck_mul(mult, e->rhs->value, &t) && affine(e->lhs, t, coef, nd, nr);
    if (e->lhs->kind == AE_CONST) return hb_ck_mul(mult, e->lhs->value, &t) && affine(e->rhs, t, coef, nd, nr);
    return false;
  default: return false;
  }
}

static imap *simplified_single(ii_ctx *c, const imap *m, const ae *e) {
  ae_ctx *ctx = ii_ctx_ae(c);
  imap *t = imap_new(ii_ctx_arena(c), ctx, m->ndims, m->nrange, m->nrt, m->dim_iv, m->sym_iv, 1, &e);
  return imap_simplify_budgeted(t, SIMPLIFY_REPLACE_POINTS, NODE_BUDGET) == SIMPLIFY_OK ? t : NULL;
}

typedef struct {
  uint32_t nvars, nres, ncons;
  uint32_t *vars, *res, *cons;
} comp;

/* One group by its affine form; false when that does not apply. */
static bool count_affine(counter *K, const comp *g, as_count *img, as_count *pairs) {
  const imap *m = K->m;
  ae_ctx *ctx = ii_ctx_ae(K->c);
  if (g->ncons) return false;
  const ae *L = ae_const(ctx, 0);
  int64_t stride = 1;
  for (uint32_t t = g->nres; t-- > 0;) {
    uint32_t r = g->res[t];
    int64_t n = K->xs->dims[r];
    interval v = imap_eval_range(m, m->results[r], true);
    if (v.lo < 0 || v.hi > n - 1) return false;
    L = ae_add(ctx, L, ae_mul_const(ctx, m->results[r], stride));
    if (!hb_ck_mul(stride, n ? n : 1, &stride)) return false;
  }
  imap *s = simplified_single(K->c, m, L);
  if (!s || s->known_empty) return false;
  uint32_t nd = m->ndims, nr = m->nrange;
  int64_t *coef = hb_calloc(nd + nr + 1, sizeof *coef);
  bool ok = affine(s->results[0], 1, coef, nd, nr);
  int64_t(*all)[2] = hb_malloc((g->nvars + 1) * sizeof *all), (*syms)[2] = hb_malloc((g->nvars + 1) * sizeof *syms);
  int na = 0, ns = 0;
  as_count dd = 1;
  for (uint32_t t = 0; ok && t < g->nvars; t++) {
    uint32_t v = g->vars[t];
    interval iv = v < nd ? m->dim_iv[v] : m->sym_iv[v - nd];
    as_count n = iv_count(iv);
    if (v < nd) dd = mul_count(dd, n);
    if (coef[v] == 0) continue;
    if (n > (as_count)INT64_MAX) ok = false;
    all[na][0] = coef[v];
    all[na++][1] = (int64_t)n;
    if (v >= nd) {
      syms[ns][0] = coef[v];
      syms[ns++][1] = (int64_t)n;
    }
  }
  as_count sym_values = 1;
  ok = ok && sumset(na, all, img) && sumset(ns, syms, &sym_values);
  if (ok) *pairs = mul_count(dd, sym_values);
  free(coef);
  free(all);
  free(syms);
  return ok;
}

/* One group by enumeration (runtime symbols at their lowest value);
 * results outside the operand are not reads. */
static void count_enum(counter *K, const comp *g, as_count *img, as_count *pairs) {
  const imap *m = K->m;
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  int64_t *d = hb_calloc(nd + 1, sizeof *d), *s = hb_calloc(ns + 1, sizeof *s);
  for (uint32_t j = m->nrange; j < ns; j++) s[j] = m->sym_iv[j].lo;
  int64_t *lo = hb_malloc((g->nvars + 1) * sizeof *lo), *hi = hb_malloc((g->nvars + 1) * sizeof *hi);
  for (uint32_t t = 0; t < g->nvars; t++) {
    uint32_t v = g->vars[t];
    interval iv = v < nd ? m->dim_iv[v] : m->sym_iv[v - nd];
    lo[t] = iv.lo;
    hi[t] = iv.hi;
  }
  hset images = {0}, prs = {0};
  bool any = true;
  for (uint32_t t = 0; t < g->nvars; t++) {
    if (lo[t] > hi[t]) any = false;
    uint32_t v = g->vars[t];
    *(v < nd ? &d[v] : &s[v - nd]) = lo[t];
  }
  while (any) {
    bool sat = true;
    for (uint32_t t = 0; sat && t < g->ncons; t++) {
      int64_t val;
      const imap_constraint *cn = &m->cons[g->cons[t]];
      sat = ae_eval_point(cn->expr, d, nd, s, ns, &val) && iv_contains(cn->iv, val);
    }
    if (sat) {
      uint64_t key = 0, dkey = 0;
      bool in = true;
      for (uint32_t t = 0; in && t < g->nres; t++) {
        uint32_t r = g->res[t];
        int64_t val, n = K->xs->dims[r];
        in = ae_eval_point(m->results[r], d, nd, s, ns, &val) && val >= 0 && val < n;
        key = key * (uint64_t)n + (uint64_t)val;
      }
      for (uint32_t t = 0; t < g->nvars; t++)
        if (g->vars[t] < nd) dkey = dkey * (uint64_t)(hi[t] - lo[t] + 1) + (uint64_t)(d[g->vars[t]] - lo[t]);
      if (in) {
        hs_add(&images, key, 0, 0);
        hs_add(&prs, dkey, key, 0);
      }
    }
    /* next point */
    uint32_t t = g->nvars;
    for (;;) {
      if (t == 0) {
        any = false;
        break;
      }
      t--;
      uint32_t v = g->vars[t];
      int64_t *p = v < nd ? &d[v] : &s[v - nd];
      if (*p < hi[t]) {
        (*p)++;
        break;
      }
      *p = lo[t];
    }
  }
  *img = images.n;
  *pairs = prs.n;
  hs_free(&images);
  hs_free(&prs);
  free(d);
  free(s);
  free(lo);
  free(hi);
}

static uint32_t uf_find(uint32_t *p, uint32_t x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}

/* Variables of e (dims, then range symbols) into the union-find; returns
 * the representative or UINT32_MAX when e has none. */
static uint32_t unite(const imap *m, const ae *e, uint32_t *parent, bool *dused, bool *sused) {
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  memset(dused, 0, nd + 1);
  memset(sused, 0, ns + 1);
  ae_collect_vars(e, dused, nd, sused, ns);
  uint32_t root = UINT32_MAX;
  for (uint32_t v = 0; v < nd + m->nrange; v++) {
    if (!(v < nd ? dused[v] : sused[v - nd])) continue;
    uint32_t r = uf_find(parent, v);
    if (root == UINT32_MAX) root = r;
    else if (r != root) parent[r] = root;
  }
  return root == UINT32_MAX ? root : uf_find(parent, root);
}

static void count_map(counter *K, as_count *img_out, as_count *pairs_out) {
  const imap *m = K->m;
  if (m->known_empty) {
    *img_out = *pairs_out = 0;
    return;
  }
  uint32_t nd = m->ndims, nv = nd + m->nrange, ns = imap_nsyms(m);
  uint32_t *parent = hb_malloc((nv + 1) * sizeof *parent);
  for (uint32_t v = 0; v < nv; v++) parent[v] = v;
  bool *dused = hb_malloc(nd + 1), *sused = hb_malloc(ns + 1);
  for (uint32_t r = 0; r < m->nresults; r++) unite(m, m->results[r], parent, dused, sused);
  for (uint32_t k = 0; k < m->ncons; k++) unite(m, m->cons[k].expr, parent, dused, sused);
  /* groups, keyed by representative */
  comp *g = hb_calloc(nv + 1, sizeof *g);
  uint32_t *rep_of_res = hb_malloc((m->nresults + 1) * sizeof *rep_of_res);
  uint32_t *rep_of_con = hb_malloc((m->ncons + 1) * sizeof *rep_of_con);
  for (uint32_t r = 0; r < m->nresults; r++) rep_of_res[r] = unite(m, m->results[r], parent, dused, sused);
  for (uint32_t k = 0; k < m->ncons; k++) rep_of_con[k] = unite(m, m->cons[k].expr, parent, dused, sused);
  for (uint32_t v = 0; v < nv; v++) {
    comp *c = &g[uf_find(parent, v)];
    if (!c->vars) c->vars = hb_malloc((nv + 1) * sizeof *c->vars);
    c->vars[c->nvars++] = v;
  }
  for (uint32_t r = 0; r < m->nresults; r++) {
    if (rep_of_res[r] == UINT32_MAX) continue; /* a constant result: one value */
    comp *c = &g[rep_of_res[r]];
    if (!c->res) c->res = hb_malloc((m->nresults + 1) * sizeof *c->res);
    c->res[c->nres++] = r;
  }
  bool global_cons = false;
  for (uint32_t k = 0; k < m->ncons; k++) {
    if (rep_of_con[k] == UINT32_MAX) {
      global_cons = true;
      continue;
    }
    comp *c = &g[rep_of_con[k]];
    if (!c->cons) c->cons = hb_malloc((m->ncons + 1) * sizeof *c->cons);
    c->cons[c->ncons++] = k;
  }
  if (global_cons) estimate(K, "a constraint on runtime variables only");
  as_count img = 1, pairs = 1;
  for (uint32_t v = 0; v < nv; v++) {
    comp *c = &g[v];
    if (!c->nvars) continue;
    as_count ci, cp, dd = 1, all = 1, rx = 1;
    for (uint32_t t = 0; t < c->nvars; t++) {
      uint32_t u = c->vars[t];
      as_count n = iv_count(u < nd ? m->dim_iv[u] : m->sym_iv[u - nd]);
      all = mul_count(all, n);
      if (u < nd) dd = mul_count(dd, n);
    }
    for (uint32_t t = 0; t < c->nres; t++) rx = mul_count(rx, (as_count)K->xs->dims[c->res[t]]);
    if (c->nres == 0 && c->ncons == 0) {
      ci = 1;
      cp = dd;
    } else if (count_affine(K, c, &ci, &cp)) {
      /* exact */
    } else if (all <= K->budget) {
      K->budget -= all;
      count_enum(K, c, &ci, &cp);
    } else {
      estimate(K, "a group of variables too large to enumerate");
      ci = min_count(all, rx);
      cp = mul_count(dd, min_count(all / (dd ? dd : 1), rx));
    }
    img = mul_count(img, ci);
    pairs = mul_count(pairs, cp);
  }
  for (uint32_t v = 0; v < nv; v++) {
    free(g[v].vars);
    free(g[v].res);
    free(g[v].cons);
  }
  free(g);
  free(rep_of_res);
  free(rep_of_con);
  free(parent);
  free(dused);
  free(sused);
  *img_out = img;
  *pairs_out = pairs;
}

/* ---- several maps -------------------------------------------------------------------------------------- */

typedef struct {
  const ii_operand *x;
  int out;
  const hlo_shape *os; /* the output's shape */
  as_count img, pairs;
  bool alive;
} member;

/* A's relation is contained in B's (both over the same output). */
static bool contains(const imap *b, const imap *a) {
  if (a->undefined || b->undefined || a->ndims != b->ndims || a->nresults != b->nresults) return false;
  if (a->nrt || b->nrt || b->ncons) return false;
  if (a->known_empty) return true;
  if (b->known_empty) return false;
  for (uint32_t i = 0; i < a->ndims; i++)
    if (!iv_contains_iv(b->dim_iv[i], a->dim_iv[i])) return false;
  for (uint32_t r = 0; r < a->nresults; r++) {
    const ae *ar = a->results[r], *br = b->results[r];
    if (ar == br && !ae_has_sym(ar)) continue;
    if (br->kind != AE_SYM || br->value >= (int64_t)b->nrange) return false;
    for (uint32_t q = 0; q < b->nresults; q++) {
      if (q == r) continue;
      bool su[64] = {false};
      if (b->nrange > 64) return false;
      ae_collect_vars(b->results[q], NULL, 0, su, b->nrange);
      if (su[br->value]) return false;
    }
    interval v = imap_eval_range(a, ar, true);
    if (!iv_contains_iv(b->sym_iv[br->value], v)) return false;
  }
  return true;
}

/* The images of A and B are disjoint: some result takes values in disjoint
 * intervals. */
static bool disjoint(const imap *a, const imap *b) {
  if (a->undefined || b->undefined || a->nresults != b->nresults) return false;
  if (a->known_empty || b->known_empty) return true;
  for (uint32_t r = 0; r < a->nresults; r++) {
    interval x = imap_eval_range(a, a->results[r], true), y = imap_eval_range(b, b->results[r], true);
    if (x.hi < y.lo || y.hi < x.lo) return true;
  }
  return false;
}

static bool same_dims(const imap *a, const imap *b) {
  if (a->ndims != b->ndims) return false;
  for (uint32_t i = 0; i < a->ndims; i++)
    if (!iv_eq(a->dim_iv[i], b->dim_iv[i])) return false;
  return true;
}

static as_count map_points(const imap *m) {
  as_count n = 1;
  for (uint32_t i = 0; i < m->ndims; i++) n = mul_count(n, iv_count(m->dim_iv[i]));
  for (uint32_t j = 0; j < m->nrange; j++) n = mul_count(n, iv_count(m->sym_iv[j]));
  return n;
}

/* The union of every member's relation by enumeration. */
static void enum_union(const member *v, int n, const hlo_shape *xs, as_count *img, as_count *pairs) {
  hset images = {0}, prs = {0};
  for (int i = 0; i < n; i++) {
    const imap *m = v[i].x->map;
    if (m->known_empty) continue;
    uint32_t nd = m->ndims, ns = imap_nsyms(m), nv = nd + m->nrange;
    int64_t *p = hb_calloc(nd + ns + 1, sizeof *p);
    for (uint32_t j = m->nrange; j < ns; j++) p[nd + j] = m->sym_iv[j].lo;
    bool any = true;
    for (uint32_t t = 0; t < nv; t++) {
      interval iv = t < nd ? m->dim_iv[t] : m->sym_iv[t - nd];
      if (iv.lo > iv.hi) any = false;
      p[t] = iv.lo;
    }
    while (any) {
      bool sat = true;
      for (uint32_t k = 0; sat && k < m->ncons; k++) {
        int64_t val;
        sat = ae_eval_point(m->cons[k].expr, p, nd, p + nd, ns, &val) && iv_contains(m->cons[k].iv, val);
      }
      if (sat) {
        uint64_t key = 0, dkey = 0;
        bool in = true;
        for (uint32_t r = 0; in && r < m->nresults; r++) {
          int64_t val;
          in = ae_eval_point(m->results[r], p, nd, p + nd, ns, &val) && val >= 0 && val < xs->dims[r];
          key = key * (uint64_t)xs->dims[r] + (uint64_t)val;
        }
        /* the output element, row-major over the output's shape */
        for (uint32_t t = 0; t < nd; t++) dkey = dkey * (uint64_t)(nd == (uint32_t)v[i].os->rank ? v[i].os->dims[t] : 1u << 20) + (uint64_t)p[t];
        if (in) {
          hs_add(&images, key, 0, 0);
          hs_add(&prs, (uint64_t)v[i].out, dkey, key);
        }
      }
      uint32_t t = nv;
      for (;;) {
        if (t == 0) {
          any = false;
          break;
        }
        t--;
        interval iv = t < nd ? m->dim_iv[t] : m->sym_iv[t - nd];
        if (p[t] < iv.hi) {
          p[t]++;
          break;
        }
        p[t] = iv.lo;
      }
    }
    free(p);
  }
  *img = images.n;
  *pairs = prs.n;
  hs_free(&images);
  hs_free(&prs);
}

void as_summarize(ii_ctx *c, const hlo_instr *in, uint32_t k, int64_t first_output, const ii_set *const *sets,
                  int nsets, as_summary *out) {
  memset(out, 0, sizeof *out);
  const hlo_shape *xs = in->operands[k]->shape;
  int n = 0;
  for (int o = 0; o < nsets; o++) n += (int)sets[o]->n;
  member *v = hb_calloc((size_t)n + 1, sizeof *v);
  n = 0;
  as_class cls = AS_IDENTITY;
  bool unknown = false, dynamic = false;
  for (int o = 0; o < nsets; o++)
    for (uint32_t i = 0; i < sets[o]->n; i++) {
      const ii_operand *x = sets[o]->items[i];
      as_class ci = classify(x, ii_output_shape(in, first_output + o), xs);
      if (ci > cls) cls = ci;
      unknown |= x->map->undefined;
      dynamic |= x->map->nrt > 0 || x->replica;
      v[n++] = (member){x, o, ii_output_shape(in, first_output + o), 0, 0, true};
    }
  out->cls = n ? cls : AS_PADDED; /* no map: the operand is not read */
  bool misfit = false; /* XLA maps a rank-changing bitcast-convert as elementwise: results of another rank */
  for (int i = 0; i < n; i++)
    if (!v[i].x->map->undefined && is_array(xs) && v[i].x->map->nresults != (uint32_t)xs->rank) misfit = true;
  if (unknown || !is_array(xs) || misfit) {
    out->cls = unknown || misfit ? AS_UNKNOWN : out->cls;
    snprintf(out->why, sizeof out->why, "%s",
             unknown ? "unknown indexing"
             : misfit ? "the map's results do not have the operand's rank (a rank-changing bitcast-convert)"
                      : "a tuple operand");
    free(v);
    return;
  }
  out->counted = true;
  out->exact = true;
  out->elements = shape_elements(xs);
  counter K = {c, NULL, xs, AS_ENUM_POINTS, true, ""};
  for (int i = 0; i < n; i++) {
    K.m = v[i].x->map;
    count_map(&K, &v[i].img, &v[i].pairs);
  }
  as_count img = 0, pairs = 0;
  if (n == 1) {
    img = v[0].img;
    pairs = v[0].pairs;
  } else if (n > 1) {
    /* drop members contained in another member of the same output */
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n && v[i].alive; j++)
        if (j != i && v[j].alive && v[j].out == v[i].out && contains(v[j].x->map, v[i].x->map)) v[i].alive = false;
    bool one_per_output = true;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        if (v[i].alive && v[j].alive && v[i].out == v[j].out) one_per_output = false;
    bool done = false, apart = true;
    for (int i = 0; i < n && apart; i++)
      for (int j = i + 1; j < n && apart; j++)
        if (v[i].alive && v[j].alive) apart = disjoint(v[i].x->map, v[j].x->map);
    if (apart) {
      /* pairwise disjoint images: the counts add up */
      for (int i = 0; i < n; i++)
        if (v[i].alive) img += v[i].img, pairs += v[i].pairs;
      done = true;
    } else if (one_per_output) {
      /* reads add up over the outputs; the distinct elements are those of
       * the largest member when it reads the whole operand or contains
       * (or equals) the others */
      int big = -1;
      for (int i = 0; i < n; i++) {
        if (!v[i].alive) continue;
        pairs += v[i].pairs;
        if (big < 0 || v[i].img > v[big].img) big = i;
      }
      bool covered = v[big].img == out->elements;
      if (!covered) {
        covered = true;
        for (int i = 0; i < n && covered; i++) {
          if (!v[i].alive || i == big) continue;
          const imap *a = v[i].x->map, *b = v[big].x->map;
          covered = imap_equal(a, b) || (same_dims(a, b) && contains(b, a));
        }
      }
      if (covered) {
        img = v[big].img;
        done = true;
      }
    }
    if (!done) {
      as_count pts = 0;
      for (int i = 0; i < n; i++) pts += map_points(v[i].x->map);
      if (pts <= AS_ENUM_POINTS) {
        enum_union(v, n, xs, &img, &pairs);
        K.exact = true; /* the union itself is counted exactly */
        K.why[0] = 0;
      } else {
        pairs = 0;
        img = 0;
        for (int i = 0; i < n; i++) {
          if (!v[i].alive) continue;
          pairs += v[i].pairs;
          img += v[i].img;
        }
        img = min_count(img, out->elements);
        estimate(&K, "several maps whose union is not counted (reads added, distinct elements bounded)");
      }
    }
  }
  if (dynamic) estimate(&K, "runtime variables taken at their lowest value (replica id ignored)");
  out->exact = K.exact;
  snprintf(out->why, sizeof out->why, "%s", K.why);
  out->distinct = img;
  out->reads = pairs;
  free(v);
}

/* ---- coalescing --------------------------------------------------------------------------------------- */

/* Sizes of the operand's physical coordinates (the map's results). */
static const int64_t *result_sizes(ii_ctx *c, const hlo_shape *s, uint32_t nres, bool tiled) {
  if (!is_array(s)) return NULL;
  hb_arena *a = ii_ctx_arena(c);
  if (tiled && s->type != HLO_TOKEN && s->type != HLO_OPAQUE) {
    tl_layout *l = hb_arena_zalloc(a, sizeof *l);
    tl_error err;
    if (tl_analyze(a, s, l, &err) && (uint32_t)l->ntiled == nres) return l->tiled;
  }
  if ((uint32_t)s->rank != nres) return NULL;
  if (tiled) return s->dims; /* a side the tiled mode kept logical */
  int64_t *d = hb_arena_array(a, nres + 1, sizeof *d);
  for (uint32_t k = 0; k < nres; k++) d[k] = s->dims[s->layout.minor_to_major[nres - 1 - k]];
  return d;
}

static as_coalescing member_step(ii_ctx *c, const imap *m, const int64_t *sizes) {
  as_coalescing na = {AS_COAL_NA, 0};
  if (m->undefined || m->known_empty || m->ndims == 0 || !sizes) return na;
  ae_ctx *ctx = ii_ctx_ae(c);
  hb_arena *a = ii_ctx_arena(c);
  /* the most-minor coordinate along which the output has more than one
   * element: a tiled layout's minor coordinates may be degenerate (bf16
   * T(8,128)(2,1) ends in a coordinate of size 1) */
  uint32_t last = m->ndims;
  while (last > 0 && m->dim_iv[last - 1].hi <= m->dim_iv[last - 1].lo) last--;
  if (last == 0) return na; /* a single output element */
  last--;
  const ae *L = ae_const(ctx, 0);
  int64_t stride = 1;
  for (uint32_t r = m->nresults; r-- > 0;) {
    L = ae_add(ctx, L, ae_mul_const(ctx, m->results[r], stride));
    if (!hb_ck_mul(stride, sizes[r] ? sizes[r] : 1, &stride)) return na;
  }
  const ae **shift = hb_arena_array(a, m->ndims, sizeof *shift);
  for (uint32_t i = 0; i < m->ndims; i++) shift[i] = ae_dim(ctx, i);
  shift[last] = ae_add_const(ctx, shift[last], 1);
  const ae *delta = ae_sub(ctx, ae_subst(ctx, L, shift, m->ndims, NULL, 0), L);
  /* both d and d + e_last in the domain */
  interval *div = hb_arena_array(a, m->ndims, sizeof *div);
  memcpy(div, m->dim_iv, m->ndims * sizeof *div);
  div[last].hi--;
  imap *t = imap_new(a, ctx, m->ndims, m->nrange, m->nrt, div, m->sym_iv, 1, &delta);
  for (uint32_t k = 0; k < m->ncons; k++) {
    imap_add_constraint(t, m->cons[k].expr, m->cons[k].iv);
    imap_add_constraint(t, ae_subst(ctx, m->cons[k].expr, shift, m->ndims, NULL, 0), m->cons[k].iv);
  }
  if (imap_simplify_budgeted(t, SIMPLIFY_REPLACE_POINTS, NODE_BUDGET) != SIMPLIFY_OK || t->known_empty) return na;
  const ae *r = t->results[0];
  if (r->kind != AE_CONST) return (as_coalescing){AS_COAL_IRREGULAR, 0};
  return (as_coalescing){r->value == 1 ? AS_COAL_YES : AS_COAL_STRIDE, r->value};
}

void as_coalescing_of(ii_ctx *c, const hlo_instr *in, uint32_t k, const ii_set *const *sets, int nsets, bool tiled,
                      as_coalescing *out) {
  const hlo_shape *xs = in->operands[k]->shape;
  bool first = true;
  *out = (as_coalescing){AS_COAL_NA, 0};
  for (int o = 0; o < nsets; o++)
    for (uint32_t i = 0; i < sets[o]->n; i++) {
      const imap *m = sets[o]->items[i]->map;
      as_coalescing s = member_step(c, m, m->undefined ? NULL : result_sizes(c, xs, m->nresults, tiled));
      if (s.kind == AS_COAL_NA) {
        *out = s;
        return;
      }
      if (first) *out = s;
      else if (out->kind != s.kind || out->stride != s.stride) *out = (as_coalescing){AS_COAL_MIXED, 0};
      first = false;
    }
}
