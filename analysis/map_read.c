#include "map_read.h"

#include "../parser/base/oom.h"
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum {
  T_END,
  T_INT,
  T_IDENT,
  T_LPAREN,
  T_RPAREN,
  T_LBRACK,
  T_RBRACK,
  T_LBRACE,
  T_RBRACE,
  T_COMMA,
  T_COLON,
  T_PLUS,
  T_MINUS,
  T_STAR,
  T_ARROW,
  T_BAD,
};

typedef struct {
  int kind;
  size_t start, end;
  uint64_t uval;  /* T_INT magnitude */
  bool overflow;  /* T_INT does not fit in uint64 */
} token;

typedef struct {
  const char *s;
  size_t len;
  bool is_dim;
  uint32_t pos;
} name;

typedef struct {
  const char *text;
  size_t pos, end;
  token tok, prev;
  ae_ctx *ctx;
  name *names;
  uint32_t nnames, ndims, nrange, nrt;
  uint32_t *slots;   /* hash table of names: index + 1, 0 = empty */
  uint32_t nslots;   /* a power of two, at least twice the names it can hold */
  int nesting;
  bool failed;
  map_read_error *err;
} parser;

static void fail(parser *p, size_t off, const char *fmt, ...) {
  if (p->failed) return;
  p->failed = true;
  p->err->offset = off;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
  va_end(ap);
}

static bool is_id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_id_char(char c) { return is_id_start(c) || (c >= '0' && c <= '9') || c == '.'; }

/* The offset of the first byte at or after pos that is not whitespace or
 * part of a // comment (end when there is none). */
static size_t skip_space_from(const char *text, size_t pos, size_t end) {
  while (pos < end) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      pos++;
    } else if (c == '/' && pos + 1 < end && text[pos + 1] == '/') {
      while (pos < end && text[pos] != '\n') pos++;
    } else {
      break;
    }
  }
  return pos;
}

static void skip_space(parser *p) { p->pos = skip_space_from(p->text, p->pos, p->end); }

static void next(parser *p) {
  p->prev = p->tok;
  size_t last = p->tok.end; /* end of the previous token */
  skip_space(p);
  token t = {T_END, p->pos, p->pos, 0, false};
  if (p->pos >= p->end) {
    /* "end of input" is reported right after the last token */
    t.start = t.end = last;
    p->tok = t;
    return;
  }
  const char *s = p->text;
  char c = s[p->pos];
  if (c >= '0' && c <= '9') {
    uint64_t v = 0;
    while (p->pos < p->end && s[p->pos] >= '0' && s[p->pos] <= '9') {
      unsigned d = (unsigned)(s[p->pos] - '0');
      if (v > (UINT64_MAX - d) / 10) t.overflow = true;
      else v = v * 10 + d;
      p->pos++;
    }
    t.kind = T_INT;
    t.uval = v;
  } else if (is_id_start(c)) {
    while (p->pos < p->end && is_id_char(s[p->pos])) p->pos++;
    t.kind = T_IDENT;
  } else {
    p->pos++;
    switch (c) {
    case '(': t.kind = T_LPAREN; break;
    case ')': t.kind = T_RPAREN; break;
    case '[': t.kind = T_LBRACK; break;
    case ']': t.kind = T_RBRACK; break;
    case '{': t.kind = T_LBRACE; break;
    case '}': t.kind = T_RBRACE; break;
    case ',': t.kind = T_COMMA; break;
    case ':': t.kind = T_COLON; break;
    case '+': t.kind = T_PLUS; break;
    case '*': t.kind = T_STAR; break;
    case '-':
      if (p->pos < p->end && s[p->pos] == '>') {
        p->pos++;
        t.kind = T_ARROW;
      } else {
        t.kind = T_MINUS;
      }
      break;
    default: t.kind = T_BAD; break;
    }
  }
  t.end = p->pos;
  p->tok = t;
}

static bool tok_is(const parser *p, const char *word) {
  size_t n = strlen(word);
  return p->tok.kind == T_IDENT && p->tok.end - p->tok.start == n && !memcmp(p->text + p->tok.start, word, n);
}

