/* Constructors (§6.1), LKD, term order, point evaluation, substitution
 * (§5.1), DAG walks and the node budget. Expected strings are the doc's. */
#include <time.h>

#include "../../parser/base/checked.h"
#include "test_util.h"

typedef struct {
  const char *op, *lhs, *rhs; /* operands as raw trees (doc notation) */
  const char *want;
} ctor_row;

/* §6.1 examples first, then one row per rule. */
static const ctor_row ctor_rows[] = {
    {"add", "4", "d0", "d0 + 4"},
    {"add", "s0", "d0", "d0 + s0"},
    {"add", "Mul(s0, 3)", "d1", "d1 + s0 * 3"},
    {"add", "Add(d0, 2)", "3", "d0 + 5"},
    {"add", "Add(d0, 2)", "d1", "d0 + d1 + 2"},
    {"add", "d0", "d0", "d0 * 2"},
    {"add", "Mul(d0, 3)", "Mul(d0, -3)", "0"},
    {"mul", "4", "d0", "d0 * 4"},
    {"mul", "Mul(d0, 2)", "3", "d0 * 6"},
    {"floordiv", "Add(Mul(d0, 8), d1)", "4", "d0 * 2 + d1 floordiv 4"},
    {"mod", "Add(Mul(d0, 8), d1)", "4", "d1 mod 4"},
    {"mod", "Mod(d0, 16)", "4", "d0 mod 4"},
    {"floordiv", "Mul(d0, 6)", "3", "d0 * 2"},
    {"add", "d0", "Mul(FloorDiv(d0, 4), -4)", "d0 mod 4"},
    {"add", "Add(d0, d1)", "d0", "d0 + d1 + d0"}, /* no sorting or merging beyond the rules */
    /* add */
    {"add", "3", "4", "7"},
    {"add", "9223372036854775807", "1", "9223372036854775807 + 1"}, /* overflow: not folded */
    {"add", "d0", "0", "d0"},
    {"add", "0", "d0", "d0"},
    {"add", "s0", "s1", "s0 + s1"},                     /* both symbolic: no swap */
    {"add", "Add(d0, 2)", "-2", "d0"},
    {"add", "Mul(d0, 2)", "d0", "d0 * 3"},
    {"add", "d0", "Mul(Mul(FloorDiv(d0, s0), s0), -1)", "d0 mod s0"}, /* rule 7, first form */
    {"add", "d1", "Mul(Mul(FloorDiv(d0, 4), 4), -1)", "d1 - (d0 floordiv 4) * 4"},
    {"add", "d1", "Mul(Mul(d0, s0), -1)", "d1 - d0 * s0"}, /* q = -1, p = Mul(u, v), u not FloorDiv: raw */
    {"add", "Mul(d0, -1)", "7", "-d0 + 7"},
    {"add", "Add(Mul(d0, -1), 7)", "-1", "-d0 + 6"},   /* reverse, §3.4 */
    {"add", "Add(Mul(d0, -1), 1)", "-1", "-d0"},
    {"add", "s0", "Mul(d0, 2)", "d0 * 2 + s0"},        /* window map, §8.2 */
    /* mul */
    {"mul", "3", "-4", "-12"},
    {"mul", "9223372036854775807", "2", "9223372036854775807 * 2"},
    {"mul", "d0", "d1", "d0 * d1"},                    /* both contain dimensions: raw */
    {"mul", "s0", "d0", "d0 * s0"},
    {"mul", "d0", "1", "d0"},
    {"mul", "d0", "0", "0"},
    {"mul", "Mul(d0, 2)", "s0", "(d0 * s0) * 2"},
    {"mul", "Add(d0, 1)", "4", "(d0 + 1) * 4"},        /* no distribution */
    {"mul", "Add(Mul(s0, 6), 3)", "s2", "(s0 * 6 + 3) * s2"},
    /* floordiv / ceildiv */
    {"floordiv", "7", "2", "3"},
    {"floordiv", "-7", "2", "-4"},
    {"floordiv", "-9223372036854775808", "-1", "-9223372036854775808 floordiv -1"},
    {"floordiv", "d0", "1", "d0"},
    {"floordiv", "d0", "0", "d0 floordiv 0"},
    {"floordiv", "d0", "s0", "d0 floordiv s0"},
    {"floordiv", "Add(Mul(d0, 4), Mul(d1, 6))", "2", "d0 * 2 + d1 * 3"},
    {"floordiv", "Add(d1, Mul(d0, 6))", "3", "d1 floordiv 3 + d0 * 2"},
    {"floordiv", "Mul(d0, 6)", "4", "(d0 * 6) floordiv 4"},
    {"ceildiv", "7", "2", "4"},
    {"ceildiv", "-7", "2", "-3"},
    {"ceildiv", "Mul(d0, 6)", "3", "d0 * 2"},
    {"ceildiv", "Add(Mul(d0, 4), d1)", "2", "(d0 * 4 + d1) ceildiv 2"}, /* no sum rule */
    /* mod */
    {"mod", "-7", "2", "1"},
    {"mod", "7", "3", "1"},
    {"mod", "d0", "1", "0"},
    {"mod", "d0", "-2", "d0 mod -2"},
    {"mod", "d0", "0", "d0 mod 0"},
    {"mod", "Mul(d0, 8)", "4", "0"},
    {"mod", "Add(d1, Mul(d0, 8))", "4", "d1 mod 4"},
    {"mod", "Mod(d0, 6)", "4", "d0 mod 6 mod 4"},
    {"mod", "Mod(d0, 12)", "4", "d0 mod 4"},
};

