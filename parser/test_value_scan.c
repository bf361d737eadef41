/* Unit test of the generic-value fast path (value_scan.c): pc_value_scan
 * on its own, at the start of an attribute value. For each text: whether
 * the scan reads it, and then how much (the value as the grammar's gv_top
 * would take it), the kind of its last token, and that the lexer stands
 * right after the value; when it gives up, the lexer must not have moved.
 * The same for the entries of a stack-frame table (pc_stack_entries_scan).
 * The whole-parse behaviour (same results and diagnostics as token by
 * token) is checked by the goldens and by fuzz/diff_builds.sh against the
 * build before the fast path. Run by CTest as parser/value_scan. */
#include <stdlib.h>
#include <string.h>

#include "test_check.h"
#include "test_scan_ctx.h"

typedef struct {
  const char *text;  /* the bytes after 'name=' */
  const char *value; /* what the scan reads, or NULL when it must give up */
  hlo_tok_kind last; /* the kind of the value's last token */
} value_case;

static const value_case cases[] = {
    {"1, next=2", "1", HT_INT},
    {"{1,0}, metadata={}", "{1,0}", HT_RBRACE},
    {"{}\n}", "{}", HT_RBRACE},
    {"kLoop\n  %n = f32[] add(%a, %b)", "kLoop", HT_IDENT},
    {"a b c, x=1", "a b c", HT_IDENT},
    {"a b = c", "a", HT_IDENT},             /* 'b =' starts the next instruction */
    {"a ROOT b = c", "a", HT_IDENT},
    {"{[0:8], [0:16:2]}", "{[0:8], [0:16:2]}", HT_RBRACE},
    {"0_1x2_3 }", "0_1x2_3", HT_PAD},
    {"b01f_01io->b01f, x=1", "b01f_01io->b01f", HT_DIM_LABELS},
    {"f32[2]{1,0:T(8,128)} %x, y=1", "f32[2]{1,0:T(8,128)} %x", HT_PCT_NAME},
    {"{a = 1, ROOT, ENTRY}", "{a = 1, ROOT, ENTRY}", HT_RBRACE}, /* anything inside brackets */
    {"\"s\" /* c */ {2} // x\n, y=1", "\"s\" /* c */ {2}", HT_RBRACE},
    {"-inf inf 1.5e3 ... <= -> ? # * + ~ : =, x=1", "-inf inf 1.5e3 ... <= -> ? # * + ~ : =", HT_EQ},
    {"b(f32[2]) x", "b(f32[2]) x", HT_IDENT},
    {"1 @", "1", HT_INT},                   /* the bad byte is the grammar's to report */
    {"1", "1", HT_INT},                     /* the end of input follows */
    /* plain integer lists first (read from their bytes) */
    {"{1,0} {2}, x=1", "{1,0} {2}", HT_RBRACE},
    {"{0,1,2}\n  %n = f32[] add(%a, %b)", "{0,1,2}", HT_RBRACE},
    {"{} x, y=1", "{} x", HT_IDENT},
    {"{1234567890123456789,1}, x=1", "{1234567890123456789,1}", HT_RBRACE}, /* 19 digits: the lexer's */
    {"{1, 0}, x=1", "{1, 0}", HT_RBRACE},
    {"{1,0} @", "{1,0}", HT_RBRACE},
    {"{1,0},", "{1,0}", HT_RBRACE},
    {"{1,0}", "{1,0}", HT_RBRACE},
    /* left to the grammar */
    {", x=1", NULL, 0},
    {"}", NULL, 0},
    {"ROOT", NULL, 0},
    {"n = 1", NULL, 0},
    {"{1,0)", NULL, 0},
    {"(1]", NULL, 0},
    {"{1, 2", NULL, 0},
    {"{size=3x3 stride=2x2}, x=1", "{size=3x3 stride=2x2}", HT_RBRACE}, /* plain attribute names inside */
    {"{metadata={op_name=\"a\"}}", NULL, 0},   /* names whose value the wrapper reads its own way */
    {"{backend_config={}}", NULL, 0},
    {"{frontend_attributes={a=\"b\"}}", NULL, 0},
    {"{1 @}", NULL, 0},
    {"{1 \"unterminated}", NULL, 0},
    {"{1\n// -----\n}", NULL, 0},
    {"@", NULL, 0},
    {"", NULL, 0},
};

