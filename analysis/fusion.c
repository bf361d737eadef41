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
  const ii_postorder *cached = hb_ptrmap_get_ptr(&c->postorders, comp, &found);
  if (found) return cached;
  uint32_t n = (uint32_t)comp->n_instrs;
  ii_postorder *po = hb_arena_zalloc(c->keep, sizeof *po);
  po->order = hb_arena_array(c->keep, n ? n : 1, sizeof *po->order);
  uint8_t *state = hb_arena_zalloc(c->scratch, n ? n : 1); /* 0 new, 1 on stack, 2 done */
  uint32_t *stack = hb_arena_array(c->scratch, n ? n : 1, sizeof *stack);
  int *next = hb_arena_zalloc(c->scratch, (n ? n : 1) * sizeof *next);
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
  hb_ptrmap_put_ptr(&c->postorders, comp, po);
  return po;
}

/* ---- groups ------------------------------------------------------------------------------------ */

/* The maps from the target into each (instruction, output) reached. A
 * tuple-shaped instruction has one set per element, and one more for reads
 * of the whole tuple (rules that do not say which element). Under
 * --xla-compat every instruction has one set (XLA keys groups by
 * instruction and asks every instruction for its output 0). */
typedef struct {
  const hlo_instr *key;
  uint32_t nsets;
  ii_set **sets;
} gslot;

struct ii_groups {
  hb_ptrmap index; /* hlo_instr* -> slot + 1 */
  uint32_t n, cap;
  gslot *slots;
};

static uint32_t nsets_of(ii_ctx *c, const hlo_instr *key) {
  if (c->xla_compat || key->shape->type != HLO_TUPLE) return 1;
  return (uint32_t)key->shape->n_elems + 1;
}

/* The set of KEY for element ELEM (-1: the whole value). */
static ii_set *group_get(ii_ctx *c, ii_groups *g, const hlo_instr *key, int64_t elem, bool create) {
  hb_ptrmap_val *v = hb_ptrmap_get(&g->index, key);
  gslot *sl = v ? &g->slots[v->a - 1] : NULL;
  if (!sl) {
    if (!create) return NULL;
    if (g->n == g->cap) {
      uint32_t ncap = g->cap ? g->cap * 2 : 16;
      g->slots = hb_arena_grow(c->scratch, g->slots, g->n, ncap, sizeof *g->slots);
      g->cap = ncap;
    }
    sl = &g->slots[g->n++];
    sl->key = key;
    sl->nsets = nsets_of(c, key);
    sl->sets = hb_arena_zalloc(c->scratch, sl->nsets * sizeof *sl->sets);
    hb_ptrmap_put(&g->index, key, (hb_ptrmap_val){(int64_t)g->n, 0});
  }
  uint32_t i = sl->nsets == 1 ? 0 : elem >= 0 && elem < (int64_t)sl->nsets - 1 ? (uint32_t)elem : sl->nsets - 1;
  if (!sl->sets[i] && create) sl->sets[i] = hb_arena_zalloc(c->scratch, sizeof **sl->sets);
  return sl->sets[i];
}

/* Roots: the root, or the operands of a root tuple (nested tuples flattened). */
static void collect_roots(ii_ctx *c, const hlo_instr *r, const hlo_instr ***v, uint32_t *n, uint32_t *cap, int depth) {
  if (r->op == HLO_OP_TUPLE && depth < HLO_MAX_NESTING) {
    for (int k = 0; k < r->n_operands; k++) collect_roots(c, r->operands[k], v, n, cap, depth + 1);
    return;
  }
  if (*n == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 4;
    *v = hb_arena_grow(c->scratch, *v, *n, ncap, sizeof **v);
    *cap = ncap;
  }
  (*v)[(*n)++] = r;
}

