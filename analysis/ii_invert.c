/* In2out by inversion: the INV family, and ii_invert, which any in2out
 * rule may use.
 *
 * An out2in map M relates output element d to operand element x when some
 * values of its range variables s satisfy M's domain and e(d, s, rt) = x.
 * The inverse is a map over x whose results are d. It is built by solving
 * the equations e_i = x_i for the unknowns (the output dims d_k and M's
 * range variables), one at a time, where the equation has one of these
 * forms (u the unknown, r the rest of the expression, without u):
 *
 *   u*a + r = x     u = (x - r) / a       (a = +-1; else floordiv, with (x - r) mod a in [0, 0])
 *   u1*a1 + u2*a2 + ... + r = x   each u a digit of x - r, when the a's and
 *                   the unknowns' ranges make a mixed radix (try_radix)
 *   (u + r) floordiv q = x     u = x*q - r + t,  t a new range variable in [0, q-1]
 *   (u + r) mod q = x          u = x - r + q*t,  t a new range variable, x in [0, q-1]
 *
 * Equations whose unknowns are all solved first, then one with unknowns
 * left in its rest, and so on. An unknown no equation solves becomes a
 * range variable of the inverse over its interval (the output dims an
 * operand element feeds); an equation left over becomes the constraint
 * e_i - x_i in [0, 0]; every solved unknown is constrained to its interval,
 * and M's constraints are carried over. The result denotes exactly M's
 * relation, transposed; it is then simplified and its unused symbols
 * removed. Runtime variables stay runtime variables; their descriptions
 * are rewritten over x and the inverse's variables (rt_bind.c's form), a
 * replica-id map over x with the inverse's range variables first and its
 * own symbols after. */
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "ii_internal.h"

typedef struct {
  const ae *e;
  interval iv;
} pending;

typedef struct {
  ii_ctx *c;
  const imap *m;    /* the out2in map */
  uint32_t n, R, T; /* its dims, range and runtime variables */
  uint32_t nx;      /* the operand's rank (= M's results) */
  uint32_t nsplit;  /* split variables created */
  uint32_t ns;      /* working symbols: [0,n) d_k, [n,n+R) s_j, [n+R,n+R+T) rt, then split variables */
  imap *w;          /* the working space: dims x, symbols as above (all plain symbols here) */
  simplifier *simp;
  const ae **val;   /* per working symbol: its value, or NULL while unsolved (runtime ones never) */
  const ae **eq;    /* per result: e_i in the working space */
  bool *done;       /* per result: used to solve an unknown */
  pending *extra;   /* constraints the solutions add */
  uint32_t nextra;
  bool *mark;       /* scratch: symbols of an expression */
} inv;

static bool is_unknown(const inv *v, uint32_t p) { return (p < v->n + v->R || p >= v->n + v->R + v->T) && !v->val[p]; }

/* Marks the unknowns of e in v->mark; returns how many. */
static uint32_t unknowns(inv *v, const ae *e) {
  memset(v->mark, 0, v->ns * sizeof *v->mark);
  ae_collect_vars(e, NULL, 0, v->mark, v->ns);
  uint32_t k = 0;
  for (uint32_t p = 0; p < v->ns; p++) {
    v->mark[p] = v->mark[p] && is_unknown(v, p);
    k += v->mark[p];
  }
  return k;
}

static bool has_sym(inv *v, const ae *e, uint32_t p) {
  if (!ae_has_sym(e)) return false;
  memset(v->mark, 0, v->ns * sizeof *v->mark);
  ae_collect_vars(e, NULL, 0, v->mark, v->ns);
  return v->mark[p];
}

/* The summands of e, left to right (an explicit stack: sums can be long);
 * 0 when there are more than cap. */
#define MAX_SUMMANDS 64
static uint32_t summands(const ae *e, const ae **out) {
  const ae *stack[MAX_SUMMANDS];
  uint32_t sp = 0, n = 0;
  stack[sp++] = e;
  while (sp) {
    const ae *t = stack[--sp];
    if (t->kind != AE_ADD) {
      if (n == MAX_SUMMANDS) return 0;
      out[n++] = t;
    } else {
      if (sp + 2 > MAX_SUMMANDS) return 0;
      stack[sp++] = t->rhs;
      stack[sp++] = t->lhs;
    }
  }
  return n;
}

