/* tile_footprint.h against brute force: for offsets maps of several forms
 * (affine in one coordinate, sums of coordinates, floordiv / mod, runtime
 * variables, narrowed tile domains) and boxes of every stride sign,
 * clipped by the operand and counted in layout tiles, the sums over all
 * tiles, the first tile and the unions must equal what enumerating every
 * tile and box element gives. */
#include "test_util.h"
#include "tile_footprint.h"

typedef struct {
  const char *offsets;
  int64_t extent[3], size[3], stride[3], tile[3];
} fp_case;

static const fp_case cases[] = {
    /* aligned tiles, a layout tile of 4 along dim 1 */
    {"(d0, d1) -> (d0 * 2, d1 * 4), domain: d0 in [0, 4], d1 in [0, 2]", {9, 10}, {2, 4}, {1, 1}, {1, 4}},
    /* offsets not aligned with the layout tiles, overhanging the operand */
    {"(d0, d1) -> (d0 * 3 + 1, d1 * 4 - 3), domain: d0 in [0, 3], d1 in [0, 2]", {11, 7}, {3, 4}, {1, 1}, {2, 3}},
    /* a broadcast coordinate (d0 unused) and a strided dimension */
    {"(d0, d1) -> (d1 * 8 + 2), domain: d0 in [0, 5], d1 in [0, 3]", {30}, {4}, {2}, {4}},
    /* a negative stride (reverse) */
    {"(d0) -> (d0 * -4 + 15), domain: d0 in [0, 4]", {16}, {4}, {-1}, {8}},
    /* strides larger than the layout tile */
    {"(d0) -> (d0 * 12), domain: d0 in [0, 3]", {40}, {4}, {3}, {2}},
    /* two coordinates in one result (a merging reshape): enumerated */
    {"(d0, d1) -> (d0 * 8 + d1 * 2), domain: d0 in [0, 3], d1 in [0, 3]", {32}, {2}, {1}, {4}},
    /* floordiv / mod offsets */
    {"(d0, d1) -> (d0 floordiv 2, (d0 mod 2) * 3 + d1), domain: d0 in [0, 5], d1 in [0, 1]", {3, 6}, {1, 3}, {1, 1}, {1, 2}},
    /* a narrowed tile domain (one operand of a concatenate) */
    {"(d0, d1) -> (d0 * 2, d1 * 4 - 3), domain: d0 in [0, 1], d1 in [1, 2]", {4, 7}, {2, 4}, {1, 1}, {1, 1}},
    /* a constant offset and a stride-0 dimension */
    {"(d0) -> (3, 0), domain: d0 in [0, 6]", {5, 1}, {1, 1}, {0, 0}, {1, 1}},
    /* runtime offsets (taken at their lowest values) */
    {"(d0){rt0} -> (d0 * 2 + rt0), domain: d0 in [0, 3], rt0 in [1, 5]", {9}, {2}, {1}, {4}},
    /* no results: a scalar operand */
    {"(d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 1]", {0}, {0}, {0}, {0}},
};

/* Brute force: sums over every tile of the box elements inside the
 * operand and of the layout tiles they touch; the union of the boxes. */
