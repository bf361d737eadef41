/* Enumeration test of tiled layouts. For many small random shapes and
 * layouts (minor_to_major permutations, 0-3 tiling levels, tiles shorter and
 * longer than the rank, '*' merges, L(n), E(n)), every logical element is
 * placed by a direct implementation of the tiling rule written here from
 * the definition (hlo-text-format.md §4.3), independent of the analysis, and
 *   - the tiled shape and the sizes equal tl_analyze's;
 *   - the offset map and the tiled-coordinates map, printed and read back,
 *     give the direct offset / coordinates of every element;
 *   - offsets are distinct and below the tiled element count;
 *   - the physical->logical map, printed and read back, maps every tiled
 *     coordinate holding an element back to it and excludes every padding
 *     coordinate from its domain;
 *   - the shape:stride form, when expressible, gives the direct offset of
 *     every element (one tiling level without '*' is always expressible);
 *   - the --physical=tiled composition of the identity (a copy to another
 *     random layout of the same dims) maps each data coordinate to the other
 *     layout's coordinate of the same element, and excludes padding.
 * Deterministic: a fixed seed (argv[1] overrides it, argv[2] the count). */
#include <inttypes.h>

#include "hlo_ir.h"
#include "../../parser/base/oom.h"
#include "test_util.h"
#include "tiled_layout.h"