static const ae *build(ae_ctx *c, const char *op, const ae *a, const ae *b) {
  if (!strcmp(op, "add")) return ae_add(c, a, b);
  if (!strcmp(op, "mul")) return ae_mul(c, a, b);
  if (!strcmp(op, "floordiv")) return ae_floordiv(c, a, b);
  if (!strcmp(op, "ceildiv")) return ae_ceildiv(c, a, b);
  return ae_mod(c, a, b);
}

static void test_constructors(ae_ctx *c) {
  for (size_t i = 0; i < sizeof ctor_rows / sizeof *ctor_rows; i++) {
    const ctor_row *r = &ctor_rows[i];
    const ae *e = build(c, r->op, sx(c, r->lhs), sx(c, r->rhs));
    char what[160];
    snprintf(what, sizeof what, "%s(%s, %s)", r->op, r->lhs, r->rhs);
    if (!strcmp(r->want, "d0 mod 6 mod 4")) {
      /* (d0 mod 6) mod 4 keeps both: 6 is not a multiple of 4 */
      CHECK_STR(estr(e, 8), "(d0 mod 6) mod 4", what);
      continue;
    }
    CHECK_STR(estr(e, 8), r->want, what);
  }
  /* helpers */
  const ae *d0 = ae_dim(c, 0), *d1 = ae_dim(c, 1);
  CHECK_STR(estr(ae_sub(c, d0, d1), 8), "d0 - d1", "sub");
  CHECK_STR(estr(ae_neg(c, d0), 8), "-d0", "neg");
  CHECK_STR(estr(ae_sub(c, d0, ae_const(c, 3)), 8), "d0 - 3", "sub const");
  CHECK_STR(estr(ae_neg(c, ae_neg(c, d0)), 8), "d0", "neg neg");
  /* hash-consing: structural equality is pointer equality */
  CHECK(ae_add(c, d0, d1) == ae_add(c, d0, d1), "hash-consing");
  CHECK(ae_add(c, ae_const(c, 4), d0) == ae_add(c, d0, ae_const(c, 4)), "canonical order");
  CHECK(ae_const(c, 123456) == ae_const(c, 123456), "constants uniqued");
  CHECK(ae_dim(c, 40) == ae_dim(c, 40) && ae_sym(c, 40) != ae_dim(c, 40), "leaves uniqued");
  /* flags */
  const ae *e = ae_add(c, ae_sym(c, 0), ae_const(c, 3));
  CHECK(ae_is_symbolic(e) && !ae_has_dim(e) && ae_has_sym(e), "flags symbolic");
  e = ae_add(c, e, d1);
  CHECK(!ae_is_symbolic(e) && ae_has_dim(e) && ae_has_sym(e), "flags dim");
}