ii_status ii_o2i_memo(ii_ctx *c, const hlo_instr *x, int64_t out, const ii_indexing **res, ii_error *err) {
  bool found;
  ii_indexing **per_out = (ii_indexing **)hb_ptrmap_get_ptr(&c->memo_o2i, x, &found);
  int64_t nout = ii_num_outputs(x);
  if (!found) {
    per_out = hb_arena_zalloc(c->scratch, (size_t)(nout ? nout : 1) * sizeof *per_out);
    hb_ptrmap_put_ptr(&c->memo_o2i, x, per_out);
  }
  if (per_out[out]) {
    *res = per_out[out];
    return II_OK;
  }
  ii_indexing *p = hb_arena_zalloc(c->scratch, sizeof *p);
  ii_status st = ii_o2i_logical(c, x, out, p, err);
  if (st != II_OK) return st;
  if (p->n != (uint32_t)x->n_operands)
    return ii_fail(err, x, "internal error: '%s' has %d operands but %u indexing entries", x->name, x->n_operands,
                   p->n);
  per_out[out] = p;
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

/* Composes every member of P (the out2in maps of X's operand into KEY,
 * element ELEM) after every member of CUR into KEY's group. */
static ii_status compose_into(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp, const hlo_instr *x,
                              const ii_set *cur, const ii_set *p, ii_groups *g, const hlo_instr *key, int64_t elem,
                              ii_error *err) {
  ii_set *dst = group_get(c, g, key, elem, true);
  for (uint32_t a = 0; a < p->n; a++) {
    for (uint32_t b = 0; b < cur->n; b++) {
      /* Duplicates cost as much as new maps: without this bound, many
       * maps through an op with many operands (a map() of 1000 copies
       * of one value) compose for minutes into the same few maps. */
      if (++c->composed > (uint64_t)II_MAX_COMPOSE)
        return too_large(err, at, "composing its indexing maps takes more than " II_STR(II_MAX_COMPOSE)
                                  " map compositions");
      ii_operand *m = ii_operand_compose(c, cur->items[b], p->items[a]);
      ii_status st = ii_operand_simplify(c, m, true, true);
      if (st != II_OK) return st;
      /* A map whose text is already beyond the text limit only grows
       * (runtime variables pile up through chains of dynamic slices):
       * stop now rather than after minutes of composing it further. */
      if (c->text_limit && ii_operand_text_nodes(m) > c->text_limit) {
        char what[200];
        snprintf(what, sizeof what,
                 "an indexing map through '%s' in '%s' would have more than %llu expression nodes as text", x->name,
                 comp->name, (unsigned long long)c->text_limit);
        return too_large(err, at, what);
      }
      ii_set_insert(c, dst, m);
      if (dst->n > (uint32_t)II_MAX_SET) {
        char what[200];
        snprintf(what, sizeof what, "more than %d distinct indexing maps for '%s' (through '%s' in '%s')",
                 II_MAX_SET, key->name, x->name, comp->name);
        return too_large(err, at, what);
      }
    }
  }
  return II_OK;
}

ii_status ii_compose_computation(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp,
                                 const hlo_instr *const *args, int nargs, int64_t output_id, ii_groups **res,
                                 ii_error *err) {
  *res = NULL;
  if (comp->n_params != nargs)
    return ii_fail(err, at, "%s '%s' has %d operands, but '%s' has %d parameters", at->opcode_text, at->name, nargs,
                   comp->name, comp->n_params);
  if (c->nest >= II_MAX_NESTING)
    return too_large(err, at, "fusions nested more than " II_STR(II_MAX_NESTING) " deep");

  /* 1. the target root (an element of a multi-output root: that output) */
  const hlo_instr **roots = NULL, *target;
  uint32_t nroots = 0, cap = 0;
  collect_roots(c, comp->root, &roots, &nroots, &cap, 0);
  const hlo_shape *tshape;
  int64_t tout = 0;
  if (output_id >= 0 && output_id < (int64_t)nroots) {
    target = roots[output_id];
    tshape = target->shape;
  } else if (nroots == 1 && output_id >= 0 && output_id < ii_num_outputs(roots[0])) {
    target = roots[0]; /* a multi-output root (variadic reduce): its element */
    tshape = ii_output_shape(target, output_id);
    tout = c->xla_compat ? 0 : output_id;
  } else {
    return ii_fail(err, at, "%s '%s': output %lld is out of range (the %s computation has %u root%s)",
                   at->opcode_text, at->name, (long long)output_id, at->op == HLO_OP_FUSION ? "fused" : "called",
                   nroots, nroots == 1 ? "" : "s");
  }
  ii_groups *g = hb_arena_zalloc(c->scratch, sizeof *g);
  hb_ptrmap_init(&g->index);
  *res = g;

  /* 2. a parameter root */
  if (target->op == HLO_OP_PARAMETER) {
    int64_t pn = target->parameter_number;
    if (pn >= 0 && pn < nargs) ii_set_insert(c, group_get(c, g, args[pn], -1, true), ii_wrap(c, ii_identity(c, tshape)));
    return II_OK;
  }

  const ii_postorder *po = ii_computation_postorder(c, comp);
  if (po->cyclic)
    return ii_fail(err, po->cycle_at, "'%s' depends on itself (cyclic operands in '%s')", po->cycle_at->name,
                   comp->name);

  /* 3. groups[target] = {identity} */
  ii_set_insert(c, group_get(c, g, target, tout, true), ii_wrap(c, ii_identity(c, tshape)));

  /* 4-5. users before operands, starting at the target */
  uint32_t start = po->n;
  for (uint32_t i = 0; i < po->n; i++)
    if (po->order[i] == target) start = i;
  ii_status st = II_OK;
  c->nest++;
  for (uint32_t i = start + 1; i-- > 0 && st == II_OK;) {
    const hlo_instr *x = po->order[i];
    if (x->op == HLO_OP_PARAMETER) continue;
    hb_ptrmap_val *v = hb_ptrmap_get(&g->index, x);
    if (!v) continue;
    uint32_t slot = (uint32_t)v->a - 1, nsets = g->slots[slot].nsets; /* composing may move the slots */
    for (uint32_t e = 0; e < nsets && st == II_OK; e++) {
      const ii_set *cur = g->slots[slot].sets[e];
      if (!cur || cur->n == 0) continue;
      /* the whole of a tuple: no rule says which element of X it reads */
      if (nsets > 1 && e == nsets - 1) continue;
      int64_t out = nsets == 1 ? 0 : (int64_t)e;
      const ii_indexing *p = NULL;
      st = ii_o2i_memo(c, x, out, &p, err);
      for (int k = 0; k < x->n_operands && st == II_OK; k++) {
        const hlo_instr *op = x->operands[k], *key = op;
        if (op->op == HLO_OP_PARAMETER && op->parent == comp) {
          if (op->parameter_number < 0 || op->parameter_number >= nargs) continue;
          key = args[op->parameter_number];
        }
        const ii_set *ps = &p->sets[k];
        if (ps->n == 0) continue;
        st = compose_into(c, at, comp, x, cur, ps, g, key, ps->in_elem ? ps->elem : -1, err);
      }
    }
  }
  c->nest--;
  return st;
}

void ii_groups_free(ii_groups *g) {
  if (g) hb_ptrmap_free(&g->index);
}

/* The maps into KEY: its set, or for a tuple-shaped KEY the one element
 * read (several elements: unknown, a set cannot say which map reads which). */
void ii_groups_entry(ii_ctx *c, const ii_groups *g, const hlo_instr *key, ii_set *out) {
  memset(out, 0, sizeof *out);
  hb_ptrmap_val *v = hb_ptrmap_get((hb_ptrmap *)&g->index, key);
  if (!v) return;
  const gslot *sl = &g->slots[v->a - 1];
  int64_t found = -1;
  for (uint32_t e = 0; e < sl->nsets; e++) {
    if (!sl->sets[e] || sl->sets[e]->n == 0) continue;
    if (found >= 0) {
      ii_operand *u = ii_wrap(c, imap_new_undefined(c->scratch, c->ae));
      u->why = ii_why(c, "maps into several elements of a tuple operand");
      memset(out, 0, sizeof *out);
      ii_set_insert(c, out, u);
      return;
    }
    found = e;
    *out = *sl->sets[e];
    out->in_elem = sl->nsets > 1 && e < sl->nsets - 1;
    out->elem = out->in_elem ? (int64_t)e : 0;
  }
}

ii_status ii_fusion_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  const hlo_computation *comp = ii_called(in, HLO_CALL_CALLS);
  if (!comp || !comp->root) return ii_fail(err, in, "fusion '%s' has no calls= computation", in->name);
  /* a top-level fusion whose fused computation has the structure of one
   * analysed before in this module: the same result (fusion_cache.c) */
  bool cacheable = c->fusion_cache && c->nest == 0;
  if (cacheable && ii_fusion_cache_get(c, in, comp, output_id, out)) return II_OK;
  ii_groups *g;
  ii_status st = ii_compose_computation(c, in, comp, (const hlo_instr *const *)in->operands, in->n_operands,
                                        output_id, &g, err);
  if (st == II_OK) {
    /* 6. the fusion's entries */
    ii_indexing_init(c, out, (uint32_t)in->n_operands);
    for (int k = 0; k < in->n_operands; k++) ii_groups_entry(c, g, in->operands[k], &out->sets[k]);
    if (cacheable && !c->over && ii_budget_status(c) == II_OK) ii_fusion_cache_put(c, in, comp, output_id, out);
  }
  ii_groups_free(g);
  return st;
}

