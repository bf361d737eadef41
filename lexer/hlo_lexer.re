/* re2c lexer for the HLO text format (shared/docs/hlo-text-format.md §2).
 *
 * The input buffer ends with a NUL sentinel (data[len] == '\0'); no rule
 * consumes a NUL except the sentinel rule, so the scanner never reads past
 * it. Tokens are slices of the buffer; nothing is allocated. */
#include "hlo_token.h"

#include "byte_scan.h"
#include "elem_types.h"

#include <string.h>

void hlo_lexer_init(hlo_lexer *lx, const char *data, size_t len, size_t start) {
  lx->base = data;
  lx->lim = data + len;
  lx->cur = data + (start <= len ? start : len);
}

/* ---- helpers ------------------------------------------------------------ */

static void set_error(hlo_token *t, const char *at, const char *base, const char *msg) {
  t->kind = HT_ERROR;
  t->ptr = at;
  t->len = 1;
  t->off = (size_t)(at - base);
  t->msg = msg;
}

/* An HT_NAME_DEF token whose name starts at NAME (an id; the rule read
 * blanks and '=' after it). */
static void name_def(hlo_token *t, const char *name, const char *base) {
  const char *e = name;
  while (*e != ' ' && *e != '\t' && *e != '=') e++;
  t->kind = HT_NAME_DEF;
  t->ptr = name;
  t->len = (size_t)(e - name);
  t->off = (size_t)(name - base) - (name > base && name[-1] == '%');
}

