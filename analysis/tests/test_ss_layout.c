/* Shape:stride layouts (ss_layout.h, ss_algebra.h, ss_read.h, ss_xla.h).
 *
 * Worked examples first (the seed facts: crd2offset((1,5)) = 37 in the zN
 * layout ((4,2),(4,3)):((4,16),(1,32)), MakeLayoutTile of it with (4,4),
 * CuTe's documented composition and complement examples, element (2,3) of
 * f32[3,5]{1,0:T(2,2)} at offset 17).
 *
 * Then random layouts (rank <= 3, depth <= 2, sizes <= 8) against a direct
 * definition by element lists: E(L)[i] = the offset of 1-D index i, computed
 * here by a separate colexicographic walk. Every operation is checked on
 * the lists: size, cosize, crd2offset, offset -> coordinates, injectivity,
 * the offset and inverse maps (evaluated), coalesce, composition (R(i) =
 * A(B(i)), A's last mode unbounded), complement (with A a bijection onto
 * [0, size(A) * size(C)) of the right size), logical divide and product
 * (their defining compositions), make_layout_tile, the fractal formats (the
 * offset of each matrix element by the fractal rule), reading the printed
 * text back. Random XLA layouts check the shape:stride form, ss_xla_offset
 * and XLA's offset map against each other, ss_to_xla's answers, and the
 * kernel-layout comparison and its witness. */
#include <inttypes.h>

#include "../parser/hlo_ir.h"
#include "ss_algebra.h"
#include "ss_read.h"
#include "ss_xla.h"
#include "test_util.h"

static int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---- the direct definition ---------------------------------------------------------------------------- */

/* The product of the leaf sizes. */
static int64_t leaf_product(const ss_layout *l) {
  if (l->n == 0) return l->size;
  int64_t p = 1;
  for (uint32_t i = 0; i < l->n; i++) p *= leaf_product(&l->child[i]);
  return p;
}

/* Offset of index x of node l: split colexicographically over the
 * children, the last taking what is left, as CuTe's 1-D index does. */
static int64_t direct(const ss_layout *l, int64_t x) {
  if (l->n == 0) return x * l->stride;
  int64_t off = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    int64_t sz = leaf_product(&l->child[i]);
    off += direct(&l->child[i], i + 1 < l->n ? x % sz : x);
    x /= sz;
  }
  return off;
}

/* E(L): the offsets of indices 0..size-1. */
static int64_t *elems(const ss_layout *l, int64_t *n) {
  int64_t sz = leaf_product(l);
  int64_t *e = malloc((size_t)sz * sizeof *e);
  for (int64_t i = 0; i < sz; i++) e[i] = direct(l, i);
  *n = sz;
  return e;
}

/* A's offsets continued past size(A), as composition sees A: its flat modes
 * without the size-1 ones, the last one unbounded. */
static int64_t direct_ext(const ss_layout *l, int64_t x) {
  ss_mode m[SS_MAX_LEAVES];
  ss_flatten(l, m);
  uint32_t n = 0;
  for (uint32_t k = 0; k < ss_leaf_count(l); k++)
    if (m[k].size > 1) m[n++] = m[k];
  int64_t off = 0;
  for (uint32_t k = 0; k < n; k++) {
    int64_t c = k + 1 < n ? x % m[k].size : x;
    off += c * m[k].stride;
    x /= m[k].size;
  }
  return off;
}

/* ---- random layouts ------------------------------------------------------------------------------------- */

static ss_layout *gen_node(hb_arena *a, int depth, bool zero_ok) {
  if (depth == 0 || rnd() % 2) {
    int64_t size = rnd_in(1, 8);
    int64_t stride = rnd() % 5 == 0 && zero_ok ? 0 : rnd_in(1, 12);
    return ss_leaf(a, size, stride);
  }
  uint32_t n = (uint32_t)rnd_in(1, 3);
  ss_layout ch[3];
  for (uint32_t i = 0; i < n; i++) ch[i] = *gen_node(a, depth - 1, zero_ok);
  ss_error e;
  return ss_tuple(a, ch, n, &e);
}

/* Random layouts of at most 4096 elements. */
static ss_layout *gen_layout_any(hb_arena *a, bool zero_ok) {
  uint32_t r = (uint32_t)rnd_in(1, 3);
  if (r == 1 && rnd() % 2) return gen_node(a, 2, zero_ok);
  ss_layout ch[3];
  for (uint32_t i = 0; i < r; i++) ch[i] = *gen_node(a, 1, zero_ok);
  ss_error e;
  return ss_tuple(a, ch, r, &e);
}