static void brute(const imap *off, const tf_dim *d, tf_count *el, tf_count *ti, tf_count *first_el, tf_count *first_ti,
                  tf_count *uni) {
  uint32_t nd = off->ndims, nr = off->nresults, ns = imap_nsyms(off);
  int64_t x[4], k[4], p[4], o[4], syms[4];
  for (uint32_t j = 0; j < ns; j++) syms[j] = off->sym_iv[j].lo;
  for (uint32_t i = 0; i < nd; i++) x[i] = off->dim_iv[i].lo;
  static unsigned char seen[1 << 16], tseen[1 << 16];
  memset(seen, 0, sizeof seen);
  *el = *ti = *uni = 0;
  bool first = true;
  for (;;) {
    for (uint32_t r = 0; r < nr; r++) ae_eval_point(off->results[r], x, nd, syms, ns, &o[r]);
    memset(tseen, 0, sizeof tseen);
    tf_count e = 0, t = 0;
    for (uint32_t r = 0; r < nr; r++) k[r] = 0;
    for (;;) {
      bool in = true;
      uint64_t idx = 0, tidx = 0;
      for (uint32_t r = 0; r < nr; r++) {
        p[r] = o[r] + k[r] * d[r].stride;
        in &= p[r] >= 0 && p[r] < d[r].extent;
        idx = idx * 64 + (uint64_t)(p[r] & 63);
        tidx = tidx * 64 + (uint64_t)((p[r] / d[r].tile) & 63);
      }
      if (in) {
        e++;
        if (!tseen[tidx]) tseen[tidx] = 1, t++;
        if (!seen[idx]) seen[idx] = 1, (*uni)++;
      }
      uint32_t r = nr;
      while (r-- > 0) {
        if (++k[r] < d[r].size) break;
        k[r] = 0;
      }
      if (r == UINT32_MAX) break;
    }
    if (first) *first_el = e, *first_ti = t, first = false;
    *el += e, *ti += t;
    uint32_t i = nd;
    while (i-- > 0) {
      if (++x[i] <= off->dim_iv[i].hi) break;
      x[i] = off->dim_iv[i].lo;
    }
    if (i == UINT32_MAX) break;
  }
}

int main(void) {
  ae_ctx *c = ae_ctx_new();
  hb_arena *a = hb_arena_new();
  for (size_t n = 0; n < sizeof cases / sizeof *cases; n++) {
    const fp_case *fc = &cases[n];
    imap *off = rd(a, c, fc->offsets);
    tf_dim d[3];
    for (uint32_t r = 0; r < off->nresults; r++) d[r] = (tf_dim){fc->extent[r], fc->size[r], fc->stride[r], fc->tile[r]};
    tf_count el, ti, fel, fti, uni;
    brute(off, d, &el, &ti, &fel, &fti, &uni);
    tf_totals t;
    tf_sum(off, d, &t);
    CHECK(t.elems == el, "%s: elements %llu, brute force %llu", fc->offsets, (unsigned long long)t.elems, (unsigned long long)el);
    CHECK(t.tiles == ti, "%s: layout tiles %llu, brute force %llu", fc->offsets, (unsigned long long)t.tiles, (unsigned long long)ti);
    CHECK(t.first_elems == fel && t.first_tiles == fti, "%s: first tile", fc->offsets);
    CHECK(t.exact == (imap_nsyms(off) == 0), "%s: exact unless runtime offsets", fc->offsets);
    tf_count u;
    if (tf_union_separable(off, d, &u)) CHECK(u == uni, "%s: separable union %llu, brute force %llu", fc->offsets, (unsigned long long)u, (unsigned long long)uni);
    uint64_t total = 1, budget = 1 << 20, marked = 0;
    for (uint32_t r = 0; r < off->nresults; r++) total *= (uint64_t)fc->extent[r];
    uint64_t *bits = calloc(total / 64 + 1, sizeof *bits);
    CHECK(tf_mark(off, d, bits, &budget, &marked) && marked == uni, "%s: marked union %llu, brute force %llu", fc->offsets,
          (unsigned long long)marked, (unsigned long long)uni);
    free(bits);
    const imap *offs[2] = {off, off};
    const tf_dim *dims[2] = {d, d};
    if (tf_union_maps(offs, dims, 2, &u)) CHECK(u == uni, "%s: union of two equal maps", fc->offsets);
  }
  /* two maps that differ along one dimension: rows 0..3, columns {1, 5, 9} and {2, 6, 10} */
  imap *m1 = rd(a, c, "(d0, d1) -> (d0 * 2, 1), domain: d0 in [0, 1], d1 in [0, 0]");
  imap *m2 = rd(a, c, "(d0, d1) -> (d0 * 2, 2), domain: d0 in [0, 1], d1 in [0, 0]");
  tf_dim d[2] = {{4, 2, 1, 1}, {12, 3, 4, 1}};
  const imap *offs[2] = {m1, m2};
  const tf_dim *dims[2] = {d, d};
  tf_count u;
  CHECK(tf_union_maps(offs, dims, 2, &u) && u == 4 * 6, "union of two maps differing in one dimension: %llu", (unsigned long long)u);
  hb_arena_free(a);
  ae_ctx_free(c);
  return t_finish("tile_footprint");
}