/* Parses the digits of an INT token with range checks (§2.4). */
static int int_value(hlo_token *t) {
  const char *p = t->ptr, *e = t->ptr + t->len;
  t->neg = false;
  if (*p == '-') {
    t->neg = true;
    p++;
  }
  uint64_t v = 0;
  for (; p < e; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  if (t->neg && v > (uint64_t)1 << 63) return 0;
  t->u = v;
  return 1;
}

/* A line comment starting at TOK that is exactly "// -----" (trailing blanks
 * allowed) at the start of its line. */
static int is_separator(const char *base, const char *tok, const char *end) {
  if (tok != base && tok[-1] != '\n' && tok[-1] != '\r') return 0;
  while (end > tok && (end[-1] == ' ' || end[-1] == '\t')) end--;
  return end - tok == 8 && memcmp(tok, "// -----", 8) == 0;
}

/* Skips a block comment whose "/ *" ends right before P. Returns the byte
 * after the closing "* /", or NULL if the comment is not terminated (or a
 * NUL byte is inside it; *nul is then set). */
static const char *skip_block_comment(const char *p, const char *lim, int *nul) {
  *nul = 0;
  for (;;) {
    char c = *p;
    if (c == '*' && p[1] == '/') return p + 2;
    if (c == '\0') {
      if (p < lim) *nul = 1;
      return NULL;
    }
    p++;
  }
}

/* Describes why the string literal starting at Q (a quote) is malformed. */
static void string_error(hlo_token *t, const char *q, const char *base, const char *lim) {
  char quote = *q;
  const char *p = q + 1;
  for (;;) {
    char c = *p;
    if (c == '\0') {
      if (p < lim)
        set_error(t, p, base, "NUL byte in input");
      else
        set_error(t, q, base, "unterminated string");
      return;
    }
    if (c == quote) break;
    if (c == '\\') {
      set_error(t, p, base, "invalid escape sequence in string");
      /* the regex rejected some escape; find the first bad one */
      char e = p[1];
      if (strchr("ntrabfv\\'\"?", e) && e) {
        p += 2;
        continue;
      }
      if (e >= '0' && e <= '7') {
        p += 2;
        continue;
      }
      if (e == 'x' && ((p[2] >= '0' && p[2] <= '9') || ((p[2] | 32) >= 'a' && (p[2] | 32) <= 'f'))) {
        p += 3;
        continue;
      }
      if (e == 'u' || e == 'U') {
        int need = e == 'u' ? 4 : 8, ok = 1;
        for (int i = 0; i < need; i++) {
          char h = p[2 + i];
          if (!((h >= '0' && h <= '9') || ((h | 32) >= 'a' && (h | 32) <= 'f'))) ok = 0;
        }
        if (ok) {
          p += 2 + need;
          continue;
        }
      }
      return; /* t already describes the bad escape at p */
    }
    p++;
  }
  set_error(t, q, base, "malformed string");
}

/*!re2c
  re2c:define:YYCTYPE = "unsigned char";
  re2c:yyfill:enable = 0;
  re2c:flags:utf-8 = 0;

  D      = [0-9];
  H      = [0-9a-fA-F];
  id     = [A-Za-z_][A-Za-z0-9_.\-]*;
  exp    = [eE] [+-]? D+;
  float  = (D+ "." D* | D+) exp | D+ "." D*
         | "-" ((D+ | D+ "." D* | D* "." D+) exp | D+ "." D* | D* "." D+);
  dlab   = [0-9bf?]{2,} "_" [0-9io?]{2,} "->" [0-9bf?]{2,};
  dxd    = D+ ("x" D+)+;
  padg   = "-"? D+ "_" "-"? D+ ("_" D+)?;
  pad    = padg ("x" padg)*;
  int    = "-"? D+;
  esc    = "\\" ([ntrabfv\\'"?] | [0-7]{1,3} | "x" H+ | "u" H{4} | "U" H{8});
  dqstr  = ["] ([^"\\\x00] | esc)* ["];
  sqstr  = ['] ([^'\\\x00] | esc)* ['];
  nanpl  = "(0x" H+ ")";
  spars  = [LR] "." D+ "@" D+ ":" D+ ("_" [LR] "." D+ "@" D+ ":" D+)*;
  glog   = [IWEF] D{4} " " D{2} ":" D{2} ":" D{2} "." D+ [ \t]+ D+ [ \t]+ [^:\n\r\x00]+ ":" D+ "]" " "?;
*/

/* The rules below as one automaton; hlo_lex (at the end) takes the most
 * frequent tokens first. Kept out of line: the automaton's register saves
 * would otherwise be paid by those tokens too. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void lex_dfa(hlo_lexer *lx, hlo_token *t) {
  const unsigned char *YYCURSOR = (const unsigned char *)lx->cur, *YYMARKER = YYCURSOR;
  const char *base = lx->base;
  t->sub = 0;
  t->neg = false;
  t->u = 0; /* (and msg NULL) */
  for (;;) {
    const unsigned char *tok = YYCURSOR;
#define TOK(k, skip)                                 \
  do {                                               \
    t->kind = (k);                                   \
    t->ptr = (const char *)tok + (skip);             \
    t->len = (size_t)(YYCURSOR - tok) - (skip);      \
    t->off = (size_t)((const char *)tok - base);     \
    lx->cur = (const char *)YYCURSOR;                \
    return;                                          \
  } while (0)
#define WORD(k, s)                                   \
  do {                                               \
    t->sub = (s);                                    \
    TOK(k, 0);                                       \
  } while (0)
#define ERR(at, m)                                   \
  do {                                               \
    set_error(t, (const char *)(at), base, (m));     \
    lx->cur = (const char *)(at);                    \
    return;                                          \
  } while (0)
    /*!re2c
      [ \t\n\r\f\v]+ { continue; }
      "/*" {
        int nul;
        const char *e = skip_block_comment((const char *)YYCURSOR, lx->lim, &nul);
        if (!e) {
          if (nul) {
            const char *z = (const char *)YYCURSOR;
            while (*z) z++;
            ERR(z, "NUL byte in input");
          }
          ERR(tok, "unterminated comment");
        }
        YYCURSOR = (const unsigned char *)e;
        continue;
      }
      "//" [^\n\r\x00]* {
        if (is_separator(base, (const char *)tok, (const char *)YYCURSOR)) TOK(HT_SEP, 0);
        continue;
      }
      "\x00" {
        if ((const char *)tok >= lx->lim) {
          YYCURSOR = tok; /* stay at the end: EOF again on the next call */
          TOK(HT_EOF, 0);
        }
        ERR(tok, "NUL byte in input");
      }

      "%" id [ \t]* "=" { name_def(t, (const char *)tok + 1, base); lx->cur = (const char *)YYCURSOR; return; }
      "%" id       {
        if (*YYCURSOR == '\0' && (const char *)YYCURSOR < lx->lim) ERR(YYCURSOR, "NUL byte in input");
        TOK(HT_PCT_NAME, 1);
      }
      "%"          { ERR(tok, "expected a name after '%'"); }
      id ":"       { t->kind = HT_NAME_COLON; t->ptr = (const char *)tok; t->len = (size_t)(YYCURSOR - tok) - 1;
                     t->off = (size_t)((const char *)tok - base); lx->cur = (const char *)YYCURSOR; return; }
      id [ \t]+ "=" { name_def(t, (const char *)tok, base); lx->cur = (const char *)YYCURSOR; return; }
      glog {
        /* a log line's prefix (XLA's loader strips these too): blank at
         * the start of a line; elsewhere its first word is a name */
        if (tok == (const unsigned char *)base || tok[-1] == '\n' || tok[-1] == '\r') continue;
        YYCURSOR = tok + 5;
        TOK(HT_IDENT, 0);
      }
      id "="       { t->kind = HT_ATTR_NAME; t->ptr = (const char *)tok; t->len = (size_t)(YYCURSOR - tok) - 1;
                     t->off = (size_t)((const char *)tok - base); lx->cur = (const char *)YYCURSOR; return; }
      "nan" nanpl  { TOK(HT_FLOAT, 0); }
      spars        { TOK(HT_IDENT, 0); /* old dot sparsity descriptors, L.1@2:4 */ }
      "-nan" nanpl? { TOK(HT_FLOAT, 0); }
      "-inf"       { TOK(HT_NEG_INF, 0); }
      /* keywords and element types (§2.9): a word that is exactly one of
       * these; a longer word is an id (longest match), "f32:" a NAME_COLON.
       * Element-type numbers: elem_types.h. */
      "pred"                 { WORD(HT_PRIM_TYPE, HLO_PRED); }
      "s1"                   { WORD(HT_PRIM_TYPE, HLO_S1); }
      "s2"                   { WORD(HT_PRIM_TYPE, HLO_S2); }
      "s4"                   { WORD(HT_PRIM_TYPE, HLO_S4); }
      "s8"                   { WORD(HT_PRIM_TYPE, HLO_S8); }
      "s16"                  { WORD(HT_PRIM_TYPE, HLO_S16); }
      "s32"                  { WORD(HT_PRIM_TYPE, HLO_S32); }
      "s64"                  { WORD(HT_PRIM_TYPE, HLO_S64); }
      "u1"                   { WORD(HT_PRIM_TYPE, HLO_U1); }
      "u2"                   { WORD(HT_PRIM_TYPE, HLO_U2); }
      "u4"                   { WORD(HT_PRIM_TYPE, HLO_U4); }
      "u8"                   { WORD(HT_PRIM_TYPE, HLO_U8); }
      "u16"                  { WORD(HT_PRIM_TYPE, HLO_U16); }
      "u32"                  { WORD(HT_PRIM_TYPE, HLO_U32); }
      "u64"                  { WORD(HT_PRIM_TYPE, HLO_U64); }
      "f16"                  { WORD(HT_PRIM_TYPE, HLO_F16); }
      "bf16"                 { WORD(HT_PRIM_TYPE, HLO_BF16); }
      "f32"                  { WORD(HT_PRIM_TYPE, HLO_F32); }
      "f64"                  { WORD(HT_PRIM_TYPE, HLO_F64); }
      "f8e5m2"               { WORD(HT_PRIM_TYPE, HLO_F8E5M2); }
      "f8e4m3"               { WORD(HT_PRIM_TYPE, HLO_F8E4M3); }
      "f8e4m3fn"             { WORD(HT_PRIM_TYPE, HLO_F8E4M3FN); }
      "f8e4m3b11fnuz"        { WORD(HT_PRIM_TYPE, HLO_F8E4M3B11FNUZ); }
      "f8e3m4"               { WORD(HT_PRIM_TYPE, HLO_F8E3M4); }
      "f8e5m2fnuz"           { WORD(HT_PRIM_TYPE, HLO_F8E5M2FNUZ); }
      "f8e4m3fnuz"           { WORD(HT_PRIM_TYPE, HLO_F8E4M3FNUZ); }
      "f8e8m0fnu"            { WORD(HT_PRIM_TYPE, HLO_F8E8M0FNU); }
      "f6e2m3fn"             { WORD(HT_PRIM_TYPE, HLO_F6E2M3FN); }
      "f6e3m2fn"             { WORD(HT_PRIM_TYPE, HLO_F6E3M2FN); }
      "f4e2m1fn"             { WORD(HT_PRIM_TYPE, HLO_F4E2M1FN); }
      "c64"                  { WORD(HT_PRIM_TYPE, HLO_C64); }
      "c128"                 { WORD(HT_PRIM_TYPE, HLO_C128); }
      "token"                { WORD(HT_PRIM_TYPE, HLO_TOKEN); }
      "opaque"               { WORD(HT_PRIM_TYPE, HLO_OPAQUE); }
      "opaque_type"          { WORD(HT_PRIM_TYPE, HLO_OPAQUE); }
      "nan"                  { WORD(HT_FLOAT, 0); }
      "true"                 { WORD(HT_KW_TRUE, 0); }
      "false"                { WORD(HT_KW_FALSE, 0); }
      "inf"                  { WORD(HT_KW_INF, 0); }
      "HloModule"            { WORD(HT_KW_HLOMODULE, 0); }
      "ENTRY"                { WORD(HT_KW_ENTRY, 0); }
      "ROOT"                 { WORD(HT_KW_ROOT, 0); }
      "FileNames"            { WORD(HT_KW_FILENAMES, 0); }
      "FunctionNames"        { WORD(HT_KW_FUNCTIONNAMES, 0); }
      "FileLocations"        { WORD(HT_KW_FILELOCATIONS, 0); }
      "StackFrames"          { WORD(HT_KW_STACKFRAMES, 0); }
      "maximal"              { WORD(HT_KW_MAXIMAL, 0); }
      "replicated"           { WORD(HT_KW_REPLICATED, 0); }
      "manual"               { WORD(HT_KW_MANUAL, 0); }
      "unknown"              { WORD(HT_KW_UNKNOWN, 0); }
      "unreduced"            { WORD(HT_KW_UNREDUCED, 0); }
      "last_tile_dim_replicate" { WORD(HT_KW_LAST_TILE_DIM_REPLICATE, 0); }
      "shard_as"             { WORD(HT_KW_SHARD_AS, 0); }
      "shard_like"           { WORD(HT_KW_SHARD_LIKE, 0); }
      "constant"             { WORD(HT_KW_CONSTANT, 0); }
      "parameter"            { WORD(HT_KW_PARAMETER, 0); }
      id {
        /* a NUL byte right after a word is inside it: reported there, not
         * as whatever the grammar expected instead of the word's start */
        if (*YYCURSOR == '\0' && (const char *)YYCURSOR < lx->lim) ERR(YYCURSOR, "NUL byte in input");
        t->ptr = (const char *)tok;
        t->len = (size_t)(YYCURSOR - tok);
        t->off = (size_t)((const char *)tok - base);
        lx->cur = (const char *)YYCURSOR;
        if (t->len == 1 && tok[0] == 'b' && *YYCURSOR == '(') {
          t->kind = HT_B_PAREN;
          return;
        }
        t->kind = HT_IDENT;
        return;
      }
      dlab         { TOK(HT_DIM_LABELS, 0); }
      float        { TOK(HT_FLOAT, 0); }
      dxd          { TOK(HT_DXD, 0); }
      pad          { TOK(HT_PAD, 0); }
      int {
        t->kind = HT_INT;
        t->ptr = (const char *)tok;
        t->len = (size_t)(YYCURSOR - tok);
        t->off = (size_t)((const char *)tok - base);
        if (!int_value(t)) ERR(tok, "integer literal out of range");
        lx->cur = (const char *)YYCURSOR;
        return;
      }
      dqstr | sqstr { TOK(HT_STRING, 0); }
      ["']         { string_error(t, (const char *)tok, base, lx->lim); lx->cur = t->ptr; return; }
      "->"         { TOK(HT_ARROW, 0); }
      "<="         { TOK(HT_LEQ, 0); }
      "..."        { TOK(HT_DOTS, 0); }
      "="          { TOK(HT_EQ, 0); }
      ","          { TOK(HT_COMMA, 0); }
      ":"          { TOK(HT_COLON, 0); }
      "*"          { TOK(HT_STAR, 0); }
      "?"          { TOK(HT_QUESTION, 0); }
      "#"          { TOK(HT_HASH, 0); }
      "+"          { TOK(HT_PLUS, 0); }
      "~"          { TOK(HT_TILDE, 0); }
      "["          { TOK(HT_LBRACKET, 0); }
      "]"          { TOK(HT_RBRACKET, 0); }
      "{"          { TOK(HT_LBRACE, 0); }
      "}"          { TOK(HT_RBRACE, 0); }
      "("          { TOK(HT_LPAREN, 0); }
      ")"          { TOK(HT_RPAREN, 0); }
      "-"          { ERR(tok, "stray '-' (expected a number, '->' or '-inf')"); }
      "."          { ERR(tok, "stray '.' (only '...' is a token)"); }
      "/"          { ERR(tok, "stray '/' (comments are /* ... */ or // ...)"); }
      [\x80-\xff]  { ERR(tok, "non-ASCII byte outside a string"); }
      *            { ERR(tok, "unexpected character"); }
    */
#undef TOK
#undef ERR
#undef WORD
  }
}

