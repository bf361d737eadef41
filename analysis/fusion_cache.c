/* Memoised out2in results of fusions across the instructions of a module.
 *
 * XLA dumps hold many fusions whose fused computations are copies of one
 * another under other names (a GPU dump of RoBERTa: 160 fused computations,
 * 26 distinct). The out2in indexing of a fusion depends only on the
 * structure of its fused computation, on which of its operands are the
 * same instruction (a parameter group is keyed by the fusion operand), on
 * the output and on the operands' shapes -- not on names. So the result
 * of a top-level fusion query is kept (in the context's long-lived arena)
 * under a structural hash of the fused computation and reused for every
 * later fusion of the same module whose computation is structurally equal.
 *
 * Structural equality (same_comp): same instruction count, parameter
 * numbering and root; instruction by instruction the same opcode, shape
 * (hlo_shape_equal: dims, dynamic flags, layout), operands by position,
 * parameter number, constant literal text, every attribute but metadata,
 * backend_config, frontend_attributes, sharding and the names of called
 * computations (name and raw text), and structurally equal called
 * computations. The only things that differ are
 * names, which the result refers to through its runtime-variable
 * descriptions: a result is kept only when those are instructions of the
 * fused computation itself, and a hit maps them to the instruction at the
 * same position. The maps are copied out on a hit, so a caller may change
 * them as before. */
#include <string.h>

#include "ii_internal.h"

#define MAX_DEPTH 32 /* nested calls compared structurally */

typedef struct fc_entry fc_entry;
struct fc_entry {
  uint64_t hash;
  const hlo_instr *fusion;      /* the fusion the result was computed for */
  const hlo_computation *comp;  /* its fused computation */
  int64_t output_id;
  ii_indexing result;           /* in c->keep */
  fc_entry *next;               /* same bucket */
};

/* ---- hashing ------------------------------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

/* Attributes that do not take part: annotations, and the names of called
 * computations (the computations themselves are compared structurally). */
static bool ignored_attr(const char *name) {
  switch (name[0]) { /* few comparisons: this runs for every attribute */
  case 'm': return strcmp(name, "metadata") == 0;
  case 'b': return strcmp(name, "backend_config") == 0 || strcmp(name, "body") == 0 ||
                   strcmp(name, "branch_computations") == 0;
  case 'f': return strcmp(name, "frontend_attributes") == 0 || strcmp(name, "false_computation") == 0;
  case 's': return strcmp(name, "sharding") == 0 || strcmp(name, "select") == 0 || strcmp(name, "scatter") == 0;
  case 't': return strcmp(name, "to_apply") == 0 || strcmp(name, "true_computation") == 0;
  case 'c': return strcmp(name, "calls") == 0 || strcmp(name, "condition") == 0 ||
                   strcmp(name, "called_computations") == 0;
  default: return false;
  }
}

/* A cheap hash of the structure (instruction count, opcodes, operand
 * positions, parameter numbers, called computations per instruction, array
 * dims): equal computations hash alike, and same_comp decides. Layouts and
 * attributes are left to same_comp, which stops at the first difference. */
static uint64_t hash_comp(const hlo_computation *c) {
  uint64_t h = mix(0x51ed270b27ab7c6dULL, (uint64_t)c->n_instrs);
  h = mix(h, c->root ? (uint64_t)c->root->index : UINT64_MAX);
  for (int i = 0; i < c->n_instrs; i++) {
    const hlo_instr *in = c->instrs[i];
    h = mix(h, (uint64_t)in->op | (uint64_t)in->n_operands << 16 | (uint64_t)in->cold->n_called << 32);
    for (int k = 0; k < in->n_operands; k++) h = mix(h, (uint64_t)in->operands[k]->index);
    if (in->parameter_number >= 0) h = mix(h, (uint64_t)in->parameter_number);
    /* the dims too: computations of one structure at other sizes are common */
    if (in->shape->type != HLO_TUPLE)
      for (int d = 0; d < in->shape->rank; d++) h = mix(h, (uint64_t)in->shape->dims[d]);
  }
  return h;
}

/* ---- structural equality ----------------------------------------------------------------------------- */

static bool same_comp(const hlo_computation *a, const hlo_computation *b, int depth);

