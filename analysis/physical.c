/* Physical-layout mode (indexing-semantics.md §4): the logical result is
 * post-processed with the minor_to_major permutations of the shapes
 * involved, composed as operand indexings (runtime variables carried). No
 * simplification afterwards, so constraints produced by the composition
 * stay visible (§6.7). Tiles, element sizes and memory spaces are ignored. */
#include "ii_internal.h"

/* LP(shape): logical dims -> physical coordinates (d_{M[0]}, d_{M[1]}, ...)
 * with M = reverse(minor_to_major). NULL for scalars and non-arrays (the
 * empty map, skipped). */
static imap *logical_to_physical(ii_ctx *c, const hlo_shape *s) {
  if (!ii_is_array(s) || s->rank == 0 || !s->layout.minor_to_major) return NULL;
  uint32_t r = (uint32_t)s->rank;
  uint32_t *perm = hb_arena_array(c->scratch, r, sizeof *perm);
  for (uint32_t k = 0; k < r; k++) perm[k] = (uint32_t)s->layout.minor_to_major[r - 1 - k];
  return imap_permutation(c->scratch, c->ae, r, s->dims, perm);
}

/* PL(shape): physical dims (D[M[0]], ...) -> logical coordinates, the
 * permutation inverse(M). */
static imap *physical_to_logical(ii_ctx *c, const hlo_shape *s) {
  if (!ii_is_array(s) || s->rank == 0 || !s->layout.minor_to_major) return NULL;
  uint32_t r = (uint32_t)s->rank;
  uint32_t *inv = hb_arena_array(c->scratch, r, sizeof *inv);
  int64_t *pdims = hb_arena_array(c->scratch, r, sizeof *pdims);
  for (uint32_t k = 0; k < r; k++) {
    uint32_t d = (uint32_t)s->layout.minor_to_major[r - 1 - k]; /* M[k] */
    pdims[k] = s->dims[d];
    inv[d] = k;
  }
  return imap_permutation(c->scratch, c->ae, r, pdims, inv);
}

/* Replaces every member X of s by before ∘ X ∘ after (each step skipped
 * when its map is absent or the identity). */
static void rewrite_set(ii_ctx *c, ii_set *s, imap *before, imap *after) {
  bool pre = before && !imap_is_identity(before), post = after && !imap_is_identity(after);
  if (!pre && !post) return;
  ii_set res = {0};
  res.in_elem = s->in_elem;
  res.elem = s->elem;
  for (uint32_t i = 0; i < s->n; i++) {
    ii_operand *x = s->items[i];
    if (pre) x = ii_operand_compose(c, ii_wrap(c, before), x);
    if (post) x = ii_operand_compose(c, x, ii_wrap(c, after));
    ii_set_insert(c, &res, x);
  }
  *s = res;
}

/* The operand side of set K: in hloidx's semantics the tuple element the
 * maps index, if any (XLA composes nothing for a tuple-shaped operand). */
static const hlo_shape *operand_side(ii_ctx *c, const hlo_instr *in, int64_t k, const ii_set *s) {
  return c->xla_compat ? in->operands[k]->shape : ii_set_operand_shape(in, k, s);
}

ii_status ii_physical_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *x, ii_error *err) {
  (void)err;
  imap *out = physical_to_logical(c, ii_output_shape(in, output_id));
  for (uint32_t k = 0; k < x->n && k < (uint32_t)in->n_operands; k++)
    rewrite_set(c, &x->sets[k], out, logical_to_physical(c, operand_side(c, in, k, &x->sets[k])));
  return ii_budget_status(c);
}

ii_status ii_physical_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *x, ii_error *err) {
  (void)err;
  for (uint32_t k = 0; k < x->n; k++) {
    imap *inp = physical_to_logical(c, operand_side(c, in, input_id, &x->sets[k]));
    rewrite_set(c, &x->sets[k], inp, logical_to_physical(c, ii_output_shape(in, k)));
  }
  return ii_budget_status(c);
}