char hlo_lex_peek_slow(const hlo_lexer *lx, const char **at) {
  const char *p = lx->cur;
  for (;;) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      p++;
      continue;
    }
    if (c == '/' && p[1] == '*') {
      int nul;
      const char *e = skip_block_comment(p + 2, lx->lim, &nul);
      if (!e) break; /* let hlo_lex report it */
      p = e;
      continue;
    }
    if (c == '/' && p[1] == '/') {
      const char *e = p + 2;
      while (*e && *e != '\n' && *e != '\r') e++;
      if (is_separator(lx->base, p, e)) break;
      p = e;
      continue;
    }
    break;
  }
  *at = p;
  return *p;
}

bool hlo_lex_raw_dict(hlo_lexer *lx, hlo_token *t) {
  const char *p;
  if (hlo_lex_peek(lx, &p) != '{') return false;
  const char *start = p;
  long depth = 0;
  t->sub = 0;
  t->neg = false;
  t->u = 0; /* (and msg NULL) */
  for (;;) {
    /* (JSON: long runs of bytes other than these, a block at a time) */
    p = bs_skip_to3(p, lx->lim, '{', '}', '"');
    char c = *p;
    if (c == '\0') {
      if (p < lx->lim)
        set_error(t, p, lx->base, "NUL byte in input");
      else
        set_error(t, start, lx->base, "unterminated '{' (unbalanced braces)");
      lx->cur = t->ptr;
      return true;
    }
    if (c == '{') {
      depth++;
    } else if (c == '}') {
      if (--depth == 0) {
        p++;
        break;
      }
    } else if (c == '"') {
      const char *q = bs_skip_to3(p + 1, lx->lim, '"', '\\', '"');
      while (*q != '"') {
        if (*q == '\0') break;
        if (*q == '\\' && q[1] != '\0') q++;
        q++;
      }
      if (*q == '\0') {
        p = q;
        continue;
      }
      p = q;
    }
    p++;
  }
  t->kind = HT_RAW_DICT;
  t->ptr = start;
  t->len = (size_t)(p - start);
  t->off = (size_t)(start - lx->base);
  lx->cur = p;
  return true;
}

