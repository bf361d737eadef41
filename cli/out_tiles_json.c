/* --tiles --format=json: the --tiles report as one JSON document for the
 * whole run (README, "Tiles"):
 *
 * {"format": "hloidx-tiles", "version": 1, "modules": [{"name", "file", "blocks": [
 *   {"computation", "name", "opcode", "output": N, "shape", "error": null | MESSAGE,
 *    "tile_sizes": [..] | null, "tile_sizes_from": "given" | "backend_config" | null,
 *    "unsized_reason": null | WHY, "tiles_per_dim": [..] | null, "tiles": N | null,
 *    "constraints_hold": bool | null,
 *    "operands": [{"operand": K, "name", "shape", "memory_space": S | null, "read": bool,
 *      "maps": [{"map": I, "symbolic_tile": TEXT | null, "no_tile_reason": null | WHY,
 *                "offsets": MAP | null, "runtime_vars": [{"name": "rt0", "instr": "parameter(1)"}],
 *                "sizes": [..], "strides": [..], "constraints": TEXT | null, "constraints_hold": bool,
 *                "first_tile": AMOUNT, "all_tiles": AMOUNT, "exact": bool, "estimate_reason": null | WHY}],
 *      "loaded_elements": N | null, "distinct_elements": N | null,
 *      "reads_per_element": X | null, "exact": bool}]}]}],
 *  "errors": [{"file", "line", "col", "message"}]}
 *
 * AMOUNT = {"elements": N, "bytes": N | null, "layout_bytes": N | null};
 * the fields at the tile sizes are absent when there are none, and a map
 * without a tile has only "map", "symbolic_tile": null and
 * "no_tile_reason". "file" is null with --no-file-names. "errors" lists
 * every error the run reported on stderr, as the default mode's JSON does
 * (out_json.c); a block whose analysis failed with an error (on one
 * instruction, or with --fatal-warnings) is not listed, its error is. */
#include <stdlib.h>

#include "json_doc.h"
#include "json_str.h"
#include "map_print.h"
#include "../parser/base/oom.h"
#include "tile_run.h"

typedef struct {
  json_doc doc;
  bool first_block;
  bool first_operand; /* of the block (which may come in parts) */
  hb_strbuf tmp;
} json_state;

static void comma(hb_strbuf *b, bool *first, const char *open) {
  if (!*first) hb_sb_putc(b, ',');
  *first = false;
  hb_sb_puts(b, open);
}

static void put_shape(index_run *r, const hlo_shape *s) {
  json_state *js = r->state;
  hb_sb_reset(&js->tmp);
  tile_put_shape(&js->tmp, s);
  json_str(&r->out, hb_sb_str(&js->tmp), js->tmp.len);
}

static void put_ints(hb_strbuf *b, const int64_t *v, uint32_t n) {
  hb_sb_putc(b, '[');
  for (uint32_t i = 0; i < n; i++) hb_sb_printf(b, "%s%lld", i ? ", " : "", (long long)v[i]);
  hb_sb_putc(b, ']');
}

static void put_bytes(hb_strbuf *b, tf_count n, int64_t bits) {
  uint64_t v = tf_bytes(n, bits);
  if (v == UINT64_MAX) hb_sb_puts(b, "null");
  else hb_sb_put_u128(b, v);
}

static void put_amount(hb_strbuf *b, const ft_operand *op, tf_count elems, tf_count tiles) {
  hb_sb_puts(b, "{\"elements\": ");
  hb_sb_put_u128(b, elems);
  hb_sb_puts(b, ", \"bytes\": ");
  if (op->layout_ok) put_bytes(b, elems, op->layout.elem_bits);
  else hb_sb_puts(b, "null");
  hb_sb_puts(b, ", \"layout_bytes\": ");
  if (op->layout_ok && op->layout.padded) put_bytes(b, tiles, op->layout.tile_bits);
  else hb_sb_puts(b, "null");
  hb_sb_putc(b, '}');
}

