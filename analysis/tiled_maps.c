/* The tiled layout as indexing maps: logical -> tiled coordinates,
 * logical -> linear offset, tiled -> logical (padding excluded), and the
 * composition used by --physical=tiled (see tiled_layout.h). */
#include "tiled_layout.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "simplify.h"

/* Expression-node budget of one simplification (as hloidx --map). */
#define TL_NODE_BUDGET ((size_t)4 << 20)

__attribute__((format(printf, 3, 4))) static void *fail(tl_error *err, tl_status st, const char *fmt, ...) {
  err->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return NULL;
}

static interval *size_ivs(hb_arena *a, int n, const int64_t *sizes) {
  interval *iv = hb_arena_array(a, (size_t)n + 1, sizeof *iv);
  for (int i = 0; i < n; i++) iv[i] = iv_make(0, sizes[i] - 1);
  return iv;
}

/* Expression nodes of a map's text (as an analysis result's): a few levels
 * of tiles whose sizes share no factor make the text of a 16-element
 * array's map gigabytes. */
#define TL_TEXT_NODES ((uint64_t)1 << 20)

/* imap_simplify (replace-points mode) under a node budget; the result's
 * text within TL_TEXT_NODES. */
static imap *simplified(imap *m, tl_error *err) {
  if (imap_simplify_budgeted(m, SIMPLIFY_REPLACE_POINTS, TL_NODE_BUDGET) != SIMPLIFY_OK)
    return fail(err, TL_TOO_LARGE, "analysis too large for the layout map: simplifying it exceeds the budget of %zu expression nodes",
                TL_NODE_BUDGET);
  if (imap_text_nodes(m) > TL_TEXT_NODES)
    return fail(err, TL_TOO_LARGE,
                "analysis too large for the layout map: it would have more than %" PRIu64 " expression nodes as text",
                TL_TEXT_NODES);
  return m;
}

/* The tiled coordinates as expressions of the logical dims (not simplified).
 * The caller guarantees a non-empty array (no zero-sized dims). */
static const ae **forward_coords(hb_arena *a, ae_ctx *ctx, const tl_layout *l) {
  const ae **cur = hb_arena_array(a, (size_t)l->rank + 1, sizeof *cur);
  for (int k = 0; k < l->rank; k++) cur[k] = ae_dim(ctx, (uint32_t)l->phys_order[k]);
  for (int v = 0; v < l->nlevels; v++) {
    const tl_level *lv = &l->levels[v];
    const ae **in = hb_arena_array(a, (size_t)lv->nin + 1, sizeof *in);
    for (int i = 0; i < lv->nimplicit; i++) in[i] = ae_const(ctx, 0);
    for (int i = lv->nimplicit; i < lv->nin; i++) in[i] = cur[i - lv->nimplicit];
    const ae **out = hb_arena_array(a, (size_t)lv->nout + 1, sizeof *out);
    for (int i = 0; i < lv->nlead; i++) out[i] = in[i];
    for (int g = 0; g < lv->ntiled; g++) {
      const ae *e = in[lv->group_first[g]];
      for (int j = lv->group_first[g] + 1; j <= lv->group_last[g]; j++)
        e = ae_add(ctx, ae_mul_const(ctx, e, lv->in[j]), in[j]);
      out[lv->nlead + g] = ae_floordiv_const(ctx, e, lv->tile[g]);
      out[lv->nlead + lv->ntiled + g] = ae_mod_const(ctx, e, lv->tile[g]);
    }
    cur = out;
  }
  return cur;
}

static bool empty_array(const tl_layout *l) { return l->tiled_elems == 0 || l->logical_elems == 0; }

static const ae **zeros(hb_arena *a, ae_ctx *ctx, int n) {
  const ae **r = hb_arena_array(a, (size_t)n + 1, sizeof *r);
  for (int i = 0; i < n; i++) r[i] = ae_const(ctx, 0);
  return r;
}

