/* Unit test of hlo_parse_span and of the threaded --check (parse_parallel.c):
 * spans end exactly at their separator token, and checking by spans on 1..8
 * threads gives the same result and the same error as one pass, also when a
 * "// -----" line sits inside a comment or a string where a span is cut,
 * and without giving way to one pass when a dump ends with a separator.
 * Run by CTest as parser/parallel. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "test_check.h"

/* ---- a growable text ---------------------------------------------------------- */

typedef struct {
  char *p;
  size_t n, cap;
} text;

static void put(text *t, const char *s) {
  size_t k = strlen(s);
  if (t->n + k + 1 > t->cap) {
    t->cap = (t->n + k + 1) * 2;
    t->p = realloc(t->p, t->cap);
    if (!t->p) abort();
  }
  memcpy(t->p + t->n, s, k + 1);
  t->n += k;
}

/* Module I: a parameter and a chain of LINES adds (about 40 bytes a line).
 * MIDDLE, if not NULL, is put before its last instruction (so that a
 * span cut searched from anywhere in the module meets it first);
 * BAD_AT >= 0 makes that add read an undefined name. */
static void put_module(text *t, int i, int lines, const char *middle, int bad_at) {
  char b[160];
  snprintf(b, sizeof b, "HloModule m%d\n\nENTRY e%d {\n  a0 = f32[4]{0} parameter(0)\n", i, i);
  put(t, b);
  for (int k = 1; k <= lines; k++) {
    if (middle && k == lines - 1) put(t, middle);
    snprintf(b, sizeof b, "  %sa%d = f32[4]{0} add(a%d, %s%d)\n", k == lines ? "ROOT " : "", k, k - 1,
             k == bad_at ? "zz" : "a", k - 1);
    put(t, b);
  }
  put(t, "}\n");
}

/* ---- hlo_parse_span ------------------------------------------------------------ */

static int drop(hlo_module *m, void *ctx) {
  int *count = ctx;
  (*count)++;
  hlo_module_free(m);
  return 0;
}

static int span(const char *s, size_t start, size_t stop, int *modules, hlo_error *err) {
  *modules = 0;
  return hlo_parse_span(s, strlen(s), start, stop, drop, modules, NULL, err);
}

static void test_spans(void) {
  const char *s = "HloModule a\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n"
                  "// -----  \n"
                  "HloModule b\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n"
                  "// -----\n"
                  "ENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n";
  size_t s1 = (size_t)(strstr(s, "// -----") - s), e1 = s1 + 10;
  size_t s2 = (size_t)(strstr(s + e1, "// -----") - s), e2 = s2 + 8;
  size_t len = strlen(s);
  int n;
  hlo_error err;
  CHECK(span(s, 0, s1, &n, &err) == 0 && n == 1);
  CHECK(span(s, e1, s2, &n, &err) == 0 && n == 1);
  CHECK(span(s, e2, len, &n, &err) == 0 && n == 1);
  CHECK(span(s, 0, s2, &n, &err) == 0 && n == 2); /* a span may hold several modules */
  CHECK(span(s, e1, len, &n, &err) == 0 && n == 2);
  CHECK(span(s, 0, len, &n, &err) == 0 && n == 3);
  /* stopping at a separator the parse does not end at fails */
  CHECK(span(s, 0, s1 - 2, &n, &err) == 1);
  CHECK(strcmp(err.message, "module span does not end at its separator") == 0 && err.offset == s1);

  /* a "// -----" line inside a comment is no separator token */
  const char *c = "HloModule a\nENTRY e {\n/*\n// -----\n*/\n  ROOT p = f32[] parameter(0)\n}\n"
                  "// -----\nHloModule b\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n";
  size_t fake = (size_t)(strstr(c, "// -----") - c);
  size_t real = (size_t)(strstr(c + fake + 1, "// -----") - c);
  CHECK(span(c, 0, fake, &n, &err) == 1 && err.offset == real);
  CHECK(span(c, 0, real, &n, &err) == 0 && n == 1);
}

/* ---- hlo_check_text: spans and threads against one pass ------------------------- */

/* The one-pass result and error of T, and the same from spans of about
 * 1 KB on 1..8 threads. */
static void same_from_spans(const char *what, const text *t) {
  hlo_error want, got;
  memset(&want, 0, sizeof want);
  int rc1 = hlo_check_text(t->p, t->n, 1, &want);
  for (int jobs = 1; jobs <= 8; jobs *= 2) {
    memset(&got, 0, sizeof got);
    int rc = hlo_check_text_spans(t->p, t->n, jobs, 1000, &got);
    if (rc != rc1 || (rc && (got.offset != want.offset || strcmp(got.message, want.message) != 0))) {
      fprintf(stderr, "%s, %d threads: rc %d at %zu '%s'; one pass: rc %d at %zu '%s'\n", what, jobs, rc,
              got.offset, got.message, rc1, want.offset, want.message);
      failures++;
    }
  }
}

