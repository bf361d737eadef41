/* Printer (§2.1-§2.6) and reader (§2.8): the §2.4 table, headers, whole
 * maps, instruction indexing, reader leniencies and errors, round trips. */
#include "test_util.h"

/* §2.4 table, verbatim. */
static const char *const print_rows[][2] = {
    {"Add(Mul(d0, 8), d1)", "d0 * 8 + d1"},
    {"Add(d1, -5)", "d1 - 5"},
    {"Add(Mul(d1, -1), 16)", "-d1 + 16"},
    {"Add(d0, Mul(s0, -1))", "d0 - s0"},
    {"Add(d0, Mul(Add(d1, d2), -1))", "d0 - (d1 + d2)"},
    {"Add(d0, Mul(Mod(d1, 3), -1))", "d0 - d1 mod 3"},
    {"Add(d0, Mul(d1, -4))", "d0 - d1 * 4"},
    {"Add(d0, Mul(Mod(d1, 3), -4))", "d0 - (d1 mod 3) * 4"},
    {"FloorDiv(Add(d0, -1), 2)", "(d0 - 1) floordiv 2"},
    {"Mod(Add(Mul(d0, 8), d1), 16)", "(d0 * 8 + d1) mod 16"},
    {"FloorDiv(Mod(Add(Mul(d0,8),d1),16), 4)", "((d0 * 8 + d1) mod 16) floordiv 4"},
    {"Mul(Mod(d1, 2), 4)", "(d1 mod 2) * 4"},
    {"Add(Mul(d0, 2), FloorDiv(d1, 2))", "d0 * 2 + d1 floordiv 2"},
    {"Mod(Mul(d0, -1), 2)", "(-d0) mod 2"},
    {"Mul(Add(Mul(s0,6),3), s2)", "(s0 * 6 + 3) * s2"},
    {"Add(d0, Add(Mul(Mod(s0,3),4), Mul(s0,3)))", "d0 + (s0 mod 3) * 4 + s0 * 3"},
    {"Add(Add(Mul(d0,2), s0), -1)", "d0 * 2 + s0 - 1"},
    {"Mul(d0, -1)", "-d0"},
    {"Constant(-7)", "-7"},
    /* more of our own */
    {"CeilDiv(d0, 4)", "d0 ceildiv 4"},
    {"Add(d0, -9223372036854775808)", "d0 - 9223372036854775808"},
    {"Add(d0, Mul(d1, -9223372036854775808))", "d0 - d1 * 9223372036854775808"},
    {"Mul(Mul(d0, -1), -1)", "-(-d0)"},
    {"Add(Add(d0, d1), Add(d2, s0))", "d0 + d1 + d2 + s0"},
    {"Mod(Mod(d0, 6), 4)", "(d0 mod 6) mod 4"},
    {"Add(d0, Mul(Add(d1, d2), -3))", "d0 - (d1 + d2) * 3"},
};

static void test_expr_printer(ae_ctx *c) {
  for (size_t i = 0; i < sizeof print_rows / sizeof *print_rows; i++) {
    const ae *e = sx(c, print_rows[i][0]);
    CHECK_STR(estr(e, 8), print_rows[i][1], print_rows[i][0]);
    /* read back: the text is a fixed point after one round trip (INT64_MIN
     * magnitudes cannot be read back, as in MLIR) */
    if (strstr(print_rows[i][1], "9223372036854775808")) continue;
    const ae *r = rx(c, estr(e, 8));
    CHECK_STR(estr(r, 8), estr(rx(c, estr(r, 8)), 8), "read/print fixed point");
  }
  /* canonical trees (built by the constructors) read back as the same node */
  static const char *const canon[] = {"d0 * 8 + d1", "d1 - 5", "-d1 + 16", "d0 - s0", "d0 - (d1 + d2)",
                                      "d0 - d1 mod 3", "d0 - d1 * 4", "d0 - (d1 mod 3) * 4",
                                      "(d0 - 1) floordiv 2", "((d0 * 8 + d1) mod 16) floordiv 4",
                                      "(d1 mod 2) * 4", "d0 * 2 + d1 floordiv 2", "(-d0) mod 2",
                                      "(s0 * 6 + 3) * s2", "d0 * 2 + s0 - 1", "-d0", "-7", "d1 * -4"};
  for (size_t i = 0; i < sizeof canon / sizeof *canon; i++) {
    const ae *e = rx(c, canon[i]);
    CHECK_STR(estr(e, 8), canon[i], "canonical print");
    CHECK(rx(c, estr(e, 8)) == e, "print -> read gives the same node: %s", canon[i]);
  }
  /* symbol names depend on the number of range variables (§2.1) */
  const ae *e = ae_add(c, ae_add(c, ae_sym(c, 0), ae_sym(c, 1)), ae_sym(c, 2));
  CHECK_STR(estr(e, 2), "s0 + s1 + rt0", "rt naming");
  CHECK_STR(estr(e, 0), "rt0 + rt1 + rt2", "rt naming without range vars");
}