const hlo_instr *ii_computation_instr(ii_ctx *c, const hlo_computation *comp) {
  hlo_instr *in = hb_arena_zalloc(c->keep, sizeof *in);
  hlo_computation **called = hb_arena_alloc(c->keep, sizeof *called);
  hlo_call_role *role = hb_arena_alloc(c->keep, sizeof *role);
  *called = (hlo_computation *)comp;
  *role = HLO_CALL_CALLS;
  in->name = comp->name;
  in->opcode_text = "computation";
  in->op = HLO_OP_FUSION;
  in->shape = comp->root ? comp->root->shape : comp->signature_result;
  in->operands = comp->params;
  in->n_operands = comp->n_params;
  in->called = called;
  in->called_role = role;
  in->n_called = 1;
  in->parent = (hlo_computation *)comp;
  in->offset = comp->offset;
  in->parameter_number = -1;
  in->ext = &hlo_instr_ext_none;
  in->index = -1;
  in->fusion_kind = HLO_FUSION_LOOP;
  in->async_wrapped = HLO_OP_UNKNOWN;
  return in;
}

ii_status ii_grouped_logical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_grouped *out, ii_error *err) {
  memset(out, 0, sizeof *out);
  const hlo_computation *comp = in->op == HLO_OP_FUSION ? ii_called(in, HLO_CALL_CALLS) : NULL;
  if (!comp || !comp->root)
    return ii_fail(err, in, "'%s' is not a fusion: grouped indexing maps a fusion's output into its computation",
                   in->name);
  if (output_id < 0 || output_id >= ii_num_outputs(in))
    return ii_fail(err, in, "output %lld is out of range: '%s' has %lld outputs", (long long)output_id, in->name,
                   (long long)ii_num_outputs(in));
  ii_groups *g;
  /* the parameters stand for themselves: the groups are keyed inside */
  ii_status st = ii_compose_computation(c, in, comp, (const hlo_instr *const *)comp->params, comp->n_params,
                                        output_id, &g, err);
  if (st == II_OK) {
    size_t total = 0;
    for (uint32_t i = 0; i < g->n; i++) total += g->slots[i].nsets;
    out->groups = hb_arena_array(c->scratch, total + 1, sizeof *out->groups);
    for (int i = 0; i < comp->n_instrs; i++) {
      hb_ptrmap_val *v = hb_ptrmap_get(&g->index, comp->instrs[i]);
      if (!v) continue;
      const gslot *sl = &g->slots[v->a - 1];
      for (uint32_t e = 0; e < sl->nsets; e++) {
        if (!sl->sets[e] || sl->sets[e]->n == 0) continue;
        ii_group *d = &out->groups[out->n++];
        d->instr = comp->instrs[i];
        d->elem = sl->nsets > 1 && e < sl->nsets - 1 ? (int64_t)e : -1;
        d->set = *sl->sets[e];
      }
    }
  }
  ii_groups_free(g);
  return st;
}
