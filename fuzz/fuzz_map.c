/* Fuzz entry point: the indexing-map reader and the simplifier (the path of
 * hloidx --map), plus composition, unused-symbol removal and the map
 * operations of map_ops.h with the variables' names.
 *
 * The input is split into maps at blank lines exactly as hloidx --map does
 * (map_read_next_chunk); each map is read, simplified in replace-points mode under
 * the same node budget as the CLI, and printed in both layouts. A copy is
 * also simplified in point-preserving mode, and a map whose result count
 * equals its dimension count is composed with itself and simplified (the
 * operation fusions perform). Each map's symbolic tile is derived (both
 * semantics), printed and evaluated at a few tile sizes (--symbolic-tile
 * --map and the tile modes). The names read with the map are printed
 * with it, and go through a sub-map, symbols -> dimensions and the removal
 * of unused variables; the map is evaluated at its intervals' lower
 * corner, and its first result ranged, over small domains. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "fuzz_common.h"
#include "map_ops.h"
#include "map_print.h"
#include "map_read.h"
#include "simplify.h"
#include "../parser/base/strbuf.h"
#include "symbolic_tile.h"

#define NODE_BUDGET ((size_t)4 << 20) /* as cli/cmd_map.c */

static bool budgeted_simplify(imap *m, simplify_mode mode) {
  return imap_simplify_budgeted(m, mode, NODE_BUDGET) == SIMPLIFY_OK;
}

static void print_both(hb_strbuf *b, const imap *m) {
  map_print(b, m, &(map_print_opts){true, 2});
  map_print(b, m, &(map_print_opts){false, 0});
  hb_sb_reset(b);
}

static void tile_of(hb_arena *a, hb_strbuf *b, const imap *m, bool xla_compat) {
  st_tile t;
  char why[400];
  if (st_derive(a, m, xla_compat, &t, why, sizeof why) != ST_OK) return;
  st_print(b, a, &t);
  hb_sb_reset(b);
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

/* The map operations with names (cheap ones; enumeration only over small domains). */
static void named_ops(hb_arena *a, hb_strbuf *b, mo_map n) {
  map_print_named(b, n.map, &n.names, &(map_print_opts){true, 0});
  if (n.map->undefined) return;
  uint32_t first = 0;
  mo_map s = mo_submap(a, (mo_map){imap_copy(a, n.map), n.names}, &first, n.map->nresults ? 1 : 0);
  s = mo_symbols_to_dims(a, s);
  (void)mo_remove_unused(&s, MO_UNUSED_VARS);
  map_print_named(b, s.map, &s.names, NULL);
  uint32_t nv = n.map->ndims + imap_nsyms(n.map);
  int64_t *pt = hb_arena_array(a, nv + 1, sizeof *pt), *res = hb_arena_array(a, n.map->nresults + 1, sizeof *res);
  mo_violation *viol = hb_arena_array(a, nv + n.map->ncons + 1, sizeof *viol);
  for (uint32_t v = 0; v < nv; v++) pt[v] = v < n.map->ndims ? n.map->dim_iv[v].lo : n.map->sym_iv[v - n.map->ndims].lo;
  uint32_t nviol;
  (void)mo_eval(n.map, pt, res, viol, &nviol);
  int64_t *tuples;
  uint64_t ntuples;
  const char *why;
  (void)mo_image(a, n.map, pt, 1024, &tuples, &ntuples, &why);
  if (n.map->nresults) {
    mo_range_info ri;
    mo_range(n.map, 0, 4096, &ri);
  }
  hb_sb_reset(b);
}

static void one_map(hb_arena *a, ae_ctx *ctx, hb_strbuf *b, const char *s, size_t start, size_t end) {
  map_read_error err;
  mo_map named;
  imap *m = map_read_named(a, ctx, s, start, end, &named.names, &err);
  if (!m) {
    if (err.offset < start || err.offset > end || memchr(err.message, '\0', sizeof err.message) == NULL) abort();
    return;
  }
  tile_of(a, b, m, false);
  tile_of(a, b, m, true);
  named.map = imap_copy(a, m);
  named_ops(a, b, named);
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
  hb_arena *a = hb_arena_new();
  hb_strbuf b = HB_STRBUF_INIT;
  size_t pos = 0, start, end;
  while (map_read_next_chunk(s, size, &pos, &start, &end)) {
    hb_arena_reset(a);
    one_map(a, ctx, &b, s, start, end);
  }
  hb_sb_free(&b);
  hb_arena_free(a);
  ae_ctx_free(ctx);
  free(s);
  return 0;
}