imap *tl_logical_to_tiled(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err) {
  const ae **res = empty_array(l) ? zeros(a, ctx, l->ntiled) : forward_coords(a, ctx, l);
  imap *m = imap_new(a, ctx, (uint32_t)l->rank, 0, 0, size_ivs(a, l->rank, l->dims), NULL, (uint32_t)l->ntiled,
                     res);
  return simplified(m, err);
}

imap *tl_logical_to_offset(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err) {
  const ae *off = ae_const(ctx, 0);
  if (!empty_array(l)) {
    const ae **coords = forward_coords(a, ctx, l);
    for (int k = 0; k < l->ntiled; k++) off = ae_add(ctx, off, ae_mul_const(ctx, coords[k], l->strides[k]));
  }
  imap *m = imap_new(a, ctx, (uint32_t)l->rank, 0, 0, size_ivs(a, l->rank, l->dims), NULL, 1, &off);
  return simplified(m, err);
}

typedef struct {
  const ae *e;
  interval iv;
} pending;

imap *tl_tiled_to_logical(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err) {
  const ae **res = zeros(a, ctx, l->rank);
  size_t cap = 1, n = 0;
  for (int v = 0; v < l->nlevels; v++) cap += (size_t)l->levels[v].nin * 2;
  pending *cons = hb_arena_array(a, cap, sizeof *cons);
  if (!empty_array(l)) {
    const ae **cur = hb_arena_array(a, (size_t)l->ntiled + 1, sizeof *cur);
    for (int k = 0; k < l->ntiled; k++) cur[k] = ae_dim(ctx, (uint32_t)k);
    for (int v = l->nlevels - 1; v >= 0; v--) {
      const tl_level *lv = &l->levels[v];
      const ae **in = hb_arena_array(a, (size_t)lv->nin + 1, sizeof *in);
      for (int i = 0; i < lv->nlead; i++) in[i] = cur[i];
      for (int g = 0; g < lv->ntiled; g++) {
        const ae *e = ae_add(ctx, ae_mul_const(ctx, cur[lv->nlead + g], lv->tile[g]), cur[lv->nlead + lv->ntiled + g]);
        cons[n++] = (pending){e, iv_make(0, lv->group_size[g] - 1)};
        for (int j = lv->group_last[g]; j > lv->group_first[g]; j--) {
          in[j] = ae_mod_const(ctx, e, lv->in[j]);
          e = ae_floordiv_const(ctx, e, lv->in[j]);
        }
        in[lv->group_first[g]] = e;
        if (lv->group_last[g] > lv->group_first[g])
          cons[n++] = (pending){e, iv_make(0, lv->in[lv->group_first[g]] - 1)};
      }
      for (int i = 0; i < lv->nimplicit; i++) cons[n++] = (pending){in[i], iv_point(0)};
      cur = in + lv->nimplicit;
    }
    for (int k = 0; k < l->rank; k++) res[l->phys_order[k]] = cur[k];
  }
  imap *m = imap_new(a, ctx, (uint32_t)l->ntiled, 0, 0, size_ivs(a, l->ntiled, l->tiled), NULL, (uint32_t)l->rank,
                     res);
  for (size_t i = 0; i < n; i++) imap_add_constraint(m, cons[i].e, cons[i].iv);
  return simplified(m, err);
}

imap *tl_compose_tiled(hb_arena *a, const tl_layout *from, const imap *logical, const tl_layout *to, tl_error *err) {
  ae_ctx *ctx = logical->ctx;
  if (logical->undefined) return imap_new_undefined(a, ctx);
  if (logical->ndims != (uint32_t)from->rank || logical->nresults != (uint32_t)to->rank)
    return fail(err, TL_BAD_LAYOUT, "the logical map goes from rank %" PRIu32 " to rank %" PRIu32
                ", the shapes have ranks %d and %d", logical->ndims, logical->nresults, from->rank, to->rank);
  imap *in = tl_tiled_to_logical(a, ctx, from, err);
  if (!in) return NULL;
  imap *out = tl_logical_to_tiled(a, ctx, to, err);
  if (!out) return NULL;
  imap *m = imap_compose(a, imap_compose(a, in, logical), out);
  return simplified(m, err);
}
