/* --tilings: the valid tilings of each output (analysis/tilings.h) and the
 * bytes each moves per operand. Per output:
 *
 *     # NAME (output N): V of T tilings valid (d0: 1, 2, 4, 5; d1: 1, 2, 4, 6)
 *       1x1: 20 tiles; operand 0: 80 bytes (layout tiles: 80 bytes); operand 1: ...
 *       ...
 *
 * listing the first --max-tilings valid tilings in XLA's order (first
 * dimension outermost, sizes ascending), then `(... more)` when there are
 * more. A count that could not be made exact says `at least V`. An output
 * with an operand map without a symbolic tile has none: `no tilings:
 * operand K has no symbolic tile (WHY)`. Bytes: the elements every tile's
 * box loads, summed over all tiles and the operand's maps (tile_run.h);
 * `(estimate)` when a sum is not exact. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "../parser/base/oom.h"
#include "tile_run.h"
#include "tilings.h"

static void operand_bytes(hb_strbuf *b, const ft_operand *op) {
  if (!op->counted) {
    hb_sb_puts(b, "n/a");
    return;
  }
  if (!op->layout_ok) {
    hb_sb_put_u128(b, op->loaded);
    hb_sb_puts(b, " elements");
    return;
  }
  hb_sb_put_u128(b, tf_bytes(op->loaded, op->layout.elem_bits));
  hb_sb_puts(b, " bytes (layout tiles: ");
  if (op->layout.padded) {
    hb_sb_put_u128(b, tf_bytes(op->tiles_loaded, op->layout.tile_bits));
    hb_sb_puts(b, " bytes)");
  } else {
    hb_sb_puts(b, "n/a)");
  }
  if (!op->exact) hb_sb_puts(b, " (estimate)");
}

static void block(index_run *r, const hlo_instr *in, int64_t out, const tile_block *blk) {
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "# %s (output %lld): ", in->name, (long long)out);
  if (blk->status != II_OK) {
    hb_sb_printf(b, "not analyzed: %s\n", blk->err.message);
    return;
  }
  ft_tiling *t = (ft_tiling *)&blk->t;
  tg_count cnt;
  tg_count_valid(t, &cnt);
  if (!cnt.tileable) {
    hb_sb_printf(b, "no tilings: %s\n", cnt.why);
    return;
  }
  if (!cnt.exact) hb_sb_puts(b, "at least ");
  hb_sb_put_u128(b, cnt.valid);
  hb_sb_puts(b, " of ");
  hb_sb_put_u128(b, cnt.total);
  hb_sb_puts(b, " tilings valid (");
  for (uint32_t i = 0; i < t->rank; i++) {
    int64_t c[TG_MAX_CANDIDATES];
    uint32_t nc = tg_candidates(t->extent[i], c);
    hb_sb_printf(b, "%sd%u:", i ? "; " : "", i);
    for (uint32_t k = 0; k < nc; k++) hb_sb_printf(b, "%s %lld", k ? "," : "", (long long)c[k]);
  }
  hb_sb_puts(b, t->rank ? ")\n" : "scalar output)\n");
  tg_iter it;
  tg_begin(ii_ctx_arena(r->ctx), t, false, &it);
  int64_t *ts = hb_calloc(t->rank + 1, sizeof *ts);
  hb_arena *each = hb_arena_new(); /* one tiling's maps and sums: O(entries), not O(entries * tilings) */
  long listed = 0;
  ae_ctx *x = ii_ctx_ae(r->ctx);
  while (listed < r->o->max_tilings && tg_next(&it, ts)) {
    hb_arena_reset_keep(each); /* (its blocks serve the next tiling: no page faults again) */
    ae_ctx_scope_begin(x); /* (the tiling's offset expressions: gone with its line) */
    ft_instantiate_in(r->ctx, t, ts, each);
    hb_sb_puts(b, "  ");
    for (uint32_t i = 0; i < t->rank; i++) hb_sb_printf(b, "%s%lld", i ? "x" : "", (long long)ts[i]);
    if (!t->rank) hb_sb_puts(b, "()");
    hb_sb_puts(b, ": ");
    hb_sb_put_u128(b, t->total_tiles);
    hb_sb_puts(b, t->total_tiles == 1 ? " tile" : " tiles");
    for (uint32_t k = 0; k < t->noperands; k++) { /* the operands the output reads */
      hb_sb_printf(b, "; operand %u: ", t->operands[k].k);
      operand_bytes(b, &t->operands[k]);
    }
    hb_sb_putc(b, '\n');
    ae_ctx_scope_end(x);
    listed++;
    index_flush_block(r);
  }
  free(ts);
  hb_arena_free(each);
  if (it.exhausted) hb_sb_printf(b, "  (listing stopped after %llu candidates)\n", (unsigned long long)TG_STEPS);
  else if ((tf_count)listed < cnt.valid) {
    hb_sb_puts(b, "  (");
    hb_sb_put_u128(b, cnt.valid - (tf_count)listed);
    hb_sb_puts(b, cnt.exact ? " more)\n" : " or more)\n");
  }
}

static void instr(index_run *r, const hlo_instr *in) {
  if (tile_selected(r, in)) tile_each_output(r, in, block);
}

const index_report index_report_tilings = {NULL, index_module_header, index_computation_header, instr, NULL, NULL};