/* Reader shorthand of XLA's docs and MLIR forms. */
static void test_reader_exprs(ae_ctx *c) {
  static const char *const rows[][2] = {
      {"100d0 + 10d1 + d2", "d0 * 100 + d1 * 10 + d2"},
      {"2 * d0", "d0 * 2"},
      {"d0 floorDiv 4", "d0 floordiv 4"},
      {"d0 ceilDiv 4", "d0 ceildiv 4"},
      {"-(-11d0 - d1 + 109) floordiv 11 + 9", "-((d0 * -11 - d1 + 109) floordiv 11) + 9"},
      {"d0 * -2", "d0 * -2"},
      {"d0 - -3", "d0 + 3"},
      {"(d0)", "d0"},
      {"d0 + 4 - 4", "d0"},
      {"s0 * s1", "s0 * s1"},
      {"3 - d0", "-d0 + 3"},
      {"d0 mod s0", "d0 mod s0"},
      {"  d0\n +\t// comment\n d1 ", "d0 + d1"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) CHECK_STR(estr(rx(c, rows[i][0]), 8), rows[i][1], rows[i][0]);
}

typedef struct {
  const char *text;
  size_t offset;
  const char *message;
} err_row;

static void test_reader_errors(ae_ctx *c) {
  static const err_row rows[] = {
      {"(d0) -> (d0 + x), domain: d0 in [0, 9]", 14, "unknown identifier 'x'"},
      {"(d0) -> (d0)", 12, "expected ', domain:' and the variable intervals, found end of input"},
      {"(d0, d1) -> (d0), domain: d1 in [0, 9], d0 in [0, 3]", 26, "expected the interval of 'd0', found 'd1'"},
      {"(d0, d1) -> (d0 * d1), domain: d0 in [0, 9], d1 in [0, 3]", 16,
       "non-affine expression: at least one operand of '*' must be free of dimensions"},
      {"(d0, d1) -> (d0 mod d1), domain: d0 in [0, 9], d1 in [0, 3]", 16,
       "non-affine expression: the right operand of 'mod' must be free of dimensions"},
      {"(d0) -> (d0), domain: d0 in [0, 99999999999999999999]", 32, "integer out of range"},
      {"(d0) -> (d0), domain: d0 in [0, 9] d0 + 1", 41, "expected 'in' after a constraint expression, found end of input"},
      {"(d0, d0) -> (d0)", 5, "variable 'd0' declared twice"},
      {"(d0) -> (d0 +), domain: d0 in [0, 9]", 13, "expected an expression, found ')'"},
      {"(d0) -> (d0) $", 13, "expected ', domain:' and the variable intervals, found '$'"},
      {"(d0) -> (d0), domain: d0 in [0, 9] garbage", 35, "unknown identifier 'garbage'"},
      {"KNOWN EMPTY", 0, "a KNOWN EMPTY map cannot be read: its variables are not printed"},
      {"() -> (1) x", 10, "expected ', domain:' or the end of the map, found 'x'"},
      {"(d0) -> (9223372036854775808), domain: d0 in [0, 9]", 9, "integer literal out of range"},
      {"(d0 -> (d0)", 4, "expected ',' or ')', found '->'"},
  };
  hb_arena *a = hb_arena_new();
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    map_read_error err;
    imap *m = map_read(a, c, rows[i].text, 0, strlen(rows[i].text), &err);
    CHECK(!m, "rejected: %s", rows[i].text);
    if (m) continue;
    CHECK(err.offset == rows[i].offset, "offset of '%s': %zu, want %zu", rows[i].text, err.offset, rows[i].offset);
    CHECK_STR(err.message, rows[i].message, rows[i].text);
  }
  /* nesting limit */
  hb_strbuf deep = HB_STRBUF_INIT;
  hb_sb_puts(&deep, "(d0) -> (");
  for (int i = 0; i < 300; i++) hb_sb_putc(&deep, '(');
  hb_sb_puts(&deep, "d0");
  for (int i = 0; i < 300; i++) hb_sb_putc(&deep, ')');
  hb_sb_puts(&deep, "), domain: d0 in [0, 9]");
  map_read_error err;
  CHECK(!map_read(a, c, deep.data, 0, deep.len, &err) && strstr(err.message, "nested too deeply"), "nesting limit");
  hb_sb_free(&deep);
  hb_arena_free(a);
}

