#include "tile_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backend_config.h"
#include "../parser/base/ptrmap.h"

/* Shape texts of the current module, by shape (instructions share shapes,
 * and formatting one is slow); dropped when the module changes, as its
 * shapes are freed with it. */
static struct {
  const hlo_module *module;
  hb_ptrmap at; /* shape -> {offset, length} in text */
  hb_strbuf text;
} shapes;

static void shapes_for(const hlo_module *m) {
  if (shapes.module == m) return;
  if (!shapes.module) hb_ptrmap_init(&shapes.at);
  else hb_ptrmap_clear(&shapes.at);
  hb_sb_reset(&shapes.text);
  shapes.module = m;
}

void tile_put_shape(hb_strbuf *b, const hlo_shape *s) {
  hb_ptrmap_val *v = shapes.module ? hb_ptrmap_get(&shapes.at, s) : NULL;
  if (!v) {
    hb_strbuf *t = &shapes.text;
    size_t start = t->len, need = hlo_shape_format(s, NULL, 0);
    hb_sb_reserve(t, need + 1);
    hlo_shape_format(s, t->data + start, need + 1);
    t->len += need;
    if (!shapes.module) { /* outside a walk: no cache */
      hb_sb_putn(b, t->data + start, need);
      t->len = start;
      return;
    }
    hb_ptrmap_put(&shapes.at, s, (hb_ptrmap_val){(int64_t)start, (int64_t)need});
    v = hb_ptrmap_get(&shapes.at, s);
  }
  hb_sb_putn(b, shapes.text.data + v->a, (size_t)v->b);
}

bool tile_selected(const index_run *r, const hlo_instr *in) { return !r->o->all || in->op == HLO_OP_FUSION; }

/* The tile sizes of output OUT (see tile_run.h); false with *err set on an
 * error (a count that does not match without --all, a malformed config). */
static bool sizes_for(index_run *r, const hlo_instr *in, int64_t out, uint32_t rank, tile_block *b, int64_t **ts,
                      ii_error *err) {
  const hloidx_options *o = r->o;
  hb_arena *a = ii_ctx_arena(r->ctx);
  b->sized = false;
  if (o->n_tile_sizes && ((uint32_t)o->n_tile_sizes == rank || !r->several_instrs)) {
    if ((uint32_t)o->n_tile_sizes != rank) {
      err->instr = in;
      snprintf(err->message, sizeof err->message,
               "--tile-sizes gives %d size(s) for output %" PRId64 " of %s, which has rank %" PRIu32, o->n_tile_sizes,
               out, in->name, rank);
      return false;
    }
    *ts = hb_arena_array(a, rank + 1, sizeof **ts);
    for (uint32_t i = 0; i < rank; i++) (*ts)[i] = o->tile_sizes[i];
    b->sized = true;
    b->from = "given";
    return true;
  }
  uint32_t n = 0;
  char why[200];
  switch (bc_output_tile(a, in, out, ts, &n, why, sizeof why)) {
  case BC_ABSENT:
    snprintf(b->why_unsized, sizeof b->why_unsized, "no --tile-sizes%s and no output_tiles in its backend_config",
             o->n_tile_sizes ? " of this rank" : "");
    return true;
  case BC_MALFORMED:
    err->instr = in;
    snprintf(err->message, sizeof err->message, "%s: %s", in->name, why);
    return false;
  case BC_FOUND: break;
  }
  if (n != rank) {
    err->instr = in;
    snprintf(err->message, sizeof err->message,
             "%s: backend_config gives %" PRIu32 " tile size(s) for output %" PRId64 ", which has rank %" PRIu32,
             in->name, n, out, rank);
    return false;
  }
  b->sized = true;
  b->from = "backend_config";
  return true;
}

void tile_each_output(index_run *r, const hlo_instr *in, tile_block_fn fn) {
  const hloidx_options *o = r->o;
  shapes_for(r->module);
  int64_t nout = ii_num_outputs(in);
  if (o->output >= nout) {
    if (r->several_instrs) return; /* only instructions that have it */
    ii_error e = {in, ""};
    snprintf(e.message, sizeof e.message, "%s has %" PRId64 " output(s); there is no output %ld", in->name, nout,
             o->output);
    index_report_error(r, in, &e);
    return;
  }
  int64_t lo = o->output >= 0 ? o->output : 0, hi = o->output >= 0 ? o->output + 1 : nout;
  for (int64_t out = lo; out < hi; out++) {
    ii_ctx_reset(r->ctx);
    tile_block *b = hb_arena_zalloc(ii_ctx_arena(r->ctx), sizeof *b);
    b->status = ft_symbolic(r->ctx, in, out, &b->t, &b->err);
    int64_t *ts = NULL;
    if (b->status == II_OK && !sizes_for(r, in, out, b->t.rank, b, &ts, &b->err)) b->status = II_ERROR;
    if (b->status != II_OK) {
      if (index_report_error(r, in, &b->err)) return;
    } else if (b->sized && o->mode != MODE_TILINGS) {
      ft_instantiate(r->ctx, &b->t, ts);
      if (!o->verify) ft_distinct(r->ctx, &b->t); /* the reads per element of the report */
    }
    index_open_computation(r);
    /* a block is written as it comes (--tilings: line by line), and what
     * is written stays when a later output fails (as the text mode's
     * blocks): a tuple of 100,000 outputs would otherwise hold all of its
     * text */
    r->instr_handed = true;
    fn(r, in, out, b);
    index_flush_block(r);
  }
}

uint32_t tile_put_unread(hb_strbuf *b, const ft_tiling *t) {
  uint32_t n = 0, from = 0;
  for (uint32_t i = 0; i <= t->noperands; i++) {
    uint32_t next = i < t->noperands ? t->operands[i].k : t->nall; /* the gap [from, next) is not read */
    if (next - from >= 3) {
      hb_sb_printf(b, "%s%u-%u", n ? ", " : "", from, next - 1);
    } else {
      for (uint32_t k = from; k < next; k++) hb_sb_printf(b, "%s%u", n + (k - from) ? ", " : "", k);
    }
    n += next - from;
    from = next + 1;
  }
  return n;
}

void tile_put_ratio(hb_strbuf *b, tf_count num, tf_count den) {
  if (den == 0) {
    hb_sb_puts(b, "n/a");
    return;
  }
  tf_count hundredths = (num * 100u + den / 2u) / den;
  hb_sb_put_u128(b, hundredths / 100u);
  if (hundredths % 100u) hb_sb_printf(b, ".%02u", (unsigned)(hundredths % 100u));
}
