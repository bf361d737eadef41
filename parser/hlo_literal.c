/* Literals (§5.8): checks a constant's literal against its shape (nesting,
 * element counts, value ranges per element type, NaN payloads) and records
 * scalar values for the IR. The grammar has already validated the literal's
 * syntax; this walks its text again with the value reader. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "decimal.h"
#include "parse_ctx.h"
#include "pc_reader.h"

typedef struct lit_ctx {
  rd r;
  const hlo_shape *top;
  hlo_literal *lit;
  bool record; /* store the scalar in lit */
} lit_ctx;

static int lit_fail(lit_ctx *L, const char *expected) { return rd_fail(&L->r, expected); }

/* Largest magnitude that still rounds to a finite value (max + half an ulp),
 * for types that have infinities or NaN; 0 = no overflow check. */
static double overflow_threshold(hlo_elem_type t) {
  switch (t) {
  case HLO_F16: return 65520.0;
  case HLO_BF16: return ldexp(1.0, 128) - ldexp(1.0, 119);
  case HLO_F32: return ldexp(1.0, 128) - ldexp(1.0, 103);
  case HLO_F8E5M2: return 61440.0;
  case HLO_F8E4M3: return 248.0;
  case HLO_F8E4M3FN: return 464.0;
  case HLO_F8E4M3B11FNUZ: return 31.0;
  case HLO_F8E3M4: return 15.75;
  case HLO_F8E5M2FNUZ: return 61440.0;
  case HLO_F8E4M3FNUZ: return 248.0;
  case HLO_F8E8M0FNU: return ldexp(1.5, 127);
  default: return 0.0;
  }
}

/* Bits available for an explicit NaN payload: -1 = the type has no NaN,
 * 0 = NaN has a fixed encoding (no payload may be given). */
static int nan_payload_bits(hlo_elem_type t) {
  switch (t) {
  case HLO_F16: return 10;
  case HLO_BF16: return 7;
  case HLO_F32: return 23;
  case HLO_F64: return 52;
  case HLO_F8E5M2: return 2;
  case HLO_F8E4M3: return 3;
  case HLO_F8E3M4: return 4;
  case HLO_F8E4M3FN: case HLO_F8E4M3B11FNUZ: case HLO_F8E5M2FNUZ: case HLO_F8E4M3FNUZ: case HLO_F8E8M0FNU:
    return 0;
  case HLO_F6E2M3FN: case HLO_F6E3M2FN: case HLO_F4E2M1FN:
    return -1;
  default: return 23;
  }
}

static int parse_double(parse_ctx *P, const hlo_token *t, double *out) {
  if (pc_decimal_exact(t->ptr, t->len, out)) return 0;
  char buf[512];
  char *s = buf;
  if (t->len >= sizeof buf) s = hb_arena_strndup(P->a, t->ptr, t->len);
  else {
    memcpy(buf, t->ptr, t->len);
    buf[t->len] = '\0';
  }
  errno = 0;
  char *end;
  double d = strtod(s, &end);
  *out = d;
  return errno == ERANGE && isinf(d) ? -1 : 0;
}

/* A floating-point element of type T (the token is the current one). */
static int float_elem(lit_ctx *L, hlo_elem_type t, double *val) {
  hlo_token *k = &L->r.t;
  parse_ctx *P = L->r.P;
  const char *tn = hlo_elem_type_name(t);
  if (k->kind == HT_KW_INF || k->kind == HT_NEG_INF) {
    *val = k->kind == HT_KW_INF ? INFINITY : -INFINITY;
  } else if (k->kind == HT_FLOAT && (k->ptr[0] == 'n' || (k->ptr[0] == '-' && k->ptr[1] == 'n'))) {
    int bits = nan_payload_bits(t);
    if (bits < 0) return pc_error(P, k->off, "%s has no NaN value", tn);
    const char *paren = memchr(k->ptr, '(', k->len);
    if (paren) {
      uint64_t payload = 0;
      bool too_big = false;
      for (const char *p = paren + 3; *p != ')'; p++) {
        int h = (*p >= '0' && *p <= '9') ? *p - '0' : ((*p | 32) - 'a' + 10);
        if (payload >> 60) too_big = true;
        payload = payload * 16 + (uint64_t)h;
      }
      if (too_big || payload == 0 || bits == 0 || (bits < 64 && payload >> bits))
        return pc_error(P, k->off, "literal tries to set NaN payload 0x%llx, which does not fit the type %s",
                        (unsigned long long)payload, tn);
    }
    *val = k->ptr[0] == '-' ? -NAN : NAN;
  } else if (k->kind == HT_FLOAT) {
    if (parse_double(P, k, val) < 0 || isinf(*val))
      return pc_error(P, k->off, "value %.*s is out of range for literal's primitive type %s", (int)k->len, k->ptr, tn);
  } else if (k->kind == HT_INT) {
    *val = k->neg ? -(double)k->u : (double)k->u;
  } else {
    return lit_fail(L, "a floating-point number");
  }
  double th = overflow_threshold(t);
  if (th > 0 && isfinite(*val) && fabs(*val) >= th)
    return pc_error(P, k->off, "value %.*s is out of range for literal's primitive type %s", (int)k->len, k->ptr, tn);
  rd_next(&L->r);
  return 0;
}

