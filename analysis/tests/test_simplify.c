/* The simplifier: every example of §6.4 and §6.5 (our own and the XLA
 * tests), the examples of XLA's indexing documentation, reshape maps of
 * §3.10 / §8.1 in both modes, one row per rewrite rule, range evaluation
 * (§6.2), and a shared-DAG performance sanity check. */
#include <time.h>

#include "test_util.h"

typedef struct {
  const char *map;
  int mode; /* 0 replace-points, 1 preserve-points */
  const char *want;
} row;

#define DOM1(e, d) "(d0) -> (" e "), domain: d0 in " d

static const row rows[] = {
    /* XLA's indexing documentation (the task's four expression examples) */
    {"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]", 0,
     "(d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]"},
    {"(d0, d1, d2) -> ((100d0 + 10d1 + d2) floorDiv 100, ((100d0 + 10d1 + d2) mod 100) floordiv 10, d2 mod 10), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]", 0,
     "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]"},
    {"(d0, d1, d2) -> ((16d0 + 4d1 + d2) floordiv 8, (16d0 + 4d1 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]", 0,
     "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 8, (d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]"},
    {"(d0, d1) -> (-(-11d0 - d1 + 109) floordiv 11 + 9), domain: d0 in [0, 9], d1 in [0, 10]", 0,
     "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 10]"},
    /* ... and its three constraint rules */
    {"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3], d0 + s0 in [0, 20]", 0,
     "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], (d0 + 2) * 3 floordiv 2 in [6, 11]", 0, "(d0) -> (d0), domain: d0 in [2, 5]"},
    {"(d0, d1) -> (d0), domain: d0 in [0, 99], d1 in [0, 3], (d0 * 4 + d1) floordiv 4 in [0, 9]", 0,
     "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 3]"},

    /* §6.4 examples */
    {"(d0, d1) -> (d1 floordiv 4), domain: d0 in [0, 5], d1 in [0, 3]", 0, "(d0, d1) -> (0), domain: d0 in [0, 5], d1 in [0, 3]"},
    {"(d0, d1) -> (d1 floordiv 4), domain: d0 in [0, 5], d1 in [0, 3]", 1, "(d0, d1) -> (d1 floordiv 4), domain: d0 in [0, 5], d1 in [0, 3]"},
    {"(d0, d1) -> ((d0 * 4 + d1) floordiv 8), domain: d0 in [0, 5], d1 in [0, 3]", 0,
     "(d0, d1) -> (d0 floordiv 2), domain: d0 in [0, 5], d1 in [0, 3]"},
    {"(d0, d1, d2) -> ((d0 * 4 + d1 * 2 + d2) floordiv 8), domain: d0 in [0, 9], d1 in [0, 3], d2 in [0, 1]", 0,
     "(d0, d1, d2) -> ((d0 * 2 + d1) floordiv 4), domain: d0 in [0, 9], d1 in [0, 3], d2 in [0, 1]"},
    {"()[s0] -> ((s0 * 6 + 9) floordiv 18), domain: s0 in [0, 1000]", 0, "()[s0] -> ((s0 * 2 + 3) floordiv 6), domain: s0 in [0, 1000]"},
    {"()[s0, s1] -> ((s0 * 2 + s1 floordiv 64) floordiv 3), domain: s0 in [0, 1000], s1 in [0, 1000]", 0,
     "()[s0, s1] -> ((s0 * 128 + s1) floordiv 192), domain: s0 in [0, 1000], s1 in [0, 1000]"},
    {DOM1("(d0 floordiv 4) * 4 + d0 mod 4", "[0, 100]"), 0, DOM1("d0", "[0, 100]")},
    {"(d0, d1) -> ((d0 * 4 + d1) mod 8), domain: d0 in [0, 100], d1 in [0, 3]", 0,
     "(d0, d1) -> ((d0 mod 2) * 4 + d1), domain: d0 in [0, 100], d1 in [0, 3]"},
    {DOM1("(d0 * 6) mod 4", "[0, 100]"), 0, DOM1("(d0 * 6) mod 4", "[0, 100]")},
    {DOM1("(-d0) mod 2", "[0, 127]"), 0, DOM1("(-d0) mod 2", "[0, 127]")},
    {"()[s0, s1, s2, s3] -> ((s0 * 458752 + s1 + s2 * 4 + s3 * 512) mod 20000), domain: s0 in [0, 1], s1 in [0, 3], s2 in [0, 127], s3 in [0, 895]", 0,
     "()[s0, s1, s2, s3] -> (((s0 * 114688 + s3 * 128 + s2) mod 5000) * 4 + s1), domain: s0 in [0, 1], s1 in [0, 3], s2 in [0, 127], s3 in [0, 895]"},
    {DOM1("d0 mod 10", "[20, 25]"), 0, DOM1("d0 - 20", "[20, 25]")},
    {DOM1("d0 mod 5", "[-5, -1]"), 0, DOM1("d0 + 5", "[-5, -1]")},
    {DOM1("d0 mod 16", "[0, 14]"), 0, DOM1("d0", "[0, 14]")},
    /* point replacement: a dimension with a single value */
    {"(d0, d1) -> (d0 * 32 + d1), domain: d0 in [0, 0], d1 in [0, 31]", 0, "(d0, d1) -> (d1), domain: d0 in [0, 0], d1 in [0, 31]"},
    {"(d0, d1) -> (d0 * 32 + d1), domain: d0 in [0, 0], d1 in [0, 31]", 1, "(d0, d1) -> (d0 * 32 + d1), domain: d0 in [0, 0], d1 in [0, 31]"},
    {"(d0) -> (d0 + 1), domain: d0 in [3, 3]", 0, "(d0) -> (4), domain: d0 in [3, 3]"},

    /* §3.10 / §8.1 reshape maps, preserve-points */
    {DOM1("d0 floordiv 4, d0 mod 4", "[0, 3]"), 1, DOM1("d0 floordiv 4, d0", "[0, 3]")},
    {DOM1("d0 floordiv 4, d0 mod 4", "[0, 3]"), 0, DOM1("0, d0", "[0, 3]")},
    {"(d0, d1) -> (d0 * 2 + d1 floordiv 4, d1 mod 4), domain: d0 in [0, 2], d1 in [0, 7]", 1,
     "(d0, d1) -> (d0 * 2 + d1 floordiv 4, d1 mod 4), domain: d0 in [0, 2], d1 in [0, 7]"},
    {"(d0, d1) -> ((d0 * 4 + d1) floordiv 8, (d0 * 4 + d1) mod 8), domain: d0 in [0, 5], d1 in [0, 3]", 1,
     "(d0, d1) -> (d0 floordiv 2, (d0 mod 2) * 4 + d1), domain: d0 in [0, 5], d1 in [0, 3]"},
    {DOM1("d0 floordiv 3, d0 mod 3", "[0, 11]"), 1, DOM1("d0 floordiv 3, d0 mod 3", "[0, 11]")},
    {"(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2), domain: d0 in [0, 31], d1 in [0, 2], d2 in [0, 3]", 1,
     "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2), domain: d0 in [0, 31], d1 in [0, 2], d2 in [0, 3]"},

    /* one row per rewrite rule (hand-derived) */
    /* Mul: distribution over a sum */
    {"(d0, d1) -> ((d0 + d1) * 2), domain: d0 in [0, 9], d1 in [0, 9]", 0, "(d0, d1) -> (d0 * 2 + d1 * 2), domain: d0 in [0, 9], d1 in [0, 9]"},
    /* Sum 2b: negative multiple of a division -> mod */
    {"(d0, d1) -> (d1 + (d0 floordiv 4) * -8), domain: d0 in [0, 100], d1 in [0, 9]", 0,
     "(d0, d1) -> ((d0 mod 4) * 2 - d0 * 2 + d1), domain: d0 in [0, 100], d1 in [0, 9]"},
    /* Sum: term order; a symbolic prefix is moved behind a dimension */
    {"(d0, d1)[s0, s1] -> (d1 + s1 * 2 + s0 * 4 + d0), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 9], s1 in [0, 9]", 0,
     "(d0, d1)[s0, s1] -> (d0 + s0 * 4 + s1 * 2 + d1), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 9], s1 in [0, 9]"},
    {"(d0, d1)[s0] -> (5 + d1 + s0 * 2 + d0 * 3), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 9]", 0,
     "(d0, d1)[s0] -> (d0 * 3 + s0 * 2 + d1 + 5), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 9]"},
    {"(d0, d1) -> (16 - d1), domain: d0 in [0, 9], d1 in [0, 9]", 0, "(d0, d1) -> (-d1 + 16), domain: d0 in [0, 9], d1 in [0, 9]"},
    /* Mod step 3: (y * k) mod m with k | m */
    {DOM1("(d0 * 4) mod 8", "[0, 100]"), 0, DOM1("(d0 mod 2) * 4", "[0, 100]")},
    /* Mod step 4: constants folded into the modulus */
    {DOM1("(d0 + 10) mod 8", "[0, 100]"), 0, DOM1("(d0 + 2) mod 8", "[0, 100]")},
    /* Mod step 5, B == 0 */
    {"(d0, d1) -> ((d0 * 6 + d1 * 4) mod 8), domain: d0 in [0, 100], d1 in [0, 100]", 0,
     "(d0, d1) -> (((d0 * 3 + d1 * 2) mod 4) * 2), domain: d0 in [0, 100], d1 in [0, 100]"},
    /* Div: mod-div and div-div */
    {DOM1("(d0 mod 16) floordiv 4", "[0, 100]"), 0, DOM1("(d0 floordiv 4) mod 4", "[0, 100]")},
    {DOM1("(d0 floordiv 4) floordiv 3", "[0, 100]"), 0, DOM1("d0 floordiv 12", "[0, 100]")},
    /* Div: sum-div extraction of multiples (the multiplier is a point symbol in preserve mode) */
    {"(d0, d1)[s0] -> ((d0 * s0 + d1) floordiv 4), domain: d0 in [0, 9], d1 in [0, 99], s0 in [8, 8]", 1,
     /* one pass gives d1 floordiv 4 + d0 * 2; the next pass sorts the sum */
     "(d0, d1)[s0] -> (d0 * 2 + d1 floordiv 4), domain: d0 in [0, 9], d1 in [0, 99], s0 in [8, 8]"},

    /* §6.5 table */
    {"(d0) -> (d0), domain: d0 in [0, 9], d0 * 3 in [4, 10]", 0, "(d0) -> (d0), domain: d0 in [2, 3]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 floordiv 4 in [1, 2]", 0, "(d0) -> (d0), domain: d0 in [4, 11]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 + 3 in [5, 9]", 0, "(d0) -> (d0), domain: d0 in [2, 6]"},
    {"(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [0, 50]", 0, "(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 9]"},
    {"(d0) -> (d0), domain: d0 in [0, 9], d0 * 2 in [5, 5]", 0, "KNOWN EMPTY"},
    {"()[s0, s1] -> (s1), domain: s0 in [0, 3], s1 in [0, 19], s1 floordiv 20 in [2, 2]", 0, "KNOWN EMPTY"},
    {"(d0) -> (d0), domain: d0 in [0, 20], d0 mod 2 in [1, 1], d0 mod 3 in [1, 1]", 0, "(d0) -> (d0), domain: d0 in [1, 19], d0 mod 6 in [1, 1]"},
    {"(d0)[s0, s1] -> (d0), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 599]", 0,
     "(d0)[s0, s1] -> (d0), domain: d0 in [0, 99], s0 in [0, 1], s1 in [0, 2]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 8 + 5 in [50, 54]", 0, "(d0) -> (d0), domain: d0 in [0, 99], d0 mod 8 in [45, 49]"},
    /* more constraint rules (hand-derived) */
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 * -2 in [-10, -4]", 0, "(d0) -> (d0), domain: d0 in [2, 5]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 4 in [0, 0]", 0, "(d0) -> (d0), domain: d0 in [0, 96], d0 mod 4 in [0, 0]"},
    {"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 4 in [1, 1], d0 mod 6 in [1, 1], d0 mod 5 in [2, 2]", 0,
     /* group r=1 (lcm 12): [1, 97]; then group r=2 (5): lo = 0 * 5 + 2 = 2, hi = 19 * 5 + 2 = 97 */
     "(d0) -> (d0), domain: d0 in [2, 97], d0 mod 12 in [1, 1], d0 mod 5 in [2, 2]"},
    {"(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], (d0 + d1) mod 4 in [0, 3]", 0, "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9]"},
    /* results use the constraints */
    {"(d0) -> (d0 floordiv 4), domain: d0 in [0, 99], d0 floordiv 4 in [2, 2]", 0, "(d0) -> (2), domain: d0 in [8, 11]"},
    {"(d0, d1) -> ((d0 + d1) floordiv 4), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [4, 7]", 0,
     "(d0, d1) -> (1), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [4, 7]"},
    /* nothing to do */
    {"UNDEFINED", 0, "UNDEFINED"},
    {"() -> ()", 0, "() -> ()"},
};

