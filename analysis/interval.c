#include "interval.h"

#include "../parser/base/checked.h"

interval iv_intersect(interval a, interval b) {
  interval r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
  if (r.hi < r.lo) {
    if (r.lo == IV_MIN) r.lo++; /* keep [lo, lo - 1] representable */
    r.hi = r.lo - 1;
  }
  return r;
}

bool iv_contains_iv(interval a, interval b) { return iv_eq(iv_intersect(a, b), b); }

interval iv_union(interval a, interval b) {
  return (interval){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

interval iv_add(interval a, interval b) {
  interval r = {0, 0};
  bool lo_ovf = !hb_ck_add(a.lo, b.lo, &r.lo);
  bool hi_ovf = !hb_ck_add(a.hi, b.hi, &r.hi);
  if (lo_ovf || a.lo == IV_MIN || b.lo == IV_MIN) {
    if (a.lo < 0 || b.lo < 0) {
      r.lo = IV_MIN;
    } else {
      r.lo = IV_MAX;
      r.hi = IV_MAX;
    }
  }
  if (hi_ovf || a.hi == IV_MAX || b.hi == IV_MAX) {
    if (a.hi > 0 || b.hi > 0) {
      r.hi = IV_MAX;
    } else {
      r.hi = IV_MIN;
      r.lo = IV_MIN;
    }
  }
  return r;
}

static interval mul_by(interval a, int64_t p) {
  int64_t l = a.lo, u = a.hi;
  if (p < 0) {
    int64_t t = l;
    l = u;
    u = t;
  }
  interval r;
  if (!hb_ck_mul(l, p, &r.lo) || (p == -1 && l == IV_MAX)) r.lo = IV_MIN;
  if (!hb_ck_mul(u, p, &r.hi)) r.hi = IV_MAX;
  return r;
}

interval iv_mul(interval a, interval b) { return iv_union(mul_by(a, b.lo), mul_by(a, b.hi)); }

interval iv_neg(interval a) {
  int64_t hi = a.lo == IV_MIN ? IV_MAX : -a.lo;
  int64_t lo = a.hi == IV_MAX ? IV_MIN : -a.hi;
  /* a.hi == IV_MIN: -IV_MIN is not representable; saturate. */
  if (a.hi == IV_MIN) lo = IV_MAX;
  return (interval){lo, hi};
}

interval iv_sub(interval a, interval b) { return iv_add(a, iv_neg(b)); }

static int64_t sat_div(int64_t v, int64_t c) {
  if (v == IV_MIN) return c > 0 ? IV_MIN : IV_MAX;
  if (v == IV_MAX) return c > 0 ? IV_MAX : IV_MIN;
  int64_t q = 0;
  hb_ck_floordiv(v, c, &q); /* v != IV_MIN, so no overflow */
  return q;
}

interval iv_floordiv(interval a, int64_t c) {
  if (c == 0) return iv_unbounded();
  int64_t x = sat_div(a.lo, c), y = sat_div(a.hi, c);
  return x < y ? (interval){x, y} : (interval){y, x};
}
