/* Symbolic tiles (symbolic-tiles.md): XLA's SymbolicTile::FromIndexingMap.
 *
 * Given an output-to-input map M of one operand, the symbolic tile says
 * which box of the operand a tile of the output reads: for a tile at the
 * output origin with sizes t_0..t_{m-1} (the tile-size parameters, printed
 * as d0..d{m-1}), the operand box starts at offset_j, holds size_j elements
 * and steps by stride_j along operand dimension j, as long as the
 * constraints on the t_i hold. Offsets may contain runtime variables
 * (printed s0, s1, ...); range variables are covered in full.
 *
 * The derivation is the one of §3, with the constructors of affine_expr.h
 * and the simplifier of simplify.h in preserve-points mode, so that the
 * printed text is XLA's of the `mlir` era (§0). Its cost is linear in the
 * size of M's results, except for sums: n summands cost O(n log n), and
 * their summation constraint stays one factor (tile_constraint.h) instead
 * of XLA's n(n+1)/2 conjunctions multiplied across results.
 *
 * Memory: the tile lives in the arena given, its expressions in M's
 * ae_ctx. Nothing here prints to stdout. */
#ifndef HLOIDX_SYMBOLIC_TILE_H
#define HLOIDX_SYMBOLIC_TILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "indexing_map.h"
#include "../parser/base/strbuf.h"
#include "tile_constraint.h"

typedef enum {
  ST_OK = 0,
  ST_NONE = 1,      /* XLA derives no tile (the reason is in `why`) */
  ST_TOO_LARGE = 2, /* simplifying M or a part of it crossed the expression budget */
} st_status;

typedef struct {
  const imap *map;          /* M after Simplify(preserve points): what the tile describes */
  uint32_t ndims;           /* tile-size parameters (M's dimensions) */
  const interval *size_iv;  /* ndims: [lo + 1, hi + 1] of M's dimension intervals */
  uint32_t nresults;        /* operand rank */
  const ae **offsets;       /* nresults: over the runtime symbols s0..s{nrt-1} only */
  const ae **sizes;         /* nresults: over the tile sizes */
  const ae **strides;       /* nresults: over the tile sizes */
  uint32_t nrt;             /* runtime variables the offsets use */
  const interval *rt_iv;    /* nrt: their intervals in M */
  const uint32_t *rt_of;    /* nrt: which of M's runtime variables each is (0-based) */
  tc_factors cons;          /* the constraints on the tile sizes */
} st_tile;

/* Expression nodes a derivation may create (simplifications included). */
#define ST_NODE_BUDGET ((size_t)4 << 20)
/* Largest DNF st_print expands the constraints into (then: factored form). */
#define ST_MAX_DNF 4096

/* Derives the tile of M. On ST_NONE / ST_TOO_LARGE `why` holds a short
 * reason ("a constraint that is not on a result: d0 mod 2 in [0, 0]").
 * hloidx's tile differs from XLA's in one case, a sum whose summands have
 * strides of both signs, where XLA's box does not hold what is read:
 * hloidx adds a constraint that keeps only the sizes where it does
 * (tile_extract.c); with xla_compat the tile is exactly XLA's. A max or
 * min (only in maps read as text) gives ST_NONE where it involves tile
 * variables, and with xla_compat anywhere; one of runtime variables only
 * stays in the offsets. */
st_status st_derive(hb_arena *a, const imap *m, bool xla_compat, st_tile *out, char *why, size_t why_cap);

/* XLA's text of the tile (§4), ending with a newline. False (nothing
 * printed) when the constraints are too large to print even factor by
 * factor. */
bool st_print(hb_strbuf *b, hb_arena *a, const st_tile *t);

/* The sizes and strides at concrete tile sizes ts[0..ndims): strides are
 * evaluated with each tile size clamped to its parameter's largest value
 * (§5.5). False on overflow. */
bool st_eval(const st_tile *t, const int64_t *ts, int64_t *sizes, int64_t *strides);

/* Whether the constraints hold at ts. */
bool st_holds(const st_tile *t, const int64_t *ts);

/* The offsets of every tile of a tiling: a map from the tile index
 * (i_0..i_{m-1}, i_k in [0, ceil(extent_k / ts_k) - 1], narrowed to the
 * tiles that meet M's dimension intervals: the others read nothing of the
 * operand, e.g. of one operand of a concatenate) to the operand
 * offsets of that tile's box: M's results at d_k = i_k * ts_k with range
 * variables at 0 (runtime variables stay), simplified, unused runtime
 * variables removed. rt_of (if not NULL; M's nrt entries) receives for
 * each of M's runtime variables its position in the result, or -1. NULL
 * when the budget is crossed. */
imap *st_offsets_map(hb_arena *a, const st_tile *t, const int64_t *ts, const int64_t *extent, int32_t *rt_of);

#endif