static ss_layout *gen_layout(hb_arena *a, bool zero_ok) {
  for (;;) {
    ss_layout *l = gen_layout_any(a, zero_ok);
    if (leaf_product(l) <= 4096) return l;
  }
}

/* A compact layout: a random product of modes, strides a random order of the
 * column-major ones (so that compositions and complements are defined often). */
static ss_layout *gen_compact(hb_arena *a) {
  ss_mode m[6];
  uint32_t n = (uint32_t)rnd_in(1, 4);
  for (uint32_t i = 0; i < n; i++) m[i].size = rnd_in(1, 6);
  uint32_t perm[6];
  for (uint32_t i = 0; i < n; i++) perm[i] = i;
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)(rnd() % i), t = perm[i - 1];
    perm[i - 1] = perm[j], perm[j] = t;
  }
  int64_t st = 1;
  for (uint32_t i = 0; i < n; i++) {
    m[perm[i]].stride = st;
    st *= m[perm[i]].size;
  }
  ss_error e;
  /* group the flat modes into up to 2 top-level modes */
  if (n >= 2 && rnd() % 2) {
    uint32_t cut = (uint32_t)rnd_in(1, n - 1);
    ss_layout *x = ss_from_modes(a, m, cut, &e), *y = ss_from_modes(a, m + cut, n - cut, &e);
    ss_layout ch[2] = {*x, *y};
    return ss_tuple(a, ch, 2, &e);
  }
  return ss_from_modes(a, m, n, &e);
}

static long n_cases, n_fail;
static long n_comp, n_comp_def, n_compl_def, n_div_def, n_prod_def, n_inv, n_xla, n_xla_ss, n_xla_found;

static const char *lstr(const ss_layout *l) {
  hb_strbuf b = HB_STRBUF_INIT;
  ss_print(&b, l);
  return t_keep(&b);
}

#define FAILIF(cond, ...)                                                                 \
  do {                                                                                    \
    if (cond) {                                                                           \
      n_fail++;                                                                           \
      if (n_fail <= 20) {                                                                 \
        fprintf(stderr, "FAIL line %d: ", __LINE__);                                      \
        fprintf(stderr, __VA_ARGS__);                                                     \
        fputc('\n', stderr);                                                              \
      }                                                                                   \
    }                                                                                     \
  } while (0)