/* A summand `u` or `u * a` (a constant): true, with u and a. */
static bool scaled_sym(const ae *t, uint32_t *u, int64_t *a) {
  *a = 1;
  if (t->kind == AE_MUL && ae_is_const(t->rhs)) *a = t->rhs->value, t = t->lhs;
  if (t->kind != AE_SYM) return false;
  *u = (uint32_t)t->value;
  return true;
}

/* e = u*a + rest with rest free of u (a != 0): true, with a and rest. */
static bool linear_in(inv *v, const ae *e, uint32_t u, int64_t *a, const ae **rest) {
  const ae *t[MAX_SUMMANDS], *r = ae_const(v->c->ae, 0);
  uint32_t n = summands(e, t), p;
  int64_t coef = 0, k;
  for (uint32_t i = 0; i < n; i++) {
    if (scaled_sym(t[i], &p, &k) && p == u) {
      if (__builtin_add_overflow(coef, k, &coef)) return false;
    } else {
      r = ae_add(v->c->ae, r, t[i]);
    }
  }
  if (n == 0 || coef == 0 || has_sym(v, r, u)) return false;
  *a = coef;
  *rest = r;
  return true;
}

static void add_extra(inv *v, const ae *e, interval iv);
static void solve(inv *v, uint32_t u, const ae *s);

/* e = sum of a_t * u_t over distinct unknowns + rest (rest without
 * unknowns): true, with the terms (at most cap). */
typedef struct {
  uint32_t u;
  int64_t a;
} term;

static bool linear_terms(inv *v, const ae *e, term *t, uint32_t cap, uint32_t *nt, const ae **rest) {
  const ae *s[MAX_SUMMANDS], *r = ae_const(v->c->ae, 0);
  uint32_t ns = summands(e, s), n = 0, u;
  int64_t a;
  for (uint32_t i = 0; i < ns; i++) {
    if (!scaled_sym(s[i], &u, &a) || !is_unknown(v, u)) {
      r = ae_add(v->c->ae, r, s[i]);
      continue;
    }
    uint32_t k = 0;
    while (k < n && t[k].u != u) k++;
    if (k == n) {
      if (n == cap) return false;
      t[n++] = (term){u, 0};
    }
    if (__builtin_add_overflow(t[k].a, a, &t[k].a)) return false;
  }
  if (ns == 0 || unknowns(v, r)) return false;
  *nt = n;
  *rest = r;
  return true;
}

static int by_coef_desc(const void *pa, const void *pb) {
  const term *a = pa, *b = pb;
  return a->a > b->a ? -1 : a->a < b->a;
}

/* a_1*u_1 + ... + a_m*u_m + r = x with a_1 > ... > a_m > 0 where every
 * lower part spans less than the coefficient above it (a mixed radix, as a
 * linearized index or a window that does not overlap the next one): each
 * u_t is one digit of y = x - r - sum(a_t * lo_t), so all are solved:
 * u_t = lo_t + (y mod a_{t-1}) floordiv a_t, and y mod a_m in [0, 0]. */
static bool try_radix(inv *v, uint32_t i, const ae *e) {
  ae_ctx *x = v->c->ae;
  term t[8];
  uint32_t n;
  const ae *r;
  if (!linear_terms(v, e, t, 8, &n, &r) || n < 2) return false;
  bool neg = t[0].a < 0;
  for (uint32_t k = 0; k < n; k++) {
    if ((t[k].a < 0) != neg || t[k].a == 0 || t[k].a == INT64_MIN) return false;
    if (neg) t[k].a = -t[k].a;
  }
  qsort(t, n, sizeof *t, by_coef_desc);
  /* y = +-(x - r) - sum a_t lo_t; the span of the digits below t is < a_{t-1} */
  const ae *y = neg ? ae_sub(x, r, ae_dim(x, i)) : ae_sub(x, ae_dim(x, i), r);
  int64_t span = 0;
  for (uint32_t k = n; k-- > 0;) {
    interval iv = v->w->sym_iv[t[k].u];
    int64_t w, lo_part;
    if (iv.hi < iv.lo || !hb_ck_sub(iv.hi, iv.lo, &w) || !hb_ck_mul(w, t[k].a, &w) || !hb_ck_add(span, w, &span)) return false;
    if (k > 0 && (t[k - 1].a == t[k].a || span >= t[k - 1].a)) return false;
    if (!hb_ck_mul(iv.lo, t[k].a, &lo_part)) return false;
    y = ae_add_const(x, y, -lo_part);
  }
  const ae *rem = y;
  for (uint32_t k = 0; k < n; k++) {
    if (k > 0) rem = ae_mod_const(x, rem, t[k - 1].a);
    solve(v, t[k].u, ae_add_const(x, ae_floordiv_const(x, rem, t[k].a), v->w->sym_iv[t[k].u].lo));
  }
  if (t[n - 1].a > 1) add_extra(v, ae_mod_const(x, rem, t[n - 1].a), iv_make(0, 0));
  return true;
}

