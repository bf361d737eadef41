/* A small reader over the text of one value (attribute value, literal),
 * used to interpret values after the grammar has validated their bracket
 * structure. Internal to the parser. */
#ifndef HLOIDX_PC_READER_H
#define HLOIDX_PC_READER_H

#include <stdio.h>
#include <string.h>

#include "parse_ctx.h"

typedef struct rd {
  parse_ctx *P;
  hlo_lexer lx;
  hlo_token t; /* current token (HT_EOF at the end of the value) */
  size_t end;
  const char *what; /* attribute name, for messages */
} rd;

static inline void rd_next(rd *r) {
  hlo_lex(&r->lx, &r->t);
  if (r->t.kind != HT_ERROR && r->t.off >= r->end) {
    r->t.kind = HT_EOF;
    r->t.off = r->end;
    r->t.ptr = r->P->data + r->end;
    r->t.len = 0;
  }
}

static inline void rd_init(rd *r, parse_ctx *P, size_t start, size_t end, const char *what) {
  r->P = P;
  r->end = end;
  r->what = what;
  hlo_lexer_init(&r->lx, P->data, P->len, start);
  rd_next(r);
}

static inline void describe_tok(const hlo_token *t, char *buf, size_t cap) {
  if (t->kind == HT_EOF) {
    snprintf(buf, cap, "the end of the value");
    return;
  }
  size_t n = t->len > 40 ? 40 : t->len;
  const char *pre = t->kind == HT_PCT_NAME ? "%" : "";
  const char *post = t->kind == HT_ATTR_NAME ? "=" : t->kind == HT_NAME_COLON ? ":" : "";
  snprintf(buf, cap, "'%s%.*s%s%s'", pre, (int)n, t->ptr, t->len > 40 ? "..." : "", post);
}

static inline int rd_fail(rd *r, const char *expected) {
  if (r->t.kind == HT_ERROR) return pc_error(r->P, r->t.off, "%s", r->t.msg);
  char f[80];
  describe_tok(&r->t, f, sizeof f);
  return pc_error(r->P, r->t.off, "expected %s in '%s', found %s", expected, r->what, f);
}

static inline int rd_expect(rd *r, hlo_tok_kind k, const char *expected) {
  if (r->t.kind != k) return rd_fail(r, expected);
  rd_next(r);
  return 0;
}

static inline int rd_end(rd *r) {
  if (r->t.kind == HT_EOF) return 0;
  char f[80];
  describe_tok(&r->t, f, sizeof f);
  return pc_error(r->P, r->t.off, "unexpected %s after the value of '%s'", f, r->what);
}

#endif
