/* --tiles (text): the operand tiles of one tiling per output
 * (analysis/fusion_tiling.h; which instructions, outputs and tile sizes:
 * tile_run.h). Per output, a header line
 *
 *     # NAME (output N): tile 8x128 (given) over f32[157,150]: 20x2 = 40 tiles
 *
 * ("(backend_config)" for sizes read from the fusion; ", constraints do
 * not hold" when some operand tile's constraints fail at these sizes),
 * then per operand
 *
 *     operand K: NAME SHAPE, MEMORY SPACE
 *       offsets MAP                 tile index -> operand offsets of its box
 *       sizes (..), strides (..)
 *       constraints: TEXT (hold)    only when not always satisfied
 *       first tile: E elements, B bytes (layout tiles: P bytes)
 *       all tiles: E elements, B bytes (layout tiles: P bytes)
 *       reads per element: R (L loads of D distinct elements)
 *
 * ("all tiles (N read it)" when only N tiles meet the map's domain, as
 * for an operand of a concatenate; the first tile is the first of them).
 * (An operand read along several paths has one `map I of M:` group per
 * map, indented, and one reads-per-element line; `no symbolic tile (WHY)`
 * replaces a map's lines when XLA derives no tile). Without tile sizes the
 * header says `symbolic tiles only (WHY)` and each operand map shows its
 * symbolic tile in XLA's text. Bytes are exact unless marked `(estimate:
 * WHY)`. */
#include <stdio.h>
#include <string.h>

#include "map_print.h"
#include "tile_run.h"

static void put_list(hb_strbuf *b, const int64_t *v, uint32_t n, const char *sep) {
  for (uint32_t i = 0; i < n; i++) {
    if (i) hb_sb_puts(b, sep);
    hb_sb_put_i64(b, v[i]);
  }
}

/* N and the noun, singular for 1. */
static void put_n(hb_strbuf *b, tf_count n, const char *one, const char *many) {
  hb_sb_put_u128(b, n);
  hb_sb_putc(b, ' ');
  hb_sb_puts(b, n == 1 ? one : many);
}

static void put_bytes(hb_strbuf *b, tf_count n, int64_t bits) {
  uint64_t v = tf_bytes(n, bits);
  if (v == UINT64_MAX) hb_sb_puts(b, "more than 2^64 bytes");
  else put_n(b, v, "byte", "bytes");
}

/* `E elements, B bytes (layout tiles: P bytes)` */
static void put_amount(hb_strbuf *b, const ft_operand *op, tf_count elems, tf_count tiles) {
  put_n(b, elems, "element", "elements");
  if (!op->layout_ok) return;
  hb_sb_puts(b, ", ");
  put_bytes(b, elems, op->layout.elem_bits);
  hb_sb_puts(b, " (layout tiles: ");
  if (op->layout.padded) put_bytes(b, tiles, op->layout.tile_bits);
  else hb_sb_printf(b, "n/a, %s", op->layout.why);
  hb_sb_putc(b, ')');
}

static void put_indented(hb_strbuf *b, const char *text, int indent) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
    hb_sb_indent(b, indent);
    hb_sb_putn(b, p, n);
    p += n;
  }
}

static void entry(index_run *r, const tile_block *blk, const ft_entry *e, int ind) {
  hb_strbuf *b = &r->out;
  const ft_operand *op = &blk->t.operands[e->slot];
  hb_arena *a = ii_ctx_arena(r->ctx);
  if (e->status != ST_OK) {
    hb_sb_indent(b, ind);
    hb_sb_printf(b, "no symbolic tile (%s)\n", e->why);
    return;
  }
  hb_strbuf t = HB_STRBUF_INIT;
  if (!blk->sized) {
    if (!st_print(&t, a, &e->tile)) hb_sb_puts(&t, "symbolic tile: constraints too large to print\n");
    put_indented(b, hb_sb_str(&t), ind);
    hb_sb_free(&t);
    return;
  }
  hb_sb_indent(b, ind);
  hb_sb_puts(b, "offsets ");
  if (e->offsets) {
    map_print_opts po = {false, 0};
    map_print(b, e->offsets, &po);
  } else {
    hb_sb_puts(b, "not computed (too large)");
  }
  hb_sb_putc(b, '\n');
  for (uint32_t j = 0; e->offsets && j < e->tile.map->nrt; j++) {
    if (e->rt_of[j] < 0) continue;
    hb_sb_indent(b, ind + 2);
    hb_sb_puts(b, "rt");
    hb_sb_put_i64(b, e->rt_of[j]);
    hb_sb_puts(b, ": ");
    ii_rt_text(b, e->x->rt[j].instr);
    hb_sb_putc(b, '\n');
  }
  hb_sb_indent(b, ind);
  hb_sb_puts(b, "sizes (");
  put_list(b, e->sizes, e->tile.nresults, ", ");
  hb_sb_puts(b, "), strides (");
  put_list(b, e->strides, e->tile.nresults, ", ");
  hb_sb_puts(b, ")\n");
  if (tc_print(&t, a, &e->tile.cons, ST_MAX_DNF) != TC_PRINT_ALWAYS) {
    hb_sb_indent(b, ind);
    hb_sb_printf(b, "constraints: %s (%s)\n", t.len ? hb_sb_str(&t) : "too large to print",
              e->holds ? "hold" : "do not hold at these sizes: the box is not exactly what a tile reads");
  }
  hb_sb_free(&t);
  if (!e->offsets) return;
  hb_sb_indent(b, ind);
  hb_sb_puts(b, "first tile: ");
  put_amount(b, op, e->fp.first_elems, e->fp.first_tiles);
  hb_sb_putc(b, '\n');
  hb_sb_indent(b, ind);
  tf_count reading = 1;
  for (uint32_t i = 0; i < e->offsets->ndims; i++) reading *= (uint64_t)(e->offsets->dim_iv[i].hi - e->offsets->dim_iv[i].lo + 1);
  if (e->offsets->known_empty) reading = 0;
  if (reading == blk->t.total_tiles) {
    hb_sb_puts(b, "all tiles: ");
  } else {
    hb_sb_puts(b, "all tiles (");
    hb_sb_put_u128(b, reading);
    hb_sb_puts(b, reading == 1 ? " reads it): " : " read it): ");
  }
  put_amount(b, op, e->fp.elems, e->fp.tiles);
  if (!e->fp.exact) hb_sb_printf(b, " (estimate: %s)", e->fp.why);
  hb_sb_putc(b, '\n');
}

