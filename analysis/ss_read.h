/* Reader of layout expressions (hloidx --shape-stride, --kernel-layout):
 *
 *   expr   := layout | call | XLA-shape
 *   layout := tuple ':' tuple           shape and stride, congruent:
 *                                       (2,4):(12,1), ((4,2),(4,3)):((4,16),(1,32)), 8:1
 *   tuple  := INT | '(' tuple (',' tuple)* ')'      INT may be spelled _N (CuTe's static ints)
 *   call   := NAME '(' arg (',' arg)* ')'
 *   arg    := expr | tuple | '[' expr (',' expr)* ']' (a tiler: by mode) | NAME (an element type)
 *
 * Calls (ss_algebra.h): coalesce(L) and coalesce(L, (_,_)) (by mode: a
 * profile of '_' per top-level mode), composition(A, B), complement(L) and
 * complement(L, M), make_layout(L, ...), logical_divide(A, B|[B0, ...]),
 * logical_product(A, B|[B0, ...]), make_layout_tile(L, (R, C)) (also
 * MakeLayoutTile), and the fractals zN, nZ, zZ, nN(TYPE, ROWS, COLS
 * [, C0_BLOCKS]). An XLA shape (a name directly followed by '[', e.g.
 * f32[3,5]{1,0:T(2,2)}) is handed to the caller's resolver, which returns
 * its shape:stride layout (the analysis does not parse HLO text).
 * Whitespace is free; `//` starts a comment to the end of the text. */
#ifndef HLOIDX_SS_READ_H
#define HLOIDX_SS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "ss_layout.h"

typedef struct {
  size_t offset; /* of the problem, within the text */
  char message[200];
} ss_read_error;

/* Resolves the XLA shape text[start, end): its layout, or NULL with
 * err->message set (err->offset within the text). */
typedef const ss_layout *(*ss_xla_resolver)(void *cl, const char *text, size_t start, size_t end,
                                             ss_read_error *err);

typedef struct {
  const ss_layout *layout;
  int elem_bits;             /* a fractal's element type bits (the outermost call), else 0 */
  const char *elem_name;     /* its name ("f16"), else NULL */
  bool xla;                  /* the expression is one XLA shape ... */
  size_t xla_start, xla_end; /* ... at text[xla_start, xla_end) */
} ss_read_result;

/* Nesting limit of calls, tuples and tilers. */
#define SS_READ_MAX_NESTING 64

/* Reads one expression from text[start, end). */
bool ss_read(hb_arena *a, const char *text, size_t start, size_t end, ss_xla_resolver xla, void *cl, ss_read_result *out,
             ss_read_error *err);

#endif
