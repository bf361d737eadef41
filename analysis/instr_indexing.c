/* Instruction indexing: the context, the public queries (a rule through
 * ii_dispatch.c, then the layouts of physical.c / tiled_indexing.c) and
 * the printers. The rules live in op_*.c, fusions in fusion.c, the helpers
 * they share in ii_build.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "ii_internal.h"
#include "../parser/base/oom.h"

/* ---- context ------------------------------------------------------------------------------------ */

ii_ctx *ii_ctx_new(void) {
  ii_ctx *c = hb_calloc(1, sizeof *c);
  c->ae = ae_ctx_new();
  c->scratch = hb_arena_new();
  c->keep = hb_arena_new();
  c->inst = hb_arena_new();
  c->step = hb_arena_new();
  hb_ptrmap_init(&c->postorders);
  hb_ptrmap_init(&c->concat_offsets);
  hb_ptrmap_init(&c->fusion_args);
  hb_ptrmap_init(&c->fusion_alias);
  hb_ptrmap_init(&c->fusion_parts);
  hb_ptrmap_init(&c->checked);
  hb_ptrmap_init(&c->params_used);
  hb_ptrmap_init(&c->reduce_deps);
  hb_ptrmap_init(&c->memo_o2i);
  hb_ptrmap_init(&c->fusion_hashes);
  c->fusion_cache = true;
  c->text_limit = II_DEFAULT_TEXT_NODES;
  c->node_budget = II_DEFAULT_NODE_BUDGET;
  return c;
}

void ii_ctx_set_text_limit(ii_ctx *c, uint64_t nodes) { c->text_limit = nodes; }
void ii_ctx_set_node_budget(ii_ctx *c, size_t nodes) { c->node_budget = nodes; }

void ii_ctx_free(ii_ctx *c) {
  if (!c) return;
  hb_ptrmap_free(&c->postorders);
  hb_ptrmap_free(&c->concat_offsets);
  hb_ptrmap_free(&c->fusion_args);
  hb_ptrmap_free(&c->fusion_alias);
  hb_ptrmap_free(&c->fusion_parts);
  hb_ptrmap_free(&c->checked);
  hb_ptrmap_free(&c->params_used);
  hb_ptrmap_free(&c->reduce_deps);
  hb_ptrmap_free(&c->memo_o2i);
  hb_ptrmap_free(&c->fusion_hashes);
  hb_arena_free(c->scratch);
  hb_arena_free(c->keep);
  hb_arena_free(c->inst);
  hb_arena_free(c->step);
  vf_memo_free(c);
  ae_ctx_free(c->ae);
  free(c);
}

/* hb_arena_reset hands every block but the first (64 KiB) back to malloc, so a
 * query that needs more would take fresh blocks from the system every time
 * (for large blocks: mmap, page faults and zeroed pages per instruction).
 * The scratch arena is therefore only reset once it holds more than this;
 * until then earlier results stay valid a little longer than promised,
 * and so do the memoised out2in results of fused instructions (a pure
 * function of the instruction), which later queries of the same fusion
 * reuse. */
#define SCRATCH_KEEP ((size_t)1 << 20)

void ii_ctx_reset(ii_ctx *c) {
  if (hb_arena_used(c->scratch) <= SCRATCH_KEEP) return;
  hb_ptrmap_clear(&c->memo_o2i);
  hb_arena_reset(c->scratch);
}

void ii_ctx_end_module(ii_ctx *c) {
  hb_ptrmap_clear(&c->memo_o2i);
  hb_arena_reset(c->scratch);
  hb_ptrmap_clear(&c->postorders);
  hb_ptrmap_clear(&c->concat_offsets);
  hb_ptrmap_clear(&c->fusion_args);
  hb_ptrmap_clear(&c->fusion_alias);
  hb_ptrmap_clear(&c->fusion_parts);
  hb_ptrmap_clear(&c->checked);
  hb_ptrmap_clear(&c->params_used);
  hb_ptrmap_clear(&c->reduce_deps);
  hb_ptrmap_clear(&c->fusion_hashes);
  c->fusion_buckets = NULL;
  c->fusion_cache_bytes = 0;
  hb_arena_reset(c->keep);
  ii_inst_memo_clear(c);
  c->inst_whole = NULL;
  vf_memo_free(c);
}

