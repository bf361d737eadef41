/* Range evaluation (indexing-semantics.md §6.2) and XLA's simplifier
 * (§6.4 expressions, §6.5 maps).
 *
 * Deviations from XLA, all in cases the analysis never produces (they need
 * non-constant or non-positive divisors, which only the map reader can
 * create) or where XLA's rule would change the relation:
 *  - range evaluation of `ceildiv` is exact instead of fatal; a divisor that
 *    is not a positive point (floordiv/ceildiv: non-zero point) evaluates to
 *    the unbounded interval instead of being fatal;
 *  - rules that are only sound for positive divisors / multipliers are
 *    skipped otherwise (mod with a negative modulus, mod-div with a negative
 *    inner modulus, inner-division merge with a negative divisor);
 *  - the constraint range rule for `A*g + B in [0, hi]` (§6.5) is applied
 *    only when g > 1 and min(B) == 0, where it is exact;
 *  - any step whose integer arithmetic would overflow is skipped. */
#ifndef HLOIDX_SIMPLIFY_H
#define HLOIDX_SIMPLIFY_H

#include <stdbool.h>

#include "indexing_map.h"

typedef enum {
  SIMPLIFY_REPLACE_POINTS,  /* XLA's default: an expression whose range is one value becomes that constant */
  SIMPLIFY_PRESERVE_POINTS, /* reshape / bitcast maps: point-valued expressions are kept */
} simplify_mode;

typedef enum {
  SIMPLIFY_OK = 0,
  SIMPLIFY_TOO_LARGE = 1, /* the ae_ctx budget was crossed or the work limit hit; the map is
                             left valid and equivalent, but possibly not fully simplified */
} simplify_status;

/* XLA's IndexingMap::Simplify(mode). *changed (may be NULL) tells whether
 * constraints, intervals or results changed. Does not remove symbols. */
simplify_status imap_simplify(imap *m, simplify_mode mode, bool *changed);
/* imap_simplify under a budget of node_budget new expression nodes in
 * m->ctx (one place for the save / set / simplify / restore dance the
 * callers all need): the context's previous node limit is restored and its
 * status cleared afterwards. SIMPLIFY_TOO_LARGE when the budget was crossed. */
simplify_status imap_simplify_budgeted(imap *m, simplify_mode mode, size_t node_budget);

/* Expression-level access: an evaluator/simplifier bound to a map. It reads
 * the map's current intervals (and constraints when use_constraints) and
 * memoises per node until the map changes. */
typedef struct simplifier simplifier;
simplifier *simplifier_new(const imap *m, bool use_constraints, simplify_mode mode);
void simplifier_free(simplifier *s);
/* §6.2 range of e. */
interval simplifier_eval(simplifier *s, const ae *e);
/* §6.4 simplify(e): `once` to a fixed point. */
const ae *simplifier_simplify(simplifier *s, const ae *e);
/* True if the work limit or the context budget stopped a rewrite. */
bool simplifier_aborted(const simplifier *s);

/* One-shot range evaluation. */
interval imap_eval_range(const imap *m, const ae *e, bool use_constraints);

#endif
