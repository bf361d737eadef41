#include "ss_algebra.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"

__attribute__((format(printf, 2, 3))) static ss_layout *fail(ss_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return NULL;
}

static ss_mode *flat_of(hb_arena *a, const ss_layout *l, uint32_t *n) {
  *n = ss_leaf_count(l);
  ss_mode *m = hb_arena_array(a, *n, sizeof *m);
  ss_flatten(l, m);
  return m;
}

/* Coalesces m[0..n) in place; returns the new count. */
static uint32_t coalesce_modes(ss_mode *m, uint32_t n) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (m[i].size == 1) continue;
    /* within a checked layout size * stride cannot overflow unless it is
     * beyond every offset: then it is no match either */
    int64_t next;
    if (k > 0 && hb_ck_mul(m[k - 1].size, m[k - 1].stride, &next) && next == m[i].stride) {
      m[k - 1].size *= m[i].size;
      continue;
    }
    m[k++] = m[i];
  }
  return k;
}

ss_layout *ss_coalesce(hb_arena *a, const ss_layout *l, ss_error *err) {
  uint32_t n;
  ss_mode *m = flat_of(a, l, &n);
  return ss_from_modes(a, m, coalesce_modes(m, n), err);
}

ss_layout *ss_coalesce_modes(hb_arena *a, const ss_layout *l, ss_error *err) {
  if (ss_is_leaf(l)) return ss_coalesce(a, l, err);
  ss_layout *ch = hb_arena_array(a, l->n, sizeof *ch);
  for (uint32_t i = 0; i < l->n; i++) {
    ss_layout *c = ss_coalesce(a, &l->child[i], err);
    if (!c) return NULL;
    ch[i] = *c;
  }
  return ss_tuple(a, ch, l->n, err);
}

/* A's coalesced modes composed with the leaf s:d. foot[i] (i < k - 1)
 * grows by the largest digit the leaf's offsets {c * d} put in mode i. */
static ss_layout *compose_leaf(hb_arena *a, const ss_mode *am, uint32_t k, int64_t s, int64_t d, int64_t *foot,
                               ss_error *err) {
  if (d == 0 || s == 1 || k == 0) return ss_leaf(a, s, 0);
  ss_mode *out = hb_arena_array(a, k + 1, sizeof *out);
  uint32_t n = 0;
  int64_t r = d, c = s, t;
  for (uint32_t i = 0; i + 1 < k && c > 1; i++) {
    int64_t sz = am[i].size, st = am[i].stride;
    if (r % sz == 0) { /* the stride jumps over this mode */
      r /= sz;
      continue;
    }
    if (sz % r == 0) { /* the stride divides it: sz / r values of this mode */
      int64_t q = sz / r;
      if (!hb_ck_mul(st, r, &t)) return fail(err, "composition: a stride overflows");
      if (c <= q) {
        out[n++] = (ss_mode){c, t};
        foot[i] += (c - 1) * r; /* < sz */
        c = 1;
      } else if (c % q == 0) {
        out[n++] = (ss_mode){q, t};
        foot[i] += (q - 1) * r;
        c /= q;
        r = 1;
      } else {
        return fail(err, "composition not defined: size %" PRId64 " does not divide by %" PRId64
                    ", the part of mode %u (%" PRId64 ":%" PRId64 ") it starts in",
                    c, q, i, sz, st);
      }
      continue;
    }
    /* neither divides the other: exact only if the elements stay in this mode */
    int64_t last;
    if (hb_ck_mul(c - 1, r, &last) && last < sz) {
      if (!hb_ck_mul(st, r, &t)) return fail(err, "composition: a stride overflows");
      out[n++] = (ss_mode){c, t};
      foot[i] += last;
      c = 1;
      break;
    }
    return fail(err, "composition not defined: stride %" PRId64 " and mode %u (%" PRId64 ":%" PRId64
                ") do not divide one another", r, i, sz, st);
  }
  if (c > 1) {
    if (!hb_ck_mul(am[k - 1].stride, r, &t)) return fail(err, "composition: a stride overflows");
    out[n++] = (ss_mode){c, t};
  }
  return ss_from_modes(a, out, coalesce_modes(out, n), err);
}

