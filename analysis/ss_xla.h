/* Between XLA's tiled layouts (tiled_layout.h) and shape:stride layouts
 * (ss_layout.h).
 *
 *   ss_from_xla     an XLA array layout as a shape:stride layout: the
 *                   per-dimension modes of tl_shape_stride_form (in-tile
 *                   modes before tile-count modes); its top-level mode i is
 *                   logical dimension i, padded up to whole tiles
 *   ss_xla_offset   the offset XLA's layout gives a logical index
 *   ss_to_xla       an XLA layout (minor_to_major and tiles) over the dims
 *                   size(mode i) that gives the same offset to every
 *                   coordinate, found by a search: minor_to_major orders,
 *                   then one tiling level, then two, tile entries drawn
 *                   from products of the modes' sizes (and the gaps between
 *                   strides, for padded tiles; a tile one entry longer than
 *                   the rank pads the whole tile), each candidate checked
 *                   exactly; or why there is none (two coordinates share an
 *                   offset), or that the search found none
 *   ss_compare_xla  does a shape:stride layout give every logical element of
 *                   an XLA layout the offset XLA gives it? A witness element
 *                   when not.
 * Nothing prints or exits. */
#ifndef HLOIDX_SS_XLA_H
#define HLOIDX_SS_XLA_H

#include "../parser/hlo_ir.h"
#include "ss_layout.h"
#include "tiled_layout.h"

/* NULL with *err when the layout has no shape:stride form (the reason) or
 * an error. A rank-0 layout is 1:0. */
const ss_layout *ss_from_xla(hb_arena *a, ae_ctx *ctx, const tl_layout *l, ss_error *err);

/* Offset of logical index x (rank values inside the dims). */
int64_t ss_xla_offset(const tl_layout *l, const int64_t *x);

typedef struct {
  bool found;
  char why[300];             /* not found: `none: WHY` when there is none, `not found: ...` when the search missed */
  int rank;
  const int64_t *dims;       /* rank */
  const int64_t *minor_to_major;
  int ntiles;
  const hlo_tile *tiles;
  uint64_t candidates;       /* layouts tried */
} ss_xla_layout;
void ss_to_xla(hb_arena *a, const ss_layout *l, ss_xla_layout *out);
/* `{0,1:T(4,4)(4,1)}` */
void ss_xla_layout_print(hb_strbuf *b, const ss_xla_layout *x);

typedef struct {
  bool equal;
  bool decided;      /* false: too large to compare (why) */
  char why[200];     /* not equal / not decided: the reason */
  int rank;
  int64_t *witness;  /* not equal with an element: its logical index (NULL otherwise) */
  int64_t kernel_offset, xla_offset;
} ss_comparison;
void ss_compare_xla(hb_arena *a, ae_ctx *ctx, const ss_layout *kernel, const tl_layout *xla, ss_comparison *out);

#endif
