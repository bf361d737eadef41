#include "tile_footprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/checked.h"

void tf_layout_of(hb_arena *a, const tl_layout *l, tf_layout *out) {
  memset(out, 0, sizeof *out);
  out->why = "";
  out->elem_bits = l->elem_bits;
  out->memory_space = l->memory_space;
  out->dim_tile = hb_arena_array(a, (size_t)l->rank + 1, sizeof *out->dim_tile);
  for (int i = 0; i < l->rank; i++) out->dim_tile[i] = 1;
  out->tile_bits = l->elem_bits;
  out->padded = true;
  if (l->nlevels == 0) return;
  /* the first level decides which elements share a tile; deeper levels
   * only pad inside it */
  const tl_level *lv = &l->levels[0];
  tf_count outer = 1;
  for (int i = 0; i < lv->nlead; i++) outer *= (uint64_t)lv->in[i];
  for (int g = 0; g < lv->ntiled; g++) {
    outer *= (uint64_t)lv->out[lv->nlead + g];
    if (lv->group_first[g] != lv->group_last[g]) {
      out->padded = false;
      char why[64];
      snprintf(why, sizeof why, "its tile %d combines dimensions ('*')", lv->tile_index + 1);
      out->why = hb_arena_strndup(a, why, strlen(why));
      return;
    }
    int d = lv->group_first[g] - lv->nimplicit;
    if (d >= 0) out->dim_tile[l->phys_order[d]] = lv->tile[g];
  }
  tf_count per_tile = outer ? (tf_count)(uint64_t)l->tiled_elems / outer : 0, bits = per_tile * (uint64_t)l->elem_bits;
  if (bits > INT64_MAX) {
    out->padded = false;
    out->why = "a layout tile of more than 2^63 bits";
    return;
  }
  out->tile_bits = (int64_t)bits;
}

