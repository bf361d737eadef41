/* Instruction indexing: context, operand indexings and sets, dispatch by
 * opcode (indexing-semantics.md §3.0), the public queries and the printers.
 * The per-opcode rules live in op_*.c, fusions in fusion.c, layouts in
 * physical.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "ii_internal.h"
#include "oom.h"

/* ---- context ------------------------------------------------------------------------------------ */

ii_ctx *ii_ctx_new(void) {
  ii_ctx *c = xcalloc(1, sizeof *c);
  c->ae = ae_ctx_new();
  c->scratch = arena_new();
  c->keep = arena_new();
  ptrmap_init(&c->postorders);
  ptrmap_init(&c->memo_o2i);
  ptrmap_init(&c->fusion_hashes);
  c->fusion_cache = true;
  c->text_limit = II_DEFAULT_TEXT_NODES;
  c->node_budget = II_DEFAULT_NODE_BUDGET;
  return c;
}

void ii_ctx_set_text_limit(ii_ctx *c, uint64_t nodes) { c->text_limit = nodes; }
void ii_ctx_set_node_budget(ii_ctx *c, size_t nodes) { c->node_budget = nodes; }

void ii_ctx_free(ii_ctx *c) {
  if (!c) return;
  ptrmap_free(&c->postorders);
  ptrmap_free(&c->memo_o2i);
  ptrmap_free(&c->fusion_hashes);
  arena_free(c->scratch);
  arena_free(c->keep);
  ae_ctx_free(c->ae);
  free(c);
}

/* arena_reset hands every block but the first (64 KiB) back to malloc, so a
 * query that needs more would take fresh blocks from the system every time
 * (for large blocks: mmap, page faults and zeroed pages per instruction).
 * The scratch arena is therefore only reset once it holds more than this;
 * until then earlier results stay valid a little longer than promised,
 * and so do the memoised out2in results of fused instructions (a pure
 * function of the instruction), which later queries of the same fusion
 * reuse. */
#define SCRATCH_KEEP ((size_t)1 << 20)

void ii_ctx_reset(ii_ctx *c) {
  if (arena_used(c->scratch) <= SCRATCH_KEEP) return;
  ptrmap_clear(&c->memo_o2i);
  arena_reset(c->scratch);
}

void ii_ctx_end_module(ii_ctx *c) {
  ptrmap_clear(&c->memo_o2i);
  arena_reset(c->scratch);
  ptrmap_clear(&c->postorders);
  ptrmap_clear(&c->fusion_hashes);
  c->fusion_buckets = NULL;
  arena_reset(c->keep);
}

void ii_ctx_set_fusion_cache(ii_ctx *c, bool enabled) { c->fusion_cache = enabled; }
void ii_ctx_set_xla_compat(ii_ctx *c, bool xla_compat) { c->xla_compat = xla_compat; }
bool ii_ctx_xla_compat(const ii_ctx *c) { return c->xla_compat; }

uint64_t ii_ctx_fusion_cache_hits(const ii_ctx *c) { return c->fusion_hits; }

ae_ctx *ii_ctx_ae(ii_ctx *c) { return c->ae; }
arena *ii_ctx_arena(ii_ctx *c) { return c->scratch; }

/* ---- errors and shapes ---------------------------------------------------------------------------- */

