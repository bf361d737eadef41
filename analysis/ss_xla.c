#include "ss_xla.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "ss_algebra.h"

/* ss_to_xla: the largest rank searched with tiles, the candidates tried at
 * most, and the most tile entries considered per dimension. */
#define SEARCH_MAX_RANK 4
#define SEARCH_MAX_CANDIDATES 100000u
#define MAX_ENTRIES 8
/* Tile entries of a level: the dims and an implicit leading one; and its index. */
#define MAX_GROUPS 10
#define IMPLICIT 8
/* ss_compare_xla: elements compared one by one at most (a layout whose
 * offsets are not a sum over dimensions). */
#define COMPARE_MAX_ELEMS ((int64_t)1 << 24)

const ss_layout *ss_from_xla(hb_arena *a, ae_ctx *ctx, const tl_layout *l, ss_error *err) {
  if (l->logical_elems == 0) {
    snprintf(err->message, sizeof err->message, "an array without elements has no shape:stride layout");
    return NULL;
  }
  tl_shape_stride f;
  tl_error te;
  if (!tl_shape_stride_form(a, ctx, l, &f, &te)) {
    snprintf(err->message, sizeof err->message, "%s", te.message);
    return NULL;
  }
  if (!f.expressible) {
    snprintf(err->message, sizeof err->message, "the layout has no shape:stride form: %s", f.why);
    return NULL;
  }
  if (f.rank == 0) return ss_leaf(a, 1, 0);
  ss_layout *ch = hb_arena_array(a, (size_t)f.rank, sizeof *ch);
  for (int j = 0; j < f.rank; j++) {
    ss_mode *m = hb_arena_array(a, (size_t)f.nmodes[j] + 1, sizeof *m);
    for (int i = 0; i < f.nmodes[j]; i++) m[i] = (ss_mode){f.modes[j][i].size, f.modes[j][i].stride};
    ss_layout *c = ss_from_modes(a, m, (uint32_t)f.nmodes[j], err);
    if (!c) return NULL;
    ch[j] = *c;
  }
  return ss_tuple(a, ch, (uint32_t)f.rank, err);
}

int64_t ss_xla_offset(const tl_layout *l, const int64_t *x) {
  size_t cap = (size_t)l->rank + 1;
  for (int v = 0; v < l->nlevels; v++)
    if ((size_t)l->levels[v].nout + 1 > cap) cap = (size_t)l->levels[v].nout + 1;
  int64_t buf[2][64];
  bool heap = cap > 64;
  int64_t *cur = heap ? malloc(cap * sizeof *cur) : buf[0], *nxt = heap ? malloc(cap * sizeof *nxt) : buf[1];
  for (int k = 0; k < l->rank; k++) cur[k] = x[l->phys_order[k]];
  for (int v = 0; v < l->nlevels; v++) {
    const tl_level *lv = &l->levels[v];
    /* the implicit size-1 dims in front */
    memmove(cur + lv->nimplicit, cur, (size_t)(lv->nin - lv->nimplicit) * sizeof *cur);
    for (int i = 0; i < lv->nimplicit; i++) cur[i] = 0;
    for (int i = 0; i < lv->nlead; i++) nxt[i] = cur[i];
    for (int g = 0; g < lv->ntiled; g++) {
      int64_t c = 0;
      for (int d = lv->group_first[g]; d <= lv->group_last[g]; d++) c = c * lv->in[d] + cur[d];
      nxt[lv->nlead + g] = c / lv->tile[g];
      nxt[lv->nlead + lv->ntiled + g] = c % lv->tile[g];
    }
    int64_t *t = cur;
    cur = nxt;
    nxt = t;
  }
  int64_t off = 0;
  for (int k = 0; k < l->ntiled; k++) off += cur[k] * l->strides[k];
  if (heap) {
    free(cur);
    free(nxt);
  }
  return off;
}

/* ---- shape:stride -> XLA ---------------------------------------------------------------------------- */

