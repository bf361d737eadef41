/* Unit test of the lexer's whole-word rules (§2.9): every element type of
 * parser/hlo_ir.h lexes as HT_PRIM_TYPE with its number, every keyword as
 * its kind, and words that only start like one (or differ in case) stay
 * identifiers. Also the tokens hlo_lex reads before running its automaton
 * (one punctuation byte, a %name, an integer): kind, slice and offset
 * after blanks, an integer's value, and the digit tokens it leaves to the
 * automaton. The next significant byte (hlo_lex_peek).
 * Run by CTest as lexer/words. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hlo_ir.h"
#include "hlo_token.h"

static int failures;

/* The first token of TEXT in *T, the lexer after it in *LX. */
static void lex_first(const char *text, hlo_lexer *lx, hlo_token *t) {
  hlo_lexer_init(lx, text, strlen(text), 0);
  hlo_lex(lx, t);
}

static void expect(const char *text, hlo_tok_kind kind, int sub, size_t len) {
  hlo_lexer lx;
  hlo_token t;
  lex_first(text, &lx, &t);
  if (t.kind != kind || (kind == HT_PRIM_TYPE && t.sub != sub) || (size_t)t.len != len) {
    fprintf(stderr, "'%s': got %s sub %d len %zu, want %s sub %d len %zu\n", text, hlo_tok_kind_name(t.kind), t.sub,
            (size_t)t.len, hlo_tok_kind_name(kind), sub, len);
    failures++;
  }
}

/* The first token of TEXT: KIND, its slice at PTR_OFF of LEN bytes, the
 * token starting at OFF. */
static void expect_at(const char *text, hlo_tok_kind kind, size_t ptr_off, size_t len, size_t off) {
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, text, strlen(text), 0);
  hlo_lex(&lx, &t);
  if (t.kind != kind || (size_t)t.len != len || t.off != off || t.ptr != text + ptr_off || (kind != HT_ERROR && t.u != 0) || t.neg) {
    fprintf(stderr, "'%s': got %s at %zu, slice %zd+%zu; want %s at %zu, slice %zu+%zu\n", text,
            hlo_tok_kind_name(t.kind), t.off, t.ptr - text, (size_t)t.len, hlo_tok_kind_name(kind), off, ptr_off, len);
    failures++;
  }
}

/* The first token of TEXT is KIND of LEN bytes, the lexer then at END;
 * for an integer, of value U (negative when NEG). */
static void expect_int(const char *text, hlo_tok_kind kind, size_t len, size_t end, uint64_t u, bool neg) {
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, text, strlen(text), 0);
  hlo_lex(&lx, &t);
  if (t.kind != kind || (size_t)t.len != len || (kind == HT_INT && (t.u != u || t.neg != neg)) || lx.cur != text + end) {
    fprintf(stderr, "'%s': got %s len %zu value %llu end %zd, want %s len %zu value %llu end %zu\n", text,
            hlo_tok_kind_name(t.kind), (size_t)t.len, (unsigned long long)t.u, lx.cur - text, hlo_tok_kind_name(kind), len,
            (unsigned long long)u, end);
    failures++;
  }
}

/* Integers that hlo_lex reads itself (digits, then a blank, a comma or a
 * closing bracket) and the digit tokens it leaves to its automaton. */
static void test_integers(void) {
  static const char follow[] = ",})] \n";
  char buf[48];
  for (const char *f = follow; *f; f++) {
    snprintf(buf, sizeof buf, "7%c", *f);
    expect_int(buf, HT_INT, 1, 1, 7, false);
    snprintf(buf, sizeof buf, "1024%c9", *f);
    expect_int(buf, HT_INT, 4, 4, 1024, false);
    snprintf(buf, sizeof buf, "999999999999999999%c", *f); /* 18 digits */
    expect_int(buf, HT_INT, 18, 18, 999999999999999999ull, false);
    snprintf(buf, sizeof buf, "18446744073709551615%c", *f); /* longer: the automaton's value */
    expect_int(buf, HT_INT, 20, 20, UINT64_MAX, false);
    snprintf(buf, sizeof buf, "18446744073709551616%c", *f); /* out of range: an error at the first digit */
    expect_int(buf, HT_ERROR, 1, 0, 0, false);
  }
  expect_int(" 12", HT_INT, 2, 3, 12, false); /* at the end of the text: left to the automaton */
  expect_int("12\t", HT_INT, 2, 2, 12, false);
  expect_int("1.5,", HT_FLOAT, 3, 3, 0, false);
  expect_int("2e3)", HT_FLOAT, 3, 3, 0, false);
  expect_int("2x3,", HT_DXD, 3, 3, 0, false);
  expect_int("1_2x3_4 ", HT_PAD, 7, 7, 0, false);
  expect_int("01_io->01,", HT_DIM_LABELS, 9, 9, 0, false);
  expect_int("-3,", HT_INT, 2, 2, 3, true);
}