static bool same_instr(const hlo_instr *x, const hlo_instr *y, int depth) {
  if (x->op != y->op || hlo_instr_opcode_text(x) != hlo_instr_opcode_text(y) ||
      x->cold->async_wrapped != y->cold->async_wrapped)
    return false;
  if (!hlo_shape_equal(x->shape, y->shape)) return false;
  if (x->n_operands != y->n_operands || x->parameter_number != y->parameter_number) return false;
  for (int k = 0; k < x->n_operands; k++) {
    const hlo_instr *p = x->operands[k], *q = y->operands[k];
    if (p->index != q->index || (p->parent == x->parent) != (q->parent == y->parent)) return false;
  }
  if (!x->cold->literal != !y->cold->literal) return false;
  if (x->cold->literal && (x->cold->literal->len != y->cold->literal->len ||
                           memcmp(x->cold->literal->text, y->cold->literal->text, x->cold->literal->len)))
    return false;
  if (x->cold->n_attrs != y->cold->n_attrs) return false;
  for (int a = 0; a < x->cold->n_attrs; a++) {
    const hlo_attr *p = &x->cold->attrs[a], *q = &y->cold->attrs[a];
    if (p->name != q->name) return false;
    if (ignored_attr(p->name)) continue;
    if (p->value_len != q->value_len || memcmp(p->value, q->value, p->value_len)) return false;
  }
  if (x->cold->n_called != y->cold->n_called) return false;
  for (int k = 0; k < x->cold->n_called; k++)
    if (x->cold->called_role[k] != y->cold->called_role[k] ||
        !same_comp(x->cold->called[k], y->cold->called[k], depth + 1))
      return false;
  return true;
}

static bool same_comp(const hlo_computation *a, const hlo_computation *b, int depth) {
  if (a == b) return true;
  if (depth > MAX_DEPTH) return false;
  if (a->n_instrs != b->n_instrs || a->n_params != b->n_params || !a->root != !b->root) return false;
  if (a->root && a->root->index != b->root->index) return false;
  for (int k = 0; k < a->n_params; k++)
    if (!a->params[k] != !b->params[k] || (a->params[k] && a->params[k]->index != b->params[k]->index)) return false;
  for (int i = 0; i < a->n_instrs; i++)
    if (!same_instr(a->instrs[i], b->instrs[i], depth)) return false;
  return true;
}

/* The fusion operands that are the same instruction: operand k is the
 * same as operand alias(k) (the first such), found through a table of the
 * first position of each operand of F and of G (linear in the operands: a
 * fusion of thousands is looked up once per block). */
static bool same_operands(const hlo_instr *f, const hlo_instr *g) {
  if (f == g) return true;
  if (f->n_operands != g->n_operands || !hlo_shape_equal(f->shape, g->shape)) return false;
  hb_ptrmap pf, pg;
  hb_ptrmap_init(&pf);
  hb_ptrmap_init(&pg);
  bool same = true;
  for (int k = 0; k < f->n_operands && same; k++) {
    if (!hlo_shape_equal(f->operands[k]->shape, g->operands[k]->shape)) same = false;
    hb_ptrmap_val *af = hb_ptrmap_get(&pf, f->operands[k]), *ag = hb_ptrmap_get(&pg, g->operands[k]);
    if (!af != !ag || (af && af->a != ag->a)) same = false;
    if (!af) hb_ptrmap_put(&pf, f->operands[k], (hb_ptrmap_val){k, 0});
    if (!ag) hb_ptrmap_put(&pg, g->operands[k], (hb_ptrmap_val){k, 0});
  }
  hb_ptrmap_free(&pf);
  hb_ptrmap_free(&pg);
  return same;
}

/* same_operands, remembered per fusion (the last fusion IN was found to
 * match): the results of one fusion of thousands of outputs are looked up
 * thousands of times. */
static bool same_fusion_operands(ii_ctx *c, const hlo_instr *f, const hlo_instr *in) {
  if (f == in) return true;
  bool found;
  if (hb_ptrmap_get_ptr(&c->fusion_alias, in, &found) == f && found) return true;
  if (!same_operands(f, in)) return false;
  if (ii_in_module(in)) hb_ptrmap_put_ptr(&c->fusion_alias, in, f);
  return true;
}

/* ---- the cache --------------------------------------------------------------------------------------- */

#define NBUCKETS 1024
/* Results past this many bytes are not kept: a module of many large
 * distinct fusions would otherwise hold all their maps to its end. */
