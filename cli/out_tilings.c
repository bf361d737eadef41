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
#include <string.h>

#include "../parser/base/arena.h"
#include "../parser/base/oom.h"
#include "tile_run.h"
#include "tilings.h"

/* What put_bytes prints of an operand: its flags and figures. */
enum { OB_COUNTED = 1, OB_LAYOUT = 2, OB_PADDED = 4, OB_EXACT = 8 };

/* Whether the padded bytes are printed (and held in a record). */
static bool has_tiles(unsigned f) { return (f & (OB_COUNTED | OB_LAYOUT | OB_PADDED)) == (OB_COUNTED | OB_LAYOUT | OB_PADDED); }

/* `N bytes (layout tiles: M bytes)` and the other forms, from FLAGS, V
 * (bytes, or elements without a layout) and TILES (the padded bytes). */
static void put_bytes(hb_strbuf *b, unsigned flags, tf_count v, tf_count tiles) {
  if (!(flags & OB_COUNTED)) {
    hb_sb_puts(b, "n/a");
    return;
  }
  hb_sb_put_u128(b, v);
  if (!(flags & OB_LAYOUT)) {
    hb_sb_puts(b, " elements");
    return;
  }
  hb_sb_puts(b, " bytes (layout tiles: ");
  if (has_tiles(flags)) {
    hb_sb_put_u128(b, tiles);
    hb_sb_puts(b, " bytes)");
  } else {
    hb_sb_puts(b, "n/a)");
  }
  if (!(flags & OB_EXACT)) hb_sb_puts(b, " (estimate)");
}

static unsigned flags_of(const ft_operand *op, tf_count *v, tf_count *tiles) {
  unsigned f = (op->counted ? OB_COUNTED : 0) | (op->layout_ok ? OB_LAYOUT : 0) |
               (op->layout.padded ? OB_PADDED : 0) | (op->exact ? OB_EXACT : 0);
  *v = !op->counted ? 0 : op->layout_ok ? tf_bytes(op->loaded, op->layout.elem_bits) : op->loaded;
  *tiles = has_tiles(f) ? tf_bytes(op->tiles_loaded, op->layout.tile_bits) : 0;
  return f;
}

/* `  AxB: N tiles` */
static void put_sizes(hb_strbuf *b, uint32_t rank, const int64_t *ts, tf_count tiles) {
  hb_sb_puts(b, "  ");
  for (uint32_t i = 0; i < rank; i++) hb_sb_printf(b, "%s%lld", i ? "x" : "", (long long)ts[i]);
  if (!rank) hb_sb_puts(b, "()");
  hb_sb_puts(b, ": ");
  hb_sb_put_u128(b, tiles);
  hb_sb_puts(b, tiles == 1 ? " tile" : " tiles");
}

/* `; operand K: BYTES` for each operand the output reads (T instantiated). */
static void put_operands(hb_strbuf *b, const ft_tiling *t) {
  for (uint32_t k = 0; k < t->noperands; k++) {
    tf_count v, tiles;
    unsigned f = flags_of(&t->operands[k], &v, &tiles);
    hb_sb_printf(b, "; operand %u: ", t->operands[k].k);
    put_bytes(b, f, v, tiles);
  }
}

/* The same, held in a batch (tilings_by_parts) as records of a few bytes
 * an operand rather than its 50 bytes of text: the flags, the operand
 * number's step from the one before (zigzag), the figures, as base-128
 * varints. */