/* The properties of one layout by itself. */
static void check_layout(hb_arena *a, ae_ctx *c, const ss_layout *l) {
  int64_t n, *e = elems(l, &n);
  FAILIF(ss_size(l) != n, "size %s", lstr(l));
  int64_t mx = 0;
  for (int64_t i = 0; i < n; i++) {
    FAILIF(ss_index_offset(l, i) != e[i], "index offset %s at %" PRId64, lstr(l), i);
    if (e[i] > mx) mx = e[i];
  }
  FAILIF(ss_cosize(l) != mx + 1, "cosize %s", lstr(l));
  /* injectivity */
  int64_t *cnt = calloc((size_t)mx + 1, sizeof *cnt);
  for (int64_t i = 0; i < n; i++) cnt[e[i]]++;
  bool inj = true, compact;
  for (int64_t o = 0; o <= mx; o++) inj &= cnt[o] <= 1;
  compact = inj && mx + 1 == n;
  ss_injectivity ij;
  ss_check_injective(l, &ij);
  FAILIF(ij.injective != (inj ? SS_YES : SS_NO) || (inj && ij.compact != compact), "injective %s", lstr(l));
  if (ij.injective == SS_NO) FAILIF(e[ij.witness_a] != e[ij.witness_b] || ij.witness_a == ij.witness_b, "witness %s", lstr(l));
  if (ij.injective == SS_YES && !compact) FAILIF(ij.gap < 0 || ij.gap > mx || cnt[ij.gap] != 0, "gap %s", lstr(l));
  /* offset -> indices */
  for (int64_t o = 0; o <= mx + 1; o++) {
    int64_t idx[64];
    uint64_t count;
    bool complete;
    ss_offset_indices(l, o, idx, 64, &count, &complete);
    uint64_t want = o <= mx ? (uint64_t)cnt[o] : 0;
    FAILIF(!complete || count != want, "offset %" PRId64 " count %" PRIu64 " want %" PRIu64 " in %s", o, count, want,
           lstr(l));
    for (uint64_t k = 0; k < count && k < 64; k++) FAILIF(e[idx[k]] != o, "offset %" PRId64 " index in %s", o, lstr(l));
  }
  /* crd2offset of the hierarchical and top-level coordinates */
  for (int64_t i = 0; i < n; i++) {
    ss_coord *hc = ss_index_coord(a, l, i);
    int64_t off;
    ss_error err;
    FAILIF(!ss_crd2offset(l, hc, &off, &err) || off != e[i], "crd2offset %s", lstr(l));
    int64_t top[4];
    ss_index_top(l, i, top);
    FAILIF(ss_top_offset(l, top) != e[i], "top offset %s", lstr(l));
    /* printed and read back */
    hb_strbuf b = HB_STRBUF_INIT;
    ss_print_coord(&b, hc);
    ss_coord *rc = ss_read_coord(a, hb_sb_str(&b), &err);
    FAILIF(!rc || !ss_crd2offset(l, rc, &off, &err) || off != e[i], "coord read back %s: %s", lstr(l), hb_sb_str(&b));
    hb_sb_free(&b);
  }
  /* the offset map at every top-level coordinate */
  ss_error err;
  imap *m = ss_offset_map(a, c, l, NULL, &err);
  FAILIF(!m, "offset map %s", lstr(l));
  if (m)
    for (int64_t i = 0; i < n; i++) {
      int64_t top[4], v;
      ss_index_top(l, i, top);
      FAILIF(!ae_eval_point(m->results[0], top, m->ndims, NULL, 0, &v) || v != e[i], "offset map %s", lstr(l));
    }
  /* the inverse map: in the domain exactly the offsets reached, the coordinate back */
  const char *why;
  imap *inv = ss_inverse_map(a, c, l, NULL, &why, &err);
  if (inv) {
    n_inv++;
    FAILIF(!inj, "inverse map of a non-injective layout %s", lstr(l));
    for (int64_t o = 0; o <= mx; o++) {
      bool in = dims_in_domain(inv, &o);
      FAILIF(in != (cnt[o] == 1), "inverse domain at %" PRId64 " of %s", o, lstr(l));
      if (!in) continue;
      int64_t i = 0;
      while (e[i] != o) i++;
      int64_t top[4];
      ss_index_top(l, i, top);
      for (uint32_t k = 0; k < inv->nresults; k++) {
        int64_t v;
        FAILIF(!ae_eval_point(inv->results[k], &o, 1, NULL, 0, &v) || v != top[k], "inverse %s at %" PRId64, lstr(l), o);
      }
    }
  } else {
    FAILIF(!why, "inverse map error %s", lstr(l));
  }
  /* text: printed and read back */
  {
    hb_strbuf b = HB_STRBUF_INIT;
    ss_print(&b, l);
    ss_read_result res;
    ss_read_error rerr;
    FAILIF(!ss_read(a, hb_sb_str(&b), 0, b.len, NULL, NULL, &res, &rerr) || !ss_equal(res.layout, l), "read back %s",
           hb_sb_str(&b));
    hb_sb_free(&b);
  }
  /* coalesce: the same function of the index, flat, nothing left to merge */
  ss_layout *co = ss_coalesce(a, l, &err);
  int64_t cn, *ce = co ? elems(co, &cn) : NULL;
  FAILIF(!co || cn != n || memcmp(ce, e, (size_t)n * sizeof *e) != 0 || ss_depth(co) > 1, "coalesce %s -> %s", lstr(l),
         co ? lstr(co) : "-");
  if (co && co->n) {
    for (uint32_t i = 0; i < co->n; i++) FAILIF(co->child[i].size == 1, "coalesce keeps a size-1 mode %s", lstr(l));
    for (uint32_t i = 1; i < co->n; i++)
      FAILIF(co->child[i].stride == co->child[i - 1].size * co->child[i - 1].stride, "coalesce missed a merge %s",
             lstr(l));
  }
  free(ce);
  if (l->n) {
    ss_layout *cm = ss_coalesce_modes(a, l, &err);
    int64_t mn, *me = cm ? elems(cm, &mn) : NULL;
    FAILIF(!cm || ss_rank(cm) != ss_rank(l) || mn != n || memcmp(me, e, (size_t)n * sizeof *e) != 0,
           "coalesce by mode %s", lstr(l));
    free(me);
  }
  free(cnt);
  free(e);
}

