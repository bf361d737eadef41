#include "fusion_tiling.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ii_internal.h"
#include "../parser/base/oom.h"

static void operand_layout(hb_arena *a, const hlo_instr *producer, ft_operand *op) {
  tl_layout l;
  tl_error e;
  op->producer = producer;
  op->layout_ok = tl_analyze(a, producer->shape, &l, &e);
  if (!op->layout_ok) {
    op->layout_why = hb_arena_strndup(a, e.message, strlen(e.message));
    return;
  }
  tf_layout_of(a, &l, &op->layout);
}

ii_status ft_check_output(const hlo_instr *in, int64_t output, const hlo_shape **shape, ii_error *err) {
  if (output < 0 || output >= ii_num_outputs(in))
    return ii_fail(err, in, "%s has %" PRId64 " output(s); there is no output %" PRId64, in->name, ii_num_outputs(in),
                   output);
  const hlo_shape *s = ii_output_shape(in, output);
  if (!ii_is_array(s)) return ii_fail(err, in, "output %" PRId64 " of %s is not an array", output, in->name);
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return ii_fail(err, in, "output %" PRId64 " of %s has an unbounded dimension", output, in->name);
  *shape = s;
  return II_OK;
}

ii_status ft_symbolic(ii_ctx *c, const hlo_instr *in, int64_t output, ft_tiling *t, ii_error *err) {
  memset(t, 0, sizeof *t);
  const hlo_shape *s;
  ii_status st = ft_check_output(in, output, &s, err);
  if (st != II_OK) return st;
  ii_indexing x;
  st = ii_o2i(c, in, output, &x, err);
  if (st != II_OK) return st;
  ft_symbolic_of(c, ii_ctx_arena(c), in, output, &x, t);
  return II_OK;
}

void ft_symbolic_of(ii_ctx *c, hb_arena *a, const hlo_instr *in, int64_t output, const ii_indexing *x, ft_tiling *t) {
  memset(t, 0, sizeof *t);
  const hlo_shape *s = ii_output_shape(in, output);
  t->in = in;
  t->output = output;
  t->shape = s;
  t->rank = (uint32_t)s->rank;
  t->extent = s->dims;
  t->nall = x->n;
  uint32_t n = 0, nread = 0;
  for (uint32_t k = ii_next_entry(x, 0); k < x->n; k = ii_next_entry(x, k + 1)) n += ii_entry(x, k)->n, nread++;
  t->noperands = nread;
  t->operands = hb_arena_zalloc(a, (nread + 1) * sizeof *t->operands);
  t->entries = hb_arena_zalloc(a, (n + 1) * sizeof *t->entries);
  bool compat = ii_ctx_xla_compat(c);
  t->sets = hb_arena_array(a, nread + 1, sizeof *t->sets);
  uint32_t slot = 0;
  for (uint32_t k = ii_next_entry(x, 0); k < x->n; k = ii_next_entry(x, k + 1), slot++) {
    const ii_set *set = ii_entry(x, k);
    ft_operand *op = &t->operands[slot];
    t->sets[slot] = set;
    op->k = k;
    operand_layout(a, in->operands[k], op);
    op->read = true;
    op->first = t->nentries;
    op->nentries = set->n;
    const uint32_t *order = ii_set_print_order_in(a, set); /* (in A: a part's tiling, derived again per tiling) */
    for (uint32_t i = 0; i < set->n; i++) {
      ft_entry *e = &t->entries[t->nentries++];
      e->operand = k;
      e->slot = slot;
      e->map = i;
      e->nmaps = set->n;
      e->x = set->items[order[i]];
      char why[400];
      e->status = st_derive(a, e->x->map, compat, &e->tile, why, sizeof why);
      e->why = e->status == ST_OK ? NULL : hb_arena_strndup(a, why, strlen(why));
    }
  }
}

static bool union_by_marks(const ft_tiling *t, uint32_t slot, tf_count *out) {
  const ft_operand *op = &t->operands[slot];
  const hlo_shape *s = op->producer->shape;
  if (op->loaded > FT_MARK_STEPS) return false;
  uint64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    if (s->dims[i] < 0 || (s->dims[i] && n > FT_MARK_ELEMS / (uint64_t)s->dims[i])) return false;
    n *= (uint64_t)s->dims[i];
  }
  if (n > FT_MARK_ELEMS) return false;
  uint64_t *bits = hb_calloc(n / 64 + 1, sizeof *bits);
  uint64_t budget = FT_MARK_STEPS, count = 0;
  bool ok = true;
  for (uint32_t i = op->first; i < op->first + op->nentries && ok; i++)
    ok = tf_mark(t->entries[i].offsets, t->entries[i].dims, bits, &budget, &count);
  free(bits);
  *out = count;
  return ok;
}

static bool union_of_maps(const ft_tiling *t, uint32_t slot, uint32_t n, tf_count *out) {
  const ft_operand *op = &t->operands[slot];
  const imap **offs = hb_calloc(n, sizeof *offs);
  const tf_dim **dims = hb_calloc(n, sizeof *dims);
  uint32_t m = 0;
  for (uint32_t i = op->first; i < op->first + op->nentries; i++)
    offs[m] = t->entries[i].offsets, dims[m++] = t->entries[i].dims;
  bool ok = tf_union_maps(offs, dims, n, out);
  free(offs);
  free(dims);
  return ok;
}

