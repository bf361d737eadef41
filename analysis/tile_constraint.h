/* Constraints on tile sizes (symbolic-tiles.md §3.5, §3.6): XLA's
 * ConstraintExpression, and the factored form hloidx keeps them in.
 *
 * XLA keeps a tile's constraints in disjunctive normal form: a list of
 * conjunctions of `expr in [lo, hi]` over the tile-size parameters, with
 * two special values (always satisfied: no conjunction; unsatisfiable).
 * `A and B` multiplies the conjunction lists, so a map with many summed or
 * modular results gives a product that grows exponentially with the rank
 * (where XLA runs out of memory, openxla/xla#41173). hloidx therefore keeps
 * a tile's constraints as a conjunction of *factors*, each small:
 *
 *  - a DNF (tc_dnf), e.g. the divisibility alternatives of one `mod`;
 *  - a summation constraint over the sizes z_0..z_{n-1} of one sum,
 *    sorted from the most to the least major summand: "1, ..., 1, anything,
 *    full, ..., full, 1, ..., 1" (§3.5 item 3), checked in O(n) and
 *    expanded into XLA's n(n+1)/2 conjunctions only when printed.
 *
 * Evaluation at concrete tile sizes works on the factors. XLA's text is the
 * DNF expansion of their `and` (§3.6: combined in order, intersecting equal
 * expressions, then simplified once), built under a budget; beyond it
 * tc_print writes the factors instead (each as its own simplified DNF in
 * parentheses, joined by ` && `), which XLA never prints but which denotes
 * the same condition.
 *
 * Everything lives in the arena given; expressions in the ae_ctx. */
#ifndef HLOIDX_TILE_CONSTRAINT_H
#define HLOIDX_TILE_CONSTRAINT_H

#include <stdbool.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "interval.h"
#include "../parser/base/strbuf.h"

/* `expr in [lo, hi]` */
typedef struct {
  const ae *expr;
  interval iv;
} tc_atom;

typedef struct {
  uint32_t n;
  tc_atom *atoms;
} tc_conj;

/* satisfiable && n == 0: always satisfied; !satisfiable: unsatisfiable. */
typedef struct {
  bool satisfiable;
  uint32_t n;
  tc_conj *conjs;
} tc_dnf;

typedef enum { TC_FACTOR_DNF, TC_FACTOR_SUMMATION } tc_factor_kind;

typedef struct {
  tc_factor_kind kind;
  tc_dnf dnf;            /* TC_FACTOR_DNF */
  uint32_t n;            /* TC_FACTOR_SUMMATION: summands, major first */
  const ae **sizes;      /* n sizes (constants or bare dimensions) */
  const int64_t *ranges; /* n: the values each size takes at most ("full") */
} tc_factor;

/* The conjunction of factors (none: always satisfied). */
typedef struct {
  uint32_t n, cap;
  tc_factor *f;
} tc_factors;

/* ---- DNF values (XLA's ConstraintExpression) -------------------------------------------------- */
static inline tc_dnf tc_always(void) { return (tc_dnf){true, 0, NULL}; }
static inline tc_dnf tc_unsatisfiable(void) { return (tc_dnf){false, 0, NULL}; }
static inline bool tc_is_always(const tc_dnf *d) { return d->satisfiable && d->n == 0; }
/* One conjunction of n atoms; atoms on the same expression intersect (an
 * empty intersection gives unsatisfiable). */
tc_dnf tc_conjunction(hb_arena *a, const tc_atom *atoms, uint32_t n);
/* XLA's `||`. */
tc_dnf tc_or(hb_arena *a, const tc_dnf *x, const tc_dnf *y);
/* XLA's `&&`: false when the product would have more than max_conjs
 * conjunctions (*out is then unspecified). */
bool tc_and(hb_arena *a, const tc_dnf *x, const tc_dnf *y, uint64_t max_conjs, tc_dnf *out);
/* XLA's ConstraintExpression::Simplify (§3.6). */
tc_dnf tc_simplify(hb_arena *a, const tc_dnf *d);
/* The value at the tile sizes dims[0..ndims); false also when an
 * expression cannot be evaluated (overflow, division by zero). */
bool tc_dnf_holds(const tc_dnf *d, const int64_t *dims, uint32_t ndims);

/* ---- factors ------------------------------------------------------------------------------------- */
void tc_factors_add_dnf(hb_arena *a, tc_factors *fs, tc_dnf d);
void tc_factors_add_summation(hb_arena *a, tc_factors *fs, uint32_t n, const ae *const *sizes, const int64_t *ranges);
/* The summation constraint as XLA builds it (before simplification). */
bool tc_summation_dnf(hb_arena *a, const tc_factor *f, uint64_t max_conjs, tc_dnf *out);
/* Whether one factor holds at the tile sizes. */
bool tc_factor_holds(const tc_factor *f, const int64_t *dims, uint32_t ndims);
/* The tile-size parameters one factor mentions: used[i] for i < ndims. */
void tc_factor_vars(const tc_factor *f, bool *used, uint32_t ndims);
/* Whether every factor holds at the tile sizes. */
bool tc_factors_hold(const tc_factors *fs, const int64_t *dims, uint32_t ndims);
/* XLA's DNF: the `and` of the factors in order, simplified once. False when
 * it would exceed max_conjs conjunctions at some step. */
bool tc_factors_dnf(hb_arena *a, const tc_factors *fs, uint64_t max_conjs, tc_dnf *out);
/* The variables (tile-size parameters) the factors mention: used[i] for
 * i < ndims. */
void tc_factors_vars(const tc_factors *fs, bool *used, uint32_t ndims);

/* ---- text ------------------------------------------------------------------------------------------ */
/* XLA's ConstraintExpression::Print without the newline: `always
 * satisfied`, `unsatisfiable`, or the sorted conjunctions (§4). */
void tc_dnf_print(hb_strbuf *b, const tc_dnf *d);
/* The constraints of a tile: XLA's DNF when it has at most max_conjs
 * conjunctions, else the factored form described above. Nothing is
 * printed when they are always satisfied; TC_PRINT_TOO_LARGE (nothing
 * printed) when even one factor exceeds max_conjs. */
typedef enum { TC_PRINT_ALWAYS, TC_PRINT_OK, TC_PRINT_TOO_LARGE } tc_print_status;
tc_print_status tc_print(hb_strbuf *b, hb_arena *a, const tc_factors *fs, uint64_t max_conjs);

#endif
