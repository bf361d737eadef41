/* Operations on indexing maps given as text (hloidx --map): XLA's
 * IndexingMap API, with the variables' names carried along (map_names.h).
 *
 *   mo_compose        ComposeIndexingMaps(first, second) (§5.2): apply first,
 *                     then second; symbols [S.range | F.range | S.rt | F.rt]
 *   mo_submap         GetSubMap: some of the results, same variables and domain
 *   mo_symbols_to_dims ConvertSymbolsToDimensions: range, then runtime
 *                     variables become dimensions after the existing ones
 *   mo_remove_unused  RemoveUnusedSymbols (§6.6), and RemoveUnusedVars's rule
 *                     for dimensions: a variable no result uses is removed
 *                     with the constraints that use only removed variables
 *   mo_eval           Evaluate + the domain check (intervals, constraints)
 *   mo_image          the results of one "from" element: every value of the
 *                     symbols in the domain, by enumeration
 *   mo_range          each result's range: XLA's range evaluation (§6.2), and
 *                     the exact range by enumeration of small domains
 *
 * None of these simplifies (the caller does, with imap_simplify, as XLA's
 * callers do). Results live in the arena given; expressions in the maps'
 * ae_ctx. Nothing prints or exits. */
#ifndef HLOIDX_MAP_OPS_H
#define HLOIDX_MAP_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "indexing_map.h"
#include "map_names.h"

typedef struct {
  imap *map;
  map_names names;
} mo_map;

/* An undefined map when first's result count differs from second's
 * dimension count (the caller reports that). */
mo_map mo_compose(hb_arena *a, mo_map first, mo_map second);
/* Results results[0..n) of m (each < m.map->nresults), in that order. */
mo_map mo_submap(hb_arena *a, mo_map m, const uint32_t *results, uint32_t n);
mo_map mo_symbols_to_dims(hb_arena *a, mo_map m);

enum { MO_UNUSED_SYMBOLS = 1, MO_UNUSED_DIMS = 2, MO_UNUSED_VARS = 3 };
/* Removes the unused variables of the kinds in `what` (MO_UNUSED_*) in place
 * (m->map changes; names are renumbered with it). Returns how many were
 * removed. */
uint32_t mo_remove_unused(mo_map *m, int what);

/* ---- queries ------------------------------------------------------------------------------ */

/* Variable values: dims, then range variables, then runtime variables. */
typedef struct {
  bool is_var;    /* a variable outside its interval; else a constraint that does not hold */
  uint32_t index; /* the variable (dims first), or the constraint's index in m->cons */
  int64_t value;  /* the constraint expression's value (variables: their value) */
} mo_violation;

typedef enum {
  MO_EVAL_OK = 0,
  MO_EVAL_ARITH, /* an expression overflows int64 or divides by zero at this point */
} mo_eval_status;

/* Results at the point vals (ndims + nsyms values) into results[nresults],
 * and every violation of the domain into viol (at most ndims + nsyms +
 * ncons entries), their count in *nviol. */
mo_eval_status mo_eval(const imap *m, const int64_t *vals, int64_t *results, mo_violation *viol, uint32_t *nviol);

/* The distinct result tuples of the "from" element dims (ndims values) over
 * every symbol value in the domain, sorted (lexicographically). At most
 * `max_points` symbol tuples are enumerated; false when there are more (or
 * an expression overflows), with *why set. tuples holds *ntuples * nresults
 * values, allocated in a. max_points also bounds the symbol tuples times
 * the results. */
bool mo_image(hb_arena *a, const imap *m, const int64_t *dims, uint64_t max_points, int64_t **tuples,
              uint64_t *ntuples, const char **why);

/* Range of result i. bound: XLA's range evaluation with the constraints
 * (§6.2); exact: the smallest and largest value over the domain when it has
 * at most max_points points (have_exact false otherwise, and for an empty
 * domain *empty is set). */
typedef struct {
  interval bound;
  bool have_exact;
  bool empty;
  interval exact;
} mo_range_info;
void mo_range(const imap *m, uint32_t i, uint64_t max_points, mo_range_info *out);

/* The number of points of the box of m's variable intervals, saturating at
 * UINT64_MAX (0 when an interval is empty). */
uint64_t mo_box_points(const imap *m);

#endif
