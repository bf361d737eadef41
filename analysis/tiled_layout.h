/* Tiled physical layouts of array shapes (hlo-text-format.md §4.3): the
 * tiled physical shape, buffer sizes, and the layout as indexing maps.
 *
 * XLA's own indexing analysis (indexing-semantics.md §4) only uses
 * minor_to_major; this module also models the tiles.
 *
 * The model. The physical dimensions start as the logical ones ordered
 * major-to-minor (minor_to_major reversed). Each tiling level T(t_1,...,t_k)
 * then rewrites the current shape:
 *   1. if k is larger than the current rank, size-1 dimensions are added in
 *      front until the rank is k (a rank-0 shape tiled by T(128) is tiled as
 *      the 1-element shape [1]; this is what XLA's ShapeUtil::ArraySize
 *      does: tile entries beyond the rank pad a size-1 dimension);
 *   2. the tile covers the k most-minor dimensions; the others ("leading")
 *      are left alone;
 *   3. a '*' entry merges its dimension into the next more-minor one
 *      (row-major: the merged coordinate is major * size(minor) + minor);
 *      the merged group is tiled by the first entry after the '*'s;
 *   4. each tiled (group) dimension of size n with tile t becomes a
 *      tile-count dimension of size ceil(n/t) and an in-tile dimension of
 *      size t; the new shape is [leading..., tile counts..., in-tile...].
 * The final shape is the tiled physical shape; it is stored row-major, so
 * the linear element offset is the row-major linearisation of the tiled
 * coordinates. Elements of the tiled shape that no logical element maps to
 * are padding.
 *
 * Sizes. Physical elements = product of the tiled shape, rounded up to a
 * multiple of L(n). Storage bits per element = E(n) when given, else the
 * natural size rounded up to whole bytes (s4 takes one byte unless E(4) is
 * given, as in XLA). Bytes = ceil(physical elements * bits / 8). A '<=N'
 * dimension counts as N. All arithmetic is overflow-checked: a size that
 * does not fit in int64 is an error, never a wrapped value.
 *
 * Not modeled: split configs SC(...) (which memory holds which part), the
 * M(n) metadata prefix (not counted in the bytes), sparse layouts (D(...)
 * with non-dense levels, P(...): rejected with TL_BAD_LAYOUT).
 *
 * Maps. All maps are built with the engine's constructors and simplified
 * with imap_simplify in SIMPLIFY_REPLACE_POINTS mode (XLA's default, the
 * mode of --map): a coordinate that can only take one value prints as that
 * constant. Unused symbols: the maps have none.
 *
 * Nothing here prints to stdout or exits; errors come back in tl_error. */
#ifndef HLOIDX_TILED_LAYOUT_H
#define HLOIDX_TILED_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "../parser/hlo_ir.h"
#include "indexing_map.h"
#include "../parser/base/strbuf.h"

typedef enum {
  TL_OK = 0,
  TL_NOT_ARRAY,  /* a tuple, buffer, token or opaque shape: no elements to lay out */
  TL_UNBOUNDED,  /* a '?' dimension: no static size */
  TL_BAD_LAYOUT, /* a layout this model rejects ('*' as the last tile entry, L(0), sparse) */
  TL_OVERFLOW,   /* a size, stride or byte count does not fit in int64 */
  TL_TOO_LARGE,  /* simplifying a map crossed the expression budget */
} tl_status;

typedef struct {
  tl_status status;
  char message[200];
} tl_error;

/* One tiling level: how the shape `in` becomes the shape `out`. */
typedef struct {
  int tile_index;            /* which T(...) of the layout (0 = first) */
  int nin;                   /* rank of the shape the level applies to, implicit dims included */
  const int64_t *in;         /* its dims, major to minor */
  int nimplicit;             /* leading size-1 dims added (tile longer than the rank) */
  int nlead;                 /* leading dims of `in` the tile leaves alone */
  int ntiled;                /* tiled groups: tile entries that are not '*' */
  const int *group_first;    /* ntiled: first dim of `in` in each group */
  const int *group_last;     /* ntiled: last dim of `in` in each group (== first without '*') */
  const int64_t *group_size; /* ntiled: product of the group's dims */
  const int64_t *tile;       /* ntiled: tile size of each group */
  int nout;                  /* nlead + 2 * ntiled */
  const int64_t *out;        /* [leading..., ceil(group_size/tile)..., tile...] */
} tl_level;

/* The analysed layout of one array shape. Arrays live in the arena given to
 * tl_analyze. */
