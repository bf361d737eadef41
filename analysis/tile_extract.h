/* Size and stride of one strided expression (symbolic-tiles.md §3.4, §3.5;
 * XLA's size_and_stride_expression): an internal step of st_derive. */
#ifndef HLOIDX_TILE_EXTRACT_H
#define HLOIDX_TILE_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "indexing_map.h"
#include "tile_constraint.h"

typedef struct {
  hb_arena *a;
  const imap *m;     /* the simplified map: variable intervals */
  tc_factors *cons;  /* constraints found are appended here */
  char *why;         /* reason of a failure */
  size_t why_cap;
  bool xla_compat;   /* exactly XLA's tile, also where it is wrong (sums of mixed signs) */
} tx_ctx;

/* Size and stride of e (an expression over M's variables; sizes and strides
 * come out over the tile-size parameters). False when e is not of a form
 * with a tile, with x->why set. */
bool tx_extract(tx_ctx *x, const ae *e, const ae **size, const ae **stride);

#endif
