/* The layout queries of --layout and --shape-stride (--at, --offset,
 * --grid), and XLA shapes inside layout expressions.
 *
 * Answers, one line each, INDENT spaces in:
 *   crd2offset((1,5)) = 37
 *   offset 37: (1,5) = ((1,0),(1,1))          (every coordinate, at most 8 listed)
 *   grid (row: coordinate 0, column: coordinate 1, cell: offset):
 *   <the table, for a layout of rank 1 or 2 with at most 64 x 64 cells>
 * For an XLA layout the coordinates are the logical indices (a flat tuple
 * of rank values, inside the dims; offsets of padding show as padding);
 * for a shape:stride layout any coordinate CuTe accepts: a 1-D index, a
 * top-level tuple or a nested one. A query that does not fit the layout
 * (a rank-3 coordinate for a rank-2 layout) is answered with the reason. */
#ifndef HLOIDX_LAYOUT_QUERY_H
#define HLOIDX_LAYOUT_QUERY_H

#include "../parser/base/arena.h"
#include "hlo_ir.h"
#include "options.h"
#include "ss_layout.h"
#include "ss_read.h"
#include "../parser/base/strbuf.h"
#include "tiled_layout.h"

typedef struct {
  const ss_layout *ss;  /* the shape:stride layout; NULL when an XLA layout has none */
  const tl_layout *xla; /* the XLA layout, or NULL */
} lq_target;

/* Appends the answers of o's --at, --offset and --grid options for t. */
void lq_answer(hb_strbuf *b, hb_arena *a, const hloidx_options *o, const lq_target *t, int indent);
/* Any query asked? */
bool lq_any(const hloidx_options *o);

/* XLA shapes in layout expressions: the closure of lq_resolve_xla. Each
 * shape is parsed by the HLO parser (wrapped into a one-instruction module)
 * and kept until lq_xla_free. */
typedef struct {
  hb_arena *a;
  ae_ctx *ctx;
  /* the last shape resolved, and its analysed layout */
  const hlo_shape *shape;
  tl_layout layout;
  /* what to free */
  struct lq_parsed *parsed;
} lq_xla;

/* Parses the XLA shape text[start, end) into x->shape and analyses its
 * layout into x->layout; false with *err. */
bool lq_parse_xla(lq_xla *x, const char *text, size_t start, size_t end, ss_read_error *err);
/* lq_parse_xla, then its shape:stride form (an ss_xla_resolver; cl is an lq_xla). */
const ss_layout *lq_resolve_xla(void *cl, const char *text, size_t start, size_t end, ss_read_error *err);
void lq_xla_free(lq_xla *x);

/* --kernel-layout: false (with the message printed) when its text does not read. */
bool lq_check_kernel(const hloidx_options *o);
/* One line: does the kernel layout give the offsets of the result of in (or
 * of --operand K)? `equal`, or `not equal` with a witness element
 * a logical index where they differ). False with msg
 * when there is nothing to compare (no such operand, not an array). */
bool lq_compare_kernel(hb_strbuf *b, hb_arena *a, ae_ctx *ctx, const hloidx_options *o, const hlo_instr *in, char *msg,
                       size_t cap);

#endif
