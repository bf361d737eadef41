/* Symbolic tiles (symbolic_tile.h, tile_constraint.h): texts derived by
 * hand from symbolic-tiles.md §3-§4 for maps of our own, the constraint
 * algebra of §3.6, and an enumeration check: at every tile size where the
 * constraints hold, the box the tile describes is exactly the set of
 * elements the map reads for the output tile at the origin. */
#include "symbolic_tile.h"
#include "test_util.h"

static const char *tile_text(hb_arena *a, const imap *m, bool xla_compat) {
  st_tile t;
  char why[400];
  hb_strbuf b = HB_STRBUF_INIT;
  st_status st = st_derive(a, m, xla_compat, &t, why, sizeof why);
  if (st == ST_OK) st_print(&b, a, &t);
  else hb_sb_printf(&b, "%s: %s\n", st == ST_NONE ? "none" : "too large", why);
  return t_keep(&b);
}

/* {map, tile text or "none: WHY"} */
static const char *const rows[][2] = {
    /* offsets are the results at the origin; strides the multipliers */
    {"(d0, d1) -> (d1 * 3 + 7, d0), domain: d0 in [0, 4], d1 in [0, 9]",
     "Symbolic tile with\n  offset_map: (d0, d1) -> (7, 0)\n  size_map: (d0, d1) -> (d1, d0)\n"
     "  stride_map: (d0, d1) -> (3, 1)\n"},
    /* floordiv: the ceiling of the size */
    {"(d0) -> (d0 floordiv 4), domain: d0 in [0, 15]",
     "Symbolic tile with\n  offset_map: (d0) -> (0)\n  size_map: (d0) -> ((d0 + 3) floordiv 4)\n"
     "  stride_map: (d0) -> (1)\n"},
    /* (d floordiv k) mod c: the mod rule on q = (d + k - 1) floordiv k */
    {"(d0) -> ((d0 floordiv 2) mod 4), domain: d0 in [0, 15]",
     "Symbolic tile with\n  offset_map: (d0) -> (0)\n"
     "  size_map: (d0) -> ((d0 + 1) floordiv 2 - (((d0 + 1) floordiv 2 - 1) floordiv 4) * 4)\n"
     "  stride_map: (d0) -> (1)\n"
     "  constraints: ((d0 + 1) floordiv 2) mod 4 in [0, 0] || 4 mod ((d0 + 1) floordiv 2) in [0, 0]\n"},
    /* runtime variables stay in the offsets, renamed s<k> */
    {"(d0){rt0} -> (d0 + rt0 * 2), domain: d0 in [0, 3], rt0 in [0, 5]",
     "Symbolic tile with\n  offset_map: (d0)[s0] -> (s0 * 2)\n  size_map: (d0) -> (d0)\n  stride_map: (d0) -> (1)\n"
     "  rt_vars: s0 in [0, 5],\n"},
    /* an unused runtime variable disappears; the used one is renumbered */
    {"(d0){rt0, rt1} -> (d0 + rt1), domain: d0 in [0, 3], rt0 in [0, 2], rt1 in [1, 7]",
     "Symbolic tile with\n  offset_map: (d0)[s0] -> (s0)\n  size_map: (d0) -> (d0)\n  stride_map: (d0) -> (1)\n"
     "  rt_vars: s0 in [1, 7],\n"},
    /* a sum: sizes multiply, the stride is the selector nest, the
     * summation constraint "1.., any, full.., 1.." */
    {"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 2], d1 in [0, 3]",
     "Symbolic tile with\n  offset_map: (d0, d1) -> (0)\n  size_map: (d0, d1) -> (d0 * d1)\n"
     "  stride_map: (d0, d1) -> (((-d1 + 5) floordiv 4) * ((-((-d0 + 4) floordiv 3) + 1) * 4) + "
     "-((-d1 + 5) floordiv 4) + 1)\n"
     "  constraints: d0 in [1, 1] || d1 in [1, 1] || d1 in [4, 4]\n"},
    /* a reversed dimension: negative stride, offset at the far end */
    {"(d0) -> (-d0 + 9), domain: d0 in [0, 9]",
     "Symbolic tile with\n  offset_map: (d0) -> (9)\n  size_map: (d0) -> (d0)\n  stride_map: (d0) -> (-1)\n"},
    /* a range variable is covered in full and leaves the header */
    {"(d0)[s0] -> (s0, d0 * 2), domain: d0 in [0, 3], s0 in [0, 6]",
     "Symbolic tile with\n  offset_map: (d0) -> (0, 0)\n  size_map: (d0) -> (7, d0)\n  stride_map: (d0) -> (1, 2)\n"},
    /* no results */
    {"(d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 1]",
     "Symbolic tile with\n  offset_map: (d0, d1) -> ()\n  size_map: (d0, d1) -> ()\n  stride_map: (d0, d1) -> ()\n"},
    /* padding at the end is allowed: a result constrained to [0, hi] */
    {"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 3], d1 in [0, 3], d0 * 4 + d1 in [0, 13]",
     "Symbolic tile with\n  offset_map: (d0, d1) -> (0)\n  size_map: (d0, d1) -> (d0 * d1)\n"
     "  stride_map: (d0, d1) -> (((-d1 + 5) floordiv 4) * ((-((-d0 + 5) floordiv 4) + 1) * 4) + "
     "-((-d1 + 5) floordiv 4) + 1)\n"
     "  constraints: d0 in [1, 1] || d1 in [1, 1] || d1 in [4, 4]\n"},
    /* a sum whose strides do not nest */
    {"(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 3]",
     "none: the strides of the summands of d0 + d1 do not nest\n"},
    /* no tile */
    {"(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 3], d0 + d1 in [1, 5]",
     "none: a constraint that does not start at 0: d0 + d1 in [1, 5]\n"},
    {"(d0) -> (d0 * 2), domain: d0 in [0, 9], d0 mod 2 in [0, 0]",
     "none: a constraint that is not on a result: d0 mod 2 in [0, 0]\n"},
    {"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [1, 4]",
     "none: a symbol whose interval does not start at 0: s0\n"},
    {"(d0, d1) -> (d0 * 3 + d1), domain: d0 in [0, 3], d1 in [0, 4]",
     "none: the strides of the summands of d0 * 3 + d1 do not nest\n"},
    {"(d0) -> ((d0 * 3) mod 8), domain: d0 in [0, 9]",
     "none: a mod of something other than a dimension or a dimension floordiv a constant: (d0 * 3) mod 8\n"},
    {"(d0) -> ((d0 * 3) floordiv 2), domain: d0 in [0, 9]",
     "none: a floordiv other than a dimension by a positive constant: (d0 * 3) floordiv 2\n"},
    {"UNDEFINED", "none: the map is undefined (unknown indexing)\n"},
};