uint64_t tf_bytes(tf_count count, int64_t bits) {
  if (bits > 0 && count > ((tf_count)1 << 120) / (uint64_t)bits) return UINT64_MAX;
  tf_count b = (count * (uint64_t)bits + 7) / 8;
  return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* ---- one dimension ------------------------------------------------------------------------------- */

/* floor and ceil of x / s for s > 0. */
#define FLOOR_DIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - 1) / (s)))
#define CEIL_DIV(x, s) ((x) >= 0 ? ((x) + (s) - 1) / (s) : -((-(x)) / (s)))

void tf_box_range(int64_t o, int64_t n, int64_t st, int64_t D, int64_t *klo, int64_t *khi) {
  *klo = 0, *khi = n - 1;
  if (n < 1 || D < 1) {
    *klo = 1, *khi = 0;
    return;
  }
  if (st == 0) {
    if (o < 0 || o >= D) *klo = 1, *khi = 0;
    else *khi = 0; /* one element, however many times */
    return;
  }
  /* 0 <= o + k * st <= D - 1: k in [ceil(-o / st), floor((D - 1 - o) / st)] for st > 0, and
   * k in [ceil((o - D + 1) / s), floor(o / s)] with s = -st for st < 0 */
  int64_t a, b;
  const int64_t lim = (int64_t)1 << 61; /* within it the int64 arithmetic below cannot overflow */
  if (o > -lim && o < lim && D < lim && st > -lim && st < lim) {
    int64_t s = st > 0 ? st : -st, x = st > 0 ? -o : o - (D - 1), y = st > 0 ? D - 1 - o : o;
    a = CEIL_DIV(x, s), b = FLOOR_DIV(y, s);
  } else {
    __extension__ typedef __int128 i128;
    i128 s = st > 0 ? (i128)st : -(i128)st, x = st > 0 ? -(i128)o : (i128)o - (D - 1), y = st > 0 ? (i128)D - 1 - o : o;
    i128 aa = CEIL_DIV(x, s), bb = FLOOR_DIV(y, s);
    a = aa > n ? n : aa < 0 ? 0 : (int64_t)aa;
    b = bb < -1 ? -1 : bb > n ? n : (int64_t)bb;
  }
  if (a > *klo) *klo = a > n ? n : a;
  if (b < *khi) *khi = b < -1 ? -1 : b;
}

/* Elements of the box along one dimension at offset o, and the layout
 * tiles they touch. */
static void dim_counts(const tf_dim *d, int64_t o, int64_t *elems, int64_t *tiles) {
  int64_t klo, khi;
  tf_box_range(o, d->size, d->stride, d->extent, &klo, &khi);
  if (klo > khi) {
    *elems = *tiles = 0;
    return;
  }
  *elems = khi - klo + 1;
  uint64_t ast = hb_ck_uabs(d->stride);
  if (d->tile == 1 || ast > (uint64_t)d->tile) {
    *tiles = *elems; /* each element in its own layout tile */
    return;
  }
  /* the first and last elements lie in [0, D): no overflow, no floor issue */
  int64_t p = o + klo * d->stride, q = o + khi * d->stride;
  if (p > q) {
    int64_t t = p;
    p = q, q = t;
  }
  *tiles = q / d->tile - p / d->tile + 1;
}

/* ---- sums over the tiles ------------------------------------------------------------------------- */

/* e = d_c * a + b (a may be 0: no dimension). */
static bool affine1(const ae *e, int64_t *coord, int64_t *a, int64_t *b) {
  *coord = -1, *a = 0, *b = 0;
  if (e->kind == AE_ADD && e->rhs->kind == AE_CONST) *b = e->rhs->value, e = e->lhs;
  if (e->kind == AE_CONST) return *b += e->value, true; /* (a constant on its own) */
  if (e->kind == AE_MUL && e->lhs->kind == AE_DIM && e->rhs->kind == AE_CONST) {
    *coord = e->lhs->value, *a = e->rhs->value;
    return true;
  }
  if (e->kind == AE_DIM) return *coord = e->value, *a = 1, true;
  return false;
}

/* An offset that is a sum of terms m * f(d_c) with f(x) = x, x floordiv q
 * or x mod q (q > 0), plus a constant: evaluated without the expression
 * walk (the offsets of reshapes and of everything else are). */
typedef struct {
  int64_t coord, mul, q;
  uint8_t op; /* AE_DIM, AE_FLOORDIV, AE_MOD */
} lin_term;

typedef struct {
  bool ok;
  uint32_t n;
  int64_t b;
  const lin_term *t;
} lin_form;

#define LIN_MAX_TERMS 16

static bool lin_term_of(const ae *e, int64_t mul, lin_term *t) {
  t->mul = mul;
  t->q = 1;
  if (e->kind == AE_DIM) return t->op = AE_DIM, t->coord = e->value, true;
  if ((e->kind == AE_FLOORDIV || e->kind == AE_MOD) && e->lhs->kind == AE_DIM && e->rhs->kind == AE_CONST &&
      e->rhs->value > 0) {
    t->op = e->kind, t->coord = e->lhs->value, t->q = e->rhs->value;
    return true;
  }
  return false;
}

static bool lin_collect(const ae *e, lin_term *t, uint32_t *n, int64_t *b) {
  if (e->kind == AE_ADD) return lin_collect(e->lhs, t, n, b) && lin_collect(e->rhs, t, n, b);
  if (e->kind == AE_CONST) return hb_ck_add(*b, e->value, b);
  if (*n == LIN_MAX_TERMS) return false;
  bool ok = e->kind == AE_MUL && e->rhs->kind == AE_CONST ? lin_term_of(e->lhs, e->rhs->value, &t[*n])
                                                          : lin_term_of(e, 1, &t[*n]);
  *n += ok;
  return ok;
}

static lin_form lin_of(hb_arena *ar, const ae *e) {
  lin_term t[LIN_MAX_TERMS];
  uint32_t n = 0;
  int64_t b = 0;
  lin_form f = {false, 0, 0, NULL};
  if (e->depth > 64 || !lin_collect(e, t, &n, &b)) return f;
  f.ok = true, f.n = n, f.b = b;
  f.t = hb_arena_dup(ar, t, (n + 1) * sizeof *t);
  return f;
}

typedef struct {
  const imap *off;
  const tf_dim *dims;
  const ae **res; /* offsets with runtime variables at their lowest values */
  lin_form *lin;  /* per result */
  uint64_t budget;
  bool exact;
  const char *why; /* the first reason for an estimate (a literal) */
} sum_ctx;

static void sum_ctx_init(sum_ctx *s, const imap *off, const tf_dim *dims, const ae **res) {
  memset(s, 0, sizeof *s);
  s->off = off, s->dims = dims, s->res = res;
  s->lin = hb_arena_array(off->arena, off->nresults + 1, sizeof *s->lin);
  for (uint32_t j = 0; j < off->nresults; j++) s->lin[j] = lin_of(off->arena, res[j]);
  s->budget = TF_ENUM_POINTS;
  s->exact = true;
}

/* The offset of result j at tile index x; false on overflow. */
static bool offset_at(const sum_ctx *s, uint32_t j, const int64_t *x, int64_t *o) {
  const lin_form *f = &s->lin[j];
  if (!f->ok) return ae_eval_point(s->res[j], x, s->off->ndims, NULL, 0, o);
  int64_t v = f->b, w;
  for (uint32_t i = 0; i < f->n; i++) {
    const lin_term *t = &f->t[i];
    int64_t y = x[t->coord];
    if (t->op == AE_FLOORDIV) hb_ck_floordiv(y, t->q, &y);
    else if (t->op == AE_MOD) hb_ck_mod(y, t->q, &y);
    if (!hb_ck_mul(t->mul, y, &w) || !hb_ck_add(v, w, &v)) return false;
  }
  *o = v;
  return true;
}

/* Product over the dims J of the group at tile index x: elements and tiles. */
static void at_point(sum_ctx *s, const uint32_t *J, uint32_t nj, const int64_t *x, tf_count *el, tf_count *ti) {
  *el = 1, *ti = 1;
  for (uint32_t k = 0; k < nj; k++) {
    int64_t o = 0, e, t;
    if (!offset_at(s, J[k], x, &o)) s->exact = false;
    dim_counts(&s->dims[J[k]], o, &e, &t);
    *el *= (uint64_t)e, *ti *= (uint64_t)t;
  }
}

static void estimate(sum_ctx *s, const char *why) {
  if (!s->exact) return;
  s->exact = false;
  s->why = why;
}

/* Tile indices i in [ilo, ihi] of one coordinate where o = a * i + b keeps
 * the whole box inside the operand and (for the layout count) o mod tile
 * constant: [*lo, *hi]. */
static void steady_range(const tf_dim *d, int64_t a, int64_t b, int64_t ilo, int64_t ihi, int64_t *lo, int64_t *hi) {
  __extension__ typedef __int128 i128;
  *lo = ilo, *hi = ihi;
  if (d->tile > 1 && a % d->tile != 0) { /* the layout count depends on o mod tile: no steady part */
    *lo = 1, *hi = 0;
    return;
  }
  /* o >= min_o and o <= max_o with the span of the box */
  i128 span = (i128)(d->size - 1) * d->stride;
  i128 min_o = span < 0 ? -span : 0, max_o = (i128)d->extent - 1 - (span > 0 ? span : 0);
  if (a == 0) {
    if (b < min_o || b > max_o) *lo = 1, *hi = 0;
    return;
  }
  /* min_o <= a * i + b <= max_o */
  i128 x = min_o - b, y = max_o - b, l, h, aa = a;
  if (aa < 0) {
    i128 t = -y;
    y = -x, x = t, aa = -aa;
  }
  l = x >= 0 ? (x + aa - 1) / aa : -((-x) / aa);
  h = y >= 0 ? y / aa : -((-y + aa - 1) / aa);
  if (l > *lo) *lo = l > ihi ? ihi + 1 : (int64_t)l;
  if (h < *hi) *hi = h < ilo ? ilo - 1 : (int64_t)h;
}

/* Sum over one coordinate c (indices [ilo, ihi], the others at x0) of the
 * product over the dims J, each affine in c. */
static void sum_1d(sum_ctx *s, const uint32_t *J, uint32_t nj, int64_t c, const int64_t *x0, tf_count *el,
                   tf_count *ti) {
  int64_t ilo = s->off->dim_iv[c].lo, ihi = s->off->dim_iv[c].hi, lo = ilo, hi = ihi;
  for (uint32_t k = 0; k < nj; k++) {
    int64_t coord, a, b, l, h;
    affine1(s->res[J[k]], &coord, &a, &b);
    steady_range(&s->dims[J[k]], a, b, ilo, ihi, &l, &h);
    if (l > lo) lo = l;
    if (h < hi) hi = h;
  }
  int64_t *x = hb_arena_array(s->off->arena, s->off->ndims + 1, sizeof *x);
  memcpy(x, x0, (s->off->ndims + 1) * sizeof *x);
  *el = 0, *ti = 0;
  tf_count e, t;
  uint64_t steady = lo <= hi ? (uint64_t)(hi - lo + 1) : 0, rest = (uint64_t)(ihi - ilo + 1) - steady;
  if (steady) {
    x[c] = lo;
    at_point(s, J, nj, x, &e, &t);
    *el += e * steady, *ti += t * steady;
  }
  if (rest > s->budget) {
    estimate(s, "too many boundary tiles to count one by one");
    x[c] = ilo;
    at_point(s, J, nj, x, &e, &t);
    *el += e * rest, *ti += t * rest;
    return;
  }
  s->budget -= rest;
  for (int64_t i = ilo; i <= ihi; i++) {
    if (steady && i == lo) i = hi + 1;
    if (i > ihi) break;
    x[c] = i;
    at_point(s, J, nj, x, &e, &t);
    *el += e, *ti += t;
  }
}

/* Sum over all indices of the coordinates C (the others at x0). */
static void sum_enum(sum_ctx *s, const uint32_t *C, uint32_t nc, const uint32_t *J, uint32_t nj, const int64_t *x0,
                     tf_count *el, tf_count *ti) {
  const interval *iv = s->off->dim_iv;
  uint64_t points = 1;
  tf_count all = 1;
  for (uint32_t k = 0; k < nc; k++) {
    uint64_t n = (uint64_t)(iv[C[k]].hi - iv[C[k]].lo + 1);
    points = points > s->budget / (n ? n : 1) ? s->budget + 1 : points * n;
    all *= n;
  }
  int64_t *x = hb_arena_array(s->off->arena, s->off->ndims + 1, sizeof *x);
  memcpy(x, x0, (s->off->ndims + 1) * sizeof *x);
  tf_count e, t;
  *el = 0, *ti = 0;
  if (points > s->budget) {
    estimate(s, "too many tiles to count one by one");
    at_point(s, J, nj, x, &e, &t);
    *el = e * all, *ti = t * all;
    return;
  }
  s->budget -= points;
  for (;;) {
    at_point(s, J, nj, x, &e, &t);
    *el += e, *ti += t;
    uint32_t k = nc;
    while (k-- > 0) {
      if (++x[C[k]] <= iv[C[k]].hi) break;
      x[C[k]] = iv[C[k]].lo;
    }
    if (k == UINT32_MAX) break;
  }
}

static uint32_t find(uint32_t *p, uint32_t i) {
  while (p[i] != i) i = p[i] = p[p[i]];
  return i;
}

void tf_sum(const imap *off, const tf_dim *dims, tf_totals *out) {
  memset(out, 0, sizeof *out);
  hb_arena *a = off->arena;
  ae_ctx *c = off->ctx;
  uint32_t nd = off->ndims, nr = off->nresults, ns = imap_nsyms(off);
  /* runtime offsets at their lowest values */
  const ae **res = hb_arena_array(a, nr + 1, sizeof *res), **syms = hb_arena_array(a, ns + 1, sizeof *syms);
  for (uint32_t j = 0; j < ns; j++) syms[j] = ae_const(c, off->sym_iv[j].lo);
  ae_subst_many(c, nr, off->results, res, NULL, 0, syms, ns);
  sum_ctx s;
  sum_ctx_init(&s, off, dims, res);
  s.why = "";
  if (ns) estimate(&s, "runtime offsets taken at their lowest values");
  out->exact = true;
  if (off->known_empty) { /* no tiles */
    out->exact = s.exact;
    out->why = s.why;
    return;
  }
  /* the first tile that reads the operand */
  int64_t *zero = hb_arena_zalloc(a, (nd + 1) * sizeof *zero);
  for (uint32_t i = 0; i < nd; i++) zero[i] = off->dim_iv[i].lo;
  uint32_t *all = hb_arena_array(a, nr + 1, sizeof *all);
  for (uint32_t j = 0; j < nr; j++) all[j] = j;
  at_point(&s, all, nr, zero, &out->first_elems, &out->first_tiles);

  /* groups: coordinates joined by the dims that use them */
  uint32_t *parent = hb_arena_array(a, nd + 1, sizeof *parent);
  bool *used = hb_arena_zalloc(a, nd + 1);
  int64_t *first_coord = hb_arena_array(a, nr + 1, sizeof *first_coord);
  for (uint32_t i = 0; i < nd; i++) parent[i] = i;
  bool *uses = hb_arena_zalloc(a, nd + 1);
  for (uint32_t j = 0; j < nr; j++) {
    memset(uses, 0, nd + 1);
    ae_collect_vars(s.res[j], uses, nd, NULL, 0);
    first_coord[j] = -1;
    for (uint32_t i = 0; i < nd; i++) {
      if (!uses[i]) continue;
      used[i] = true;
      if (first_coord[j] < 0) first_coord[j] = i;
      else parent[find(parent, i)] = find(parent, (uint32_t)first_coord[j]);
    }
  }
  tf_count el = 1, ti = 1;
  uint32_t *J = hb_arena_array(a, nr + 1, sizeof *J), *C = hb_arena_array(a, nd + 1, sizeof *C);
  /* dims with constant offsets */
  uint32_t nj = 0;
  for (uint32_t j = 0; j < nr; j++)
    if (first_coord[j] < 0) J[nj++] = j;
  tf_count e, t;
  at_point(&s, J, nj, zero, &e, &t);
  el *= e, ti *= t;
  for (uint32_t root = 0; root < nd; root++) {
    if (find(parent, root) != root) continue;
    uint32_t nc = 0;
    nj = 0;
    for (uint32_t i = 0; i < nd; i++)
      if (find(parent, i) == root && used[i]) C[nc++] = i;
    uint64_t n = (uint64_t)(off->dim_iv[root].hi - off->dim_iv[root].lo + 1);
    if (nc == 0) { /* a coordinate no offset depends on: every box repeats */
      el *= n, ti *= n;
      continue;
    }
    for (uint32_t j = 0; j < nr; j++)
      if (first_coord[j] >= 0 && find(parent, (uint32_t)first_coord[j]) == root) J[nj++] = j;
    bool one = nc == 1;
    for (uint32_t k = 0; k < nj && one; k++) {
      int64_t coord, aa, b;
      one = affine1(s.res[J[k]], &coord, &aa, &b);
    }
    if (one) sum_1d(&s, J, nj, C[0], zero, &e, &t);
    else sum_enum(&s, C, nc, J, nj, zero, &e, &t);
    el *= e, ti *= t;
  }
  out->elems = el;
  out->tiles = ti;
  out->exact = s.exact;
  out->why = s.why;
}

/* ---- unions --------------------------------------------------------------------------------------- */

/* The offsets with runtime variables at their lowest values (in the map's arena). */
static const ae **lowest_offsets(const imap *off) {
  ae_ctx *c = off->ctx;
  uint32_t ns = imap_nsyms(off);
  const ae **res = hb_arena_array(off->arena, off->nresults + 1, sizeof *res);
  const ae **syms = hb_arena_array(off->arena, ns + 1, sizeof *syms);
  for (uint32_t j = 0; j < ns; j++) syms[j] = ae_const(c, off->sym_iv[j].lo);
  ae_subst_many(c, off->nresults, off->results, res, NULL, 0, syms, ns);
  return res;
}

/* |[x, y] ∩ [lo, hi]| */
static uint64_t overlap(int64_t x, int64_t y, int64_t lo, int64_t hi) {
  int64_t l = x > lo ? x : lo, h = y < hi ? y : hi;
  return l <= h ? (uint64_t)(h - l) + 1 : 0;
}

/* The distinct elements of the boxes a * i + b + k * st (0 <= k < n) over
 * tile indices i in [lo, hi], inside [0, D). In units of the stride, with
 * q = (p - b) / st, tile i covers q in [A i, A i + n - 1] (A = a / st):
 * intervals that overlap or touch when |A| <= n, disjoint otherwise. False
 * when a is not a multiple of st, or past *budget. */
static bool dim_union(const tf_dim *d, int64_t a, int64_t b, int64_t lo, int64_t hi, uint64_t *budget, uint64_t *out) {
  int64_t n = d->size, st = d->stride;
  *out = 0;
  if (n < 1 || d->extent < 1 || hi < lo) return true;
  if (st == 0) n = 1, st = 1; /* one element per box */
  if (a % st != 0) return false;
  int64_t A = a / st, qlo, qhi;
  __extension__ typedef __int128 i128;
  /* valid q: 0 <= b + q st <= D - 1 */
  i128 s = st > 0 ? (i128)st : -(i128)st, x = st > 0 ? -(i128)b : (i128)b - (d->extent - 1), y = st > 0 ? (i128)d->extent - 1 - b : b;
  qlo = (int64_t)CEIL_DIV(x, s), qhi = (int64_t)FLOOR_DIV(y, s);
  if (A == 0) return *out = overlap(0, n - 1, qlo, qhi), true;
  if ((A < 0 ? -(i128)A : A) <= n) {
    i128 u = A > 0 ? (i128)A * lo : (i128)A * hi, v = (A > 0 ? (i128)A * hi : (i128)A * lo) + n - 1;
    if (u < qlo) u = qlo;
    if (v > qhi) v = qhi;
    *out = u <= v ? (uint64_t)(v - u) + 1 : 0;
    return true;
  }
  if ((uint64_t)(hi - lo + 1) > *budget) return false;
  *budget -= (uint64_t)(hi - lo + 1);
  for (int64_t i = lo; i <= hi; i++) *out += overlap(A * i, A * i + n - 1, qlo, qhi);
  return true;
}

/* Offsets whose results each depend on at most one tile coordinate, and
 * no two on the same one. */
static bool separable(const imap *off, const ae **res) {
  bool *taken = hb_arena_zalloc(off->arena, off->ndims + 1);
  for (uint32_t j = 0; j < off->nresults; j++) {
    int64_t coord, a, b;
    if (!affine1(res[j], &coord, &a, &b) || (coord >= 0 && taken[coord])) return false;
    if (coord >= 0) taken[coord] = true;
  }
  return true;
}

bool tf_union_separable(const imap *off, const tf_dim *dims, tf_count *out) {
  *out = 0;
  if (off->known_empty) return true;
  const ae **res = lowest_offsets(off);
  if (!separable(off, res)) return false;
  uint64_t budget = TF_ENUM_POINTS;
  tf_count total = 1;
  for (uint32_t j = 0; j < off->nresults; j++) {
    int64_t coord, a, b;
    affine1(res[j], &coord, &a, &b);
    int64_t lo = coord >= 0 ? off->dim_iv[coord].lo : 0, hi = coord >= 0 ? off->dim_iv[coord].hi : 0;
    uint64_t n;
    if (!dim_union(&dims[j], coord >= 0 ? a : 0, b, lo, hi, &budget, &n)) return false;
    total *= n;
  }
  *out = total;
  return true;
}

/* Sets the bits first, first + step, ... (n of them); returns how many
 * were clear. A run of step 1 goes a word at a time. */
static uint64_t mark_run(uint64_t *bits, uint64_t first, uint64_t n, int64_t step) {
  uint64_t fresh = 0;
  if (step != 1 && n > 1) {
    for (uint64_t i = 0, p = first; i < n; i++, p += (uint64_t)step) {
      uint64_t m = (uint64_t)1 << (p % 64);
      fresh += !(bits[p / 64] & m);
      bits[p / 64] |= m;
    }
    return fresh;
  }
  for (uint64_t p = first, end = first + n; p < end;) {
    uint64_t w = p / 64, lo = p % 64, hi = end - w * 64 < 64 ? end - w * 64 : 64;
    uint64_t m = (hi == 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1)) & ~(((uint64_t)1 << lo) - 1);
    fresh += (uint64_t)__builtin_popcountll(m & ~bits[w]);
    bits[w] |= m;
    p = w * 64 + hi;
  }
  return fresh;
}

