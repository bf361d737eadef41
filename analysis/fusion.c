/* Fusion composition (indexing-semantics.md §5.4): the maps of a fusion's
 * operands, composed through the fused computation from the chosen root
 * towards the parameters. Groups are keyed by instruction (a fused
 * parameter stands for the fusion operand with its number); every
 * composition step is simplified (replace-points) and loses its unused
 * symbols; runtime-variable maps are carried along unsimplified. Nested
 * fusions are analysed by the same procedure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"
#include "u32_heap.h"
#include "../parser/base/oom.h"

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
  po->pos = hb_arena_array(c->keep, n ? n : 1, sizeof *po->pos);
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
      po->pos[v] = po->n;
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
  bool inner; /* an instruction of the computation: its sets in g->live (when there is one) */
  ii_set **sets; /* NULL once composed further (dropped) */
} gslot;

struct ii_groups {
  hb_ptrmap index; /* hlo_instr* -> slot + 1 (the keys not in `dense`) */
  /* a large computation's instructions: slot + 1 by position (4 bytes
   * each, not a hash map's 24: a fusion of 20,000 took 0.8 MB), in the
   * post-order's array (ii_postorder.slots) */
  uint32_t *dense, ndense;
  uint32_t n, cap;
  gslot *slots;
  /* the walk: the post-order places of the computation's instructions that
   * have a group and wait, a max-heap (users before operands, and only the
   * instructions reached: an output of a fusion of thousands reads few) */
  const hlo_computation *comp;
  const ii_postorder *po;
  uint32_t *heap, nheap, capheap;
  /* A large computation's own groups (and the out2in results composed
   * with them) are needed only until their instruction is composed
   * further: they go to LIVE, whose still-waiting groups are copied to
   * SPARE, and LIVE emptied, each time it holds GC_AT bytes. A fusion of
   * 10,000 instructions otherwise holds every one's maps to the end. */
  hb_arena *live, *spare;
  size_t gc_at;
  hb_ptrmap shared; /* operand hash -> a map copied out to c->scratch (shared_copy) */
  uint32_t epoch;   /* > 0: only the instructions marked for it (ii_fusion_o2i_range) */
};

#define GC_MIN_INSTRS 256
#define GC_MIN_BYTES ((size_t)256 << 10)

static void heap_push(ii_groups *g, uint32_t v) {
  if (g->nheap == g->capheap) {
    uint32_t ncap = g->capheap ? g->capheap * 2 : 16;
    g->heap = hb_realloc(g->heap, ncap * sizeof *g->heap);
    g->capheap = ncap;
  }
  u32_heap_push(g->heap, &g->nheap, v);
}

static uint32_t nsets_of(ii_ctx *c, const hlo_instr *key) {
  if (c->xla_compat || key->shape->type != HLO_TUPLE) return 1;
  return (uint32_t)key->shape->n_elems + 1;
}

static bool is_inner(const ii_groups *g, const hlo_instr *key) {
  return key->parent == g->comp && key->op != HLO_OP_PARAMETER;
}

/* KEY's place in `dense`, or NULL (not an instruction of the computation,
 * or no `dense`). */
static uint32_t *dense_slot(const ii_groups *g, const hlo_instr *key) {
  if (!g->dense || key->parent != g->comp || (uint32_t)key->index >= g->ndense || g->comp->instrs[key->index] != key)
    return NULL;
  return &g->dense[key->index];
}

/* KEY's slot + 1, 0 when it has none. */
static uint32_t slot_of(const ii_groups *g, const hlo_instr *key) {
  const uint32_t *d = dense_slot(g, key);
  if (d) return *d;
  hb_ptrmap_val *v = hb_ptrmap_get((hb_ptrmap *)&g->index, key);
  return v ? (uint32_t)v->a : 0;
}

/* Where KEY's sets and their members go. */
static hb_arena *arena_of(ii_ctx *c, const ii_groups *g, const hlo_instr *key) {
  return g->live && is_inner(g, key) ? g->live : c->scratch;
}

/* Whether the walk composes into OP: every instruction, or in a part's
 * walk (g->epoch) those marked for it (mark_part). */
static bool wanted(const ii_groups *g, const hlo_instr *op) {
  if (!g->epoch) return true;
  const hlo_computation *comp = g->comp;
  return op->parent == comp && op->index >= 0 && op->index < comp->n_instrs && comp->instrs[op->index] == op &&
         g->po->mark[op->index] == g->epoch;
}