static void test_rows(hb_arena *a, ae_ctx *c) {
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) CHECK_STR(tile_text(a, rd(a, c, rows[i][0]), false), rows[i][1], rows[i][0]);
  /* Strides of both signs in one sum: -3 * i + j over a 2x3 tile reads
   * 3..8, but the box from the origin's element 8 with stride 1 holds
   * 8..13. hloidx adds "all positive-stride sizes 1 or all negative-stride
   * sizes 1"; XLA's tile (--xla-compat) has only the summation constraint. */
  const char *mixed = "(d0, d1) -> (d0 * -3 + d1 + 8), domain: d0 in [0, 2], d1 in [0, 2]";
  const char *head = "Symbolic tile with\n  offset_map: (d0, d1) -> (8)\n  size_map: (d0, d1) -> (d0 * d1)\n"
                     "  stride_map: (d0, d1) -> (((-d1 + 4) floordiv 3) * ((-((-d0 + 4) floordiv 3) + 1) * -3) + "
                     "-((-d1 + 4) floordiv 3) + 1)\n";
  char want[800];
  snprintf(want, sizeof want, "%s  constraints: d0 in [1, 1] || d0 in [1, 1] && d1 in [1, 1] || d0 in [1, 1] && d1 in [3, 3] || d1 in [1, 1]\n", head);
  CHECK_STR(tile_text(a, rd(a, c, mixed), false), want, "mixed signs");
  snprintf(want, sizeof want, "%s  constraints: d0 in [1, 1] || d1 in [1, 1] || d1 in [3, 3]\n", head);
  CHECK_STR(tile_text(a, rd(a, c, mixed), true), want, "mixed signs, --xla-compat");
}

/* ---- the constraint algebra (§3.6) --------------------------------------------------------------- */

static const char *dnf_text(const tc_dnf *d) {
  hb_strbuf b = HB_STRBUF_INIT;
  tc_dnf_print(&b, d);
  return t_keep(&b);
}