typedef struct {
  hb_arena *scratch;
  int r;
  int64_t *dims;
  const ss_layout *l;
  int64_t *samples[8]; /* per dim: the points checked first */
  int nsamples[8];
  int64_t entries[IMPLICIT + 1][MAX_ENTRIES]; /* per dim; [IMPLICIT]: the implicit leading dim */
  int nentries[IMPLICIT + 1];
  int *phys;       /* the physical order tried (major first) */
  hlo_shape shape; /* the candidate */
  int64_t m2m[8];
  hlo_tile tiles[2];
  int64_t t1[MAX_GROUPS], t2[MAX_GROUPS];
  uint64_t tried;
  bool stop;
} search;

static bool same_offsets(search *s, const tl_layout *tl, bool full) {
  int64_t x[8] = {0};
  for (int j = 0; j < s->r; j++) {
    int64_t n = full ? s->dims[j] : s->nsamples[j];
    for (int64_t i = 0; i < n; i++) {
      int64_t v = full ? i : s->samples[j][i];
      x[j] = v;
      bool ok = ss_xla_offset(tl, x) == ss_index_offset(ss_mode_at(s->l, (uint32_t)j), v);
      x[j] = 0;
      if (!ok) return false;
    }
  }
  return true;
}

/* Checks the candidate in s->shape; true when it gives the offsets. */
static bool check(search *s) {
  if (++s->tried > SEARCH_MAX_CANDIDATES) {
    s->stop = true;
    return false;
  }
  hb_arena_reset(s->scratch);
  tl_layout tl;
  tl_error err;
  if (!tl_analyze(s->scratch, &s->shape, &tl, &err)) return false;
  return same_offsets(s, &tl, false) && same_offsets(s, &tl, true);
}

/* Odometer over n slots, slot i choosing among cand[i][0..ncand[i]) values
 * no larger than cap[i]; calls check for each choice written to out. */
static bool try_entries(search *s, int n, const int64_t *const *cand, const int *ncand, const int64_t *cap,
                        int64_t *out) {
  int idx[MAX_GROUPS] = {0};
  for (;;) {
    bool ok = true;
    for (int i = 0; i < n; i++) {
      out[i] = cand[i][idx[i]];
      if (out[i] > cap[i]) ok = false;
    }
    if (ok && check(s)) return true;
    if (s->stop) return false;
    int i = n - 1;
    while (i >= 0 && idx[i] == ncand[i] - 1) idx[i--] = 0;
    if (i < 0) return false;
    idx[i]++;
  }
}

/* Level 2 over the k2 most-minor dims of level 1's output: the in-tile dims
 * of its groups (entries no larger than the group's tile), then one count
 * dim. gd[g]: the search dim of level-1 group g (IMPLICIT for the leading
 * implicit one). */
static bool try_level2(search *s, int ng, const int *gd) {
  static const int64_t one = 1;
  const int64_t *cand[MAX_GROUPS];
  int ncand[MAX_GROUPS];
  int64_t cap[MAX_GROUPS];
  for (int k2 = 1; k2 <= ng + 1 && k2 <= 2 * ng && !s->stop; k2++) {
    /* slot i (major to minor) is level-1 output dim p = k2 - 1 - i counted from the most minor */
    for (int i = 0; i < k2; i++) {
      int p = k2 - 1 - i;
      bool in_tile = p < ng;
      int g = in_tile ? ng - 1 - p : 2 * ng - 1 - p, d = gd[g];
      if (!in_tile && d == IMPLICIT) {
        cand[i] = &one;
        ncand[i] = 1;
      } else {
        cand[i] = s->entries[d];
        ncand[i] = s->nentries[d];
      }
      cap[i] = in_tile ? s->t1[g] : INT64_MAX;
    }
    s->shape.layout.n_tiles = 2;
    s->tiles[1] = (hlo_tile){k2, s->t2};
    if (try_entries(s, k2, cand, ncand, cap, s->t2)) return true;
  }
  return false;
}

/* One tiling level over the k1 most-minor physical dims, with or without
 * an implicit leading entry (a tile longer than the rank pads with a size-1
 * dim: gaps between offsets); then, with levels == 2, a second level. */