void ft_distinct(ii_ctx *c, ft_tiling *t) {
  for (uint32_t k = 0; k < t->noperands; k++) {
    ft_operand *op = &t->operands[k];
    op->distinct_known = false;
    if (!op->counted) continue;
    const ft_entry *one = NULL;
    uint32_t nmaps = 0;
    bool rt = false;
    for (uint32_t i = op->first; i < op->first + op->nentries; i++)
      one = &t->entries[i], nmaps++, rt |= imap_nsyms(t->entries[i].offsets) > 0;
    op->distinct_known = op->distinct_exact = true;
    if (rt) op->distinct_why = "runtime offsets taken at their lowest values";
    op->distinct_exact = !rt;
    if (nmaps == 1 && tf_union_separable(one->offsets, one->dims, &op->distinct)) continue;
    if (nmaps > 1 && union_of_maps(t, k, nmaps, &op->distinct)) continue;
    if (union_by_marks(t, k, &op->distinct)) continue;
    as_summary sm;
    as_summarize(c, t->in, op->k, t->output, &t->sets[k], 1, &sm);
    op->distinct = sm.distinct;
    op->distinct_exact = false;
    op->distinct_why = sm.exact ? "too many to mark: the elements the maps read"
                                : "too many to mark: the elements the maps read, themselves estimated";
  }
}

void ft_instantiate(ii_ctx *c, ft_tiling *t, const int64_t *ts) { ft_instantiate_in(c, t, ts, ii_ctx_arena(c)); }

void ft_instantiate_in(ii_ctx *c, ft_tiling *t, const int64_t *ts_in, hb_arena *a) {
  (void)c;
  int64_t *ts = hb_arena_array(a, t->rank + 1, sizeof *ts), *nt = hb_arena_array(a, t->rank + 1, sizeof *nt);
  t->total_tiles = 1;
  for (uint32_t i = 0; i < t->rank; i++) {
    ts[i] = ts_in[i];
    nt[i] = t->extent[i] / ts[i] + (t->extent[i] % ts[i] != 0);
    t->total_tiles *= (uint64_t)nt[i];
  }
  t->ts = ts;
  t->ntiles = nt;
  t->holds = true;
  for (uint32_t k = 0; k < t->noperands; k++) {
    ft_operand *op = &t->operands[k];
    op->counted = op->read;
    op->exact = true;
    op->loaded = op->tiles_loaded = 0;
  }
  for (uint32_t i = 0; i < t->nentries; i++) {
    ft_entry *e = &t->entries[i];
    ft_operand *op = &t->operands[e->slot];
    if (e->status != ST_OK) {
      op->counted = false;
      continue;
    }
    const st_tile *tl = &e->tile;
    e->sizes = hb_arena_array(a, tl->nresults + 1, sizeof *e->sizes);
    e->strides = hb_arena_array(a, tl->nresults + 1, sizeof *e->strides);
    bool ok = st_eval(tl, ts, e->sizes, e->strides);
    e->holds = ok && st_holds(tl, ts);
    t->holds &= e->holds;
    e->rt_of = hb_arena_array(a, tl->map->nrt + 1, sizeof *e->rt_of);
    e->offsets = ok ? st_offsets_map(a, tl, ts, t->extent, e->rt_of) : NULL;
    const hlo_shape *s = op->producer->shape;
    if (!e->offsets || !op->layout_ok || (uint32_t)s->rank != tl->nresults) {
      memset(&e->fp, 0, sizeof e->fp);
      e->fp.why = "";
      op->counted = false;
      continue;
    }
    tf_dim *dims = hb_arena_array(a, tl->nresults + 1, sizeof *dims);
    for (uint32_t j = 0; j < tl->nresults; j++)
      dims[j] = (tf_dim){s->dims[j], e->sizes[j], e->strides[j], op->layout.padded ? op->layout.dim_tile[j] : 1};
    e->dims = dims;
    tf_sum(e->offsets, dims, &e->fp);
    op->loaded += e->fp.elems;
    op->tiles_loaded += e->fp.tiles;
    op->exact &= e->fp.exact;
  }
}

ii_status ft_tile(ii_ctx *c, const hlo_instr *in, int64_t output, const int64_t *ts, uint32_t nts, ft_tiling *t,
                  ii_error *err) {
  ii_status st = ft_symbolic(c, in, output, t, err);
  if (st != II_OK) return st;
  if (nts != t->rank)
    return ii_fail(err, in, "%" PRIu32 " tile size(s) for output %" PRId64 " of %s, which has rank %" PRIu32, nts, output,
                   in->name, t->rank);
  for (uint32_t i = 0; i < nts; i++)
    if (ts[i] < 1) return ii_fail(err, in, "tile sizes must be at least 1");
  ft_instantiate(c, t, ts);
  ft_distinct(c, t);
  return II_OK;
}