/* The set of KEY for element ELEM (-1: the whole value). */
static ii_set *group_get(ii_ctx *c, ii_groups *g, const hlo_instr *key, int64_t elem, bool create) {
  uint32_t at = slot_of(g, key);
  gslot *sl = at ? &g->slots[at - 1] : NULL;
  if (!sl) {
    if (!create) return NULL;
    if (g->n == g->cap) {
      uint32_t ncap = g->cap ? g->cap * 2 : 16;
      g->slots = hb_realloc(g->slots, ncap * sizeof *g->slots);
      g->cap = ncap;
    }
    sl = &g->slots[g->n++];
    sl->key = key;
    sl->nsets = nsets_of(c, key);
    sl->inner = g->po && is_inner(g, key);
    sl->sets = hb_arena_zalloc(arena_of(c, g, key), sl->nsets * sizeof *sl->sets);
    uint32_t *d = dense_slot(g, key);
    if (d) *d = g->n;
    else hb_ptrmap_put(&g->index, key, (hb_ptrmap_val){(int64_t)g->n, 0});
    if (sl->inner) heap_push(g, g->po->pos[key->index]);
  }
  if (!sl->sets) return NULL; /* (composed further already: a cycle, reported before) */
  uint32_t i = sl->nsets == 1 ? 0 : elem >= 0 && elem < (int64_t)sl->nsets - 1 ? (uint32_t)elem : sl->nsets - 1;
  if (!sl->sets[i] && create) sl->sets[i] = hb_arena_zalloc(arena_of(c, g, key), sizeof **sl->sets);
  return sl->sets[i];
}

/* LIVE's groups still waiting, copied to SPARE; LIVE emptied; the two
 * swapped. */
static void collect(ii_groups *g) {
  for (uint32_t s = 0; s < g->n; s++) {
    gslot *sl = &g->slots[s];
    if (!sl->inner || !sl->sets) continue;
    ii_set **sets = hb_arena_zalloc(g->spare, sl->nsets * sizeof *sets);
    for (uint32_t e = 0; e < sl->nsets; e++) {
      if (!sl->sets[e]) continue;
      sets[e] = hb_arena_alloc(g->spare, sizeof **sets);
      ii_set_copy(g->spare, sl->sets[e], sets[e], NULL, NULL);
    }
    sl->sets = sets;
  }
  hb_arena_reset(g->live);
  hb_arena *t = g->live;
  g->live = g->spare;
  g->spare = t;
  size_t used = hb_arena_used(g->live);
  g->gc_at = used > GC_MIN_BYTES / 2 ? 2 * used : GC_MIN_BYTES;
}

/* Roots: the root, or the operands of a root tuple (nested tuples
 * flattened), in the context's long-lived arena (once per computation). */
static void collect_roots(ii_ctx *c, const hlo_instr *r, const hlo_instr ***v, uint32_t *n, uint32_t *cap, int depth) {
  if (r->op == HLO_OP_TUPLE && depth < HLO_MAX_NESTING) {
    for (int k = 0; k < r->n_operands; k++) collect_roots(c, r->operands[k], v, n, cap, depth + 1);
    return;
  }
  if (*n == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 4;
    *v = hb_arena_grow(c->keep, *v, *n, ncap, sizeof **v);
    *cap = ncap;
  }
  (*v)[(*n)++] = r;
}

/* The memo's place for output OUT of X: an array of X's outputs, or for
 * an instruction of many outputs (a tuple of 100,000) chunks of them made
 * as they are reached: the scratch arena is reset once it holds a
 * megabyte, and a whole array of 100,000s of entries each time would make
 * the queries of such an instruction quadratic. */
#define MEMO_CHUNK 256
static ii_indexing **memo_slot(ii_ctx *c, const hlo_instr *x, int64_t out, bool create) {
  int64_t nout = ii_num_outputs(x);
  size_t n = (size_t)(nout > MEMO_CHUNK ? (nout + MEMO_CHUNK - 1) / MEMO_CHUNK : nout ? nout : 1);
  hb_ptrmap_val *v = hb_ptrmap_get(&c->memo_o2i, x);
  void **top;
  if (v) {
    top = (void **)(uintptr_t)v->a;
  } else {
    if (!create) return NULL;
    top = hb_arena_zalloc(c->scratch, n * sizeof *top);
    hb_ptrmap_put_ptr(&c->memo_o2i, x, top);
  }
  if (nout <= MEMO_CHUNK) return (ii_indexing **)&top[out];
  void **chunk = &top[out / MEMO_CHUNK];
  if (!*chunk && !create) return NULL;
  if (!*chunk) *chunk = hb_arena_zalloc(c->scratch, MEMO_CHUNK * sizeof(ii_indexing *));
  return &((ii_indexing **)*chunk)[out % MEMO_CHUNK];
}

const ii_indexing *ii_o2i_memo_peek(ii_ctx *c, const hlo_instr *x, int64_t out) {
  ii_indexing **slot = memo_slot(c, x, out, false);
  return slot ? *slot : NULL;
}

