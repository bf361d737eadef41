/* Reshape (the map builder of indexing-semantics.md §3.10) and bitcast
 * (§3.11: as a reshape, a transpose, or transpose-reshape-transpose, using
 * the minor_to_major layouts). Both are simplified in point-preserving mode
 * (§6.7). */
#include <string.h>

#include "ii_internal.h"

/* ---- the builder R(A, B) ----------------------------------------------------------------------------- */

/* 0 + e_0*stride_0 + e_1*stride_1 + ... (row-major strides), left to right. */
static const ae *linearize(ii_ctx *c, uint32_t n, const int64_t *dims, const ae *const *exprs) {
  const ae *acc = K(c, 0);
  int64_t stride = 1;
  int64_t *strides = hb_arena_array(c->scratch, n ? n : 1, sizeof *strides);
  for (uint32_t i = n; i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i]; /* element counts fit in int64 (checked on entry) */
  }
  for (uint32_t i = 0; i < n; i++) acc = ae_add(c->ae, acc, ae_mul(c->ae, exprs[i], K(c, strides[i])));
  return acc;
}

/* For each row-major stride: rem floordiv stride, then rem = rem mod stride. */
static void delinearize(ii_ctx *c, uint32_t n, const int64_t *dims, const ae *x, const ae **out) {
  int64_t *strides = hb_arena_array(c->scratch, n ? n : 1, sizeof *strides);
  int64_t stride = 1;
  for (uint32_t i = n; i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  const ae *rem = x;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = ae_floordiv(c->ae, rem, K(c, strides[i]));
    rem = ae_mod(c->ae, rem, K(c, strides[i]));
  }
}

/* Results of R(A, B) (not simplified): a map over B's dims indexing A. */
static const ae **reshape_exprs(ii_ctx *c, uint32_t ra, const int64_t *A, uint32_t rb, const int64_t *B) {
  const ae **res = ii_exprs(c, ra);
  int64_t na_total = 1;
  for (uint32_t i = 0; i < ra; i++) na_total *= A[i];
  if (na_total == 0) {
    for (uint32_t i = 0; i < ra; i++) res[i] = K(c, 0);
    return res;
  }
  /* group buffers: indices into A and B */
  uint32_t *ga = hb_arena_array(c->scratch, ra ? ra : 1, sizeof *ga);
  uint32_t *gb = hb_arena_array(c->scratch, rb ? rb : 1, sizeof *gb);
  int64_t *gdims = hb_arena_array(c->scratch, (ra > rb ? ra : rb) + 1, sizeof *gdims);
  const ae **gexprs = ii_exprs(c, rb);
  const ae **tmp = ii_exprs(c, ra);
  uint32_t ia = 0, ib = 0, nga = 0, ngb = 0, nres = 0;
  int64_t na = 1, nb = 1;
  while (ia < ra || ib < rb || nga > 0) {
    if (ia < ra && (nga == 0 || na < nb)) {
      ga[nga++] = ia;
      na *= A[ia++];
      continue;
    }
    if (ib < rb && (ngb == 0 || nb < na)) {
      gb[ngb++] = ib;
      nb *= B[ib++];
      continue;
    }
    /* emit the group (GA, GB) */
    for (uint32_t j = 0; j < ngb; j++) gexprs[j] = D(c, gb[j]);
    if (nga == 1 && ngb == 1) {
      res[nres++] = gexprs[0];
    } else if (nga == 1) {
      for (uint32_t j = 0; j < ngb; j++) gdims[j] = B[gb[j]];
      res[nres++] = linearize(c, ngb, gdims, gexprs);
    } else {
      const ae *x;
      if (ngb == 1) {
        x = gexprs[0];
      } else {
        for (uint32_t j = 0; j < ngb; j++) gdims[j] = B[gb[j]];
        x = linearize(c, ngb, gdims, gexprs);
      }
      for (uint32_t j = 0; j < nga; j++) gdims[j] = A[ga[j]];
      delinearize(c, nga, gdims, x, tmp);
      for (uint32_t j = 0; j < nga; j++) res[nres++] = tmp[j];
    }
    na = nb = 1;
    nga = ngb = 0;
  }
  return res;
}

imap *ii_reshape_map(ii_ctx *c, uint32_t ra, const int64_t *A, uint32_t rb, const int64_t *B) {
  const ae **res = reshape_exprs(c, ra, A, rb, B);
  imap *m = ii_map(c, rb, B, 0, NULL, ra, res);
  ii_simplify_map(c, m, SIMPLIFY_PRESERVE_POINTS);
  return m;
}

static int64_t elements(const hlo_shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i]; /* checked on entry */
  return n;
}

static ii_status reshape_check(const hlo_instr *in, ii_error *err) {
  const hlo_shape *r = in->shape, *o = in->operands[0]->shape;
  if (!ii_is_array(r) || !ii_is_array(o) || elements(r) != elements(o))
    return ii_fail(err, in, "reshape '%s' must keep the number of elements", in->name);
  return II_OK;
}

ii_status ii_reshape_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (reshape_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape, *o = in->operands[0]->shape;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_reshape_map(c, ii_rank(o), ii_dims(o), ii_rank(r), ii_dims(r)));
  return II_OK;
}

ii_status ii_reshape_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  if (reshape_check(in, err) != II_OK) return II_ERROR;
  const hlo_shape *r = in->shape, *o = in->operands[0]->shape;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_reshape_map(c, ii_rank(r), ii_dims(r), ii_rank(o), ii_dims(o)));
  return II_OK;
}

/* ---- bitcast ---------------------------------------------------------------------------------------- */

