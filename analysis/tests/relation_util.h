/* Relations of indexing maps by enumeration, and random maps, shared by the
 * randomised tests (test_property.c, test_map_ops.c). The relation a map
 * denotes is the set of (dims, results) pairs over all points of its domain,
 * range and runtime variables taken existentially. */
#ifndef HLOIDX_RELATION_UTIL_H
#define HLOIDX_RELATION_UTIL_H

#include "test_util.h"

__attribute__((unused)) static int64_t rint_in(int64_t lo, int64_t hi) {
  return hi <= lo ? lo : lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* ---- relations --------------------------------------------------------------------------- */

typedef struct {
  int64_t *v;
  size_t n, cap, stride;
} tuples;

__attribute__((unused)) static void tp_push(tuples *t, const int64_t *x) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 256;
    t->v = realloc(t->v, t->cap * t->stride * sizeof *t->v);
  }
  memcpy(t->v + t->n * t->stride, x, t->stride * sizeof *x);
  t->n++;
}

static size_t g_stride;
__attribute__((unused)) static int cmp_tuple(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (size_t i = 0; i < g_stride; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

__attribute__((unused)) static void tp_normalize(tuples *t) {
  if (!t->n || !t->stride) {
    if (t->n) t->n = 1;
    return;
  }
  g_stride = t->stride;
  qsort(t->v, t->n, t->stride * sizeof *t->v, cmp_tuple);
  size_t k = 1;
  for (size_t i = 1; i < t->n; i++)
    if (cmp_tuple(t->v + i * t->stride, t->v + (k - 1) * t->stride)) {
      memmove(t->v + k * t->stride, t->v + i * t->stride, t->stride * sizeof *t->v);
      k++;
    }
  t->n = k;
}

__attribute__((unused)) static bool tp_equal(const tuples *a, const tuples *b) {
  return a->n == b->n && (a->n == 0 || !memcmp(a->v, b->v, a->n * a->stride * sizeof *a->v));
}

/* Is (d, s) in m's domain (intervals and constraints)? -1 on evaluation failure. */
__attribute__((unused)) static int in_domain(const imap *m, const int64_t *d, const int64_t *s) {
  if (m->known_empty || m->undefined) return 0;
  for (uint32_t i = 0; i < m->ndims; i++)
    if (!iv_contains(m->dim_iv[i], d[i])) return 0;
  for (uint32_t i = 0; i < imap_nsyms(m); i++)
    if (!iv_contains(m->sym_iv[i], s[i])) return 0;
  for (uint32_t k = 0; k < m->ncons; k++) {
    int64_t v;
    if (!ae_eval_point(m->cons[k].expr, d, m->ndims, s, imap_nsyms(m), &v)) return -1;
    if (!iv_contains(m->cons[k].iv, v)) return 0;
  }
  return 1;
}

/* Enumerates box (dims then symbols) and collects m's relation: (dims,
 * results) tuples, or with with_syms the point-wise relation (dims, symbols,
 * results). False on an evaluation failure. */
__attribute__((unused)) static bool relation_cols(const imap *m, const interval *box, uint32_t nd, uint32_t ns,
                                                  bool with_syms, tuples *out) {
  uint32_t nv = nd + ns, nk = with_syms ? nv : nd;
  out->n = 0;
  out->stride = nk + m->nresults;
  int64_t pt[16], tup[32];
  for (uint32_t i = 0; i < nv; i++) {
    if (!iv_feasible(box[i])) return true;
    pt[i] = box[i].lo;
  }
  for (;;) {
    int r = in_domain(m, pt, pt + nd);
    if (r < 0) return false;
    if (r) {
      memcpy(tup, pt, nk * sizeof *pt);
      for (uint32_t j = 0; j < m->nresults; j++)
        if (!ae_eval_point(m->results[j], pt, nd, pt + nd, ns, &tup[nk + j])) return false;
      tp_push(out, tup);
    }
    uint32_t i = 0;
    while (i < nv && pt[i] == box[i].hi) {
      pt[i] = box[i].lo;
      i++;
    }
    if (i == nv) break;
    pt[i]++;
  }
  tp_normalize(out);
  return true;
}

__attribute__((unused)) static bool relation(const imap *m, const interval *box, uint32_t nd, uint32_t ns, tuples *out) {
  return relation_cols(m, box, nd, ns, false, out);
}

__attribute__((unused)) static interval *box_of(const imap *m) {
  static interval b[16];
  for (uint32_t i = 0; i < m->ndims; i++) b[i] = m->dim_iv[i];
  for (uint32_t i = 0; i < imap_nsyms(m); i++) b[m->ndims + i] = m->sym_iv[i];
  return b;
}

/* ---- generators -------------------------------------------------------------------------------- */

/* When set, gen_expr also builds max / min nodes (XLA's symbolic expressions). */
__attribute__((unused)) static bool gen_minmax;

__attribute__((unused)) static const ae *gen_expr(ae_ctx *c, int depth, uint32_t nd, uint32_t ns) {
  if (depth == 0 || rnd() % 4 == 0) {
    uint64_t k = rnd() % 10;
    if (k < 5 && nd) return ae_dim(c, (uint32_t)(rnd() % nd));
    if (k < 8 && ns) return ae_sym(c, (uint32_t)(rnd() % ns));
    return ae_const(c, rint_in(-4, 9));
  }
  const ae *a = gen_expr(c, depth - 1, nd, ns);
  if (gen_minmax && rnd() % 6 == 0)
    return ae_binary(c, rnd() % 2 ? AE_MAX : AE_MIN, a, gen_expr(c, depth - 1, nd, ns));
  switch (rnd() % 9) {
  case 0:
  case 1: return ae_add(c, a, gen_expr(c, depth - 1, nd, ns));
  case 2: return ae_sub(c, a, gen_expr(c, depth - 1, nd, ns));
  case 3: return ae_mul_const(c, a, rint_in(-3, 6));
  case 4: return ae_add(c, ae_mul_const(c, a, rint_in(1, 16)), gen_expr(c, depth - 1, nd, ns));
  case 5:
  case 6: return ae_floordiv_const(c, a, rint_in(1, 9));
  default: return ae_mod_const(c, a, rint_in(1, 9));
  }
}

__attribute__((unused)) static interval gen_iv(void) {
  int64_t lo = rnd() % 5 == 0 ? rint_in(-3, 2) : rint_in(0, 3);
  return iv_make(lo, lo + rint_in(0, 4));
}

__attribute__((unused)) static imap *gen_map(hb_arena *a, ae_ctx *c, uint32_t nd, uint32_t nr, uint32_t nt, uint32_t nres, int depth) {
  interval dv[4], sv[4];
  const ae *res[4];
  for (uint32_t i = 0; i < nd; i++) dv[i] = gen_iv();
  for (uint32_t i = 0; i < nr + nt; i++) sv[i] = gen_iv();
  for (uint32_t i = 0; i < nres; i++) res[i] = gen_expr(c, depth, nd, nr + nt);
  imap *m = imap_new(a, c, nd, nr, nt, dv, sv, nres, res);
  uint32_t ncons = (uint32_t)(rnd() % 3);
  for (uint32_t k = 0; k < ncons; k++) {
    const ae *e = gen_expr(c, depth, nd, nr + nt);
    interval r = imap_eval_range(m, e, false);
    interval iv;
    if (!iv_feasible(r) || r.lo < -1000 || r.hi > 1000) r = iv_make(-20, 20);
    int64_t lo = rint_in(r.lo - 1, r.hi), hi = rint_in(lo - (rnd() % 8 == 0), r.hi + 1);
    iv = iv_make(lo, hi);
    imap_add_constraint(m, e, iv);
  }
  return m;
}

#endif
