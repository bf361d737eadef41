/* A parse context for the byte scanners' unit tests (operand, value and
 * sharding scans): the text, an arena and an intern table, the lexer at
 * the start, DEPTH brackets open. scan_ctx_free also frees what a scan may
 * have pushed or cached. */
#ifndef HLOIDX_TEST_SCAN_CTX_H
#define HLOIDX_TEST_SCAN_CTX_H

#include <stdlib.h>

#include "arena.h"
#include "parse_ctx.h"

static parse_ctx *scan_ctx_new(const char *text, size_t len, int depth) {
  parse_ctx *P = calloc(1, sizeof *P);
  if (!P) abort();
  P->data = text;
  P->len = len;
  P->depth = depth;
  P->a = arena_new();
  P->in = hlo_intern_new(P->a);
  hlo_lexer_init(&P->lx, text, len, 0);
  return P;
}

static void scan_ctx_free(parse_ctx *P) {
  pc_vec_free(&P->operands);
  pc_shape_cache_free(P);
  arena_free(P->a);
  free(P);
}

#endif
