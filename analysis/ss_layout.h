/* Shape:stride layouts (CuTe, CATLASS TLA): a layout is a tree whose leaves
 * are modes `size:stride`; `((4,2),(4,3)):((4,16),(1,32))` is a rank-2
 * layout whose modes are themselves pairs of leaves.
 *
 * Meaning (CuTe). A coordinate of a tuple node is either a tuple with one
 * coordinate per child, or one integer x in [0, size(node)) that is split
 * over the children colexicographically (the first child fastest: x mod
 * size(child 0), then (x div size(child 0)) mod size(child 1), ...). A leaf's
 * coordinate c contributes c * stride; the offset of a coordinate is the
 * sum over the leaves (crd2offset). The 1-D index of a layout is the
 * coordinate of its root. size = the product of the leaf sizes; cosize =
 * the largest offset + 1 (strides are never negative here).
 *
 * Here sizes are at least 1 and strides at least 0 (CuTe's algebra —
 * coalesce, complement, divide — assumes this); sizes, products and
 * offsets are checked against SS_MAX_VALUE, the tree against SS_MAX_LEAVES
 * and SS_MAX_DEPTH. Layouts are immutable and live in an arena. Nothing
 * here prints to stdout or exits. */
#ifndef HLOIDX_SS_LAYOUT_H
#define HLOIDX_SS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "indexing_map.h"
#include "../parser/base/strbuf.h"

#define SS_MAX_LEAVES 256
#define SS_MAX_DEPTH 32
#define SS_MAX_VALUE ((int64_t)1 << 62)

typedef struct ss_layout ss_layout;
struct ss_layout {
  uint32_t n;              /* 0: a leaf; otherwise the number of children */
  int64_t size, stride;    /* a leaf's mode; a tuple's size is the product of its leaves' */
  const ss_layout *child;  /* n children */
};

typedef struct {
  char message[200];
} ss_error;

/* A mode of a flattened layout. */
typedef struct {
  int64_t size, stride;
} ss_mode;

/* ---- building --------------------------------------------------------------------------------- */

ss_layout *ss_leaf(hb_arena *a, int64_t size, int64_t stride);
/* A tuple of n sub-layouts (copied by value); its size is checked. NULL
 * with *err when it exceeds SS_MAX_VALUE, SS_MAX_LEAVES or SS_MAX_DEPTH. */
ss_layout *ss_tuple(hb_arena *a, const ss_layout *children, uint32_t n, ss_error *err);
/* Flat modes as a layout: 1:0 for none, the leaf for one, else a tuple. */
ss_layout *ss_from_modes(hb_arena *a, const ss_mode *m, uint32_t n, ss_error *err);

/* ---- properties ----------------------------------------------------------------------------------- */

static inline bool ss_is_leaf(const ss_layout *l) { return l->n == 0; }
/* Top-level modes: 1 for a leaf, else the number of children. */
static inline uint32_t ss_rank(const ss_layout *l) { return l->n ? l->n : 1; }
/* Top-level mode i (the layout itself when it is a leaf). */
static inline const ss_layout *ss_mode_at(const ss_layout *l, uint32_t i) { return l->n ? &l->child[i] : l; }
int64_t ss_size(const ss_layout *l);
uint32_t ss_depth(const ss_layout *l); /* 0 for a leaf */
uint32_t ss_leaf_count(const ss_layout *l);
/* The leaves in order (out holds ss_leaf_count entries). */
void ss_flatten(const ss_layout *l, ss_mode *out);
/* Largest offset + 1 (checked when the layout was built). */
int64_t ss_cosize(const ss_layout *l);
bool ss_equal(const ss_layout *a, const ss_layout *b);

/* ---- text ------------------------------------------------------------------------------------------ */

/* `((4,2),(4,3)):((4,16),(1,32))`; a leaf `8:1`. */
void ss_print(hb_strbuf *b, const ss_layout *l);
/* The shape or the stride part alone. */
void ss_print_shape(hb_strbuf *b, const ss_layout *l);
void ss_print_stride(hb_strbuf *b, const ss_layout *l);