ii_status ii_fail(ii_error *err, const hlo_instr *in, const char *fmt, ...) {
  if (err) {
    err->instr = in;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return II_ERROR;
}

const hlo_shape *ii_array_shape(const hlo_shape *s) {
  while (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    if (s->n_elems == 0) break;
    s = s->elems[0];
  }
  return s;
}

const hlo_shape *ii_output_shape(const hlo_instr *in, int64_t output_id) {
  const hlo_shape *s = in->shape;
  if (s->type == HLO_TUPLE && output_id >= 0 && output_id < s->n_elems) return s->elems[output_id];
  return s;
}

int64_t ii_num_outputs(const hlo_instr *in) { return in->shape->type == HLO_TUPLE ? in->shape->n_elems : 1; }

/* ---- building blocks ---------------------------------------------------------------------------- */

void ii_indexing_init(ii_ctx *c, ii_indexing *x, uint32_t n) {
  x->n = n;
  x->sets = arena_zalloc(c->scratch, (n ? n : 1) * sizeof *x->sets);
}

ii_operand *ii_wrap(ii_ctx *c, imap *m) {
  ii_operand *x = arena_zalloc(c->scratch, sizeof *x);
  x->map = m;
  return x;
}

void ii_add(ii_ctx *c, ii_indexing *x, uint32_t k, imap *m) { ii_set_insert(c, &x->sets[k], ii_wrap(c, m)); }

void ii_unknown(ii_ctx *c, ii_indexing *x, uint32_t n) {
  ii_indexing_init(c, x, n);
  for (uint32_t k = 0; k < n; k++) ii_add(c, x, k, imap_new_undefined(c->scratch, c->ae));
}

imap *ii_identity(ii_ctx *c, const hlo_shape *s) {
  s = ii_array_shape(s);
  return imap_identity(c->scratch, c->ae, ii_rank(s), ii_dims(s));
}

imap *ii_scalar_map(ii_ctx *c, const hlo_shape *s) {
  s = ii_array_shape(s);
  return imap_scalar(c->scratch, c->ae, ii_rank(s), ii_dims(s));
}

imap *ii_map(ii_ctx *c, uint32_t ndims, const int64_t *dim_sizes, uint32_t nrange, const int64_t *range_sizes,
             uint32_t nresults, const ae *const *results) {
  interval *div = arena_array(c->scratch, ndims ? ndims : 1, sizeof *div);
  interval *siv = arena_array(c->scratch, nrange ? nrange : 1, sizeof *siv);
  for (uint32_t i = 0; i < ndims; i++) div[i] = iv_make(0, dim_sizes[i] - 1);
  for (uint32_t i = 0; i < nrange; i++) siv[i] = iv_make(0, range_sizes[i] - 1);
  return imap_new(c->scratch, c->ae, ndims, nrange, 0, div, siv, nresults, results);
}

const ae **ii_exprs(ii_ctx *c, size_t n) { return arena_array(c->scratch, n ? n : 1, sizeof(const ae *)); }

ii_status ii_simplify_map(ii_ctx *c, imap *m, simplify_mode mode) {
  if (imap_simplify(m, mode, NULL) == SIMPLIFY_OK) return II_OK;
  c->over = true;
  return II_TOO_LARGE;
}

ii_status ii_budget_status(ii_ctx *c) { return ae_ctx_status(c->ae) == AE_STATUS_OK ? II_OK : II_TOO_LARGE; }

/* ---- operand indexings and sets -------------------------------------------------------------------- */

bool ii_operand_equal(const ii_operand *a, const ii_operand *b) {
  if (!imap_equal(a->map, b->map)) return false;
  if (a->nrt != b->nrt) return false;
  for (uint32_t j = 0; j < a->nrt; j++)
    if (a->rt[j].instr != b->rt[j].instr || !imap_equal(a->rt[j].map, b->rt[j].map)) return false;
  if (!a->replica != !b->replica) return false;
  return !a->replica || imap_equal(a->replica, b->replica);
}

static uint64_t operand_hash(const ii_operand *x) {
  uint64_t h = imap_hash(x->map) * 31 + x->nrt;
  for (uint32_t j = 0; j < x->nrt; j++) h = h * 1000003u ^ imap_hash(x->rt[j].map);
  if (x->replica) h = h * 131 ^ imap_hash(x->replica);
  return h;
}

bool ii_set_insert(ii_ctx *c, ii_set *s, ii_operand *x) {
  if (s->n == s->cap) {
    uint32_t ncap = s->cap ? s->cap * 2 : 2;
    s->items = arena_grow(c->scratch, s->items, s->n, ncap, sizeof *s->items);
    s->hash = arena_grow(c->scratch, s->hash, s->nhashed, ncap, sizeof *s->hash);
    s->cap = ncap;
  }
  /* most sets hold one member: hashes are computed once a second one comes */
  if (s->n > 0) {
    for (uint32_t i = s->nhashed; i < s->n; i++) s->hash[i] = operand_hash(s->items[i]);
    s->nhashed = s->n;
    uint64_t h = operand_hash(x);
    for (uint32_t i = 0; i < s->n; i++)
      if (s->hash[i] == h && ii_operand_equal(s->items[i], x)) return false;
    s->hash[s->n] = h;
    s->nhashed = s->n + 1;
  }
  s->items[s->n++] = x;
  return true;
}

ii_operand *ii_operand_compose(ii_ctx *c, const ii_operand *first, const ii_operand *second) {
  imap *m = imap_compose(c->scratch, first->map, second->map);
  ii_operand *x = ii_wrap(c, m);
  if (m->undefined) return x; /* no descriptions: all undefined members are alike */
  if (first->replica && second->replica) {
    x->map = imap_new_undefined(c->scratch, c->ae);
    return x;
  }
  if (!c->xla_compat) {
    ii_rt_compose(c, first, second, x);
  } else {
    x->nrt = first->nrt + second->nrt;
    x->rt = arena_array(c->scratch, x->nrt ? x->nrt : 1, sizeof *x->rt);
    for (uint32_t j = 0; j < first->nrt; j++) x->rt[j] = first->rt[j];
    for (uint32_t j = 0; j < second->nrt; j++) {
      x->rt[first->nrt + j] = second->rt[j];
      x->rt[first->nrt + j].map = imap_compose(c->scratch, first->map, second->rt[j].map);
    }
  }
  if (first->replica) x->replica = first->replica;
  else if (second->replica) x->replica = imap_compose(c->scratch, first->map, second->replica);
  return x;
}

ii_status ii_operand_simplify(ii_ctx *c, ii_operand *x, bool simplify, bool remove_unused) {
  imap *m = x->map;
  if (m->undefined) return II_OK;
  if (simplify && ii_simplify_map(c, m, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  if (remove_unused && !c->xla_compat && x->nrt > 0) return ii_rt_remove_unused(c, x);
  if (remove_unused) {
    uint32_t nr0 = m->nrange, ns = imap_nsyms(m);
    int32_t *o2n = arena_array(c->scratch, ns ? ns : 1, sizeof *o2n);
    if (imap_remove_unused_symbols(m, o2n) > 0 && x->nrt > 0) {
      ii_rtvar *keep = arena_array(c->scratch, x->nrt, sizeof *keep);
      uint32_t n = 0;
      for (uint32_t j = 0; j < x->nrt; j++)
        if (nr0 + j >= ns || o2n[nr0 + j] >= 0) keep[n++] = x->rt[j];
      x->rt = keep;
      x->nrt = n;
    }
  }
  return ii_budget_status(c);
}

/* ---- dispatch (§3.0) ---------------------------------------------------------------------------- */

/* Shapes the analysis cannot index: unbounded dynamic dimensions ('?'),
 * sizes beyond II_MAX_DIM or element counts beyond int64 (checked once
 * here, so that the per-opcode rules can add and multiply sizes freely). */
static ii_status check_shape(const hlo_instr *in, const hlo_shape *s, const char *what, ii_error *err) {
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    for (int i = 0; i < s->n_elems; i++)
      if (check_shape(in, s->elems[i], what, err) != II_OK) return II_ERROR;
    return II_OK;
  }
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    if (s->unbounded && s->unbounded[i])
      return ii_fail(err, in, "'%s': %s has an unbounded dynamic dimension; indexing maps need static sizes",
                     in->name, what);
    if (s->dims[i] < 0 || s->dims[i] > II_MAX_DIM || !ck_mul(n, s->dims[i] ? s->dims[i] : 1, &n))
      return ii_fail(err, in,
                     "analysis too large for '%s': %s has a dimension of %lld elements (the analysis takes up to "
                     "2^40 per dimension and 2^63-1 in all)",
                     in->name, what, (long long)s->dims[i]);
  }
  return II_OK;
}

static bool big(int64_t v) { return v > II_MAX_DIM || v < -II_MAX_DIM; }

static ii_status check_attrs(const hlo_instr *in, ii_error *err) {
  bool bad = big(in->ext->feature_group_count) || big(in->ext->batch_group_count);
  for (int i = 0; i < in->ext->n_slice; i++)
    bad |= big(in->ext->slice[i].start) || big(in->ext->slice[i].limit) || big(in->ext->slice[i].stride);
  for (int i = 0; i < in->ext->n_padding; i++)
    bad |= big(in->ext->padding[i].lo) || big(in->ext->padding[i].hi) || big(in->ext->padding[i].interior);
  for (int i = 0; i < in->ext->n_window; i++) {
    const hlo_window_dim *w = &in->ext->window[i];
    bad |= big(w->size) || big(w->stride) || big(w->pad_lo) || big(w->pad_hi) || big(w->lhs_dilate) ||
           big(w->rhs_dilate);
  }
  for (int i = 0; i < in->ext->dynamic_slice_sizes.n; i++) bad |= big(in->ext->dynamic_slice_sizes.v[i]);
  if (in->ext->gather)
    for (int i = 0; i < in->ext->gather->slice_sizes.n; i++) bad |= big(in->ext->gather->slice_sizes.v[i]);
  if (bad)
    return ii_fail(err, in, "analysis too large for '%s': an attribute value is beyond +-2^40", in->name);
  return II_OK;
}

/* Operands a rule reads by position (the verifier checks most, not all). */
static int min_operands(hlo_opcode op) {
  switch (op) {
  case HLO_OP_BITCAST:
  case HLO_OP_ALL_GATHER:
  case HLO_OP_ALL_GATHER_START:
  case HLO_OP_BROADCAST:
  case HLO_OP_CONCATENATE:
  case HLO_OP_GET_TUPLE_ELEMENT:
  case HLO_OP_RESHAPE:
  case HLO_OP_REVERSE:
  case HLO_OP_SLICE:
  case HLO_OP_TRANSPOSE: return 1;
  case HLO_OP_CONVOLUTION:
  case HLO_OP_DOT:
  case HLO_OP_DYNAMIC_SLICE:
  case HLO_OP_GATHER:
  case HLO_OP_PAD:
  case HLO_OP_REDUCE:
  case HLO_OP_REDUCE_WINDOW: return 2;
  case HLO_OP_DYNAMIC_UPDATE_SLICE: return 3;
  case HLO_OP_SCALED_DOT: return 4;
  default: return 0;
  }
}

static ii_status check_shapes(const hlo_instr *in, ii_error *err) {
  int need = min_operands(in->op);
  if (in->n_operands < need)
    return ii_fail(err, in, "%s '%s' needs at least %d operand%s, it has %d", in->opcode_text, in->name, need,
                   need == 1 ? "" : "s", in->n_operands);
  if (check_shape(in, in->shape, "its result", err) != II_OK) return II_ERROR;
  for (int k = 0; k < in->n_operands; k++)
    if (check_shape(in, in->operands[k]->shape, "an operand", err) != II_OK) return II_ERROR;
  return check_attrs(in, err);
}

/* Opcodes with an out2in / in2out rule (the dispatch below); the others
 * get `unknown indexing` without any check of their shapes. */
static bool o2i_rule(hlo_opcode op) {
  if (ii_is_elementwise(op)) return true;
  switch (op) {
  case HLO_OP_BITCAST: case HLO_OP_ALL_GATHER: case HLO_OP_ALL_GATHER_START: case HLO_OP_BROADCAST:
  case HLO_OP_CONCATENATE: case HLO_OP_CONSTANT: case HLO_OP_IOTA: case HLO_OP_PARAMETER: case HLO_OP_CONVOLUTION:
  case HLO_OP_DOT: case HLO_OP_DYNAMIC_UPDATE_SLICE: case HLO_OP_DYNAMIC_SLICE: case HLO_OP_FUSION: case HLO_OP_GATHER:
  case HLO_OP_GET_TUPLE_ELEMENT: case HLO_OP_PAD: case HLO_OP_REDUCE: case HLO_OP_REDUCE_WINDOW: case HLO_OP_RESHAPE:
  case HLO_OP_REVERSE: case HLO_OP_SCALED_DOT: case HLO_OP_SCAN: case HLO_OP_SLICE: case HLO_OP_TRANSPOSE:
    return true;
  default: return false;
  }
}

static bool i2o_rule(hlo_opcode op) {
  if (ii_is_elementwise(op)) return true;
  switch (op) {
  case HLO_OP_BITCAST: case HLO_OP_BROADCAST: case HLO_OP_CONCATENATE: case HLO_OP_REDUCE: case HLO_OP_RESHAPE:
  case HLO_OP_REVERSE: case HLO_OP_SLICE: case HLO_OP_TRANSPOSE: case HLO_OP_TUPLE:
    return true;
  default: return false;
  }
}

ii_status ii_o2i_logical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  memset(out, 0, sizeof *out);
  hlo_opcode op = in->op;
  if (!o2i_rule(op)) { /* no rule: unknown, whatever the shapes (as XLA) */
    ii_unknown(c, out, (uint32_t)in->n_operands);
    return II_OK;
  }
  if (check_shapes(in, err) != II_OK) return II_ERROR;
  if (ii_is_elementwise(op)) return ii_elementwise_o2i(c, in, out, err);
  switch (op) {
  case HLO_OP_BITCAST: return ii_bitcast_o2i(c, in, out, err);
  case HLO_OP_ALL_GATHER:
  case HLO_OP_ALL_GATHER_START: return ii_all_gather_o2i(c, in, out, err);
  case HLO_OP_BROADCAST: return ii_broadcast_o2i(c, in, out, err);
  case HLO_OP_CONCATENATE: return ii_concat_o2i(c, in, out, err);
  case HLO_OP_CONSTANT:
  case HLO_OP_IOTA:
  case HLO_OP_PARAMETER: ii_indexing_init(c, out, 0); return II_OK;
  case HLO_OP_CONVOLUTION: return ii_conv_o2i(c, in, out, err);
  case HLO_OP_DOT: return ii_dot_o2i(c, in, out, err);
  case HLO_OP_DYNAMIC_UPDATE_SLICE: return ii_dus_o2i(c, in, out, err);
  case HLO_OP_DYNAMIC_SLICE: return ii_dynamic_slice_o2i(c, in, out, err);
  case HLO_OP_FUSION: return ii_fusion_o2i(c, in, output_id, out, err);
  case HLO_OP_GATHER: return ii_gather_o2i(c, in, out, err);
  case HLO_OP_GET_TUPLE_ELEMENT: return ii_gte_o2i(c, in, out, err);
  case HLO_OP_PAD: return ii_pad_o2i(c, in, out, err);
  case HLO_OP_REDUCE: return ii_reduce_o2i(c, in, out, err);
  case HLO_OP_REDUCE_WINDOW: return ii_reduce_window_o2i(c, in, out, err);
  case HLO_OP_RESHAPE: return ii_reshape_o2i(c, in, out, err);
  case HLO_OP_REVERSE: return ii_reverse_o2i(c, in, out, err);
  case HLO_OP_SCALED_DOT: return ii_scaled_dot_o2i(c, in, out, err);
  case HLO_OP_SCAN: return ii_scan_o2i(c, in, output_id, out, err);
  case HLO_OP_SLICE: return ii_slice_o2i(c, in, out, err);
  case HLO_OP_TRANSPOSE: return ii_transpose_o2i(c, in, out, err);
  default: ii_unknown(c, out, (uint32_t)in->n_operands); return II_OK;
  }
}

