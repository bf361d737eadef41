/* §1.2 interval helpers and §6.3 saturating arithmetic. */
#include "test_util.h"

#define MN INT64_MIN
#define MX INT64_MAX

static void eq(interval got, int64_t lo, int64_t hi, const char *what) {
  CHECK(got.lo == lo && got.hi == hi, "%s: got [%lld, %lld], want [%lld, %lld]", what, (long long)got.lo,
        (long long)got.hi, (long long)lo, (long long)hi);
}

int main(void) {
  /* §1.2 */
  eq(iv_intersect(iv_make(0, 9), iv_make(5, 20)), 5, 9, "intersect");
  eq(iv_intersect(iv_make(0, 3), iv_make(5, 20)), 5, 4, "empty intersection normalised to [lo, lo-1]");
  eq(iv_union(iv_make(0, 3), iv_make(5, 20)), 0, 20, "union is the hull");
  CHECK(iv_contains_iv(iv_make(0, 9), iv_make(2, 3)) && !iv_contains_iv(iv_make(0, 9), iv_make(2, 10)),
        "contains interval");
  CHECK(iv_is_point(iv_make(5, 5)) && !iv_is_point(iv_make(5, 6)) && iv_feasible(iv_make(5, 5)) &&
            !iv_feasible(iv_make(0, -1)),
        "point / feasible");
  CHECK(iv_contains(iv_make(-5, -1), -1) && !iv_contains(iv_make(-5, -1), 0), "contains value");
  /* §6.3 sum */
  eq(iv_add(iv_make(1, 2), iv_make(10, 20)), 11, 22, "sum");
  eq(iv_add(iv_make(MN, 2), iv_make(-1, 3)), MN, 5, "sum lower saturates at MIN");
  eq(iv_add(iv_make(MX - 1, MX), iv_make(5, 5)), MX, MX, "positive overflow of the lower bound");
  eq(iv_add(iv_make(0, MX), iv_make(1, 1)), 1, MX, "upper saturates at MAX");
  eq(iv_add(iv_make(MN, -5), iv_make(-3, -1)), MN, -6, "negative sum");
  eq(iv_add(iv_make(-5, MX), iv_make(-3, -1)), -8, MX, "upper MAX stays when some upper > 0");
  eq(iv_add(iv_make(MN, MN + 1), iv_make(-3, -3)), MN, MN, "negative overflow of the upper bound");
  /* product */
  eq(iv_mul(iv_make(1, 3), iv_make(-2, 4)), -6, 12, "product");
  eq(iv_mul(iv_make(-2, 3), iv_make(-1, -1)), -3, 2, "product with -1");
  eq(iv_mul(iv_make(0, MX), iv_make(2, 2)), 0, MX, "product saturates");
  eq(iv_mul(iv_make(0, MX), iv_make(-1, -1)), MN, 0, "MAX * -1 gives MIN (§6.3)");
  /* negation, difference */
  eq(iv_neg(iv_make(-3, 7)), -7, 3, "negation");
  eq(iv_neg(iv_make(MN, MX)), MN, MX, "negation maps MAX <-> MIN");
  eq(iv_sub(iv_make(10, 20), iv_make(1, 2)), 8, 19, "difference");
  /* floor division by a constant */
  eq(iv_floordiv(iv_make(-5, 6), 4), -2, 1, "floordiv");
  eq(iv_floordiv(iv_make(-5, 6), -4), -2, 1, "floordiv by a negative constant, ordered");
  eq(iv_floordiv(iv_make(MN, MX), 3), MN, MX, "saturated bounds stay");
  eq(iv_floordiv(iv_make(MN, 7), -2), -4, MX, "saturated bound flips sign");
  return t_finish("interval");
}