/* Marks the union of one dimension's boxes (separable offsets: res is
 * d_coord * a + b) into `bits` (extent bits); false past *budget. */
static bool dim_set(const imap *off, const ae *res, const tf_dim *d, uint64_t *bits, uint64_t *budget) {
  int64_t coord, a, b;
  affine1(res, &coord, &a, &b);
  int64_t lo = coord >= 0 ? off->dim_iv[coord].lo : 0, hi = coord >= 0 ? off->dim_iv[coord].hi : 0;
  if (coord < 0) a = 0;
  for (int64_t i = lo; i <= hi; i++) {
    int64_t klo, khi, o = a * i + b;
    tf_box_range(o, d->size, d->stride, d->extent, &klo, &khi);
    if (klo > khi) continue;
    uint64_t n = (uint64_t)(khi - klo + 1);
    if (n > *budget) return false;
    *budget -= n;
    int64_t st = d->stride, p = o + (st > 0 ? klo : khi) * st;
    mark_run(bits, (uint64_t)p, n, st < 0 ? -st : (st ? st : 1));
  }
  return true;
}

bool tf_union_maps(const imap *const *offs, const tf_dim *const *dims, uint32_t n, tf_count *out) {
  *out = 0;
  if (n == 0) return true;
  uint32_t nr = offs[0]->nresults;
  hb_arena *a = offs[0]->arena;
  const ae ***res = hb_arena_array(a, n, sizeof *res);
  for (uint32_t m = 0; m < n; m++) {
    if (offs[m]->nresults != nr || offs[m]->known_empty) return false;
    res[m] = lowest_offsets(offs[m]);
    if (!separable(offs[m], res[m])) return false;
  }
  /* per dimension, each map's set: they may differ along one dimension only */
  uint64_t budget = TF_ENUM_POINTS;
  bool differ = false;
  tf_count total = 1;
  for (uint32_t j = 0; j < nr; j++) {
    int64_t D = dims[0][j].extent;
    if (D < 1) return true;
    size_t words = (size_t)(D / 64 + 1);
    uint64_t *first = hb_arena_zalloc(a, words * sizeof *first), *all = hb_arena_zalloc(a, words * sizeof *all);
    bool same = true;
    for (uint32_t m = 0; m < n; m++) {
      uint64_t *set = m ? hb_arena_zalloc(a, words * sizeof *set) : first;
      if (words > budget) return false;
      budget -= words;
      if (!dim_set(offs[m], res[m][j], &dims[m][j], set, &budget)) return false;
      for (size_t w = 0; w < words; w++) {
        same &= set[w] == first[w];
        all[w] |= set[w];
      }
    }
    if (!same && differ) return false;
    differ |= !same;
    uint64_t count = 0;
    for (size_t w = 0; w < words; w++) count += (uint64_t)__builtin_popcountll(all[w]);
    total *= count;
  }
  *out = total;
  return true;
}