static void put_entry(index_run *r, const tile_block *blk, const ft_entry *e) {
  json_state *s = r->state;
  hb_strbuf *b = &r->out, *t = &s->tmp;
  hb_arena *a = ii_ctx_arena(r->ctx);
  const ft_operand *op = &blk->t.operands[e->slot];
  hb_sb_printf(b, "{\"map\": %u, \"symbolic_tile\": ", e->map);
  hb_sb_reset(t);
  if (e->status != ST_OK || !st_print(t, a, &e->tile)) {
    hb_sb_puts(b, "null, \"no_tile_reason\": ");
    json_cstr(b, e->status != ST_OK ? e->why : "its constraints are too large to print");
    hb_sb_putc(b, '}');
    return;
  }
  json_str(b, hb_sb_str(t), t->len);
  hb_sb_puts(b, ", \"no_tile_reason\": null");
  if (!blk->sized) {
    hb_sb_putc(b, '}');
    return;
  }
  hb_sb_puts(b, ", \"offsets\": ");
  hb_sb_reset(t);
  if (e->offsets) {
    map_print_opts po = {false, 0};
    map_print(t, e->offsets, &po);
    json_str(b, hb_sb_str(t), t->len);
  } else {
    hb_sb_puts(b, "null");
  }
  hb_sb_puts(b, ", \"runtime_vars\": [");
  bool first = true;
  for (uint32_t j = 0; e->offsets && j < e->tile.map->nrt; j++) {
    if (e->rt_of[j] < 0) continue;
    comma(b, &first, "");
    hb_sb_printf(b, "{\"name\": \"rt%d\", \"instr\": ", e->rt_of[j]);
    hb_sb_reset(t);
    ii_rt_text(t, e->x->rt[j].instr);
    json_str(b, hb_sb_str(t), t->len);
    hb_sb_putc(b, '}');
  }
  hb_sb_puts(b, "], \"sizes\": ");
  put_ints(b, e->sizes, e->tile.nresults);
  hb_sb_puts(b, ", \"strides\": ");
  put_ints(b, e->strides, e->tile.nresults);
  hb_sb_puts(b, ", \"constraints\": ");
  hb_sb_reset(t);
  if (tc_print(t, a, &e->tile.cons, ST_MAX_DNF) == TC_PRINT_ALWAYS || !t->len) hb_sb_puts(b, "null");
  else json_str(b, hb_sb_str(t), t->len);
  hb_sb_printf(b, ", \"constraints_hold\": %s", e->holds ? "true" : "false");
  if (e->offsets) {
    hb_sb_puts(b, ", \"first_tile\": ");
    put_amount(b, op, e->fp.first_elems, e->fp.first_tiles);
    hb_sb_puts(b, ", \"all_tiles\": ");
    put_amount(b, op, e->fp.elems, e->fp.tiles);
    hb_sb_printf(b, ", \"exact\": %s, \"estimate_reason\": ", e->fp.exact ? "true" : "false");
    if (e->fp.exact) hb_sb_puts(b, "null");
    else json_cstr(b, e->fp.why);
  }
  hb_sb_putc(b, '}');
}

static void put_operand(index_run *r, const tile_block *blk, uint32_t slot) {
  hb_strbuf *b = &r->out;
  const ft_tiling *t = &blk->t;
  const ft_operand *op = &t->operands[slot];
  hb_sb_printf(b, "{\"operand\": %u, \"name\": ", op->k);
  json_cstr(b, op->producer->name);
  hb_sb_puts(b, ", \"shape\": ");
  put_shape(r, op->producer->shape);
  hb_sb_puts(b, ", \"memory_space\": ");
  if (op->layout_ok) hb_sb_printf(b, "%lld", (long long)op->layout.memory_space);
  else hb_sb_puts(b, "null");
  hb_sb_printf(b, ", \"read\": %s, \"maps\": [", op->read ? "true" : "false");
  bool first = true;
  for (uint32_t i = op->first; i < op->first + op->nentries; i++) {
    comma(b, &first, "\n         ");
    put_entry(r, blk, &t->entries[i]);
  }
  hb_sb_putc(b, ']');
  if (blk->sized) {
    bool counted = op->read && op->counted && op->distinct_known;
    hb_sb_puts(b, ", \"loaded_elements\": ");
    if (counted) hb_sb_put_u128(b, op->loaded);
    else hb_sb_puts(b, "null");
    hb_sb_puts(b, ", \"distinct_elements\": ");
    if (counted) hb_sb_put_u128(b, op->distinct);
    else hb_sb_puts(b, "null");
    hb_sb_puts(b, ", \"reads_per_element\": ");
    if (counted && op->distinct) tile_put_ratio(b, op->loaded, op->distinct);
    else hb_sb_puts(b, "null");
    hb_sb_printf(b, ", \"exact\": %s", counted && op->exact && op->distinct_exact ? "true" : "false");
  }
  hb_sb_putc(b, '}');
}

