/* A parse context for the byte scanners' unit tests (operand, value and
 * sharding scans): the text, an arena and an intern table, the lexer at
 * the start, DEPTH brackets open. scan_ctx_free also frees what a scan may
 * have pushed or cached. */
#ifndef HLOIDX_TEST_SCAN_CTX_H
#define HLOIDX_TEST_SCAN_CTX_H

#include <stdlib.h>
#include <string.h>

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

/* The shapes the cache knows in a context made by scan_ctx_with_shapes:
 * ARRAY's text is "f32[2]{0}", TUPLE's "(f32[], s32[2])", both before the
 * text scanned (the shapes themselves are zeroed: only identity counts). */
#define SCAN_SHAPES_PREFIX "f32[2]{0} (f32[], s32[2]) "

/* A context for a module begun, over SCAN_SHAPES_PREFIX followed by TEXT:
 * both are copied to *DATA (the caller frees it), and the lexer is at TEXT. */
static inline parse_ctx *scan_ctx_with_shapes(const char *text, char **data, hlo_shape *array, hlo_shape *tuple) {
  size_t plen = strlen(SCAN_SHAPES_PREFIX), tlen = strlen(text);
  char *d = malloc(plen + tlen + 1);
  if (!d) abort();
  memcpy(d, SCAN_SHAPES_PREFIX, plen);
  memcpy(d + plen, text, tlen + 1);
  parse_ctx *P = scan_ctx_new(d, plen + tlen, 0);
  P->scache_gen = 1; /* as for a module begun */
  *array = (hlo_shape){0};
  *tuple = (hlo_shape){0};
  pc_shape_cache_put(P, array, (pc_loc){0, 9});
  pc_shape_cache_put(P, tuple, (pc_loc){10, 25});
  *data = d;
  return P;
}

static void scan_ctx_free(parse_ctx *P) {
  pc_vec_free(&P->operands);
  pc_shape_cache_free(P);
  hlo_intern_free(P->in);
  arena_free(P->a);
  free(P);
}

#endif
