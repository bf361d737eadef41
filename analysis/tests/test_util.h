/* Tiny test harness shared by the analysis unit tests. */
#ifndef HLOIDX_TEST_UTIL_H
#define HLOIDX_TEST_UTIL_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine_expr.h"
#include "indexing_map.h"
#include "map_print.h"
#include "map_read.h"
#include "simplify.h"
#include "../../parser/base/strbuf.h"

static int t_checks, t_failures;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    t_checks++;                                                  \
    if (!(cond)) {                                               \
      t_failures++;                                              \
      fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);      \
      fprintf(stderr, __VA_ARGS__);                              \
      fputc('\n', stderr);                                       \
    }                                                            \
  } while (0)

#define CHECK_STR(got, want, what)                                                              \
  do {                                                                                          \
    const char *g_ = (got), *w_ = (want);                                                       \
    CHECK(strcmp(g_, w_) == 0, "%s\n    got:  %s\n    want: %s", (what), g_, w_);               \
  } while (0)

__attribute__((unused)) static int t_finish(const char *name) {
  printf("%s: %d checks, %d failed\n", name, t_checks, t_failures);
  return t_failures ? 1 : 0;
}

/* Printed forms in rotating static buffers (enough for one CHECK line). */
__attribute__((unused)) static const char *t_keep(hb_strbuf *b) {
  static char *bufs[8];
  static int next;
  int i = next++ % 8;
  free(bufs[i]);
  bufs[i] = malloc(b->len + 1);
  memcpy(bufs[i], hb_sb_str(b), b->len + 1);
  hb_sb_free(b);
  return bufs[i];
}

__attribute__((unused)) static const char *estr(const ae *e, uint32_t nrange) {
  hb_strbuf b = HB_STRBUF_INIT;
  map_print_expr(&b, e, nrange);
  return t_keep(&b);
}

__attribute__((unused)) static const char *mstr(const imap *m) {
  hb_strbuf b = HB_STRBUF_INIT;
  map_print(&b, m, NULL);
  return t_keep(&b);
}

/* Reads a map; aborts the test on a reader error (tables must be valid). */
__attribute__((unused)) static imap *rd(hb_arena *a, ae_ctx *c, const char *text) {
  map_read_error err;
  imap *m = map_read(a, c, text, 0, strlen(text), &err);
  if (!m) {
    fprintf(stderr, "test input does not parse: %s\n  at %zu: %s\n", text, err.offset, err.message);
    exit(2);
  }
  return m;
}

/* Reads an expression over d<i>, s<j> (up to 8 each). */
__attribute__((unused)) static const ae *rx(ae_ctx *c, const char *text) {
  map_read_error err;
  const ae *e = map_read_expr(c, text, 8, 8, 0, &err);
  if (!e) {
    fprintf(stderr, "test expression does not parse: %s\n  at %zu: %s\n", text, err.offset, err.message);
    exit(2);
  }
  return e;
}

/* Raw trees written as in the doc's tables: Add(Mul(d0, 8), d1),
 * Constant(-7) or -7, d0, s1. No canonicalisation. */
__attribute__((unused)) static const ae *sx_parse(ae_ctx *c, const char **p) {
  while (isspace((unsigned char)**p)) (*p)++;
  static const struct {
    const char *name;
    ae_kind kind;
  } ops[] = {{"Add", AE_ADD}, {"Mul", AE_MUL}, {"Mod", AE_MOD}, {"FloorDiv", AE_FLOORDIV}, {"CeilDiv", AE_CEILDIV}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    size_t n = strlen(ops[i].name);
    if (!strncmp(*p, ops[i].name, n) && (*p)[n] == '(') {
      *p += n + 1;
      const ae *l = sx_parse(c, p);
      while (isspace((unsigned char)**p) || **p == ',') (*p)++;
      const ae *r = sx_parse(c, p);
      while (isspace((unsigned char)**p)) (*p)++;
      if (**p != ')') {
        fprintf(stderr, "bad s-expression near %s\n", *p);
        exit(2);
      }
      (*p)++;
      return ae_raw(c, ops[i].kind, l, r);
    }
  }
  if (!strncmp(*p, "Constant(", 9)) {
    *p += 9;
    const ae *e = sx_parse(c, p);
    (*p)++;
    return e;
  }
  if (**p == 'd' || **p == 's') {
    char k = **p;
    (*p)++;
    long v = strtol(*p, (char **)p, 10);
    return k == 'd' ? ae_dim(c, (uint32_t)v) : ae_sym(c, (uint32_t)v);
  }
  char *end;
  long long v = strtoll(*p, &end, 10);
  if (end == *p) {
    fprintf(stderr, "bad s-expression near %s\n", *p);
    exit(2);
  }
  *p = end;
  return ae_const(c, v);
}

__attribute__((unused)) static const ae *sx(ae_ctx *c, const char *s) { return sx_parse(c, &s); }

/* Text with every whitespace character removed. */
__attribute__((unused)) static const char *nows(const char *s) {
  hb_strbuf b = HB_STRBUF_INIT;
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) hb_sb_putc(&b, *s);
  return t_keep(&b);
}

/* Seeded pseudo-random numbers (splitmix64) for the randomised tests, which
 * must be deterministic: set rng_state to the seed, then call rnd(). */
__attribute__((unused)) static uint64_t rng_state;
__attribute__((unused)) static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Whether PT (ndims values, no symbols) lies in the map's domain: its
 * dimension intervals and constraints. Tests check evaluated maps with it. */
__attribute__((unused)) static bool dims_in_domain(const imap *m, const int64_t *pt) {
  if (m->known_empty) return false;
  for (uint32_t i = 0; i < m->ndims; i++)
    if (!iv_contains(m->dim_iv[i], pt[i])) return false;
  for (uint32_t i = 0; i < m->ncons; i++) {
    int64_t v;
    if (!ae_eval_point(m->cons[i].expr, pt, m->ndims, NULL, 0, &v) || !iv_contains(m->cons[i].iv, v)) return false;
  }
  return true;
}

#endif