bool hlo_lex_int_brace(hlo_lexer *lx, hlo_token *t) {
  const unsigned char *YYCURSOR = (const unsigned char *)lx->cur, *YYMARKER;
  hlo_tok_kind kind;
  /*!re2c
    u18 = [0-9]{1,18};
    range = "[" u18 ":" u18 (":" u18)? "]";
    (u18 ("," u18)*)? "}"           { kind = HT_INT_LIST; goto taken; }
    range ("," " "* range)* "}"    { kind = HT_SLICES; goto taken; }
    * { return false; }
  */
taken:
  t->kind = kind;
  t->len = (size_t)((const char *)YYCURSOR - t->ptr);
  lx->cur = (const char *)YYCURSOR;
  return true;
}

/* ---- metadata payloads (hlo_lex_metadata) -----------------------------------
 * Each function returns the position after what it read, or NULL when the
 * text is not of the usual spelling (the grammar then reads it). */

static bool md_blank(char c) { return c == ' ' || (unsigned char)(c - '\t') < 5; }

static const char *md_skip_blanks(const char *p) {
  while (md_blank(*p)) p++;
  return p;
}

/* "..." whose escapes are one letter; P is at the quote. */
static const char *md_string(const char *p, const char *lim) {
  for (p++;;) {
    p = bs_skip_to3(p, lim, '"', '\\', '"');
    while (*p != '"' && *p != '\\' && *p != '\0') p++;
    if (*p == '"') return p + 1;
    if (*p == '\0' || !strchr("ntrabfv\\'\"?", p[1])) return NULL;
    p += 2;
  }
}

