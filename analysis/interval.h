/* Closed int64 intervals [lo, hi] (indexing-semantics.md §1.2) and XLA's
 * saturating interval arithmetic (§6.3). */
#ifndef HLOIDX_INTERVAL_H
#define HLOIDX_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  int64_t lo, hi;
} interval;

#define IV_MIN INT64_MIN
#define IV_MAX INT64_MAX

static inline interval iv_make(int64_t lo, int64_t hi) { return (interval){lo, hi}; }
static inline interval iv_point(int64_t v) { return (interval){v, v}; }
static inline interval iv_unbounded(void) { return (interval){IV_MIN, IV_MAX}; }
static inline bool iv_feasible(interval a) { return a.lo <= a.hi; }
static inline bool iv_is_point(interval a) { return a.lo == a.hi; }
static inline bool iv_eq(interval a, interval b) { return a.lo == b.lo && a.hi == b.hi; }
static inline bool iv_contains(interval a, int64_t v) { return a.lo <= v && v <= a.hi; }

/* [max lo, min hi]; an empty result is normalised to [lo, lo - 1]. */
interval iv_intersect(interval a, interval b);
/* intersect(a, b) == b (XLA's Interval::Contains(Interval)). */
bool iv_contains_iv(interval a, interval b);
/* Hull. */
interval iv_union(interval a, interval b);

/* §6.3 saturating arithmetic. */
interval iv_add(interval a, interval b);
interval iv_mul(interval a, interval b);
interval iv_neg(interval a);
interval iv_sub(interval a, interval b);
/* Floor division of both bounds by a non-zero constant (saturated bounds stay
 * saturated, flipping sign for c < 0), then ordered. c == 0 gives the
 * unbounded interval. */
interval iv_floordiv(interval a, int64_t c);

#endif