static void test_lkd(ae_ctx *c) {
  static const struct {
    const char *tree;
    int64_t want;
  } rows[] = {
      {"d0", 1}, {"s3", 1}, {"-6", 6}, {"0", 0}, {"Mul(d0, 8)", 8}, {"Mul(Mul(d0, 4), 3)", 12},
      {"Add(Mul(d0, 8), Mul(d1, 12))", 4}, {"Add(Mul(d0, 8), 0)", 8}, {"Mod(Mul(d0, 8), 12)", 4},
      {"FloorDiv(Mul(d0, 8), 2)", 4}, {"FloorDiv(Mul(d0, 8), 3)", 1}, {"CeilDiv(Mul(d0, 8), -4)", 2},
      {"-9223372036854775808", 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const ae *e = sx(c, rows[i].tree);
    CHECK(ae_lkd(e) == rows[i].want, "LKD(%s) = %lld, want %lld", rows[i].tree, (long long)ae_lkd(e),
          (long long)rows[i].want);
  }
}

static void test_term_order(ae_ctx *c) {
  /* each row: a < b */
  static const char *const rows[][2] = {
      {"Add(d0, d1)", "Mul(d0, 2)"}, {"Mul(d0, 2)", "Mod(d0, 2)"}, {"Mod(d0, 2)", "FloorDiv(d0, 2)"},
      {"FloorDiv(d0, 2)", "CeilDiv(d0, 2)"}, {"CeilDiv(d0, 2)", "d0"}, {"d0", "d1"}, {"d1", "s0"},
      {"s0", "s1"}, {"s1", "-5"}, {"-5", "3"}, {"Mul(d0, 3)", "Mul(d1, 1)"}, {"Mul(d0, 2)", "Mul(d0, 3)"},
      {"Mul(Mod(d0, 2), 4)", "Mul(d0, 2)"}, {"Mul(s0, 4)", "d1"}, {"Mul(d0, 9)", "s0"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const ae *a = sx(c, rows[i][0]), *b = sx(c, rows[i][1]);
    CHECK(ae_term_compare(a, b) < 0 && ae_term_compare(b, a) > 0, "%s < %s", rows[i][0], rows[i][1]);
    CHECK(ae_term_compare(a, a) == 0, "%s == itself", rows[i][0]);
  }
}

static void test_eval(ae_ctx *c) {
  static const struct {
    const char *expr;
    int64_t d[3], s[2];
    bool ok;
    int64_t want;
  } rows[] = {
      {"d0 floordiv 2", {-7}, {0}, true, -4},
      {"d0 mod 2", {-7}, {0}, true, 1},
      {"d0 ceildiv 2", {-7}, {0}, true, -3},
      {"d0 * 8 + d1 - s0", {2, 3}, {4}, true, 15},
      {"d0 mod s0", {7}, {-3}, true, -2},
      {"d0 floordiv s0", {7}, {0}, false, 0},
      {"d0 * 2", {INT64_MAX}, {0}, false, 0},
      {"d0 + d1", {INT64_MAX, 1}, {0}, false, 0},
      {"d0 floordiv s0", {INT64_MIN}, {-1}, false, 0},
      {"(d0 * 100 + d1 * 10 + d2) mod 100 floordiv 10", {4, 5, 6}, {0}, true, 5},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int64_t v = 0;
    bool ok = ae_eval_point(rx(c, rows[i].expr), rows[i].d, 3, rows[i].s, 2, &v);
    CHECK(ok == rows[i].ok && (!ok || v == rows[i].want), "eval %s: ok=%d v=%lld", rows[i].expr, ok, (long long)v);
  }
  int64_t v;
  CHECK(!ae_eval_point(ae_dim(c, 3), NULL, 0, NULL, 0, &v), "variable outside the point");
}

static void test_subst(ae_ctx *c) {
  const ae *d0 = ae_dim(c, 0), *d1 = ae_dim(c, 1), *s0 = ae_sym(c, 0);
  /* §5.1: (d0 + 2) with d0 -> d1 + 3 becomes d1 + 5 */
  const ae *repl[] = {ae_add_const(c, d1, 3)};
  CHECK_STR(estr(ae_subst(c, ae_add_const(c, d0, 2), repl, 1, NULL, 0), 8), "d1 + 5", "subst rebuild");
  /* unchanged subtrees are kept as they are, even when not canonical */
  const ae *rawe = ae_raw(c, AE_ADD, ae_const(c, 4), d0);
  const ae *repl_s[] = {d1};
  CHECK(ae_subst(c, rawe, NULL, 0, repl_s, 1) == rawe, "unchanged raw node kept");
  const ae *repl_d[] = {d1};
  CHECK_STR(estr(ae_subst(c, rawe, repl_d, 1, NULL, 0), 8), "d1 + 4", "changed raw node rebuilt");
  /* NULL entries keep the variable; symbols replaced independently */
  const ae *e = ae_add(c, ae_add(c, d0, d1), s0);
  const ae *rd2[] = {NULL, ae_const(c, 0)};
  const ae *rs[] = {ae_mul_const(c, d0, 2)};
  CHECK_STR(estr(ae_subst(c, e, rd2, 2, rs, 1), 8), "d0 * 3", "partial subst (d0 + d0 * 2 folds by add rule 5)");
  CHECK_STR(estr(ae_subst(c, e, rd2, 2, NULL, 0), 8), "d0 + s0", "subst to 0");
  bool used[4] = {false}, dused[4] = {false};
  ae_collect_vars(e, dused, 4, used, 4);
  CHECK(dused[0] && dused[1] && !dused[2] && used[0] && !used[1], "collect vars");
}

/* Shared sub-DAGs: 300 levels of x' = (x floordiv 3) * 2 + (x mod 3) * 7; each
 * level uses the previous node twice. Tree size is astronomical; every walk
 * must be linear. */
static void test_dag(ae_ctx *c) {
  const ae *x = ae_dim(c, 0);
  for (int i = 0; i < 300; i++) {
    const ae *q = ae_floordiv_const(c, x, 3), *r = ae_mod_const(c, x, 3);
    x = ae_add(c, ae_mul_const(c, q, 2), ae_mul_const(c, r, 7));
  }
  CHECK(x->tree_size == UINT32_MAX, "tree size saturates");
  clock_t t0 = clock();
  int64_t v, d = 1;
  /* the value must equal the same recurrence run as a plain loop
   * (non-negative values: C's / and % agree with floordiv and mod) */
  bool ok = ae_eval_point(x, &d, 1, NULL, 0, &v);
  int64_t ref = 1;
  for (int i = 0; i < 300; i++) ref = (ref / 3) * 2 + (ref % 3) * 7;
  CHECK(ok && v == ref, "evaluates: %lld, loop %lld", (long long)v, (long long)ref);
  const ae *repl[] = {ae_dim(c, 1)};
  const ae *y = ae_subst(c, x, repl, 1, NULL, 0);
  bool used[2] = {false};
  ae_collect_vars(y, used, 2, NULL, 0);
  CHECK(!used[0] && used[1], "substituted everywhere");
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 2.0, "DAG walks are linear (%.3f s)", secs);
}

static void test_budget(void) {
  ae_ctx *c = ae_ctx_new();
  CHECK(ae_ctx_status(c) == AE_STATUS_OK, "fresh status");
  ae_ctx_set_node_limit(c, ae_ctx_node_count(c) + 10);
  const ae *e = ae_dim(c, 0);
  for (int i = 1; i < 20; i++) e = ae_add(c, e, ae_mul_const(c, ae_dim(c, (uint32_t)i), 2));
  CHECK(ae_ctx_status(c) & AE_STATUS_TOO_MANY_NODES, "node limit observed");
  CHECK_STR(estr(ae_add(c, ae_dim(c, 0), ae_const(c, 1)), 0), "d0 + 1", "constructors still correct");
  ae_ctx_clear_status(c);
  ae_ctx_set_node_limit(c, 0);
  ae_ctx_set_max_depth(c, 5);
  e = ae_dim(c, 0);
  for (int i = 0; i < 6; i++) e = ae_mod_const(c, ae_add(c, e, ae_dim(c, 1)), 7);
  CHECK(ae_ctx_status(c) == AE_STATUS_TOO_DEEP, "depth limit observed");
  ae_ctx_free(c);
}

/* A scope's nodes are dropped at its end: the node count goes back, the
 * nodes made before are still found (hash-consing holds), and what the
 * scope made is made again afterwards as a new, valid node. Once with few
 * nodes (taken out of the table newest first), once with enough to grow
 * the table inside the scope (the table built again), and nested. */
static void test_scope(void) {
  for (int big = 0; big < 2; big++) {
    ae_ctx *c = ae_ctx_new();
    const ae *before = ae_add(c, ae_dim(c, 0), ae_const(c, 5));
    size_t n0 = ae_ctx_node_count(c);
    ae_ctx_scope_begin(c);
    ae_ctx_scope_begin(c); /* nested: the outer one holds */
    int n = big ? 5000 : 10;
    const ae *x = ae_dim(c, 3); /* a leaf made in the scope: its cache entry goes too */
    for (int i = 0; i < n; i++) x = ae_add(c, x, ae_mul_const(c, ae_dim(c, 1), i + 2));
    ae_ctx_scope_end(c);
    CHECK(ae_ctx_node_count(c) > n0, "the inner end keeps the scope (big %d)", big);
    CHECK(ae_add(c, ae_dim(c, 0), ae_const(c, 5)) == before, "old nodes found inside (big %d)", big);
    ae_ctx_scope_end(c);
    CHECK(ae_ctx_node_count(c) == n0, "count back to %zu: %zu (big %d)", n0, ae_ctx_node_count(c), big);
    CHECK(ae_add(c, ae_dim(c, 0), ae_const(c, 5)) == before, "old nodes found after (big %d)", big);
    CHECK(ae_ctx_node_count(c) == n0, "and not made again (big %d)", big);
    const ae *y = ae_add(c, ae_dim(c, 3), ae_mul_const(c, ae_dim(c, 1), 2));
    CHECK_STR(estr(y, 0), "d3 + d1 * 2", "made again after the scope");
    CHECK(ae_ctx_node_count(c) == n0 + 5, "as new nodes: d3, d1, 2, the product, the sum (big %d)", big);
    CHECK(ae_add(c, ae_dim(c, 3), ae_mul_const(c, ae_dim(c, 1), 2)) == y, "hash-consed again (big %d)", big);
    ae_ctx_scope_end(c); /* (an end without a begin does nothing) */
    CHECK(ae_ctx_node_count(c) == n0 + 5, "unbalanced end ignored (big %d)", big);
    ae_ctx_scope_begin(c);
    (void)ae_add(c, y, ae_const(c, 1234567));
    ae_ctx_free(c); /* freed inside a scope: nothing leaks (ASan) */
  }
}

static void test_checked(void) {
  int64_t v;
  CHECK(hb_ck_floordiv(-7, 2, &v) && v == -4, "floordiv");
  CHECK(hb_ck_floordiv(7, -2, &v) && v == -4, "floordiv neg divisor");
  CHECK(hb_ck_ceildiv(7, -2, &v) && v == -3, "ceildiv neg divisor");
  CHECK(hb_ck_mod(-7, 3, &v) && v == 2, "mod");
  CHECK(hb_ck_mod(7, -3, &v) && v == -2, "mod neg divisor");
  CHECK(!hb_ck_floordiv(INT64_MIN, -1, &v) && !hb_ck_mod(1, 0, &v) && !hb_ck_mul(INT64_MAX, 2, &v), "overflow detected");
  CHECK(hb_ck_gcd(-12, 18, &v) && v == 6 && hb_ck_gcd(0, -5, &v) && v == 5 && !hb_ck_gcd(INT64_MIN, 0, &v), "gcd");
  CHECK(hb_ck_lcm(4, 6, &v) && v == 12 && !hb_ck_lcm(INT64_MAX, 2, &v), "lcm");
}

int main(void) {
  ae_ctx *c = ae_ctx_new();
  test_constructors(c);
  test_lkd(c);
  test_term_order(c);
  test_eval(c);
  test_subst(c);
  test_dag(c);
  ae_ctx_free(c);
  test_budget();
  test_scope();
  test_checked();
  return t_finish("affine_expr");
}