static bool try_tiles(search *s, int levels) {
  int64_t nocap[MAX_GROUPS];
  for (int i = 0; i < MAX_GROUPS; i++) nocap[i] = INT64_MAX;
  for (int nimp = 0; nimp <= 1; nimp++)
    for (int k1 = 1; k1 <= s->r && !s->stop; k1++) {
      int ng = k1 + nimp, gd[MAX_GROUPS];
      const int64_t *cand[MAX_GROUPS];
      int ncand[MAX_GROUPS];
      for (int g = 0; g < ng; g++) {
        gd[g] = g < nimp ? IMPLICIT : s->phys[s->r - k1 + g - nimp];
        cand[g] = s->entries[gd[g]];
        ncand[g] = s->nentries[gd[g]];
      }
      s->tiles[0] = (hlo_tile){ng, s->t1};
      s->shape.layout.n_tiles = 1;
      if (levels == 1) {
        if (try_entries(s, ng, cand, ncand, nocap, s->t1)) return true;
        continue;
      }
      /* every level-1 choice, each with every level-2 tile */
      int idx[MAX_GROUPS] = {0};
      for (;;) {
        for (int g = 0; g < ng; g++) s->t1[g] = cand[g][idx[g]];
        s->tiles[0] = (hlo_tile){ng, s->t1};
        if (try_level2(s, ng, gd)) return true;
        if (s->stop) return false;
        int g = ng - 1;
        while (g >= 0 && idx[g] == ncand[g] - 1) idx[g--] = 0;
        if (g < 0) break;
        idx[g]++;
      }
    }
  return false;
}

static void set_order(search *s) {
  for (int k = 0; k < s->r; k++) s->m2m[k] = s->phys[s->r - 1 - k];
}

/* Every physical order of the dims of size > 1 (those of size 1 most major). */
static bool permute(search *s, int levels, int k, int *rest, int nrest) {
  if (nrest == 0) {
    set_order(s);
    return try_tiles(s, levels);
  }
  for (int i = 0; i < nrest && !s->stop; i++) {
    s->phys[k] = rest[i];
    int r2[8], n2 = 0;
    for (int j = 0; j < nrest; j++)
      if (j != i) r2[n2++] = rest[j];
    if (permute(s, levels, k + 1, r2, n2)) return true;
  }
  return false;
}

static void add_entry(search *s, int j, int64_t v) {
  if (v < 1) return;
  for (int i = 0; i < s->nentries[j]; i++)
    if (s->entries[j][i] == v) return;
  if (s->nentries[j] < MAX_ENTRIES) s->entries[j][s->nentries[j]++] = v;
}

static int cmp_i64(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return a < b ? -1 : a > b;
}