ii_status ii_o2i_memo(ii_ctx *c, const hlo_instr *x, int64_t out, const ii_indexing **res, ii_error *err) {
  /* (a composition's short-lived arena: a memo there would outlive it) */
  ii_indexing **slot = memo_slot(c, x, out, !c->no_memo);
  if (slot && *slot) {
    *res = *slot;
    return II_OK;
  }
  ii_indexing *p = hb_arena_zalloc(c->scratch, sizeof *p);
  ii_status st = ii_o2i_logical(c, x, out, p, err);
  if (st != II_OK) return st;
  if (p->n != (uint32_t)x->n_operands)
    return ii_fail(err, x, "internal error: '%s' has %d operands but %u indexing entries", x->name, x->n_operands,
                   p->n);
  if (slot) *slot = p;
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

/* M copied out to the context's scratch arena, where the maps into the
 * parameters (and instructions outside) stay until the fusion's answer is
 * read: a copy made before for another key when one is equal (map, runtime
 * variables, the why of an unknown one). The operands of a fusion read
 * with the same map (an elementwise fusion of 10,000 parameters) then
 * share one, instead of 10,000 copies. Maps handed out are not changed
 * afterwards (every rule builds new ones). */
static ii_operand *shared_copy(ii_ctx *c, ii_groups *g, const ii_operand *m) {
  uint64_t h = ii_operand_hash(m) | 1; /* (a key, never NULL) */
  hb_ptrmap_val *v = hb_ptrmap_get(&g->shared, (const void *)(uintptr_t)h);
  ii_operand *old = v ? (ii_operand *)(uintptr_t)v->a : NULL;
  if (old && ii_operand_equal(old, m) && (old->why == m->why || (old->why && m->why && !strcmp(old->why, m->why))))
    return old;
  ii_operand *p = ii_operand_copy(c->scratch, m, NULL, NULL);
  if (!old) hb_ptrmap_put_ptr(&g->shared, (const void *)(uintptr_t)h, p); /* (a collision: not shared) */
  return p;
}

/* Composes every member of P (the out2in maps of X's operand into KEY,
 * element ELEM) after every member of CUR into KEY's group. */
static ii_status compose_into(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp, const hlo_instr *x,
                              const ii_set *cur, const ii_set *p, ii_groups *g, const hlo_instr *key, int64_t elem,
                              ii_error *err) {
  ii_set *dst = group_get(c, g, key, elem, true);
  if (!dst) return ii_fail(err, at, "internal error: '%s' in '%s' reached after it was composed", key->name, comp->name);
  hb_arena *results = arena_of(c, g, key), *scratch = c->scratch;
  for (uint32_t a = 0; a < p->n; a++) {
    for (uint32_t b = 0; b < cur->n; b++) {
      /* Duplicates cost as much as new maps: without this bound, many
       * maps through an op with many operands (a map() of 1000 copies
       * of one value) compose for minutes into the same few maps. */
      if (++c->composed > (uint64_t)II_MAX_COMPOSE)
        return too_large(err, at, "composing its indexing maps takes more than " II_STR(II_MAX_COMPOSE)
                                  " map compositions");
      /* the step's intermediate maps go to c->step, dropped once the
       * result is copied out: a fusion of 10,000 instructions otherwise
       * holds every step's (about two thirds of what it allocates) */
      c->scratch = c->step;
      ii_operand *m = ii_operand_compose(c, cur->items[b], p->items[a]);
      ii_status st = ii_operand_simplify(c, m, true, true);
      c->scratch = scratch;
      if (st == II_OK) m = results == c->scratch ? shared_copy(c, g, m) : ii_operand_copy(results, m, NULL, NULL);
      hb_arena_reset_keep(c->step);
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
      c->scratch = results; /* (the set grows where it lives) */
      ii_set_insert(c, dst, m);
      c->scratch = scratch;
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

/* Composes CUR after entries [LO, HI) of P, X's out2in result, into the
 * groups of X's operands (a fused parameter: the argument it stands for). */
static ii_status compose_operands(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp, const hlo_instr *x,
                                  const ii_set *cur, const ii_indexing *p, uint32_t lo, uint32_t hi, ii_groups *g,
                                  const hlo_instr *const *args, int nargs, ii_error *err) {
  ii_status st = II_OK;
  for (uint32_t k = lo; k < hi && st == II_OK; k++) {
    const hlo_instr *op = x->operands[k], *key = op;
    if (!wanted(g, op)) continue;
    if (op->op == HLO_OP_PARAMETER && op->parent == comp) {
      if (op->parameter_number < 0 || op->parameter_number >= nargs) continue;
      key = args[op->parameter_number];
    }
    const ii_set *ps = ii_entry(p, k);
    if (ps->n == 0) continue;
    st = compose_into(c, at, comp, x, cur, ps, g, key, ps->in_elem ? ps->elem : -1, err);
  }
  return st;
}

/* An instruction of this many operands or more whose out2in entries come
 * a part at a time (ii_o2i_part_rule: a concatenate) is composed a part of
 * COMPOSE_PART at a time, each part's entries dropped once composed: a
 * fused concatenate of 10,000 parameters held all its maps (5 MB) beside
 * the composed copies. */
#define COMPOSE_PARTS_FROM 4096
#define COMPOSE_PART 256

static ii_status compose_in_parts(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp, const hlo_instr *x,
                                  int64_t out, const ii_set *cur, ii_groups *g, const hlo_instr *const *args,
                                  int nargs, ii_error *err) {
  hb_arena *part = hb_arena_new(), *scratch = c->scratch;
  uint32_t n = (uint32_t)x->n_operands, from = 0;
  if (g->epoch) { /* (a part's walk: only the operand positions marked) */
    from = g->po->pmin[x->index];
    n = g->po->pmax[x->index] + 1;
  }
  ii_status st = II_OK;
  for (uint32_t lo = from; lo < n && st == II_OK; lo += COMPOSE_PART) {
    uint32_t hi = n - lo > COMPOSE_PART ? lo + COMPOSE_PART : n;
    ii_indexing p;
    c->scratch = part;
    c->no_memo++;
    st = ii_o2i_part_logical(c, x, out, lo, hi, &p, err);
    c->scratch = scratch;
    c->no_memo--;
    if (st == II_OK) st = compose_operands(c, at, comp, x, cur, &p, lo, hi, g, args, nargs, err);
    hb_arena_reset_keep(part);
  }
  hb_arena_free(part);
  return st;
}

/* ii_compose_computation; with EPOCH > 0 only through the instructions
 * marked for it (mark_part). */
static ii_status compose(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp, const hlo_instr *const *args,
                         int nargs, int64_t output_id, bool keep_inner, uint32_t epoch, ii_groups **res,
                         ii_error *err) {
  *res = NULL;
  if (comp->n_params != nargs)
    return ii_fail(err, at, "%s '%s' has %d operands, but '%s' has %d parameters", hlo_instr_opcode_text(at), at->name,
                   nargs, comp->name, comp->n_params);
  if (c->nest >= II_MAX_NESTING)
    return too_large(err, at, "fused or called computations nested more than " II_STR(II_MAX_NESTING) " deep");

  const ii_postorder *po = ii_computation_postorder(c, comp);
  if (po->cyclic)
    return ii_fail(err, po->cycle_at, "'%s' depends on itself (cyclic operands in '%s')", po->cycle_at->name,
                   comp->name);

  /* 1. the target root (an element of a multi-output root: that output) */
  if (!po->roots) {
    uint32_t cap = 0;
    ii_postorder *w = (ii_postorder *)po;
    collect_roots(c, comp->root, &w->roots, &w->nroots, &cap, 0);
  }
  const hlo_instr *const *roots = po->roots, *target;
  uint32_t nroots = po->nroots;
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
                   hlo_instr_opcode_text(at), at->name, (long long)output_id,
                   at->op == HLO_OP_FUSION ? "fused" : "called", nroots, nroots == 1 ? "" : "s");
  }
  ii_groups *g = hb_arena_zalloc(c->scratch, sizeof *g);
  hb_ptrmap_init(&g->index);
  hb_ptrmap_init(&g->shared);
  g->comp = comp;
  g->po = po;
  g->epoch = epoch;
  *res = g;
  if (!wanted(g, target)) return II_OK; /* (a part's walk: the target reaches none of its operands) */

  /* 2. a parameter root */
  if (target->op == HLO_OP_PARAMETER) {
    int64_t pn = target->parameter_number;
    if (pn >= 0 && pn < nargs) ii_set_insert(c, group_get(c, g, args[pn], -1, true), ii_wrap(c, ii_identity(c, tshape)));
    return II_OK;
  }

  /* 3. groups[target] = {identity} */
  if (comp->n_instrs >= GC_MIN_INSTRS && !po->slots_busy) { /* (busy: a composition of it is running, a call cycle) */
    ii_postorder *w = (ii_postorder *)po;
    if (!w->slots) {
      w->slots = hb_calloc((size_t)comp->n_instrs, sizeof *w->slots);
      hb_arena_adopt(c->keep, w->slots);
    }
    w->slots_busy = true;
    g->ndense = (uint32_t)comp->n_instrs;
    g->dense = w->slots;
  }
  if (!keep_inner && po->n >= GC_MIN_INSTRS) {
    g->live = hb_arena_new();
    g->spare = hb_arena_new();
    g->gc_at = GC_MIN_BYTES;
  }
  ii_set_insert(c, group_get(c, g, target, tout, true), ii_wrap(c, ii_identity(c, tshape)));

  /* 4-5. users before operands, from the target, through the instructions
   * reached (each once: a group exists before its last user is done) */
  ii_status st = II_OK;
  c->nest++;
  while (g->nheap && st == II_OK) {
    if (g->live && hb_arena_used(g->live) >= g->gc_at) collect(g);
    const hlo_instr *x = po->order[u32_heap_pop(g->heap, &g->nheap)];
    uint32_t slot1 = slot_of(g, x);
    if (!slot1) continue;
    uint32_t slot = slot1 - 1, nsets = g->slots[slot].nsets; /* composing may move the slots */
    if (!g->slots[slot].sets) continue;
    for (uint32_t e = 0; e < nsets && st == II_OK; e++) {
      const ii_set *cur = g->slots[slot].sets[e];
      if (!cur || cur->n == 0) continue;
      /* the whole of a tuple: no rule says which element of X it reads */
      if (nsets > 1 && e == nsets - 1) continue;
      int64_t out = nsets == 1 ? 0 : (int64_t)e;
      if (x->n_operands >= COMPOSE_PARTS_FROM && ii_o2i_part_rule(c, x)) {
        st = compose_in_parts(c, at, comp, x, out, cur, g, args, nargs, err);
        continue;
      }
      const ii_indexing *p = NULL;
      /* with LIVE, X's out2in result is needed only now: computed there */
      hb_arena *scratch = c->scratch;
      if (g->live) {
        c->scratch = g->live;
        c->no_memo++;
      }
      st = ii_o2i_memo(c, x, out, &p, err);
      if (g->live) {
        c->scratch = scratch;
        c->no_memo--;
      }
      if (st == II_OK) st = compose_operands(c, at, comp, x, cur, p, 0, (uint32_t)x->n_operands, g, args, nargs, err);
    }
    if (g->live) g->slots[slot].sets = NULL; /* composed: dropped at the next collection */
  }
  c->nest--;
  return st;
}

ii_status ii_compose_computation(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp,
                                 const hlo_instr *const *args, int nargs, int64_t output_id, bool keep_inner,
                                 ii_groups **res, ii_error *err) {
  return compose(c, at, comp, args, nargs, output_id, keep_inner, 0, res, err);
}

void ii_groups_free(ii_groups *g) {
  if (!g) return;
  hb_ptrmap_free(&g->index);
  hb_ptrmap_free(&g->shared);
  if (g->dense) { /* zero again, for the next composition of the computation */
    for (uint32_t s = 0; s < g->n; s++) {
      uint32_t *d = dense_slot(g, g->slots[s].key);
      if (d) *d = 0;
    }
    ((ii_postorder *)g->po)->slots_busy = false;
  }
  free(g->slots);
  free(g->heap);
  if (g->live) {
    hb_arena_free(g->live);
    hb_arena_free(g->spare);
  }
}

/* The maps into KEY: its set, or for a tuple-shaped KEY the one element
 * read (several elements: unknown, a set cannot say which map reads which). */
void ii_groups_entry(ii_ctx *c, const ii_groups *g, const hlo_instr *key, ii_set *out) {
  memset(out, 0, sizeof *out);
  uint32_t at = slot_of(g, key);
  if (!at) return;
  const gslot *sl = &g->slots[at - 1];
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

/* The operand positions of a fusion by instruction: a table of (operand,
 * first position) and, per position, the next one with the same operand
 * (fusion(p, p)), built once per instruction (in c->keep). */
typedef struct {
  uint32_t mask;
  const hlo_instr **key;
  int32_t *first, *next;
} arg_index;

static uint32_t arg_slot(const arg_index *x, const hlo_instr *key) {
  uint32_t i = (uint32_t)(((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull >> 32) & x->mask;
  while (x->key[i] && x->key[i] != key) i = (i + 1) & x->mask;
  return i;
}

static const arg_index *args_of(ii_ctx *c, const hlo_instr *in) {
  bool found;
  const arg_index *memo = hb_ptrmap_get_ptr(&c->fusion_args, in, &found);
  if (found) return memo;
  uint32_t n = (uint32_t)in->n_operands, cap = 16;
  while ((uint64_t)cap * 3 < (uint64_t)n * 4 + 4) cap *= 2; /* (load under 3/4, an empty slot always) */
  hb_arena *a = ii_in_module(in) ? c->keep : c->scratch;
  arg_index *x = hb_arena_zalloc(a, sizeof *x);
  x->mask = cap - 1;
  x->key = hb_arena_zalloc(a, cap * sizeof *x->key);
  x->first = hb_arena_array(a, cap, sizeof *x->first);
  x->next = hb_arena_array(a, n + 1, sizeof *x->next);
  for (uint32_t k = n; k-- > 0;) { /* (backwards: each list comes out increasing) */
    uint32_t s = arg_slot(x, in->operands[k]);
    x->next[k] = x->key[s] ? x->first[s] : -1;
    x->key[s] = in->operands[k];
    x->first[s] = (int32_t)k;
  }
  if (a == c->keep) hb_ptrmap_put_ptr(&c->fusion_args, in, x);
  return x;
}

#define FUSION_CACHE_MIN_STEPS 8 /* map compositions */

ii_status ii_fusion_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  const hlo_computation *comp = ii_called(in, HLO_CALL_CALLS);
  if (!comp || !comp->root) return ii_fail(err, in, "fusion '%s' has no calls= computation", in->name);
  /* a top-level fusion whose fused computation has the structure of one
   * analysed before in this module: the same result (fusion_cache.c) */
  bool cacheable = c->fusion_cache && c->nest == 0;
  if (cacheable && ii_fusion_cache_get(c, in, comp, output_id, out)) return II_OK;
  uint64_t composed = c->composed;
  ii_groups *g;
  ii_status st = ii_compose_computation(c, in, comp, (const hlo_instr *const *)in->operands, in->n_operands,
                                        output_id, false, &g, err);
  if (st == II_OK) {
    /* 6. the fusion's entries: those of the operands reached (an output of
     * a fusion of thousands reads few), through each group's operand */
    const arg_index *ai = args_of(c, in);
    uint32_t nids = 0, *ids = hb_arena_array(c->scratch, (size_t)in->n_operands + 1, sizeof *ids);
    for (uint32_t s = 0; s < g->n; s++) {
      uint32_t at = arg_slot(ai, g->slots[s].key);
      if (ai->key[at])
        for (int32_t k = ai->first[at]; k >= 0; k = ai->next[k]) ids[nids++] = (uint32_t)k;
    }
    qsort(ids, nids, sizeof *ids, ii_cmp_u32);
    ii_indexing_init_sparse(c, out, (uint32_t)in->n_operands, nids, ids);
    for (uint32_t i = 0; i < nids; i++) ii_groups_entry(c, g, in->operands[ids[i]], &out->sets[i]);
    /* kept for the module, unless the fusion has many outputs each
     * cheaper composed again than held (10,000 outputs that read an
     * instruction each): fusions repeated in a module, and the in2out
     * blocks of one, find the others' results */
    bool cheap = ii_num_outputs(in) > II_FUSION_CACHE_MANY && c->composed - composed < FUSION_CACHE_MIN_STEPS;
    if (cacheable && !cheap && !c->over && ii_budget_status(c) == II_OK) ii_fusion_cache_put(c, in, comp, output_id, out);
  }
  ii_groups_free(g);
  return st;
}

/* ---- a part of a fusion's operands ------------------------------------------------------------ */

/* The users of each instruction of COMP, with the operand positions, and
 * the part marks (once per computation, in c->keep). */
static ii_postorder *users_of(ii_ctx *c, const hlo_computation *comp, const ii_postorder *cpo) {
  ii_postorder *po = (ii_postorder *)cpo;
  if (po->ustart) return po;
  uint32_t n = (uint32_t)comp->n_instrs;
  uint32_t *start = hb_arena_zalloc(c->keep, ((size_t)n + 2) * sizeof *start);
  for (uint32_t i = 0; i < n; i++) {
    const hlo_instr *x = comp->instrs[i];
    for (int k = 0; k < x->n_operands; k++) {
      const hlo_instr *op = x->operands[k];
      if (op->parent == comp && op->index >= 0 && (uint32_t)op->index < n) start[op->index + 2]++;
    }
  }
  for (uint32_t i = 0; i < n; i++) start[i + 2] += start[i + 1];
  size_t nedges = start[n + 1];
  po->users = hb_arena_array(c->keep, nedges + 1, sizeof *po->users);
  po->upos = hb_arena_array(c->keep, nedges + 1, sizeof *po->upos);
  for (uint32_t i = 0; i < n; i++) { /* (start[op + 1] fills, then is op's start) */
    const hlo_instr *x = comp->instrs[i];
    for (int k = 0; k < x->n_operands; k++) {
      const hlo_instr *op = x->operands[k];
      if (op->parent != comp || op->index < 0 || (uint32_t)op->index >= n) continue;
      uint32_t at = start[op->index + 1]++;
      po->users[at] = i;
      po->upos[at] = (uint32_t)k;
    }
  }
  po->mark = hb_arena_zalloc(c->keep, (n ? n : 1) * sizeof *po->mark);
  po->pmin = hb_arena_array(c->keep, n ? n : 1, sizeof *po->pmin);
  po->pmax = hb_arena_array(c->keep, n ? n : 1, sizeof *po->pmax);
  po->ustart = start;
  return po;
}

/* Work a part's walk may take per operand of the part, and once: beyond
 * it the operands share too much of the computation (a sum of them all)
 * and the whole composition is cheaper than one per part. */
#define PART_WORK_PER_OPERAND 8
#define PART_WORK_BASE 256

/* Marks the instructions of COMP that reach the parameters bound to IN's
 * operands [LO, HI) (and to any other position with the same operand:
 * their maps are one set), each with the range of its operand positions
 * that do; the epoch of the marks, or 0 when the walk would cost more than
 * the part's budget. */
static void push(uint32_t **stack, uint32_t *sp, uint32_t *cap, uint32_t v) {
  if (*sp == *cap) *stack = hb_realloc(*stack, (*cap = *cap ? 2 * *cap : 64) * sizeof **stack);
  (*stack)[(*sp)++] = v;
}

static uint32_t mark_part(ii_ctx *c, const hlo_computation *comp, ii_postorder *po, const hlo_instr *in,
                          const arg_index *ai, uint32_t lo, uint32_t hi) {
  if (++po->epoch == 0) { /* (wrapped: every mark is stale) */
    memset(po->mark, 0, (size_t)comp->n_instrs * sizeof *po->mark);
    po->epoch = 1;
  }
  uint32_t e = po->epoch, n = (uint32_t)comp->n_instrs;
  uint64_t work = 0, budget = (uint64_t)(hi - lo) * PART_WORK_PER_OPERAND + PART_WORK_BASE;
  uint32_t *stack = NULL, sp = 0, cap = 0;
  bool ok = true;
  for (uint32_t k = lo; k < hi && ok; k++) {
    uint32_t at = arg_slot(ai, in->operands[k]);
    for (int32_t q = ai->first[at]; q >= 0 && ok; q = ai->next[q]) {
      const hlo_instr *p = q < comp->n_params ? comp->params[q] : NULL;
      ok = ++work <= budget;
      if (!p) continue; /* (no such parameter: the entry is empty, whole or in parts) */
      /* (a parameter the walk cannot start from: whole) */
      ok = ok && p->parent == comp && p->index >= 0 && (uint32_t)p->index < n && comp->instrs[p->index] == p;
      if (!ok || po->mark[p->index] == e) continue;
      po->mark[p->index] = e;
      push(&stack, &sp, &cap, (uint32_t)p->index);
    }
  }
  while (sp && ok) {
    uint32_t v = stack[--sp];
    for (uint32_t u = po->ustart[v]; u < po->ustart[v + 1] && ok; u++) {
      uint32_t x = po->users[u], pos = po->upos[u];
      ok = ++work <= budget;
      if (po->mark[x] == e) {
        if (pos < po->pmin[x]) po->pmin[x] = pos;
        if (pos > po->pmax[x]) po->pmax[x] = pos;
        continue;
      }
      po->mark[x] = e;
      po->pmin[x] = po->pmax[x] = pos;
      /* what composing X costs the part: its operands scanned, and its
       * whole out2in result unless it comes a part at a time */
      const hlo_instr *xi = comp->instrs[x];
      if (xi->n_operands < COMPOSE_PARTS_FROM || !ii_o2i_part_rule(c, xi)) work += (uint64_t)xi->n_operands;
      push(&stack, &sp, &cap, x);
    }
  }
  free(stack);
  return ok ? e : 0;
}

/* c->fusion_parts's bits */
enum { PARTS_KNOWN = 1, PARTS = 2, READS_KNOWN = 4, READS_ALL = 8 };

bool ii_fusion_in_parts(ii_ctx *c, const hlo_instr *in) {
  uint32_t n = (uint32_t)in->n_operands;
  /* (an instruction made up, not the module's: whole, its answer is not memoised) */
  if (n < II_PARTS_FROM || ii_num_outputs(in) > II_PARTS_OUTPUTS || !ii_in_module(in)) return false;
  hb_ptrmap_val *v = hb_ptrmap_get(&c->fusion_parts, in);
  if (v) return v->a & PARTS;
  /* every part's walk within its budget: at most a few instructions per
   * operand in all (this check included), or stopped at the first part
   * beyond */
  const hlo_computation *comp = ii_called(in, HLO_CALL_CALLS);
  bool ok = comp && comp->root && comp->n_params == in->n_operands;
  const ii_postorder *cpo = ok ? ii_computation_postorder(c, comp) : NULL;
  ok = ok && !cpo->cyclic;
  if (ok) {
    ii_postorder *po = users_of(c, comp, cpo);
    const arg_index *ai = args_of(c, in);
    for (uint32_t lo = 0; lo < n && ok; lo += II_PART)
      ok = mark_part(c, comp, po, in, ai, lo, n - lo > II_PART ? lo + II_PART : n) != 0;
  }
  hb_ptrmap_put(&c->fusion_parts, in, (hb_ptrmap_val){PARTS_KNOWN | (ok ? PARTS : 0), 0});
  return ok;
}

bool ii_fusion_reads_all(ii_ctx *c, const hlo_instr *in) {
  if (!ii_fusion_in_parts(c, in)) return false;
  hb_ptrmap_val *v = hb_ptrmap_get(&c->fusion_parts, in);
  if (v->a & READS_KNOWN) return v->a & READS_ALL;
  /* every part of every output composed, each in an expression scope and
   * an arena of its own, memoising nothing (it keeps only the answer) */
  uint32_t n = (uint32_t)in->n_operands, nout = (uint32_t)ii_num_outputs(in);
  hb_arena *part = hb_arena_new(), *scratch = c->scratch;
  uint64_t composed = c->composed;
  bool all = true;
  for (uint32_t out = 0; out < nout && all; out++) {
    for (uint32_t lo = 0; lo < n && all; lo += II_PART) {
      uint32_t hi = n - lo > II_PART ? lo + II_PART : n;
      ae_ctx_scope_begin(c->ae);
      c->scratch = part;
      c->no_memo++;
      c->composed = 0;
      ii_indexing x;
      ii_error err;
      bool parted;
      /* (every entry of the part stored: every operand read) */
      all = ii_fusion_o2i_range(c, in, out, lo, hi, &x, &parted, &err) == II_OK && parted &&
            ii_nstored(&x) == hi - lo;
      c->no_memo--;
      c->scratch = scratch;
      ae_ctx_scope_end(c->ae);
      hb_arena_reset_keep(part);
    }
  }
  hb_arena_free(part);
  c->composed = composed;
  all = all && !c->over && ae_ctx_status(c->ae) == AE_STATUS_OK;
  v = hb_ptrmap_get(&c->fusion_parts, in); /* (the map may have grown meanwhile) */
  v->a |= READS_KNOWN | (all ? READS_ALL : 0);
  return all;
}

ii_status ii_fusion_o2i_range(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t lo, uint32_t hi,
                              ii_indexing *out, bool *parted, ii_error *err) {
  memset(out, 0, sizeof *out);
  *parted = false;
  uint32_t n = (uint32_t)in->n_operands;
  if (lo % II_PART || hi != (n - lo > II_PART ? lo + II_PART : n) || !ii_fusion_in_parts(c, in)) return II_OK;
  const hlo_computation *comp = ii_called(in, HLO_CALL_CALLS);
  ii_postorder *po = (ii_postorder *)ii_computation_postorder(c, comp);
  uint32_t epoch = mark_part(c, comp, po, in, args_of(c, in), lo, hi);
  if (!epoch) return II_OK; /* (the walk ii_fusion_in_parts took already: within its budget) */
  *parted = true;
  ii_groups *g;
  ii_status st = compose(c, in, comp, (const hlo_instr *const *)in->operands, in->n_operands, output_id, false, epoch,
                         &g, err);
  if (st == II_OK) { /* (as ii_fusion_o2i's: the operands reached) */
    uint32_t nids = 0, *ids = hb_arena_array(c->scratch, hi - lo, sizeof *ids);
    for (uint32_t k = lo; k < hi; k++)
      if (slot_of(g, in->operands[k])) ids[nids++] = k;
    ii_indexing_init_sparse(c, out, (uint32_t)in->n_operands, nids, ids);
    for (uint32_t i = 0; i < nids; i++) ii_groups_entry(c, g, in->operands[ids[i]], &out->sets[i]);
  }
  ii_groups_free(g);
  return st;
}

const hlo_instr *ii_computation_instr(ii_ctx *c, const hlo_computation *comp) {
  hlo_instr *in = hb_arena_zalloc(c->keep, sizeof *in);
  hlo_instr_cold *cold = hb_arena_dup(c->keep, &hlo_instr_cold_none, sizeof *cold);
  hlo_computation **called = hb_arena_alloc(c->keep, sizeof *called);
  hlo_call_role *role = hb_arena_alloc(c->keep, sizeof *role);
  *called = (hlo_computation *)comp;
  *role = HLO_CALL_CALLS;
  cold->opcode_text = "computation";
  cold->called = called;
  cold->called_role = role;
  cold->n_called = 1;
  cold->fusion_kind = HLO_FUSION_LOOP;
  in->name = comp->name;
  in->op = HLO_OP_FUSION;
  in->shape = comp->root ? comp->root->shape : comp->signature_result;
  in->operands = comp->params;
  in->n_operands = comp->n_params;
  in->cold = cold;
  in->parent = (hlo_computation *)comp;
  in->offset = (uint32_t)comp->offset;
  in->parameter_number = -1;
  in->index = -1;
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
                                        output_id, true, &g, err);
  if (st == II_OK) {
    size_t total = 0;
    for (uint32_t i = 0; i < g->n; i++) total += g->slots[i].nsets;
    out->groups = hb_arena_array(c->scratch, total + 1, sizeof *out->groups);
    for (int i = 0; i < comp->n_instrs; i++) {
      uint32_t at = slot_of(g, comp->instrs[i]);
      if (!at) continue;
      const gslot *sl = &g->slots[at - 1];
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
