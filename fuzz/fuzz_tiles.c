/* Fuzz entry point: the tile modes (hloidx --symbolic-tile, --tiles,
 * --tilings, --tiles --verify) through the library APIs, on every output of
 * every instruction (fuzz_analysis takes output 0 of each on the way).
 *
 * Per output (and the ids just outside the valid range, which must be
 * rejected): the symbolic tile of every operand map, printed; the valid
 * tilings counted, the first two listed (ordered and partial
 * enumerations) with their byte sums and distinct elements, each entry of
 * the first checked by enumeration (tile_verify.h, bounded by its limits);
 * the output tile of the instruction's backend_config, and tile sizes of
 * one, of the whole output and of zero (rejected) through ft_tile; the
 * table of the tilings in parts (tg_table) agreeing with the count. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "backend_config.h"
#include "fuzz_common.h"
#include "fusion_tiling.h"
#include "../parser/base/strbuf.h"
#include "tile_verify.h"
#include "tilings.h"

/* Outputs queried per instruction (the rest behave alike). */
#define MAX_IDS 8

static void print_tiles(ii_ctx *c, hb_strbuf *b, const ft_tiling *t) {
  for (uint32_t i = 0; i < t->nentries; i++)
    if (t->entries[i].status == ST_OK) (void)st_print(b, ii_ctx_arena(c), &t->entries[i].tile);
  hb_sb_reset(b);
}

/* The table of an output in parts (tg_table), sifted a map at a time,
 * keeps what tg_count_valid counts, in tg_next's order. */
static void table(ii_ctx *c, const ft_tiling *t, const tg_count *cnt) {
  tg_table tb;
  if (!cnt->tileable || !cnt->exact || !tg_table_begin(&tb, t->extent, t->rank)) return;
  bool whole = true;
  for (uint32_t e = 0; e < t->nentries && whole; e++) {
    ft_tiling part = *t;
    part.entries = &t->entries[e];
    part.nentries = 1;
    whole = tg_table_sift(&tb, &part);
  }
  if (whole) {
    if (tb.valid != cnt->valid) abort();
    tg_iter it;
    tg_begin(ii_ctx_arena(c), t, false, &it);
    int64_t *ts = hb_arena_array(ii_ctx_arena(c), t->rank + 1, sizeof *ts);
    for (uint64_t j = 0; j < tb.n; j++)
      if (tb.ok[j] && (!tg_next(&it, ts) || memcmp(ts, &tb.ts[j * t->rank], t->rank * sizeof *ts))) abort();
  }
  tg_table_end(&tb);
}

static void listed(ii_ctx *c, ft_tiling *t, bool partial) {
  tg_count cnt;
  tg_count_valid(t, &cnt);
  if (!partial) table(c, t, &cnt);
  tg_iter it;
  tg_begin(ii_ctx_arena(c), t, partial, &it);
  int64_t *ts = hb_arena_array(ii_ctx_arena(c), t->rank + 1, sizeof *ts);
  for (int n = 0; n < 2 && tg_next(&it, ts); n++) {
    ft_instantiate(c, t, ts);
    ft_distinct(c, t);
    for (uint32_t i = 0; n == 0 && i < t->nentries; i++) {
      tv_result res;
      if (t->entries[i].status == ST_OK) tv_check(t, &t->entries[i], &res);
    }
  }
}

/* ft_tile at the backend_config's sizes, at all ones, at the whole output
 * and at a zero (an error). */
static void sized(ii_ctx *c, const hlo_instr *in, int64_t out, uint32_t rank) {
  ft_tiling t;
  ii_error err;
  int64_t *sizes;
  uint32_t n;
  char why[200];
  ii_ctx_reset(c);
  if (bc_output_tile(ii_ctx_arena(c), in, out, &sizes, &n, why, sizeof why) == BC_FOUND)
    (void)ft_tile(c, in, out, sizes, n, &t, &err);
  const hlo_shape *s = in->shape->type == HLO_TUPLE ? in->shape->elems[out] : in->shape;
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER || s->rank != (int)rank) return;
  int64_t *ts = hb_calloc(rank + 1, sizeof *ts); /* (ii_ctx_reset frees the context's arena) */
  for (int v = 0; v < 3; v++) {
    ii_ctx_reset(c);
    for (uint32_t i = 0; i < rank; i++) ts[i] = v == 0 ? 1 : v == 1 ? (s->dims[i] > 0 ? s->dims[i] : 1) : 0;
    if (ft_tile(c, in, out, ts, rank, &t, &err) != II_OK && memchr(err.message, '\0', sizeof err.message) == NULL)
      abort();
  }
  free(ts);
}

static void tile_instr(ii_ctx *c, hb_strbuf *b, const hlo_instr *in) {
  int64_t nout = ii_num_outputs(in);
  for (int64_t k = -1; k <= nout && k <= MAX_IDS; k++) {
    ii_ctx_reset(c);
    ft_tiling t;
    ii_error err;
    if (ft_symbolic(c, in, k, &t, &err) != II_OK) {
      if (memchr(err.message, '\0', sizeof err.message) == NULL) abort();
      continue;
    }
    print_tiles(c, b, &t);
    listed(c, &t, false);
    ii_ctx_reset(c);
    if (ft_symbolic(c, in, k, &t, &err) == II_OK) listed(c, &t, true);
    sized(c, in, k, t.rank);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_each_instr(data, size, tile_instr);
  return 0;
}