/* Whole maps: the reader accepts the text and the printer reproduces it
 * (single-line form of §2.3). */
static void test_maps(ae_ctx *c) {
  static const char *const same[] = {
      "(d0, d1) -> (d1, d0), domain: d0 in [0, 9], d1 in [0, 19]",
      "()[s0, s1] -> (s0, s1), domain: s0 in [0, 1], s1 in [0, 2]",
      "(d0, d1, d2) -> (), domain: d0 in [0, 1], d1 in [0, 5], d2 in [0, 2]",
      "(d0)[s0]{rt0, rt1} -> (d0 + s0 + rt0, rt1), domain: d0 in [0, 9], s0 in [0, 2], rt0 in [0, 7], rt1 in [-5, -1]",
      "() -> ()",
      "() -> (5)",
      "(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 9], rt0 in [0, 7]",
      "(d0)[s0] -> (d0 * 2 + s0 - 1), domain: d0 in [0, 4], s0 in [0, 2], d0 * 2 + s0 in [1, 10]",
      "(d0) -> ((d0 - 2) floordiv 5), domain: d0 in [2, 12], (d0 - 2) mod 5 in [0, 0]",
      /* constraints sorted by strcmp: '(' < 'd' and d0 < d1 */
      "(d0, d1)[s0] -> (d0), domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 3], (d1 - 3) mod 7 in [0, 2], d0 * 2 + s0 in [0, 9], d1 + s0 in [1, 4]",
      "UNDEFINED",
  };
  hb_arena *a = hb_arena_new();
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) CHECK_STR(mstr(rd(a, c, same[i])), same[i], "map round trip");
  /* constraint order does not depend on insertion order */
  imap *m1 = rd(a, c, "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d1 mod 3 in [0, 1], d0 mod 4 in [0, 1]");
  CHECK_STR(mstr(m1), "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 mod 4 in [0, 1], d1 mod 3 in [0, 1]",
            "sorted constraints");
  /* leniencies: multi-line layout, trailing comma, no commas, is_simplified */
  static const char *const lenient[][2] = {
      {"(d0, d1) -> (d0, d1),\n  domain:\n  d0 in [0, 9],\n  d1 in [0, 19]\n", "(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 19]"},
      {"(d0) -> (d0), domain: d0 in [0, 9], d0 mod 2 in [0, 0],", "(d0) -> (d0), domain: d0 in [0, 9], d0 mod 2 in [0, 0]"},
      {"(d0) -> (d0)\ndomain:\nd0 in [0, 9]\nd0 mod 2 in [0, 0]\n", "(d0) -> (d0), domain: d0 in [0, 9], d0 mod 2 in [0, 0]"},
      {"(d0) -> (d0), domain: d0 in [0, 9], is_simplified: false", "(d0) -> (d0), domain: d0 in [0, 9]"},
      {"(th_x, th_y)[chunk] -> (th_x + chunk), domain: th_x in [0, 3], th_y in [0, 1], chunk in [0, 7]",
       "(d0, d1)[s0] -> (d0 + s0), domain: d0 in [0, 3], d1 in [0, 1], s0 in [0, 7]"},
      /* constraints go through §1.3: bare variables narrow, constants are checked */
      {"(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 9], d0 in [2, 20], s0 in [-1, 3], 5 in [0, 9]",
       "(d0)[s0] -> (d0), domain: d0 in [2, 9], s0 in [0, 3]"},
      {"(d0) -> (d0), domain: d0 in [0, 9], 5 in [6, 9]", "KNOWN EMPTY"},
      {"(d0) -> (d0), domain: d0 in [0, 9], d0 mod 2 in [1, 0]", "KNOWN EMPTY"},
      {"(d0) -> (d0), domain: d0 in [0, -1]", "KNOWN EMPTY"},
      {"(d0) -> (d0), domain: d0 in [0, 9], d0 mod 3 in [0, 1], d0 mod 3 in [1, 2]",
       "(d0) -> (d0), domain: d0 in [0, 9], d0 mod 3 in [1, 1]"},
  };
  for (size_t i = 0; i < sizeof lenient / sizeof *lenient; i++)
    CHECK_STR(mstr(rd(a, c, lenient[i][0])), lenient[i][1], lenient[i][0]);

  /* multi-line layout: same characters once whitespace is removed */
  imap *m = rd(a, c, "(d0, d1)[s0] -> (d0 + s0, d1), domain: d0 in [0, 9], d1 in [0, 19], s0 in [0, 2], d0 + s0 in [0, 10]");
  hb_strbuf b = HB_STRBUF_INIT;
  map_print_opts ml = {true, 2};
  map_print(&b, m, &ml);
  CHECK_STR(hb_sb_str(&b),
            "  (d0, d1)[s0] -> (d0 + s0, d1),\n  domain:\n  d0 in [0, 9],\n  d1 in [0, 19],\n  s0 in [0, 2],\n  d0 + s0 in [0, 10]",
            "multi-line layout");
  CHECK_STR(nows(hb_sb_str(&b)), nows(mstr(m)), "multi-line == single-line without whitespace");
  hb_sb_free(&b);
  /* known-empty keeps counts; prints KNOWN EMPTY */
  imap *e = rd(a, c, "(d0, d1)[s0]{rt0} -> (d0, s0), domain: d0 in [0, 9], d1 in [0, -1], s0 in [0, 2], rt0 in [1, 3]");
  CHECK(e->known_empty && e->nresults == 2 && e->ndims == 2 && e->nrange == 1 && e->nrt == 1, "known-empty counts");
  CHECK(e->sym_iv[1].lo == 1 && e->sym_iv[1].hi == 3 && e->sym_iv[0].hi == -1, "rt intervals untouched");
  CHECK_STR(mstr(e), "KNOWN EMPTY", "known-empty print");
  hb_arena_free(a);
}

