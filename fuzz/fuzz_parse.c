/* Fuzz entry point: the parser and the verifier alone (what --check runs).
 * Both driver functions are exercised: hlo_parse_file (all modules kept)
 * and hlo_parse_file_each (modules handed out one by one), which must agree
 * on success, on the number of modules and on the first error; so must the
 * threaded --check cut into spans at every separator line (a span never
 * accepts what the one-pass parse rejects), and the parse with the grammar
 * alone (hlo_parse_file_grammar_only), which must build the same modules
 * (the same IR dump, ir_dump.h) or report the same error. Every
 * instruction's shape is formatted (the text the analysis and the layout
 * report print), with a buffer too small and one large enough. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>

#include "fuzz_common.h"
#include "hlo_ir.h"
#include "ir_dump.h"

/* The IR dump of R's modules, malloc'd. */
static char *dump(const hlo_parse_result *r, const char *text) {
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  if (!f) abort();
  for (int i = 0; i < r->n_modules; i++) hlo_ir_dump(f, r->modules[i], text);
  fclose(f);
  return buf;
}

static int count_module(hlo_module *m, void *ctx) {
  (*(int *)ctx)++;
  hlo_module_free(m);
  return 0;
}

static void format_shapes(const hlo_module *m) {
  char small[8], big[4096];
  for (int c = 0; c < m->n_computations; c++) {
    const hlo_computation *comp = m->computations[c];
    for (int i = 0; i < comp->n_instrs; i++) {
      const hlo_shape *s = comp->instrs[i]->shape;
      size_t need = hlo_shape_format(s, small, sizeof small);
      size_t again = hlo_shape_format(s, big, sizeof big);
      if (need != again || (need < sizeof big && strlen(big) != need)) abort();
      if (need < sizeof small && strcmp(small, big) != 0) abort();
      (void)hlo_layout_format(s, big, sizeof big);
      (void)hlo_shape_elements(s);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_padded_copy(data, size);
  hlo_parse_result r;
  hlo_error err1, err2;
  int rc1 = hlo_parse_file(text, size, &r, &err1);
  if (rc1 == 0) {
    for (int i = 0; i < r.n_modules; i++) format_shapes(r.modules[i]);
  } else if (err1.offset > size || memchr(err1.message, '\0', sizeof err1.message) == NULL) {
    abort(); /* the diagnostic must point into the text and be a string */
  }
  int n = 0;
  int rc2 = hlo_parse_file_each(text, size, count_module, &n, &err2);
  /* The two drivers must agree (rc2 stops at the first error too). */
  if (rc1 != rc2) abort();
  if (rc1 == 0 && n != r.n_modules) abort();
  if (rc1 != 0 && (err1.offset != err2.offset || strcmp(err1.message, err2.message) != 0)) abort();
  hlo_error err3;
  int rc3 = hlo_check_text_spans(text, size, 1 + (int)(size & 1), 1, &err3);
  if (rc1 != rc3) abort();
  if (rc1 != 0 && (err1.offset != err3.offset || strcmp(err1.message, err3.message) != 0)) abort();
  hlo_parse_result u;
  hlo_error err4;
  int rc4 = hlo_parse_file_grammar_only(text, size, &u, &err4);
  if (rc1 != rc4) abort();
  if (rc1 != 0 && (err1.offset != err4.offset || strcmp(err1.message, err4.message) != 0)) abort();
  if (rc1 == 0) {
    char *a = dump(&r, text), *b = dump(&u, text);
    if (strcmp(a, b) != 0) abort();
    free(a);
    free(b);
    hlo_parse_result_free(&u);
  }
  if (rc1 == 0) hlo_parse_result_free(&r);
  free(text);
  return 0;
}