/* §6.2 range evaluation */
static void test_eval(hb_arena *a, ae_ctx *c) {
  static const struct {
    const char *map, *expr;
    bool cons;
    int64_t lo, hi;
  } ev[] = {
      {"(d0, d1) -> (), domain: d0 in [0, 9], d1 in [-3, 2]", "d0 + d1 * 2", false, -6, 13},
      {"(d0) -> (), domain: d0 in [20, 25]", "d0 mod 10", false, 0, 9},
      {"(d0) -> (), domain: d0 in [0, 14]", "d0 mod 16", false, 0, 14},
      {"(d0) -> (), domain: d0 in [-5, 6]", "d0 floordiv 4", false, -2, 1},
      {"(d0) -> (), domain: d0 in [-5, 6]", "d0 * -3", false, -18, 15},
      {"(d0) -> (), domain: d0 in [0, 99], d0 mod 8 in [2, 3]", "d0 mod 8", false, 0, 7},
      {"(d0) -> (), domain: d0 in [0, 99], d0 mod 8 in [2, 3]", "d0 mod 8", true, 2, 3},
      {"(d0) -> (), domain: d0 in [0, 99], d0 mod 8 in [2, 3]", "d0 mod 8 + 1", true, 3, 4},
      {"(d0) -> (), domain: d0 in [0, 9]", "d0 ceildiv 4", false, 0, 3},
      {"(d0)[s0] -> (), domain: d0 in [0, 9], s0 in [1, 2]", "d0 floordiv s0", false, INT64_MIN, INT64_MAX},
  };
  for (size_t i = 0; i < sizeof ev / sizeof *ev; i++) {
    imap *m = rd(a, c, ev[i].map);
    interval r = imap_eval_range(m, rx(c, ev[i].expr), ev[i].cons);
    CHECK(r.lo == ev[i].lo && r.hi == ev[i].hi, "eval %s: [%lld, %lld]", ev[i].expr, (long long)r.lo, (long long)r.hi);
  }
  /* the evaluator sees interval changes of its map */
  imap *m = rd(a, c, "(d0) -> (), domain: d0 in [0, 9]");
  simplifier *s = simplifier_new(m, false, SIMPLIFY_REPLACE_POINTS);
  const ae *e = rx(c, "d0 floordiv 4");
  CHECK(iv_eq(simplifier_eval(s, e), iv_make(0, 2)), "before");
  imap_add_constraint(m, ae_dim(c, 0), iv_make(4, 7));
  CHECK(iv_eq(simplifier_eval(s, e), iv_make(1, 1)), "after an interval change");
  CHECK(simplifier_simplify(s, e) == ae_const(c, 1), "simplify after an interval change");
  simplifier_free(s);
}