/* composition(A, B): R(i) = A(B(i)) for every i < size(B); R shaped like B. */
static void check_composition(hb_arena *a, const ss_layout *A, const ss_layout *B) {
  ss_error err;
  n_comp++;
  ss_layout *R = ss_composition(a, A, B, &err);
  if (!R) return;
  n_comp_def++;
  int64_t nb, *eb = elems(B, &nb), nr, *er = elems(R, &nr);
  /* R is shaped like B: its size, and by mode when B is a tuple (a leaf of B
   * may become several modes of R, as in CuTe) */
  FAILIF(nr != nb || (B->n && ss_rank(R) != ss_rank(B)), "composition shape %s o %s = %s", lstr(A), lstr(B), lstr(R));
  for (uint32_t i = 0; i < ss_rank(B) && B->n; i++)
    FAILIF(ss_mode_at(R, i)->size != ss_mode_at(B, i)->size, "composition mode sizes %s o %s", lstr(A), lstr(B));
  for (int64_t i = 0; i < nb && nr == nb; i++)
    FAILIF(er[i] != direct_ext(A, eb[i]), "composition %s o %s = %s at %" PRId64, lstr(A), lstr(B), lstr(R), i);
  free(eb);
  free(er);
}

/* complement(A, M): (A*, C) is a bijection onto [0, size(A*) * size(C)) =
 * [0, X * ceil(M / X)), A* = A without its stride-0 and size-1 modes, X its
 * largest extent (stride * size). */
static void check_complement(hb_arena *a, const ss_layout *A, int64_t M) {
  ss_error err;
  ss_layout *C = ss_complement(a, A, M, &err);
  if (!C) return;
  n_compl_def++;
  ss_mode m[SS_MAX_LEAVES];
  ss_flatten(A, m);
  uint32_t k = 0;
  int64_t X = 1;
  for (uint32_t i = 0; i < ss_leaf_count(A); i++)
    if (m[i].size > 1 && m[i].stride > 0) {
      m[k++] = m[i];
      if (m[i].size * m[i].stride > X) X = m[i].size * m[i].stride;
    }
  ss_layout *As = ss_from_modes(a, m, k, &err);
  const ss_layout *parts[2] = {As, C};
  ss_layout *AC = ss_make_layout(a, parts, 2, &err);
  int64_t n, *e = elems(AC, &n);
  int64_t want = X * ((M + X - 1) / X);
  FAILIF(n != want, "complement size %s, %" PRId64 " -> %s", lstr(A), M, lstr(C));
  bool *seen = calloc((size_t)n + 1, 1);
  for (int64_t i = 0; i < n; i++) {
    FAILIF(e[i] < 0 || e[i] >= n || seen[e[i]], "complement not a bijection %s, %" PRId64 " -> %s", lstr(A), M, lstr(C));
    if (e[i] >= 0 && e[i] < n) seen[e[i]] = true;
  }
  free(seen);
  free(e);
}

static void check_divide_product(hb_arena *a, const ss_layout *A, const ss_layout *B) {
  ss_error err;
  ss_layout *D = ss_logical_divide(a, A, B, &err);
  if (D) {
    n_div_def++;
    ss_layout *C = ss_complement(a, B, ss_size(A), &err);
    const ss_layout *parts[2] = {B, C};
    ss_layout *BC = ss_make_layout(a, parts, 2, &err);
    int64_t nd, *ed = elems(D, &nd), nbc, *ebc = elems(BC, &nbc);
    FAILIF(nd != nbc, "divide size %s / %s", lstr(A), lstr(B));
    for (int64_t i = 0; i < nd && nd == nbc; i++)
      FAILIF(ed[i] != direct_ext(A, ebc[i]), "divide %s / %s at %" PRId64, lstr(A), lstr(B), i);
    free(ed);
    free(ebc);
  }
  ss_layout *P = ss_logical_product(a, A, B, &err);
  if (P) {
    n_prod_def++;
    ss_layout *C = ss_complement(a, A, ss_size(A) * ss_cosize(B), &err);
    int64_t np, *ep = elems(P, &np), na, *ea = elems(A, &na), nb, *eb = elems(B, &nb);
    FAILIF(np != na * nb || ss_rank(P) != 2, "product size %s x %s", lstr(A), lstr(B));
    for (int64_t i = 0; i < np && np == na * nb; i++)
      FAILIF(ep[i] != ea[i % na] + direct_ext(C, eb[i / na]), "product %s x %s at %" PRId64, lstr(A), lstr(B), i);
    free(ep);
    free(ea);
    free(eb);
  }
}

