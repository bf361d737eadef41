/* --physical=tiled: the logical indexing composed with the tiled layouts of
 * the shapes on both sides (tiled_layout.h, tl_compose_tiled). XLA has no
 * such mode; the choices below are hloidx's.
 *
 * Each member X of a set, a map from the logical index of FROM (the output
 * for out2in, the operand for in2out) to the logical index of TO (the
 * operand, resp. the output), becomes
 *
 *     tiled->logical(FROM) ∘ X ∘ logical->tiled(TO),  simplified,
 *
 * so its dimensions are FROM's tiled coordinates (padding excluded by the
 * domain) and its results TO's tiled coordinates.
 *
 * Runtime variables. A runtime value is a value, not a location: the
 * description maps keep their results (an element of the index operand, in
 * its logical coordinates) and only get FROM's side, tiled->logical(FROM)
 * ∘ map, composed and not simplified (as XLA leaves them). The replica-id
 * map of an all-gather is treated the same way. Neither composition adds,
 * drops or reorders symbols, so description j still belongs to rt<j>.
 *
 * Sides that stay logical: a side whose shape has no tiled layout (a
 * tuple, token or opaque value) or whose rank is not the map's (XLA's
 * in2out map of an elementwise op with a scalar operand has the output's
 * dimensions, §3.1). The out2in map of get-tuple-element indexes tuple
 * element `index` of its operand, and the in2out map of tuple input k
 * indexes output element k; those element shapes are used. */
#include <stdio.h>

#include "ii_internal.h"
#include "tiled_layout.h"

/* The analysed layout of S, or NULL when S stays logical. *fail is set on
 * an error of an array's layout (unbounded dims, bad tiles, overflow). */
static const tl_layout *layout_of(ii_ctx *c, const hlo_shape *s, uint32_t rank, tl_error *terr, bool *fail) {
  if (!s || !ii_is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE) return NULL;
  if ((uint32_t)s->rank != rank) return NULL;
  tl_layout *l = hb_arena_zalloc(c->scratch, sizeof *l);
  if (!tl_analyze(c->scratch, s, l, terr)) {
    *fail = true;
    return NULL;
  }
  return l;
}

static ii_status tl_fail(ii_error *err, const hlo_instr *in, const hlo_shape *s, const tl_error *terr) {
  char shape[160];
  hlo_shape_format(s, shape, sizeof shape);
  ii_status st = terr->status == TL_TOO_LARGE ? II_TOO_LARGE : II_ERROR;
  if (err) {
    err->instr = in;
    snprintf(err->message, sizeof err->message, "--physical=tiled: the layout of %.100s (at '%.60s'): %.100s", shape, in->name,
             terr->message);
  }
  return st;
}

/* One member: the map with both sides tiled, descriptions with FROM's side. */
static ii_status rewrite(ii_ctx *c, ii_operand *x, const tl_layout *from, const hlo_shape *from_shape,
                         const tl_layout *to, const hlo_shape *to_shape, const hlo_instr *in, ii_error *err) {
  imap *m = x->map;
  if (m->undefined || (!from && !to)) return II_OK;
  tl_error terr = {0};
  imap *res;
  imap *pre = NULL;
  if (from) {
    pre = tl_tiled_to_logical(c->scratch, c->ae, from, &terr);
    if (!pre) return tl_fail(err, in, from_shape, &terr);
  }
  if (from && to) {
    res = tl_compose_tiled(c->scratch, from, m, to, &terr);
    if (!res) return tl_fail(err, in, terr.status == TL_TOO_LARGE ? to_shape : from_shape, &terr);
  } else {
    /* One side only: compose that side's map and simplify, as tl_compose_tiled does. */
    imap *post = NULL;
    if (to) {
      post = tl_logical_to_tiled(c->scratch, c->ae, to, &terr);
      if (!post) return tl_fail(err, in, to_shape, &terr);
    }
    res = pre ? imap_compose(c->scratch, pre, m) : imap_compose(c->scratch, m, post);
    if (ii_simplify_map(c, res, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  }
  if (res->nrange != m->nrange || res->nrt != m->nrt)
    return ii_fail(err, in, "internal error: the tiled composition changed the symbols of a map of '%s'", in->name);
  ii_operand *y = hb_arena_zalloc(c->scratch, sizeof *y);
  *y = *x;
  y->map = res;
  if (pre && x->nrt) {
    y->rt = hb_arena_array(c->scratch, x->nrt, sizeof *y->rt);
    for (uint32_t j = 0; j < x->nrt; j++) {
      y->rt[j] = x->rt[j];
      y->rt[j].map = imap_compose(c->scratch, pre, x->rt[j].map);
    }
  }
  if (pre && x->replica) y->replica = imap_compose(c->scratch, pre, x->replica);
  *x = *y;
  return ii_budget_status(c);
}

static ii_status rewrite_set(ii_ctx *c, ii_set *s, const hlo_shape *from_shape, const hlo_shape *to_shape,
                             const hlo_instr *in, ii_error *err) {
  ii_set res = {0};
  res.in_elem = s->in_elem;
  res.elem = s->elem;
  for (uint32_t i = 0; i < s->n; i++) {
    ii_operand *x = s->items[i];
    if (!x->map->undefined) {
      tl_error terr = {0};
      bool fail = false;
      const tl_layout *from = layout_of(c, from_shape, x->map->ndims, &terr, &fail);
      if (fail) return tl_fail(err, in, from_shape, &terr);
      const tl_layout *to = layout_of(c, to_shape, x->map->nresults, &terr, &fail);
      if (fail) return tl_fail(err, in, to_shape, &terr);
      ii_operand *y = hb_arena_zalloc(c->scratch, sizeof *y);
      *y = *x;
      ii_status st = rewrite(c, y, from, from_shape, to, to_shape, in, err);
      if (st != II_OK) return st;
      x = y;
    }
    ii_set_insert(c, &res, x);
  }
  *s = res;
  return II_OK;
}

ii_status ii_tiled_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *x, ii_error *err) {
  const hlo_shape *from = ii_output_shape(in, output_id);
  for (uint32_t k = 0; k < x->n && k < (uint32_t)in->n_operands; k++) {
    ii_status st = rewrite_set(c, &x->sets[k], from, ii_set_operand_shape(in, k, &x->sets[k]), in, err);
    if (st != II_OK) return st;
  }
  return ii_budget_status(c);
}

ii_status ii_tiled_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *x, ii_error *err) {
  for (uint32_t k = 0; k < x->n; k++) {
    const hlo_shape *from = ii_set_operand_shape(in, input_id, &x->sets[k]);
    /* XLA's in2out of a tuple has one entry, for element input_id */
    const hlo_shape *to = ii_output_shape(in, in->op == HLO_OP_TUPLE && c->xla_compat ? input_id : (int64_t)k);
    ii_status st = rewrite_set(c, &x->sets[k], from, to, in, err);
    if (st != II_OK) return st;
  }
  return ii_budget_status(c);
}
