/* XLA's AffineExprSimplifier and IndexingMap::Simplify, rule by rule
 * (indexing-semantics.md §6.2-§6.5). Function names follow XLA's:
 * once = SimplifyOnce, rewrite_* = Rewrite*, sum_div = SimplifySumDiv,
 * split_gcd = SplitSumByGcd. Unlike XLA, `eval`, `once` and `simplify` are
 * memoised per node (they are pure functions of the node and the map's
 * current intervals), so shared sub-DAGs are processed once. */
#include "simplify.h"

#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "../parser/base/oom.h"
#include "../parser/base/ptrmap.h"

/* Upper bound on rewrite steps per simplifier (guards against pathological
 * inputs whose sums are exponentially long when walked as trees). */
#define WORK_LIMIT 50000000u

struct simplifier {
  const imap *m;
  ae_ctx *c;
  bool use_cons;
  simplify_mode mode;
  uint64_t gen;
  hb_ptrmap eval_memo, once_memo, simp_memo;
  uint64_t work;
  bool abort;
};

/* Freed simplifiers are kept for reuse (per thread): a fusion query runs
 * the simplifier after every composition step, and allocating its memo
 * tables afresh each time was a visible part of `hloidx --all`. Tables that
 * grew large are released rather than cleared on every reuse. */
#define POOL_SIZE 8
#define POOL_MAX_CAP 1024
static _Thread_local simplifier *pool[POOL_SIZE];
static _Thread_local int npool;

static void shrink(hb_ptrmap *p) {
  if (p->cap > POOL_MAX_CAP) hb_ptrmap_free(p);
  else hb_ptrmap_clear(p);
}

simplifier *simplifier_new(const imap *m, bool use_constraints, simplify_mode mode) {
  simplifier *s;
  if (npool > 0) {
    s = pool[--npool];
  } else {
    s = hb_calloc(1, sizeof *s);
    hb_ptrmap_init(&s->eval_memo);
    hb_ptrmap_init(&s->once_memo);
    hb_ptrmap_init(&s->simp_memo);
  }
  s->m = m;
  s->c = m->ctx;
  s->use_cons = use_constraints;
  s->mode = mode;
  s->gen = m->gen;
  s->work = 0;
  s->abort = false;
  return s;
}

void simplifier_free(simplifier *s) {
  if (!s) return;
  if (npool < POOL_SIZE) {
    shrink(&s->eval_memo);
    shrink(&s->once_memo);
    shrink(&s->simp_memo);
    pool[npool++] = s;
    return;
  }
  hb_ptrmap_free(&s->eval_memo);
  hb_ptrmap_free(&s->once_memo);
  hb_ptrmap_free(&s->simp_memo);
  free(s);
}

bool simplifier_aborted(const simplifier *s) { return s->abort; }

static void sync(simplifier *s) {
  if (s->gen != s->m->gen) {
    hb_ptrmap_clear(&s->eval_memo);
    hb_ptrmap_clear(&s->once_memo);
    hb_ptrmap_clear(&s->simp_memo);
    s->gen = s->m->gen;
  }
}

static bool check_budget(simplifier *s) {
  if (s->abort) return false;
  if (++s->work > WORK_LIMIT || ae_ctx_status(s->c) != AE_STATUS_OK) {
    s->abort = true;
    return false;
  }
  return true;
}

/* ---- §6.2 range evaluation ---------------------------------------------------------------- */