static void check_tile(hb_arena *a, const ss_layout *l) {
  uint32_t r = ss_rank(l);
  int64_t t[3];
  for (uint32_t i = 0; i < r; i++) t[i] = rnd_in(1, 12);
  ss_error err;
  ss_layout *T = ss_make_layout_tile(a, l, t, r, &err);
  bool deep = false;
  for (uint32_t i = 0; i < r; i++) deep |= ss_depth(ss_mode_at(l, i)) > 1;
  FAILIF(!T != deep, "make_layout_tile defined %s", lstr(l));
  if (!T) return;
  for (uint32_t i = 0; i < r; i++) {
    const ss_layout *m = ss_mode_at(l, i), *x = ss_mode_at(T, i);
    FAILIF(x->n != m->n, "tile profile %s", lstr(l));
    if (!m->n) {
      FAILIF(x->size != t[i] || x->stride != m->stride, "tile flat mode %s", lstr(l));
      continue;
    }
    int64_t inner = 1;
    for (uint32_t j = 0; j + 1 < m->n; j++) {
      FAILIF(x->child[j].size != m->child[j].size, "tile inner %s", lstr(l));
      inner *= m->child[j].size;
    }
    for (uint32_t j = 0; j < m->n; j++) FAILIF(x->child[j].stride != m->child[j].stride, "tile strides %s", lstr(l));
    FAILIF(x->child[m->n - 1].size != (t[i] + inner - 1) / inner, "tile outer %s", lstr(l));
  }
}

/* The offset of matrix element (i, j) in a fractal format, by the rule. */
static int64_t fractal_rule(ss_fractal f, int64_t c0, int64_t fr, int64_t rows, int64_t cols, int64_t i, int64_t j) {
  bool z = f == SS_ZN || f == SS_ZZ;           /* row-major inside */
  bool Z = f == SS_ZZ || f == SS_NZ;           /* row-major between */
  int64_t R = z ? fr : c0, C = z ? c0 : fr;   /* a fractal: R rows, C columns */
  int64_t nr = (rows + R - 1) / R, nc = (cols + C - 1) / C;
  int64_t inside = z ? (i % R) * C + j % C : (j % C) * R + i % R;
  int64_t which = Z ? (i / R) * nc + j / C : (j / C) * nr + i / R;
  return which * R * C + inside;
}

static void check_fractal(hb_arena *a) {
  static const int bits[] = {8, 16, 32, 64};
  ss_fractal f = (ss_fractal)(rnd() % 4);
  int b = bits[rnd() % 4];
  int64_t rows = rnd_in(1, 40), cols = rnd_in(1, 40), fr = rnd() % 2 ? 16 : rnd_in(1, 8), c0 = 256 / b;
  ss_error err;
  ss_layout *l = ss_fractal_layout(a, f, b, rows, cols, fr, &err);
  FAILIF(!l, "fractal %s", err.message);
  if (!l) return;
  for (int64_t i = 0; i < ss_mode_at(l, 0)->size; i++)
    for (int64_t j = 0; j < ss_mode_at(l, 1)->size; j++) {
      int64_t x[2] = {i, j};
      FAILIF(ss_top_offset(l, x) != fractal_rule(f, c0, fr, rows, cols, i, j), "fractal %s %d-bit %" PRId64 "x%" PRId64
             " (%" PRId64 ") at (%" PRId64 ",%" PRId64 ")", ss_fractal_name(f), b, rows, cols, fr, i, j);
    }
  ss_injectivity ij;
  ss_check_injective(l, &ij);
  FAILIF(!ij.compact, "fractal not compact %s", lstr(l));
}

/* ---- XLA layouts ------------------------------------------------------------------------------------------------- */

