/* Matrix factorisations and solves (hloidx's semantics; XLA has no rule).
 * The batch dimensions map to themselves; the two minor dimensions are
 * the matrix, (i, j) below.
 *
 *   CHOLESKY  a = l l^T with `lower=true` (l^T l with false). Only the
 *             lower (upper) triangle of a is read. By the recurrence
 *             l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj, an element of the
 *             result on or below the diagonal (i >= j) reads a_pq with
 *             q <= p <= j (the factor of the leading j+1 rows) and a_iq with
 *             q <= j (its own row); upper: the transpose. The other triangle
 *             of the result is implementation-defined: any element of the
 *             matrix read.
 *   TRISOLVE  op(a) x = b (left_side) or x op(a) = b, op transposing a when
 *             transpose_a is TRANSPOSE or ADJOINT, only a's `lower` (or
 *             upper) triangle read, its diagonal not at all with
 *             unit_diagonal. With T = op(a) lower triangular and left_side
 *             (forward substitution) x_ij reads b_kj for k <= i and T_pq for
 *             q <= p <= i; the three other cases are the mirror images (an
 *             upper T substitutes backwards: k >= i, i <= p <= q; the right
 *             side works on the rows of x with T transposed).
 *
 * Each "<=" between two indices is a constraint of the map (`e in [0,
 * n-1]` for e = the larger minus the smaller). */
#include "ii_internal.h"

/* Constraint lo_expr <= hi_expr (or < when strict) within an n x n matrix. */
static void le(ii_ctx *c, imap *m, const ae *lo, const ae *hi, bool strict, int64_t n) {
  imap_add_constraint(m, ae_sub(c->ae, hi, lo), iv_make(strict ? 1 : 0, n - 1));
}

/* A map over the output O (batch dims, then i, j) with NRANGE range
 * variables of size n whose results are the batch dims then (P, Q). */
static imap *matrix_map(ii_ctx *c, const hlo_shape *o, uint32_t nrange, int64_t n, const ae *p, const ae *q) {
  uint32_t r = ii_rank(o);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i + 2 < r; i++) res[i] = D(c, i);
  res[r - 2] = p;
  res[r - 1] = q;
  int64_t sizes[2] = {n, n};
  return ii_map(c, r, ii_dims(o), nrange, sizes, r, res);
}

/* Square matrices of size *n in the two minor dims of x, whose other dims
 * match o's. */
static bool square(const hlo_shape *x, const hlo_shape *o, int64_t *n) {
  if (!ii_is_array(x) || !ii_is_array(o) || x->rank < 2 || x->rank != o->rank) return false;
  *n = x->dims[x->rank - 1];
  return x->dims[x->rank - 2] == *n;
}

ii_status ii_cholesky_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  int64_t n;
  if (in->n_operands != 1 || !square(x, o, &n) || !ii_same_dims(x, o))
    return ii_fail(err, in, "cholesky '%s' needs square matrices of the result's shape", in->name);
  bool lower = ii_attr_bool(in, "lower", false);
  uint32_t r = ii_rank(o);
  /* in lower's terms: (i, j) = (row, column), an upper factor swaps them */
  const ae *i = D(c, r - 2), *j = D(c, r - 1);
  if (!lower) i = D(c, r - 1), j = D(c, r - 2);
  const ae *s0 = S(c, 0), *s1 = S(c, 1);
  ii_indexing_init(c, out, 1);
  /* the leading factor: a_pq, q <= p <= j */
  imap *lead = lower ? matrix_map(c, o, 2, n, s0, s1) : matrix_map(c, o, 2, n, s1, s0);
  le(c, lead, s1, s0, false, n);
  le(c, lead, s0, j, false, n);
  le(c, lead, j, i, false, n);
  ii_add(c, out, 0, lead);
  /* its own row: a_iq, q <= j */
  imap *row = lower ? matrix_map(c, o, 1, n, i, s0) : matrix_map(c, o, 1, n, s0, i);
  le(c, row, s0, j, false, n);
  le(c, row, j, i, false, n);
  ii_add(c, out, 0, row);
  /* the other triangle: implementation-defined */
  imap *other = matrix_map(c, o, 2, n, s0, s1);
  le(c, other, i, j, true, n);
  ii_add(c, out, 0, other);
  return II_OK;
}

ii_status ii_trisolve_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_shape *a = in->operands[0]->shape, *b = in->operands[1]->shape, *o = in->shape;
  int64_t n;
  bool left = ii_attr_bool(in, "left_side", false);
  if (in->n_operands != 2 || !square(a, o, &n) || !ii_same_dims(b, o) ||
      n != o->dims[o->rank - (left ? 2 : 1)])
    return ii_fail(err, in, "triangular-solve '%s' needs a square a matching b's %s dimension", in->name,
                   left ? "row" : "column");
  bool lower = ii_attr_bool(in, "lower", false), unit = ii_attr_bool(in, "unit_diagonal", false);
  bool trans = ii_attr_is(in, "transpose_a", "TRANSPOSE") || ii_attr_is(in, "transpose_a", "ADJOINT");
  bool t_lower = lower != trans; /* T = op(a) */
  uint32_t r = ii_rank(o);
  const ae *i = D(c, r - 2), *j = D(c, r - 1), *s0 = S(c, 0), *s1 = S(c, 1);
  /* x T = b is T^T x^T = b^T: the column index and a transposed T */
  const ae *pos = left ? j : i, *at = left ? i : j; /* the independent index; the substituted one */
  bool fwd = left ? t_lower : !t_lower;
  ii_indexing_init(c, out, 2);
  /* b: the same independent index, k on the substituted side (k <= at forward, >= backward) */
  imap *bm = left ? matrix_map(c, o, 1, n, s0, pos) : matrix_map(c, o, 1, n, pos, s0);
  if (fwd) le(c, bm, s0, at, false, n);
  else le(c, bm, at, s0, false, n);
  ii_add(c, out, 1, bm);
  /* T_pq in the substitution order: forward q <= p <= at, backward at <= p <= q
   * (p = s0, q = s1 in T^T for the right side); then a = T or T^T */
  const ae *p = s0, *q = s1;
  bool swap = !left; /* T^T */
  if (trans) swap = !swap;
  imap *am = swap ? matrix_map(c, o, 2, n, q, p) : matrix_map(c, o, 2, n, p, q);
  if (fwd) {
    le(c, am, q, p, unit, n);
    le(c, am, p, at, false, n);
  } else {
    le(c, am, p, q, unit, n);
    le(c, am, at, p, false, n);
  }
  ii_add(c, out, 0, am);
  return II_OK;
}