ii_status ii_i2o_logical(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  memset(out, 0, sizeof *out);
  hlo_opcode op = in->op;
  if (!i2o_rule(op)) { /* no rule: unknown, whatever the shapes (as XLA) */
    ii_unknown(c, out, (uint32_t)ii_num_outputs(in));
    return II_OK;
  }
  if (check_shapes(in, err) != II_OK) return II_ERROR;
  if (ii_is_elementwise(op)) return ii_elementwise_i2o(c, in, out, err);
  switch (op) {
  case HLO_OP_BITCAST: return ii_bitcast_i2o(c, in, out, err);
  case HLO_OP_BROADCAST: return ii_broadcast_i2o(c, in, out, err);
  case HLO_OP_CONCATENATE: return ii_concat_i2o(c, in, input_id, out, err);
  case HLO_OP_REDUCE: return ii_reduce_i2o(c, in, input_id, out, err);
  case HLO_OP_RESHAPE: return ii_reshape_i2o(c, in, out, err);
  case HLO_OP_REVERSE: return ii_reverse_i2o(c, in, out, err);
  case HLO_OP_SLICE: return ii_slice_i2o(c, in, out, err);
  case HLO_OP_TRANSPOSE: return ii_transpose_i2o(c, in, out, err);
  case HLO_OP_TUPLE: return ii_tuple_i2o(c, in, input_id, out, err);
  default: ii_unknown(c, out, (uint32_t)ii_num_outputs(in)); return II_OK;
  }
}

