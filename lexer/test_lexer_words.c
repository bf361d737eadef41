/* Unit test of the lexer's whole-word rules (§2.9): every element type of
 * parser/hlo_ir.h lexes as HT_PRIM_TYPE with its number, every keyword as
 * its kind, and words that only start like one (or differ in case) stay
 * identifiers. Run by CTest as lexer/words. */
#include <stdbool.h>
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
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("lexer words: all passed\n");
  return 0;
}