static void test_spans_against_one_pass(void) {
  /* 60 modules of ~2 KB */
  const int N = 60, L = 50;
  struct {
    const char *what, *middle, *sep;
    int special, bad_at, rc;
    const char *next_starts; /* put before the module after SPECIAL */
  } cases[] = {
      {"valid", NULL, "// -----\n", -1, -1, 0, NULL},
      {"valid, blanks after separators", NULL, "// -----  \t\n", -1, -1, 0, NULL},
      {"valid, CRLF separators", NULL, "\r\n// -----\r\n", -1, -1, 0, NULL},
      {"error in the first module", NULL, "// -----\n", 0, 7, 1, NULL},
      {"error in a middle module", NULL, "// -----\n", 31, 30, 1, NULL},
      {"error in the last module", NULL, "// -----\n", N - 1, L, 1, NULL},
      /* separators inside a comment and a string near the end of every
       * module past the middle: the cuts there are not separator tokens */
      {"separators in a comment", "/*\n// -----\n// -----\n*/\n", "// -----\n", -2, -1, 0, NULL},
      {"separators in a string", "  s = f32[4]{0} add(a0, a0), metadata={op_name=\"x\n// -----\ny\"}\n",
       "// -----\n", -2, -1, 0, NULL},
      /* a comment opened before a separator and closed after it swallows
       * the separator: one pass reads one long module, with an error */
      {"comment over a separator", "/*\n", "// -----\n", 20, -1, 1, "*/\n"},
      /* an empty chunk between two separators, and one at the end */
      {"empty chunks", NULL, "// -----\n\n// -----\n", -1, -1, 0, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    text t = {0};
    int special = cases[i].special;
    for (int m = 0; m < N; m++) {
      if (m) put(&t, cases[i].sep);
      if (m == special + 1 && cases[i].next_starts) put(&t, cases[i].next_starts);
      /* special == -2: MIDDLE in every module from N/2 on */
      bool mark = special == -2 ? m >= N / 2 : m == special;
      put_module(&t, m, L, mark ? cases[i].middle : NULL, mark ? cases[i].bad_at : -1);
    }
    if (i + 1 == sizeof cases / sizeof cases[0]) put(&t, "// -----\n\n// end\n");
    hlo_error err;
    int rc = hlo_check_text(t.p, t.n, 1, &err);
    if (rc != cases[i].rc) {
      fprintf(stderr, "%s: rc %d, want %d (%s)\n", cases[i].what, rc, cases[i].rc, rc ? err.message : "");
      failures++;
    }
    same_from_spans(cases[i].what, &t);
    free(t.p);
  }
}

/* A valid text whose last separator is followed by blanks and '//' lines
 * only: its spans do not give way to the one-pass parse. */
static void test_separator_at_the_end(void) {
  text t = {0};
  for (int m = 0; m < 20; m++) {
    put_module(&t, m, 50, NULL, -1);
    put(&t, "// -----\n");
  }
  put(&t, "\n// the end\n\n");
  unsigned long before = hlo_check_span_fallbacks();
  hlo_error err;
  CHECK(hlo_check_text_spans(t.p, t.n, 2, 1000, &err) == 0);
  CHECK(hlo_check_span_fallbacks() == before);
  free(t.p);
}

/* hlo_check_text itself cuts only texts of 2 MB and more: 150 modules of
 * ~18 KB, with an error in the last one or none. */
static void test_large_text(void) {
  for (int bad = 0; bad <= 1; bad++) {
    text t = {0};
    for (int m = 0; m < 150; m++) {
      if (m) put(&t, "// -----\n");
      put_module(&t, m, 500, NULL, bad && m == 149 ? 250 : -1);
    }
    CHECK(t.n > 2 * 1024 * 1024);
    hlo_error e1, e4;
    int rc1 = hlo_check_text(t.p, t.n, 1, &e1), rc4 = hlo_check_text(t.p, t.n, 4, &e4);
    CHECK(rc1 == bad && rc4 == bad);
    if (bad) CHECK(e1.offset == e4.offset && strcmp(e1.message, e4.message) == 0);
    free(t.p);
  }
}

/* hlo_check_text_warn: a large text whose modules 40 and 120 have a
 * warning (their instructions without a computation) on 1 and 4 threads:
 * the callback sees those two, in text order, on this thread. */
typedef struct {
  int n;
  size_t offsets[4];
} seen_warnings;

static void note_warnings(const hlo_module *m, void *ctx) {
  seen_warnings *w = ctx;
  if (w->n < 4) w->offsets[w->n] = m->warnings[0].offset;
  w->n++;
}

static void test_warnings(void) {
  text t = {0};
  size_t at[2] = {0, 0};
  for (int m = 0; m < 150; m++) {
    if (m) put(&t, "// -----\n");
    if (m == 40 || m == 120) {
      at[m == 120] = t.n;
      put(&t, "p = f32[2] parameter(0)\nROOT n = f32[2] negate(p)\n");
      continue;
    }
    put_module(&t, m, 500, NULL, -1);
  }
  for (int jobs = 1; jobs <= 4; jobs += 3) {
    seen_warnings w = {0, {0}};
    hlo_error err;
    CHECK(hlo_check_text_warn(t.p, t.n, jobs, note_warnings, &w, &err) == 0);
    CHECK(w.n == 2 && w.offsets[0] == at[0] && w.offsets[1] == at[1]);
  }
  free(t.p);
}

int main(void) {
  test_spans();
  test_spans_against_one_pass();
  test_separator_at_the_end();
  test_large_text();
  test_warnings();
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  puts("parse_parallel: all checks passed");
  return 0;
}