typedef struct {
  const hlo_shape *shape;
  int rank;                 /* logical rank */
  const int64_t *dims;      /* logical dims ('<=N' counts as N) */
  const int *phys_order;    /* rank: phys_order[k] = logical dim at physical position k (major first) */
  int nlevels;              /* tiling levels (the layout's tiles) */
  const tl_level *levels;   /* nlevels */
  int ntiled;               /* rank of the tiled physical shape */
  const int64_t *tiled;     /* the tiled physical shape, major to minor */
  const int64_t *strides;   /* ntiled: row-major element strides of `tiled` */
  int64_t logical_elems;    /* product of dims */
  int64_t tiled_elems;      /* product of tiled */
  int64_t physical_elems;   /* tiled_elems rounded up to a multiple of L(n) */
  int64_t alignment;        /* L(n) (1 when absent) */
  int64_t elem_bits;        /* storage bits per element (E(n), or the natural size in whole bytes) */
  bool explicit_elem_bits;  /* E(n) was given */
  int64_t logical_bytes;    /* ceil(logical_elems * elem_bits / 8) */
  int64_t bytes;            /* ceil(physical_elems * elem_bits / 8) */
  int64_t memory_space;     /* S(n) (0 when absent) */
} tl_layout;

/* Analyses an array shape (its layout: minor_to_major, tiles, L, E, S).
 * Returns true, or false with *err filled. */
bool tl_analyze(hb_arena *a, const hlo_shape *s, tl_layout *out, tl_error *err);

/* Logical index -> tiled physical coordinates: dims = the logical dims,
 * results = the coordinates of the tiled shape. NULL on error. */
imap *tl_logical_to_tiled(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err);
/* Logical index -> linear element offset in the buffer (one result). */
imap *tl_logical_to_offset(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err);
/* Tiled physical coordinates -> logical index: dims = the tiled shape,
 * results = the logical dims; the domain (intervals and constraints)
 * excludes exactly the padding. */
imap *tl_tiled_to_logical(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_error *err);

/* The hook of --physical=tiled. LOGICAL maps logical coordinates of a tensor
 * FROM (its dims) to logical coordinates of a tensor TO (its results), e.g.
 * an output-to-operand map. Returns the map from FROM's tiled coordinates to
 * TO's tiled coordinates: compose(tiled->logical(FROM), LOGICAL,
 * logical->tiled(TO)), simplified. An undefined LOGICAL gives an undefined
 * map. NULL on error (rank mismatch, or an error of the layout maps). */
imap *tl_compose_tiled(hb_arena *a, const tl_layout *from, const imap *logical, const tl_layout *to, tl_error *err);

/* The hierarchical shape:stride form (CuTe / CATLASS TLA). Per logical dim
 * its modes, fastest first (in-tile modes before tile-count modes), each a
 * size and a stride in elements. A logical index x_i is split over the modes
 * of dim i colexicographically (x_i = m_0 + s_0 * (m_1 + s_1 * (...))); the
 * offset is the sum of mode * stride. The last mode of a dim may be larger
 * than needed (padding). Modes of size 1 are left out; a dim with none
 * prints as `1:0`. */
typedef struct {
  int64_t size, stride;
} tl_mode;

typedef struct {
  bool expressible;
  char why[160];          /* when not expressible */
  int rank;
  const int *nmodes;      /* rank */
  const tl_mode *const *modes; /* rank arrays of nmodes[i] */
} tl_shape_stride;

/* Computes the form, or says why the layout is not expressible as one
 * (e.g. a '*' merge whose tile does not align with the merged dims and
 * whose cut the row-major order does not undo). First from the tiling
 * structure (which keeps the in-tile / tile-count modes apart); when that
 * fails, from the simplified offset map. Returns false only on an error
 * (overflow, expression budget; *err filled). */
bool tl_shape_stride_form(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_shape_stride *out, tl_error *err);
/* `((2,2),(2,3)):((2,12),(1,4))`, or `not expressible: WHY`. */
void tl_shape_stride_print(hb_strbuf *b, const tl_shape_stride *f);

/* Name of a memory space: "device default (HBM)", "alternate (VMEM on TPU)",
 * "host", or "device-specific". */
const char *tl_memory_space_name(int64_t space);

/* Padding overhead: (physical_elems - logical_elems) / logical_elems.
 * Prints it in percent with one decimal ("60.0%", "102300.0%"), rounded
 * half up, or "n/a" for an empty array. */
void tl_overhead_print(hb_strbuf *b, const tl_layout *l);
/* Orders by overhead, larger first: <0 when a's overhead is larger, >0 when
 * smaller, 0 when equal (empty arrays count as no overhead). Exact. */
int tl_overhead_compare(const tl_layout *a, const tl_layout *b);

#endif