#define FUSION_CACHE_MAX_BYTES ((size_t)1 << 20)
#define FUSION_CACHE_MAP_BYTES 256 /* about what a kept map takes */

/* Whether X fits in what the cache may still take. */
static bool fits(const ii_ctx *c, const ii_indexing *x) {
  size_t maps = 0;
  for (uint32_t k = 0; k < ii_nstored(x); k++) maps += x->sets[k].n;
  return c->fusion_cache_bytes + maps * FUSION_CACHE_MAP_BYTES < FUSION_CACHE_MAX_BYTES;
}

/* The bucket of a computation's hash and an output (or operand, for the
 * in2out results) id: one fusion's thousands of results spread out. */
static size_t bucket(uint64_t h, int64_t id) { return (size_t)((h ^ ((uint64_t)id * 0x9e3779b97f4a7c15ULL)) % NBUCKETS); }

/* Per computation: its structural hash (a) and, once same_comp found it
 * equal to a computation with a cached result, that computation (b), so
 * that later lookups compare pointers instead of structures. */
static hb_ptrmap_val *comp_info(ii_ctx *c, const hlo_computation *comp) {
  hb_ptrmap_val *v = hb_ptrmap_get(&c->fusion_hashes, comp);
  if (v) return v;
  hb_ptrmap_put(&c->fusion_hashes, comp, (hb_ptrmap_val){(int64_t)hash_comp(comp), 0});
  return hb_ptrmap_get(&c->fusion_hashes, comp);
}

static uint64_t comp_hash(ii_ctx *c, const hlo_computation *comp) { return (uint64_t)comp_info(c, comp)->a; }

static const hlo_computation *canonical(ii_ctx *c, const hlo_computation *comp) {
  hb_ptrmap_val *v = comp_info(c, comp);
  return v->b ? (const hlo_computation *)(intptr_t)v->b : comp;
}

static bool same_cached(ii_ctx *c, const hlo_computation *a, const hlo_computation *b) {
  if (canonical(c, a) == canonical(c, b)) return true;
  if (!same_comp(a, b, 0)) return false;
  const hlo_computation *cb = canonical(c, b); /* before taking a's slot: an insert may move it */
  comp_info(c, a)->b = (int64_t)(intptr_t)cb;
  return true;
}

/* The result's runtime-variable instructions all in COMP (others cannot be
 * mapped to another fusion). */
static bool local(const ii_indexing *x, const hlo_computation *comp) {
  for (uint32_t k = 0; k < ii_nstored(x); k++)
    for (uint32_t i = 0; i < x->sets[k].n; i++) {
      const ii_operand *o = x->sets[k].items[i];
      for (uint32_t j = 0; j < o->nrt; j++)
        if (o->rt[j].instr->parent != comp) return false;
    }
  return true;
}

bool ii_fusion_cache_get(ii_ctx *c, const hlo_instr *in, const hlo_computation *comp, int64_t output_id,
                         ii_indexing *out) {
  if (!c->fusion_buckets) return false;
  uint64_t h = comp_hash(c, comp);
  for (const fc_entry *e = c->fusion_buckets[bucket(h, output_id)]; e; e = e->next) {
    if (e->hash != h || e->output_id != output_id) continue;
    if (!same_fusion_operands(c, e->fusion, in) || !same_cached(c, comp, e->comp)) continue;
    ii_indexing_copy(c->scratch, &e->result, out, e->comp, comp);
    c->fusion_hits++;
    return true;
  }
  return false;
}

void ii_fusion_cache_put(ii_ctx *c, const hlo_instr *in, const hlo_computation *comp, int64_t output_id,
                         const ii_indexing *x) {
  if (!fits(c, x) || !local(x, comp)) return;
  size_t used = hb_arena_used(c->keep);
  if (!c->fusion_buckets) c->fusion_buckets = hb_arena_zalloc(c->keep, NBUCKETS * sizeof *c->fusion_buckets);
  uint64_t h = comp_hash(c, comp);
  fc_entry *e = hb_arena_zalloc(c->keep, sizeof *e);
  e->hash = h;
  e->fusion = in;
  e->comp = comp;
  e->output_id = output_id;
  ii_indexing_copy(c->keep, x, &e->result, comp, comp);
  e->next = c->fusion_buckets[bucket(h, output_id)];
  c->fusion_buckets[bucket(h, output_id)] = e;
  c->fusion_cache_bytes += hb_arena_used(c->keep) - used;
}