static void test_constraints(hb_arena *a, ae_ctx *c) {
  const ae *d0 = ae_dim(c, 0), *d1 = ae_dim(c, 1), *k128 = ae_const(c, 128);
  tc_atom a0 = {d0, iv_point(1)}, a1 = {d1, iv_point(1)}, a11 = {d1, iv_point(11)}, wide = {d1, iv_make(0, 20)};
  tc_dnf x = tc_conjunction(a, &a0, 1), y1 = tc_conjunction(a, &a1, 1), y11 = tc_conjunction(a, &a11, 1);
  tc_dnf y = tc_or(a, &y1, &y11);
  CHECK_STR(dnf_text(&y), "d1 in [1, 1] || d1 in [11, 11]", "or concatenates; `,` sorts before `1`");
  tc_dnf z;
  CHECK(tc_and(a, &x, &y, 100, &z), "and within budget");
  CHECK_STR(dnf_text(&z), "d0 in [1, 1] && d1 in [1, 1] || d0 in [1, 1] && d1 in [11, 11]", "and multiplies");
  CHECK(!tc_and(a, &y, &y, 3, &z), "and over budget");
  /* equal expressions intersect; an empty intersection drops the pair */
  CHECK(tc_and(a, &y, &y, 100, &z), "and");
  CHECK_STR(dnf_text(&z), "d1 in [1, 1] || d1 in [11, 11]", "empty intersections dropped");
  tc_dnf w = tc_conjunction(a, &wide, 1);
  CHECK(tc_and(a, &w, &y1, 100, &z), "and");
  CHECK_STR(dnf_text(&z), "d1 in [1, 1]", "intersection");
  CHECK(tc_and(a, &y1, &y11, 100, &z) && !z.satisfiable, "no pair left: unsatisfiable");
  CHECK_STR(dnf_text(&z), "unsatisfiable", "unsatisfiable text");
  tc_dnf al = tc_always();
  CHECK(tc_and(a, &al, &y, 100, &z) && z.n == 2, "always && y = y");
  z = tc_or(a, &al, &y);
  CHECK(tc_is_always(&z), "always || y = always");
  /* simplify: constants decide their atoms; an emptied conjunction makes
   * everything always satisfied; duplicates go */
  tc_atom t1 = {k128, iv_point(1)}, t128 = {k128, iv_point(128)};
  tc_atom ca[] = {t1, a0}, cb[] = {t128};
  tc_dnf p = tc_conjunction(a, ca, 2), q = tc_conjunction(a, cb, 1);
  tc_dnf pq = tc_or(a, &p, &y1);
  pq = tc_or(a, &pq, &y1);
  z = tc_simplify(a, &pq);
  CHECK_STR(dnf_text(&z), "d1 in [1, 1]", "constant outside kills, duplicates removed");
  pq = tc_or(a, &pq, &q);
  z = tc_simplify(a, &pq);
  CHECK(tc_is_always(&z), "a constant inside its interval empties a conjunction: always satisfied");
  z = tc_simplify(a, &p);
  CHECK(!z.satisfiable, "no conjunction left: unsatisfiable");
  /* the summation factor: its O(n) check agrees with XLA's expansion */
  const ae *sizes[] = {d0, d1, ae_dim(c, 2)};
  int64_t ranges[] = {2, 3, 4};
  tc_factors fs = {0, 0, NULL};
  tc_factors_add_summation(a, &fs, 3, sizes, ranges);
  tc_dnf ex;
  CHECK(tc_factors_dnf(a, &fs, 100, &ex), "expansion");
  CHECK(ex.n == 6, "n(n+1)/2 conjunctions: %u", ex.n);
  for (int64_t i = 1; i <= 2; i++)
    for (int64_t j = 1; j <= 3; j++)
      for (int64_t k = 1; k <= 4; k++) {
        int64_t v[] = {i, j, k};
        CHECK(tc_factors_hold(&fs, v, 3) == tc_dnf_holds(&ex, v, 3), "summation at (%ld, %ld, %ld)", (long)i,
              (long)j, (long)k);
      }
}

/* ---- enumeration ------------------------------------------------------------------------------------ */

typedef struct {
  int64_t *v; /* n points of `width` coordinates */
  size_t n, cap, width;
} pointset;

static void ps_add(pointset *s, const int64_t *p) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->v = realloc(s->v, s->cap * (s->width ? s->width : 1) * sizeof *s->v);
  }
  memcpy(s->v + s->n * s->width, p, s->width * sizeof *p);
  s->n++;
}