/* Physical linear offset of idx in s (strides in minor_to_major order). */
static int64_t physical_offset(const hlo_shape *s, const int64_t *idx) {
  int64_t lin = 0, scale = 1;
  for (int k = 0; k < s->rank; k++) {
    int64_t d = s->layout.minor_to_major[k];
    lin += scale * idx[d];
    scale *= s->dims[d];
  }
  return lin;
}

/* One direction of XLA's ShapeUtil::ReshapeIsBitcast: every unit index of x
 * keeps its physical offset when moved to y by a row-major reshape. */
static bool unit_indices_stay(ii_ctx *c, const hlo_shape *x, const hlo_shape *y) {
  int64_t *ux = hb_arena_array(c->scratch, (size_t)x->rank + 1, sizeof *ux);
  int64_t *uy = hb_arena_array(c->scratch, (size_t)y->rank + 1, sizeof *uy);
  for (int k = 0; k < x->rank; k++) {
    if (x->dims[k] <= 1) continue;
    memset(ux, 0, (size_t)x->rank * sizeof *ux);
    ux[k] = 1;
    int64_t lin = 0;
    for (int i = 0; i < x->rank; i++) lin = lin * x->dims[i] + ux[i];
    for (int i = y->rank; i-- > 0;) {
      uy[i] = y->dims[i] ? lin % y->dims[i] : 0;
      lin = y->dims[i] ? lin / y->dims[i] : 0;
    }
    if (physical_offset(x, ux) != physical_offset(y, uy)) return false;
  }
  return true;
}

static bool reshape_is_bitcast(ii_ctx *c, const hlo_shape *x, const hlo_shape *y) {
  if (elements(x) == 0) return true;
  return unit_indices_stay(c, x, y) && unit_indices_stay(c, y, x);
}

static uint32_t *inverse_perm(ii_ctx *c, uint32_t n, const int64_t *p) {
  uint32_t *inv = hb_arena_array(c->scratch, n ? n : 1, sizeof *inv);
  for (uint32_t i = 0; i < n; i++) inv[p[i]] = i;
  return inv;
}

/* B(X, Y): a map over X's dims indexing Y, before the final simplification;
 * NULL when the bitcast cannot be decomposed. */
static imap *bitcast_map(ii_ctx *c, const hlo_shape *x, const hlo_shape *y) {
  if (!ii_is_array(x) || !ii_is_array(y) || elements(x) != elements(y)) return NULL;
  uint32_t rx = (uint32_t)x->rank, ry = (uint32_t)y->rank;
  const int64_t *mx = x->layout.minor_to_major, *my = y->layout.minor_to_major;
  if ((rx && !mx) || (ry && !my)) return NULL;
  /* 1. reshape */
  if (reshape_is_bitcast(c, x, y)) return ii_reshape_map(c, ry, y->dims, rx, x->dims);
  /* 2. transpose: perm = compose(mX, inverse(mY)), Y.dims[i] == X.dims[perm[i]] */
  if (rx == ry) {
    uint32_t *inv_my = inverse_perm(c, ry, my);
    uint32_t *perm = hb_arena_array(c->scratch, rx ? rx : 1, sizeof *perm);
    bool ok = true;
    for (uint32_t i = 0; i < rx; i++) {
      perm[i] = (uint32_t)mx[inv_my[i]];
      ok &= y->dims[i] == x->dims[perm[i]];
    }
    if (ok) return imap_permutation(c->scratch, c->ae, rx, x->dims, perm);
  }
  /* 3. transpose-reshape-transpose */
  int64_t *t1s = hb_arena_array(c->scratch, rx ? rx : 1, sizeof *t1s);
  int64_t *rss = hb_arena_array(c->scratch, ry ? ry : 1, sizeof *rss);
  const ae **t1 = ii_exprs(c, rx);
  for (uint32_t i = 0; i < rx; i++) {
    uint32_t d = (uint32_t)mx[rx - 1 - i];
    t1s[i] = x->dims[d];
    t1[i] = D(c, d); /* P(t1): physical coordinate i of X is logical d_{mX[r-1-i]} */
  }
  for (uint32_t i = 0; i < ry; i++) rss[i] = y->dims[my[ry - 1 - i]];
  imap *r = ii_reshape_map(c, ry, rss, rx, t1s); /* over T1s, indexing RSs */
  const ae **mid = ii_exprs(c, ry);
  ae_subst_many(c->ae, ry, r->results, mid, t1, rx, NULL, 0);
  uint32_t *inv_my = inverse_perm(c, ry, my);
  const ae **res = ii_exprs(c, ry);
  for (uint32_t i = 0; i < ry; i++) res[i] = mid[ry - 1 - inv_my[i]]; /* t2[i] = ry-1-inverse(mY)[i] */
  return ii_map(c, rx, x->dims, 0, NULL, ry, res);
}

static ii_status bitcast(ii_ctx *c, const hlo_shape *x, const hlo_shape *y, ii_indexing *out) {
  imap *m = bitcast_map(c, x, y);
  ii_indexing_init(c, out, 1);
  if (!m) {
    int64_t nx = hlo_shape_elements(x), ny = hlo_shape_elements(y);
    ii_add_unknown(c, out, 0, nx != ny ? ii_why(c, "a bitcast between %lld and %lld elements", (long long)(nx < ny ? nx : ny), (long long)(nx < ny ? ny : nx))
                                       : ii_why(c, "a bitcast whose layouts are no transpose-reshape-transpose"));
    return II_OK;
  }
  ii_simplify_map(c, m, SIMPLIFY_PRESERVE_POINTS);
  ii_add(c, out, 0, m);
  return II_OK;
}

ii_status ii_bitcast_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  return bitcast(c, in->shape, in->operands[0]->shape, out);
}

ii_status ii_bitcast_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  return bitcast(c, in->operands[0]->shape, in->shape, out);
}
