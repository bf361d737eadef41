/* Fusion composition (indexing-semantics.md §5.4): the maps of a fusion's
 * operands, composed through the fused computation from the chosen root
 * towards the parameters. Groups are keyed by instruction (a fused
 * parameter stands for the fusion operand with its number); every
 * composition step is simplified (replace-points) and loses its unused
 * symbols; runtime-variable maps are carried along unsimplified. Nested
 * fusions are analysed by the same procedure. */
#include <stdio.h>
#include <string.h>

#include "ii_internal.h"

/* ---- post-order ------------------------------------------------------------------------------------ */

/* Operands before users, from every instruction in textual order (XLA's
 * MakeInstructionPostOrder visits the same instructions; any post-order
 * gives the same sets). Iterative, so long chains cannot overflow the
 * stack; a cycle in the operand graph is reported. */
const ii_postorder *ii_computation_postorder(ii_ctx *c, const hlo_computation *comp) {
  bool found;
  const ii_postorder *cached = ptrmap_get_ptr(&c->postorders, comp, &found);
  if (found) return cached;
  uint32_t n = (uint32_t)comp->n_instrs;
  ii_postorder *po = arena_zalloc(c->keep, sizeof *po);
  po->order = arena_array(c->keep, n ? n : 1, sizeof *po->order);
  uint8_t *state = arena_zalloc(c->scratch, n ? n : 1); /* 0 new, 1 on stack, 2 done */
  uint32_t *stack = arena_array(c->scratch, n ? n : 1, sizeof *stack);
  int *next = arena_zalloc(c->scratch, (n ? n : 1) * sizeof *next);
  for (uint32_t s = 0; s < n; s++) {
    if (state[s]) continue;
    uint32_t sp = 0;
    stack[sp++] = s;
    state[s] = 1;
    while (sp) {
      uint32_t v = stack[sp - 1];
      const hlo_instr *x = comp->instrs[v];
      if (next[v] < x->n_operands) {
        const hlo_instr *op = x->operands[next[v]++];
        uint32_t w = (uint32_t)op->index;
        if (op->parent != comp || w >= n) continue;
        if (state[w] == 1) {
          po->cyclic = true;
          po->cycle_at = x;
        } else if (state[w] == 0) {
          state[w] = 1;
          stack[sp++] = w;
        }
        continue;
      }
      state[v] = 2;
      po->order[po->n++] = x;
      sp--;
    }
  }
  ptrmap_put_ptr(&c->postorders, comp, po);
  return po;
}

/* ---- groups --------------------------------------------------------------------------------------- */

typedef struct {
  ptrmap index; /* hlo_instr* -> slot + 1 */
  uint32_t n, cap;
  ii_set **sets;
} groups;

static ii_set *group_get(ii_ctx *c, groups *g, const hlo_instr *key, bool create) {
  ptrmap_val *v = ptrmap_get(&g->index, key);
  if (v) return g->sets[v->a - 1];
  if (!create) return NULL;
  if (g->n == g->cap) {
    uint32_t ncap = g->cap ? g->cap * 2 : 16;
    g->sets = arena_grow(c->scratch, g->sets, g->n, ncap, sizeof *g->sets);
    g->cap = ncap;
  }
  ii_set *s = arena_zalloc(c->scratch, sizeof *s);
  g->sets[g->n++] = s;
  ptrmap_put(&g->index, key, (ptrmap_val){(int64_t)g->n, 0});
  return s;
}

static const hlo_computation *fused_computation(const hlo_instr *in) {
  for (int i = 0; i < in->n_called; i++)
    if (in->called_role[i] == HLO_CALL_CALLS) return in->called[i];
  return NULL;
}

/* Roots: the root, or the operands of a root tuple (nested tuples flattened). */
static void collect_roots(ii_ctx *c, const hlo_instr *r, const hlo_instr ***v, uint32_t *n, uint32_t *cap, int depth) {
  if (r->op == HLO_OP_TUPLE && depth < HLO_MAX_NESTING) {
    for (int k = 0; k < r->n_operands; k++) collect_roots(c, r->operands[k], v, n, cap, depth + 1);
    return;
  }
  if (*n == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 4;
    *v = arena_grow(c->scratch, *v, *n, ncap, sizeof **v);
    *cap = ncap;
  }
  (*v)[(*n)++] = r;
}

/* o2i(X, 0) of an instruction inside a fused computation, memoised for the
 * lifetime of the scratch arena. */
static ii_status inner_o2i(ii_ctx *c, const hlo_instr *x, const ii_indexing **res, ii_error *err) {
  bool found;
  const ii_indexing *m = ptrmap_get_ptr(&c->memo_o2i, x, &found);
  if (found) {
    *res = m;
    return II_OK;
  }
  ii_indexing *p = arena_zalloc(c->scratch, sizeof *p);
  ii_status st = ii_o2i_logical(c, x, 0, p, err);
  if (st != II_OK) return st;
  if (p->n != (uint32_t)x->n_operands)
    return ii_fail(err, x, "internal error: '%s' has %d operands but %u indexing entries", x->name, x->n_operands,
                   p->n);
  ptrmap_put_ptr(&c->memo_o2i, x, p);
  *res = p;
  return II_OK;
}

static ii_status too_large(ii_error *err, const hlo_instr *in, const char *what) {
  if (err) {
    err->instr = in;
    snprintf(err->message, sizeof err->message, "analysis too large for '%s': %s", in->name, what);
  }
  return II_TOO_LARGE;
}