static void describe(const parser *p, char *buf, size_t n) {
  const token *t = &p->tok;
  if (t->kind == T_END) {
    snprintf(buf, n, "end of input");
  } else if (t->kind == T_BAD) {
    unsigned char c = (unsigned char)p->text[t->start];
    if (c >= 0x20 && c < 0x7f) snprintf(buf, n, "'%c'", c);
    else snprintf(buf, n, "byte 0x%02x", c);
  } else {
    size_t len = t->end - t->start;
    if (len > 40) len = 40;
    snprintf(buf, n, "'%.*s'", (int)len, p->text + t->start);
  }
}

static bool expect(parser *p, int kind, const char *what) {
  if (p->failed) return false;
  if (p->tok.kind != kind) {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, p->tok.start, "expected %s, found %s", what, d);
    return false;
  }
  next(p);
  return true;
}

static bool is_keyword_tok(const parser *p) {
  static const char *const kw[] = {"floordiv", "ceildiv", "mod", "floorDiv", "ceilDiv", "in", "domain"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (tok_is(p, kw[i])) return true;
  return false;
}

/* Names are found through a hash table: a map may declare thousands of
 * variables and use them millions of times. */
static uint32_t name_hash(const char *s, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* The slot of the name text[start, end): its entry, or the empty slot where it goes. */
static uint32_t *name_slot(const parser *p, const char *s, size_t len) {
  uint32_t mask = p->nslots - 1, i = name_hash(s, len) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t k = p->slots[i];
    if (k == 0) return &p->slots[i];
    const name *n = &p->names[k - 1];
    if (n->len == len && !memcmp(n->s, s, len)) return &p->slots[i];
  }
}

static const name *lookup(const parser *p, size_t start, size_t end) {
  uint32_t k = *name_slot(p, p->text + start, end - start);
  return k ? &p->names[k - 1] : NULL;
}

static void add_name(parser *p, name n) {
  p->names[p->nnames] = n;
  *name_slot(p, n.s, n.len) = ++p->nnames;
}

/* ---- expressions ----------------------------------------------------------------------------- */

static const ae *parse_expr(parser *p);

static int tight_op(const parser *p) {
  if (p->tok.kind == T_STAR) return AE_MUL;
  if (tok_is(p, "floordiv") || tok_is(p, "floorDiv")) return AE_FLOORDIV;
  if (tok_is(p, "ceildiv") || tok_is(p, "ceilDiv")) return AE_CEILDIV;
  if (tok_is(p, "mod")) return AE_MOD;
  return -1;
}

static bool enter(parser *p) {
  if (++p->nesting > MAP_READ_MAX_NESTING) {
    fail(p, p->tok.start, "expression nested too deeply (more than %d levels)", MAP_READ_MAX_NESTING);
    return false;
  }
  return true;
}

static const ae *parse_factor(parser *p) {
  if (p->failed || !enter(p)) return NULL;
  const ae *res = NULL;
  token t = p->tok;
  switch (t.kind) {
  case T_MINUS: {
    next(p);
    const ae *x = parse_factor(p);
    if (x) res = ae_neg(p->ctx, x);
    break;
  }
  case T_LPAREN:
    next(p);
    res = parse_expr(p);
    if (!expect(p, T_RPAREN, "')'")) res = NULL;
    break;
  case T_INT: {
    if (t.overflow || t.uval > (uint64_t)INT64_MAX) {
      fail(p, t.start, "integer literal out of range");
      break;
    }
    next(p);
    res = ae_const(p->ctx, (int64_t)t.uval);
    /* `100d0`: an integer immediately followed by a name */
    if (p->tok.kind == T_IDENT && p->tok.start == t.end && !is_keyword_tok(p)) {
      const ae *v = parse_factor(p);
      res = v ? ae_mul(p->ctx, res, v) : NULL;
    }
    break;
  }
  case T_IDENT: {
    /* max(a, b) / min(a, b): XLA's symbolic expressions (a name followed by '(') */
    size_t after = skip_space_from(p->text, p->pos, p->end);
    if ((tok_is(p, "max") || tok_is(p, "min")) && after < p->end && p->text[after] == '(') {
      ae_kind k = tok_is(p, "max") ? AE_MAX : AE_MIN;
      next(p);
      next(p);
      const ae *a = parse_expr(p);
      if (!a || !expect(p, T_COMMA, "',' between the operands of max/min")) break;
      const ae *b = parse_expr(p);
      if (!b || !expect(p, T_RPAREN, "')'")) break;
      res = ae_binary(p->ctx, k, a, b);
      break;
    }
    if (is_keyword_tok(p)) {
      fail(p, t.start, "expected an operand, found '%.*s'", (int)(t.end - t.start), p->text + t.start);
      break;
    }
    const name *n = lookup(p, t.start, t.end);
    if (!n) {
      fail(p, t.start, "unknown identifier '%.*s'", (int)(t.end - t.start > 40 ? 40 : t.end - t.start),
           p->text + t.start);
      break;
    }
    next(p);
    res = n->is_dim ? ae_dim(p->ctx, n->pos) : ae_sym(p->ctx, n->pos);
    break;
  }
  default: {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, t.start, "expected an expression, found %s", d);
  }
  }
  p->nesting--;
  return p->failed ? NULL : res;
}

