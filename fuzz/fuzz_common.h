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

#include "../parser/base/oom.h"

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

#endif