static void test_case(const value_case *c, int depth) {
  int before = failures;
  parse_ctx *P = scan_ctx_new(c->text, strlen(c->text), depth);
  hlo_token last = {0};
  const char *start = NULL;
  bool ok = pc_value_scan(P, &last, &start);
  CHECK(ok == (c->value != NULL));
  if (ok && c->value) {
    size_t n = strlen(c->value);
    const char *end = last.ptr + last.len;
    CHECK(start == c->text);
    CHECK(end == c->text + n && strncmp(c->text, c->value, n) == 0);
    CHECK(last.kind == c->last);
    CHECK(P->lx.cur == end); /* the next token is read from here */
  } else {
    CHECK(P->lx.cur == c->text);
  }
  if (failures > before) fprintf(stderr, "  in case \"%s\" (depth %d)\n", c->text, depth);
  scan_ctx_free(P);
}

/* pc_stack_entries_scan, right after an entry's number: the text after it,
 * and what the scan reads (NULL: nothing). */
static const struct {
  const char *text, *entries;
} entry_cases[] = {
    {" {file_name_id=1 line=2}\n 2 {file_name_id=2 line=3}\n\nENTRY", " {file_name_id=1 line=2}\n 2 {file_name_id=2 line=3}"},
    {" {file_location_id=1 parent_frame_id=0}\n%c", " {file_location_id=1 parent_frame_id=0}"},
    {" {a=1}\n2 {a=2}\n3 x", " {a=1}\n2 {a=2}"}, /* the third has no '{': token by token */
    {" {a=1}\n2 {a=(}", " {a=1}"},
    {" {}", " {}"},
    {" {metadata={}}", NULL},
    {" {metadata=1}", NULL}, /* (read its own way by the token wrapper: not by the byte scan either) */
    {" {a=1, backend_config=2}", NULL},
    {" {frontend_attributes=2}", NULL},
    {" {a=1,b=2}\n2 {a=-1}\n3 {a=1/*c*/ b=2}\n4 {a=0x1}", " {a=1,b=2}\n2 {a=-1}\n3 {a=1/*c*/ b=2}\n4 {a=0x1}"},
    {" {a=1}\n2 {a=1 {b=2}}", " {a=1}\n2 {a=1 {b=2}}"},
    {" {a=1,}\n2 {,a=1}\n3 {a=1,,b=2}", " {a=1,}\n2 {,a=1}\n3 {a=1,,b=2}"}, /* (the grammar's gv_inner takes these) */
    {" {a=1", NULL},
    {" x", NULL},
};

static void test_entries(void) {
  for (size_t i = 0; i < sizeof entry_cases / sizeof entry_cases[0]; i++) {
    int before = failures;
    const char *text = entry_cases[i].text, *want = entry_cases[i].entries;
    parse_ctx *P = scan_ctx_new(text, strlen(text), 0);
    const char *end = NULL;
    bool ok = pc_stack_entries_scan(P, &end);
    CHECK(ok == (want != NULL));
    if (ok && want) {
      CHECK(end == text + strlen(want) && strncmp(text, want, strlen(want)) == 0);
      CHECK(P->lx.cur == end);
    } else {
      CHECK(P->lx.cur == text);
    }
    P->depth = 1; /* only at the top level */
    hlo_lexer_init(&P->lx, P->data, P->len, 0);
    CHECK(!pc_stack_entries_scan(P, &end) && P->lx.cur == text);
    if (failures > before) fprintf(stderr, "  in entries case \"%s\"\n", text);
    scan_ctx_free(P);
  }
}

/* Brackets nested deeper than the scan or the parser allows. */
static void test_nesting(void) {
  char text[200];
  for (int n = 60; n <= 70; n++) {
    memset(text, '[', (size_t)n);
    memset(text + n, ']', (size_t)n);
    text[2 * n] = '\0';
    value_case c = {text, n <= 64 ? text : NULL, HT_RBRACKET};
    test_case(&c, 0);
  }
  value_case c = {"[[1]]", NULL, 0}; /* the second [ is a level deeper than the parser allows */
  test_case(&c, HLO_MAX_NESTING - 1);
  value_case d = {"[[1]]", "[[1]]", HT_RBRACKET};
  test_case(&d, HLO_MAX_NESTING - 2);
  /* the same for a plain integer list (read from its bytes otherwise) */
  value_case e = {"{1,0}", NULL, 0}, f = {"{1,0}", "{1,0}", HT_RBRACE};
  test_case(&e, HLO_MAX_NESTING);
  test_case(&f, HLO_MAX_NESTING - 1);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) test_case(&cases[i], 1);
  test_nesting();
  test_entries();
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