static interval ev(simplifier *s, const ae *e) {
  const imap *m = s->m;
  switch (e->kind) {
  case AE_CONST: return iv_point(e->value);
  case AE_DIM: return (uint64_t)e->value < m->ndims ? m->dim_iv[e->value] : iv_unbounded();
  case AE_SYM: return (uint64_t)e->value < imap_nsyms(m) ? m->sym_iv[e->value] : iv_unbounded();
  default: break;
  }
  hb_ptrmap_val *hit = hb_ptrmap_get(&s->eval_memo, e);
  if (hit) return iv_make(hit->a, hit->b);
  interval l = ev(s, e->lhs), r = ev(s, e->rhs), res;
  switch (e->kind) {
  case AE_ADD: res = iv_add(l, r); break;
  case AE_MUL: res = iv_mul(l, r); break;
  case AE_MOD:
    if (!iv_is_point(r) || r.lo <= 0) res = iv_unbounded();
    else if (0 <= l.lo && l.hi < r.lo) res = l;
    else res = iv_make(0, r.lo - 1);
    break;
  case AE_FLOORDIV:
  case AE_CEILDIV: {
    int64_t a, b;
    bool fl = e->kind == AE_FLOORDIV;
    if (!iv_is_point(r) || r.lo == 0) {
      res = iv_unbounded();
      break;
    }
    if (!(fl ? hb_ck_floordiv(l.lo, r.lo, &a) : hb_ck_ceildiv(l.lo, r.lo, &a))) a = IV_MAX;
    if (!(fl ? hb_ck_floordiv(l.hi, r.lo, &b) : hb_ck_ceildiv(l.hi, r.lo, &b))) b = IV_MAX;
    res = a < b ? iv_make(a, b) : iv_make(b, a);
    break;
  }
  case AE_MAX: res = iv_make(l.lo > r.lo ? l.lo : r.lo, l.hi > r.hi ? l.hi : r.hi); break;
  case AE_MIN: res = iv_make(l.lo < r.lo ? l.lo : r.lo, l.hi < r.hi ? l.hi : r.hi); break;
  default: res = iv_unbounded();
  }
  if (s->use_cons) {
    int64_t k = imap_find_constraint(m, e);
    if (k >= 0) res = iv_intersect(res, m->cons[k].iv);
  }
  hb_ptrmap_put(&s->eval_memo, e, (hb_ptrmap_val){res.lo, res.hi});
  return res;
}

interval simplifier_eval(simplifier *s, const ae *e) {
  sync(s);
  return ev(s, e);
}

