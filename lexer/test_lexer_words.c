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

static void expect(const char *text, hlo_tok_kind kind, int sub, size_t len) {
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, text, strlen(text), 0);
  hlo_lex(&lx, &t);
  if (t.kind != kind || (kind == HT_PRIM_TYPE && t.sub != sub) || t.len != len) {
    fprintf(stderr, "'%s': got %s sub %d len %zu, want %s sub %d len %zu\n", text, hlo_tok_kind_name(t.kind), t.sub,
            t.len, hlo_tok_kind_name(kind), sub, len);
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
  if (t.kind != kind || t.len != len || t.off != off || t.ptr != text + ptr_off || t.u != 0 || t.neg) {
    fprintf(stderr, "'%s': got %s at %zu, slice %zd+%zu; want %s at %zu, slice %zu+%zu\n", text,
            hlo_tok_kind_name(t.kind), t.off, t.ptr - text, t.len, hlo_tok_kind_name(kind), off, ptr_off, len);
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
  if (t.kind != kind || t.len != len || (kind == HT_INT && (t.u != u || t.neg != neg)) || lx.cur != text + end) {
    fprintf(stderr, "'%s': got %s len %zu value %llu end %zd, want %s len %zu value %llu end %zu\n", text,
            hlo_tok_kind_name(t.kind), t.len, (unsigned long long)t.u, lx.cur - text, hlo_tok_kind_name(kind), len,
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
  expect_at("%p=1", HT_PCT_NAME, 1, 1, 0);
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
  expect("root", HT_IDENT, 0, 4);
  expect("Entry", HT_IDENT, 0, 5);
  /* Every opcode name before its '(' (and its async shorthand forms) is
   * an IDENT, but the keywords parameter and constant: the token wrapper
   * reads opcodes from their bytes on that ground (opcode_token in
   * parser/hlo_tokwrap.c). */
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
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("lexer words: all passed\n");
  return 0;
}