ii_status ii_fusion_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  const hlo_computation *comp = fused_computation(in);
  if (!comp || !comp->root) return ii_fail(err, in, "fusion '%s' has no calls= computation", in->name);
  if (comp->n_params != in->n_operands)
    return ii_fail(err, in, "fusion '%s' has %d operands, but '%s' has %d parameters", in->name, in->n_operands,
                   comp->name, comp->n_params);
  if (c->nest >= II_MAX_NESTING) return too_large(err, in, "fusions nested more than " II_STR(II_MAX_NESTING) " deep");
  /* a top-level fusion whose fused computation has the structure of one
   * analysed before in this module: the same result (fusion_cache.c) */
  bool cacheable = c->fusion_cache && c->nest == 0;
  if (cacheable && ii_fusion_cache_get(c, in, comp, output_id, out)) return II_OK;

  /* 1. the target root */
  const hlo_instr **roots = NULL, *target;
  uint32_t nroots = 0, cap = 0;
  collect_roots(c, comp->root, &roots, &nroots, &cap, 0);
  const hlo_shape *tshape;
  if (output_id >= 0 && output_id < (int64_t)nroots) {
    target = roots[output_id];
    tshape = target->shape;
  } else if (nroots == 1 && output_id >= 0 && output_id < ii_num_outputs(roots[0])) {
    target = roots[0]; /* a multi-output root (variadic reduce): its element */
    tshape = ii_output_shape(target, output_id);
  } else {
    return ii_fail(err, in, "fusion '%s': output %lld is out of range (the fused computation has %u root%s)",
                   in->name, (long long)output_id, nroots, nroots == 1 ? "" : "s");
  }
  ii_indexing_init(c, out, (uint32_t)in->n_operands);

  /* 2. a parameter root */
  if (target->op == HLO_OP_PARAMETER) {
    int64_t pn = target->parameter_number;
    if (pn >= 0 && pn < in->n_operands) ii_add(c, out, (uint32_t)pn, ii_identity(c, tshape));
    return II_OK;
  }

  const ii_postorder *po = ii_computation_postorder(c, comp);
  if (po->cyclic)
    return ii_fail(err, po->cycle_at, "'%s' depends on itself (cyclic operands in '%s')", po->cycle_at->name,
                   comp->name);

  /* 3. groups[target] = {identity} */
  groups g;
  memset(&g, 0, sizeof g);
  ptrmap_init(&g.index);
  ii_set_insert(c, group_get(c, &g, target, true), ii_wrap(c, ii_identity(c, tshape)));

  /* 4-5. users before operands, starting at the target */
  uint32_t start = po->n;
  for (uint32_t i = 0; i < po->n; i++)
    if (po->order[i] == target) start = i;
  ii_status st = II_OK;
  c->nest++;
  for (uint32_t i = start + 1; i-- > 0 && st == II_OK;) {
    const hlo_instr *x = po->order[i];
    if (x->op == HLO_OP_PARAMETER) continue;
    ii_set *cur = group_get(c, &g, x, false);
    if (!cur) continue;
    const ii_indexing *p = NULL;
    st = inner_o2i(c, x, &p, err);
    if (st != II_OK) break;
    for (int k = 0; k < x->n_operands && st == II_OK; k++) {
      const hlo_instr *op = x->operands[k];
      const hlo_instr *key = op;
      if (op->op == HLO_OP_PARAMETER && op->parent == comp) {
        if (op->parameter_number < 0 || op->parameter_number >= in->n_operands) continue;
        key = in->operands[op->parameter_number];
      }
      const ii_set *ps = &p->sets[k];
      if (ps->n == 0) continue;
      ii_set *dst = group_get(c, &g, key, true);
      for (uint32_t a = 0; a < ps->n && st == II_OK; a++) {
        for (uint32_t b = 0; b < cur->n; b++) {
          /* Duplicates cost as much as new maps: without this bound, many
           * maps through an op with many operands (a map() of 1000 copies
           * of one value) compose for minutes into the same few maps. */
          if (++c->composed > (uint64_t)II_MAX_COMPOSE) {
            st = too_large(err, in, "composing its indexing maps takes more than " II_STR(II_MAX_COMPOSE)
                                    " map compositions");
            break;
          }
          ii_operand *m = ii_operand_compose(c, cur->items[b], ps->items[a]);
          st = ii_operand_simplify(c, m, true, true);
          if (st != II_OK) break;
          /* A map whose text is already beyond the text limit only grows
           * (runtime variables pile up through chains of dynamic slices):
           * stop now rather than after minutes of composing it further. */
          if (c->text_limit && ii_operand_text_nodes(m) > c->text_limit) {
            char what[200];
            snprintf(what, sizeof what,
                     "an indexing map through '%s' in '%s' would have more than %llu expression nodes as text",
                     x->name, comp->name, (unsigned long long)c->text_limit);
            st = too_large(err, in, what);
            break;
          }
          ii_set_insert(c, dst, m);
          if (dst->n > (uint32_t)II_MAX_SET) {
            char what[200];
            snprintf(what, sizeof what, "more than %d distinct indexing maps for '%s' (through '%s' in '%s')",
                     II_MAX_SET, key->name, x->name, comp->name);
            st = too_large(err, in, what);
            break;
          }
        }
      }
    }
  }
  c->nest--;
  if (st == II_OK) {
    /* 6. the fusion's entries */
    for (int k = 0; k < in->n_operands; k++) {
      ii_set *s = group_get(c, &g, in->operands[k], false);
      if (s) out->sets[k] = *s;
    }
    if (cacheable && !c->over && ii_budget_status(c) == II_OK) ii_fusion_cache_put(c, in, comp, output_id, out);
  }
  ptrmap_free(&g.index);
  return st;
}