/* §2.5, §2.6, §8.4 (V2 runtime-variable text). */
static void test_instruction_indexing(ae_ctx *c) {
  hb_arena *a = hb_arena_new();
  imap *op0 = rd(a, c, "(d0, d1){rt0, rt1} -> (d0 + rt0, d1 + rt1), domain: d0 in [0, 2], d1 in [0, 7], rt0 in [0, 7], rt1 in [0, 0]");
  imap *sc = rd(a, c, "(d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 7]");
  map_rt_desc rts[] = {{"parameter(1)", sc}, {"parameter(2)", sc}};
  imap *undef = imap_new_undefined(a, c);
  imap *empty = rd(a, c, "(d0) -> (d0), domain: d0 in [0, -1]");
  for (int ml = 0; ml < 2; ml++) {
    map_print_opts o = {ml != 0, 0};
    hb_strbuf b = HB_STRBUF_INIT;
    map_print_operand_header(&b, 0, &o);
    map_print_indexing(&b, op0, rts, 2, NULL, &o);
    map_print_operand_header(&b, 1, &o);
    map_print_indexing(&b, sc, NULL, 0, NULL, &o);
    map_print_operand_header(&b, 2, &o);
    map_print_indexing(&b, undef, NULL, 0, NULL, &o);
    map_print_operand_header(&b, 3, &o);
    map_print_indexing(&b, empty, NULL, 0, NULL, &o);
    const char *want =
        "operand id = 0 (d0, d1){rt0, rt1} -> (d0 + rt0, d1 + rt1), domain: d0 in [0, 2], d1 in [0, 7], rt0 in [0, 7], rt1 in [0, 0]\n"
        "runtime variables:\n"
        "\n"
        "rt0: parameter(1); (d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 7]\n"
        "rt1: parameter(2); (d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 7]\n"
        "operand id = 1 (d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 7]\n"
        "operand id = 2 unknown indexing\n"
        "operand id = 3 KNOWN EMPTY\n";
    if (ml) CHECK_STR(nows(hb_sb_str(&b)), nows(want), "instruction indexing, multi-line");
    else CHECK_STR(hb_sb_str(&b), want, "instruction indexing, XLA's exact text");
    hb_sb_free(&b);
  }
  /* replica id section (§2.6, late 2025+) */
  imap *ag = rd(a, c, "(d0, d1) -> (d0, d1 mod 128), domain: d0 in [0, 127], d1 in [0, 255]");
  imap *rep = rd(a, c, "(d0, d1) -> (d1 floordiv 128), domain: d0 in [0, 127], d1 in [0, 255]");
  hb_strbuf b = HB_STRBUF_INIT;
  map_print_opts o = {true, 2};
  map_print_operand_header(&b, 0, NULL);
  map_print_indexing(&b, ag, NULL, 0, rep, &o);
  CHECK_STR(nows(hb_sb_str(&b)),
            nows("operand id = 0 (d0, d1) -> (d0, d1 mod 128), domain: d0 in [0, 127], d1 in [0, 255] replica id: "
                 "(d0, d1) -> (d1 floordiv 128), domain: d0 in [0, 127], d1 in [0, 255]"),
            "replica id");
  hb_sb_free(&b);
  hb_arena_free(a);
}

