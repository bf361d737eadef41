/* Hash-consed affine expressions (MLIR's AffineExpr semantics).
 *
 * Nodes live in a context (ae_ctx) that owns one arena and a hash-cons table:
 * structurally equal expressions are the same pointer, so equality is `==`
 * and memo tables key on node pointers. Nodes are immutable and are freed
 * all at once with the context. They are only created through the smart
 * constructors below, which apply MLIR's construction-time canonicalisation
 * (indexing-semantics.md §6.1).
 *
 * Symbols are positions: position p is range variable p when p < #range vars
 * of the map that prints it, otherwise runtime variable p - #range vars
 * (§1.1); the expression itself does not know which.
 *
 * Floor semantics: floordiv rounds toward -inf, mod is a - b*floor(a/b).
 * Constant folding that would overflow int64 leaves the node unfolded
 * (as MLIR does); point evaluation reports overflow instead of wrapping. */
#ifndef HLOIDX_AFFINE_EXPR_H
#define HLOIDX_AFFINE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The order is MLIR's AffineExprKind order; the simplifier's term order
 * (§6.4) relies on it. */
typedef enum {
  AE_ADD,
  AE_MUL,
  AE_MOD,
  AE_FLOORDIV,
  AE_CEILDIV,
  AE_CONST,
  AE_DIM,
  AE_SYM,
  /* XLA's symbolic expressions (V2) also have max and min of two operands;
   * the analysis never builds them, only the map reader does. */
  AE_MAX,
  AE_MIN,
} ae_kind;

enum { AE_F_DIM = 1, AE_F_SYM = 2, AE_F_MINMAX = 4 };

typedef struct ae ae;
struct ae {
  uint64_t hash;        /* structural hash, deterministic across runs */
  const ae *lhs, *rhs;  /* binary nodes only */
  int64_t value;        /* AE_CONST: the value; AE_DIM / AE_SYM: the position */
  int64_t lkd;          /* largest known divisor (MLIR getLargestKnownDivisor) */
  uint32_t tree_size;   /* node count when the DAG is walked as a tree (saturating at UINT32_MAX: the
                           limits it is held to are far below) */
  uint32_t depth;       /* 1 for leaves */
  uint32_t id;          /* creation number within the context */
  uint8_t kind;         /* ae_kind */
  uint8_t flags;        /* AE_F_DIM: contains a dimension; AE_F_SYM: a symbol; AE_F_MINMAX: a max or min */
};

typedef struct ae_ctx ae_ctx;

/* ---- context -------------------------------------------------------------- */
ae_ctx *ae_ctx_new(void);
void ae_ctx_free(ae_ctx *c);
/* Number of distinct nodes created so far. */
size_t ae_ctx_node_count(const ae_ctx *c);
/* A scope: the nodes made from ae_ctx_scope_begin to ae_ctx_scope_end are
 * forgotten and their memory released at the end, so work whose
 * expressions nothing keeps past it (one tiling's offsets of 100,000
 * operands, sixteen tilings in a row) takes the memory of one. The caller
 * keeps no node made inside past the end. A begin inside a scope does
 * nothing (the outer scope holds), and its end too. */
void ae_ctx_scope_begin(ae_ctx *c);
void ae_ctx_scope_end(ae_ctx *c);

/* Budget. A limit on the total node count (0 = none) and on node depth
 * (default AE_DEFAULT_MAX_DEPTH). Constructors always return a correct node;
 * when a limit is crossed they set a sticky status bit instead, and long
 * operations (simplify, compose) check it and stop early with an error so
 * callers can report "analysis too large". For a per-operation budget:
 * ae_ctx_set_node_limit(c, ae_ctx_node_count(c) + N), run, check, restore. */
#define AE_DEFAULT_MAX_DEPTH 4000u
enum { AE_STATUS_OK = 0, AE_STATUS_TOO_MANY_NODES = 1, AE_STATUS_TOO_DEEP = 2 };
void ae_ctx_set_node_limit(ae_ctx *c, size_t limit);
size_t ae_ctx_node_limit(const ae_ctx *c);
void ae_ctx_set_max_depth(ae_ctx *c, uint32_t max_depth);
unsigned ae_ctx_status(const ae_ctx *c); /* AE_STATUS_* bits */
void ae_ctx_clear_status(ae_ctx *c);

