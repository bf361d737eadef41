/* Instructions whose attributes are written alike share one cold record
 * (hlo_instr_cold with its attribute list, dimensions, called computations
 * and hlo_instr_ext). A module of 100,000 transposes, broadcasts, reduces
 * and slices otherwise holds 100,000 records of a few distinct values:
 * about half of its IR.
 *
 * What pc_attrs_apply builds follows from the opcode, the attributes' text
 * and the computations they name; an instruction whose three are those of
 * one met before in the module takes that one's record, and what its own
 * apply allocated is given back to the arena (hb_arena_rollback). Not
 * shared: a record written after its instruction's line (control
 * predecessors, a computation named before it is defined, the thread of an
 * async op), one made before the attributes (a constant's literal, an
 * opcode written otherwise than its name), unknown attributes, and
 * metadata (different on almost every instruction: hashing it would buy
 * nothing); pc_attrs_may_share (hlo_attrs.c) says which. */
#include <string.h>

#include "intern.h"
#include "parse_ctx.h"

/* Records remembered per module: a line of its own (`call`s of 30,000
 * computations, fusions) would otherwise cost a table slot each, about
 * 30 bytes, for nothing; the records lines share are met early. */
#define COLD_SHARED_MAX 4096

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

static uint64_t hash_of(const hlo_instr *in) {
  const hlo_instr_cold *c = in->cold;
  uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)in->op);
  for (int i = 0; i < c->n_attrs; i++)
    h = mix(mix(h, (uint64_t)(uintptr_t)c->attrs[i].name), hlo_hash_inline(c->attrs[i].value, c->attrs[i].value_len));
  for (int i = 0; i < c->n_called; i++) h = mix(h, (uint64_t)(uintptr_t)c->called[i]);
  return h | 1; /* (a ptrmap key: never NULL) */
}

static bool same(const hlo_instr_cold *x, const hlo_instr_cold *y) {
  if (x->n_attrs != y->n_attrs || x->n_called != y->n_called) return false;
  for (int i = 0; i < x->n_attrs; i++) {
    const hlo_attr *a = &x->attrs[i], *b = &y->attrs[i];
    if (a->name != b->name || a->value_len != b->value_len || memcmp(a->value, b->value, a->value_len) != 0) return false;
  }
  for (int i = 0; i < x->n_called; i++)
    if (x->called[i] != y->called[i]) return false;
  return true;
}

void pc_cold_share(parse_ctx *P, hlo_instr *in, pc_cold_mark m) {
  const hlo_instr_cold *c = in->cold;
  for (int i = 0; i < c->n_called; i++)
    if (!c->called[i]) return; /* (the module's end writes it: its own) */
  uint64_t h = hash_of(in);
  hb_ptrmap_val *v = hb_ptrmap_get(&P->cold_shared, (const void *)(uintptr_t)h);
  if (!v) {
    if (P->cold_shared.len < COLD_SHARED_MAX)
      hb_ptrmap_put(&P->cold_shared, (const void *)(uintptr_t)h, (hb_ptrmap_val){(int64_t)(uintptr_t)c, in->op});
    return;
  }
  const hlo_instr_cold *old = (const hlo_instr_cold *)(uintptr_t)v->a;
  if (v->b != in->op || !same(old, c)) return; /* (a collision: its own) */
  in->cold = old;
  /* what apply made is no one's now, unless a warning or a name went
   * into the arena with it */
  if (P->warnings.n == m.warnings && hlo_intern_count(P->in) == m.names) hb_arena_rollback(P->a, m.arena);
}