/* ---- public queries ---------------------------------------------------------------------------------- */

/* A top-level query runs under a node budget; nested ones share it. */
static void enter(ii_ctx *c) {
  if (c->depth++ == 0) {
    c->over = false;
    c->composed = 0;
    ae_ctx_clear_status(c->ae);
    ae_ctx_set_node_limit(c->ae, c->node_budget ? ae_ctx_node_count(c->ae) + c->node_budget : 0);
  }
}

static ii_status leave(ii_ctx *c, ii_status st, const hlo_instr *in, ii_error *err) {
  unsigned status = ae_ctx_status(c->ae);
  if (--c->depth == 0) {
    bool over = c->over || status != AE_STATUS_OK;
    ae_ctx_set_node_limit(c->ae, 0);
    ae_ctx_clear_status(c->ae);
    if (over && st == II_OK) st = II_TOO_LARGE;
  }
  if (st == II_TOO_LARGE && err && !err->instr) {
    err->instr = in;
    if (status & AE_STATUS_TOO_DEEP)
      snprintf(err->message, sizeof err->message,
               "analysis too large for '%s': its indexing maps would nest expressions more than %u deep", in->name,
               AE_DEFAULT_MAX_DEPTH);
    else
      snprintf(err->message, sizeof err->message,
               "analysis too large for '%s': computing its indexing maps exceeds the budget of %zu expression nodes",
               in->name, c->node_budget);
  }
  return st;
}