static void add_extra(inv *v, const ae *e, interval iv) {
  v->extra = hb_arena_grow(v->c->scratch, v->extra, v->nextra, v->nextra + 1, sizeof *v->extra);
  v->extra[v->nextra++] = (pending){e, iv};
}

/* Sets val[u] = s and substitutes it into the values found before. */
static void solve(inv *v, uint32_t u, const ae *s) {
  const ae **sub = ii_exprs(v->c, v->ns);
  for (uint32_t p = 0; p < v->ns; p++) sub[p] = NULL;
  sub[u] = s;
  for (uint32_t p = 0; p < v->ns; p++)
    if (v->val[p] && p != u) v->val[p] = ae_subst(v->c->ae, v->val[p], NULL, 0, sub, v->ns);
  v->val[u] = s;
}

static const ae *current(inv *v, uint32_t i) {
  const ae *e = ae_subst(v->c->ae, v->eq[i], NULL, 0, v->val, v->ns);
  return simplifier_simplify(v->simp, e);
}

/* A new split variable over [lo, hi]. */
static const ae *split_var(inv *v, interval iv) {
  uint32_t p = v->n + v->R + v->T + v->nsplit++;
  imap_set_sym_interval(v->w, p, iv);
  return ae_sym(v->c->ae, p);
}

/* Tries to solve equation i (its current form e) for one unknown; with
 * `closed`, only when what is left has no unknown. */
static bool try_solve(inv *v, uint32_t i, const ae *e, bool closed) {
  ae_ctx *x = v->c->ae;
  const ae *xi = ae_dim(x, i);
  if (unknowns(v, e) == 0) return false;
  bool *cand = hb_arena_array(v->c->scratch, v->ns, sizeof *cand);
  memcpy(cand, v->mark, v->ns * sizeof *cand);
  /* a floordiv or mod by a constant of (u + r) */
  if ((e->kind == AE_FLOORDIV || e->kind == AE_MOD) && ae_is_const(e->rhs) && e->rhs->value > 0) {
    int64_t q = e->rhs->value, a;
    const ae *r;
    for (uint32_t u = 0; u < v->ns; u++) {
      if (!cand[u] || !linear_in(v, e->lhs, u, &a, &r) || a != 1) continue;
      if (closed && unknowns(v, r)) continue;
      interval uiv = v->w->sym_iv[u];
      if (e->kind == AE_FLOORDIV) {
        const ae *t = split_var(v, iv_make(0, q - 1));
        solve(v, u, ae_add(x, ae_sub(x, ae_mul_const(x, xi, q), r), t));
      } else {
        /* t = (u + r - x) floordiv q over u's and r's ranges and x in [0, q-1] */
        interval riv = simplifier_eval(v->simp, r);
        int64_t lo, hi, tlo, thi;
        if (!hb_ck_add(uiv.lo, riv.lo, &lo) || !hb_ck_add(uiv.hi, riv.hi, &hi) || !hb_ck_sub(lo, q - 1, &lo) ||
            !hb_ck_floordiv(lo, q, &tlo) || !hb_ck_floordiv(hi, q, &thi))
          return false;
        const ae *t = split_var(v, iv_make(tlo, thi));
        solve(v, u, ae_add(x, ae_sub(x, xi, r), ae_mul_const(x, t, q)));
        add_extra(v, xi, iv_make(0, q - 1));
      }
      return true;
    }
    return false;
  }
  if (closed && try_radix(v, i, e)) return true;
  /* linear: prefer a coefficient of +-1, then an output dimension */
  int best = -1, best_score = 0;
  int64_t best_a = 0;
  const ae *best_r = NULL;
  for (uint32_t u = 0; u < v->ns; u++) {
    int64_t a;
    const ae *r;
    if (!cand[u] || !linear_in(v, e, u, &a, &r)) continue;
    if (closed && unknowns(v, r)) continue;
    int score = (a == 1 || a == -1 ? 0 : 2) + (u < v->n ? 0 : 1);
    if (best < 0 || score < best_score) best = (int)u, best_score = score, best_a = a, best_r = r;
  }
  if (best < 0) return false;
  const ae *diff = best_a > 0 ? ae_sub(x, xi, best_r) : ae_sub(x, best_r, xi);
  int64_t a = best_a > 0 ? best_a : -best_a;
  if (a == 1) {
    solve(v, (uint32_t)best, diff);
  } else {
    solve(v, (uint32_t)best, ae_floordiv_const(x, diff, a));
    add_extra(v, ae_mod_const(x, diff, a), iv_make(0, 0));
  }
  return true;
}