/* ---- leaves ----------------------------------------------------------------- */
const ae *ae_const(ae_ctx *c, int64_t v);
const ae *ae_dim(ae_ctx *c, uint32_t pos);
const ae *ae_sym(ae_ctx *c, uint32_t pos);

/* ---- smart constructors (§6.1) --------------------------------------------- */
const ae *ae_add(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_mul(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_floordiv(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_ceildiv(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_mod(ae_ctx *c, const ae *a, const ae *b);
/* max(a, b), min(a, b): constants fold, equal operands give the operand,
 * a constant goes to the right. */
const ae *ae_max(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_min(ae_ctx *c, const ae *a, const ae *b);
/* Dispatch on an ae_kind (binary kinds only). */
const ae *ae_binary(ae_ctx *c, ae_kind k, const ae *a, const ae *b);
/* Helpers: a + v, a * v, a floordiv v, a mod v with a constant v; a - b;
 * -a (= a * -1). */
const ae *ae_add_const(ae_ctx *c, const ae *a, int64_t v);
const ae *ae_mul_const(ae_ctx *c, const ae *a, int64_t v);
const ae *ae_floordiv_const(ae_ctx *c, const ae *a, int64_t v);
const ae *ae_ceildiv_const(ae_ctx *c, const ae *a, int64_t v);
const ae *ae_mod_const(ae_ctx *c, const ae *a, int64_t v);
const ae *ae_sub(ae_ctx *c, const ae *a, const ae *b);
const ae *ae_neg(ae_ctx *c, const ae *a);

/* The node as given, without canonicalisation: only for tests and for the
 * few places where XLA inserts an expression built elsewhere. */
const ae *ae_raw(ae_ctx *c, ae_kind k, const ae *a, const ae *b);

/* ---- queries -------------------------------------------------------------- */
static inline bool ae_is_binary(const ae *e) { return e->kind <= AE_CEILDIV || e->kind >= AE_MAX; }
static inline bool ae_is_minmax(const ae *e) { return e->kind >= AE_MAX; }
static inline bool ae_is_const(const ae *e) { return e->kind == AE_CONST; }
static inline bool ae_is_const_value(const ae *e, int64_t v) { return e->kind == AE_CONST && e->value == v; }
/* "Symbolic" in MLIR's sense: contains no dimension. */
static inline bool ae_is_symbolic(const ae *e) { return !(e->flags & AE_F_DIM); }
static inline bool ae_has_dim(const ae *e) { return (e->flags & AE_F_DIM) != 0; }
static inline bool ae_has_sym(const ae *e) { return (e->flags & AE_F_SYM) != 0; }
static inline bool ae_has_minmax(const ae *e) { return (e->flags & AE_F_MINMAX) != 0; }
/* MLIR's getLargestKnownDivisor (cached). */
static inline int64_t ae_lkd(const ae *e) { return e->lkd; }

/* Term order of XLA's simplifier (§6.4): <0, 0, >0. Total on distinct nodes;
 * O(depth) thanks to hash-consing. */
int ae_term_compare(const ae *a, const ae *b);

/* ---- point evaluation -------------------------------------------------------- */
/* Value of e at the point (dims, syms). Returns false on int64 overflow,
 * division by zero or a variable outside the given arrays. Memoised on
 * large DAGs (linear time in the DAG size). */
bool ae_eval_point(const ae *e, const int64_t *dims, size_t ndims, const int64_t *syms, size_t nsyms,
                   int64_t *out);

/* ---- substitution (§5.1) ------------------------------------------------------- */
/* Replaces dimension i by dims[i] and symbol j by syms[j] (NULL entries and
 * positions beyond the arrays are kept). Unchanged subtrees are returned as
 * is; changed ones are rebuilt with the constructors. One call memoises its
 * walk; use ae_subst_many to share the memo between several expressions. */
const ae *ae_subst(ae_ctx *c, const ae *e, const ae *const *dims, size_t ndims, const ae *const *syms,
                   size_t nsyms);
void ae_subst_many(ae_ctx *c, size_t n, const ae *const *in, const ae **out, const ae *const *dims,
                   size_t ndims, const ae *const *syms, size_t nsyms);

/* ---- walks ------------------------------------------------------------------- */
/* Marks used[p] = true for every symbol position p < nsyms occurring in e
 * (and dims likewise); memoised DAG walks. Either array may be NULL. */
void ae_collect_vars(const ae *e, bool *dims_used, size_t ndims, bool *syms_used, size_t nsyms);

#endif