static void put_varint(hb_strbuf *b, tf_count v) {
  char buf[20];
  size_t n = 0;
  do {
    buf[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  hb_sb_putn(b, buf, n);
}

static tf_count get_varint(const unsigned char **p) {
  tf_count v = 0;
  for (unsigned sh = 0;; sh += 7) {
    unsigned char c = *(*p)++;
    v |= (tf_count)(c & 0x7f) << sh;
    if (!(c & 0x80)) return v;
  }
}

static void put_records(hb_strbuf *b, const ft_tiling *t, uint32_t *last) {
  for (uint32_t k = 0; k < t->noperands; k++) {
    tf_count v, tiles;
    unsigned f = flags_of(&t->operands[k], &v, &tiles);
    int64_t step = (int64_t)t->operands[k].k - (int64_t)*last;
    *last = t->operands[k].k;
    hb_sb_putc(b, (char)f);
    put_varint(b, step >= 0 ? (tf_count)step * 2 : (tf_count)(-step) * 2 - 1);
    if (f & OB_COUNTED) put_varint(b, v);
    if (has_tiles(f)) put_varint(b, tiles);
  }
}

/* The records [P, END) as put_operands' text, to R's output a piece at a
 * time. */
static void put_from_records(index_run *r, const unsigned char *p, const unsigned char *end) {
  int64_t k = 0;
  for (uint32_t n = 1; p < end; n++) {
    unsigned f = *p++;
    tf_count z = get_varint(&p), v = 0, tiles = 0;
    k += z & 1 ? -(int64_t)((z + 1) / 2) : (int64_t)(z / 2);
    if (f & OB_COUNTED) v = get_varint(&p);
    if (has_tiles(f)) tiles = get_varint(&p);
    hb_sb_printf(&r->out, "; operand %u: ", (unsigned)k);
    put_bytes(&r->out, f, v, tiles);
    if (n % INDEX_PART_ENTRIES == 0) index_flush_block(r); /* (a line of 100 000 operands: 5 MB of text) */
  }
}

/* `V of T tilings valid (d0: 1, 2, 4, 5; d1: ...)` */
static void put_count(hb_strbuf *b, const tg_count *cnt, uint32_t rank, const int64_t *extent) {
  if (!cnt->exact) hb_sb_puts(b, "at least ");
  hb_sb_put_u128(b, cnt->valid);
  hb_sb_puts(b, " of ");
  hb_sb_put_u128(b, cnt->total);
  hb_sb_puts(b, " tilings valid (");
  for (uint32_t i = 0; i < rank; i++) {
    int64_t c[TG_MAX_CANDIDATES];
    uint32_t nc = tg_candidates(extent[i], c);
    hb_sb_printf(b, "%sd%u:", i ? "; " : "", i);
    for (uint32_t k = 0; k < nc; k++) hb_sb_printf(b, "%s %lld", k ? "," : "", (long long)c[k]);
  }
  hb_sb_puts(b, rank ? ")\n" : "scalar output)\n");
}

/* `  (N more)` after the listed ones. */
static void put_more(hb_strbuf *b, tf_count more, bool exact) {
  hb_sb_puts(b, "  (");
  hb_sb_put_u128(b, more);
  hb_sb_puts(b, exact ? " more)\n" : " or more)\n");
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
  put_count(b, &cnt, t->rank, t->extent);
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
    put_sizes(b, t->rank, ts, t->total_tiles);
    put_operands(b, t); /* the operands the output reads */
    hb_sb_putc(b, '\n');
    ae_ctx_scope_end(x);
    listed++;
    index_flush_block(r);
  }
  free(ts);
  hb_arena_free(each);
  if (it.exhausted) hb_sb_printf(b, "  (listing stopped after %llu candidates)\n", (unsigned long long)TG_STEPS);
  else if ((tf_count)listed < cnt.valid) put_more(b, cnt.valid - (tf_count)listed, cnt.exact);
}

/* Bytes of listed lines held at once (as records) when the tilings of an
 * output in parts are listed (tilings_by_parts): each part's tiles are
 * derived once for as many lines as fit, not once per line. */
#define TILINGS_LINES_BUDGET ((size_t)2 << 20)

/* Lines FROM..TO of the listing (SEL: the candidates' indices in TB) a
 * part at a time: each part's tiles derived once, instantiated at every
 * line's sizes, each line held in LINES until the last part (its sizes as
 * text and a NUL, then its operands' records). Returns the longest line's
 * bytes held. */
static size_t list_lines(tile_parts *p, const tg_table *tb, const uint64_t *sel, uint32_t from, uint32_t to,
                         hb_strbuf *lines, hb_arena *each) {
  index_run *r = p->r;
  uint32_t n = tile_parts_total(p), hi, *last = hb_calloc(to - from, sizeof *last);
  for (uint32_t i = from; i < to; i++) hb_sb_reset(&lines[i - from]);
  for (uint32_t lo = 0; lo < n; lo = hi) {
    ft_tiling t;
    if (!tile_parts_get(p, lo, &hi, &t)) break; /* (as it did not in the count) */
    for (uint32_t i = from; i < to; i++) {
      const int64_t *ts = &tb->ts[sel[i] * tb->rank];
      hb_strbuf *b = &lines[i - from];
      hb_arena_reset_keep(each);
      ft_instantiate_in(r->ctx, &t, ts, each);
      if (lo == 0) {
        put_sizes(b, tb->rank, ts, t.total_tiles);
        hb_sb_putc(b, '\0');
      }
      put_records(b, &t, &last[i - from]);
    }
    tile_parts_done(p);
  }
  free(last);
  size_t longest = 0;
  for (uint32_t i = from; i < to; i++) {
    const hb_strbuf *b = &lines[i - from];
    if (b->len) {
      size_t head = strlen(b->data);
      hb_sb_putn(&r->out, b->data, head);
      put_from_records(r, (const unsigned char *)b->data + head + 1, (const unsigned char *)b->data + b->len);
    }
    hb_sb_putc(&r->out, '\n');
    index_flush_block(r);
    longest = b->len > longest ? b->len : longest;
  }
  return longest;
}

/* The tilings of output 0 a part at a time: the count from a table of the
 * candidate tilings that each part's tiles sift (tg_table), then the
 * listed tilings' lines a batch at a time, as many as TILINGS_LINES_BUDGET
 * holds (estimated at 6 bytes an operand for the first batch, then from
 * the longest line so far; one line at least, a few bytes an operand):
 * memory for the maps of one part (in parts) or of the block (held) and
 * the batch's records, not for every operand's tiles; the output of the
 * whole way. False, and nothing written, where
 * the table cannot serve (more than TG_TABLE_MAX candidates, or
 * constrained tiles past TG_TABLE_STEPS) or the first part fails: the
 * output then goes the whole way (tile_each_output). */
static bool tilings_by_parts(tile_parts *p) {
  index_run *r = p->r;
  const hlo_instr *in = p->in;
  const hlo_shape *s = p->shape;
  uint32_t rank = (uint32_t)s->rank, n = tile_parts_total(p), hi;
  tg_table tb;
  if (!tg_table_begin(&tb, s->dims, rank)) return false;
  tg_count cnt = {.tileable = true, .exact = true};
  bool usable = true;
  for (uint32_t lo = 0; lo < n && cnt.tileable && usable; lo = hi) {
    ft_tiling t;
    if (!tile_parts_get(p, lo, &hi, &t)) { /* (only the first part fails) */
      usable = false;
      break;
    }
    cnt.tileable = tg_tileable(&t, cnt.why, sizeof cnt.why);
    usable = !cnt.tileable || tg_table_sift(&tb, &t);
    tile_parts_done(p);
  }
  if (!usable) {
    tg_table_end(&tb);
    return false;
  }
  index_open_computation(r);
  r->instr_handed = true;
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "# %s (output 0): ", in->name);
  if (!cnt.tileable) hb_sb_printf(b, "no tilings: %s\n", cnt.why);
  cnt.valid = tb.valid;
  cnt.total = tb.n;
  if (cnt.tileable) put_count(b, &cnt, rank, s->dims);
  uint32_t nsel = 0; /* the listed candidates: at most TG_TABLE_MAX */
  uint64_t *sel = hb_malloc((tb.valid ? tb.valid : 1) * sizeof *sel);
  for (uint64_t j = 0; cnt.tileable && j < tb.n && nsel < r->o->max_tilings; j++)
    if (tb.ok[j]) sel[nsel++] = j;
  size_t line = (size_t)n * 6 + 1, longest = 0;
  uint32_t cap = (uint32_t)(TILINGS_LINES_BUDGET / line > nsel ? nsel : TILINGS_LINES_BUDGET / line);
  cap = cap ? cap : 1;
  hb_strbuf *lines = hb_calloc(nsel ? nsel : 1, sizeof *lines);
  hb_arena *each = hb_arena_new();
  for (uint32_t from = 0, to; from < nsel; from = to) {
    to = nsel - from > cap ? from + cap : nsel;
    size_t l = list_lines(p, &tb, sel, from, to, lines, each);
    longest = l > longest ? l : longest;
    line = longest + 1;
    cap = TILINGS_LINES_BUDGET / line ? (uint32_t)(TILINGS_LINES_BUDGET / line) : 1;
  }
  for (uint32_t i = 0; i < nsel; i++) hb_sb_free(&lines[i]);
  free(lines);
  free(sel);
  hb_arena_free(each);
  if (cnt.tileable && (tf_count)nsel < cnt.valid) put_more(b, cnt.valid - (tf_count)nsel, true);
  tg_table_end(&tb);
  index_flush_block(r);
  return true;
}

/* An instruction of one output and thousands of operands (tile_parts):
 * its tilings a part at a time, or false. */
static bool tilings_in_parts(index_run *r, const hlo_instr *in) {
  tile_parts p;
  bool done = tile_parts_begin(r, in, &p) && tilings_by_parts(&p);
  tile_parts_end(&p);
  return done;
}

static void instr(index_run *r, const hlo_instr *in) {
  if (tile_selected(r, in) && !tilings_in_parts(r, in)) tile_each_output(r, in, block);
}

const index_report index_report_tilings = {NULL, index_module_header, index_computation_header, instr, NULL, NULL};