/* map_text_order: numbers as numbers, an expression that ends first. */
static void test_text_order(void) {
  static const char *const sorted[] = {
      "(d0) -> (d0 * 4), domain: d0 in [0, 3]",
      "(d0) -> (d0 * 4 + 1), domain: d0 in [0, 3]",
      "(d0) -> (d0 * 4 + 2), domain: d0 in [0, 3]",
      "(d0) -> (d0 * 4 + 10), domain: d0 in [0, 3]",
      "(d0) -> (d0 * 16), domain: d0 in [0, 3]",
      "(d0, d1) -> (d1 * 4, d0), domain: d0 in [0, 3], d1 in [0, 1]",
      "(d0, d1) -> (d1 * 4 + 1, d0), domain: d0 in [0, 3], d1 in [0, 1]",
      "(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10) -> (d9)",
      "(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10) -> (d10)",
  };
  size_t n = sizeof sorted / sizeof *sorted;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      int r = map_text_order(sorted[i], sorted[j]);
      CHECK((i < j && r < 0) || (i == j && r == 0) || (i > j && r > 0), "order of\n  %s\n  %s: %d", sorted[i],
            sorted[j], r);
    }
  CHECK(map_text_order("(d0) -> (d0 + 007)", "(d0) -> (d0+7)") == 0, "leading zeros and blanks are ties");
}

int main(void) {
  test_text_order();
  ae_ctx *c = ae_ctx_new();
  test_expr_printer(c);
  test_reader_exprs(c);
  test_reader_errors(c);
  test_maps(c);
  test_instruction_indexing(c);
  ae_ctx_free(c);
  return t_finish("print_read");
}
