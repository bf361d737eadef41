/* CuTe's layout algebra on shape:stride layouts (ss_layout.h), CATLASS's
 * MakeLayoutTile and the Ascend fractal formats.
 *
 *   coalesce(L)          the same function of the 1-D index with the fewest
 *                        modes: size-1 modes dropped, neighbours s0:d0, s1:d1
 *                        with d1 = s0 * d0 merged into s0*s1:d0; flat
 *   coalesce by mode     coalesce of each top-level mode, the rank kept
 *   composition(A, B)    R(c) = A(B(c)), R shaped like B: by leaf of B; a
 *                        leaf s:d of B cuts A's flattened modes: the stride d
 *                        divides A's modes from the left, the size s keeps
 *                        as many of the rest as it needs (A's last mode is
 *                        unbounded). Defined when the cuts fall on mode
 *                        boundaries (CuTe's divisibility conditions); where
 *                        the elements B reaches fit in one mode of A no
 *                        boundary is needed.
 *   complement(A, M)     the layout whose offsets, with A's, tile [0, M)
 *                        rounded up: A's modes (stride > 0, size > 1) by
 *                        stride, each gap a mode, then the rest up to M
 *   make_layout(A, B..)  the layouts as the modes of one
 *   logical_divide(A, B) composition(A, make_layout(B, complement(B, size(A))))
 *   logical_product(A, B) make_layout(A, composition(complement(A,
 *                        size(A) * cosize(B)), B))
 *   by mode (a tiler [B0, B1, ...]): mode i of A with Bi, A's other modes kept
 *   make_layout_tile(L, T) CATLASS MakeLayoutTile: L's strides with the shape
 *                        of a tile T: a flat mode takes T's extent; a nested
 *                        mode (inner..., outer) keeps its inner sizes and
 *                        takes ceil(extent / product(inner)) as its outer
 *   fractal(F, type, rows, cols[, c0_blocks]) CATLASS layout::zN, nZ, zZ, nN:
 *                        C0 = 32 bytes of elements; a fractal is c0_blocks
 *                        (CATLASS's C0_NUM_PER_FRACTAL, 16) C0 blocks: 16
 *                        rows of C0 for z, 16 columns of C0 for n; the
 *                        matrix is padded up to whole fractals; z/n inside a
 *                        fractal = row/column-major, Z/N between fractals =
 *                        row/column-major.
 * Each returns NULL with *err when undefined or over the limits. */
#ifndef HLOIDX_SS_ALGEBRA_H
#define HLOIDX_SS_ALGEBRA_H

#include "ss_layout.h"

ss_layout *ss_coalesce(hb_arena *a, const ss_layout *l, ss_error *err);
ss_layout *ss_coalesce_modes(hb_arena *a, const ss_layout *l, ss_error *err);
ss_layout *ss_composition(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err);
ss_layout *ss_complement(hb_arena *a, const ss_layout *l, int64_t cotarget, ss_error *err);
ss_layout *ss_make_layout(hb_arena *a, const ss_layout *const *parts, uint32_t n, ss_error *err);
ss_layout *ss_logical_divide(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err);
ss_layout *ss_logical_product(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err);
/* By mode: op(mode i of A, tiler[i]) for i < n, A's later modes as they are. */
typedef ss_layout *(*ss_binary_op)(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err);
ss_layout *ss_by_mode(hb_arena *a, ss_binary_op op, const ss_layout *A, const ss_layout *const *tiler, uint32_t n,
                      ss_error *err);
ss_layout *ss_make_layout_tile(hb_arena *a, const ss_layout *l, const int64_t *tile, uint32_t n, ss_error *err);

typedef enum { SS_ZN, SS_NZ, SS_ZZ, SS_NN } ss_fractal;
/* elem_bits: the element type's bits (a multiple of 8 dividing 256, or 4 or
 * 2 or 1: 256 / elem_bits elements per C0). */
ss_layout *ss_fractal_layout(hb_arena *a, ss_fractal f, int elem_bits, int64_t rows, int64_t cols, int64_t c0_blocks,
                             ss_error *err);
const char *ss_fractal_name(ss_fractal f);

#endif