static hlo_shape *gen_xla(hb_arena *a) {
  hlo_shape *s = hb_arena_zalloc(a, sizeof *s);
  int r = (int)rnd_in(1, 3);
  int64_t *dims = hb_arena_array(a, 4, sizeof *dims), *m2m = hb_arena_array(a, 4, sizeof *m2m);
  for (int i = 0; i < r; i++) dims[i] = rnd_in(1, 8), m2m[i] = i;
  for (int i = r; i > 1; i--) {
    int j = (int)(rnd() % (uint64_t)i);
    int64_t t = m2m[i - 1];
    m2m[i - 1] = m2m[j], m2m[j] = t;
  }
  s->type = HLO_F32;
  s->rank = r;
  s->dims = dims;
  s->dynamic = hb_arena_zalloc(a, 4);
  s->unbounded = hb_arena_zalloc(a, 4);
  s->layout.explicit_layout = true;
  s->layout.n_minor_to_major = r;
  s->layout.minor_to_major = m2m;
  s->layout.tail_padding_alignment = 1;
  int nt = (int)rnd_in(0, 2);
  hlo_tile *t = hb_arena_array(a, 2, sizeof *t);
  for (int k = 0; k < nt; k++) {
    int n = (int)rnd_in(1, r + 1);
    int64_t *d = hb_arena_array(a, (size_t)n, sizeof *d);
    for (int i = 0; i < n; i++) d[i] = rnd() % 8 == 0 && i + 1 < n ? HLO_TILE_COMBINE : rnd_in(1, 4);
    t[k] = (hlo_tile){n, d};
  }
  s->layout.n_tiles = nt;
  s->layout.tiles = t;
  return s;
}

static void check_xla(hb_arena *a, ae_ctx *c) {
  hlo_shape *s = gen_xla(a);
  tl_layout tl;
  tl_error te;
  if (!tl_analyze(a, s, &tl, &te)) return;
  n_xla++;
  imap *off = tl_logical_to_offset(a, c, &tl, &te);
  ss_error err;
  const ss_layout *l = ss_from_xla(a, c, &tl, &err);
  int64_t x[4] = {0};
  for (int64_t k = 0; k < tl.logical_elems; k++) {
    int64_t v, o = ss_xla_offset(&tl, x);
    FAILIF(!off || !ae_eval_point(off->results[0], x, (size_t)tl.rank, NULL, 0, &v) || v != o, "xla offset");
    if (l) FAILIF(ss_top_offset(l, x) != o, "shape:stride form of an XLA layout: %s", lstr(l));
    int i = tl.rank - 1;
    while (i >= 0 && x[i] == tl.dims[i] - 1) x[i--] = 0;
    if (i >= 0) x[i]++;
  }
  if (!l) return;
  /* the kernel comparison: equal to itself; a changed stride differs, with a true witness */
  ss_comparison cmp;
  ss_compare_xla(a, c, l, &tl, &cmp);
  FAILIF(!cmp.equal, "compare with itself %s", lstr(l));
  ss_mode m[SS_MAX_LEAVES];
  uint32_t nl = ss_leaf_count(l);
  ss_flatten(l, m);
  uint32_t k = (uint32_t)(rnd() % nl);
  m[k].stride += 1;
  /* rebuilt with the same profile: one mode per top-level mode when flat */
  ss_layout *ch = hb_arena_array(a, (size_t)tl.rank, sizeof *ch);
  for (int j = 0, at = 0; j < tl.rank; j++) {
    uint32_t cnt = ss_leaf_count(ss_mode_at(l, (uint32_t)j));
    ch[j] = *ss_from_modes(a, m + at, cnt, &err);
    at += (int)cnt;
  }
  ss_layout *bad = ss_tuple(a, ch, (uint32_t)tl.rank, &err);
  ss_compare_xla(a, c, bad, &tl, &cmp);
  bool differs = m[k].size > 1;
  if (differs && cmp.equal) {
    /* the changed mode may lie entirely in the padding */
    differs = false;
    int64_t y[4] = {0};
    for (int64_t q = 0; q < tl.logical_elems && !differs; q++) {
      differs = ss_top_offset(bad, y) != ss_xla_offset(&tl, y);
      int i = tl.rank - 1;
      while (i >= 0 && y[i] == tl.dims[i] - 1) y[i--] = 0;
      if (i >= 0) y[i]++;
    }
  }
  FAILIF(cmp.equal == differs, "compare a changed layout %s", lstr(bad));
  if (!cmp.equal && cmp.witness)
    FAILIF(ss_top_offset(bad, cmp.witness) != cmp.kernel_offset || ss_xla_offset(&tl, cmp.witness) != cmp.xla_offset ||
               cmp.kernel_offset == cmp.xla_offset,
           "witness %s", lstr(bad));
  /* ss_to_xla over the mode sizes: a found layout gives every coordinate the
   * same offset (one case in four: the search is the slow part) */
  if (rnd() % 4) return;
  ss_xla_layout xl;
  ss_to_xla(a, l, &xl);
  n_xla_ss++;
  if (!xl.found) {
    if (getenv("SS_SHOW_MISSED")) {
      char txt[200];
      hlo_shape_format(s, txt, sizeof txt);
      fprintf(stderr, "not found: %s = %s: %s\n", txt, lstr(l), xl.why);
    }
    return;
  }
  n_xla_found++;
  hlo_shape *s2 = hb_arena_zalloc(a, sizeof *s2);
  *s2 = *s;
  s2->dims = xl.dims;
  s2->layout.minor_to_major = xl.minor_to_major;
  s2->layout.n_tiles = xl.ntiles;
  s2->layout.tiles = xl.tiles;
  tl_layout t2;
  FAILIF(!tl_analyze(a, s2, &t2, &te), "ss_to_xla's layout does not analyse");
  int64_t y[4] = {0};
  for (int64_t q = 0; q < t2.logical_elems; q++) {
    FAILIF(ss_xla_offset(&t2, y) != ss_top_offset(l, y), "ss_to_xla %s", lstr(l));
    int i = t2.rank - 1;
    while (i >= 0 && y[i] == t2.dims[i] - 1) y[i--] = 0;
    if (i >= 0) y[i]++;
  }
}