static ss_layout *compose_rec(hb_arena *a, const ss_mode *am, uint32_t k, const ss_layout *B, int64_t *foot,
                              ss_error *err) {
  if (ss_is_leaf(B)) return compose_leaf(a, am, k, B->size, B->stride, foot, err);
  ss_layout *ch = hb_arena_array(a, B->n, sizeof *ch);
  for (uint32_t i = 0; i < B->n; i++) {
    ss_layout *c = compose_rec(a, am, k, &B->child[i], foot, err);
    if (!c) return NULL;
    ch[i] = *c;
  }
  return ss_tuple(a, ch, B->n, err);
}

ss_layout *ss_composition(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err) {
  uint32_t k;
  ss_mode *am = flat_of(a, A, &k);
  k = coalesce_modes(am, k);
  int64_t *foot = hb_arena_zalloc(a, (k + 1) * sizeof *foot);
  ss_layout *r = compose_rec(a, am, k, B, foot, err);
  /* R is composed leaf by leaf of B: A(B(c)) = sum of A(leaf offsets) only
   * when adding the leaves' offsets carries between none of A's modes */
  for (uint32_t i = 0; r && i + 1 < k; i++)
    if (foot[i] >= am[i].size)
      return fail(err, "composition not defined: B's modes together reach past mode %u (%" PRId64 ":%" PRId64
                  ") of A, where composing them one by one does not add up", i, am[i].size, am[i].stride);
  return r;
}

