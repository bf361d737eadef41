#include "tile_extract.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../parser/base/checked.h"
#include "map_print.h"

__attribute__((format(printf, 2, 3))) static bool fail(tx_ctx *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->why, x->why_cap, fmt, ap);
  va_end(ap);
  return false;
}

/* `why` with an expression in it. */
static bool fail_expr(tx_ctx *x, const char *what, const ae *e) {
  hb_strbuf b = HB_STRBUF_INIT;
  map_print_expr(&b, e, x->m->nrange);
  fail(x, "%s: %s", what, hb_sb_str(&b));
  hb_sb_free(&b);
  return false;
}

static const ae *K(tx_ctx *x, int64_t v) { return ae_const(x->m->ctx, v); }

/* The divisibility alternatives `c mod q in [0, 0] || q mod c in [0, 0]`. */
static void add_divisibility(tx_ctx *x, const ae *q, const ae *c) {
  ae_ctx *cx = x->m->ctx;
  tc_atom a1 = {ae_mod(cx, c, q), iv_point(0)}, a2 = {ae_mod(cx, q, c), iv_point(0)};
  tc_dnf d1 = tc_conjunction(x->a, &a1, 1), d2 = tc_conjunction(x->a, &a2, 1);
  tc_factors_add_dnf(x->a, x->cons, tc_or(x->a, &d1, &d2));
}

/* `n - ((n - 1) floordiv c) * c`: n when n divides c, c when c divides n. */
static const ae *mod_size(tx_ctx *x, const ae *n, const ae *c) {
  ae_ctx *cx = x->m->ctx;
  const ae *q = ae_mul(cx, ae_floordiv(cx, ae_add(cx, n, K(x, -1)), c), c);
  return ae_add(cx, n, ae_mul(cx, q, K(x, -1)));
}

/* `(d + (c - 1)) floordiv c`: the ceiling of d / c. */
static const ae *ceil_size(tx_ctx *x, const ae *d, int64_t c) {
  ae_ctx *cx = x->m->ctx;
  return ae_floordiv(cx, ae_add(cx, d, K(x, c - 1)), K(x, c));
}

static bool positive_const(const ae *e) { return e->kind == AE_CONST && e->value > 0; }

static bool extract_mod(tx_ctx *x, const ae *e, const ae **size, const ae **stride) {
  const ae *l = e->lhs, *c = e->rhs;
  if (!positive_const(c)) return fail_expr(x, "a mod by something other than a positive constant", e);
  const ae *n;
  if (l->kind == AE_DIM) {
    n = l;
  } else if (l->kind == AE_FLOORDIV && l->lhs->kind == AE_DIM && positive_const(l->rhs)) {
    n = ceil_size(x, l->lhs, l->rhs->value);
  } else {
    return fail_expr(x, "a mod of something other than a dimension or a dimension floordiv a constant", e);
  }
  *size = mod_size(x, n, c);
  *stride = K(x, 1);
  add_divisibility(x, n, c);
  return true;
}

/* ---- sums ------------------------------------------------------------------------------------------- */

typedef struct {
  const ae *size, *stride;
  uint64_t abs_stride;
  int64_t range;
  uint32_t index; /* position among the summands (keeps the sort stable) */
} summand;

static int by_stride(const void *pa, const void *pb) {
  const summand *a = pa, *b = pb;
  if (a->abs_stride != b->abs_stride) return a->abs_stride > b->abs_stride ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The leaves of the tree of Add nodes, left to right. */
static void collect_summands(const ae *e, const ae **out, uint32_t *n) {
  while (e->kind == AE_ADD) {
    collect_summands(e->lhs, out, n);
    e = e->rhs;
  }
  out[(*n)++] = e;
}

static uint32_t count_summands(const ae *e) {
  uint32_t n = 1;
  while (e->kind == AE_ADD) {
    n += count_summands(e->lhs);
    e = e->rhs;
  }
  return n;
}

/* The number of values a summand's size takes: a constant's value, a
 * dimension's interval size (the interval must start at 0). */
static bool size_range(tx_ctx *x, const ae *size, int64_t *out) {
  if (size->kind == AE_CONST) return *out = size->value, true;
  interval iv = x->m->dim_iv[size->value];
  if (iv.lo != 0)
    return fail(x, "summand size d%" PRId64 " ranges over [%" PRId64 ", %" PRId64 "], which does not start at 0",
                size->value, iv.lo, iv.hi);
  if (!hb_ck_add(iv.hi, 1, out)) return fail(x, "a dimension range overflows int64");
  return true;
}

/* SEL(p, t, f, b) = "p != 1 ? t : f" for 1 <= p <= b, without comparisons:
 * cond = (b + 1 - p) floordiv b, then cond * f + (1 - cond) * t. */
static const ae *select_ne1(tx_ctx *x, const ae *p, const ae *t, const ae *f, int64_t b) {
  ae_ctx *cx = x->m->ctx;
  const ae *cond = ae_floordiv(cx, ae_add(cx, K(x, b + 1), ae_mul(cx, p, K(x, -1))), K(x, b));
  const ae *not_cond = ae_add(cx, K(x, 1), ae_mul(cx, cond, K(x, -1)));
  return ae_add(cx, ae_mul(cx, cond, f), ae_mul(cx, not_cond, t));
}

/* The box starts at the origin's element and steps by one stride, which
 * is only what a sum reads when all the summands that move (size > 1)
 * have strides of one sign: -3 * i + j over a 2x3 tile reads 3..8, not
 * 6..11. XLA has no such constraint (its tile is then wrong); hloidx adds
 * "every positive-stride size is 1, or every negative-stride size is 1". */
static void add_one_sign(tx_ctx *x, const summand *s, uint32_t n) {
  uint32_t npos = 0, nneg = 0;
  for (uint32_t i = 0; i < n; i++) {
    npos += s[i].stride->value > 0;
    nneg += s[i].stride->value < 0;
  }
  if (!npos || !nneg) return;
  tc_atom *pos = hb_arena_array(x->a, npos, sizeof *pos), *neg = hb_arena_array(x->a, nneg, sizeof *neg);
  uint32_t p = 0, q = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (s[i].stride->value > 0) pos[p++] = (tc_atom){s[i].size, iv_point(1)};
    if (s[i].stride->value < 0) neg[q++] = (tc_atom){s[i].size, iv_point(1)};
  }
  tc_dnf a = tc_conjunction(x->a, pos, npos), b = tc_conjunction(x->a, neg, nneg);
  tc_factors_add_dnf(x->a, x->cons, tc_or(x->a, &a, &b));
}

