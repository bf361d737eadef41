/* hloidx-ir-dump [--grammar-only] [--allow-unknown] [--no-verify] FILE:
 * the IR dump (ir_dump.h) of every module of FILE, or its parse error as
 * FILE:OFFSET: error: MESSAGE. A test tool (testdata/parser/accept_*.ir);
 * the last two options are hloidx's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_dump.h"

int main(int argc, char **argv) {
  bool grammar_only = false;
  hlo_parse_options opts = {0};
  int i = 1;
  for (; i < argc - 1; i++) {
    if (strcmp(argv[i], "--grammar-only") == 0) grammar_only = true;
    else if (strcmp(argv[i], "--allow-unknown") == 0) opts.allow_unknown = true;
    else if (strcmp(argv[i], "--no-verify") == 0) opts.no_verify = true;
    else break;
  }
  if (i != argc - 1) {
    fprintf(stderr, "usage: hloidx-ir-dump [--grammar-only] [--allow-unknown] [--no-verify] FILE\n");
    return 2;
  }
  hlo_parse_set_options(&opts);
  const char *path = argv[i];
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