static const ae *parse_term(parser *p) {
  if (p->failed || !enter(p)) return NULL;
  const ae *res;
  if (p->tok.kind == T_MINUS) {
    next(p);
    const ae *x = parse_term(p);
    res = x ? ae_neg(p->ctx, x) : NULL;
  } else {
    res = parse_factor(p);
    int op;
    while (res && !p->failed && (op = tight_op(p)) >= 0) {
      size_t at = p->tok.start;
      int oplen = (int)(p->tok.end - p->tok.start);
      next(p);
      const ae *r = parse_factor(p);
      if (!r) {
        res = NULL;
        break;
      }
      if (op == AE_MUL && ae_has_dim(res) && ae_has_dim(r)) {
        fail(p, at, "non-affine expression: at least one operand of '*' must be free of dimensions");
        res = NULL;
        break;
      }
      if (op != AE_MUL && ae_has_dim(r)) {
        fail(p, at, "non-affine expression: the right operand of '%.*s' must be free of dimensions", oplen,
             p->text + at);
        res = NULL;
        break;
      }
      res = ae_binary(p->ctx, (ae_kind)op, res, r);
    }
  }
  p->nesting--;
  return p->failed ? NULL : res;
}

static const ae *parse_expr(parser *p) {
  if (p->failed || !enter(p)) return NULL;
  size_t start = p->tok.start;
  const ae *res = parse_term(p);
  while (res && !p->failed && (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS)) {
    bool minus = p->tok.kind == T_MINUS;
    next(p);
    const ae *r = parse_term(p);
    if (!r) {
      res = NULL;
      break;
    }
    res = minus ? ae_sub(p->ctx, res, r) : ae_add(p->ctx, res, r);
  }
  p->nesting--;
  if (res && res->depth > MAP_READ_MAX_DEPTH) {
    fail(p, start, "expression too large (depth over %d)", MAP_READ_MAX_DEPTH);
    return NULL;
  }
  return p->failed ? NULL : res;
}

/* ---- maps ------------------------------------------------------------------------------------ */

static bool parse_int(parser *p, int64_t *out) {
  if (p->failed) return false;
  bool neg = false;
  size_t at = p->tok.start;
  if (p->tok.kind == T_MINUS) {
    neg = true;
    next(p);
  }
  if (p->tok.kind != T_INT) {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, p->tok.start, "expected an integer, found %s", d);
    return false;
  }
  uint64_t u = p->tok.uval;
  if (p->tok.overflow || u > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) {
    fail(p, at, "integer out of range");
    return false;
  }
  *out = neg ? (int64_t)((uint64_t)0 - u) : (int64_t)u;
  next(p);
  return true;
}

static bool parse_interval(parser *p, interval *iv) {
  if (!expect(p, T_LBRACK, "'['")) return false;
  if (!parse_int(p, &iv->lo)) return false;
  if (!expect(p, T_COMMA, "','")) return false;
  if (!parse_int(p, &iv->hi)) return false;
  return expect(p, T_RBRACK, "']'");
}

static void parse_names(parser *p, int close, const char *close_what, bool is_dim, uint32_t base, uint32_t *count) {
  const char *what = is_dim ? "dimensions" : "symbols (range and runtime variables together)";
  *count = 0;
  if (p->tok.kind == close) {
    next(p);
    return;
  }
  for (;;) {
    if (p->tok.kind != T_IDENT || is_keyword_tok(p)) {
      char d[64];
      describe(p, d, sizeof d);
      fail(p, p->tok.start, "expected a variable name, found %s", d);
      return;
    }
    if (lookup(p, p->tok.start, p->tok.end)) {
      fail(p, p->tok.start, "variable '%.*s' declared twice", (int)(p->tok.end - p->tok.start),
           p->text + p->tok.start);
      return;
    }
    if (base + *count >= MAP_READ_MAX_VARS) {
      fail(p, p->tok.start, "too many variables: a map may have at most %d %s", MAP_READ_MAX_VARS, what);
      return;
    }
    add_name(p, (name){p->text + p->tok.start, p->tok.end - p->tok.start, is_dim, base + *count});
    (*count)++;
    next(p);
    if (p->tok.kind == T_COMMA) {
      next(p);
      continue;
    }
    expect(p, close, close_what);
    return;
  }
}