static hlo_elem_type complex_component(hlo_elem_type t) { return t == HLO_C64 ? HLO_F32 : HLO_F64; }

/* One scalar element of type T. */
static int scalar(lit_ctx *L, hlo_elem_type t) {
  hlo_token *k = &L->r.t;
  parse_ctx *P = L->r.P;
  const char *tn = hlo_elem_type_name(t);
  const char *start = k->ptr;
  if (t == HLO_PRED) {
    int64_t v;
    if (k->kind == HT_KW_TRUE || k->kind == HT_KW_FALSE) v = k->kind == HT_KW_TRUE;
    else if (k->kind == HT_INT && !k->neg && k->u <= 1) v = (int64_t)k->u;
    else return lit_fail(L, "a pred value (true, false, 0 or 1)");
    if (L->record) {
      L->lit->has_int = true;
      L->lit->int_value = v;
      L->lit->scalar_text = k->ptr;
      L->lit->scalar_len = k->len;
    }
    rd_next(&L->r);
    return 0;
  }
  if (hlo_elem_type_is_integral(t)) {
    if (k->kind != HT_INT) {
      char what[64];
      snprintf(what, sizeof what, "an integer (the literal's type is %s)", tn);
      return lit_fail(L, what);
    }
    int bits = hlo_elem_type_bits(t);
    bool ok;
    if (hlo_elem_type_is_signed_int(t)) {
      uint64_t lim = (uint64_t)1 << (bits - 1);
      ok = k->neg ? k->u <= lim : k->u < lim;
    } else if (bits == 64) {
      ok = true; /* stored as the 64-bit pattern, like XLA */
    } else {
      ok = !k->neg || k->u == 0;
      ok = ok && (k->neg || k->u < ((uint64_t)1 << bits));
    }
    if (!ok)
      return pc_error(P, k->off, "value %.*s is out of range for literal's primitive type %s", (int)k->len, k->ptr, tn);
    if (L->record) {
      L->lit->has_int = true;
      L->lit->int_value = k->neg ? (int64_t)(0 - k->u) : (int64_t)k->u;
      L->lit->scalar_text = k->ptr;
      L->lit->scalar_len = k->len;
    }
    rd_next(&L->r);
    return 0;
  }
  if (hlo_elem_type_is_complex(t)) {
    if (k->kind != HT_LPAREN) return lit_fail(L, "a complex value (re, im)");
    rd_next(&L->r);
    double re, im;
    if (float_elem(L, complex_component(t), &re) < 0) return -1;
    if (rd_expect(&L->r, HT_COMMA, "','") < 0) return -1;
    if (float_elem(L, complex_component(t), &im) < 0) return -1;
    if (L->r.t.kind != HT_RPAREN) return lit_fail(L, "')'");
    if (L->record) {
      L->lit->scalar_text = start;
      L->lit->scalar_len = (size_t)(L->r.t.ptr + 1 - start);
    }
    rd_next(&L->r);
    return 0;
  }
  if (hlo_elem_type_is_float(t)) {
    double v;
    const char *txt = k->ptr;
    size_t len = k->len;
    if (float_elem(L, t, &v) < 0) return -1;
    if (L->record) {
      L->lit->has_float = true;
      L->lit->float_value = v;
      L->lit->scalar_text = txt;
      L->lit->scalar_len = len;
    }
    return 0;
  }
  return pc_error(P, k->off, "a constant cannot have element type %s", tn);
}

static bool at_elided(lit_ctx *L) {
  if (L->r.t.kind != HT_LBRACE) return false;
  hlo_lexer probe = L->r.lx;
  hlo_token t;
  hlo_lex(&probe, &t);
  if (t.kind != HT_DOTS) return false;
  hlo_lex(&probe, &t);
  if (t.kind != HT_RBRACE) return false;
  L->r.lx = probe;
  rd_next(&L->r);
  return true;
}