/* -?[0-9]{1,18} followed by a byte that ends the lexer's int there. */
static const char *md_int(const char *p) {
  if (*p == '-') p++;
  const char *d = p;
  while (*p >= '0' && *p <= '9') p++;
  if (p == d || p - d > 18) return NULL;
  return md_blank(*p) || *p == '}' || *p == ',' ? p : NULL;
}

/* The bytes of TEXT's first N as a word (a constant once inlined). */
static inline uint64_t md_word(const char *text, size_t n) {
  uint64_t w = 0;
  memcpy(&w, text, n);
  return w;
}

/* A key: an id directly followed by '=' (the lexer's HT_ATTR_NAME). The
 * four keys of almost every value are compared a word at a time. */
static const char *md_key(const char *p, const char *lim) {
  if (lim - p >= 12) {
    uint64_t w;
    uint32_t x;
    memcpy(&w, p, 8);
    if (w == md_word("op_type=", 8) || w == md_word("op_name=", 8)) return p + 8;
    memcpy(&x, p + 8, 4);
    if ((w == md_word("source_f", 8) && x == (uint32_t)md_word("ile=", 4)) ||
        (w == md_word("source_l", 8) && x == (uint32_t)md_word("ine=", 4)))
      return p + 12;
  }
  if (!((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') && *p != '_') return NULL;
  p = bs_skip_id_tail(p + 1, lim);
  return *p == '=' ? p + 1 : NULL;
}

static const char *md_value(const char *p, const char *lim) {
  if (*p == '"') return md_string(p, lim);
  if (*p != '{') return md_int(p);
  p = md_skip_blanks(p + 1);
  if (*p == '}') return p + 1;
  for (;;) {
    if (!(p = md_int(p))) return NULL;
    p = md_skip_blanks(p);
    if (*p == '}') return p + 1;
    if (*p != ',') return NULL;
    p = md_skip_blanks(p + 1);
  }
}

/* The fields after a '{', up to and including the '}': separated by
 * blanks or by a ',' (not after the last one: XLA rejects that). */
static const char *md_fields(const char *p, const char *lim) {
  p = md_skip_blanks(p);
  if (*p == '}') return p + 1;
  for (;;) {
    if (!(p = md_key(p, lim)) || !(p = md_value(p, lim))) return NULL;
    p = md_skip_blanks(p);
    if (*p == '}') return p + 1;
    if (*p == ',') p = md_skip_blanks(p + 1);
  }
}

bool hlo_lex_metadata(hlo_lexer *lx, hlo_token *t) {
  const char *start = md_skip_blanks(lx->cur), *p;
  if (*start != '{') return false;
  const char *q = md_skip_blanks(start + 1);
  if (*q != '{') {
    p = md_fields(start + 1, lx->lim);
  } else {
    for (;;) { /* a list of metadata */
      if (!(q = md_fields(q + 1, lx->lim))) return false;
      q = md_skip_blanks(q);
      if (*q == '}') break;
      if (*q != ',') return false;
      q = md_skip_blanks(q + 1);
      if (*q != '{') return false;
    }
    p = q + 1;
  }
  if (!p) return false;
  t->kind = HT_METADATA;
  t->sub = 0;
  t->neg = false;
  t->u = 0; /* (and msg NULL) */
  t->ptr = start;
  t->len = (size_t)(p - start);
  t->off = (size_t)(start - lx->base);
  lx->cur = p;
  return true;
}

const char *hlo_tok_kind_name(hlo_tok_kind k) {
  switch (k) {
  case HT_EOF: return "end of input";
  case HT_ERROR: return "invalid token";
  case HT_SEP: return "'// -----'";
  case HT_PCT_NAME: return "name";
  case HT_NAME_COLON: return "'name:'";
  case HT_ATTR_NAME: return "attribute";
  case HT_NAME_DEF: return "'name ='";
  case HT_METADATA: return "metadata";
  case HT_INT_LIST: return "integer list";
  case HT_SLICES: return "slice ranges";
  case HT_PRIM_TYPE: return "element type";
  case HT_IDENT: return "identifier";
  case HT_INT: return "integer";
  case HT_FLOAT: return "floating-point number";
  case HT_NEG_INF: return "'-inf'";
  case HT_DIM_LABELS: return "dimension labels";
  case HT_DXD: return "window dimensions";
  case HT_PAD: return "padding";
  case HT_STRING: return "string";
  case HT_RAW_DICT: return "raw dictionary";
  case HT_ARROW: return "'->'";
  case HT_LEQ: return "'<='";
  case HT_DOTS: return "'...'";
  case HT_B_PAREN: return "'b('";
  case HT_EQ: return "'='";
  case HT_COMMA: return "','";
  case HT_COLON: return "':'";
  case HT_STAR: return "'*'";
  case HT_QUESTION: return "'?'";
  case HT_HASH: return "'#'";
  case HT_PLUS: return "'+'";
  case HT_TILDE: return "'~'";
  case HT_LBRACKET: return "'['";
  case HT_RBRACKET: return "']'";
  case HT_LBRACE: return "'{'";
  case HT_RBRACE: return "'}'";
  case HT_LPAREN: return "'('";
  case HT_RPAREN: return "')'";
  case HT_KW_TRUE: return "'true'";
  case HT_KW_FALSE: return "'false'";
  case HT_KW_INF: return "'inf'";
  case HT_KW_HLOMODULE: return "'HloModule'";
  case HT_KW_ENTRY: return "'ENTRY'";
  case HT_KW_ROOT: return "'ROOT'";
  case HT_KW_FILENAMES: return "'FileNames'";
  case HT_KW_FUNCTIONNAMES: return "'FunctionNames'";
  case HT_KW_FILELOCATIONS: return "'FileLocations'";
  case HT_KW_STACKFRAMES: return "'StackFrames'";
  case HT_KW_MAXIMAL: return "'maximal'";
  case HT_KW_REPLICATED: return "'replicated'";
  case HT_KW_MANUAL: return "'manual'";
  case HT_KW_UNKNOWN: return "'unknown'";
  case HT_KW_UNREDUCED: return "'unreduced'";
  case HT_KW_LAST_TILE_DIM_REPLICATE: return "'last_tile_dim_replicate'";
  case HT_KW_SHARD_AS: return "'shard_as'";
  case HT_KW_SHARD_LIKE: return "'shard_like'";
  case HT_KW_CONSTANT: return "'constant'";
  case HT_KW_PARAMETER: return "'parameter'";
  case HT_KIND_COUNT: break;
  }
  return "token";
}

/* ---- words, without the automaton -------------------------------------------
 * A word [A-Za-z_][A-Za-z0-9_.-]* is a name, an attribute name ("word="),
 * an instruction's name ("word =") or a "word:" whatever its letters; an
 * element type before its '['. lex_dfa reads the same tokens (its longest
 * match), but at a cost per call that the names of a dump, most of its
 * words, need not pay. */

/* The element type spelled S[0..N), or 0. Each case compares with the
 * types of its length only (the compiler drops the others). */
static int elem_type_of(const unsigned char *s, size_t n) {
#define W_(e, sp, b)                                                  \
  if (n == sizeof sp - 1 && memcmp(s, sp, sizeof sp - 1) == 0) return HLO_##e;
  switch (n) {
  case 2: HLO_ELEM_TYPES(W_) break;
  case 3: HLO_ELEM_TYPES(W_) break;
  case 4: HLO_ELEM_TYPES(W_) break;
  case 5: HLO_ELEM_TYPES(W_) break;
  case 6: HLO_ELEM_TYPES(W_) break;
  case 8: HLO_ELEM_TYPES(W_) break;
  case 9: HLO_ELEM_TYPES(W_) break;
  case 10: HLO_ELEM_TYPES(W_) break;
  case 11: if (memcmp(s, "opaque_type", 11) == 0) return HLO_OPAQUE; break;
  case 13: HLO_ELEM_TYPES(W_) break;
  default: break;
  }
#undef W_
  return 0;
}

/* The keyword spelled S[0..N) (lex_dfa's rules for whole words, §2.9), or
 * HT_EOF. */
static hlo_tok_kind keyword_of(const unsigned char *s, size_t n) {
#define K_(sp, k) if (n == sizeof sp - 1 && memcmp(s, sp, sizeof sp - 1) == 0) return k;
  switch (s[0]) {
  case 'p': K_("parameter", HT_KW_PARAMETER) break;
  case 'c': K_("constant", HT_KW_CONSTANT) break;
  case 'R': K_("ROOT", HT_KW_ROOT) break;
  case 'E': K_("ENTRY", HT_KW_ENTRY) break;
  case 'H': K_("HloModule", HT_KW_HLOMODULE) break;
  case 't': K_("true", HT_KW_TRUE) break;
  case 'f': K_("false", HT_KW_FALSE) break;
  case 'i': K_("inf", HT_KW_INF) break;
  case 'm': K_("maximal", HT_KW_MAXIMAL) K_("manual", HT_KW_MANUAL) break;
  case 'r': K_("replicated", HT_KW_REPLICATED) break;
  case 'u': K_("unknown", HT_KW_UNKNOWN) K_("unreduced", HT_KW_UNREDUCED) break;
  case 'l': K_("last_tile_dim_replicate", HT_KW_LAST_TILE_DIM_REPLICATE) break;
  case 's': K_("shard_as", HT_KW_SHARD_AS) K_("shard_like", HT_KW_SHARD_LIKE) break;
  case 'F':
    K_("FileNames", HT_KW_FILENAMES) K_("FunctionNames", HT_KW_FUNCTIONNAMES)
    K_("FileLocations", HT_KW_FILELOCATIONS) break;
  case 'S': K_("StackFrames", HT_KW_STACKFRAMES) break;
  default: break;
  }
#undef K_
  return HT_EOF;
}

/* Whether the word S[0..N) may be one lex_dfa reads otherwise than as a
 * name: a keyword, an element type, nan, inf, the b of 'b(' or the start
 * of a log line's prefix ([IWEF] and four digits). By first byte, a bit
 * per length (lexer/words checks it against every such word). */
static bool maybe_special(const unsigned char *s, size_t n) {
  static const uint32_t lens[128] = {
      ['p'] = 1u << 4 | 1u << 9,  ['s'] = 1u << 2 | 1u << 3 | 1u << 8 | 1u << 10,
      ['u'] = 1u << 2 | 1u << 3 | 1u << 7 | 1u << 9,
      ['f'] = 1u << 3 | 1u << 5 | 1u << 6 | 1u << 8 | 1u << 9 | 1u << 10 | 1u << 13,
      ['b'] = 1u << 1 | 1u << 4,  ['c'] = 1u << 3 | 1u << 4 | 1u << 8, ['t'] = 1u << 4 | 1u << 5,
      ['o'] = 1u << 6 | 1u << 11, ['n'] = 1u << 3, ['i'] = 1u << 3, ['H'] = 1u << 9, ['E'] = 1u << 5,
      ['R'] = 1u << 4, ['F'] = 1u << 5 | 1u << 9 | 1u << 13, ['S'] = 1u << 11, ['m'] = 1u << 6 | 1u << 7,
      ['r'] = 1u << 10, ['l'] = 1u << 23, ['I'] = 1u << 5, ['W'] = 1u << 5,
  };
  return n < 32 && (lens[s[0] & 127] >> n & 1);
}

bool hlo_lex_word_maybe_special(const char *s, size_t n) { return maybe_special((const unsigned char *)s, n); }

/* The word at TOK (its first byte read): its token in *T, or false for
 * lex_dfa to read it (b before '(', a log line's prefix, a word before
 * another byte). Out of line, as lex_dfa: hlo_lex stays small for the
 * punctuation. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool lex_word(hlo_lexer *lx, hlo_token *t, const unsigned char *tok) {
  const unsigned char *e = (const unsigned char *)bs_skip_id_tail((const char *)tok + 1, lx->lim);
  size_t n = (size_t)(e - tok);
  const unsigned char *q = e;
  hlo_tok_kind kind;
  int sub = 0;
  switch (*e) {
  case '=':
    kind = HT_ATTR_NAME;
    q = e + 1;
    break;
  case ':':
    kind = HT_NAME_COLON;
    q = e + 1;
    break;
  case ' ': case '\t':
    while (*q == ' ' || *q == '\t') q++;
    if (*q == '=') {
      kind = HT_NAME_DEF;
      q++;
      break;
    }
    q = e;
    /* fall through */
  case '(': case ')': case ',': case '}': case ']': case '{': case '\n': case '\r':
    kind = HT_IDENT;
    if (maybe_special(tok, n)) {
      if ((kind = keyword_of(tok, n)) != HT_EOF) break;
      if ((sub = elem_type_of(tok, n)) != 0) {
        kind = HT_PRIM_TYPE;
        break;
      }
      /* nan (and nan(0x..)), b before '(', a log line's prefix */
      if (n == 3 || n == 1 || n == 5) return false;
      kind = HT_IDENT;
    }
    break;
  case '[':
    if ((sub = elem_type_of(tok, n)) != 0) kind = HT_PRIM_TYPE;
    else if (!maybe_special(tok, n)) kind = HT_IDENT;
    else return false;
    break;
  default:
    return false;
  }
  t->kind = kind;
  t->sub = sub;
  t->neg = false;
  t->u = 0; /* (and msg NULL) */
  t->ptr = (const char *)tok;
  t->len = n;
  t->off = (size_t)((const char *)tok - lx->base);
  lx->cur = (const char *)q;
  return true;
}

/* ---- the frequent tokens first ----------------------------------------------
 * Most calls read blanks and then one punctuation byte, a %name or an
 * integer. This small automaton reads those (no rule of lex_dfa but its own
 * starts with one of these bytes, "%" id is its only rule that starts with
 * '%', no longer text than "->" starts with it, and digits followed by a
 * blank, a comma, a colon or a closing bracket can only be its int, so the
 * tokens are the same) without the big automaton's
 * per-call cost, and hands anything else to lex_dfa, which skips the same
 * blanks. Bit vectors classify a name's bytes with one table load each
 * instead of a switch. */

void hlo_lex(hlo_lexer *lx, hlo_token *t) {
  const unsigned char *YYCURSOR = (const unsigned char *)lx->cur, *YYMARKER, *tok;
  hlo_tok_kind kind;
  size_t skip = 0;
  for (;;) {
    tok = YYCURSOR;
    /*!re2c
      re2c:flags:bit-vectors = 1;
      [ \n]+      { continue; }
      "%" [A-Za-z_] { /* the rest of the id a block at a time */
        YYCURSOR = (const unsigned char *)bs_skip_id_tail((const char *)YYCURSOR, lx->lim);
        const unsigned char *q = YYCURSOR;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '=') { /* "%name =": an instruction's name */
          t->kind = HT_NAME_DEF;
          t->sub = 0;
          t->neg = false;
          t->u = 0; /* (and msg NULL) */
          t->ptr = (const char *)tok + 1;
          t->len = (size_t)(YYCURSOR - tok) - 1;
          t->off = (size_t)((const char *)tok - lx->base);
          lx->cur = (const char *)q + 1;
          return;
        }
        if (*YYCURSOR == '\0') { lx->cur = (const char *)tok; lex_dfa(lx, t); return; } /* a NUL: lex_dfa says where */
        kind = HT_PCT_NAME;
        skip = 1;
        break;
      }
      [A-Za-z_] {
        if (lex_word(lx, t, tok)) return;
        lx->cur = (const char *)tok;
        lex_dfa(lx, t);
        return;
      }
      [0-9]+ / [,})\] \n:] {
        /* a plain integer (lex_dfa's only rule for digits followed by one
         * of these), of at most 18 digits: no overflow */
        if (YYCURSOR - tok > 18) { lx->cur = (const char *)tok; lex_dfa(lx, t); return; }
        uint64_t v = 0;
        for (const unsigned char *d = tok; d < YYCURSOR; d++) v = v * 10 + (uint64_t)(*d - '0');
        t->kind = HT_INT;
        t->sub = 0;
        t->neg = false;
        t->u = v;
        t->ptr = (const char *)tok;
        t->len = (size_t)(YYCURSOR - tok);
        t->off = (size_t)((const char *)tok - lx->base);
        lx->cur = (const char *)YYCURSOR;
        return;
      }
      ","         { kind = HT_COMMA; break; }
      "->"        { kind = HT_ARROW; break; }
      ":"         { kind = HT_COLON; break; }
      "="         { kind = HT_EQ; break; }
      "*"         { kind = HT_STAR; break; }
      "?"         { kind = HT_QUESTION; break; }
      "#"         { kind = HT_HASH; break; }
      "+"         { kind = HT_PLUS; break; }
      "~"         { kind = HT_TILDE; break; }
      "["         { kind = HT_LBRACKET; break; }
      "]"         { kind = HT_RBRACKET; break; }
      "{"         { kind = HT_LBRACE; break; }
      "}"         { kind = HT_RBRACE; break; }
      "("         { kind = HT_LPAREN; break; }
      ")"         { kind = HT_RPAREN; break; }
      *           { lx->cur = (const char *)tok; lex_dfa(lx, t); return; }
    */
  }
  t->kind = kind;
  t->sub = 0;
  t->neg = false;
  t->u = 0; /* (and msg NULL) */
  t->ptr = (const char *)tok + skip;
  t->len = (size_t)(YYCURSOR - tok) - skip;
  t->off = (size_t)((const char *)tok - lx->base);
  lx->cur = (const char *)YYCURSOR;
}