bool tf_mark(const imap *off, const tf_dim *dims, uint64_t *bits, uint64_t *budget, uint64_t *marked) {
  uint32_t nd = off->ndims, nr = off->nresults;
  if (off->known_empty) return true;
  sum_ctx s;
  sum_ctx_init(&s, off, dims, lowest_offsets(off));
  int64_t *x = hb_arena_array(off->arena, nd + 1, sizeof *x), *o = hb_arena_array(off->arena, nr + 1, sizeof *o);
  int64_t *k = hb_arena_array(off->arena, nr + 1, sizeof *k), *klo = hb_arena_array(off->arena, nr + 1, sizeof *klo);
  int64_t *khi = hb_arena_array(off->arena, nr + 1, sizeof *khi);
  for (uint32_t i = 0; i < nd; i++) x[i] = off->dim_iv[i].lo;
  for (;;) {
    bool any = true;
    uint64_t box = 1;
    for (uint32_t r = 0; r < nr && any; r++) {
      if (!offset_at(&s, r, x, &o[r])) return false;
      tf_box_range(o[r], dims[r].size, dims[r].stride, dims[r].extent, &klo[r], &khi[r]);
      any = klo[r] <= khi[r];
      box *= any ? (uint64_t)(khi[r] - klo[r] + 1) : 0;
      k[r] = klo[r];
    }
    if (any && box > *budget) return false;
    if (any) {
      *budget -= box;
      /* the outer dims by odometer, the last one as a run */
      uint32_t last = nr ? nr - 1 : 0;
      for (;;) {
        if (nr == 0) {
          *marked += mark_run(bits, 0, 1, 1);
        } else {
          uint64_t base = 0;
          for (uint32_t r = 0; r < last; r++) base = base * (uint64_t)dims[r].extent + (uint64_t)(o[r] + k[r] * dims[r].stride);
          int64_t st = dims[last].stride, p = o[last] + (st > 0 ? klo[last] : khi[last]) * st;
          *marked += mark_run(bits, base * (uint64_t)dims[last].extent + (uint64_t)p, (uint64_t)(khi[last] - klo[last] + 1),
                              st < 0 ? -st : (st ? st : 1));
        }
        uint32_t r = last;
        while (r-- > 0) {
          if (++k[r] <= khi[r]) break;
          k[r] = klo[r];
        }
        if (r == UINT32_MAX) break;
      }
    }
    uint32_t i = nd;
    while (i-- > 0) {
      if (++x[i] <= off->dim_iv[i].hi) break;
      x[i] = off->dim_iv[i].lo;
    }
    if (i == UINT32_MAX) break;
  }
  return true;
}