static bool extract_sum(tx_ctx *x, const ae *e, const ae **size, const ae **stride) {
  ae_ctx *cx = x->m->ctx;
  uint32_t n = count_summands(e), k = 0;
  const ae **terms = hb_arena_array(x->a, n, sizeof *terms);
  collect_summands(e, terms, &k);
  summand *s = hb_arena_array(x->a, n, sizeof *s);
  const ae *prod = K(x, 1);
  for (uint32_t i = 0; i < n; i++) {
    s[i].index = i;
    if (!tx_extract(x, terms[i], &s[i].size, &s[i].stride)) return false;
    prod = ae_mul(cx, prod, s[i].size);
  }
  for (uint32_t i = 0; i < n; i++) {
    if (s[i].stride->kind != AE_CONST) return fail_expr(x, "a summand whose stride is not a constant", terms[i]);
    if (s[i].size->kind != AE_CONST && s[i].size->kind != AE_DIM)
      return fail_expr(x, "a summand whose size is neither a constant nor a dimension", terms[i]);
    s[i].abs_stride = hb_ck_uabs(s[i].stride->value);
    if (!size_range(x, s[i].size, &s[i].range)) return false;
    if (s[i].range < 1) return fail_expr(x, "a summand over an empty range", terms[i]);
  }
  qsort(s, n, sizeof *s, by_stride);
  /* the strides must nest: each summand's extent is the next major stride */
  for (uint32_t i = 1; i < n; i++) {
    int64_t span;
    if (!hb_ck_mul(s[i].range, (int64_t)s[i].abs_stride, &span) || (uint64_t)span != s[i - 1].abs_stride) {
      hb_strbuf b = HB_STRBUF_INIT;
      map_print_expr(&b, e, x->m->nrange);
      fail(x, "the strides of the summands of %s do not nest", hb_sb_str(&b));
      hb_sb_free(&b);
      return false;
    }
  }
  const ae *acc = K(x, 0);
  const ae **sizes = hb_arena_array(x->a, n, sizeof *sizes);
  int64_t *ranges = hb_arena_array(x->a, n, sizeof *ranges);
  for (uint32_t i = 0; i < n; i++) {
    if (s[i].range == INT64_MAX) return fail(x, "a summand range overflows int64");
    acc = select_ne1(x, s[i].size, s[i].stride, acc, s[i].range);
    sizes[i] = s[i].size;
    ranges[i] = s[i].range;
  }
  tc_factors_add_summation(x->a, x->cons, n, sizes, ranges);
  if (!x->xla_compat) add_one_sign(x, s, n);
  *size = prod;
  *stride = acc;
  return true;
}

bool tx_extract(tx_ctx *x, const ae *e, const ae **size, const ae **stride) {
  ae_ctx *cx = x->m->ctx;
  switch ((ae_kind)e->kind) {
  case AE_DIM:
    *size = e;
    *stride = K(x, 1);
    return true;
  case AE_SYM: {
    /* a whole range (a reduced dimension) or a runtime variable */
    interval iv = x->m->sym_iv[e->value];
    if (iv.lo != 0) return fail_expr(x, "a symbol whose interval does not start at 0", e);
    if (iv.hi == INT64_MAX) return fail(x, "a symbol range overflows int64");
    *size = K(x, iv.hi + 1);
    *stride = K(x, 1);
    return true;
  }
  case AE_CONST:
    *size = K(x, 1);
    *stride = K(x, 0);
    return true;
  case AE_MUL:
    if (!tx_extract(x, e->lhs, size, stride)) return false;
    if (e->rhs->kind != AE_CONST) return fail_expr(x, "a product whose multiplier is not a constant", e);
    *stride = ae_mul(cx, *stride, e->rhs);
    return true;
  case AE_MOD: return extract_mod(x, e, size, stride);
  case AE_FLOORDIV:
    if (!positive_const(e->rhs) || e->lhs->kind != AE_DIM)
      return fail_expr(x, "a floordiv other than a dimension by a positive constant", e);
    *size = ceil_size(x, e->lhs, e->rhs->value);
    *stride = K(x, 1);
    return true;
  case AE_ADD: return extract_sum(x, e, size, stride);
  case AE_MAX:
  case AE_MIN:
    /* (read from a map, never built by the analysis) the elements it
     * reaches are no strided interval of a size and stride */
    return fail_expr(x, "a max or min of tile variables", e);
  case AE_CEILDIV: break;
  }
  return fail_expr(x, "a ceildiv", e);
}