static ii_status check_output_id(const hlo_instr *in, int64_t output_id, ii_error *err) {
  int64_t n = ii_num_outputs(in);
  if (output_id < 0 || output_id >= n)
    return ii_fail(err, in, "output %lld is out of range: '%s' has %lld output%s", (long long)output_id, in->name,
                   (long long)n, n == 1 ? "" : "s");
  return II_OK;
}

static ii_status check_input_id(const hlo_instr *in, int64_t input_id, ii_error *err) {
  if (in->n_operands == 0) return ii_fail(err, in, "'%s' has no operands", in->name);
  if (input_id < 0 || input_id >= in->n_operands)
    return ii_fail(err, in, "operand %lld is out of range: '%s' has %d operand%s", (long long)input_id, in->name,
                   in->n_operands, in->n_operands == 1 ? "" : "s");
  return II_OK;
}

/* Expressions are DAGs, but their text is a tree: a long chain of generic
 * reshapes can give a map of a few thousand nodes whose text would take
 * gigabytes. Such a result is reported as too large instead of printed. */
static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t map_text_nodes(const imap *m) {
  if (!m || m->undefined || m->known_empty) return 0;
  uint64_t n = 0;
  for (uint32_t i = 0; i < m->nresults; i++) n = sat_add(n, m->results[i]->tree_size);
  for (uint32_t k = 0; k < m->ncons; k++) n = sat_add(n, m->cons[k].expr->tree_size);
  return n;
}

