/* Indexing maps (indexing-semantics.md §1, §5.2, §6.6).
 *
 * A map is: ndims dimension variables, nrange range variables and nrt
 * runtime variables, each with an inclusive interval; result expressions;
 * constraints `expr in [lo, hi]` (keyed by expression, insertion-ordered,
 * merged by intersection); and the flags known_empty / undefined.
 * Symbols share one position space: [0, nrange) are range variables,
 * [nrange, nrange + nrt) runtime variables.
 *
 * Memory: a map and all its arrays live in the arena given at creation
 * (the map remembers it; in-place changes allocate from it too). Nothing is
 * freed individually; drop the arena. Expressions live in the ae_ctx, which
 * must outlive the map.
 *
 * Fields may be read directly; change maps only through these functions
 * (they keep `gen`, the change counter used by the simplifier's memo
 * tables, up to date). */
#ifndef HLOIDX_INDEXING_MAP_H
#define HLOIDX_INDEXING_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "interval.h"

typedef struct {
  const ae *expr;
  interval iv;
} imap_constraint;

typedef struct imap {
  ae_ctx *ctx;
  hb_arena *arena;
  uint32_t ndims, nrange, nrt;
  interval *dim_iv; /* ndims */
  interval *sym_iv; /* nrange + nrt */
  uint32_t nresults;
  const ae **results;
  uint32_t ncons, cons_cap;
  imap_constraint *cons; /* insertion order */
  bool known_empty;
  bool undefined;
  uint64_t gen; /* bumped on every change of intervals or constraints */
} imap;

static inline uint32_t imap_nsyms(const imap *m) { return m->nrange + m->nrt; }

/* ---- construction ------------------------------------------------------------ */
/* Copies the arrays. If any interval is infeasible the map is known-empty
 * (§1.5). sym_iv holds nrange + nrt intervals (range first). */
imap *imap_new(hb_arena *a, ae_ctx *ctx, uint32_t ndims, uint32_t nrange, uint32_t nrt, const interval *dim_iv,
               const interval *sym_iv, uint32_t nresults, const ae *const *results);
imap *imap_new_undefined(hb_arena *a, ae_ctx *ctx);
imap *imap_copy(hb_arena *a, const imap *m);
/* Nodes of the map's text: expressions are DAGs, their text is a tree (the
 * results' and constraints' tree sizes, saturating; 0 for an undefined or
 * known-empty map). A few thousand nodes can have gigabytes of text. */
uint64_t imap_text_nodes(const imap *m);
/* (d0..d{n-1}) -> (d0..d{n-1}) with intervals [0, sizes[i]-1]. */
imap *imap_identity(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes);
/* Results (d_{perm[0]}, d_{perm[1]}, ...), dims intervals [0, sizes[i]-1]. */
imap *imap_permutation(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes, const uint32_t *perm);
/* (d0..d{n-1}) -> () */
imap *imap_scalar(hb_arena *a, ae_ctx *ctx, uint32_t ndims, const int64_t *sizes);

/* Replace result i (no simplification). */
void imap_set_result(imap *m, uint32_t i, const ae *e);
/* Set a variable's interval as is (no known-empty check; use
 * imap_add_constraint on the bare variable for the §1.3 behaviour). */
void imap_set_dim_interval(imap *m, uint32_t i, interval iv);
void imap_set_sym_interval(imap *m, uint32_t i, interval iv);

/* ---- constraints (§1.3) -------------------------------------------------------- */
/* The add-constraint procedure: bare variables narrow their interval,
 * constants are checked, others are inserted or intersected; infeasibility
 * makes the map known-empty. */
void imap_add_constraint(imap *m, const ae *e, interval iv);
/* Index of the constraint on e, or -1. */
int64_t imap_find_constraint(const imap *m, const ae *e);
/* Removes the constraint on e (keeps the order of the others); false if absent. */
bool imap_erase_constraint(imap *m, const ae *e);
/* Inserts or overwrites the constraint on e without any folding (XLA's
 * `constraints_[e] = iv`). */
void imap_put_constraint(imap *m, const ae *e, interval iv);

/* ---- states (§1.5) ------------------------------------------------------------------ */
/* Results become 0, dim and range intervals [0, -1], constraints dropped. */
void imap_set_known_empty(imap *m);

/* ---- composition (§5.2) ---------------------------------------------------------- */
/* compose(first, second): apply first, then second. Symbols of the result:
 * [second.range | first.range | second.rt | first.rt]. Not simplified.
 * first->nresults must equal second->ndims (otherwise: undefined result). */
imap *imap_compose(hb_arena *a, const imap *first, const imap *second);

/* ---- unused symbols (§6.6) ------------------------------------------------------------ */
/* Removes unused range and runtime variables. If old_to_new is not NULL it
 * receives, for each old symbol position, its new position or -1 if removed
 * (imap_nsyms(m) entries, sized by the caller before the call). Returns the
 * number of removed symbols. */
uint32_t imap_remove_unused_symbols(imap *m, int32_t *old_to_new);
/* The same, keeping the symbols marked in keep (imap_nsyms(m) flags) as if
 * the results used them. */
uint32_t imap_remove_unused_symbols_keep(imap *m, const bool *keep, int32_t *old_to_new);
/* Marks used[p] for the symbols that removal would keep (used: imap_nsyms(m)
 * flags, zeroed by the caller; keep may be NULL). */
void imap_used_symbols(const imap *m, const bool *keep, bool *used);

/* ---- equality (§1.7) ------------------------------------------------------------------- */
/* Results, dim count, symbol counts, intervals, constraint set (order-insensitive). */
bool imap_equal(const imap *a, const imap *b);
/* Consistent with imap_equal; deterministic (no pointer values). */
uint64_t imap_hash(const imap *m);

/* True if results are (d0, d1, ...) in order and as many as the dims. */
bool imap_is_identity(const imap *m);

#endif