static bool at_end(parser *p) { return p->tok.kind == T_END; }

static void skip_is_simplified(parser *p) {
  if (!tok_is(p, "is_simplified")) return;
  next(p);
  if (!expect(p, T_COLON, "':'")) return;
  if (tok_is(p, "true") || tok_is(p, "false")) next(p);
  else expect(p, -1, "'true' or 'false'");
}

/* MOST: the most names the parser will hold; the hash table lives in A, or
 * is malloc'ed when A is NULL (the caller frees p->slots). */
static void init_parser(parser *p, ae_ctx *ctx, const char *text, size_t start, size_t end, map_read_error *err,
                        name *names, hb_arena *a, size_t most) {
  memset(p, 0, sizeof *p);
  p->text = text;
  p->pos = start;
  p->end = end;
  p->ctx = ctx;
  p->err = err;
  p->names = names;
  p->nslots = 16;
  while (p->nslots < 2 * most) p->nslots *= 2;
  p->slots = a ? hb_arena_zalloc(a, p->nslots * sizeof *p->slots) : hb_calloc(p->nslots, sizeof *p->slots);
  err->offset = start;
  err->message[0] = '\0';
  p->tok.end = start;
  next(p);
}

/* `#xla.indexing_map<"TEXT">`: narrows [*start, *end) to TEXT. Returns
 * false (with err set) when the attribute is malformed; true, unchanged,
 * when the text is not one. */
static bool unwrap_attribute(const char *text, size_t *start, size_t *end, map_read_error *err) {
  static const char prefix[] = "#xla.indexing_map<\"";
  size_t n = sizeof prefix - 1, s = skip_space_from(text, *start, *end);
  if (*end - s < n || memcmp(text + s, prefix, n) != 0) {
    if (s < *end && text[s] == '#') {
      err->offset = s;
      snprintf(err->message, sizeof err->message, "expected a map or #xla.indexing_map<\"...\">");
      return false;
    }
    return true;
  }
  size_t q = s + n;
  while (q < *end && text[q] != '"' && text[q] != '\\') q++;
  if (q < *end && text[q] == '\\') {
    err->offset = q;
    snprintf(err->message, sizeof err->message, "escape sequences are not part of an indexing map's text");
    return false;
  }
  if (q >= *end || q + 1 >= *end || text[q + 1] != '>') {
    err->offset = q < *end ? q : *end;
    snprintf(err->message, sizeof err->message, "expected '\">' to close #xla.indexing_map<\"...");
    return false;
  }
  size_t after = skip_space_from(text, q + 2, *end);
  if (after < *end) {
    err->offset = after;
    snprintf(err->message, sizeof err->message, "unexpected text after the attribute");
    return false;
  }
  *start = s + n;
  *end = q;
  return true;
}

static void store_names(hb_arena *a, const parser *p, map_names *out) {
  *out = map_names_new(a, p->ndims, p->nrange + p->nrt);
  for (uint32_t i = 0; i < p->ndims + p->nrange + p->nrt; i++) {
    const name *n = &p->names[i];
    if (map_name_is_default(n->s, n->len, n->is_dim, n->pos, p->nrange)) continue;
    char *c = hb_arena_alloc(a, n->len + 1);
    memcpy(c, n->s, n->len);
    c[n->len] = '\0';
    if (n->is_dim) out->dims[n->pos] = c;
    else out->syms[n->pos] = c;
  }
}

imap *map_read(hb_arena *a, ae_ctx *ctx, const char *text, size_t start, size_t end, map_read_error *err) {
  return map_read_named(a, ctx, text, start, end, NULL, err);
}