static void solve_all(inv *v) {
  for (;;) {
    bool progress = true;
    while (progress) {
      progress = false;
      for (uint32_t i = 0; i < v->nx; i++)
        if (!v->done[i] && try_solve(v, i, current(v, i), true)) v->done[i] = progress = true;
    }
    bool any = false;
    for (uint32_t i = 0; i < v->nx && !any; i++)
      if (!v->done[i] && try_solve(v, i, current(v, i), false)) v->done[i] = any = true;
    if (!any) return;
  }
}

/* A map over x with the given symbol layout and results (substituted). */
static imap *over_x(inv *v, const hlo_shape *xs, uint32_t nrange, const interval *range_iv, const imap *src,
                    const ae *const *dim_sub) {
  ii_ctx *c = v->c;
  uint32_t ns = nrange + imap_nsyms(src);
  interval *siv = hb_arena_array(c->scratch, ns ? ns : 1, sizeof *siv);
  const ae **sym_sub = ii_exprs(c, imap_nsyms(src));
  for (uint32_t j = 0; j < nrange; j++) siv[j] = range_iv[j];
  for (uint32_t j = 0; j < imap_nsyms(src); j++) {
    siv[nrange + j] = src->sym_iv[j];
    sym_sub[j] = ae_sym(c->ae, nrange + j);
  }
  if (src->undefined || src->ndims != v->n) return imap_new_undefined(c->scratch, c->ae);
  const ae **res = ii_exprs(c, src->nresults);
  ae_subst_many(c->ae, src->nresults, src->results, res, dim_sub, src->ndims, sym_sub, imap_nsyms(src));
  interval *div = hb_arena_array(c->scratch, v->nx ? v->nx : 1, sizeof *div);
  for (uint32_t i = 0; i < v->nx; i++) div[i] = iv_make(0, xs->dims[i] - 1);
  imap *r = imap_new(c->scratch, c->ae, v->nx, nrange + src->nrange, src->nrt, div, siv, src->nresults, res);
  for (uint32_t k = 0; k < src->ncons; k++)
    imap_add_constraint(r, ae_subst(c->ae, src->cons[k].expr, dim_sub, src->ndims, sym_sub, imap_nsyms(src)),
                        src->cons[k].iv);
  return r;
}

/* The common case without the solver: results that are distinct output
 * dims, no symbols, no constraints (identities, transposes, broadcasts).
 * Output dim k is x_i where result i is d_k (x_i narrowed to d_k's
 * interval), else a range variable over d_k's interval; a point interval
 * gives a constant, as the simplifier would. NULL when M is not so. */
static imap *invert_dims(ii_ctx *c, const imap *m, const hlo_shape *xs) {
  uint32_t n = m->ndims, nx = m->nresults;
  if (m->known_empty || imap_nsyms(m) || m->ncons) return NULL;
  int32_t *from = hb_arena_array(c->scratch, n ? n : 1, sizeof *from);
  for (uint32_t k = 0; k < n; k++) {
    from[k] = -1;
    if (m->dim_iv[k].hi < m->dim_iv[k].lo) return NULL;
  }
  interval *div = hb_arena_array(c->scratch, nx ? nx : 1, sizeof *div);
  for (uint32_t i = 0; i < nx; i++) {
    const ae *e = m->results[i];
    if (e->kind != AE_DIM || from[e->value] >= 0) return NULL;
    from[e->value] = (int32_t)i;
    div[i] = iv_intersect(iv_make(0, xs->dims[i] - 1), m->dim_iv[e->value]);
    if (div[i].hi < div[i].lo) return NULL;
  }
  const ae **res = ii_exprs(c, n);
  interval *siv = hb_arena_array(c->scratch, n ? n : 1, sizeof *siv);
  uint32_t nr = 0;
  for (uint32_t k = 0; k < n; k++) {
    interval iv = from[k] >= 0 ? div[from[k]] : m->dim_iv[k];
    if (iv.lo == iv.hi) res[k] = K(c, iv.lo);
    else if (from[k] >= 0) res[k] = D(c, (uint32_t)from[k]);
    else {
      siv[nr] = iv;
      res[k] = S(c, nr++);
    }
  }
  return imap_new(c->scratch, c->ae, nx, nr, 0, div, siv, n, res);
}