uint64_t ii_operand_text_nodes(const ii_operand *o) {
  uint64_t n = sat_add(map_text_nodes(o->map), map_text_nodes(o->replica));
  for (uint32_t j = 0; j < o->nrt; j++) n = sat_add(n, map_text_nodes(o->rt[j].map));
  return n;
}

uint64_t ii_indexing_text_nodes(const ii_indexing *x) {
  uint64_t n = 0;
  for (uint32_t k = 0; k < x->n; k++)
    for (uint32_t i = 0; i < x->sets[k].n; i++) n = sat_add(n, ii_operand_text_nodes(x->sets[k].items[i]));
  return n;
}

static ii_status check_printable(ii_ctx *c, const ii_indexing *x, const hlo_instr *in, ii_error *err) {
  if (c->text_limit == 0 || ii_indexing_text_nodes(x) <= c->text_limit) return II_OK;
  if (err) {
    err->instr = in;
    snprintf(err->message, sizeof err->message,
             "analysis too large for '%s': its indexing maps would have more than %llu expression nodes as text",
             in->name, (unsigned long long)c->text_limit);
  }
  return II_TOO_LARGE;
}

typedef enum { LOGICAL, PHYSICAL, TILED } layout_mode;

static ii_status query(ii_ctx *c, const hlo_instr *in, int64_t id, bool o2i, layout_mode mode, ii_indexing *out,
                       ii_error *err) {
  memset(out, 0, sizeof *out);
  if (err) {
    err->instr = NULL;
    err->message[0] = 0;
  }
  ii_status st = o2i ? check_output_id(in, id, err) : check_input_id(in, id, err);
  if (st != II_OK) return st;
  enter(c);
  st = o2i ? ii_o2i_logical(c, in, id, out, err) : ii_i2o_logical(c, in, id, out, err);
  if (st == II_OK && mode == PHYSICAL)
    st = o2i ? ii_physical_o2i(c, in, id, out, err) : ii_physical_i2o(c, in, id, out, err);
  if (st == II_OK && mode == TILED) {
    st = ii_budget_status(c);
    if (st == II_OK) st = o2i ? ii_tiled_o2i(c, in, id, out, err) : ii_tiled_i2o(c, in, id, out, err);
  }
  if (st == II_OK) st = check_printable(c, out, in, err);
  return leave(c, st, in, err);
}

