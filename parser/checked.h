/* Overflow-checked int64 arithmetic for shape computations (internal). */
#ifndef HB_CHECKED_H
#define HB_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* *r = a + b; false when it does not fit. */
static inline bool hb_ck_add(int64_t a, int64_t b, int64_t *r) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
  *r = a + b;
  return true;
}

/* *r = a * b; false when it does not fit. */
static inline bool hb_ck_mul(int64_t a, int64_t b, int64_t *r) {
  if (a == 0 || b == 0) {
    *r = 0;
    return true;
  }
  if (a == -1) {
    if (b == INT64_MIN) return false;
    *r = -b;
    return true;
  }
  if (b == -1) {
    if (a == INT64_MIN) return false;
    *r = -a;
    return true;
  }
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
    return false;
  *r = a * b;
  return true;
}

/* Size of dimension N after padding lo/hi with INTERIOR between elements
 * (pad semantics); false on overflow. */
static inline bool hb_ck_pad_size(int64_t n, int64_t lo, int64_t hi, int64_t interior, int64_t *r) {
  int64_t x = 0, t;
  if (n > 0 && !hb_ck_mul(n - 1, interior, &x)) return false;
  return hb_ck_add(x, n, &t) && hb_ck_add(t, lo, &t) && hb_ck_add(t, hi, r);
}

#endif
