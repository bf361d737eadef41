/* hloidx-ir-dump [--grammar-only] FILE: the IR dump (ir_dump.h) of every
 * module of FILE, or its parse error as FILE:OFFSET: error: MESSAGE.
 * A test tool (testdata/parser/accept_*.ir). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_dump.h"

int main(int argc, char **argv) {
  bool grammar_only = argc == 3 && strcmp(argv[1], "--grammar-only") == 0;
  if (argc != 2 + grammar_only) {
    fprintf(stderr, "usage: hloidx-ir-dump [--grammar-only] FILE\n");
    return 2;
  }
  const char *path = argv[1 + grammar_only];
  FILE *in = fopen(path, "rb");
  if (!in) {
    perror(path);
    return 2;
  }
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap);
  for (;;) {
    if (!text) abort();
    n += fread(text + n, 1, cap - n - 1, in);
    if (n < cap - 1) break;
    cap *= 2;
    text = realloc(text, cap);
  }
  fclose(in);
  text[n] = '\0';
  hlo_parse_result r;
  hlo_error err;
  int rc = grammar_only ? hlo_parse_file_grammar_only(text, n, &r, &err) : hlo_parse_file(text, n, &r, &err);
  if (rc) {
    printf("%s:%zu: error: %s\n", path, err.offset, err.message);
  } else {
    for (int i = 0; i < r.n_modules; i++) hlo_ir_dump(stdout, r.modules[i], text);
    hlo_parse_result_free(&r);
  }
  free(text);
  return rc;
}
