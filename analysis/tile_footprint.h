/* What the operand boxes of a tiling cost in memory: elements and bytes of
 * one tile, summed over all tiles, logically and in whole tiles of the
 * operand's tiled layout (TPU T(8,128) and friends: a box that touches one
 * element of a layout tile moves the whole tile).
 *
 * A tile's box along operand dimension j holds offset_j + k * stride_j for
 * 0 <= k < size_j; only the elements inside the operand count (the last
 * tiles of a tiling overhang the output, and with it the operand). The
 * offsets are a map from the tile index (one coordinate per output
 * dimension) to operand offsets (st_offsets_map).
 *
 * Sums over all tiles are computed per group of tile coordinates that
 * share an operand dimension (groups are independent, so the sum is a
 * product over groups): a group of one coordinate whose offsets are affine
 * in it is summed in closed form over the tiles whose boxes lie inside the
 * operand, plus the boundary tiles one by one; other groups are enumerated
 * up to TF_ENUM_POINTS tile indices. Beyond that, or with runtime offsets
 * (taken at their lowest values), the sums are estimates: marked, with the
 * reason. */
#ifndef HLOIDX_TILE_FOOTPRINT_H
#define HLOIDX_TILE_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "indexing_map.h"
#include "tiled_layout.h"

#define TF_ENUM_POINTS ((uint64_t)1 << 20)

__extension__ typedef unsigned __int128 tf_count;

/* One operand dimension of the box. */
typedef struct {
  int64_t extent;  /* the operand's size along it */
  int64_t size;    /* box size */
  int64_t stride;  /* box stride */
  int64_t tile;    /* layout tile along it (1 when not tiled) */
} tf_dim;

/* The layout of an operand in the terms above. */
typedef struct {
  bool padded;         /* layout-tile counts are meaningful (tiles along single dimensions) */
  const char *why;     /* when not: why ("its tile 1 combines dimensions ('*')"; in the arena) */
  int64_t *dim_tile;   /* rank: layout tile along each logical dimension (1 = not tiled) */
  int64_t tile_bits;   /* bits of one layout tile, deeper levels' padding included */
  int64_t elem_bits;   /* storage bits of one element */
  int64_t memory_space;
} tf_layout;

/* The k in [0, n) with o + k * st in [0, D) (the elements of a box of n
 * along one dimension that lie in the operand): [*klo, *khi], empty when
 * klo > khi (a stride 0 box holds one element). */
void tf_box_range(int64_t o, int64_t n, int64_t st, int64_t D, int64_t *klo, int64_t *khi);

/* From tl_analyze's result. */
void tf_layout_of(hb_arena *a, const tl_layout *l, tf_layout *out);

typedef struct {
  tf_count first_elems;  /* the first tile (the lowest tile index of the offsets' domain) */
  tf_count first_tiles;  /* layout tiles of the first tile */
  tf_count elems;        /* summed over all tiles */
  tf_count tiles;        /* layout tiles summed over all tiles */
  bool exact;
  const char *why;       /* when an estimate: why (a literal; "" when exact) */
} tf_totals;

/* offsets: tile index -> operand offsets (its dims are the tile
 * coordinates, their intervals the tiles that read the operand; runtime
 * variables allowed).
 * dims: one per result. */
void tf_sum(const imap *offsets, const tf_dim *dims, tf_totals *out);

/* The distinct operand elements the boxes of all tiles hold (inside the
 * operand), when every operand dimension's offset depends on at most one
 * tile coordinate and no two dimensions on the same one: the union is then
 * the product over dimensions of the union of that dimension's boxes,
 * marked in a bitmap of its extent. False when the offsets are not of that
 * form or the marking would exceed TF_ENUM_POINTS (runtime variables: at
 * their lowest values). */
bool tf_union_separable(const imap *offsets, const tf_dim *dims, tf_count *out);
/* The union over several maps' boxes (n offsets maps with their dims),
 * when each is separable as above and their per-dimension unions differ
 * along one dimension at most: the union is then the product of the
 * shared per-dimension sets and the union along that one. False otherwise
 * (or past TF_ENUM_POINTS marks). */
bool tf_union_maps(const imap *const *offsets, const tf_dim *const *dims, uint32_t n, tf_count *out);
/* The same for any offsets by marking every box element in a bitset of the
 * whole operand (bit i = element i row-major over the dims' extents);
 * *budget counts down the elements visited, *marked up the elements marked
 * for the first time. False when the budget runs out. */
bool tf_mark(const imap *offsets, const tf_dim *dims, uint64_t *bitmap, uint64_t *budget, uint64_t *marked);

/* ceil(count * bits / 8), saturated at UINT64_MAX. */
uint64_t tf_bytes(tf_count count, int64_t bits);

#endif