/* ---- worked examples ---------------------------------------------------------------------------------------------- */

static const ss_layout *rd_layout(hb_arena *a, const char *text) {
  ss_read_result res;
  ss_read_error err;
  if (!ss_read(a, text, 0, strlen(text), NULL, NULL, &res, &err)) {
    fprintf(stderr, "test layout does not read: %s: %s\n", text, err.message);
    exit(2);
  }
  return res.layout;
}

static void test_examples(hb_arena *a, ae_ctx *c) {
  const ss_layout *zn = rd_layout(a, "((4,2),(4,3)):((4,16),(1,32))");
  ss_error err;
  ss_coord *at = ss_read_coord(a, "(1,5)", &err);
  int64_t off;
  CHECK(ss_crd2offset(zn, at, &off, &err) && off == 37, "crd2offset((1,5)) = 37: 1 -> (1,0): 4; 5 -> (1,1): 1 + 32");
  CHECK_STR(lstr(rd_layout(a, "zN(f64, 8, 12, 4)")), "((4,2),(4,3)):((4,16),(1,32))", "zN of f64 (C0 = 4), 4 C0s per fractal");
  CHECK_STR(lstr(rd_layout(a, "make_layout_tile(((4,2),(4,3)):((4,16),(1,32)), (4,4))")),
            "((4,1),(4,1)):((4,16),(1,32))", "MakeLayoutTile keeps the strides, outer = ceil(4 / 4)");
  CHECK_STR(lstr(rd_layout(a, "((_4,2),(_4,_3)):((_4,_16),(_1,32))")), "((4,2),(4,3)):((4,16),(1,32))", "_N spellings");
  /* CuTe's documentation examples */
  CHECK_STR(lstr(rd_layout(a, "composition((6,2):(8,2), (4,3):(3,1))")), "((2,2),3):((24,2),8)", "composition");
  CHECK_STR(lstr(rd_layout(a, "complement((2,2):(1,6), 24)")), "(3,2):(2,12)", "complement");
  CHECK_STR(lstr(rd_layout(a, "complement(4:1, 24)")), "6:4", "complement of 4:1");
  CHECK_STR(lstr(rd_layout(a, "coalesce((2,(1,6)):(1,(6,2)))")), "12:1", "coalesce");
  CHECK_STR(lstr(rd_layout(a, "logical_divide((4,2,3):(2,1,8), 4:2)")), "((2,2),(2,3)):((4,1),(2,8))",
            "logical_divide (CuTe docs)");
  CHECK_STR(lstr(rd_layout(a, "logical_product((2,2):(4,1), 6:1)")), "((2,2),(2,3)):((4,1),(2,8))",
            "logical_product (CuTe docs)");
  /* CATLASS's zN of f16 for a 32 x 48 block: 16 x 16 fractals */
  CHECK_STR(lstr(rd_layout(a, "zN(f16, 32, 48)")), "((16,2),(16,3)):((16,256),(1,512))", "zN f16");
  CHECK_STR(lstr(rd_layout(a, "nZ(f16, 32, 48)")), "((16,2),(16,3)):((1,768),(16,256))", "nZ f16");
  CHECK_STR(lstr(rd_layout(a, "zZ(f16, 32, 48)")), "((16,2),(16,3)):((16,768),(1,256))", "zZ f16");
  CHECK_STR(lstr(rd_layout(a, "nN(f16, 32, 48)")), "((16,2),(16,3)):((1,256),(16,512))", "nN f16");
  /* element (2,3) of f32[3,5]{1,0:T(2,2)}: tile (1,1), in-tile (0,1): 1*12 + 1*4 + 0*2 + 1 */
  hlo_shape s = {0};
  int64_t dims[2] = {3, 5}, m2m[2] = {1, 0}, td[2] = {2, 2};
  bool f[2] = {false, false};
  hlo_tile tile = {2, td};
  s.type = HLO_F32;
  s.rank = 2;
  s.dims = dims;
  s.dynamic = s.unbounded = f;
  s.layout = (hlo_layout){.explicit_layout = true, .n_minor_to_major = 2, .minor_to_major = m2m, .n_tiles = 1,
                          .tiles = &tile, .tail_padding_alignment = 1};
  tl_layout tl;
  tl_error te;
  CHECK(tl_analyze(a, &s, &tl, &te), "f32[3,5]{1,0:T(2,2)} analyses");
  int64_t x[2] = {2, 3};
  CHECK(ss_xla_offset(&tl, x) == 17, "(2,3) -> 17");
  const ss_layout *l = ss_from_xla(a, c, &tl, &err);
  CHECK(l && !strcmp(lstr(l), "((2,2),(2,3)):((2,12),(1,4))") && ss_top_offset(l, x) == 17, "its shape:stride form");
  /* shape:stride -> XLA */
  ss_xla_layout xl;
  ss_to_xla(a, rd_layout(a, "(2,3):(1,2)"), &xl);
  hb_strbuf b = HB_STRBUF_INIT;
  if (xl.found) ss_xla_layout_print(&b, &xl);
  CHECK_STR(t_keep(&b), "{0,1}", "column-major (2,3):(1,2) is {0,1}");
  ss_to_xla(a, rd_layout(a, "(2,2):(2,2)"), &xl);
  CHECK(!xl.found && strstr(xl.why, "share an offset"), "not injective: no XLA layout");
}