imap *map_read_named(hb_arena *a, ae_ctx *ctx, const char *text, size_t start, size_t end, map_names *out_names,
                     map_read_error *err) {
  parser P, *p = &P;
  if (out_names) *out_names = (map_names){NULL, NULL};
  err->offset = start;
  err->message[0] = '\0';
  if (!unwrap_attribute(text, &start, &end, err)) return NULL;
  /* at most one name per byte of input */
  size_t cap = (end - start) / 2 + 2;
  name *names = hb_arena_array(a, cap, sizeof *names);
  /* dims and symbols: at most MAP_READ_MAX_VARS each */
  init_parser(p, ctx, text, start, end, err, names, a, cap < 2 * MAP_READ_MAX_VARS ? cap : 2 * MAP_READ_MAX_VARS);

  if (tok_is(p, "UNDEFINED")) {
    next(p);
    if (!at_end(p)) {
      char d[64];
      describe(p, d, sizeof d);
      fail(p, p->tok.start, "unexpected %s after the map", d);
      return NULL;
    }
    return imap_new_undefined(a, ctx);
  }
  if (tok_is(p, "KNOWN")) {
    fail(p, p->tok.start, "a KNOWN EMPTY map cannot be read: its variables are not printed");
    return NULL;
  }

  /* header */
  expect(p, T_LPAREN, "'(' to start a map");
  if (p->failed) return NULL;
  parse_names(p, T_RPAREN, "',' or ')'", true, 0, &p->ndims);
  if (!p->failed && p->tok.kind == T_LBRACK) {
    next(p);
    parse_names(p, T_RBRACK, "',' or ']'", false, 0, &p->nrange);
  }
  if (!p->failed && p->tok.kind == T_LBRACE) {
    next(p);
    parse_names(p, T_RBRACE, "',' or '}'", false, p->nrange, &p->nrt);
  }
  expect(p, T_ARROW, "'->'");
  expect(p, T_LPAREN, "'('");
  if (p->failed) return NULL;
  uint32_t nres = 0, rcap = 8;
  const ae **res = hb_arena_array(a, rcap, sizeof *res);
  if (p->tok.kind == T_RPAREN) {
    next(p);
  } else {
    for (;;) {
      if (nres == MAP_READ_MAX_VARS) {
        fail(p, p->tok.start, "too many results: a map may have at most %d", MAP_READ_MAX_VARS);
        return NULL;
      }
      const ae *e = parse_expr(p);
      if (!e) return NULL;
      if (nres == rcap) {
        res = hb_arena_grow(a, res, nres, rcap * 2, sizeof *res);
        rcap *= 2;
      }
      res[nres++] = e;
      if (p->tok.kind == T_COMMA) {
        next(p);
        continue;
      }
      if (!expect(p, T_RPAREN, "',' or ')'")) return NULL;
      break;
    }
  }
  uint32_t nvars = p->ndims + p->nrange + p->nrt;
  interval *ivs = hb_arena_array(a, nvars ? nvars : 1, sizeof *ivs);

  /* domain */
  bool have_domain = false;
  if (p->tok.kind == T_COMMA) next(p);
  if (tok_is(p, "domain")) {
    next(p);
    if (!expect(p, T_COLON, "':' after 'domain'")) return NULL;
    have_domain = true;
  } else if (nvars > 0 || !at_end(p)) {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, p->tok.start, nvars ? "expected ', domain:' and the variable intervals, found %s"
                                : "expected ', domain:' or the end of the map, found %s",
         d);
    return NULL;
  }
  /* variables, in declaration order */
  for (uint32_t i = 0; i < nvars && !p->failed; i++) {
    /* names[] holds dims, then range vars, then rt vars, in declaration order */
    const name *n = &p->names[i];
    if (p->tok.kind != T_IDENT || p->tok.end - p->tok.start != n->len ||
        memcmp(p->text + p->tok.start, n->s, n->len) != 0) {
      char d[64];
      describe(p, d, sizeof d);
      fail(p, p->tok.start, "expected the interval of '%.*s', found %s", (int)n->len, n->s, d);
      return NULL;
    }
    next(p);
    if (!tok_is(p, "in")) {
      expect(p, -1, "'in'");
      return NULL;
    }
    next(p);
    if (!parse_interval(p, &ivs[i])) return NULL;
    if (p->tok.kind == T_COMMA) next(p);
  }
  /* constraints */
  uint32_t ncons = 0, ccap = 8;
  imap_constraint *cons = hb_arena_array(a, ccap, sizeof *cons);
  while (have_domain && !p->failed && !at_end(p) && !tok_is(p, "is_simplified")) {
    if (ncons == MAP_READ_MAX_VARS) {
      fail(p, p->tok.start, "too many constraints: a map may have at most %d", MAP_READ_MAX_VARS);
      return NULL;
    }
    const ae *e = parse_expr(p);
    if (!e) return NULL;
    if (!tok_is(p, "in")) {
      expect(p, -1, "'in' after a constraint expression");
      return NULL;
    }
    next(p);
    interval iv;
    if (!parse_interval(p, &iv)) return NULL;
    if (ncons == ccap) {
      cons = hb_arena_grow(a, cons, ncons, ccap * 2, sizeof *cons);
      ccap *= 2;
    }
    cons[ncons++] = (imap_constraint){e, iv};
    if (p->tok.kind == T_COMMA) next(p);
  }
  skip_is_simplified(p);
  if (!p->failed && !at_end(p)) {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, p->tok.start, "unexpected %s after the map", d);
  }
  if (p->failed) return NULL;

  imap *m = imap_new(a, ctx, p->ndims, p->nrange, p->nrt, ivs, ivs + p->ndims, nres, res);
  if (out_names) store_names(a, p, out_names);
  /* XLA's constructor: an infeasible constraint interval makes the map
   * known-empty; then every constraint goes through AddConstraint. */
  for (uint32_t i = 0; i < ncons; i++)
    if (!iv_feasible(cons[i].iv)) imap_set_known_empty(m);
  for (uint32_t i = 0; i < ncons; i++) imap_add_constraint(m, cons[i].expr, cons[i].iv);
  return m;
}