static int cmp_stride(const void *pa, const void *pb) {
  const ss_mode *x = pa, *y = pb;
  if (x->stride != y->stride) return x->stride < y->stride ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

ss_layout *ss_complement(hb_arena *a, const ss_layout *l, int64_t cotarget, ss_error *err) {
  if (cotarget < 1) return fail(err, "complement: the cotarget must be at least 1");
  uint32_t n, k = 0;
  ss_mode *m = flat_of(a, l, &n);
  for (uint32_t i = 0; i < n; i++)
    if (m[i].size > 1 && m[i].stride > 0) m[k++] = m[i];
  qsort(m, k, sizeof *m, cmp_stride);
  ss_mode *out = hb_arena_array(a, k + 1, sizeof *out);
  int64_t cur = 1;
  for (uint32_t i = 0; i < k; i++) {
    if (m[i].stride % cur != 0)
      return fail(err, "complement not defined: stride %" PRId64 " is not a multiple of %" PRId64
                  ", the extent of the modes before it (sorted by stride)", m[i].stride, cur);
    out[i] = (ss_mode){m[i].stride / cur, cur};
    if (!hb_ck_mul(m[i].size, m[i].stride, &cur)) return fail(err, "complement: an extent overflows");
  }
  out[k] = (ss_mode){cotarget / cur + (cotarget % cur != 0), cur};
  return ss_from_modes(a, out, coalesce_modes(out, k + 1), err);
}

ss_layout *ss_make_layout(hb_arena *a, const ss_layout *const *parts, uint32_t n, ss_error *err) {
  ss_layout *ch = hb_arena_array(a, n ? n : 1, sizeof *ch);
  for (uint32_t i = 0; i < n; i++) ch[i] = *parts[i];
  return ss_tuple(a, ch, n, err);
}

ss_layout *ss_logical_divide(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err) {
  ss_layout *c = ss_complement(a, B, ss_size(A), err);
  if (!c) return NULL;
  const ss_layout *parts[2] = {B, c};
  ss_layout *bc = ss_make_layout(a, parts, 2, err);
  return bc ? ss_composition(a, A, bc, err) : NULL;
}

ss_layout *ss_logical_product(hb_arena *a, const ss_layout *A, const ss_layout *B, ss_error *err) {
  int64_t target;
  if (!hb_ck_mul(ss_size(A), ss_cosize(B), &target) || target > SS_MAX_VALUE)
    return fail(err, "logical_product: size(A) * cosize(B) exceeds 2^62");
  ss_layout *c = ss_complement(a, A, target, err);
  if (!c) return NULL;
  ss_layout *cb = ss_composition(a, c, B, err);
  if (!cb) return NULL;
  const ss_layout *parts[2] = {A, cb};
  return ss_make_layout(a, parts, 2, err);
}

ss_layout *ss_by_mode(hb_arena *a, ss_binary_op op, const ss_layout *A, const ss_layout *const *tiler, uint32_t n,
                      ss_error *err) {
  uint32_t r = ss_rank(A);
  if (n > r) return fail(err, "a tiler of %u layouts for a layout of rank %u", n, r);
  ss_layout *ch = hb_arena_array(a, r, sizeof *ch);
  for (uint32_t i = 0; i < r; i++) {
    if (i >= n) {
      ch[i] = *ss_mode_at(A, i);
      continue;
    }
    ss_layout *c = op(a, ss_mode_at(A, i), tiler[i], err);
    if (!c) return NULL;
    ch[i] = *c;
  }
  return ss_tuple(a, ch, r, err);
}

ss_layout *ss_make_layout_tile(hb_arena *a, const ss_layout *l, const int64_t *tile, uint32_t n, ss_error *err) {
  uint32_t r = ss_rank(l);
  if (n != r) return fail(err, "make_layout_tile: a tile of rank %u for a layout of rank %u", n, r);
  ss_layout *ch = hb_arena_array(a, r, sizeof *ch);
  for (uint32_t i = 0; i < r; i++) {
    const ss_layout *m = ss_mode_at(l, i);
    if (tile[i] < 1) return fail(err, "make_layout_tile: tile extents must be at least 1");
    if (ss_is_leaf(m)) {
      ch[i] = (ss_layout){0, tile[i], m->stride, NULL};
      continue;
    }
    ss_layout *sub = hb_arena_array(a, m->n, sizeof *sub);
    int64_t inner = 1;
    for (uint32_t j = 0; j < m->n; j++) {
      if (!ss_is_leaf(&m->child[j]))
        return fail(err, "make_layout_tile: mode %u nests deeper than (inner..., outer)", i);
      sub[j] = m->child[j];
      if (j + 1 < m->n) inner *= m->child[j].size; /* a product of a checked layout's sizes */
    }
    sub[m->n - 1].size = tile[i] / inner + (tile[i] % inner != 0);
    ss_layout *c = ss_tuple(a, sub, m->n, err);
    if (!c) return NULL;
    ch[i] = *c;
  }
  return ss_tuple(a, ch, r, err);
}

const char *ss_fractal_name(ss_fractal f) {
  static const char *const names[] = {"zN", "nZ", "zZ", "nN"};
  return names[f];
}

ss_layout *ss_fractal_layout(hb_arena *a, ss_fractal f, int elem_bits, int64_t rows, int64_t cols, int64_t c0_blocks,
                             ss_error *err) {
  if (elem_bits <= 0 || 256 % elem_bits != 0)
    return fail(err, "%s: a %d-bit element type does not divide a C0 of 32 bytes", ss_fractal_name(f), elem_bits);
  if (rows < 1 || cols < 1 || c0_blocks < 1) return fail(err, "%s: rows, columns and fractal rows must be at least 1",
                                                       ss_fractal_name(f));
  if (rows > SS_MAX_VALUE / 4096 || cols > SS_MAX_VALUE / 4096 || c0_blocks > 4096)
    return fail(err, "%s: too large", ss_fractal_name(f));
  int64_t c0 = 256 / elem_bits, fr = c0_blocks, frac = fr * c0;
  /* z: row-major inside a fractal, n: column-major; Z / N between fractals */
  bool z_inside = f == SS_ZN || f == SS_ZZ;
  int64_t r_in = z_inside ? fr : c0, c_in = z_inside ? c0 : fr; /* the fractal's rows and columns */
  int64_t r_out = rows / r_in + (rows % r_in != 0), c_out = cols / c_in + (cols % c_in != 0);
  int64_t r_in_stride = z_inside ? c_in : 1, c_in_stride = z_inside ? 1 : r_in;
  int64_t r_out_stride, c_out_stride, t;
  bool row_major_between = f == SS_NZ || f == SS_ZZ;
  if (row_major_between) {
    c_out_stride = frac;
    r_out_stride = c_out * frac;
  } else {
    r_out_stride = frac;
    c_out_stride = r_out * frac;
  }
  ss_layout rm[2] = {{0, r_in, r_in_stride, NULL}, {0, r_out, r_out_stride, NULL}};
  ss_layout cm[2] = {{0, c_in, c_in_stride, NULL}, {0, c_out, c_out_stride, NULL}};
  if (!hb_ck_mul(r_out, c_out, &t) || !hb_ck_mul(t, frac, &t) || t > SS_MAX_VALUE) return fail(err, "%s: too large", ss_fractal_name(f));
  ss_layout *R = ss_tuple(a, rm, 2, err), *C = R ? ss_tuple(a, cm, 2, err) : NULL;
  if (!C) return NULL;
  ss_layout both[2] = {*R, *C};
  return ss_tuple(a, both, 2, err);
}