static int array_level(lit_ctx *L, const hlo_shape *s, int k) {
  char what[96];
  if (L->r.t.kind != HT_LBRACE) {
    if (k == 0) snprintf(what, sizeof what, "'{' (a rank-%d array literal)", s->rank);
    else snprintf(what, sizeof what, "'{' (a nested array for dimension %d of the rank-%d literal)", k, s->rank);
    return lit_fail(L, what);
  }
  size_t open = L->r.t.off;
  rd_next(&L->r);
  int64_t count = 0;
  if (L->r.t.kind != HT_RBRACE) {
    for (;;) {
      if (k == s->rank - 1) {
        if (L->r.t.kind == HT_LBRACE) {
          snprintf(what, sizeof what, "a %s value (the literal has rank %d)", hlo_elem_type_name(s->type), s->rank);
          return lit_fail(L, what);
        }
        if (scalar(L, s->type) < 0) return -1;
      } else {
        if (array_level(L, s, k + 1) < 0) return -1;
      }
      count++;
      if (L->r.t.kind == HT_COMMA) {
        rd_next(&L->r);
        continue;
      }
      if (L->r.t.kind != HT_RBRACE) return lit_fail(L, "',' or '}'");
      break;
    }
  }
  rd_next(&L->r);
  int64_t want = s->dims[k];
  bool ok = s->unbounded[k] ? true : s->dynamic[k] ? count <= want : count == want;
  if (!ok) {
    char sh[128];
    hlo_shape_format(s, sh, sizeof sh);
    return pc_error(L->r.P, open, "literal has %lld elements in dimension %d, but the shape %s has %lld",
                    (long long)count, k, sh, (long long)want);
  }
  return 0;
}

static int literal_value(lit_ctx *L, const hlo_shape *s, int depth) {
  if (at_elided(L)) {
    if (L->record && depth == 0) L->lit->elided = true;
    return 0;
  }
  if (s->type == HLO_TUPLE) {
    if (L->r.t.kind != HT_LPAREN) return lit_fail(L, "'(' (a tuple literal)");
    size_t open = L->r.t.off;
    rd_next(&L->r);
    int n = 0;
    if (L->r.t.kind != HT_RPAREN) {
      for (;;) {
        if (n >= s->n_elems) {
          char sh[128];
          hlo_shape_format(s, sh, sizeof sh);
          return pc_error(L->r.P, L->r.t.off, "tuple literal has more elements than the shape %s", sh);
        }
        bool rec = L->record;
        L->record = false;
        if (literal_value(L, s->elems[n], depth + 1) < 0) return -1;
        L->record = rec;
        n++;
        if (L->r.t.kind == HT_COMMA) {
          rd_next(&L->r);
          continue;
        }
        if (L->r.t.kind != HT_RPAREN) return lit_fail(L, "',' or ')'");
        break;
      }
    }
    rd_next(&L->r);
    if (n != s->n_elems) {
      char sh[128];
      hlo_shape_format(s, sh, sizeof sh);
      return pc_error(L->r.P, open, "tuple literal has %d elements, but the shape %s has %d", n, sh, s->n_elems);
    }
    return 0;
  }
  if (s->type == HLO_BUFFER || s->type == HLO_TOKEN || s->type == HLO_OPAQUE)
    return pc_error(L->r.P, L->r.t.off, "a constant cannot have a %s shape", hlo_elem_type_name(s->type));
  if (s->rank == 0) {
    if (L->record) L->lit->is_scalar = true;
    return scalar(L, s->type);
  }
  L->record = false;
  /* XLA's parser also takes a bare scalar for an array shape
   * (`bf16[17,22] constant(1)` in XLA's own tests). */
  if (L->r.t.kind != HT_LBRACE) return scalar(L, s->type);
  return array_level(L, s, 0);
}

int pc_literal_check(parse_ctx *P, const hlo_shape *shape, size_t off, size_t end, hlo_literal *lit) {
  lit_ctx L;
  hlo_literal dummy;
  memset(&dummy, 0, sizeof dummy);
  L.top = shape;
  L.lit = lit ? lit : &dummy;
  L.record = lit != NULL;
  rd_init(&L.r, P, off, end, "literal");
  if (literal_value(&L, shape, 0) < 0) return -1;
  if (lit) lit->n_elements = shape->type == HLO_TUPLE ? -1 : hlo_shape_elements(shape);
  return rd_end(&L.r);
}
