/* The coarse tokens (hlo_parser.y's header) on whole input files: each file
 * named on the command line must give the same result with and without
 * them (hlo_parse_file and hlo_parse_file_grammar_only): the same IR
 * (ir_dump.h), or the same error. A valid file must also be taken by the
 * first parse without the diagnostic re-parse. Then the same for all the
 * valid files joined by "// -----" lines, as in a dump folder concatenated
 * (the bench input): there later modules meet shapes known from earlier
 * ones. Run by CTest as parser/grammar_only, on testdata/ and the shared
 * corpus. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_dump.h"
#include "test_check.h"

/* The whole file PATH, NUL-terminated, or NULL. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *p = malloc(cap);
  for (;;) {
    if (!p) abort();
    n += fread(p + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
    cap *= 2;
    p = realloc(p, cap);
  }
  fclose(f);
  p[n] = '\0';
  *len = n;
  return p;
}

/* The dump of every module, or the error, as one malloc'd string. */
static char *outcome(const char *text, size_t len, bool grammar_only, int *rc) {
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  if (!f) abort();
  hlo_parse_result r;
  hlo_error err;
  *rc = grammar_only ? hlo_parse_file_grammar_only(text, len, &r, &err) : hlo_parse_file(text, len, &r, &err);
  if (*rc) {
    fprintf(f, "error at %zu: %s\n", err.offset, err.message);
    if (err.note[0]) fprintf(f, "note at %zu: %s\n", err.note_offset, err.note);
  } else {
    for (int i = 0; i < r.n_modules; i++) hlo_ir_dump(f, r.modules[i], text);
    hlo_parse_result_free(&r);
  }
  fclose(f);
  return buf;
}

/* Whether TEXT parses; checks the two parses against each other. */
static bool check_text(const char *what, const char *text, size_t len) {
  int before = failures, rc1, rc2;
  unsigned long retries = hlo_parse_retries();
  char *a = outcome(text, len, false, &rc1);
  if (rc1 == 0) CHECK(hlo_parse_retries() == retries); /* taken by the first parse on its own */
  char *b = outcome(text, len, true, &rc2);
  CHECK(rc1 == rc2);
  if (strcmp(a, b) != 0) {
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    size_t from = i > 200 ? i - 200 : 0;
    fprintf(stderr, "the parses differ at byte %zu of the dump:\n--- coarse\n%.400s\n--- grammar only\n%.400s\n", i,
            a + from, b + from);
    failures++;
  }
  if (failures > before) fprintf(stderr, "  in %s\n", what);
  free(a);
  free(b);
  return rc1 == 0;
}

int main(int argc, char **argv) {
  size_t cap = 1 << 20, n = 0;
  char *all = malloc(cap);
  int valid = 0;
  for (int i = 1; i < argc; i++) {
    size_t len;
    char *text = read_file(argv[i], &len);
    if (!text) {
      fprintf(stderr, "cannot read %s\n", argv[i]);
      failures++;
      continue;
    }
    if (check_text(argv[i], text, len)) {
      valid++;
      while (n + len + 16 > cap) cap *= 2;
      all = realloc(all, cap);
      if (!all) abort();
      memcpy(all + n, text, len);
      n += len;
      memcpy(all + n, "\n// -----\n", 10);
      n += 10;
    }
    free(text);
  }
  if (!all) abort();
  all[n] = '\0';
  if (valid > 0 && !check_text("the files joined", all, n)) {
    fprintf(stderr, "the valid files joined do not parse\n");
    failures++;
  }
  free(all);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("grammar_only: %d files (%d valid), and the valid ones joined, passed\n", argc - 1, valid);
  return 0;
}