ii_status ii_invert(ii_ctx *c, const ii_operand *o, const hlo_shape *xs, ii_operand **out) {
  const imap *m = o->map;
  uint32_t nx = ii_rank(xs);
  if (m->undefined || !ii_is_array(xs) || m->nresults != nx) {
    *out = ii_wrap(c, imap_new_undefined(c->scratch, c->ae));
    (*out)->why = o->why;
    return II_OK;
  }
  imap *quick = o->replica ? NULL : invert_dims(c, m, xs);
  if (quick) {
    *out = ii_wrap(c, quick);
    return II_OK;
  }
  inv v = {0};
  v.c = c;
  v.m = m;
  v.n = m->ndims;
  v.R = m->nrange;
  v.T = m->nrt;
  v.nx = nx;
  v.ns = v.n + v.R + v.T + nx;
  ae_ctx *x = c->ae;
  interval *div = hb_arena_array(c->scratch, nx ? nx : 1, sizeof *div);
  for (uint32_t i = 0; i < nx; i++) div[i] = iv_make(0, xs->dims[i] - 1);
  if (m->known_empty) {
    const ae **zero = ii_exprs(c, v.n);
    for (uint32_t k = 0; k < v.n; k++) zero[k] = K(c, 0);
    imap *e = imap_new(c->scratch, x, nx, 0, 0, div, NULL, v.n, zero);
    imap_set_known_empty(e);
    *out = ii_wrap(c, e);
    return II_OK;
  }
  /* the working space */
  interval *wiv = hb_arena_array(c->scratch, v.ns, sizeof *wiv);
  for (uint32_t k = 0; k < v.n; k++) wiv[k] = m->dim_iv[k];
  for (uint32_t j = 0; j < v.R + v.T; j++) wiv[v.n + j] = m->sym_iv[j];
  for (uint32_t j = v.n + v.R + v.T; j < v.ns; j++) wiv[j] = iv_make(0, 0);
  v.w = imap_new(c->scratch, x, nx, v.ns, 0, div, wiv, 0, NULL);
  v.val = ii_exprs(c, v.ns);
  for (uint32_t p = 0; p < v.ns; p++) v.val[p] = NULL;
  v.mark = hb_arena_array(c->scratch, v.ns, sizeof *v.mark);
  v.done = hb_arena_zalloc(c->scratch, nx ? nx : 1);
  const ae **dsub = ii_exprs(c, v.n), **ssub = ii_exprs(c, v.R + v.T);
  for (uint32_t k = 0; k < v.n; k++) dsub[k] = ae_sym(x, k);
  for (uint32_t j = 0; j < v.R + v.T; j++) ssub[j] = ae_sym(x, v.n + j);
  v.eq = ii_exprs(c, nx);
  ae_subst_many(x, nx, m->results, v.eq, dsub, v.n, ssub, v.R + v.T);
  v.simp = simplifier_new(v.w, false, SIMPLIFY_REPLACE_POINTS);
  solve_all(&v);

  /* final symbols: the unsolved unknowns (output dims, M's range variables,
   * split variables) as range variables, then M's runtime variables */
  uint32_t used_ns = v.n + v.R + v.T + v.nsplit, nr = 0;
  const ae **fin = ii_exprs(c, used_ns);
  interval *riv = hb_arena_array(c->scratch, used_ns ? used_ns : 1, sizeof *riv);
  for (uint32_t p = 0; p < used_ns; p++) {
    fin[p] = NULL;
    bool rt = p >= v.n + v.R && p < v.n + v.R + v.T;
    if (!rt && !v.val[p]) {
      riv[nr] = v.w->sym_iv[p];
      fin[p] = ae_sym(x, nr++);
    }
  }
  for (uint32_t t = 0; t < v.T; t++) fin[v.n + v.R + t] = ae_sym(x, nr + t);
  for (uint32_t p = 0; p < used_ns; p++)
    if (!fin[p]) fin[p] = ae_subst(x, v.val[p], NULL, 0, fin, used_ns); /* values hold unsolved symbols only */
  interval *siv = hb_arena_array(c->scratch, nr + v.T + 1, sizeof *siv);
  for (uint32_t j = 0; j < nr; j++) siv[j] = riv[j];
  for (uint32_t t = 0; t < v.T; t++) siv[nr + t] = m->sym_iv[v.R + t];
  const ae **res = ii_exprs(c, v.n);
  for (uint32_t k = 0; k < v.n; k++) res[k] = fin[k];
  imap *r = imap_new(c->scratch, x, nx, nr, v.T, div, siv, v.n, res);
#define FIN(e) ae_subst(x, (e), NULL, 0, fin, used_ns)
  for (uint32_t k = 0; k < m->ncons; k++)
    imap_add_constraint(r, FIN(ae_subst(x, m->cons[k].expr, dsub, v.n, ssub, v.R + v.T)), m->cons[k].iv);
  for (uint32_t p = 0; p < used_ns; p++)
    if (v.val[p]) imap_add_constraint(r, fin[p], v.w->sym_iv[p]);
  for (uint32_t i = 0; i < v.nextra; i++) imap_add_constraint(r, FIN(v.extra[i].e), v.extra[i].iv);
  for (uint32_t i = 0; i < nx; i++)
    if (!v.done[i]) imap_add_constraint(r, ae_sub(x, FIN(v.eq[i]), ae_dim(x, i)), iv_make(0, 0));
#undef FIN
  simplifier_free(v.simp);

  ii_operand *y = ii_wrap(c, r);
  *out = y;
  if (ii_simplify_map(c, r, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  /* descriptions (rt_bind.c): over x, reading the inverse's variables -- an
   * output dim or range variable of M by its value, M's runtime variable t
   * as the inverse's */
  y->nrt = o->nrt;
  y->rt = hb_arena_array(c->scratch, o->nrt ? o->nrt : 1, sizeof *y->rt);
  for (uint32_t t = 0; t < o->nrt; t++) {
    const imap *d = o->rt[t].map;
    y->rt[t] = o->rt[t];
    if (ii_desc_opaque(d, m)) { /* its own symbols after the inverse's range variables */
      y->rt[t].map = over_x(&v, xs, nr, r->sym_iv, d, res);
      continue;
    }
    bool own = imap_nsyms(d) > 0;
    const ae **dres = ii_exprs(c, d->nresults);
    ae_subst_many(x, d->nresults, d->results, dres, res, v.n, own ? fin + v.n : NULL, own ? v.R + v.T : 0);
    y->rt[t].map = ii_desc_map(c, r, d->nresults, dres);
  }
  /* the replica-id map over the simplified intervals of the range variables */
  if (o->replica) {
    y->replica = over_x(&v, xs, nr, r->sym_iv, o->replica, res);
    if (!y->replica->undefined && ii_simplify_map(c, y->replica, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  }
  return ii_operand_simplify(c, y, false, true);
}

/* ---- the INV family --------------------------------------------------------------------------- */

/* The in2out query of each operand needs the out2in results of every
 * output: they are taken once per instruction and kept in c->inst (beyond
 * ii_ctx_reset, while the queries stay on this instruction), with, per
 * operand, the outputs that read it, so that the in2out blocks of an
 * instruction of N operands and M outputs cost M out2in queries and the
 * maps they invert, not N * M entries (a tuple of 10,000). */
struct ii_inst_memo {
  const hlo_instr *in;
  uint32_t lo, hi;    /* the operands it answers: all, or a part (II_PART) */
  ii_status st;       /* II_OK, or the first status that stops every in2out query (then err) */
  ii_error err;
  ii_indexing **o2i;  /* per output, in c->inst (NULL: not analyzed, see failed, or not kept, see again) */
  bool *failed;       /* per output: its out2in query failed with an input error */
  bool *again;        /* per output: not kept, its one map is computed again by its one reader */
  uint32_t *only;     /* per output with again: the operand that map reads (nops: none) */
  uint32_t *start;    /* per operand k: its outputs are readers[start[k - lo], start[k - lo + 1]) */
  uint32_t *readers;  /* output ids, increasing: those whose maps read k, and the failed ones */
};

void ii_inst_memo_clear(ii_ctx *c) {
  c->inst_memo = NULL;
  hb_arena_reset(c->inst);
}

/* Output N's out2in entries [M->lo, M->hi) of fusion IN into c->inst;
 * *PARTED false when the fusion does not compose in parts. The in2out
 * queries of a fusion in parts (ii_fusion_in_parts) invert the entries of
 * the part that holds theirs, composed alone (ii_fusion_o2i_range): the
 * queries come in order, each part is composed once, and the memo holds
 * one part, not the maps of every operand (a fusion of 10,000 parameters
 * held 6 MB through its in2out blocks). */
static ii_status part_o2i(ii_ctx *c, const hlo_instr *in, uint32_t n, struct ii_inst_memo *m, const ii_indexing **res,
                          bool *parted) {
  hb_arena *scratch = c->scratch;
  c->scratch = c->inst;
  ii_indexing *p = hb_arena_zalloc(c->inst, sizeof *p);
  ii_status st = ii_o2i_range_logical(c, in, n, m->lo, m->hi, p, parted, &m->err);
  c->scratch = scratch;
  hb_ptrmap_clear(&c->memo_o2i); /* (what the composition memoised is in c->inst) */
  *res = p;
  return st;
}

static const struct ii_inst_memo *inst_memo(ii_ctx *c, const hlo_instr *in, uint32_t input_id) {
  uint32_t nout = (uint32_t)ii_num_outputs(in), nops = (uint32_t)in->n_operands;
  bool parts = in->op == HLO_OP_FUSION && c->inst_whole != in && ii_fusion_in_parts(c, in);
  uint32_t lo = parts ? input_id / II_PART * II_PART : 0, hi = parts && nops - lo > II_PART ? lo + II_PART : nops;
  if (c->inst_memo && c->inst_memo->in == in && c->inst_memo->lo == lo && c->inst_memo->hi == hi)
    return c->inst_memo;
  ii_inst_memo_clear(c);
  struct ii_inst_memo *m = hb_arena_zalloc(c->inst, sizeof *m);
  m->in = in;
  m->lo = lo;
  m->hi = hi;
  m->o2i = hb_arena_zalloc(c->inst, (nout ? nout : 1) * sizeof *m->o2i);
  m->failed = hb_arena_zalloc(c->inst, nout ? nout : 1);
  m->again = hb_arena_zalloc(c->inst, nout ? nout : 1);
  m->only = hb_arena_array(c->inst, nout ? nout : 1, sizeof *m->only);
  m->start = hb_arena_zalloc(c->inst, ((size_t)(hi - lo) + 1) * sizeof *m->start);
  uint32_t nfailed = 0;
  for (uint32_t n = 0; n < nout && m->st == II_OK; n++) {
    if (parts) {
      const ii_indexing *x;
      bool parted;
      ii_status st = part_o2i(c, in, n, m, &x, &parted);
      if (!parted) { /* (answered whole from now on) */
        c->inst_whole = in;
        ii_inst_memo_clear(c);
        return inst_memo(c, in, input_id);
      }
      if (st == II_ERROR) {
        m->failed[n] = true;
        nfailed++;
      } else if (st != II_OK) {
        m->st = st;
      } else {
        m->o2i[n] = (ii_indexing *)x;
        for (uint32_t i = 0; i < ii_nstored(x); i++) {
          uint32_t k = ii_stored_id(x, i);
          if (x->sets[i].n && k >= lo && k < hi) m->start[k - lo + 1]++;
        }
      }
      ii_ctx_reset(c);
      continue;
    }
    const ii_indexing *x = ii_o2i_memo_peek(c, in, n);
    /* The one output of an instruction, not memoised (its out2in block
     * was larger than the scratch arena keeps): computed into c->inst,
     * where it is kept, instead of copied there (a concatenate of 100,000
     * operands held its maps twice). The memo then forgets what points
     * there. */
    bool direct = !x && nout == 1;
    hb_arena *scratch = c->scratch;
    if (direct) c->scratch = c->inst;
    ii_status st = ii_o2i_memo(c, in, n, &x, &m->err);
    if (direct) {
      c->scratch = scratch;
      hb_ptrmap_clear(&c->memo_o2i);
    }
    if (st == II_ERROR) { /* the out2in block reports it: nothing to invert */
      m->failed[n] = true;
      nfailed++;
      continue;
    }
    if (st != II_OK) {
      m->st = st;
      break;
    }
    /* An output of one map (a tuple's element, an elementwise op's
     * output) has one reader, which computes it again instead: a tuple of
     * 100,000 keeps no maps. Those of several entries are kept: computed
     * again by each reader they would cost N * N (a concatenate). */
    uint32_t nmaps = 0;
    m->only[n] = nops;
    for (uint32_t i = 0; i < ii_nstored(x); i++) {
      nmaps += x->sets[i].n;
      if (x->sets[i].n && ii_stored_id(x, i) < nops) {
        m->start[ii_stored_id(x, i) + 1]++;
        m->only[n] = ii_stored_id(x, i);
      }
    }
    if (nmaps <= 1) m->again[n] = true;
    else if (direct) m->o2i[n] = (ii_indexing *)x; /* (in c->inst already) */
    else ii_indexing_copy(c->inst, x, m->o2i[n] = hb_arena_alloc(c->inst, sizeof **m->o2i), NULL, NULL);
    /* the copy is kept: the scratch arena may go (this query holds nothing
     * in it yet), so that memory holds the results once, not twice */
    ii_ctx_reset(c);
  }
  uint32_t w = hi - lo; /* (the operands answered: k at k - lo) */
  for (uint32_t k = 0; k < w; k++) m->start[k + 1] += m->start[k] + nfailed;
  m->readers = hb_arena_array(c->inst, m->start[w] + 1, sizeof *m->readers);
  uint32_t *fill = hb_arena_array(c->scratch, w + 1, sizeof *fill);
  memcpy(fill, m->start, w * sizeof *fill);
  /* outputs in increasing order: each operand's list comes out sorted */
  for (uint32_t n = 0; n < nout && m->st == II_OK; n++) {
    if (m->failed[n]) {
      for (uint32_t k = 0; k < w; k++) m->readers[fill[k]++] = n;
      continue;
    }
    if (m->again[n]) {
      if (m->only[n] < nops) m->readers[fill[m->only[n]]++] = n;
      continue;
    }
    const ii_indexing *x = m->o2i[n];
    for (uint32_t i = 0; i < ii_nstored(x); i++) {
      uint32_t k = ii_stored_id(x, i);
      if (x->sets[i].n && k >= lo && k < hi) m->readers[fill[k - lo]++] = n;
    }
  }
  /* a result that crossed the limits is not kept: a later query computes
   * it again and fails alike */
  if (!c->over && ae_ctx_status(c->ae) == AE_STATUS_OK) c->inst_memo = m;
  return m;
}

/* One set per output that reads operand INPUT_ID (the others have none):
 * the inverses of that output's out2in maps of the operand. */
ii_status ii_invert_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  /* a fusion structurally equal to one inverted before: the same result
   * (fusion_cache.c, keyed apart from the out2in results by a negative id).
   * Not for a fusion of many operands: each of its results inverts maps
   * memoised for the instruction (cheap next to composing them), an
   * equal fusion needs its own out2in maps at its first miss anyway, and
   * the results of 10,000 operands filled the cache with copies. */
  const hlo_computation *comp = in->op == HLO_OP_FUSION ? ii_called(in, HLO_CALL_CALLS) : NULL;
  bool cacheable = comp && c->fusion_cache && c->nest == 0 && in->n_operands <= II_FUSION_CACHE_MANY;
  if (cacheable && ii_fusion_cache_get(c, in, comp, -1 - input_id, out)) return II_OK;
  const struct ii_inst_memo *m = inst_memo(c, in, (uint32_t)input_id);
  if (m->st != II_OK) {
    if (err) *err = m->err;
    return m->st;
  }
  uint32_t lo = m->start[input_id - m->lo], hi = m->start[input_id - m->lo + 1];
  ii_indexing_init_sparse(c, out, (uint32_t)ii_num_outputs(in), hi - lo, m->readers + lo);
  for (uint32_t r = lo; r < hi; r++) {
    uint32_t n = m->readers[r];
    if (m->failed[n]) {
      ii_add_unknown(c, out, n, ii_why(c, "no out2in maps to invert: output %u is not analyzed", n));
      continue;
    }
    const ii_indexing *x = m->o2i[n];
    if (m->again[n]) { /* work the memo's query already counted: not counted again */
      uint64_t composed = c->composed;
      ii_status st = ii_o2i_memo(c, in, n, &x, err);
      c->composed = composed;
      if (st != II_OK) return st;
    }
    const ii_set *s = ii_entry(x, (uint32_t)input_id);
    const hlo_shape *xs = ii_set_operand_shape(in, input_id, s);
    ii_set *dst = &out->sets[r - lo];
    dst->in_elem = s->in_elem;
    dst->elem = s->elem;
    for (uint32_t i = 0; i < s->n; i++) {
      ii_operand *y;
      ii_status st = ii_invert(c, s->items[i], xs, &y);
      if (st != II_OK) return st;
      ii_set_insert(c, dst, y);
    }
  }
  if (cacheable && !c->over && ii_budget_status(c) == II_OK) ii_fusion_cache_put(c, in, comp, -1 - input_id, out);
  return II_OK;
}