void ii_ctx_set_fusion_cache(ii_ctx *c, bool enabled) { c->fusion_cache = enabled; }
void ii_ctx_set_xla_compat(ii_ctx *c, bool xla_compat) {
  c->xla_compat = xla_compat;
  ii_inst_memo_clear(c);
  hb_ptrmap_clear(&c->fusion_parts);
  vf_memo_free(c);
}
bool ii_ctx_xla_compat(const ii_ctx *c) { return c->xla_compat; }

uint64_t ii_ctx_fusion_cache_hits(const ii_ctx *c) { return c->fusion_hits; }

ae_ctx *ii_ctx_ae(ii_ctx *c) { return c->ae; }
hb_arena *ii_ctx_arena(ii_ctx *c) { return c->scratch; }

/* ---- public queries ---------------------------------------------------------------------------------- */

int64_t ii_num_outputs(const hlo_instr *in) { return in->shape->type == HLO_TUPLE ? in->shape->n_elems : 1; }

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
  if (o2i) {
    /* memoised: the in2out blocks that follow invert the same result; the
     * layouts below rewrite a copy of the sets */
    const ii_indexing *m;
    st = ii_o2i_memo(c, in, id, &m, err);
    if (st == II_OK) {
      *out = *m;
      out->sets = hb_arena_array(c->scratch, ii_nstored(m) + 1, sizeof *out->sets);
      memcpy(out->sets, m->sets, ii_nstored(m) * sizeof *out->sets);
    }
  } else {
    st = ii_i2o_logical(c, in, id, out, err);
  }
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

bool ii_o2i_in_parts(ii_ctx *c, const hlo_instr *in) {
  if (ii_o2i_part_rule(c, in)) return true;
  if (ii_o2i_family(in->op, c->xla_compat) != II_FAM_FUSION || !ii_fusion_in_parts(c, in)) return false;
  /* (under a query's budget, as the parts will be: one beyond it is not in parts) */
  enter(c);
  bool all = ii_fusion_reads_all(c, in);
  return leave(c, II_OK, in, NULL) == II_OK && all;
}

ii_status ii_o2i_part(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t lo, uint32_t hi, ii_indexing *out,
                      ii_error *err) {
  memset(out, 0, sizeof *out);
  if (err) {
    err->instr = NULL;
    err->message[0] = 0;
  }
  ii_status st = check_output_id(in, output_id, err);
  if (st != II_OK) return st;
  enter(c);
  st = ii_o2i_part_logical(c, in, output_id, lo, hi, out, err);
  if (st == II_OK) st = check_printable(c, out, in, err);
  return leave(c, st, in, err);
}

void ii_ctx_block_begin(ii_ctx *c) { ae_ctx_scope_begin(c->ae); }