ii_status ii_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  return query(c, in, output_id, true, LOGICAL, out, err);
}

ii_status ii_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  return query(c, in, input_id, false, LOGICAL, out, err);
}

ii_status ii_o2i_physical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  return query(c, in, output_id, true, PHYSICAL, out, err);
}

ii_status ii_i2o_physical(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  return query(c, in, input_id, false, PHYSICAL, out, err);
}

ii_status ii_o2i_tiled(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  return query(c, in, output_id, true, TILED, out, err);
}

ii_status ii_i2o_tiled(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  return query(c, in, input_id, false, TILED, out, err);
}

/* ---- text ---------------------------------------------------------------------------------------------- */

void ii_rt_text(strbuf *b, const hlo_instr *in) {
  if (in->op == HLO_OP_PARAMETER) {
    sb_printf(b, "parameter(%lld)", (long long)in->parameter_number);
    return;
  }
  if (in->op == HLO_OP_CONSTANT) {
    const char *t;
    size_t n;
    if (in->shape->type != HLO_TUPLE && in->shape->rank == 0 && hlo_constant_scalar_text(in, &t, &n)) {
      sb_puts(b, "constant(");
      sb_putn(b, t, n);
      sb_putc(b, ')');
    } else {
      sb_puts(b, "constant");
    }
    return;
  }
  sb_puts(b, in->name);
}

void ii_print_operand(strbuf *b, const ii_operand *x, const map_print_opts *o) {
  uint32_t nrt = x->map->undefined ? 0 : x->nrt;
  if (nrt == 0) { /* the common case: no descriptions to render */
    map_print_indexing(b, x->map, NULL, 0, x->map->undefined ? NULL : x->replica, o);
    return;
  }
  map_rt_desc *d = xcalloc(nrt, sizeof *d);
  strbuf *texts = xcalloc(nrt, sizeof *texts);
  for (uint32_t j = 0; j < nrt; j++) {
    ii_rt_text(&texts[j], x->rt[j].instr);
    d[j].instr = sb_str(&texts[j]);
    d[j].map = x->rt[j].map;
  }
  map_print_indexing(b, x->map, d, nrt, x->map->undefined ? NULL : x->replica, o);
  for (uint32_t j = 0; j < nrt; j++) sb_free(&texts[j]);
  free(texts);
  free(d);
}

typedef struct {
  const char *text;
  uint32_t idx;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  int r = strcmp(a->text, b->text);
  if (r) return r;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

const uint32_t *ii_set_print_order(ii_ctx *c, const ii_set *s) {
  uint32_t *order = arena_array(c->scratch, s->n ? s->n : 1, sizeof *order);
  if (s->n <= 1) {
    if (s->n) order[0] = 0;
    return order;
  }
  keyed *k = xmalloc(s->n * sizeof *k);
  strbuf t = STRBUF_INIT;
  for (uint32_t i = 0; i < s->n; i++) {
    sb_reset(&t);
    ii_print_operand(&t, s->items[i], NULL);
    k[i].text = arena_strndup(c->scratch, sb_str(&t), t.len);
    k[i].idx = i;
  }
  sb_free(&t);
  qsort(k, s->n, sizeof *k, cmp_keyed);
  for (uint32_t i = 0; i < s->n; i++) order[i] = k[i].idx;
  free(k);
  return order;
}

void ii_print_indexing(ii_ctx *c, strbuf *b, const ii_indexing *x, const map_print_opts *o) {
  static const map_print_opts dflt = {false, 0};
  if (!o) o = &dflt;
  map_print_opts inner = {o->multiline, o->multiline ? o->indent + 2 : 0};
  for (uint32_t k = 0; k < x->n; k++) {
    const ii_set *s = &x->sets[k];
    map_print_operand_header(b, k, o);
    const uint32_t *order = ii_set_print_order(c, s);
    for (uint32_t i = 0; i < s->n; i++) ii_print_operand(b, s->items[order[i]], &inner);
    if (!o->multiline && s->n == 0) sb_putc(b, '\n');
  }
}