/* A chain of 200 reshape-like linearise/delinearise steps sharing sub-DAGs. */
static void test_shared_dag(hb_arena *a, ae_ctx *c) {
  const ae *x = ae_dim(c, 0), *y = ae_dim(c, 1);
  for (int i = 0; i < 200; i++) {
    int64_t p = (i % 2) ? 6 : 4, q = (i % 2) ? 4 : 6;
    const ae *lin = ae_add(c, ae_mul_const(c, x, q), y); /* [p, q] -> linear */
    x = ae_floordiv_const(c, lin, p);                   /* linear -> [q, p] */
    y = ae_mod_const(c, lin, p);
  }
  interval dv[] = {{0, 3}, {0, 5}};
  const ae *res[] = {x, y};
  imap *m = imap_new(a, c, 2, 0, 0, dv, NULL, 2, res);
  clock_t t0 = clock();
  simplify_status st = imap_simplify(m, SIMPLIFY_REPLACE_POINTS, NULL);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(st == SIMPLIFY_OK, "chain simplifies");
  /* generous bound: a tree walk would take ~2^200 steps; timings live in bench/ */
  CHECK(secs < 5.0, "shared DAG simplification is not exponential (%.3f s)", secs);
  /* the chain is the identity on [0,3] x [0,5] after an even number of steps:
   * check by evaluating every point of the simplified map */
  bool ok = true;
  for (int64_t i = 0; i <= 3; i++)
    for (int64_t j = 0; j <= 5; j++) {
      int64_t d[2] = {i, j}, r0, r1;
      ok &= ae_eval_point(m->results[0], d, 2, NULL, 0, &r0) && ae_eval_point(m->results[1], d, 2, NULL, 0, &r1) &&
            r0 == i && r1 == j;
    }
  CHECK(ok, "chain result is the identity relation");
  CHECK_STR(mstr(m), "(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 5]", "chain result");
}

static void test_budget(hb_arena *a) {
  ae_ctx *c = ae_ctx_new();
  imap *m = rd(a, c, "(d0, d1, d2) -> ((16d0 + 4d1 + d2) floordiv 8, (16d0 + 4d1 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]");
  ae_ctx_set_node_limit(c, ae_ctx_node_count(c) + 1);
  CHECK(imap_simplify(m, SIMPLIFY_REPLACE_POINTS, NULL) == SIMPLIFY_TOO_LARGE, "budget reported");
  ae_ctx_free(c);
}

int main(void) {
  hb_arena *a = hb_arena_new();
  ae_ctx *c = ae_ctx_new();
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    imap *m = rd(a, c, rows[i].map);
    imap_simplify(m, rows[i].mode ? SIMPLIFY_PRESERVE_POINTS : SIMPLIFY_REPLACE_POINTS, NULL);
    char what[400];
    snprintf(what, sizeof what, "%s [%s]", rows[i].map, rows[i].mode ? "preserve-points" : "replace-points");
    CHECK_STR(mstr(m), rows[i].want, what);
  }
  test_eval(a, c);
  test_shared_dag(a, c);
  test_budget(a);
  ae_ctx_free(c);
  hb_arena_free(a);
  return t_finish("simplify");
}
