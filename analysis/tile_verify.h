/* The enumeration check of a tiling (hloidx --tiles --verify): for every
 * tile of the output and every value of the runtime variables, the box the
 * operand's tile describes (offsets at that tile index, sizes and strides
 * at the tile sizes; elements outside the operand dropped) must equal the
 * set of operand elements the out2in map reads for the output elements of
 * that tile, element for element. Tiles that overhang the output (the last
 * ones along a dimension the size does not divide) or the map's domain
 * (the edge of one operand's part of a concatenate) read less than their
 * box: for them the box must cover what they read. Over all tiles, the
 * union of the boxes is then the map's image (up to the overhang, which is
 * reported). Tiles that do not meet the map's domain (the output elements
 * of another operand of a concatenate) read nothing and have no box. The
 * maps themselves are checked against the ops' definitions
 * by --verify (verify.h); this checks the tiles against the maps.
 *
 * Only maps whose tile constraints hold at the tile sizes are checked (the
 * box is not meant to be exact otherwise), and only small cases: every
 * tile when the map's domain (dimensions and range variables) has at most
 * TV_MAX_POINTS points, else a sample of tiles (the first, second, middle,
 * last but one and last along each dimension, or at high rank the
 * diagonal of those) when their points, times the runtime values, are at
 * most TV_MAX_POINTS; and at most TV_MAX_STEPS box elements in all. */
#ifndef HLOIDX_TILE_VERIFY_H
#define HLOIDX_TILE_VERIFY_H

#include "fusion_tiling.h"

#define TV_MAX_POINTS ((uint64_t)1 << 16)
#define TV_MAX_STEPS ((uint64_t)1 << 22)

typedef enum {
  TV_OK,          /* every tile's box equals what it reads */
  TV_OK_OVERHANG, /* the same, except overhanging tiles whose boxes hold more */
  TV_MISMATCH,    /* a box misses an element, or a full tile's box holds one it does not read */
  TV_SKIPPED,     /* not checked (why) */
} tv_status;

typedef struct {
  tv_status status;
  char message[400]; /* mismatch: the tile and element; skipped: why */
  uint64_t tiles;    /* tiles checked (times runtime values) */
  tf_count sampled_of; /* when only a sample of tiles was checked: of how many (else 0) */
} tv_result;

/* Checks entry E of the instantiated tiling T. */
void tv_check(const ft_tiling *t, const ft_entry *e, tv_result *out);

#endif
