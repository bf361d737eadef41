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

/* Output OUT of IN, analysed whole, to FN. False when an error stops the
 * instruction. */
static bool output_whole(index_run *r, const hlo_instr *in, int64_t out, tile_block_fn fn) {
  const hloidx_options *o = r->o;
  ii_ctx_reset(r->ctx);
  tile_block *b = hb_arena_zalloc(ii_ctx_arena(r->ctx), sizeof *b);
  b->status = ft_symbolic(r->ctx, in, out, &b->t, &b->err);
  int64_t *ts = NULL;
  if (b->status == II_OK && !sizes_for(r, in, out, b->t.rank, b, &ts, &b->err)) b->status = II_ERROR;
  if (b->status != II_OK) {
    if (index_report_error(r, in, &b->err)) return false;
  } else {
    if (b->sized && o->mode != MODE_TILINGS) {
      ft_instantiate(r->ctx, &b->t, ts);
      if (!o->verify) ft_distinct(r->ctx, &b->t); /* the reads per element of the report */
    }
    tile_add_unread(b, &b->t, true);
  }
  index_open_computation(r);
  /* a block is written as it comes (--tilings: line by line), and what
   * is written stays when a later output fails (as the text mode's
   * blocks): a tuple of 100,000 outputs would otherwise hold all of its
   * text */
  r->instr_handed = true;
  fn(r, in, out, b);
  hb_sb_free(&b->unread);
  index_flush_block(r);
  return true;
}

/* The selected outputs of IN: [*lo, *hi); false (after the error, for
 * one instruction) when --output names none. */
static bool outputs_of(index_run *r, const hlo_instr *in, int64_t *lo, int64_t *hi) {
  const hloidx_options *o = r->o;
  int64_t nout = ii_num_outputs(in);
  if (o->output >= nout) {
    if (r->several_instrs) return false; /* only instructions that have it */
    ii_error e = {in, ""};
    snprintf(e.message, sizeof e.message, "%s has %" PRId64 " output(s); there is no output %ld", in->name, nout,
             o->output);
    index_report_error(r, in, &e);
    return false;
  }
  *lo = o->output >= 0 ? o->output : 0;
  *hi = o->output >= 0 ? o->output + 1 : nout;
  return true;
}

void tile_each_output(index_run *r, const hlo_instr *in, tile_block_fn fn) {
  shapes_for(r->module);
  int64_t lo, hi;
  if (!outputs_of(r, in, &lo, &hi)) return;
  for (int64_t out = lo; out < hi; out++)
    if (!output_whole(r, in, out, fn)) return;
}

bool tile_parts_begin(index_run *r, const hlo_instr *in, tile_parts *p) {
  ii_error err;
  memset(p, 0, sizeof *p);
  if (r->o->output > 0 || in->n_operands < INDEX_PARTS_FROM || ii_num_outputs(in) != 1 ||
      ft_check_output(in, 0, &p->shape, &err) != II_OK)
    return false;
  p->r = r;
  p->in = in;
  if (index_in_parts(r, in)) return true;
  ii_ctx_reset(r->ctx);
  if (ii_o2i(r->ctx, in, 0, &p->x, &err) != II_OK || ii_nstored(&p->x) < INDEX_PARTS_FROM) return false;
  p->held = true;
  p->a = hb_arena_new();
  return true;
}

uint32_t tile_parts_total(const tile_parts *p) { return p->held ? ii_nstored(&p->x) : (uint32_t)p->in->n_operands; }

bool tile_parts_get(tile_parts *p, uint32_t lo, uint32_t *hi, ft_tiling *t) {
  ii_ctx *c = p->r->ctx;
  if (!p->held) {
    ii_indexing x;
    if (!index_part(p->r, p->in, 0, lo, hi, &x)) return false;
    ft_symbolic_of(c, ii_ctx_arena(c), p->in, 0, &x, t);
    return true;
  }
  uint32_t n = ii_nstored(&p->x);
  *hi = n - lo > INDEX_PART_ENTRIES ? lo + INDEX_PART_ENTRIES : n;
  ii_indexing v;
  ii_indexing_view(&p->x, lo, *hi, p->ids, &v);
  hb_arena_reset_keep(p->a);
  ae_ctx_scope_begin(ii_ctx_ae(c));
  ft_symbolic_of(c, p->a, p->in, 0, &v, t);
  return true;
}

