/* The folded tokens on whole input files: each file named on the command
 * line that parses (the others are skipped) must be taken by the folded
 * parse without the token-by-token re-parse that follows a failure, and
 * must build the same modules as hlo_parse_file_unfolded (test_same_ir.h).
 * Then the same for all of those files joined by "// -----" lines, as in
 * a dump folder concatenated (the bench input): there later modules meet
 * shapes known from earlier ones, which the folds use.
 * Run by CTest as parser/fold_inputs, on testdata/ and the shared corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "test_check.h"
#include "test_same_ir.h"

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

/* Whether TEXT parses; if so, checks it against the unfolded parse. */
static bool check_text(const char *what, const char *text, size_t len) {
  hlo_parse_result rf, ru;
  hlo_error ef, eu;
  unsigned long retries = hlo_parse_retries();
  if (hlo_parse_file(text, len, &rf, &ef) != 0) return false;
  int before = failures;
  CHECK(hlo_parse_retries() == retries); /* taken by the folded parse on its own */
  int ru_rc = hlo_parse_file_unfolded(text, len, &ru, &eu);
  CHECK(ru_rc == 0);
  if (ru_rc == 0) {
    CHECK(rf.n_modules == ru.n_modules);
    for (int i = 0; i < rf.n_modules && i < ru.n_modules; i++)
      if (!same_module(rf.modules[i], ru.modules[i])) {
        fprintf(stderr, "module %d ('%s') differs\n", i, rf.modules[i]->name);
        failures++;
      }
    hlo_parse_result_free(&ru);
  }
  if (failures > before) fprintf(stderr, "  in %s\n", what);
  hlo_parse_result_free(&rf);
  return true;
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
  printf("fold_inputs: %d valid files of %d, and all of them joined, passed\n", valid, argc - 1);
  return 0;
}
