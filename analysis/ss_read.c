#include "ss_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../parser/hlo_ir.h"
#include "../parser/base/checked.h"
#include "ss_algebra.h"

enum { T_END, T_INT, T_HOLE, T_NAME, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_COMMA, T_COLON, T_BAD };

typedef struct {
  int kind;
  size_t start, end;
  int64_t value; /* T_INT */
} token;

typedef struct {
  hb_arena *a;
  const char *s;
  size_t pos, end;
  token tok;
  size_t prev_end; /* end of the token before tok */
  int depth;
  bool failed;
  ss_read_error *err;
  ss_xla_resolver xla;
  void *cl;
  int elem_bits;
  const char *elem_name;
} reader;

/* An int tuple: a leaf value or n children. value -1 is '_' (a hole). */
typedef struct itup itup;
struct itup {
  uint32_t n;
  int64_t value;
  const itup *child;
};

typedef enum { V_LAYOUT, V_TUPLE, V_TILER, V_NAME } vkind;

typedef struct {
  vkind kind;
  size_t start, end; /* text of the value */
  const ss_layout *layout;
  const itup *tuple;
  const ss_layout *const *tiler;
  uint32_t ntiler;
} value;

__attribute__((format(printf, 3, 4))) static void fail(reader *r, size_t at, const char *fmt, ...) {
  if (r->failed) return;
  r->failed = true;
  r->err->offset = at;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
  va_end(ap);
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static void next(reader *r) {
  const char *s = r->s;
  r->prev_end = r->tok.end;
  while (r->pos < r->end) {
    char c = s[r->pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') r->pos++;
    else if (c == '/' && r->pos + 1 < r->end && s[r->pos + 1] == '/') r->pos = r->end;
    else break;
  }
  token t = {T_END, r->pos, r->pos, 0};
  if (r->pos >= r->end) {
    r->tok = t;
    return;
  }
  char c = s[r->pos];
  if (is_digit(c) || (c == '_' && r->pos + 1 < r->end && is_digit(s[r->pos + 1]))) {
    if (c == '_') r->pos++;
    int64_t v = 0;
    bool big = false;
    while (r->pos < r->end && is_digit(s[r->pos])) {
      if (!hb_ck_mul(v, 10, &v) || !hb_ck_add(v, s[r->pos] - '0', &v) || v > SS_MAX_VALUE) big = true;
      r->pos++;
    }
    if (big) fail(r, t.start, "integer too large (the limit is 2^62)");
    t.kind = T_INT;
    t.value = v;
  } else if (c == '_' && !(r->pos + 1 < r->end && (is_alpha(s[r->pos + 1]) || s[r->pos + 1] == '_'))) {
    r->pos++;
    t.kind = T_HOLE;
  } else if (is_alpha(c) || c == '_') {
    while (r->pos < r->end && (is_alpha(s[r->pos]) || is_digit(s[r->pos]) || s[r->pos] == '_')) r->pos++;
    t.kind = T_NAME;
  } else {
    r->pos++;
    switch (c) {
    case '(': t.kind = T_LPAREN; break;
    case ')': t.kind = T_RPAREN; break;
    case '[': t.kind = T_LBRACK; break;
    case ']': t.kind = T_RBRACK; break;
    case ',': t.kind = T_COMMA; break;
    case ':': t.kind = T_COLON; break;
    default: t.kind = T_BAD;
    }
  }
  t.end = r->pos;
  r->tok = t;
}

static void found(const reader *r, char *buf, size_t n) {
  const token *t = &r->tok;
  if (t->kind == T_END) snprintf(buf, n, "the end");
  else if (t->kind == T_BAD && ((unsigned char)r->s[t->start] < 0x20 || (unsigned char)r->s[t->start] >= 0x7f))
    snprintf(buf, n, "byte 0x%02x", (unsigned char)r->s[t->start]);
  else snprintf(buf, n, "'%.*s'", (int)(t->end - t->start > 40 ? 40 : t->end - t->start), r->s + t->start);
}

static bool expect(reader *r, int kind, const char *what) {
  if (r->failed) return false;
  if (r->tok.kind != kind) {
    char f[64];
    found(r, f, sizeof f);
    fail(r, r->tok.start, "expected %s, found %s", what, f);
    return false;
  }
  next(r);
  return true;
}

static bool enter(reader *r) {
  if (++r->depth > SS_READ_MAX_NESTING) {
    fail(r, r->tok.start, "nested more than %d levels", SS_READ_MAX_NESTING);
    return false;
  }
  return true;
}


/* ---- int tuples and layouts ---------------------------------------------------------------------- */

static const itup *read_tuple(reader *r) {
  if (r->failed || !enter(r)) return NULL;
  itup *t = hb_arena_zalloc(r->a, sizeof *t);
  if (r->tok.kind == T_INT || r->tok.kind == T_HOLE) {
    t->value = r->tok.kind == T_INT ? r->tok.value : -1;
    next(r);
  } else if (r->tok.kind == T_LPAREN) {
    next(r);
    uint32_t n = 0, cap = 4;
    itup *items = hb_arena_array(r->a, cap, sizeof *items);
    for (;;) {
      const itup *c = read_tuple(r);
      if (!c) return NULL;
      if (n == SS_MAX_LEAVES) {
        fail(r, r->tok.start, "a tuple of more than %d entries", SS_MAX_LEAVES);
        return NULL;
      }
      if (n == cap) {
        items = hb_arena_grow(r->a, items, cap, cap * 2, sizeof *items);
        cap *= 2;
      }
      items[n++] = *c;
      if (r->tok.kind == T_COMMA) {
        next(r);
        continue;
      }
      if (!expect(r, T_RPAREN, "',' or ')'")) return NULL;
      break;
    }
    t->n = n;
    t->child = items;
  } else {
    char f[64];
    found(r, f, sizeof f);
    fail(r, r->tok.start, "expected an integer or '(', found %s", f);
    return NULL;
  }
  r->depth--;
  return t;
}

/* shape:stride -> layout; false with the reader failed. */
static const ss_layout *make_layout(reader *r, const itup *sh, const itup *st, size_t at) {
  if ((sh->n == 0) != (st->n == 0) || sh->n != st->n) {
    fail(r, at, "the shape and the stride are not congruent (the same nesting)");
    return NULL;
  }
  if (!sh->n) {
    if (sh->value < 0 || st->value < 0) {
      fail(r, at, "'_' stands only in a coalesce profile");
      return NULL;
    }
    if (sh->value < 1) {
      fail(r, at, "a mode's size must be at least 1");
      return NULL;
    }
    int64_t span;
    if (!hb_ck_mul(sh->value - 1, st->value, &span) || span > SS_MAX_VALUE) {
      fail(r, at, "the layout's offsets exceed 2^62");
      return NULL;
    }
    return ss_leaf(r->a, sh->value, st->value);
  }
  ss_layout *ch = hb_arena_array(r->a, sh->n, sizeof *ch);
  for (uint32_t i = 0; i < sh->n; i++) {
    const ss_layout *c = make_layout(r, &sh->child[i], &st->child[i], at);
    if (!c) return NULL;
    ch[i] = *c;
  }
  ss_error e;
  const ss_layout *l = ss_tuple(r->a, ch, sh->n, &e);
  if (!l) fail(r, at, "%s", e.message);
  return l;
}

/* ---- expressions --------------------------------------------------------------------------------------- */

static bool read_value(reader *r, value *v);

static const ss_layout *want_layout(reader *r, const value *v, const char *fn, int argno) {
  if (v->kind == V_LAYOUT) return v->layout;
  fail(r, v->start, "%s: argument %d must be a layout (SHAPE:STRIDE)", fn, argno);
  return NULL;
}

static bool want_int(reader *r, const value *v, const char *fn, int argno, int64_t *out) {
  if (v->kind == V_TUPLE && v->tuple->n == 0 && v->tuple->value >= 0) {
    *out = v->tuple->value;
    return true;
  }
  fail(r, v->start, "%s: argument %d must be an integer", fn, argno);
  return false;
}

static int elem_bits_of(const reader *r, const value *v, const char **name) {
  for (int t = HLO_PRED; t <= HLO_C128; t++) {
    const char *n = hlo_elem_type_name((hlo_elem_type)t);
    if (strlen(n) == v->end - v->start && !memcmp(n, r->s + v->start, v->end - v->start)) {
      *name = n;
      return hlo_elem_type_bits((hlo_elem_type)t);
    }
  }
  return 0;
}

static const ss_layout *done(reader *r, const ss_layout *l, const ss_error *e, size_t at) {
  if (!l) fail(r, at, "%s", e->message);
  return l;
}

static const ss_layout *call(reader *r, size_t at, const char *fn, size_t fnlen, value *args, int nargs) {
  ss_error e;
  char name[40];
  snprintf(name, sizeof name, "%.*s", (int)(fnlen < 39 ? fnlen : 39), fn);
#define NARGS(lo, hi)                                                                                  \
  do {                                                                                                 \
    if (nargs < (lo) || nargs > (hi)) {                                                                \
      if ((lo) == (hi)) fail(r, at, "%s takes %d argument%s", name, (lo), (lo) == 1 ? "" : "s");       \
      else fail(r, at, "%s takes %d to %d arguments", name, (lo), (hi));                               \
      return NULL;                                                                                     \
    }                                                                                                  \
  } while (0)
  if (!strcmp(name, "coalesce")) {
    NARGS(1, 2);
    const ss_layout *l = want_layout(r, &args[0], name, 1);
    if (!l) return NULL;
    if (nargs == 1) return done(r, ss_coalesce(r->a, l, &e), &e, at);
    const itup *p = args[1].kind == V_TUPLE ? args[1].tuple : NULL;
    bool ok = p && p->n == ss_rank(l);
    for (uint32_t i = 0; ok && i < p->n; i++) ok = p->child[i].n == 0;
    if (!ok || ss_is_leaf(l)) {
      fail(r, args[1].start, "coalesce: the profile must have one '_' per top-level mode of a tuple layout");
      return NULL;
    }
    return done(r, ss_coalesce_modes(r->a, l, &e), &e, at);
  }
  if (!strcmp(name, "composition")) {
    NARGS(2, 2);
    const ss_layout *A = want_layout(r, &args[0], name, 1), *B = A ? want_layout(r, &args[1], name, 2) : NULL;
    return B ? done(r, ss_composition(r->a, A, B, &e), &e, at) : NULL;
  }
  if (!strcmp(name, "complement")) {
    NARGS(1, 2);
    const ss_layout *l = want_layout(r, &args[0], name, 1);
    int64_t m;
    if (!l) return NULL;
    if (nargs == 1) m = ss_cosize(l);
    else if (!want_int(r, &args[1], name, 2, &m)) return NULL;
    return done(r, ss_complement(r->a, l, m, &e), &e, at);
  }
  if (!strcmp(name, "make_layout")) {
    NARGS(1, SS_MAX_LEAVES);
    const ss_layout **parts = hb_arena_array(r->a, (size_t)nargs, sizeof *parts);
    for (int i = 0; i < nargs; i++)
      if (!(parts[i] = want_layout(r, &args[i], name, i + 1))) return NULL;
    return done(r, ss_make_layout(r->a, parts, (uint32_t)nargs, &e), &e, at);
  }
  bool divide = !strcmp(name, "logical_divide");
  if (divide || !strcmp(name, "logical_product")) {
    NARGS(2, 2);
    const ss_layout *A = want_layout(r, &args[0], name, 1);
    if (!A) return NULL;
    ss_binary_op op = divide ? ss_logical_divide : ss_logical_product;
    if (args[1].kind == V_TILER) return done(r, ss_by_mode(r->a, op, A, args[1].tiler, args[1].ntiler, &e), &e, at);
    const ss_layout *B = want_layout(r, &args[1], name, 2);
    return B ? done(r, op(r->a, A, B, &e), &e, at) : NULL;
  }
  if (!strcmp(name, "make_layout_tile") || !strcmp(name, "MakeLayoutTile")) {
    NARGS(2, 2);
    const ss_layout *l = want_layout(r, &args[0], name, 1);
    if (!l) return NULL;
    const itup *t = args[1].kind == V_TUPLE ? args[1].tuple : NULL;
    bool ok = t != NULL;
    uint32_t n = t && t->n ? t->n : 1;
    int64_t ext[SS_MAX_LEAVES];
    for (uint32_t i = 0; ok && i < n; i++) {
      const itup *x = t->n ? &t->child[i] : t;
      ok = x->n == 0 && x->value >= 1;
      if (ok) ext[i] = x->value;
    }
    if (!ok) {
      fail(r, args[1].start, "%s: the tile shape must be a flat tuple of positive integers", name);
      return NULL;
    }
    return done(r, ss_make_layout_tile(r->a, l, ext, n, &e), &e, at);
  }
  static const char *const fr[] = {"zN", "nZ", "zZ", "nN"};
  for (int f = 0; f < 4; f++) {
    if (strcmp(name, fr[f]) != 0) continue;
    NARGS(3, 4);
    const char *tn = NULL;
    int bits = args[0].kind == V_NAME ? elem_bits_of(r, &args[0], &tn) : 0;
    if (!bits) {
      fail(r, args[0].start, "%s: argument 1 must be an element type (f16, bf16, f32, s8, ...)", name);
      return NULL;
    }
    int64_t v[3] = {0, 0, 16};
    for (int i = 1; i < nargs; i++)
      if (!want_int(r, &args[i], name, i + 1, &v[i - 1])) return NULL;
    r->elem_bits = bits;
    r->elem_name = tn;
    return done(r, ss_fractal_layout(r->a, (ss_fractal)f, bits, v[0], v[1], v[2], &e), &e, at);
  }
#undef NARGS
  fail(r, at, "unknown function '%s' (coalesce, composition, complement, make_layout, logical_divide, "
       "logical_product, make_layout_tile, zN, nZ, zZ, nN)", name);
  return NULL;
}

/* The end of an XLA shape starting at `at`: its name, the [dims], and a
 * {layout} with balanced brackets. */
static size_t xla_extent(const reader *r, size_t at) {
  size_t p = at;
  int depth = 0;
  while (p < r->end && (is_alpha(r->s[p]) || is_digit(r->s[p]) || r->s[p] == '_')) p++;
  for (; p < r->end; p++) {
    char c = r->s[p];
    if (c == '[' || c == '(' || c == '{') depth++;
    else if (c == ']' || c == ')' || c == '}') {
      if (--depth < 0) return p;
      if (depth == 0 && (c == ']' || c == '}') && !(p + 1 < r->end && r->s[p + 1] == '{')) return p + 1;
    }
  }
  return p;
}

static bool read_value(reader *r, value *v) {
  if (r->failed || !enter(r)) return false;
  memset(v, 0, sizeof *v);
  v->start = r->tok.start;
  switch (r->tok.kind) {
  case T_INT:
  case T_HOLE:
  case T_LPAREN: {
    const itup *sh = read_tuple(r);
    if (!sh) return false;
    if (r->tok.kind == T_COLON) {
      next(r);
      const itup *st = read_tuple(r);
      if (!st) return false;
      v->kind = V_LAYOUT;
      v->layout = make_layout(r, sh, st, v->start);
    } else {
      v->kind = V_TUPLE;
      v->tuple = sh;
    }
    break;
  }
  case T_LBRACK: {
    next(r);
    uint32_t n = 0, cap = 4;
    const ss_layout **items = hb_arena_array(r->a, cap, sizeof *items);
    for (;;) {
      value x;
      if (!read_value(r, &x)) return false;
      const ss_layout *l = want_layout(r, &x, "a tiler", (int)n + 1);
      if (!l) return false;
      if (n == SS_MAX_LEAVES) {
        fail(r, x.start, "a tiler of more than %d layouts", SS_MAX_LEAVES);
        return false;
      }
      if (n == cap) {
        items = hb_arena_grow(r->a, items, cap, cap * 2, sizeof *items);
        cap *= 2;
      }
      items[n++] = l;
      if (r->tok.kind == T_COMMA) {
        next(r);
        continue;
      }
      if (!expect(r, T_RBRACK, "',' or ']'")) return false;
      break;
    }
    v->kind = V_TILER;
    v->tiler = items;
    v->ntiler = n;
    break;
  }
  case T_NAME: {
    token name = r->tok;
    if (name.end < r->end && r->s[name.end] == '[') { /* an XLA shape */
      size_t e = xla_extent(r, name.start);
      if (!r->xla) {
        fail(r, name.start, "XLA shapes are not read here");
        return false;
      }
      const ss_layout *l = r->xla(r->cl, r->s, name.start, e, r->err);
      if (!l) {
        r->failed = true;
        return false;
      }
      r->tok.end = r->pos = e;
      next(r);
      v->kind = V_LAYOUT;
      v->layout = l;
      break;
    }
    next(r);
    if (r->tok.kind != T_LPAREN) {
      v->kind = V_NAME;
      break;
    }
    next(r);
    int nargs = 0, cap = 4;
    value *args = hb_arena_array(r->a, (size_t)cap, sizeof *args);
    for (;;) {
      if (nargs == SS_MAX_LEAVES) {
        fail(r, r->tok.start, "more than %d arguments", SS_MAX_LEAVES);
        return false;
      }
      if (nargs == cap) {
        args = hb_arena_grow(r->a, args, (size_t)cap, (size_t)cap * 2, sizeof *args);
        cap *= 2;
      }
      if (!read_value(r, &args[nargs])) return false;
      nargs++;
      if (r->tok.kind == T_COMMA) {
        next(r);
        continue;
      }
      if (!expect(r, T_RPAREN, "',' or ')'")) return false;
      break;
    }
    v->kind = V_LAYOUT;
    v->layout = call(r, name.start, r->s + name.start, name.end - name.start, args, nargs);
    break;
  }
  default: {
    char f[64];
    found(r, f, sizeof f);
    fail(r, r->tok.start, "expected a layout, found %s", f);
    return false;
  }
  }
  v->end = r->prev_end;
  r->depth--;
  return !r->failed;
}

bool ss_read(hb_arena *a, const char *text, size_t start, size_t end, ss_xla_resolver xla, void *cl, ss_read_result *out,
             ss_read_error *err) {
  reader R = {a, text, start, end, {T_END, start, start, 0}, start, 0, false, err, xla, cl, 0, NULL}, *r = &R;
  memset(out, 0, sizeof *out);
  err->offset = start;
  err->message[0] = '\0';
  next(r);
  size_t first = r->tok.start;
  value v;
  if (!read_value(r, &v)) return false;
  if (v.kind != V_LAYOUT) {
    fail(r, v.start, v.kind == V_TUPLE ? "a shape needs ':' and its strides (e.g. (2,4):(4,1))" : "expected a layout");
    return false;
  }
  if (r->tok.kind != T_END) {
    char f[64];
    found(r, f, sizeof f);
    fail(r, r->tok.start, "unexpected %s after the layout", f);
    return false;
  }
  out->layout = v.layout;
  out->elem_bits = r->elem_bits;
  out->elem_name = r->elem_name;
  /* the whole expression one XLA shape? */
  if (text[first] != '(' && text[first] != '[' && !is_digit(text[first])) {
    size_t p = first;
    while (p < end && (is_alpha(text[p]) || is_digit(text[p]) || text[p] == '_')) p++;
    if (p < end && text[p] == '[') {
      out->xla = true;
      out->xla_start = first;
      out->xla_end = v.end;
    }
  }
  return true;
}