/* ---- splitting a text into maps ------------------------------------------------------------ */

static bool blank(const char *s, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\f' && s[i] != '\v') return false;
  return true;
}

/* True if [from, to) holds only whitespace and // comments. */
static bool only_comments(const char *s, size_t from, size_t to) {
  size_t i = from;
  while (i < to) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      i++;
    } else if (c == '/' && i + 1 < to && s[i + 1] == '/') {
      while (i < to && s[i] != '\n' && s[i] != '\r') i++;
    } else {
      return false;
    }
  }
  return true;
}

/* End of the line starting at i (the offset of its \n or \r, or len), and
 * the start of the next line in *next. */
static size_t line_end(const char *s, size_t len, size_t i, size_t *next) {
  while (i < len && s[i] != '\n' && s[i] != '\r') i++;
  *next = i < len ? i + 1 + (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') : len;
  return i;
}

bool map_read_next_chunk(const char *text, size_t len, size_t *pos, size_t *start, size_t *end) {
  while (*pos < len) {
    /* skip blank lines */
    size_t i = *pos, next;
    while (i < len) {
      size_t e = line_end(text, len, i, &next);
      if (!blank(text, i, e)) break;
      i = next;
    }
    if (i >= len) break;
    /* the chunk runs until a blank line or the end */
    size_t s = i, e = i;
    while (i < len) {
      size_t le = line_end(text, len, i, &next);
      if (blank(text, i, le)) break;
      e = le;
      i = next;
    }
    *pos = i;
    if (only_comments(text, s, e)) continue;
    *start = s;
    *end = e;
    return true;
  }
  *pos = len;
  return false;
}

const ae *map_read_expr(ae_ctx *ctx, const char *text, uint32_t ndims, uint32_t nrange, uint32_t nrt,
                        map_read_error *err) {
  uint32_t n = ndims + nrange + nrt;
  name *names = hb_calloc(n ? n : 1, sizeof *names);
  char *buf = hb_calloc(n ? n : 1, 16);
  parser P, *p = &P;
  size_t len = strlen(text);
  init_parser(p, ctx, text, 0, len, err, names, NULL, n);
  for (uint32_t i = 0; i < n; i++) {
    char *s = buf + 16 * (size_t)i;
    if (i < ndims) snprintf(s, 16, "d%u", i);
    else if (i < ndims + nrange) snprintf(s, 16, "s%u", i - ndims);
    else snprintf(s, 16, "rt%u", i - ndims - nrange);
    add_name(p, (name){s, strlen(s), i < ndims, i < ndims ? i : i - ndims});
  }
  const ae *e = parse_expr(p);
  if (e && !at_end(p)) {
    char d[64];
    describe(p, d, sizeof d);
    fail(p, p->tok.start, "unexpected %s after the expression", d);
    e = NULL;
  }
  free(p->slots);
  free(names);
  free(buf);
  return p->failed ? NULL : e;
}
