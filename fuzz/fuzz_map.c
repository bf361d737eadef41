/* Fuzz entry point: the indexing-map reader and the simplifier (the path of
 * hloidx --map), plus composition and unused-symbol removal.
 *
 * The input is split into maps at blank lines exactly as hloidx --map does
 * (map_read_next_chunk); each map is read, simplified in replace-points mode under
 * the same node budget as the CLI, and printed in both layouts. A copy is
 * also simplified in point-preserving mode, and a map whose result count
 * equals its dimension count is composed with itself and simplified (the
 * operation fusions perform). Each map's symbolic tile is derived (both
 * semantics), printed and evaluated at a few tile sizes (--symbolic-tile
 * --map and the tile modes). */
#include <stdio.h>

#include "../parser/arena.h"
#include "affine_expr.h"
#include "fuzz_common.h"
#include "map_print.h"
#include "map_read.h"
#include "simplify.h"
#include "strbuf.h"
#include "symbolic_tile.h"

#define NODE_BUDGET ((size_t)4 << 20) /* as cli/cmd_map.c */

static bool budgeted_simplify(imap *m, simplify_mode mode) {
  return imap_simplify_budgeted(m, mode, NODE_BUDGET) == SIMPLIFY_OK;
}

static void print_both(strbuf *b, const imap *m) {
  map_print(b, m, &(map_print_opts){true, 2});
  map_print(b, m, &(map_print_opts){false, 0});
  sb_reset(b);
}

static void tile_of(arena *a, strbuf *b, const imap *m, bool xla_compat) {
  st_tile t;
  char why[400];
  if (st_derive(a, m, xla_compat, &t, why, sizeof why) != ST_OK) return;
  st_print(b, a, &t);
  sb_reset(b);
  int64_t ts[64], sizes[64], strides[64], extent[64];
  if (t.ndims > 64 || t.nresults > 64) return;
  for (int v = 1; v <= 3; v++) {
    for (uint32_t i = 0; i < t.ndims; i++) ts[i] = v == 3 ? t.size_iv[i].hi : v, extent[i] = t.size_iv[i].hi;
    bool ok = true;
    for (uint32_t i = 0; i < t.ndims; i++) ok &= ts[i] >= 1 && extent[i] >= 1 && extent[i] <= ((int64_t)1 << 40);
    if (!ok) continue;
    (void)st_eval(&t, ts, sizes, strides);
    (void)st_holds(&t, ts);
    imap *o = st_offsets_map(a, &t, ts, extent, NULL);
    if (o) print_both(b, o);
  }
}

static void one_map(arena *a, ae_ctx *ctx, strbuf *b, const char *s, size_t start, size_t end) {
  map_read_error err;
  imap *m = map_read(a, ctx, s, start, end, &err);
  if (!m) {
    if (err.offset < start || err.offset > end || memchr(err.message, '\0', sizeof err.message) == NULL) abort();
    return;
  }
  tile_of(a, b, m, false);
  tile_of(a, b, m, true);
  imap *keep = imap_copy(a, m);
  if (budgeted_simplify(m, SIMPLIFY_REPLACE_POINTS)) print_both(b, m);
  if (budgeted_simplify(keep, SIMPLIFY_PRESERVE_POINTS)) {
    (void)imap_remove_unused_symbols(keep, NULL);
    print_both(b, keep);
  }
  if (m->nresults == m->ndims && !m->undefined) {
    imap *sq = imap_compose(a, m, m);
    if (budgeted_simplify(sq, SIMPLIFY_REPLACE_POINTS)) print_both(b, sq);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = fuzz_padded_copy(data, size);
  ae_ctx *ctx = ae_ctx_new();
  arena *a = arena_new();
  strbuf b = STRBUF_INIT;
  size_t pos = 0, start, end;
  while (map_read_next_chunk(s, size, &pos, &start, &end)) {
    arena_reset(a);
    one_map(a, ctx, &b, s, start, end);
  }
  sb_free(&b);
  arena_free(a);
  ae_ctx_free(ctx);
  free(s);
  return 0;
}
