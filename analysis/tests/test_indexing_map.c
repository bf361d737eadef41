/* Maps: add-constraint procedure (§1.3), known-empty (§1.5), composition
 * (§5.2, §5.5, §8.2), unused-symbol removal (§6.6), equality (§1.7). */
#include "test_util.h"

static hb_arena *A;
static ae_ctx *C;

static void test_add_constraint(void) {
  static const struct {
    const char *map, *expr;
    int64_t lo, hi;
    const char *want;
  } rows[] = {
      {"(d0) -> (d0), domain: d0 in [0, 9]", "d0", 3, 20, "(d0) -> (d0), domain: d0 in [3, 9]"},
      {"(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 9]", "s0", -4, 2, "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 2]"},
      {"(d0) -> (d0), domain: d0 in [0, 9]", "d0", 10, 20, "KNOWN EMPTY"},
      {"(d0) -> (d0), domain: d0 in [0, 9]", "4", 0, 3, "KNOWN EMPTY"},
      {"(d0) -> (d0), domain: d0 in [0, 9]", "4", 0, 4, "(d0) -> (d0), domain: d0 in [0, 9]"},
      {"(d0) -> (d0), domain: d0 in [0, 9]", "d0 mod 4", 1, 0, "KNOWN EMPTY"},
      /* always-true constraints are kept until simplification */
      {"(d0) -> (d0), domain: d0 in [0, 9]", "d0 * 2", -100, 100, "(d0) -> (d0), domain: d0 in [0, 9], d0 * 2 in [-100, 100]"},
      /* same key: intersection */
      {"(d0) -> (d0), domain: d0 in [0, 9], d0 mod 4 in [0, 2]", "d0 mod 4", 1, 3, "(d0) -> (d0), domain: d0 in [0, 9], d0 mod 4 in [1, 2]"},
      {"(d0) -> (d0), domain: d0 in [0, 9], d0 mod 4 in [0, 1]", "d0 mod 4", 2, 3, "KNOWN EMPTY"},
      /* nothing changes a known-empty map */
      {"(d0) -> (d0), domain: d0 in [0, -1]", "d0 mod 4", 2, 3, "KNOWN EMPTY"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    imap *m = rd(A, C, rows[i].map);
    imap_add_constraint(m, rx(C, rows[i].expr), iv_make(rows[i].lo, rows[i].hi));
    CHECK_STR(mstr(m), rows[i].want, rows[i].expr);
  }
  /* known-empty state details (§1.5) */
  imap *m = rd(A, C, "(d0)[s0]{rt0} -> (d0 + s0, rt0), domain: d0 in [0, 9], s0 in [0, 3], rt0 in [2, 5], d0 + s0 in [0, 4]");
  imap_add_constraint(m, ae_dim(C, 0), iv_make(20, 30));
  CHECK(m->known_empty && m->ncons == 0 && m->results[0] == ae_const(C, 0) && m->results[1] == ae_const(C, 0),
        "known-empty: results 0, constraints dropped");
  CHECK(iv_eq(m->dim_iv[0], iv_make(0, -1)) && iv_eq(m->sym_iv[0], iv_make(0, -1)) && iv_eq(m->sym_iv[1], iv_make(2, 5)),
        "known-empty: dim/range intervals [0, -1], runtime intervals kept");
  int64_t sizes[] = {3, 0};
  CHECK(imap_identity(A, C, 2, sizes)->known_empty, "zero-sized dimension");
  /* erase keeps order; re-insert appends */
  m = rd(A, C, "(d0) -> (d0), domain: d0 in [0, 99], d0 mod 3 in [0, 1], d0 mod 5 in [0, 1], d0 mod 7 in [0, 1]");
  imap_erase_constraint(m, rx(C, "d0 mod 3"));
  imap_put_constraint(m, rx(C, "d0 mod 3"), iv_make(1, 1));
  CHECK(m->ncons == 3 && m->cons[0].expr == rx(C, "d0 mod 5") && m->cons[2].expr == rx(C, "d0 mod 3"), "insertion order");
}

static void test_helpers(void) {
  int64_t sizes[] = {4, 6, 2};
  uint32_t perm[] = {2, 0, 1};
  CHECK_STR(mstr(imap_identity(A, C, 3, sizes)), "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 3], d1 in [0, 5], d2 in [0, 1]", "identity");
  CHECK_STR(mstr(imap_permutation(A, C, 3, sizes, perm)), "(d0, d1, d2) -> (d2, d0, d1), domain: d0 in [0, 3], d1 in [0, 5], d2 in [0, 1]", "permutation");
  CHECK_STR(mstr(imap_scalar(A, C, 2, sizes)), "(d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 5]", "scalar");
  CHECK(imap_is_identity(imap_identity(A, C, 3, sizes)) && !imap_is_identity(imap_permutation(A, C, 3, sizes, perm)), "is_identity");
  CHECK_STR(mstr(imap_identity(A, C, 0, NULL)), "() -> ()", "rank 0");
}

static const char *compose_str(const char *first, const char *second, bool simplify) {
  imap *m = imap_compose(A, rd(A, C, first), rd(A, C, second));
  if (simplify) {
    imap_simplify(m, SIMPLIFY_REPLACE_POINTS, NULL);
    imap_remove_unused_symbols(m, NULL);
  }
  return mstr(m);
}

static void test_compose(void) {
  static const struct {
    const char *first, *second;
    bool simplify;
    const char *want;
  } rows[] = {
      /* §5.2 example */
      {"(d0)[s0] -> (d0, s0), domain: d0 in [0, 9], s0 in [0, 7]",
       "(d0, d1)[s0] -> (d1 + s0, d0), domain: d0 in [0, 4], d1 in [0, 5], s0 in [0, 2]", false,
       "(d0)[s0, s1] -> (s1 + s0, d0), domain: d0 in [0, 4], s0 in [0, 2], s1 in [0, 5]"},
      /* symbol order [S.range | F.range | S.rt | F.rt] (hand-derived) */
      {"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 2]",
       "(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 9], rt0 in [0, 4]", false,
       "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 3], s0 in [0, 2], rt0 in [0, 4], d0 + s0 in [0, 9]"},
      {"(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 3], rt0 in [0, 5]",
       "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 9], s0 in [0, 1], rt0 in [0, 7]", false,
       "(d0)[s0]{rt0, rt1} -> (d0 + rt1 + s0 + rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [0, 7], rt1 in [0, 5], d0 + rt1 in [0, 9]"},
      /* constraint order a (S's), b (F's), c (F's results); S's constraint rewritten */
      {"(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 4], s0 in [0, 1], d0 + s0 in [0, 4]",
       "(d0) -> ((d0 - 1) floordiv 2), domain: d0 in [1, 9], (d0 - 1) mod 2 in [0, 0]", false,
       "(d0)[s0] -> ((d0 * 2 + s0 - 1) floordiv 2), domain: d0 in [0, 4], s0 in [0, 1], (d0 * 2 + s0 - 1) mod 2 in [0, 0], d0 * 2 + s0 in [1, 9], d0 + s0 in [0, 4]"},
      /* §8.2 reduce-window (hand-derived in the doc) */
      {"(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 4], s0 in [0, 2]",
       "(d0) -> (d0 - 1), domain: d0 in [1, 10]", true,
       "(d0)[s0] -> (d0 * 2 + s0 - 1), domain: d0 in [0, 4], s0 in [0, 2], d0 * 2 + s0 in [1, 10]"},
      /* §3.14 (XLA test): size-1 window dimension folded and its symbol removed */
      {"(d0, d1)[s0, s1] -> (d0 + s0, d1 + s1), domain: d0 in [0, 1023], d1 in [0, 2], s0 in [0, 0], s1 in [0, 511]",
       "(d0, d1) -> (d0, d1), domain: d0 in [0, 1023], d1 in [0, 513]", true,
       "(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [0, 1023], d1 in [0, 2], s0 in [0, 511]"},
      /* §3.14 (XLA test): base dilation 2 */
      {"(d0, d1)[s0, s1] -> (d0 + s0, d1 + s1), domain: d0 in [0, 2], d1 in [0, 4], s0 in [0, 0], s1 in [0, 0]",
       "(d0, d1) -> (d0 floordiv 2, d1 floordiv 2), domain: d0 in [0, 2], d1 in [0, 4], d0 mod 2 in [0, 0], d1 mod 2 in [0, 0]", true,
       "(d0, d1) -> (d0 floordiv 2, d1 floordiv 2), domain: d0 in [0, 2], d1 in [0, 4], d0 mod 2 in [0, 0], d1 mod 2 in [0, 0]"},
      /* §5.5 example 1: transpose then slice */
      {"(d0, d1) -> (d0 + 2, d1), domain: d0 in [0, 3], d1 in [0, 5]",
       "(d0, d1) -> (d1, d0), domain: d0 in [0, 7], d1 in [0, 5]", false,
       "(d0, d1) -> (d1, d0 + 2), domain: d0 in [0, 3], d1 in [0, 5], d0 + 2 in [0, 7]"},
      {"(d0, d1) -> (d0 + 2, d1), domain: d0 in [0, 3], d1 in [0, 5]",
       "(d0, d1) -> (d1, d0), domain: d0 in [0, 7], d1 in [0, 5]", true,
       "(d0, d1) -> (d1, d0 + 2), domain: d0 in [0, 3], d1 in [0, 5]"},
      /* §5.5 example 3: reduce of a broadcast, unused symbol removed */
      {"(d0)[s0] -> (d0, s0), domain: d0 in [0, 3], s0 in [0, 4]", "(d0, d1) -> (d0), domain: d0 in [0, 3], d1 in [0, 4]", true,
       "(d0) -> (d0), domain: d0 in [0, 3]"},
      /* §5.5 example 4: a path that can never be taken */
      {"(d0) -> (d0), domain: d0 in [0, 1]", "(d0) -> (d0 - 3), domain: d0 in [3, 7]", false, "KNOWN EMPTY"},
      /* §5.5 example 5: folded constant offset, runtime variable removed */
      {"(d0) -> (d0), domain: d0 in [0, 3]", "(d0){rt0} -> (d0 + 5), domain: d0 in [0, 3], rt0 in [0, 12]", true,
       "(d0) -> (d0 + 5), domain: d0 in [0, 3]"},
      /* a constant result outside the producer's interval */
      {"(d0) -> (7), domain: d0 in [0, 1]", "(d0) -> (d0), domain: d0 in [0, 5]", false, "KNOWN EMPTY"},
      {"(d0) -> (UNDEFINED_MARK), domain: d0 in [0, 1]", "", false, "UNDEFINED"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    if (strstr(rows[i].first, "UNDEFINED_MARK")) {
      imap *u = imap_compose(A, imap_new_undefined(A, C), rd(A, C, "(d0) -> (d0), domain: d0 in [0, 1]"));
      CHECK_STR(mstr(u), "UNDEFINED", "compose with undefined (first)");
      u = imap_compose(A, rd(A, C, "(d0) -> (d0), domain: d0 in [0, 1]"), imap_new_undefined(A, C));
      CHECK_STR(mstr(u), "UNDEFINED", "compose with undefined (second)");
      continue;
    }
    CHECK_STR(compose_str(rows[i].first, rows[i].second, rows[i].simplify), rows[i].want, rows[i].second);
  }
}

static void test_remove_unused(void) {
  /* §6.6 example */
  imap *m = rd(A, C, "(d0)[s0, s1]{rt0} -> (d0 + s1), domain: d0 in [0, 9], s0 in [0, 4], s1 in [0, 2], rt0 in [0, 7], s0 mod 2 in [0, 0]");
  int32_t map[3];
  uint32_t n = imap_remove_unused_symbols(m, map);
  CHECK_STR(mstr(m), "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 2]", "§6.6 example");
  CHECK(n == 2 && map[0] == -1 && map[1] == 0 && map[2] == -1, "old -> new positions");
  static const char *const rows[][2] = {
      /* a constraint with a dimension keeps its symbols */
      {"(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 4], d0 + s0 in [0, 9]",
       "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 4], d0 + s0 in [0, 9]"},
      /* a constraint mentioning a used symbol marks the others used */
      {"(d0)[s0, s1] -> (d0 + s1), domain: d0 in [0, 9], s0 in [0, 4], s1 in [0, 9], s0 + s1 in [2, 5]",
       "(d0)[s0, s1] -> (d0 + s1), domain: d0 in [0, 9], s0 in [0, 4], s1 in [0, 9], s0 + s1 in [2, 5]"},
      /* XLA corner case: the candidate s0 + s1 is kept (s1 becomes used later),
       * s0 is removed and replaced by 0 there: s1 in [1, 3] (hand-derived) */
      {"(d0)[s0, s1] -> (d0), domain: d0 in [0, 9], s0 in [0, 4], s1 in [0, 9], s0 + s1 in [1, 3], d0 + s1 in [0, 10]",
       "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [1, 3], d0 + s0 in [0, 10]"},
      /* runtime variables are renumbered after the range variables */
      {"(d0)[s0, s1]{rt0, rt1} -> (d0 + s1 + rt1), domain: d0 in [0, 9], s0 in [0, 1], s1 in [0, 2], rt0 in [0, 3], rt1 in [0, 4]",
       "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 9], s0 in [0, 2], rt0 in [0, 4]"},
      {"(d0) -> (d0), domain: d0 in [0, 9]", "(d0) -> (d0), domain: d0 in [0, 9]"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    imap *x = rd(A, C, rows[i][0]);
    imap_remove_unused_symbols(x, NULL);
    CHECK_STR(mstr(x), rows[i][1], rows[i][0]);
  }
}

static void test_equality(void) {
  imap *a = rd(A, C, "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], d0 mod 2 in [0, 0], s0 mod 3 in [1, 1]");
  imap *b = rd(A, C, "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], s0 mod 3 in [1, 1], d0 mod 2 in [0, 0]");
  imap *c = rd(A, C, "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], s0 mod 3 in [1, 1], d0 mod 2 in [0, 1]");
  imap *d = rd(A, C, "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 8], s0 in [0, 3], s0 mod 3 in [1, 1], d0 mod 2 in [0, 0]");
  imap *e = rd(A, C, "(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 9], rt0 in [0, 3], rt0 mod 3 in [1, 1], d0 mod 2 in [0, 0]");
  CHECK(imap_equal(a, b) && imap_hash(a) == imap_hash(b), "constraint order does not matter");
  CHECK(!imap_equal(a, c) && !imap_equal(a, d) && !imap_equal(a, e), "intervals, constraints, symbol kinds matter");
  CHECK(imap_equal(a, imap_copy(A, a)), "copy is equal");
  CHECK(imap_equal(imap_new_undefined(A, C), imap_new_undefined(A, C)) && !imap_equal(a, imap_new_undefined(A, C)), "undefined");
}

int main(void) {
  A = hb_arena_new();
  C = ae_ctx_new();
  test_add_constraint();
  test_helpers();
  test_compose();
  test_remove_unused();
  test_equality();
  ae_ctx_free(C);
  hb_arena_free(A);
  return t_finish("indexing_map");
}