void ss_to_xla(hb_arena *a, const ss_layout *l, ss_xla_layout *out) {
  memset(out, 0, sizeof *out);
  int r = (int)ss_rank(l);
  out->rank = r;
  if (r > 8) {
    snprintf(out->why, sizeof out->why, "not searched: the search covers layouts of rank 8 at most");
    return;
  }
  uint32_t nflat = ss_leaf_count(l);
  ss_mode *flat = hb_arena_array(a, nflat, sizeof *flat);
  ss_flatten(l, flat);
  for (uint32_t i = 0; i < nflat; i++)
    if (flat[i].size > 1 && flat[i].stride == 0) {
      snprintf(out->why, sizeof out->why, "none: a mode of size %" PRId64 " has stride 0 (its coordinates share "
               "offsets); XLA gives each element its own", flat[i].size);
      return;
    }
  ss_injectivity inj;
  ss_check_injective(l, &inj);
  if (inj.injective == SS_NO) {
    snprintf(out->why, sizeof out->why,
             "none: two coordinates share an offset (indices %" PRId64 " and %" PRId64 "); XLA gives each element its own",
             inj.witness_a, inj.witness_b);
    return;
  }
  search s;
  memset(&s, 0, sizeof s);
  s.scratch = hb_arena_new();
  s.r = r;
  s.l = l;
  s.dims = hb_arena_array(a, (size_t)r + 1, sizeof *s.dims);
  int *phys = hb_arena_array(a, (size_t)r + 1, sizeof *phys);
  s.phys = phys;
  /* per dim: its coalesced digits; entries and sample points from them */
  uint32_t nl = ss_leaf_count(l);
  ss_mode *all = hb_arena_array(a, nl, sizeof *all);
  ss_flatten(l, all);
  int64_t *strides = hb_arena_array(a, nl, sizeof *strides);
  uint32_t ns = 0;
  for (uint32_t i = 0; i < nl; i++)
    if (all[i].size > 1 && all[i].stride > 0) strides[ns++] = all[i].stride;
  qsort(strides, ns, sizeof *strides, cmp_i64);
  /* the implicit leading dim's entries: the strides (a padded in-tile region) */
  add_entry(&s, IMPLICIT, 1);
  for (uint32_t i = 0; i < ns; i++)
    if (strides[i] > 1) add_entry(&s, IMPLICIT, strides[i]);
  for (int j = 0; j < r; j++) {
    const ss_layout *m = ss_mode_at(l, (uint32_t)j);
    s.dims[j] = m->size;
    ss_error e;
    const ss_layout *c = ss_coalesce(s.scratch, m, &e);
    uint32_t nd = c ? ss_leaf_count(c) : 0;
    ss_mode *dg = hb_arena_array(a, nd + 1, sizeof *dg);
    if (c) ss_flatten(c, dg);
    s.samples[j] = hb_arena_array(a, 2 * (size_t)nd + 4, sizeof *s.samples[j]);
    add_entry(&s, j, 1);
    int64_t p = 1;
    for (uint32_t k = 0; k < nd && dg[k].size > 1; k++) {
      /* the padded extent: the next larger stride over this one */
      int64_t ext = 0;
      for (uint32_t i = 0; i < ns && !ext && dg[k].stride > 0; i++)
        if (strides[i] > dg[k].stride && strides[i] % dg[k].stride == 0) ext = strides[i] / dg[k].stride;
      int64_t q;
      if (ext > dg[k].size && hb_ck_mul(p, ext, &q)) add_entry(&s, j, q);
      if (!hb_ck_mul(p, dg[k].size, &p)) break;
      add_entry(&s, j, p);
      if (p < s.dims[j]) s.samples[j][s.nsamples[j]++] = p;
      if (p - 1 > 0 && p - 1 < s.dims[j]) s.samples[j][s.nsamples[j]++] = p - 1;
    }
    if (s.dims[j] > 1) s.samples[j][s.nsamples[j]++] = 1;
    if (s.dims[j] > 2) s.samples[j][s.nsamples[j]++] = s.dims[j] - 1;
  }
  /* the candidate shape */
  hlo_shape *sh = &s.shape;
  sh->type = HLO_F32;
  sh->rank = r;
  sh->dims = s.dims;
  sh->dynamic = hb_arena_zalloc(a, (size_t)r + 1);
  sh->unbounded = hb_arena_zalloc(a, (size_t)r + 1);
  sh->layout.explicit_layout = true;
  sh->layout.n_minor_to_major = r;
  sh->layout.minor_to_major = s.m2m;
  sh->layout.tiles = s.tiles;
  sh->layout.tail_padding_alignment = 1;
  /* dims of size 1 most major, the others in every order; untiled first,
   * then one tiling level, then two */
  int *rest = hb_arena_array(a, (size_t)r + 1, sizeof *rest), nrest = 0, k = 0;
  for (int j = 0; j < r; j++) {
    if (s.dims[j] == 1) phys[k++] = j;
    else rest[nrest++] = j;
  }
  bool found = false;
  /* untiled: each dim one digit; the order is that of the strides */
  {
    int ord[8], n = 0;
    for (int j = 0; j < nrest; j++) {
      int d = rest[j], i = n++;
      int64_t st = ss_index_offset(ss_mode_at(l, (uint32_t)d), 1);
      while (i > 0 && ss_index_offset(ss_mode_at(l, (uint32_t)ord[i - 1]), 1) < st) ord[i] = ord[i - 1], i--;
      ord[i] = d;
    }
    memcpy(phys + k, ord, (size_t)n * sizeof *ord);
    set_order(&s);
    sh->layout.n_tiles = 0;
    found = check(&s);
  }
  if (!found && nrest <= SEARCH_MAX_RANK) found = permute(&s, 1, k, rest, nrest);
  if (!found && !s.stop && nrest <= SEARCH_MAX_RANK) found = permute(&s, 2, k, rest, nrest);
  out->candidates = s.tried > SEARCH_MAX_CANDIDATES ? SEARCH_MAX_CANDIDATES : s.tried;
  if (found) {
    out->found = true;
    out->dims = s.dims;
    int64_t *m2m = hb_arena_array(a, (size_t)r + 1, sizeof *m2m);
    memcpy(m2m, s.m2m, (size_t)r * sizeof *m2m);
    out->minor_to_major = m2m;
    out->ntiles = sh->layout.n_tiles;
    hlo_tile *t = hb_arena_array(a, 2, sizeof *t);
    for (int i = 0; i < out->ntiles; i++) {
      int64_t *d = hb_arena_array(a, (size_t)s.tiles[i].n_dims, sizeof *d);
      memcpy(d, s.tiles[i].dims, (size_t)s.tiles[i].n_dims * sizeof *d);
      t[i] = (hlo_tile){s.tiles[i].n_dims, d};
    }
    out->tiles = t;
  } else if (s.stop) {
    snprintf(out->why, sizeof out->why, "not found: none of the first %u candidates (minor_to_major orders, one or "
             "two tiling levels) gives these offsets", SEARCH_MAX_CANDIDATES);
  } else if (nrest > SEARCH_MAX_RANK) {
    snprintf(out->why, sizeof out->why, "not found: no untiled layout gives these offsets, and tiled layouts are "
             "searched up to %d dimensions of size > 1", SEARCH_MAX_RANK);
  } else {
    snprintf(out->why, sizeof out->why, "not found: none of the %" PRIu64 " candidates (minor_to_major orders, one or "
             "two tiling levels, tile entries from the modes' sizes and strides) gives these offsets", s.tried);
  }
  hb_arena_free(s.scratch);
}

