#include "tile_footprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checked.h"

void tf_layout_of(arena *a, const tl_layout *l, tf_layout *out) {
  memset(out, 0, sizeof *out);
  out->elem_bits = l->elem_bits;
  out->memory_space = l->memory_space;
  out->dim_tile = arena_array(a, (size_t)l->rank + 1, sizeof *out->dim_tile);
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
      snprintf(out->why, sizeof out->why, "its tile %d combines dimensions ('*')", lv->tile_index + 1);
      return;
    }
    int d = lv->group_first[g] - lv->nimplicit;
    if (d >= 0) out->dim_tile[l->phys_order[d]] = lv->tile[g];
  }
  tf_count per_tile = outer ? (tf_count)(uint64_t)l->tiled_elems / outer : 0, bits = per_tile * (uint64_t)l->elem_bits;
  if (bits > INT64_MAX) {
    out->padded = false;
    snprintf(out->why, sizeof out->why, "a layout tile of more than 2^63 bits");
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

/* The k in [0, n) with o + k * st in [0, D): [*klo, *khi] (empty: klo > khi). */
static void in_range(int64_t o, int64_t n, int64_t st, int64_t D, int64_t *klo, int64_t *khi) {
  __extension__ typedef __int128 i128;
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
  /* 0 <= o + k * st <= D - 1 */
  i128 lo_num = -(i128)o, hi_num = (i128)D - 1 - o, a, b;
  if (st > 0) {
    a = lo_num >= 0 ? (lo_num + st - 1) / st : -((-lo_num) / st); /* ceil */
    b = hi_num >= 0 ? hi_num / st : -((-hi_num + st - 1) / st);   /* floor */
  } else {
    i128 s = -(i128)st; /* o - k * s: k >= ceil(-hi_num / s), k <= floor(-lo_num / s) */
    i128 x = -hi_num, y = -lo_num;
    a = x >= 0 ? (x + s - 1) / s : -((-x) / s);
    b = y >= 0 ? y / s : -((-y + s - 1) / s);
  }
  if (a > *klo) *klo = a > n ? n : (int64_t)a;
  if (b < *khi) *khi = b < -1 ? -1 : (int64_t)b;
}

/* Elements of the box along one dimension at offset o, and the layout
 * tiles they touch. */
static void dim_counts(const tf_dim *d, int64_t o, int64_t *elems, int64_t *tiles) {
  int64_t klo, khi;
  in_range(o, d->size, d->stride, d->extent, &klo, &khi);
  if (klo > khi) {
    *elems = *tiles = 0;
    return;
  }
  *elems = khi - klo + 1;
  __extension__ typedef __int128 i128;
  i128 p = (i128)o + (i128)klo * d->stride, q = (i128)o + (i128)khi * d->stride;
  if (p > q) {
    i128 t = p;
    p = q, q = t;
  }
  uint64_t ast = ck_uabs(d->stride);
  if (ast > (uint64_t)d->tile) *tiles = *elems; /* each element in its own layout tile */
  else *tiles = (int64_t)(q / d->tile - p / d->tile + 1); /* p, q in [0, D): no floor issue */
}

/* ---- sums over the tiles ------------------------------------------------------------------------- */

typedef struct {
  const imap *off;
  const tf_dim *dims;
  const ae **res; /* offsets with runtime variables at their lowest values */
  uint64_t budget;
  bool exact;
  char *why;
  size_t why_cap;
} sum_ctx;

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

/* Product over the dims J of the group at tile index x: elements and tiles. */
static void at_point(sum_ctx *s, const uint32_t *J, uint32_t nj, const int64_t *x, tf_count *el, tf_count *ti) {
  *el = 1, *ti = 1;
  for (uint32_t k = 0; k < nj; k++) {
    int64_t o = 0, e, t;
    if (!ae_eval_point(s->res[J[k]], x, s->off->ndims, NULL, 0, &o)) s->exact = false;
    dim_counts(&s->dims[J[k]], o, &e, &t);
    *el *= (uint64_t)e, *ti *= (uint64_t)t;
  }
}

static void estimate(sum_ctx *s, const char *why) {
  if (!s->exact) return;
  s->exact = false;
  snprintf(s->why, s->why_cap, "%s", why);
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
  int64_t *x = arena_array(s->off->arena, s->off->ndims + 1, sizeof *x);
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
  int64_t *x = arena_array(s->off->arena, s->off->ndims + 1, sizeof *x);
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
  arena *a = off->arena;
  ae_ctx *c = off->ctx;
  uint32_t nd = off->ndims, nr = off->nresults, ns = imap_nsyms(off);
  sum_ctx s = {off, dims, arena_array(a, nr + 1, sizeof(const ae *)), TF_ENUM_POINTS, true, out->why, sizeof out->why};
  /* runtime offsets at their lowest values */
  const ae **syms = arena_array(a, ns + 1, sizeof *syms);
  for (uint32_t j = 0; j < ns; j++) syms[j] = ae_const(c, off->sym_iv[j].lo);
  ae_subst_many(c, nr, off->results, s.res, NULL, 0, syms, ns);
  if (ns) estimate(&s, "runtime offsets taken at their lowest values");
  out->exact = true;
  if (off->known_empty) { /* no tiles */
    out->exact = s.exact;
    return;
  }
  /* the first tile that reads the operand */
  int64_t *zero = arena_zalloc(a, (nd + 1) * sizeof *zero);
  for (uint32_t i = 0; i < nd; i++) zero[i] = off->dim_iv[i].lo;
  uint32_t *all = arena_array(a, nr + 1, sizeof *all);
  for (uint32_t j = 0; j < nr; j++) all[j] = j;
  at_point(&s, all, nr, zero, &out->first_elems, &out->first_tiles);

  /* groups: coordinates joined by the dims that use them */
  uint32_t *parent = arena_array(a, nd + 1, sizeof *parent);
  bool *used = arena_zalloc(a, nd + 1);
  int64_t *first_coord = arena_array(a, nr + 1, sizeof *first_coord);
  for (uint32_t i = 0; i < nd; i++) parent[i] = i;
  bool *uses = arena_zalloc(a, nd + 1);
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
  uint32_t *J = arena_array(a, nr + 1, sizeof *J), *C = arena_array(a, nd + 1, sizeof *C);
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
}