interval imap_eval_range(const imap *m, const ae *e, bool use_constraints) {
  simplifier *s = simplifier_new(m, use_constraints, SIMPLIFY_REPLACE_POINTS);
  interval r = ev(s, e);
  simplifier_free(s);
  return r;
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static const ae *once(simplifier *s, const ae *e);
static const ae *simplify_full(simplifier *s, const ae *e);

static const ae *K(simplifier *s, int64_t v) { return ae_const(s->c, v); }

/* crhs(e, kind): the point value of e's right side if e has that kind. */
static bool crhs(simplifier *s, const ae *e, int kind, int64_t *v) {
  if (e->kind != kind) return false;
  interval r = ev(s, e->rhs);
  if (!iv_is_point(r)) return false;
  *v = r.lo;
  return true;
}

typedef const ae *(*summand_fn)(simplifier *s, const ae *t, void *cl);

static const ae *map_summands(simplifier *s, const ae *e, summand_fn fn, void *cl) {
  if (e->kind == AE_ADD) {
    const ae *l = map_summands(s, e->lhs, fn, cl);
    const ae *r = map_summands(s, e->rhs, fn, cl);
    if (l == e->lhs && r == e->rhs) return e;
    return ae_add(s->c, l, r);
  }
  check_budget(s);
  return fn(s, e, cl);
}

typedef void (*visit_fn)(simplifier *s, const ae *t, void *cl);

static void visit_summands(simplifier *s, const ae *e, visit_fn fn, void *cl) {
  if (e->kind == AE_ADD) {
    visit_summands(s, e->lhs, fn, cl);
    visit_summands(s, e->rhs, fn, cl);
    return;
  }
  check_budget(s);
  fn(s, e, cl);
}

/* split_gcd: e = A * g + B. */
typedef struct {
  simplifier *s;
  bool have;
  bool bad;
  int64_t g;
  const ae *B;
} gcd_cl;

static void gcd_visit(simplifier *s, const ae *t, void *p) {
  gcd_cl *k = p;
  int64_t c;
  if (!crhs(s, t, AE_MUL, &c)) return;
  if (!k->have) {
    k->g = c;
    k->have = true;
  } else if (!hb_ck_gcd(k->g, c, &k->g)) {
    k->bad = true;
  }
}

static const ae *gcd_map(simplifier *s, const ae *t, void *p) {
  gcd_cl *k = p;
  int64_t c, q = 1;
  if (crhs(s, t, AE_MUL, &c)) {
    /* g divides c; g is negative only when it is the single multiplier c itself */
    hb_ck_div_trunc(c, k->g, &q);
    return ae_mul(s->c, t->lhs, K(s, q));
  }
  k->B = ae_add(s->c, k->B, t);
  return K(s, 0);
}

static void split_gcd(simplifier *s, const ae *e, const ae **A, int64_t *g, const ae **B) {
  gcd_cl k = {s, false, false, 0, NULL};
  visit_summands(s, e, gcd_visit, &k);
  /* g == 0 only when every multiplier is a zero point (non-constant rhs). */
  if (!k.have || k.bad || k.g == 1 || k.g == 0) {
    *A = K(s, 0);
    *g = 1;
    *B = e;
    return;
  }
  k.B = K(s, 0);
  *A = map_summands(s, e, gcd_map, &k);
  *g = k.g;
  *B = k.B;
}

/* map_summands(e, t -> t * f) */
static const ae *scale_map(simplifier *s, const ae *t, void *p) { return ae_mul(s->c, t, K(s, *(int64_t *)p)); }

/* ---- Mul rule ----------------------------------------------------------------------------------- */

static const ae *rewrite_mul(simplifier *s, const ae *e) {
  interval r = ev(s, e->rhs);
  if (!iv_is_point(r)) return e;
  int64_t c = r.lo;
  const ae *x = once(s, e->lhs);
  if (x->kind == AE_ADD) return map_summands(s, x, scale_map, &c);
  if (c == 1) return x;
  if (x == e->lhs) return e;
  return ae_mul(s->c, x, K(s, c));
}

/* ---- Sum rule ---------------------------------------------------------------------------------- */

typedef struct {
  const ae *x;
  int64_t m;
  bool used;
} term;

typedef struct {
  term *v;
  size_t n, cap;
} termvec;

static void tv_push(termvec *tv, const ae *x, int64_t m) {
  if (tv->n == tv->cap) {
    tv->cap = tv->cap ? tv->cap * 2 : 8;
    tv->v = hb_realloc(tv->v, tv->cap * sizeof *tv->v);
  }
  tv->v[tv->n++] = (term){x, m, false};
}

typedef struct {
  termvec mods, divs, terms;
  hb_ptrmap index; /* expr -> position in terms */
  bool overflow;
} sum_state;

static void terms_add(sum_state *st, const ae *x, int64_t m) {
  hb_ptrmap_val *p = hb_ptrmap_get(&st->index, x);
  if (p) {
    term *t = &st->terms.v[p->a];
    if (!hb_ck_add(t->m, m, &t->m)) st->overflow = true;
    return;
  }
  hb_ptrmap_put(&st->index, x, (hb_ptrmap_val){(int64_t)st->terms.n, 0});
  tv_push(&st->terms, x, m);
}

static void sum_collect(simplifier *s, const ae *t, void *p) {
  sum_state *st = p;
  const ae *t1 = once(s, t);
  const ae *b = t1;
  int64_t m = 1, c;
  if (crhs(s, t1, AE_MUL, &c)) {
    b = t1->lhs;
    m = c;
  }
  if (b->kind == AE_MOD) tv_push(&st->mods, b, m);
  else if (b->kind == AE_FLOORDIV) tv_push(&st->divs, b, m);
  else terms_add(st, b, m);
}

typedef struct {
  sum_state *st;
  int64_t b;
} add_b_cl;

static void sum_add_b(simplifier *s, const ae *t, void *p) {
  (void)s;
  add_b_cl *k = p;
  terms_add(k->st, t, k->b);
}

static int cmp_terms(const void *pa, const void *pb) {
  return ae_term_compare(*(const ae *const *)pa, *(const ae *const *)pb);
}

static const ae *rewrite_sum(simplifier *s, const ae *e) {
  sum_state st;
  memset(&st, 0, sizeof st);
  hb_ptrmap_init(&st.index);
  visit_summands(s, e, sum_collect, &st);

  if (st.divs.n > 0) {
    /* 2a. (x mod c) * k + (x floordiv c) * (c * k) -> x * k */
    for (size_t i = 0; i < st.mods.n; i++) {
      term *M = &st.mods.v[i];
      int64_t c;
      if (M->used || !crhs(s, M->x, AE_MOD, &c)) continue;
      const ae *q = simplify_full(s, ae_floordiv(s->c, M->x->lhs, K(s, c)));
      for (size_t j = 0; j < st.divs.n; j++) {
        term *D = &st.divs.v[j];
        if (D->used || D->x != q) continue;
        int64_t r, quo;
        if (M->m == 0 || !hb_ck_rem_trunc(D->m, M->m, &r) || r != 0) continue;
        if (!hb_ck_div_trunc(D->m, M->m, &quo) || quo != c) continue;
        terms_add(&st, M->x->lhs, M->m);
        D->used = true;
        M->used = true;
        break;
      }
    }
    /* 2b. (x floordiv c) * (b * c) with b <= 0 -> b * x - b * (x mod c) */
    for (size_t j = 0; j < st.divs.n; j++) {
      term *D = &st.divs.v[j];
      int64_t c, r, b, nb;
      if (D->used || D->m > 0) continue;
      if (!crhs(s, D->x, AE_FLOORDIV, &c) || c <= 0) continue;
      if (!hb_ck_rem_trunc(D->m, c, &r) || r != 0) continue;
      hb_ck_div_trunc(D->m, c, &b); /* c > 0 */
      if (!hb_ck_neg(b, &nb)) continue;
      const ae *x = D->x->lhs;
      add_b_cl k = {&st, b};
      visit_summands(s, x, sum_add_b, &k);
      tv_push(&st.mods, ae_mod(s->c, x, K(s, c)), nb);
      st.divs.v[j].used = true; /* D may dangle after the push into mods (other vector): fine */
    }
  }
  /* 3. */
  for (size_t i = 0; i < st.mods.n; i++)
    if (!st.mods.v[i].used) terms_add(&st, st.mods.v[i].x, st.mods.v[i].m);
  for (size_t j = 0; j < st.divs.n; j++)
    if (!st.divs.v[j].used) terms_add(&st, st.divs.v[j].x, st.divs.v[j].m);

  const ae *res = e;
  if (!st.overflow && !s->abort) {
    /* 4. canonical sum */
    size_t n = st.terms.n;
    const ae **prod = hb_malloc((n ? n : 1) * sizeof *prod);
    for (size_t i = 0; i < n; i++) prod[i] = ae_mul(s->c, st.terms.v[i].x, K(s, st.terms.v[i].m));
    qsort(prod, n, sizeof *prod, cmp_terms);
    res = K(s, 0);
    for (size_t i = 0; i < n; i++) res = ae_add(s->c, res, prod[i]);
    free(prod);
  }
  free(st.mods.v);
  free(st.divs.v);
  free(st.terms.v);
  hb_ptrmap_free(&st.index);
  return res;
}

/* ---- Mod rule ----------------------------------------------------------------------------------- */

typedef struct {
  int64_t m;
  int64_t acc;
  bool overflow;
} mod_cl;

static const ae *mod_strip(simplifier *s, const ae *t, void *p) {
  mod_cl *k = p;
  int64_t k2;
  if (t->kind == AE_CONST) {
    if (!hb_ck_add(k->acc, t->value, &k->acc)) k->overflow = true;
    return K(s, 0);
  }
  if (crhs(s, t, AE_MUL, &k2) && hb_ck_divisible(k2, k->m)) return K(s, 0);
  return t;
}

static const ae *rewrite_mod(simplifier *s, const ae *e) {
  ae_ctx *c = s->c;
  interval r = ev(s, e->rhs);
  if (!iv_is_point(r)) return e;
  int64_t m = r.lo;
  if (m == 0) return K(s, 0);
  if (m < 0) return e; /* not produced by the analysis; XLA's rules assume m > 0 */

  const ae *x = once(s, e->lhs);
  interval l = ev(s, x);
  /* 2. no wrap-around */
  int64_t q, off, t;
  if (hb_ck_floordiv(l.lo, m, &q) && hb_ck_mul(q, -m, &off) && hb_ck_add(l.hi, off, &t) && t < m)
    return ae_add(c, x, K(s, off));
  /* 3. (y * k) mod m with k | m */
  int64_t k;
  if (crhs(s, x, AE_MUL, &k) && k > 0 && m % k == 0)
    return ae_mul(c, ae_mod(c, x->lhs, K(s, m / k)), K(s, k));
  /* 4. drop constants and multiples of m */
  mod_cl cl = {m, 0, false};
  const ae *n = map_summands(s, x, mod_strip, &cl);
  if (cl.overflow) n = x;
  else if (cl.acc % m != 0) n = ae_add(c, n, K(s, cl.acc % m));
  /* 5. */
  const ae *A, *B;
  int64_t g;
  split_gcd(s, n, &A, &g, &B);
  int64_t rem;
  if (g != 1 && hb_ck_rem_trunc(m, g, &rem) && rem == 0) {
    interval rb = ev(s, B);
    if (iv_eq(rb, iv_point(0))) {
      int64_t h = 1, f = 1, md = m;
      hb_ck_gcd(g, m, &h); /* |m| < 2^63 */
      const ae *N = n;
      if (h == g) {
        N = A;
      } else if (h > 1) {
        hb_ck_div_trunc(g, h, &f);
        N = map_summands(s, A, scale_map, &f);
      }
      hb_ck_div_trunc(m, h, &md);
      return ae_mul(c, ae_mod(c, N, K(s, md)), K(s, h));
    }
    int64_t gm1;
    if (hb_ck_sub(g, 1, &gm1) && iv_contains_iv(iv_make(0, gm1), rb))
      return ae_add(c, ae_mod(c, ae_mul(c, A, K(s, g)), e->rhs), B);
  }
  /* 6. */
  return n == e->lhs ? e : ae_mod(c, n, K(s, m));
}

/* ---- Div rule ------------------------------------------------------------------------------------ */

typedef struct {
  int64_t d;
  const ae *E;
} sumdiv_cl;

static const ae *sumdiv_extract(simplifier *s, const ae *t, void *p) {
  sumdiv_cl *k = p;
  int64_t mul, f;
  if (crhs(s, t, AE_MUL, &mul) && hb_ck_divisible(mul, k->d) && hb_ck_div_trunc(mul, k->d, &f)) {
    k->E = ae_add(s->c, k->E, ae_mul(s->c, t->lhs, K(s, f)));
    return K(s, 0);
  }
  return t;
}

typedef struct {
  int count;
  int64_t q;
} inner_cl;

static void count_inner(simplifier *s, const ae *t, void *p) {
  inner_cl *k = p;
  int64_t q;
  if (crhs(s, t, AE_FLOORDIV, &q)) {
    k->count++;
    k->q = q;
  }
}

static const ae *merge_inner(simplifier *s, const ae *t, void *p) {
  int64_t q = *(int64_t *)p, tmp;
  if (crhs(s, t, AE_FLOORDIV, &tmp)) return t->lhs;
  return ae_mul(s->c, t, K(s, q));
}

/* Returns NULL when nothing applies. d > 1. */
static const ae *sum_div(simplifier *s, const ae *x, int64_t d) {
  ae_ctx *c = s->c;
  sumdiv_cl cl = {d, K(s, 0)};
  const ae *n = map_summands(s, x, sumdiv_extract, &cl);
  const ae *A, *B;
  int64_t g, h = 1, f = 1;
  split_gcd(s, n, &A, &g, &B);
  hb_ck_gcd(d, g, &h); /* d > 1: h <= d */
  interval rb = ev(s, B);
  if (h != 1 && iv_contains_iv(iv_make(0, h - 1), rb)) {
    hb_ck_div_trunc(g, h, &f);
    n = ae_mul(c, A, K(s, f));
    d /= h;
  } else if (iv_is_point(rb) && rb.lo != 0) {
    int64_t h2, v;
    if (hb_ck_gcd(rb.lo, h, &h2) && h2 != 1) {
      hb_ck_div_trunc(g, h2, &f);
      hb_ck_div_trunc(rb.lo, h2, &v);
      n = ae_add(c, ae_mul(c, A, K(s, f)), K(s, v));
      d /= h2;
    }
  }
  inner_cl in = {0, 0};
  visit_summands(s, n, count_inner, &in);
  int64_t dq;
  if (in.count == 1 && in.q > 0 && hb_ck_mul(d, in.q, &dq)) {
    n = map_summands(s, n, merge_inner, &in.q);
    d = dq;
  }
  if (n != x) return ae_add(c, ae_floordiv(c, n, K(s, d)), cl.E);
  return NULL;
}

static const ae *rewrite_floordiv(simplifier *s, const ae *e) {
  ae_ctx *c = s->c;
  interval r = ev(s, e->rhs);
  const ae *x = once(s, e->lhs);
  if (!iv_is_point(r)) return ae_floordiv(c, x, once(s, e->rhs));
  int64_t d = r.lo, k, dk;
  if (d > 1) {
    /* mod-div: (y mod k) floordiv d with d | k */
    if (crhs(s, x, AE_MOD, &k) && k > 0 && k % d == 0)
      return ae_mod(c, ae_floordiv(c, x->lhs, K(s, d)), K(s, k / d));
    /* div-div */
    if (crhs(s, x, AE_FLOORDIV, &k) && k != 0 && hb_ck_mul(d, k, &dk)) return ae_floordiv(c, x->lhs, K(s, dk));
    const ae *res = sum_div(s, x, d);
    if (res) return res;
  }
  return x != e->lhs ? ae_floordiv(c, x, K(s, d)) : e;
}

/* ---- Min / max rule (XLA's symbolic expressions, V2) ----------------------------------------------- */

/* The operands are simplified; when their ranges do not overlap (or touch),
 * the one that always wins is the result. */
static const ae *rewrite_minmax(simplifier *s, const ae *e) {
  const ae *a = once(s, e->lhs), *b = once(s, e->rhs);
  interval ra = ev(s, a), rb = ev(s, b);
  bool a_le_b = ra.hi <= rb.lo, b_le_a = rb.hi <= ra.lo;
  if (e->kind == AE_MAX) {
    if (a_le_b) return b;
    if (b_le_a) return a;
  } else {
    if (a_le_b) return a;
    if (b_le_a) return b;
  }
  return a == e->lhs && b == e->rhs ? e : ae_binary(s->c, (ae_kind)e->kind, a, b);
}

/* ---- once / simplify -------------------------------------------------------------------------------- */

static const ae *once(simplifier *s, const ae *e) {
  if (e->kind == AE_CONST) return e;
  if (!check_budget(s)) return e;
  bool found;
  const ae *hit = hb_ptrmap_get_ptr(&s->once_memo, e, &found);
  if (found) return hit;
  const ae *res = e;
  bool done = false;
  if (s->mode == SIMPLIFY_REPLACE_POINTS) {
    interval b = ev(s, e);
    if (iv_is_point(b)) {
      res = K(s, b.lo);
      done = true;
    }
  }
  if (!done) {
    switch (e->kind) {
    case AE_MUL: res = rewrite_mul(s, e); break;
    case AE_ADD: res = rewrite_sum(s, e); break;
    case AE_MOD: res = rewrite_mod(s, e); break;
    case AE_FLOORDIV: res = rewrite_floordiv(s, e); break;
    case AE_MAX:
    case AE_MIN: res = rewrite_minmax(s, e); break;
    default: res = e;
    }
  }
  if (!s->abort) hb_ptrmap_put_ptr(&s->once_memo, e, res);
  return res;
}

static const ae *simplify_full(simplifier *s, const ae *e) {
  bool found;
  const ae *hit = hb_ptrmap_get_ptr(&s->simp_memo, e, &found);
  if (found) return hit;
  const ae *cur = e;
  for (int iter = 0; iter < 10000 && !s->abort; iter++) {
    const ae *nxt = once(s, cur);
    if (nxt == cur) break;
    cur = nxt;
  }
  if (!s->abort) hb_ptrmap_put_ptr(&s->simp_memo, e, cur);
  return cur;
}

const ae *simplifier_simplify(simplifier *s, const ae *e) {
  sync(s);
  return simplify_full(s, e);
}

/* ---- §6.5 map simplification --------------------------------------------------------------------------- */

typedef struct {
  const ae *e;
  interval iv;
} pending;

/* Expression pass. Returns true if something was added. */
static bool constraint_exprs(imap *m, simplifier *s) {
  uint32_t n = m->ncons;
  if (n == 0) return false;
  imap_constraint *snap = hb_malloc(n * sizeof *snap);
  const ae **rm = hb_malloc(n * sizeof *rm);
  pending *add = hb_malloc(n * sizeof *add);
  memcpy(snap, m->cons, n * sizeof *snap);
  uint32_t nrm = 0, nadd = 0;
  sync(s);
  for (uint32_t i = 0; i < n; i++) {
    const ae *e1 = simplify_full(s, snap[i].expr);
    if (iv_contains_iv(snap[i].iv, ev(s, e1))) {
      rm[nrm++] = snap[i].expr;
      continue;
    }
    if (e1 == snap[i].expr) continue;
    add[nadd++] = (pending){e1, snap[i].iv};
    rm[nrm++] = snap[i].expr;
  }
  for (uint32_t i = 0; i < nrm; i++) imap_erase_constraint(m, rm[i]);
  for (uint32_t i = 0; i < nadd; i++) imap_add_constraint(m, add[i].e, add[i].iv);
  free(snap);
  free(rm);
  free(add);
  return nadd > 0;
}

/* One range rule; false if none applies. */
static bool range_rule(simplifier *s, const ae **pe, interval *piv) {
  const ae *e = *pe;
  interval iv = *piv;
  if (!ae_is_binary(e)) return false;
  if (e->kind == AE_ADD) {
    interval rb = ev(s, e->rhs);
    if (iv_is_point(rb)) {
      interval n;
      if (!hb_ck_sub(iv.lo, rb.lo, &n.lo) || !hb_ck_sub(iv.hi, rb.lo, &n.hi)) return false;
      *pe = e->lhs;
      *piv = n;
      return true;
    }
    if (iv.lo != 0) return false;
    const ae *A, *B;
    int64_t g;
    split_gcd(s, e, &A, &g, &B);
    if (g <= 1) return false;
    interval b = ev(s, B);
    if (b.lo != 0) return false; /* exactness guard, see simplify.h */
    interval q = iv_floordiv(iv_sub(iv_point(iv.hi), b), g);
    if (!iv_is_point(q)) return false;
    const ae *ne = ae_mul(s->c, A, K(s, g));
    if (ne == e) return false;
    *pe = ne;
    return true;
  }
  if (e->kind == AE_MUL || e->kind == AE_FLOORDIV) {
    interval r = ev(s, e->rhs);
    if (!iv_is_point(r) || r.lo == 0) return false;
    int64_t c = r.lo;
    interval n = iv;
    if (c < 0) {
      if (!hb_ck_neg(c, &c) || !hb_ck_neg(iv.hi, &n.lo) || !hb_ck_neg(iv.lo, &n.hi)) return false;
    }
    interval out;
    if (e->kind == AE_MUL) {
      if (!hb_ck_ceildiv(n.lo, c, &out.lo) || !hb_ck_floordiv(n.hi, c, &out.hi)) return false;
    } else {
      int64_t h1;
      if (!hb_ck_mul(n.lo, c, &out.lo) || !hb_ck_add(n.hi, 1, &h1) || !hb_ck_mul(h1, c, &out.hi) ||
          !hb_ck_sub(out.hi, 1, &out.hi))
        return false;
    }
    *pe = e->lhs;
    *piv = out;
    return true;
  }
  return false;
}

static bool constraint_ranges(imap *m, simplifier *s) {
  uint32_t n = m->ncons;
  if (n == 0) return false;
  imap_constraint *snap = hb_malloc(n * sizeof *snap);
  pending *add = hb_malloc(n * sizeof *add);
  memcpy(snap, m->cons, n * sizeof *snap);
  uint32_t nadd = 0;
  sync(s);
  for (uint32_t i = 0; i < n; i++) {
    const ae *e = snap[i].expr;
    interval iv = snap[i].iv;
    bool any = false;
    for (int guard = 0; guard < 10000 && range_rule(s, &e, &iv); guard++) any = true;
    if (any) {
      add[nadd++] = (pending){e, iv};
      snap[i].expr = snap[i].expr; /* keep for removal */
    } else {
      snap[i].expr = NULL;
    }
  }
  for (uint32_t i = 0; i < n; i++)
    if (snap[i].expr) imap_erase_constraint(m, snap[i].expr);
  for (uint32_t i = 0; i < nadd; i++) imap_add_constraint(m, add[i].e, add[i].iv);
  free(snap);
  free(add);
  return nadd > 0;
}

static bool merge_mod_constraints(imap *m, simplifier *s) {
  bool did = false;
  uint32_t n = m->ncons;
  if (n == 0) return false;
  imap_constraint *snap = hb_malloc(n * sizeof *snap);
  bool *done = hb_calloc(n, 1);
  bool *grp = hb_calloc(n, 1);
  memcpy(snap, m->cons, n * sizeof *snap);
  sync(s);
  for (uint32_t i = 0; i < n; i++) {
    if (done[i] || snap[i].expr->kind != AE_MOD) continue;
    const ae *X = snap[i].expr->lhs;
    interval *upd = NULL;
    if (X->kind == AE_DIM && (uint64_t)X->value < m->ndims) upd = &m->dim_iv[X->value];
    if (X->kind == AE_SYM && (uint64_t)X->value < imap_nsyms(m)) upd = &m->sym_iv[X->value];
    /* the constraints of this X with a point interval, grouped by that point */
    for (uint32_t j = i; j < n; j++)
      if (snap[j].expr->kind == AE_MOD && snap[j].expr->lhs == X) done[j] = true;
    bool *taken = hb_calloc(n, 1);
    for (uint32_t j = i; j < n; j++) {
      if (taken[j] || snap[j].expr->kind != AE_MOD || snap[j].expr->lhs != X || !iv_is_point(snap[j].iv)) continue;
      int64_t r = snap[j].iv.lo, L = 1;
      uint32_t members = 0;
      bool ok = true;
      memset(grp, 0, n);
      for (uint32_t k = j; k < n; k++) {
        if (snap[k].expr->kind != AE_MOD || snap[k].expr->lhs != X || !iv_eq(snap[k].iv, iv_point(r))) continue;
        taken[k] = grp[k] = true;
        members++;
        interval rv = ev(s, snap[k].expr->rhs);
        if (rv.lo <= 0 || !hb_ck_lcm(L, rv.lo, &L)) ok = false;
      }
      if (!ok) continue;
      if (members > 1) {
        for (uint32_t k = j; k < n; k++)
          if (grp[k]) imap_erase_constraint(m, snap[k].expr);
        const ae *key = ae_mod(m->ctx, X, ae_const(m->ctx, L));
        if (ae_is_binary(key)) imap_put_constraint(m, key, iv_point(r));
        else imap_add_constraint(m, key, iv_point(r));
        did = true;
        if (m->known_empty) break;
      }
      if (upd) {
        interval old = *upd, nw;
        int64_t t;
        /* XLA divides with C truncation; for the non-negative bounds of its
         * maps that equals floor division, which is also right for negative
         * bounds. */
        int64_t ql = 0, qh = 0;
        hb_ck_floordiv(old.lo, L, &ql);
        hb_ck_floordiv(old.hi, L, &qh);
        if (!hb_ck_mul(ql, L, &t) || !hb_ck_add(t, r, &nw.lo)) continue;
        if (nw.lo < old.lo && !hb_ck_add(nw.lo, L, &nw.lo)) continue;
        if (!hb_ck_mul(qh, L, &t) || !hb_ck_add(t, r, &nw.hi)) continue;
        if (nw.hi > old.hi && !hb_ck_sub(nw.hi, L, &nw.hi)) continue;
        if (!iv_eq(nw, old)) {
          *upd = nw;
          m->gen++;
          did = true;
        }
      }
    }
    free(taken);
    if (m->known_empty) break;
  }
  free(snap);
  free(done);
  free(grp);
  return did;
}

simplify_status imap_simplify(imap *m, simplify_mode mode, bool *changed) {
  if (changed) *changed = false;
  if (m->undefined || m->known_empty) return SIMPLIFY_OK;
  bool any = false, aborted = false;

  /* 1. constraint loop: no constraints in the evaluator, replace-points mode */
  simplifier *sc = simplifier_new(m, false, SIMPLIFY_REPLACE_POINTS);
  for (int iter = 0; iter < 1000; iter++) {
    bool added = constraint_exprs(m, sc);
    if (!m->known_empty) added |= constraint_ranges(m, sc);
    if (sc->abort) aborted = true;
    if (!added || m->known_empty || aborted) {
      any |= added;
      break;
    }
    any = true;
  }
  /* 2. */
  if (!m->known_empty && !aborted) any |= merge_mod_constraints(m, sc);
  simplifier_free(sc);

  /* 3. results: evaluator with constraints, requested mode */
  if (!m->known_empty && !aborted) {
    simplifier *sr = simplifier_new(m, true, mode);
    for (uint32_t i = 0; i < m->nresults && !sr->abort; i++) {
      const ae *r = simplify_full(sr, m->results[i]);
      if (sr->abort) break;
      if (r != m->results[i]) {
        m->results[i] = r;
        any = true;
      }
    }
    if (sr->abort) aborted = true;
    simplifier_free(sr);
  }
  if (changed) *changed = any;
  return aborted ? SIMPLIFY_TOO_LARGE : SIMPLIFY_OK;
}

simplify_status imap_simplify_budgeted(imap *m, simplify_mode mode, size_t node_budget) {
  ae_ctx *c = m->ctx;
  size_t old = ae_ctx_node_limit(c);
  ae_ctx_clear_status(c);
  ae_ctx_set_node_limit(c, ae_ctx_node_count(c) + node_budget);
  simplify_status st = imap_simplify(m, mode, NULL);
  ae_ctx_set_node_limit(c, old);
  ae_ctx_clear_status(c);
  return st;
}