static void test_fast_tokens(void) {
  static const struct {
    char c;
    hlo_tok_kind kind;
  } punct[] = {{',', HT_COMMA},     {':', HT_COLON},     {'=', HT_EQ},       {'*', HT_STAR},     {'?', HT_QUESTION},
               {'#', HT_HASH},      {'+', HT_PLUS},      {'~', HT_TILDE},    {'[', HT_LBRACKET}, {']', HT_RBRACKET},
               {'{', HT_LBRACE},    {'}', HT_RBRACE},    {'(', HT_LPAREN},   {')', HT_RPAREN}};
  char buf[16];
  for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++) {
    snprintf(buf, sizeof buf, " \n %c%c", punct[i].c, punct[i].c);
    expect_at(buf, punct[i].kind, 3, 1, 3);
    snprintf(buf, sizeof buf, "\t%c", punct[i].c);
    expect_at(buf, punct[i].kind, 1, 1, 1);
  }
  expect_at("%a", HT_PCT_NAME, 1, 1, 0);
  expect_at("\n  %add.1-b_C9(%x)", HT_PCT_NAME, 4, 10, 3);
  expect_at("%_x: f32[]", HT_PCT_NAME, 1, 2, 0);
  expect_at("%p=1", HT_NAME_DEF, 1, 1, 0);
  expect_at("%", HT_ERROR, 0, 1, 0);
  expect_at(" %9", HT_ERROR, 1, 1, 1);
  expect_at("% a", HT_ERROR, 0, 1, 0);
  expect_at("->", HT_ARROW, 0, 2, 0);
  expect_at("<=", HT_LEQ, 0, 2, 0);
  test_integers();
}

/* hlo_lex_peek: the next significant byte and its place, after blanks
 * and comments (its inline part takes at most one space). */