static size_t cmp_width;
static int cmp_point(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (size_t i = 0; i < cmp_width; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

static void ps_normalize(pointset *s) {
  if (!s->width || !s->n) return;
  cmp_width = s->width;
  qsort(s->v, s->n, s->width * sizeof *s->v, cmp_point);
  size_t k = 1;
  for (size_t i = 1; i < s->n; i++)
    if (cmp_point(s->v + (i - 1) * s->width, s->v + i * s->width)) memmove(s->v + k++ * s->width, s->v + i * s->width, s->width * sizeof *s->v);
  s->n = k;
}

static bool ps_equal(const pointset *a, const pointset *b) {
  return a->n == b->n && (!a->n || !memcmp(a->v, b->v, a->n * a->width * sizeof *a->v));
}

/* Advances the multi-index i (0 <= i[k] < n[k]); false after the last. */
static bool next_index(int64_t *i, const int64_t *n, uint32_t rank) {
  for (uint32_t k = rank; k-- > 0;) {
    if (++i[k] < n[k]) return true;
    i[k] = 0;
  }
  return false;
}

/* What M reads for the output box [0, ts) (dims and range variables over
 * their intervals; M has no runtime variables and no constraints). */
static void image(const imap *m, const int64_t *ts, pointset *out) {
  int64_t x[16] = {0}, ext[16], s[16] = {0}, sext[16], p[16];
  uint32_t nd = m->ndims, ns = m->nrange;
  for (uint32_t i = 0; i < nd; i++) ext[i] = ts[i];
  for (uint32_t j = 0; j < ns; j++) sext[j] = m->sym_iv[j].hi - m->sym_iv[j].lo + 1;
  do {
    do {
      int64_t sv[16];
      for (uint32_t j = 0; j < ns; j++) sv[j] = s[j] + m->sym_iv[j].lo;
      for (uint32_t r = 0; r < m->nresults; r++) ae_eval_point(m->results[r], x, nd, sv, ns, &p[r]);
      ps_add(out, p);
    } while (ns && next_index(s, sext, ns));
  } while (nd && next_index(x, ext, nd));
}

/* The box of the tile at sizes ts. */
static void box(const st_tile *t, const int64_t *ts, pointset *out) {
  int64_t size[16], stride[16], off[16], k[16] = {0}, p[16];
  st_eval(t, ts, size, stride);
  for (uint32_t r = 0; r < t->nresults; r++) ae_eval_point(t->offsets[r], NULL, 0, NULL, 0, &off[r]);
  do {
    for (uint32_t r = 0; r < t->nresults; r++) p[r] = off[r] + k[r] * stride[r];
    ps_add(out, p);
  } while (t->nresults && next_index(k, size, t->nresults));
}

static const char *const enum_maps[] = {
    "(d0, d1) -> (d1 * 3 + 7, d0), domain: d0 in [0, 4], d1 in [0, 5]",
    "(d0) -> (d0 floordiv 4), domain: d0 in [0, 11]",
    "(d0) -> (d0 mod 6), domain: d0 in [0, 11]",
    "(d0) -> ((d0 floordiv 2) mod 4), domain: d0 in [0, 15]",
    "(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 2], d1 in [0, 3]",
    "(d0, d1, d2) -> (d0 * 12 + d1 * 4 + d2), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 3]",
    "(d0, d1)[s0] -> (d1 * 4 + s0, d0), domain: d0 in [0, 2], d1 in [0, 2], s0 in [0, 3]",
    "(d0) -> (-d0 + 9), domain: d0 in [0, 9]",
    "(d0, d1) -> (d0 floordiv 3, d0 mod 3, d1), domain: d0 in [0, 11], d1 in [0, 1]",
    "(d0, d1) -> (d0 * 2 + d1 * 8), domain: d0 in [0, 3], d1 in [0, 2]",
    "(d0, d1) -> (d0 * -3 + d1 + 8), domain: d0 in [0, 2], d1 in [0, 2]",
    "(d0, d1) -> (d0 + d1 * 5), domain: d0 in [0, 4], d1 in [0, 1]",
    "(d0, d1, d2) -> (d0 * 6 + d1, d2 floordiv 2, d2 mod 2), domain: d0 in [0, 0], d1 in [0, 5], d2 in [0, 7]",
};

static void test_enumeration(hb_arena *a, ae_ctx *c) {
  for (size_t i = 0; i < sizeof enum_maps / sizeof *enum_maps; i++) {
    imap *m = rd(a, c, enum_maps[i]);
    st_tile t;
    char why[400];
    CHECK(st_derive(a, m, false, &t, why, sizeof why) == ST_OK, "%s: %s", enum_maps[i], why);
    if (!t.map) continue;
    int64_t ts[16], hi[16];
    for (uint32_t k = 0; k < m->ndims; k++) ts[k] = 1, hi[k] = m->dim_iv[k].hi + 2;
    int checked = 0;
    do {
      bool in_range = true;
      for (uint32_t k = 0; k < m->ndims; k++) in_range &= ts[k] >= 1;
      if (!in_range || !st_holds(&t, ts)) continue;
      pointset s = {NULL, 0, 0, m->nresults}, b = {NULL, 0, 0, m->nresults};
      image(m, ts, &s);
      box(&t, ts, &b);
      ps_normalize(&s);
      ps_normalize(&b);
      CHECK(ps_equal(&s, &b), "%s: the box differs from the image at tile size (%ld, ...)", enum_maps[i], (long)ts[0]);
      checked++;
      free(s.v);
      free(b.v);
    } while (next_index(ts, hi, m->ndims));
    CHECK(checked > 0, "%s: no tile size satisfies the constraints", enum_maps[i]);
  }
}

int main(void) {
  ae_ctx *c = ae_ctx_new();
  hb_arena *a = hb_arena_new();
  test_rows(a, c);
  test_constraints(a, c);
  test_enumeration(a, c);
  hb_arena_free(a);
  ae_ctx_free(c);
  return t_finish("symbolic_tile");
}