void tile_parts_done(tile_parts *p) {
  if (p->held) ae_ctx_scope_end(ii_ctx_ae(p->r->ctx));
  else ii_ctx_block_end(p->r->ctx);
}

void tile_parts_end(tile_parts *p) {
  if (p->a) hb_arena_free(p->a);
  p->a = NULL;
}

/* Output 0 of IN in parts (P) to FN: with tile sizes, a first pass
 * instantiates every part for whether all tiles hold (the header says
 * so). False, and nothing written, when the first part fails or the sizes
 * are in error (the whole way reports it). */
static bool output_in_parts(index_run *r, const hlo_instr *in, tile_parts *p, tile_block_fn fn) {
  const hloidx_options *o = r->o;
  tile_block *b = hb_calloc(1, sizeof *b); /* (not in the context's arena: a part empties it) */
  int64_t *sized_ts = NULL, *ts = NULL;
  uint32_t rank = (uint32_t)p->shape->rank, n = tile_parts_total(p), hi;
  bool ok = sizes_for(r, in, 0, rank, b, &sized_ts, &b->err), holds = true;
  if (ok && b->sized) {
    ts = hb_malloc((rank + 1) * sizeof *ts);
    memcpy(ts, sized_ts, rank * sizeof *ts);
  }
  hb_arena *each = hb_arena_new(); /* a part's tiles at the sizes */
  for (uint32_t lo = 0; ok && b->sized && lo < n; lo = hi) {
    if (!(ok = tile_parts_get(p, lo, &hi, &b->t))) break;
    hb_arena_reset_keep(each);
    ft_instantiate_in(r->ctx, &b->t, ts, each);
    holds &= b->t.holds;
    tile_parts_done(p);
  }
  for (uint32_t lo = 0; ok && lo < n; lo = hi) {
    if (!(ok = tile_parts_get(p, lo, &hi, &b->t))) break;
    if (b->sized) {
      hb_arena_reset_keep(each);
      ft_instantiate_in(r->ctx, &b->t, ts, each);
      b->t.holds = holds;
      if (!o->verify) ft_distinct(r->ctx, &b->t);
    }
    if (lo == 0) index_open_computation(r);
    r->instr_handed = true;
    tile_add_unread(b, &b->t, hi == n);
    r->part = lo == 0 ? INDEX_FIRST : hi == n ? INDEX_LAST : INDEX_MORE;
    fn(r, in, 0, b);
    r->part = INDEX_WHOLE;
    tile_parts_done(p);
    index_flush_block(r);
  }
  hb_arena_free(each);
  free(ts);
  hb_sb_free(&b->unread);
  free(b);
  return ok;
}

void tile_each_output_parts(index_run *r, const hlo_instr *in, tile_block_fn fn) {
  shapes_for(r->module);
  tile_parts p;
  bool done = tile_parts_begin(r, in, &p) && output_in_parts(r, in, &p, fn);
  tile_parts_end(&p);
  if (!done) tile_each_output(r, in, fn);
}

static void unread_gap(tile_block *b, uint32_t next) {
  uint32_t from = b->unread_from;
  if (next - from >= 3) {
    hb_sb_printf(&b->unread, "%s%u-%u", b->nunread ? ", " : "", from, next - 1);
  } else {
    for (uint32_t k = from; k < next; k++) hb_sb_printf(&b->unread, "%s%u", b->nunread + (k - from) ? ", " : "", k);
  }
  b->nunread += next - from;
}

void tile_add_unread(tile_block *b, const ft_tiling *t, bool last) {
  for (uint32_t i = 0; i < t->noperands; i++) {
    unread_gap(b, t->operands[i].k); /* the gap [from, k) is not read */
    b->unread_from = t->operands[i].k + 1;
  }
  if (last) unread_gap(b, t->nall);
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
