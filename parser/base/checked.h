/* Checked 64-bit integer arithmetic (hb_ck_*), floor semantics for division.
 *
 * Every function returns false (and leaves *out unspecified) when the exact
 * mathematical result does not fit in int64_t or is undefined (division by
 * zero). Nothing here wraps around; callers decide what overflow means. */
#ifndef HB_CHECKED_H
#define HB_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

static inline bool hb_ck_add(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool hb_ck_sub(int64_t a, int64_t b, int64_t *out) { return !__builtin_sub_overflow(a, b, out); }
static inline bool hb_ck_mul(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline bool hb_ck_neg(int64_t a, int64_t *out) { return !__builtin_sub_overflow((int64_t)0, a, out); }

/* Truncating division and C remainder (sign of the dividend). */
static inline bool hb_ck_div_trunc(int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return false;
  *out = a / b;
  return true;
}
static inline bool hb_ck_rem_trunc(int64_t a, int64_t b, int64_t *out) {
  if (b == 0) return false;
  *out = (b == -1) ? 0 : a % b;
  return true;
}

/* floor(a / b). */
static inline bool hb_ck_floordiv(int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return false;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) q -= 1;
  *out = q;
  return true;
}

/* ceil(a / b). */
static inline bool hb_ck_ceildiv(int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return false;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) == (b < 0))) q += 1;
  *out = q;
  return true;
}

/* a - b * floor(a / b): in [0, b) for b > 0, in (b, 0] for b < 0. */
static inline bool hb_ck_mod(int64_t a, int64_t b, int64_t *out) {
  if (b == 0) return false;
  if (b == -1) {
    *out = 0;
    return true;
  }
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  *out = r;
  return true;
}

/* b divides a (b != 0). */
static inline bool hb_ck_divisible(int64_t a, int64_t b) {
  if (b == 0) return false;
  if (b == -1) return true;
  return a % b == 0;
}

/* |a| as an unsigned value (exact also for INT64_MIN). */
static inline uint64_t hb_ck_uabs(int64_t a) { return a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a; }

/* Non-negative gcd of |a| and |b| (gcd(0, x) = |x|); false if it is 2^63. */
static inline bool hb_ck_gcd(int64_t a, int64_t b, int64_t *out) {
  uint64_t x = hb_ck_uabs(a), y = hb_ck_uabs(b);
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  if (x > (uint64_t)INT64_MAX) return false;
  *out = (int64_t)x;
  return true;
}

/* Non-negative lcm; lcm(0, x) = 0. */
static inline bool hb_ck_lcm(int64_t a, int64_t b, int64_t *out) {
  if (a == 0 || b == 0) {
    *out = 0;
    return true;
  }
  int64_t g;
  if (!hb_ck_gcd(a, b, &g)) return false;
  int64_t x = (int64_t)(hb_ck_uabs(a) / (uint64_t)g); /* |a| / g <= 2^62 */
  uint64_t ub = hb_ck_uabs(b);
  if (ub > (uint64_t)INT64_MAX) return false;
  return hb_ck_mul(x, (int64_t)ub, out);
}

/* Size of dimension N after padding lo/hi with INTERIOR between elements
 * (pad semantics); false on overflow. */
static inline bool hb_ck_pad_size(int64_t n, int64_t lo, int64_t hi, int64_t interior, int64_t *r) {
  int64_t x = 0, t;
  if (n > 0 && !hb_ck_mul(n - 1, interior, &x)) return false;
  return hb_ck_add(x, n, &t) && hb_ck_add(t, lo, &t) && hb_ck_add(t, hi, r);
}

#endif