static int rint_in(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

#define MAXR 5       /* logical rank */
#define MAXT 3       /* tiling levels */
#define MAXP 40      /* physical rank after tiling */
#define MAX_PHYS 6000 /* tiled elements per case */

/* ---- random shapes ------------------------------------------------------------------------- */

typedef struct {
  hlo_shape s;
  int64_t dims[MAXR], m2m[MAXR];
  bool dyn[MAXR];
  hlo_tile tiles[MAXT];
  int64_t tdims[MAXT][MAXP];
} rshape;

static const hlo_elem_type types[] = {HLO_F32, HLO_BF16, HLO_S4, HLO_PRED, HLO_F64, HLO_U8};

static void random_layout(rshape *r, bool allow_star) {
  int rank = r->s.rank;
  for (int i = 0; i < rank; i++) r->m2m[i] = i;
  for (int i = rank - 1; i > 0; i--) {
    int j = rint_in(0, i);
    int64_t t = r->m2m[i];
    r->m2m[i] = r->m2m[j];
    r->m2m[j] = t;
  }
  int nt = rint_in(0, MAXT);
  int cur = rank; /* rank of the shape the next tile applies to */
  for (int t = 0; t < nt; t++) {
    int k = rint_in(cur == 0 ? 1 : 0, cur + 1 > 4 ? 4 : cur + 1);
    if (rnd() % 8 == 0) k = rint_in(0, cur);
    if (cur + k > MAXP / 2) k = 0;
    int stars = 0;
    for (int j = 0; j < k; j++) {
      bool star = allow_star && j < k - 1 && rnd() % 4 == 0;
      r->tdims[t][j] = star ? HLO_TILE_COMBINE : rint_in(1, 6);
      stars += star;
    }
    r->tiles[t] = (hlo_tile){k, r->tdims[t]};
    int eff = cur > k ? cur : k;
    cur = eff + (k - stars); /* leading + 2 * groups */
  }
  r->s.layout = (hlo_layout){0};
  r->s.layout.explicit_layout = true;
  r->s.layout.n_minor_to_major = rank;
  r->s.layout.minor_to_major = r->m2m;
  r->s.layout.n_tiles = nt;
  r->s.layout.tiles = r->tiles;
  r->s.layout.tail_padding_alignment = rnd() % 4 == 0 ? rint_in(1, 9) : 1;
  r->s.layout.element_size_bits = rnd() % 4 == 0 ? rint_in(1, 40) : 0;
  r->s.layout.memory_space = rint_in(0, 6);
}

static void random_shape(rshape *r) {
  memset(r, 0, sizeof *r);
  r->s.type = types[rnd() % (sizeof types / sizeof *types)];
  r->s.rank = rint_in(0, MAXR - 1);
  for (int i = 0; i < r->s.rank; i++) r->dims[i] = rnd() % 40 == 0 ? 0 : rint_in(1, 7);
  r->s.dims = r->dims;
  r->s.dynamic = r->dyn;
  r->s.unbounded = r->dyn;
  random_layout(r, rnd() % 3 != 0);
}

/* ---- the direct tiling rule ------------------------------------------------------------------ */

/* Places logical index X (NULL: only the shape) of R; fills the tiled
 * shape (returns its rank) and, with X, the coordinates. */
static int place(const hlo_shape *s, const int64_t *x, int64_t *shape, int64_t *coord) {
  int n = s->rank;
  int64_t sz[MAXP], c[MAXP];
  for (int k = 0; k < n; k++) {
    int d = (int)s->layout.minor_to_major[n - 1 - k];
    sz[k] = s->dims[d];
    c[k] = x ? x[d] : 0;
  }
  for (int t = 0; t < s->layout.n_tiles; t++) {
    const hlo_tile *tl = &s->layout.tiles[t];
    int k = tl->n_dims;
    while (n < k) { /* a tile longer than the shape: size-1 dims in front */
      memmove(sz + 1, sz, (size_t)n * sizeof *sz);
      memmove(c + 1, c, (size_t)n * sizeof *c);
      sz[0] = 1;
      c[0] = 0;
      n++;
    }
    int lead = n - k, ng = 0;
    int64_t nsz[MAXP], nc[MAXP], cnt_sz[MAXP], cnt_c[MAXP], in_sz[MAXP], in_c[MAXP];
    int64_t v = 0, size = 1;
    for (int j = 0; j < k; j++) {
      v = v * sz[lead + j] + c[lead + j];
      size *= sz[lead + j];
      if (tl->dims[j] == HLO_TILE_COMBINE) continue;
      int64_t tt = tl->dims[j];
      cnt_sz[ng] = (size + tt - 1) / tt;
      cnt_c[ng] = v / tt;
      in_sz[ng] = tt;
      in_c[ng] = v % tt;
      ng++;
      v = 0;
      size = 1;
    }
    int m = 0;
    for (int i = 0; i < lead; i++, m++) nsz[m] = sz[i], nc[m] = c[i];
    for (int g = 0; g < ng; g++, m++) nsz[m] = cnt_sz[g], nc[m] = cnt_c[g];
    for (int g = 0; g < ng; g++, m++) nsz[m] = in_sz[g], nc[m] = in_c[g];
    n = m;
    memcpy(sz, nsz, (size_t)n * sizeof *sz);
    memcpy(c, nc, (size_t)n * sizeof *c);
  }
  memcpy(shape, sz, (size_t)n * sizeof *sz);
  if (coord) memcpy(coord, c, (size_t)n * sizeof *c);
  return n;
}

static int64_t linear(const int64_t *c, const int64_t *shape, int n) {
  int64_t off = 0;
  for (int k = 0; k < n; k++) off = off * shape[k] + c[k];
  return off;
}

/* Advances X over the box [0, SIZES); false after the last point. */
static bool next_point(int64_t *x, const int64_t *sizes, int n) {
  for (int i = n - 1; i >= 0; i--) {
    if (++x[i] < sizes[i]) return true;
    x[i] = 0;
  }
  return false;
}

/* ---- maps ----------------------------------------------------------------------------------- */

static hb_arena *A;
static ae_ctx *C;

/* The map printed and read back (what a user of the text sees). */
static imap *reread(const imap *m) {
  hb_strbuf b = HB_STRBUF_INIT;
  map_print(&b, m, NULL);
  map_read_error err;
  imap *r = map_read(A, C, hb_sb_str(&b), 0, b.len, &err);
  if (!r) {
    fprintf(stderr, "printed map does not read back: %s\n  %s\n", hb_sb_str(&b), err.message);
    exit(2);
  }
  hb_sb_free(&b);
  return r;
}

static bool eval_all(const imap *m, const int64_t *pt, int64_t *out) {
  for (uint32_t i = 0; i < m->nresults; i++)
    if (!ae_eval_point(m->results[i], pt, m->ndims, NULL, 0, &out[i])) return false;
  return true;
}

static const char *shape_text(const hlo_shape *s) {
  static char buf[512];
  hlo_shape_format(s, buf, sizeof buf);
  return buf;
}

/* ---- one case --------------------------------------------------------------------------------- */

static int n_cases, n_elements, n_expressible, n_not_expressible, n_padded, n_composed;

static void check_case(const rshape *r, const rshape *other) {
  const hlo_shape *s = &r->s;
  const char *name = shape_text(s);
  tl_layout l;
  tl_error err;
  if (!tl_analyze(A, s, &l, &err)) {
    CHECK(false, "%s: %s", name, err.message);
    return;
  }
  /* shape and sizes */
  int64_t shape[MAXP];
  int np = place(s, NULL, shape, NULL);
  bool same = np == l.ntiled;
  for (int k = 0; same && k < np; k++) same = shape[k] == l.tiled[k];
  CHECK(same, "%s: tiled shape", name);
  if (!same) return;
  int64_t total = 1, logical = 1;
  for (int k = 0; k < np; k++) total *= shape[k];
  for (int i = 0; i < s->rank; i++) logical *= s->dims[i];
  int64_t align = s->layout.tail_padding_alignment, phys = (total + align - 1) / align * align;
  int64_t bits = s->layout.element_size_bits ? s->layout.element_size_bits : (hlo_elem_type_bits(s->type) + 7) / 8 * 8;
  CHECK(l.tiled_elems == total && l.logical_elems == logical && l.physical_elems == phys &&
            l.bytes == (phys * bits + 7) / 8 && l.logical_bytes == (logical * bits + 7) / 8 &&
            l.memory_space == s->layout.memory_space,
        "%s: sizes", name);
  n_cases++;
  if (total > logical) n_padded++;

  imap *off = tl_logical_to_offset(A, C, &l, &err), *tm = NULL, *inv = NULL;
  if (off) tm = tl_logical_to_tiled(A, C, &l, &err);
  if (tm) inv = tl_tiled_to_logical(A, C, &l, &err);
  CHECK(inv != NULL, "%s: maps: %s", name, err.message);
  if (!inv) return;
  if (logical == 0) {
    CHECK(off->known_empty && tm->known_empty && inv->known_empty, "%s: empty array, known-empty maps", name);
    return;
  }
  off = reread(off);
  tm = reread(tm);
  inv = reread(inv);

  tl_shape_stride f;
  CHECK(tl_shape_stride_form(A, C, &l, &f, &err), "%s: shape:stride: %s", name, err.message);
  bool one_plain_level = s->layout.n_tiles <= 1;
  for (int t = 0; t < s->layout.n_tiles; t++)
    for (int j = 0; j < s->layout.tiles[t].n_dims; j++)
      if (s->layout.tiles[t].dims[j] == HLO_TILE_COMBINE) one_plain_level = false;
  CHECK(f.expressible || !one_plain_level, "%s: one tiling level without '*' must be expressible: %s", name, f.why);
  if (f.expressible) n_expressible++;
  else n_not_expressible++;

  /* the other layout (a copy): its tiled coordinates per logical element */
  tl_layout lo;
  imap *cp = NULL;
  if (other) {
    CHECK(tl_analyze(A, &other->s, &lo, &err), "%s: other layout: %s", name, err.message);
    imap *id = imap_identity(A, C, (uint32_t)s->rank, s->dims);
    cp = tl_compose_tiled(A, &l, id, &lo, &err);
    CHECK(cp != NULL, "%s -> %s: compose: %s", name, shape_text(&other->s), err.message);
    if (cp) cp = reread(cp);
    n_composed++;
  }

  /* every logical element */
  uint8_t *hit = hb_calloc((size_t)total, 1);
  int64_t *elem_of = hb_malloc((size_t)total * MAXR * sizeof *elem_of);
  int64_t x[MAXR] = {0}, coord[MAXP], got[MAXP];
  do {
    n_elements++;
    place(s, x, shape, coord);
    int64_t want = linear(coord, shape, np), o;
    CHECK(eval_all(off, x, &o) && o == want, "%s: offset", name);
    bool ok = eval_all(tm, x, got);
    for (int k = 0; ok && k < np; k++) ok = got[k] == coord[k];
    CHECK(ok, "%s: tiled coordinates", name);
    CHECK(want >= 0 && want < total && !hit[want], "%s: offset %" PRId64 " out of range or repeated", name, want);
    if (want >= 0 && want < total) {
      hit[want] = 1;
      memcpy(elem_of + want * MAXR, x, sizeof x);
    }
    if (f.expressible) {
      int64_t so = 0;
      for (int j = 0; j < s->rank; j++) {
        int64_t rest = x[j];
        for (int i = 0; i < f.nmodes[j]; i++) {
          int64_t dgt = i + 1 < f.nmodes[j] ? rest % f.modes[j][i].size : rest;
          rest /= f.modes[j][i].size;
          so += dgt * f.modes[j][i].stride;
        }
      }
      CHECK(so == want, "%s: shape:stride offset %" PRId64 ", want %" PRId64, name, so, want);
    }
  } while (next_point(x, s->dims, s->rank));

  /* every tiled coordinate */
  int64_t p[MAXP] = {0}, oshape[MAXP], ocoord[MAXP];
  do {
    int64_t lin = linear(p, shape, np);
    bool data = hit[lin];
    CHECK(dims_in_domain(inv, p) == data, "%s: inverse domain at offset %" PRId64 " (%s)", name, lin, data ? "data" : "padding");
    if (data) {
      bool ok = eval_all(inv, p, got);
      for (int j = 0; ok && j < s->rank; j++) ok = got[j] == elem_of[lin * MAXR + j];
      CHECK(ok, "%s: inverse at offset %" PRId64, name, lin);
    }
    if (cp) {
      CHECK(dims_in_domain(cp, p) == data, "%s -> %s: composed domain", name, shape_text(&other->s));
      if (data) {
        int on = place(&other->s, elem_of + lin * MAXR, oshape, ocoord);
        bool ok = eval_all(cp, p, got);
        for (int k = 0; ok && k < on; k++) ok = got[k] == ocoord[k];
        CHECK(ok && (int)cp->nresults == on, "%s -> %s: composed target", name, shape_text(&other->s));
      }
    }
  } while (next_point(p, shape, np));
  free(hit);
  free(elem_of);
}

static int64_t tiled_size(const hlo_shape *s) {
  int64_t shape[MAXP];
  int n = place(s, NULL, shape, NULL);
  int64_t t = 1;
  for (int k = 0; k < n; k++) t *= shape[k];
  return t;
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x7113d1a0u;
  int count = argc > 2 ? atoi(argv[2]) : 10000;
  rng_state = seed;
  A = hb_arena_new();
  C = ae_ctx_new();
  for (int i = 0; i < count && t_failures < 20; i++) {
    rshape r, o;
    do random_shape(&r);
    while (tiled_size(&r.s) > MAX_PHYS);
    bool copy = i % 2 == 0;
    if (copy) {
      do {
        o = r;
        o.s.dims = o.dims;
        o.s.dynamic = o.s.unbounded = o.dyn;
        random_layout(&o, true);
      } while (tiled_size(&o.s) > MAX_PHYS);
    }
    check_case(&r, copy ? &o : NULL);
    hb_arena_reset(A);
    if (i % 200 == 199) { /* keep the expression context small */
      ae_ctx_free(C);
      C = ae_ctx_new();
    }
  }
  printf("%d cases (%d padded), %d elements, shape:stride %d expressible / %d not, %d compositions\n", n_cases,
         n_padded, n_elements, n_expressible, n_not_expressible, n_composed);
  CHECK(n_cases > count / 2 && n_expressible > 0 && n_not_expressible > 0 && n_padded > 0, "coverage");
  ae_ctx_free(C);
  hb_arena_free(A);
  return t_finish("tiled_enum");
}