void ss_xla_layout_print(hb_strbuf *b, const ss_xla_layout *x) {
  hb_sb_putc(b, '{');
  for (int i = 0; i < x->rank; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", x->minor_to_major[i]);
  if (x->ntiles) hb_sb_puts(b, ":T");
  for (int t = 0; t < x->ntiles; t++) {
    hb_sb_putc(b, '(');
    for (int i = 0; i < x->tiles[t].n_dims; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", x->tiles[t].dims[i]);
    hb_sb_putc(b, ')');
  }
  hb_sb_putc(b, '}');
}

/* ---- comparison ------------------------------------------------------------------------------------------ */

/* The function of mode l on [0, d) in a canonical form: flat, coalesced,
 * without size-1 modes, and without the modes (or the parts of the last
 * one) no x < d reaches. Two modes are the same function on [0, d) exactly
 * when these lists are equal (by induction on the first mode: f(1) is its
 * stride, f(size) the next stride, which coalescing keeps distinct from
 * size * stride). Returns the count; out holds ss_leaf_count(l) entries. */
static uint32_t canon(const ss_layout *l, int64_t d, ss_mode *out) {
  uint32_t n = ss_leaf_count(l), k = 0;
  ss_flatten(l, out);
  int64_t p = 1; /* the index weight of mode i */
  for (uint32_t i = 0; i < n && p < d; i++) {
    int64_t s = out[i].size, st = out[i].stride, reach = (d + p - 1) / p; /* its values for x < d */
    bool last = s >= reach;
    if (last) s = reach;
    if (s > 1) {
      if (k > 0 && out[k - 1].stride * out[k - 1].size == st) out[k - 1].size *= s;
      else out[k++] = (ss_mode){s, st};
    }
    if (last) break;
    p *= s;
  }
  return k;
}

void ss_compare_xla(hb_arena *a, ae_ctx *ctx, const ss_layout *kernel, const tl_layout *xla, ss_comparison *out) {
  memset(out, 0, sizeof *out);
  int r = xla->rank;
  out->rank = r;
  out->decided = true;
  uint32_t kr = ss_rank(kernel);
  if (r == 0) {
    out->equal = true; /* one element, at offset 0 in both */
    return;
  }
  if ((int)kr != r) {
    snprintf(out->why, sizeof out->why, "the kernel layout has rank %u, the tensor rank %d", kr, r);
    return;
  }
  for (int j = 0; j < r; j++)
    if (ss_mode_at(kernel, (uint32_t)j)->size < xla->dims[j]) {
      snprintf(out->why, sizeof out->why,
               "mode %d of the kernel layout has %" PRId64 " coordinates, dimension %d of the tensor %" PRId64, j,
               ss_mode_at(kernel, (uint32_t)j)->size, j, xla->dims[j]);
      return;
    }
  if (xla->logical_elems == 0) {
    out->equal = true;
    return;
  }
  int64_t *x = hb_arena_zalloc(a, (size_t)r * sizeof *x);
  out->witness = x;
  ss_error se;
  const ss_layout *xs = ss_from_xla(a, ctx, xla, &se);
  if (xs) {
    /* both offsets are sums over the dims, 0 at 0: compare dim by dim, each
     * by its canonical form; a difference shows first at a mode boundary
     * (or at 1) of one of the two */
    for (int j = 0; j < r; j++) {
      const ss_layout *km = ss_mode_at(kernel, (uint32_t)j), *xm = ss_mode_at(xs, (uint32_t)j);
      uint32_t nk = ss_leaf_count(km), nx = ss_leaf_count(xm);
      ss_mode *ck = hb_arena_array(a, nk, sizeof *ck), *cx = hb_arena_array(a, nx, sizeof *cx);
      uint32_t mk = canon(km, xla->dims[j], ck), mx = canon(xm, xla->dims[j], cx);
      bool same = mk == mx;
      for (uint32_t i = 0; same && i < mk; i++) same = ck[i].size == cx[i].size && ck[i].stride == cx[i].stride;
      if (same) continue;
      /* the smallest boundary where they differ */
      int64_t best = -1;
      for (int side = 0; side < 2; side++) {
        const ss_mode *c = side ? cx : ck;
        uint32_t m = side ? mx : mk;
        int64_t p = 1;
        for (uint32_t i = 0; i <= m && p < xla->dims[j]; i++) {
          x[j] = p;
          if (ss_top_offset(kernel, x) != ss_xla_offset(xla, x) && (best < 0 || p < best)) best = p;
          if (i < m && !hb_ck_mul(p, c[i].size, &p)) break;
        }
      }
      x[j] = best > 0 ? best : 1;
      out->kernel_offset = ss_top_offset(kernel, x);
      out->xla_offset = ss_xla_offset(xla, x);
      snprintf(out->why, sizeof out->why, "the offsets differ");
      return;
    }
    out->equal = true;
    out->witness = NULL;
    return;
  }
  if (xla->logical_elems > COMPARE_MAX_ELEMS) {
    out->decided = false;
    out->witness = NULL;
    snprintf(out->why, sizeof out->why, "XLA's offsets are not a sum over the dimensions, and the tensor has more "
             "than %" PRId64 " elements to compare one by one", COMPARE_MAX_ELEMS);
    return;
  }
  for (;;) {
    int64_t ko = ss_top_offset(kernel, x), xo = ss_xla_offset(xla, x);
    if (ko != xo) {
      out->kernel_offset = ko;
      out->xla_offset = xo;
      snprintf(out->why, sizeof out->why, "the offsets differ");
      return;
    }
    int j = r - 1;
    while (j >= 0 && x[j] == xla->dims[j] - 1) x[j--] = 0;
    if (j < 0) break;
    x[j]++;
  }
  out->equal = true;
  out->witness = NULL;
}