/* The operands of the block (or part) the output reads; the array closed
 * with the block (or its last part). */
static void operands(index_run *r, const tile_block *blk) {
  json_state *s = r->state;
  hb_strbuf *b = &r->out;
  for (uint32_t k = 0; k < blk->t.noperands; k++) {
    hb_sb_puts(b, s->first_operand ? "\n      " : ",\n      ");
    s->first_operand = false;
    put_operand(r, blk, k);
  }
  if (r->part == INDEX_WHOLE || r->part == INDEX_LAST) hb_sb_puts(b, "]}");
}

/* The block whole, or a part of it (r->part: the first opens it, the last
 * closes it). */
static void block(index_run *r, const hlo_instr *in, int64_t out, const tile_block *blk) {
  json_state *s = r->state;
  hb_strbuf *b = &r->out;
  if (r->part == INDEX_MORE || r->part == INDEX_LAST) {
    operands(r, blk);
    return;
  }
  comma(b, &s->first_block, "\n    {\"computation\": ");
  json_cstr(b, in->parent->name);
  hb_sb_puts(b, ", \"name\": ");
  json_cstr(b, in->name);
  hb_sb_puts(b, ", \"opcode\": ");
  json_cstr(b, hlo_instr_opcode_text(in));
  hb_sb_printf(b, ", \"output\": %lld, \"error\": ", (long long)out);
  if (blk->status != II_OK) {
    json_cstr(b, blk->err.message);
    hb_sb_puts(b, ", \"operands\": []}");
    return;
  }
  const ft_tiling *t = &blk->t;
  hb_sb_puts(b, "null, \"shape\": ");
  put_shape(r, t->shape);
  hb_sb_puts(b, ", \"tile_sizes\": ");
  if (blk->sized) {
    put_ints(b, t->ts, t->rank);
    hb_sb_puts(b, ", \"tile_sizes_from\": ");
    json_cstr(b, blk->from);
    hb_sb_puts(b, ", \"unsized_reason\": null, \"tiles_per_dim\": ");
    put_ints(b, t->ntiles, t->rank);
    hb_sb_puts(b, ", \"tiles\": ");
    hb_sb_put_u128(b, t->total_tiles);
    hb_sb_printf(b, ", \"constraints_hold\": %s", t->holds ? "true" : "false");
  } else {
    hb_sb_puts(b, "null, \"tile_sizes_from\": null, \"unsized_reason\": ");
    json_cstr(b, blk->why_unsized);
    hb_sb_puts(b, ", \"tiles_per_dim\": null, \"tiles\": null, \"constraints_hold\": null");
  }
  hb_sb_puts(b, ",\n     \"operands\": [");
  s->first_operand = true;
  operands(r, blk);
}

static void instr(index_run *r, const hlo_instr *in) {
  json_state *s = r->state;
  bool was_first = s->first_block;
  if (tile_selected(r, in)) tile_each_output_parts(r, in, block);
  if (r->instr_failed) s->first_block = was_first; /* the walk drops what this instruction wrote */
}

static void begin(index_run *r) {
  json_state *s = hb_calloc(1, sizeof *s);
  r->state = s;
  json_doc_begin(&s->doc, &r->out, "\"format\": \"hloidx-tiles\", \"version\": 1");
}

static void module_begin(index_run *r) {
  json_state *s = r->state;
  json_doc_module(&s->doc, &r->out, r->module->name, r->o->no_file_names ? NULL : r->src->name, "blocks");
  s->first_block = true;
}

static void module_end(index_run *r) { json_doc_module_end(&r->out); }

static void end(index_run *r) {
  json_state *s = r->state;
  json_doc_end(&s->doc, &r->out);
  hb_sb_free(&s->tmp);
  free(s);
  r->state = NULL;
}

const index_report index_report_tiles_json = {begin, module_begin, NULL, instr, module_end, end};
