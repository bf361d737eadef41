/* Validation of metadata={...} values.
 *
 * metadata={op_type="..." op_name="..." source_line=12 profile_type={1}}
 * (or a {...} list of those) is on most instructions of many dumps. Both
 * the token wrapper and the fast path hand a conforming value to the
 * grammar as one unit; anything else is parsed (and reported on) token by
 * token by the grammar.
 *
 * The definition of "conforming" is the token-level check below. A byte
 * scanner handles the usual spelling first (plain keys, strings whose
 * escapes are one letter, short integers, blanks); whenever it meets
 * anything else it defers to the token-level check, so both always
 * agree. */
#include <string.h>

#include "byte_scan.h"
#include "parse_ctx.h"

/* ---- the definition: token level ------------------------------------------ */

static bool md_value(hlo_lexer *lx, hlo_token *t) {
  hlo_lex(lx, t);
  if (t->kind == HT_STRING || t->kind == HT_INT) return true;
  if (t->kind != HT_LBRACE) return false;
  hlo_lex(lx, t);
  if (t->kind == HT_RBRACE) return true;
  for (;;) {
    if (t->kind != HT_INT) return false;
    hlo_lex(lx, t);
    if (t->kind == HT_RBRACE) return true;
    if (t->kind != HT_COMMA) return false;
    hlo_lex(lx, t);
  }
}

/* One '{' ... '}' of fields; the '{' has been read. */
static bool md_body(hlo_lexer *lx, hlo_token *t) {
  hlo_lex(lx, t);
  for (;;) {
    if (t->kind == HT_RBRACE) return true;
    if (t->kind != HT_ATTR_NAME || !md_value(lx, t)) return false;
    hlo_lex(lx, t);
    if (t->kind == HT_COMMA) hlo_lex(lx, t);
  }
}

static bool md_tokens(hlo_lexer lx, const char **start, const char **end) {
  hlo_token t;
  hlo_lex(&lx, &t);
  if (t.kind != HT_LBRACE) return false;
  *start = t.ptr;
  const char *save = lx.cur;
  hlo_lex(&lx, &t);
  if (t.kind == HT_LBRACE) { /* a list of metadata */
    for (;;) {
      if (!md_body(&lx, &t)) return false;
      hlo_lex(&lx, &t);
      if (t.kind == HT_RBRACE) break;
      if (t.kind != HT_COMMA) return false;
      hlo_lex(&lx, &t);
      if (t.kind != HT_LBRACE) return false;
    }
  } else {
    lx.cur = save;
    if (!md_body(&lx, &t)) return false;
  }
  *end = lx.cur;
  return true;
}

/* ---- the usual spelling: byte level ---------------------------------------
 * Each function returns the position after what it read, or NULL for "not
 * the usual spelling" (which is not an error: the token level decides). */

/* The escapes of one letter after the backslash (the lexer's esc rule has
 * these and octal, \x, \u and \U ones, which are left to the lexer). */
static bool simple_escape(char c) {
  switch (c) {
  case 'n': case 't': case 'r': case 'a': case 'b': case 'f': case 'v':
  case '\\': case '\'': case '"': case '?':
    return true;
  default:
    return false;
  }
}

/* "..." whose escapes are simple ones; P is at the quote. LIM is the
 * buffer's terminating NUL. */
static const char *str(const char *p, const char *lim) {
  p++;
  for (;;) {
    p = pc_skip_to3(p, lim, '"', '\\', '"');
    while (*p != '"' && *p != '\\' && *p != '\0') p++;
    if (*p == '"') return p + 1;
    if (*p == '\0' || !simple_escape(p[1])) return NULL;
    p += 2;
  }
}

/* -?[0-9]{1,18} followed by a byte that cannot continue another token. */
static const char *integer(const char *p) {
  if (*p == '-') p++;
  const char *d = p;
  while (*p >= '0' && *p <= '9') p++;
  if (p == d || p - d > 18) return NULL;
  char c = *p;
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '}' || c == ',' ? p : NULL;
}

/* The bytes of TEXT's first N as a word (a constant once inlined). */
static inline uint64_t word_of(const char *text, size_t n) {
  uint64_t w = 0;
  memcpy(&w, text, n);
  return w;
}

/* An identifier directly followed by '=' (one ATTR_NAME token). The four
 * keys of almost every metadata value are compared a word at a time
 * first: stepping through their bytes one class lookup each was a third
 * of the scan. LIM is the buffer's final NUL. */
static const char *key(const char *p, const char *lim) {
  if (lim - p >= 12) {
    uint64_t w;
    uint32_t x;
    memcpy(&w, p, 8);
    if (w == word_of("op_type=", 8) || w == word_of("op_name=", 8)) return p + 8;
    memcpy(&x, p + 8, 4);
    if ((w == word_of("source_f", 8) && x == (uint32_t)word_of("ile=", 4)) ||
        (w == word_of("source_l", 8) && x == (uint32_t)word_of("ine=", 4)))
      return p + 12;
  }
  if (!pc_id_start(*p)) return NULL;
  for (p++; pc_id_char(*p); p++) {
  }
  return *p == '=' ? p + 1 : NULL;
}

static const char *value(const char *p, const char *lim) {
  char c = *p;
  if (c == '"') return str(p, lim);
  if (c == '-' || (c >= '0' && c <= '9')) return integer(p);
  if (c != '{') return NULL;
  p = pc_skip_blanks(p + 1);
  if (*p == '}') return p + 1;
  for (;;) {
    if (!(p = integer(p))) return NULL;
    p = pc_skip_blanks(p);
    if (*p == '}') return p + 1;
    if (*p != ',') return NULL;
    p = pc_skip_blanks(p + 1);
  }
}

/* Fields after a '{' up to and including the '}'. */
static const char *body(const char *p, const char *lim) {
  for (;;) {
    p = pc_skip_blanks(p);
    if (*p == '}') return p + 1;
    if (!(p = key(p, lim)) || !(p = value(p, lim))) return NULL;
    p = pc_skip_blanks(p);
    if (*p == ',') p++;
  }
}

static const char *md_bytes(const char *p, const char *lim) {
  p = pc_skip_blanks(p);
  if (*p != '{') return NULL;
  const char *q = pc_skip_blanks(p + 1);
  if (*q != '{') return body(p + 1, lim);
  for (;;) { /* a list of metadata */
    if (!(q = body(q + 1, lim))) return NULL;
    q = pc_skip_blanks(q);
    if (*q == '}') return q + 1;
    if (*q != ',') return NULL;
    q = pc_skip_blanks(q + 1);
    if (*q != '{') return NULL;
  }
}

bool pc_metadata_scan(const hlo_lexer *lx, const char **start, const char **end) {
  const char *e = md_bytes(lx->cur, lx->lim);
  if (e) {
    *start = pc_skip_blanks(lx->cur);
    *end = e;
    return true;
  }
  return md_tokens(*lx, start, end);
}