static void operand_line(index_run *r, const tile_block *blk, uint32_t slot) {
  hb_strbuf *b = &r->out;
  const ft_operand *op = &blk->t.operands[slot];
  hb_sb_puts(b, "operand ");
  hb_sb_put_u64(b, op->k);
  hb_sb_puts(b, ": ");
  hb_sb_puts(b, op->producer->name);
  hb_sb_putc(b, ' ');
  tile_put_shape(b, op->producer->shape);
  if (op->layout_ok) {
    hb_sb_puts(b, ", ");
    hb_sb_puts(b, tl_memory_space_name(op->layout.memory_space));
  }
  else hb_sb_printf(b, " (no layout: %s)", op->layout_why);
  hb_sb_putc(b, '\n');
}

static void reads_line(index_run *r, const ft_operand *op) {
  hb_strbuf *b = &r->out;
  if (!op->read || !op->counted || !op->distinct_known) return;
  hb_sb_puts(b, "  reads per element: ");
  tile_put_ratio(b, op->loaded, op->distinct);
  hb_sb_puts(b, " (");
  put_n(b, op->loaded, "load", "loads");
  hb_sb_puts(b, " of ");
  put_n(b, op->distinct, "distinct element)", "distinct elements)");
  if (!op->distinct_exact) hb_sb_printf(b, " (estimate: %s)", op->distinct_why);
  hb_sb_putc(b, '\n');
}

static void header(index_run *r, const hlo_instr *in, int64_t out, const tile_block *blk) {
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "# ");
  hb_sb_puts(b, in->name);
  hb_sb_puts(b, " (output ");
  hb_sb_put_i64(b, out);
  hb_sb_puts(b, "): ");
  if (blk->status != II_OK) {
    hb_sb_printf(b, "not analyzed: %s\n", blk->err.message);
    return;
  }
  if (!blk->sized) {
    hb_sb_printf(b, "symbolic tiles only (%s)\n", blk->why_unsized);
    return;
  }
  const ft_tiling *t = &blk->t;
  hb_sb_puts(b, "tile ");
  if (t->rank) put_list(b, t->ts, t->rank, "x");
  else hb_sb_puts(b, "()");
  hb_sb_puts(b, " (");
  hb_sb_puts(b, blk->from);
  hb_sb_puts(b, ") over ");
  tile_put_shape(b, t->shape);
  hb_sb_puts(b, ": ");
  if (t->rank > 1) {
    put_list(b, t->ntiles, t->rank, "x");
    hb_sb_puts(b, " = ");
  }
  hb_sb_put_u128(b, t->total_tiles);
  hb_sb_puts(b, t->total_tiles == 1 ? " tile" : " tiles");
  if (!t->holds) hb_sb_puts(b, ", constraints do not hold");
  hb_sb_putc(b, '\n');
}

/* The block whole, or a part of it (r->part: the header with the first,
 * the operands not read with the last). */
static void block(index_run *r, const hlo_instr *in, int64_t out, const tile_block *blk) {
  if (r->part == INDEX_WHOLE || r->part == INDEX_FIRST) header(r, in, out, blk);
  if (blk->status != II_OK) return;
  const ft_tiling *t = &blk->t;
  for (uint32_t k = 0; k < t->noperands; k++) {
    operand_line(r, blk, k);
    const ft_operand *op = &t->operands[k];
    for (uint32_t i = op->first; i < op->first + op->nentries; i++) {
      const ft_entry *e = &t->entries[i];
      if (e->nmaps > 1) hb_sb_printf(&r->out, "  map %u of %u:\n", e->map + 1, e->nmaps);
      entry(r, blk, e, e->nmaps > 1 ? 4 : 2);
    }
    if (blk->sized) reads_line(r, op);
    index_flush(r, false); /* (the block is handed: a fusion of 10,000 operands goes out as written) */
  }
  /* the operands the output does not read: one line (a tuple's output
   * reads one of thousands) */
  if ((r->part == INDEX_WHOLE || r->part == INDEX_LAST) && blk->nunread)
    hb_sb_printf(&r->out, "%s %s: not read by this output\n", blk->nunread > 1 ? "operands" : "operand",
                 hb_sb_str(&blk->unread));
}

static void instr(index_run *r, const hlo_instr *in) {
  if (tile_selected(r, in)) tile_each_output_parts(r, in, block);
}

const index_report index_report_tiles = {NULL, index_module_header, index_computation_header, instr, NULL, NULL};