void ii_ctx_block_end(ii_ctx *c) {
  ae_ctx_scope_end(c->ae);
  /* (what the memos hold may use the nodes just dropped) */
  hb_ptrmap_clear(&c->memo_o2i);
  ii_inst_memo_clear(c);
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

ii_status ii_o2i_grouped(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_grouped *out, ii_error *err) {
  memset(out, 0, sizeof *out);
  if (err) {
    err->instr = NULL;
    err->message[0] = 0;
  }
  enter(c);
  ii_status st = ii_grouped_logical(c, in, output_id, out, err);
  /* the groups are one result: its text size, as check_printable counts it */
  ii_indexing all = {.sets = hb_arena_array(c->scratch, out->n + 1, sizeof *all.sets)};
  for (uint32_t i = 0; i < out->n; i++) all.sets[all.n++] = out->groups[i].set;
  if (st == II_OK) st = check_printable(c, &all, in, err);
  return leave(c, st, in, err);
}

/* ---- text ---------------------------------------------------------------------------------------------- */

void ii_rt_text(hb_strbuf *b, const hlo_instr *in) {
  if (in->op == HLO_OP_PARAMETER) {
    hb_sb_printf(b, "parameter(%lld)", (long long)in->parameter_number);
    return;
  }
  if (in->op == HLO_OP_CONSTANT) {
    const char *t;
    size_t n;
    if (in->shape->type != HLO_TUPLE && in->shape->rank == 0 && hlo_constant_scalar_text(in, &t, &n)) {
      hb_sb_puts(b, "constant(");
      hb_sb_putn(b, t, n);
      hb_sb_putc(b, ')');
    } else {
      hb_sb_puts(b, "constant");
    }
    return;
  }
  hb_sb_puts(b, in->name);
}

void ii_print_operand(hb_strbuf *b, const ii_operand *x, const map_print_opts *o) {
  if (x->map->undefined && x->why) {
    if (o && o->multiline) hb_sb_indent(b, o->indent);
    hb_sb_printf(b, "unknown indexing (%s)\n", x->why);
    return;
  }
  uint32_t nrt = x->map->undefined ? 0 : x->nrt;
  if (nrt == 0) { /* the common case: no descriptions to render */
    map_print_indexing(b, x->map, NULL, 0, x->map->undefined ? NULL : x->replica, o);
    return;
  }
  map_rt_desc *d = hb_calloc(nrt, sizeof *d);
  hb_strbuf *texts = hb_calloc(nrt, sizeof *texts);
  for (uint32_t j = 0; j < nrt; j++) {
    ii_rt_text(&texts[j], x->rt[j].instr);
    d[j].instr = hb_sb_str(&texts[j]);
    d[j].map = x->rt[j].map;
  }
  map_print_indexing(b, x->map, d, nrt, x->map->undefined ? NULL : x->replica, o);
  for (uint32_t j = 0; j < nrt; j++) hb_sb_free(&texts[j]);
  free(texts);
  free(d);
}

typedef struct {
  const char *text;
  uint32_t idx;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  int r = map_text_order(a->text, b->text);
  if (!r) r = strcmp(a->text, b->text);
  if (r) return r;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

const uint32_t *ii_set_print_order(ii_ctx *c, const ii_set *s) { return ii_set_print_order_in(c->scratch, s); }

const uint32_t *ii_set_print_order_in(hb_arena *a, const ii_set *s) {
  uint32_t *order = hb_arena_array(a, s->n ? s->n : 1, sizeof *order);
  if (s->n <= 1) {
    if (s->n) order[0] = 0;
    return order;
  }
  keyed *k = hb_malloc(s->n * sizeof *k);
  hb_strbuf t = HB_STRBUF_INIT;
  for (uint32_t i = 0; i < s->n; i++) {
    hb_sb_reset(&t);
    ii_print_operand(&t, s->items[i], NULL);
    k[i].text = hb_arena_strndup(a, hb_sb_str(&t), t.len);
    k[i].idx = i;
  }
  hb_sb_free(&t);
  qsort(k, s->n, sizeof *k, cmp_keyed);
  for (uint32_t i = 0; i < s->n; i++) order[i] = k[i].idx;
  free(k);
  return order;
}

void ii_print_indexing(ii_ctx *c, hb_strbuf *b, const ii_indexing *x, const map_print_opts *o) {
  static const map_print_opts dflt = {false, 0};
  if (!o) o = &dflt;
  map_print_opts inner = {o->multiline, o->multiline ? o->indent + 2 : 0};
  for (uint32_t k = 0; k < x->n; k++) {
    const ii_set *s = ii_entry(x, k);
    map_print_operand_header(b, k, o);
    const uint32_t *order = ii_set_print_order(c, s);
    for (uint32_t i = 0; i < s->n; i++) ii_print_operand(b, s->items[order[i]], &inner);
    if (!o->multiline && s->n == 0) hb_sb_putc(b, '\n');
  }
}
