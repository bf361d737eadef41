/* Tiles of a whole fusion (or any instruction) for one tiling of one of
 * its outputs: the symbolic-tiles.md §8 question "what does one tile of
 * this fusion read from memory?", answered per operand.
 *
 * A tiling cuts the output into tiles of sizes ts (the last tile along a
 * dimension overhangs when ts does not divide it; tile index i covers
 * output elements [i_k * ts_k, (i_k + 1) * ts_k)). For each operand and
 * each of its out2in maps (a fusion parameter read along several paths has
 * several; each is its own load), the symbolic tile of the map gives the
 * box of the operand one tile reads: offsets per tile index, sizes and
 * strides at ts, and whether the tile's constraints hold at ts (when they
 * do not, the box is not what the tile reads: the report says so and the
 * numbers describe the box anyway). Range variables (reduced and
 * contracted dimensions) are covered in full: the box is what a tile reads
 * over its whole reduction, not per step of a loop over it.
 *
 * Bytes, with the operand's layout: per tile, the box's elements inside
 * the operand times the element size (logical), and the layout tiles it
 * touches times their size (padded); summed over all tiles, the bytes the
 * whole tiling moves; and reads per element, the elements loaded over all
 * tiles and maps per distinct element loaded (the union of the boxes): 1
 * when no element is loaded twice, the number of tiles along a broadcast
 * dimension for a broadcast operand. (The union is the maps' image, unless
 * last tiles overhang: then it also holds the few elements they load and
 * do not use.)
 *
 * Results live in the context's scratch arena (valid until ii_ctx_reset). */
#ifndef HLOIDX_FUSION_TILING_H
#define HLOIDX_FUSION_TILING_H

#include <stdbool.h>
#include <stdint.h>

#include "access_summary.h"

#define FT_MARK_ELEMS ((uint64_t)1 << 24)
#define FT_MARK_STEPS ((uint64_t)1 << 22)
#include "instr_indexing.h"
#include "symbolic_tile.h"
#include "tile_footprint.h"

/* One map of one operand. */
typedef struct {
  uint32_t operand;        /* K */
  uint32_t slot;           /* its operand's place in ft_tiling.operands */
  uint32_t map, nmaps;     /* which map of the operand (print order), of how many */
  const ii_operand *x;     /* the operand indexing (map and runtime-variable descriptions) */
  st_status status;        /* ST_NONE: no tile (why); ST_TOO_LARGE: analysis too large (why) */
  const char *why;         /* (in the arena; NULL with ST_OK: thousands of entries) */
  st_tile tile;
  /* at the tile sizes (status ST_OK) */
  int64_t *sizes, *strides; /* operand rank */
  bool holds;               /* the tile's constraints hold at ts */
  imap *offsets;            /* tile index -> operand offsets; NULL when too large */
  int32_t *rt_of;           /* the map's runtime variable j -> offsets symbol (or -1) */
  tf_totals fp;             /* elements and layout tiles, first tile and all tiles */
  tf_dim *dims;             /* the box along each operand dimension (with offsets) */
} ft_entry;

/* Per operand the output reads. */
typedef struct {
  uint32_t k;                /* the operand number */
  uint32_t first, nentries;  /* its maps: ft_tiling.entries[first, first + nentries) */
  const hlo_instr *producer; /* the operand instruction */
  bool layout_ok;            /* a layout with a size (not a tuple or token) */
  const char *layout_why;   /* when not: why (in the arena) */
  tf_layout layout;
  bool read;                 /* the output reads it (it has maps) */
  bool counted;              /* totals over all its maps are known (every map has a tile) */
  bool exact;                /* ... and exact */
  tf_count loaded;           /* elements loaded over all tiles and maps */
  tf_count tiles_loaded;     /* layout tiles loaded over all tiles and maps */
  /* by ft_distinct: */
  bool distinct_known;       /* the union of the boxes was counted */
  bool distinct_exact;
  const char *distinct_why;  /* when not exact: why (a literal) */
  tf_count distinct;         /* distinct elements loaded */
} ft_operand;

typedef struct {
  const hlo_instr *in;
  int64_t output;
  const hlo_shape *shape;    /* the output's shape */
  uint32_t rank;             /* output rank */
  const int64_t *extent;     /* output dims */
  const int64_t *ts;         /* tile sizes */
  const int64_t *ntiles;     /* per dimension: ceil(extent / ts) */
  tf_count total_tiles;
  bool holds;                /* every tile's constraints hold */
  uint32_t nentries;
  ft_entry *entries;         /* operand-major, maps in print order */
  /* the operands this output reads, by operand number (the others have no
   * maps and are not kept: an output of a tuple reads one of thousands) */
  uint32_t noperands;
  ft_operand *operands;
  const ii_set **sets;       /* noperands: the out2in sets of this output */
  uint32_t nall;             /* the op's operands, read or not */
} ft_tiling;

/* The tiling of output OUTPUT of IN with tile sizes ts[0..rank)
 * (ft_symbolic, ft_instantiate and ft_distinct). II_ERROR
 * when the analysis of IN fails or ts has the wrong length / a size < 1. */
ii_status ft_tile(ii_ctx *c, const hlo_instr *in, int64_t output, const int64_t *ts, uint32_t nts, ft_tiling *out,
                  ii_error *err);

/* The symbolic tiles of every operand map of OUTPUT (no tile sizes): the
 * entries of ft_tile without the parts at ts. */
ii_status ft_symbolic(ii_ctx *c, const hlo_instr *in, int64_t output, ft_tiling *out, ii_error *err);
/* Whether OUTPUT of IN can be tiled: it exists, is an array (*SHAPE), and
 * has no unbounded dimension (else II_ERROR and why). */
ii_status ft_check_output(const hlo_instr *in, int64_t output, const hlo_shape **shape, ii_error *err);
/* ft_symbolic of an out2in block already computed (X: a whole block, or
 * a part of one, ii_o2i_part or ii_indexing_view: then the tiling holds
 * that part's entries), its tiles and lists in A; OUTPUT passed
 * ft_check_output. */
void ft_symbolic_of(ii_ctx *c, hb_arena *a, const hlo_instr *in, int64_t output, const ii_indexing *x, ft_tiling *out);

/* The distinct elements each operand's boxes hold over all tiles and maps,
 * for the reads per element (after ft_instantiate): per dimension when the
 * offsets are separable (tf_union_separable), else by marking a bitmap of
 * the operand (at most FT_MARK_ELEMS elements, FT_MARK_STEPS marks), else
 * the image of the maps as access_summary.h counts it. */
void ft_distinct(ii_ctx *c, ft_tiling *t);

/* The part of ft_tile at the tile sizes, for a tiling whose symbolic
 * tiles ft_symbolic derived (used by the tilings enumeration, which tries
 * many ts on the same tiles). */
void ft_instantiate(ii_ctx *c, ft_tiling *t, const int64_t *ts);
/* ft_instantiate with what belongs to these tile sizes (the entries' sizes,
 * offset maps and footprints, t->ts) in A: a caller that lists many
 * tilings of thousands of entries resets A between them. */
void ft_instantiate_in(ii_ctx *c, ft_tiling *t, const int64_t *ts, hb_arena *a);

#endif