/* ---- coordinates and offsets ---------------------------------------------------------------------- */

/* A coordinate: an integer (n == 0) or a tuple of n coordinates. */
typedef struct ss_coord ss_coord;
struct ss_coord {
  uint32_t n;
  int64_t value;
  const ss_coord *child;
};

/* Reads `(1,5)`, `((1,0),(1,1))`, `21`, or `1,5` (a top-level tuple without
 * its parentheses); `_N` spellings allowed. NULL with *err on bad text. */
ss_coord *ss_read_coord(hb_arena *a, const char *text, ss_error *err);
void ss_print_coord(hb_strbuf *b, const ss_coord *c);

/* crd2offset: the offset of c, which must be congruent with l where it is a
 * tuple and in range everywhere. False with *err otherwise. */
bool ss_crd2offset(const ss_layout *l, const ss_coord *c, int64_t *offset, ss_error *err);
/* The offset of the 1-D index x (0 <= x < size). */
int64_t ss_index_offset(const ss_layout *l, int64_t x);
/* The offset of the top-level coordinate x[0..rank): x[i] in [0, size of mode i). */
int64_t ss_top_offset(const ss_layout *l, const int64_t *x);
/* The top-level coordinate (rank values) and the full hierarchical
 * coordinate of the 1-D index x. */
void ss_index_top(const ss_layout *l, int64_t x, int64_t *top);
ss_coord *ss_index_coord(hb_arena *a, const ss_layout *l, int64_t x);

/* Offset -> coordinates: the 1-D indices whose offset is `offset`, in
 * increasing order, at most `max` of them in idx; *count gets how many
 * there are in all (or a lower bound when *complete is false: the search
 * stopped at its work limit). */
void ss_offset_indices(const ss_layout *l, int64_t offset, int64_t *idx, uint32_t max, uint64_t *count,
                       bool *complete);

/* Injective (no two coordinates share an offset) and compact (a bijection
 * onto [0, size)). Decided exactly: by the sorted strides when the modes
 * do not overlap, else by enumeration (layouts of at most 2^22 elements);
 * otherwise unknown. A witness pair of 1-D indices is
 * given when not injective; the first unused offset when injective but not
 * compact. */
typedef enum { SS_UNKNOWN, SS_NO, SS_YES } ss_tri;
typedef struct {
  ss_tri injective;
  bool compact;
  int64_t witness_a, witness_b; /* not injective: two indices with one offset */
  int64_t gap;                  /* injective, not compact: an offset no index reaches (-1: none) */
  int64_t unused;               /* injective: offsets in [0, cosize) no index reaches */
} ss_injectivity;
void ss_check_injective(const ss_layout *l, ss_injectivity *out);

/* ---- as indexing maps ------------------------------------------------------------------------------ */

/* (d0, ..., d{rank-1}) -> (offset), d_i over [0, dims[i] - 1] (dims NULL:
 * the modes' sizes), simplified. NULL with *err when simplifying exceeds
 * the expression budget. */
imap *ss_offset_map(hb_arena *a, ae_ctx *ctx, const ss_layout *l, const int64_t *dims, ss_error *err);
/* (d0) -> (top-level coordinate), d0 an offset in [0, cosize - 1], with the
 * constraints that keep exactly the offsets the layout reaches (and, with
 * dims, only the coordinates inside them: an XLA layout's padding).
 * Exists when the modes of size > 1, sorted by stride, nest: each stride a
 * multiple of the one before and at least that one times its size. NULL
 * with *why (and *err unset) when they do not; NULL with *err on a budget
 * error. */
imap *ss_inverse_map(hb_arena *a, ae_ctx *ctx, const ss_layout *l, const int64_t *dims, const char **why,
                     ss_error *err);

#endif