static void test_peek(void) {
  static const struct {
    const char *text;
    size_t at;
  } cases[] = {{"=", 0}, {" =", 1}, {"  =", 2}, {"\t=", 1}, {" \n =", 3}, {" /* c */ =", 9},
               {"/* c */=", 7}, {" // c\n=", 6}, {" /", 1}, {" /x", 1}, {"", 0}, {" ", 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hlo_lexer lx;
    const char *at = NULL;
    const char *text = cases[i].text;
    hlo_lexer_init(&lx, text, strlen(text), 0);
    char c = hlo_lex_peek(&lx, &at);
    if (at != text + cases[i].at || c != text[cases[i].at] || lx.cur != text) {
      fprintf(stderr, "peek '%s': got %zd, want %zu\n", text, at ? at - text : -1, cases[i].at);
      failures++;
    }
  }
}

/* An instruction's name: a name, blanks and '=' on its line are one
 * HT_NAME_DEF token (the slice is the name, the lexer then after '='); a
 * name directly followed by '=' is an attribute name. */
static void test_name_defs(void) {
  static const struct {
    const char *text;
    hlo_tok_kind kind;
    size_t ptr_off, len, end;
  } cases[] = {
      {"p = f32[]", HT_NAME_DEF, 0, 1, 3},        {"p\t= x", HT_NAME_DEF, 0, 1, 3},
      {"%add.1  =", HT_NAME_DEF, 1, 5, 9},       {"%a=b", HT_NAME_DEF, 1, 1, 3},
      {"constant = x", HT_NAME_DEF, 0, 8, 10},   {"ROOT = x", HT_NAME_DEF, 0, 4, 6},
      {"p=1", HT_ATTR_NAME, 0, 1, 2},            {"p\n= x", HT_IDENT, 0, 1, 1},
      {"%p\n= x", HT_PCT_NAME, 1, 1, 2},        {"p ==", HT_NAME_DEF, 0, 1, 3},
      {"f32 = x", HT_NAME_DEF, 0, 3, 5},         {"p (", HT_IDENT, 0, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *text = cases[i].text;
    hlo_lexer lx;
    hlo_token t;
    lex_first(text, &lx, &t);
    if (t.kind != cases[i].kind || t.ptr != text + cases[i].ptr_off || (size_t)t.len != cases[i].len || t.off != 0 ||
        lx.cur != text + cases[i].end) {
      fprintf(stderr, "'%s': got %s slice %zd+%zu end %zd\n", text, hlo_tok_kind_name(t.kind), t.ptr - text, (size_t)t.len,
              lx.cur - text);
      failures++;
    }
  }
}

/* A glog prefix at the start of a line is blank (XLA's loader strips it
 * too); elsewhere its first word is a name. */
static void test_log_prefixes(void) {
  static const struct {
    const char *text;
    hlo_tok_kind kind;
    size_t off, len;
  } cases[] = {
      {"I0521 12:04:45.883483    1509 service.cc:186] HloModule m", HT_KW_HLOMODULE, 46, 9},
      {"x\nW1231 23:59:59.1 7 a/b c.cc:9]ENTRY", HT_IDENT, 0, 1},
      {"\nW1231 23:59:59.1 7 a/b c.cc:9]ENTRY", HT_KW_ENTRY, 31, 5},
      {"\r\nE0101 00:00:00.000000 1 f.cc:1] %x", HT_PCT_NAME, 34, 1},
      {" I0521 12:04:45.883483 1509 service.cc:186] x", HT_IDENT, 1, 5},
      {"F0521 12:04:45.883483 1509 service.cc:186 x", HT_IDENT, 0, 5},
      {"I0521 12:04:45 1509 s.cc:1] x", HT_IDENT, 0, 5},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *text = cases[i].text;
    hlo_lexer lx;
    hlo_token t;
    lex_first(text, &lx, &t);
    if (t.kind != cases[i].kind || t.off != cases[i].off || (size_t)t.len != cases[i].len) {
      fprintf(stderr, "log prefix case %zu: got %s at %zu len %zu\n", i, hlo_tok_kind_name(t.kind), t.off, (size_t)t.len);
      failures++;
    }
  }
}

/* hlo_lex_metadata: the usual spellings are one token (from '{' to '}'),
 * anything else is left to the grammar (nothing consumed). */
static void test_metadata(void) {
  static const struct {
    const char *text;
    size_t len; /* 0: not taken */
  } cases[] = {
      {"{}", 2},
      {" {op_type=\"Add\" op_name=\"a/b\\\"c\" source_file=\"x.py\" source_line=12}", 66},
      {"{op_name=\"x\", stack_frame_id=3}", 31},
      {"{profile_type={1,2} deduplicated_name=\"d\"}", 42},
      {"{{op_name=\"a\"}, {op_name=\"b\"}}", 30},
      {"{op_name=\"x\",}", 0},       /* XLA rejects a ',' after the last field */
      {"{,op_name=\"x\"}", 0},       /* XLA takes this one: left to the grammar */
      {"{op_name=\"\\x41\"}", 0},  /* escapes of more than one letter */
      {"{source_line=1234567890123456789}", 0},
      {"{op_name=x}", 0},
      {"{op_name=\"x\" /* c */}", 0},
      {"{op_name=\"x\"", 0},
      {"op_name=\"x\"", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *text = cases[i].text;
    hlo_lexer lx;
    hlo_token t;
    hlo_lexer_init(&lx, text, strlen(text), 0);
    bool taken = hlo_lex_metadata(&lx, &t);
    size_t start = strspn(text, " ");
    bool ok = cases[i].len ? taken && t.kind == HT_METADATA && t.off == start && (size_t)t.len == cases[i].len &&
                                 lx.cur == text + start + cases[i].len
                           : !taken && lx.cur == text;
    if (!ok) {
      fprintf(stderr, "metadata '%s': taken %d len %zu, want %zu\n", text, taken, taken ? (size_t)t.len : 0, cases[i].len);
      failures++;
    }
  }
}

/* hlo_lex_int_brace after the '{' token: plain integers or slice ranges
 * and '}' make one token; anything else leaves the '{' as it was. */
static void test_int_brace(void) {
  static const struct {
    const char *text;
    size_t len; /* 0: not taken */
    hlo_tok_kind kind;
  } cases[] = {
      {"{}", 2, HT_INT_LIST},
      {"{1,0}", 5, HT_INT_LIST},
      {"{0}, x", 3, HT_INT_LIST},
      {"{123456789012345678}", 20, HT_INT_LIST},
      {"{1234567890123456789}", 0, 0}, /* 19 digits: the INT token's range check decides */
      {"{1,}", 0, 0},
      {"{,1}", 0, 0},
      {"{1, 0}", 0, 0},
      {"{ 1}", 0, 0},
      {"{-1}", 0, 0},
      {"{1,0:T(8,128)}", 0, 0},
      {"{1", 0, 0},
      {"{1/* c */}", 0, 0},
      {"{[0:8]}", 7, HT_SLICES},
      {"{[0:10], [2:25:3]},", 18, HT_SLICES},
      {"{[0:1],[2:3]}", 13, HT_SLICES},
      {"{[0:1] , [2:3]}", 0, 0},
      {"{[0:1],\n[2:3]}", 0, 0},
      {"{[0:1], [2:3]", 0, 0},
      {"{[0:1:2:3]}", 0, 0},
      {"{[0]}", 0, 0},
      {"{[-1:2]}", 0, 0},
      {"{[0:1234567890123456789]}", 0, 0},
      {"{[]}", 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *text = cases[i].text;
    hlo_lexer lx;
    hlo_token t;
    hlo_lexer_init(&lx, text, strlen(text), 0);
    hlo_lex(&lx, &t);
    bool taken = hlo_lex_int_brace(&lx, &t);
    bool ok = cases[i].len ? taken && t.kind == cases[i].kind && t.off == 0 && t.ptr == text &&
                                 (size_t)t.len == cases[i].len && lx.cur == text + cases[i].len
                           : !taken && t.kind == HT_LBRACE && t.len == 1 && lx.cur == text + 1;
    if (!ok) {
      fprintf(stderr, "int brace '%s': taken %d len %zu, want %zu\n", text, taken, (size_t)t.len, cases[i].len);
      failures++;
    }
  }
}

static bool is_type_name(const char *s) {
  for (int k = HLO_ELEM_INVALID + 1; k < HLO_TUPLE; k++)
    if (strcmp(s, hlo_elem_type_name((hlo_elem_type)k)) == 0) return true;
  return false;
}

int main(void) {
  char buf[64];
  for (int k = HLO_ELEM_INVALID + 1; k < HLO_TUPLE; k++) {
    const char *name = hlo_elem_type_name((hlo_elem_type)k);
    size_t n = strlen(name);
    expect(name, HT_PRIM_TYPE, k, n);
    snprintf(buf, sizeof buf, "%s[2]", name); /* the word ends at '[' */
    expect(buf, HT_PRIM_TYPE, k, n);
    snprintf(buf, sizeof buf, "%sx", name); /* longer words are names */
    expect(buf, HT_IDENT, 0, n + 1);
    snprintf(buf, sizeof buf, "%s.1", name);
    expect(buf, HT_IDENT, 0, n + 2);
    snprintf(buf, sizeof buf, "%s:", name);
    expect(buf, HT_NAME_COLON, 0, n);
    snprintf(buf, sizeof buf, "%s=", name);
    expect(buf, HT_ATTR_NAME, 0, n);
    snprintf(buf, sizeof buf, "%.*s", (int)n - 1, name); /* a prefix, unless a type itself (s1 of s16) */
    if (n > 1 && !is_type_name(buf)) expect(buf, HT_IDENT, 0, n - 1);
  }
  expect("opaque_type", HT_PRIM_TYPE, HLO_OPAQUE, 11);
  expect("F32", HT_IDENT, 0, 3);
  expect("nan", HT_FLOAT, 0, 3);
  expect("nanx", HT_IDENT, 0, 4);
  static const struct {
    const char *word;
    hlo_tok_kind kind;
  } kws[] = {
      {"true", HT_KW_TRUE}, {"false", HT_KW_FALSE}, {"inf", HT_KW_INF}, {"HloModule", HT_KW_HLOMODULE},
      {"ENTRY", HT_KW_ENTRY}, {"ROOT", HT_KW_ROOT}, {"FileNames", HT_KW_FILENAMES},
      {"FunctionNames", HT_KW_FUNCTIONNAMES}, {"FileLocations", HT_KW_FILELOCATIONS},
      {"StackFrames", HT_KW_STACKFRAMES}, {"maximal", HT_KW_MAXIMAL}, {"replicated", HT_KW_REPLICATED},
      {"manual", HT_KW_MANUAL}, {"unknown", HT_KW_UNKNOWN}, {"unreduced", HT_KW_UNREDUCED},
      {"last_tile_dim_replicate", HT_KW_LAST_TILE_DIM_REPLICATE}, {"shard_as", HT_KW_SHARD_AS},
      {"shard_like", HT_KW_SHARD_LIKE}, {"constant", HT_KW_CONSTANT}, {"parameter", HT_KW_PARAMETER},
  };
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
    size_t n = strlen(kws[i].word);
    expect(kws[i].word, kws[i].kind, 0, n);
    snprintf(buf, sizeof buf, "%s_", kws[i].word);
    expect(buf, HT_IDENT, 0, n + 1);
    snprintf(buf, sizeof buf, "%.*s", (int)n - 1, kws[i].word);
    expect(buf, HT_IDENT, 0, n - 1);
  }
  /* hlo_lex reads a word as a name only when lex_dfa would: every keyword,
   * element type and the like passes the filter (and is looked up, or left
   * to lex_dfa) */
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
    if (!hlo_lex_word_maybe_special(kws[i].word, strlen(kws[i].word))) {
      fprintf(stderr, "'%s' is not left to lex_dfa\n", kws[i].word);
      failures++;
    }
  static const char *const more[] = {"nan", "b", "opaque_type", "I0521", "W1231", "E0101", "F0521"};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    if (!hlo_lex_word_maybe_special(more[i], strlen(more[i]))) {
      fprintf(stderr, "'%s' is not left to lex_dfa\n", more[i]);
      failures++;
    }
  for (int k = HLO_ELEM_INVALID + 1; k < HLO_TUPLE; k++) {
    const char *name = hlo_elem_type_name((hlo_elem_type)k);
    if (!hlo_lex_word_maybe_special(name, strlen(name))) {
      fprintf(stderr, "'%s' is not left to lex_dfa\n", name);
      failures++;
    }
    snprintf(buf, sizeof buf, "%s(x)", name); /* before '(' too */
    expect(buf, HT_PRIM_TYPE, k, strlen(name));
  }
  /* names before the bytes that end them: the same tokens as lex_dfa's */
  expect("add.1-b_C9(x)", HT_IDENT, 0, 10);
  expect("p0,", HT_IDENT, 0, 2);
  expect("x}", HT_IDENT, 0, 1);
  expect("x@", HT_IDENT, 0, 1);
  expect("b01f_01io->b01f,", HT_DIM_LABELS, 0, 15);
  expect("L.1@2:4,", HT_IDENT, 0, 7);
  expect("b(f32[2])", HT_B_PAREN, 0, 1);
  expect("bb(x)", HT_IDENT, 0, 2);
  expect("nan(0x12)", HT_FLOAT, 0, 9);
  expect("pred[2]", HT_PRIM_TYPE, HLO_PRED, 4);
  expect("predx[2]", HT_IDENT, 0, 5);
  expect("true[", HT_KW_TRUE, 0, 4);
  expect("root", HT_IDENT, 0, 4);
  expect("Entry", HT_IDENT, 0, 5);
  /* Every opcode name before its '(' (and its async shorthand forms) is
   * an IDENT, but the keywords parameter and constant (the grammar's rhs
   * has a rule for each). */
  for (int op = HLO_OP_UNKNOWN + 1; op < HLO_OP_COUNT; op++) {
    const char *name = hlo_opcode_name((hlo_opcode)op);
    size_t n = strlen(name);
    hlo_tok_kind k = op == HLO_OP_PARAMETER ? HT_KW_PARAMETER : op == HLO_OP_CONSTANT ? HT_KW_CONSTANT : HT_IDENT;
    snprintf(buf, sizeof buf, "%s(x)", name);
    expect(buf, k, 0, n);
    snprintf(buf, sizeof buf, "%s-start(x)", name);
    expect(buf, HT_IDENT, 0, n + 6);
  }
  test_fast_tokens();
  test_peek();
  test_name_defs();
  test_log_prefixes();
  test_metadata();
  test_int_brace();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("lexer words: all passed\n");
  return 0;
}