int main(int argc, char **argv) {
  ae_ctx *c = ae_ctx_new();
  hb_arena *a = hb_arena_new();
  test_examples(a, c);
  hb_arena_free(a);
  rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : 20250401;
#ifdef __SANITIZE_ADDRESS__
  long count = argc > 2 ? strtol(argv[2], NULL, 0) : 600; /* every arena allocation a malloc: slower */
#else
  long count = argc > 2 ? strtol(argv[2], NULL, 0) : 3000;
#endif
  for (long i = 0; i < count; i++) {
    a = hb_arena_new();
    n_cases++;
    ss_layout *l = gen_layout(a, true);
    check_layout(a, c, l);
    check_tile(a, l);
    /* compositions: random B over random A, and over compact A (defined more often) */
    ss_layout *A = rnd() % 2 ? gen_layout(a, true) : gen_compact(a);
    ss_layout *B = gen_layout(a, true);
    check_composition(a, A, B);
    check_composition(a, gen_compact(a), gen_compact(a));
    check_complement(a, gen_layout(a, true), rnd_in(1, 200));
    check_complement(a, gen_compact(a), rnd_in(1, 200));
    check_divide_product(a, gen_compact(a), gen_compact(a));
    check_divide_product(a, gen_layout(a, false), gen_layout(a, false));
    check_fractal(a);
    check_xla(a, c);
    hb_arena_free(a);
    if (ae_ctx_node_count(c) > 2000000) {
      ae_ctx_free(c);
      c = ae_ctx_new();
    }
  }
  ae_ctx_free(c);
  printf("ss_layout: %ld cases; compositions defined %ld of %ld; complements %ld, divides %ld, products %ld; "
         "inverse maps %ld; XLA layouts %ld, searched back from %ld of their forms, found %ld; %ld failed\n",
         n_cases, n_comp_def, n_comp, n_compl_def, n_div_def, n_prod_def, n_inv, n_xla, n_xla_ss, n_xla_found, n_fail);
  t_checks += (int)n_cases;
  t_failures += (int)n_fail;
  return t_finish("ss_layout");
}
