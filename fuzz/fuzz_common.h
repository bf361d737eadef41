/* Shared helpers of the fuzz entry points (fuzz_*.c).
 *
 * Every entry point is a libFuzzer-style function
 *     int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
 * that builds fresh contexts for each input (so that a crash reproduces
 * from the input alone), runs a part of hloidx through its library APIs,
 * prints every result into a buffer that is then discarded, frees
 * everything and returns 0. Inputs are untrusted bytes: any input must be
 * handled without a crash, a hang, a leak or undefined behaviour. */
#ifndef HLOIDX_FUZZ_COMMON_H
#define HLOIDX_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "../parser/base/oom.h"
#include "../parser/base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The lexer's contract (cli/source.h): the text is followed by this many
 * NUL bytes. The fuzzers give exactly that and no more, so that ASan sees
 * any read beyond it. */
#define FUZZ_PADDING 64

/* A malloc'ed copy of data with FUZZ_PADDING NUL bytes after it. */
static inline char *fuzz_padded_copy(const uint8_t *data, size_t size) {
  char *p = hb_malloc(size + FUZZ_PADDING);
  if (size) memcpy(p, data, size);
  memset(p + size, 0, FUZZ_PADDING);
  return p;
}

typedef void (*fuzz_instr_fn)(ii_ctx *c, hb_strbuf *b, const hlo_instr *in);

/* FN on every instruction of every computation of the modules of DATA,
 * with one analysis context and one print buffer. The modules are read as
 * hloidx reads them or, for a text the verifier rejects, as --no-verify
 * --allow-unknown read it: shapes that disagree with their ops must not
 * crash the analysis either. */
static inline void fuzz_each_instr(const uint8_t *data, size_t size, fuzz_instr_fn fn) {
  char *text = fuzz_padded_copy(data, size);
  hlo_parse_result r;
  hlo_error err;
  int rc = hlo_parse_file(text, size, &r, &err);
  if (rc) {
    hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = true, .no_verify = true});
    rc = hlo_parse_file(text, size, &r, &err);
    hlo_parse_set_options(&(hlo_parse_options){0});
  }
  if (rc == 0) {
    ii_ctx *c = ii_ctx_new();
    hb_strbuf b = HB_STRBUF_INIT;
    for (int i = 0; i < r.n_modules; i++) {
      const hlo_module *m = r.modules[i];
      for (int ci = 0; ci < m->n_computations; ci++) {
        const hlo_computation *comp = m->computations[ci];
        for (int k = 0; k < comp->n_instrs; k++) fn(c, &b, comp->instrs[k]);
      }
      ii_ctx_end_module(c);
    }
    hb_sb_free(&b);
    ii_ctx_free(c);
    hlo_parse_result_free(&r);
  }
  free(text);
}

#endif
