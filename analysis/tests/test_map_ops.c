/* The map operations of hloidx --map (map_ops.h), variable names
 * (map_names.h), max / min expressions and the MLIR attribute form.
 *
 * Hand-derived cases first; then random maps (max / min included, random
 * names) checked against enumeration of the relations they denote
 * (relation_util.h):
 *   - simplification and named print -> read (text and MLIR form) keep the
 *     relation; the text and the names are a fixed point of print -> read;
 *   - a sub-map denotes the projection of the relation on its results;
 *   - symbols -> dimensions denotes the point-wise relation (dims, symbols,
 *     results) of the original;
 *   - removing unused variables denotes the projection on the kept dims
 *     (when the domain is not empty and XLA's kept-constraint corner case,
 *     §6.6, does not apply);
 *   - mo_eval, mo_image and mo_range agree with direct evaluation, and XLA's
 *     range bound contains the exact range. */
#include <inttypes.h>

#include "map_ops.h"
#include "relation_util.h"

/* ---- helpers --------------------------------------------------------------------------------------- */

static const char *named_str(const imap *m, const map_names *n, bool mlir) {
  hb_strbuf b = HB_STRBUF_INIT;
  if (mlir) hb_sb_puts(&b, "#xla.indexing_map<\"");
  map_print_named(&b, m, n, NULL);
  if (mlir) hb_sb_puts(&b, "\">");
  return t_keep(&b);
}

static mo_map rdn(hb_arena *a, ae_ctx *c, const char *text) {
  map_read_error err;
  mo_map m;
  m.map = map_read_named(a, c, text, 0, strlen(text), &m.names, &err);
  if (!m.map) {
    fprintf(stderr, "test input does not parse: %s\n  at %zu: %s\n", text, err.offset, err.message);
    exit(2);
  }
  return m;
}

static const char *simplified(hb_arena *a, mo_map m) {
  (void)a;
  imap_simplify(m.map, SIMPLIFY_REPLACE_POINTS, NULL);
  return named_str(m.map, &m.names, false);
}

/* ---- hand-derived cases ------------------------------------------------------------------------------ */

static void test_names(ae_ctx *c) {
  hb_arena *a = hb_arena_new();
  /* names as written come back; default-looking names are positional */
  const char *t = "(th_x, bl_x)[chunk_id]{rt0} -> (th_x * 4 + chunk_id, bl_x + rt0), domain: th_x in [0, 31], "
                  "bl_x in [0, 3], chunk_id in [0, 3], rt0 in [0, 5]";
  mo_map m = rdn(a, c, t);
  CHECK_STR(named_str(m.map, &m.names, false), t, "names round trip");
  CHECK(m.names.syms[1] == NULL, "rt0 at its default position is stored as the default");
  /* MLIR form reads to the same map and names */
  mo_map w = rdn(a, c, named_str(m.map, &m.names, true));
  CHECK(imap_equal(w.map, m.map), "MLIR attribute reads back to the same map");
  CHECK_STR(named_str(w.map, &w.names, false), t, "MLIR attribute keeps the names");
  /* a name like another variable's default stays as written ... */
  mo_map x = rdn(a, c, "(d1, d0) -> (d0), domain: d1 in [0, 1], d0 in [0, 2]");
  CHECK_STR(named_str(x.map, &x.names, false), "(d1, d0) -> (d0), domain: d1 in [0, 1], d0 in [0, 2]",
            "swapped default names are kept");
  /* ... and an operation that makes names equal renames the later one */
  mo_map y = rdn(a, c, "(d1)[s0] -> (d1 + s0), domain: d1 in [0, 1], s0 in [0, 2]");
  y = mo_symbols_to_dims(a, y);
  CHECK_STR(named_str(y.map, &y.names, false), "(d1, d1_1) -> (d1 + d1_1), domain: d1 in [0, 1], d1_1 in [0, 2]",
            "clash after symbols -> dims: s0 becomes the default d1");
  mo_map z = rdn(a, c, named_str(y.map, &y.names, false));
  CHECK(imap_equal(z.map, y.map), "renamed text reads back");
  /* max / min */
  mo_map mm = rdn(a, c, "(d0, d1) -> (max(d0, d1 + 2) * 2, min(d0, 3) + 1), domain: d0 in [0, 9], d1 in [0, 4]");
  CHECK_STR(named_str(mm.map, &mm.names, false),
            "(d0, d1) -> (max(d0, d1 + 2) * 2, min(d0, 3) + 1), domain: d0 in [0, 9], d1 in [0, 4]",
            "max / min print as calls, atomic under '*'");
  int64_t pt[2] = {1, 4}, res[2];
  mo_violation v[4];
  uint32_t nv;
  CHECK(mo_eval(mm.map, pt, res, v, &nv) == MO_EVAL_OK && res[0] == 12 && res[1] == 2 && nv == 0,
        "max(1, 6) * 2 = 12, min(1, 3) + 1 = 2");
  /* ranges decide: d0 in [0, 3] is never above 5, always above -1 */
  CHECK_STR(simplified(a, rdn(a, c, "(d0) -> (min(d0, 5), max(d0, -1), max(d0, 2)), domain: d0 in [0, 3]")),
            "(d0) -> (d0, d0, max(d0, 2)), domain: d0 in [0, 3]", "min/max decided by ranges");
  CHECK_STR(simplified(a, rdn(a, c, "(d0) -> (max(3, 7), min(d0, d0)), domain: d0 in [0, 3]")),
            "(d0) -> (7, d0), domain: d0 in [0, 3]", "constant and equal operands fold");
  CHECK(imap_eval_range(mm.map, mm.map->results[0], true).lo == 4 &&
            imap_eval_range(mm.map, mm.map->results[0], true).hi == 18,
        "range of max(d0, d1 + 2) * 2: max([0,9],[2,6]) = [2, 9], times 2");
  hb_arena_free(a);
}

static void test_ops(ae_ctx *c) {
  hb_arena *a = hb_arena_new();
  /* §5.2's example, with names: F = (i)[k] -> (i, k), S = (x, y)[q] -> (y + q, x) */
  mo_map F = rdn(a, c, "(i)[k] -> (i, k), domain: i in [0, 9], k in [0, 7]");
  mo_map S = rdn(a, c, "(x, y)[q] -> (y + q, x), domain: x in [0, 4], y in [0, 5], q in [0, 2]");
  mo_map FS = mo_compose(a, F, S);
  CHECK_STR(named_str(FS.map, &FS.names, false), "(i)[q, k] -> (k + q, i), domain: i in [0, 4], q in [0, 2], k in [0, 5]",
            "compose keeps first's dims and each symbol's name");
  /* runtime variables: [S.range | F.range | S.rt | F.rt] */
  mo_map G = rdn(a, c, "(i){off} -> (i + off), domain: i in [0, 3], off in [0, 4]");
  mo_map H = rdn(a, c, "(x)[r]{t} -> (x * 2 + r + t), domain: x in [0, 7], r in [0, 1], t in [0, 2]");
  mo_map GH = mo_compose(a, G, H);
  CHECK_STR(named_str(GH.map, &GH.names, false),
            "(i)[r]{t, off} -> ((i + off) * 2 + r + t), domain: i in [0, 3], r in [0, 1], t in [0, 2], off in [0, 4], "
            "i + off in [0, 7]",
            "runtime variables after the range variables, second's first");
  /* submap */
  uint32_t sel[2] = {1, 1};
  mo_map sub = mo_submap(a, FS, sel, 2);
  CHECK_STR(named_str(sub.map, &sub.names, false), "(i)[q, k] -> (i, i), domain: i in [0, 4], q in [0, 2], k in [0, 5]",
            "submap repeats and reorders results, keeps the domain");
  /* symbols to dims */
  mo_map sd = mo_symbols_to_dims(a, GH);
  CHECK_STR(named_str(sd.map, &sd.names, false),
            "(i, r, t, off) -> ((i + off) * 2 + r + t), domain: i in [0, 3], r in [0, 1], t in [0, 2], off in [0, 4], "
            "i + off in [0, 7]",
            "symbols -> dims");
  /* §6.6's example, named */
  mo_map u = rdn(a, c, "(i)[a, b]{t} -> (i + b), domain: i in [0, 9], a in [0, 4], b in [0, 2], t in [0, 7], "
                       "a mod 2 in [0, 0]");
  CHECK(mo_remove_unused(&u, MO_UNUSED_SYMBOLS) == 2, "two symbols removed");
  CHECK_STR(named_str(u.map, &u.names, false), "(i)[b] -> (i + b), domain: i in [0, 9], b in [0, 2]",
            "remove unused symbols keeps the remaining names");
  /* dims: j is unused; the constraint on j alone goes with it, the one with i stays */
  mo_map d = rdn(a, c, "(i, j, d2)[s0] -> (d2 + s0), domain: i in [0, 9], j in [0, 4], d2 in [0, 3], s0 in [0, 1], "
                       "j mod 2 in [0, 0], i + d2 in [0, 10]");
  CHECK(mo_remove_unused(&d, MO_UNUSED_DIMS) == 1, "one dim removed");
  CHECK_STR(named_str(d.map, &d.names, false),
            "(i, d1)[s0] -> (d1 + s0), domain: i in [0, 9], d1 in [0, 3], s0 in [0, 1], i + d1 in [0, 10]",
            "remove unused dims: d2 was its default name, and follows its new position");
  mo_map e = rdn(a, c, "(d0, d1, d2)[s0, s1] -> (d2 + s1), domain: d0 in [0, 9], d1 in [0, 4], d2 in [0, 3], "
                       "s0 in [0, 1], s1 in [0, 2]");
  CHECK(mo_remove_unused(&e, MO_UNUSED_VARS) == 3, "two dims and a symbol removed");
  CHECK_STR(named_str(e.map, &e.names, false), "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 2]",
            "default names are renumbered");
  hb_arena_free(a);
}

static void test_queries(ae_ctx *c) {
  hb_arena *a = hb_arena_new();
  /* a 2x3 window of stride 2 over d0: (d0)[s0] -> (d0 * 2 + s0), s0 in [0, 2] */
  mo_map m = rdn(a, c, "(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 4], s0 in [0, 2], d0 * 2 + s0 in [1, 9]");
  int64_t pt[2] = {0, 0}, res[1];
  mo_violation v[4];
  uint32_t nv;
  CHECK(mo_eval(m.map, pt, res, v, &nv) == MO_EVAL_OK && res[0] == 0 && nv == 1 && !v[0].is_var && v[0].value == 0,
        "(0, 0): 0, violates d0 * 2 + s0 in [1, 9]");
  int64_t pt2[2] = {5, 3};
  CHECK(mo_eval(m.map, pt2, res, v, &nv) == MO_EVAL_OK && res[0] == 13 && nv == 3, "(5, 3): d0, s0 and the constraint");
  int64_t *tup;
  uint64_t n;
  const char *why;
  int64_t d4 = 4, d0 = 0;
  CHECK(mo_image(a, m.map, &d4, 1000, &tup, &n, &why) && n == 2 && tup[0] == 8 && tup[1] == 9,
        "d0 = 4 reads 8, 9 (10 is outside [1, 9])");
  CHECK(mo_image(a, m.map, &d0, 1000, &tup, &n, &why) && n == 2 && tup[0] == 1 && tup[1] == 2, "d0 = 0 reads 1, 2");
  mo_range_info ri;
  mo_range(m.map, 0, 1000, &ri);
  CHECK(ri.have_exact && ri.exact.lo == 1 && ri.exact.hi == 9, "exact range [1, 9]");
  CHECK(ri.bound.lo == 1 && ri.bound.hi == 9, "XLA's evaluation uses the constraint: [1, 9]");
  mo_map q = rdn(a, c, "(d0) -> (d0 mod 4 + d0 floordiv 4), domain: d0 in [0, 5]");
  mo_range(q.map, 0, 1000, &ri);
  CHECK(ri.have_exact && ri.exact.lo == 0 && ri.exact.hi == 3 && ri.bound.lo == 0 && ri.bound.hi == 4,
        "d0 mod 4 + d0 floordiv 4 over [0, 5]: values 0..3, 1, 2: [0, 3]; bound [0, 3] + [0, 1] = [0, 4]");
  hb_arena_free(a);
}

/* ---- random cases ------------------------------------------------------------------------------------ */

static long n_cases, n_fail, n_skip;

static void fail_case(const char *what, const imap *m, const map_names *names, const char *detail) {
  n_fail++;
  if (n_fail <= 10) fprintf(stderr, "FAIL (%s)\n  map: %s\n  %s\n", what, named_str(m, names, false), detail);
}

static const char *const pool[] = {"th_x", "bl_x", "i", "j", "chunk", "k0", "d1", "s0", "x.y", "rt0", "d0", "q_1"};

/* Random names: each variable NULL or a distinct name of the pool. */
static map_names gen_names(hb_arena *a, const imap *m) {
  map_names n = map_names_new(a, m->ndims, imap_nsyms(m));
  bool taken[sizeof pool / sizeof *pool] = {false};
  for (uint32_t v = 0; v < m->ndims + imap_nsyms(m); v++) {
    if (rnd() % 3 == 0) continue;
    size_t k = rnd() % (sizeof pool / sizeof *pool);
    if (taken[k]) continue;
    /* a written name equal to its own default is stored as NULL by the reader */
    bool is_dim = v < m->ndims;
    uint32_t pos = is_dim ? v : v - m->ndims;
    if (map_name_is_default(pool[k], strlen(pool[k]), is_dim, pos, m->nrange)) continue;
    taken[k] = true;
    if (is_dim) n.dims[pos] = pool[k];
    else n.syms[pos] = pool[k];
  }
  return n;
}

/* Keeps the columns cols[0..n) of every tuple. */
static void project(const tuples *in, const uint32_t *cols, uint32_t n, tuples *out) {
  free(out->v);
  *out = (tuples){0};
  out->stride = n;
  int64_t tup[32];
  for (size_t i = 0; i < in->n; i++) {
    for (uint32_t k = 0; k < n; k++) tup[k] = in->v[i * in->stride + cols[k]];
    tp_push(out, tup);
  }
  if (n == 0) {
    out->n = in->n ? 1 : 0;
    return;
  }
  tp_normalize(out);
}

static bool same_relation(const imap *m, const tuples *want) {
  tuples t = {0};
  bool ok = relation(m, box_of(m), m->ndims, imap_nsyms(m), &t);
  if (!ok) n_skip++;
  ok = !ok || tp_equal(&t, want);
  free(t.v);
  return ok;
}

static void random_case(ae_ctx *c) {
  hb_arena *a = hb_arena_new();
  uint32_t nd = (uint32_t)rint_in(1, 3), nr = (uint32_t)rint_in(0, 2), nt = (uint32_t)rint_in(0, 1);
  imap *m = gen_map(a, c, nd, nr, nt, (uint32_t)rint_in(1, 3), (int)rint_in(1, 3));
  map_names names = gen_names(a, m);
  uint32_t ns = nr + nt;
  tuples rel = {0}, pw = {0}, want = {0};
  n_cases++;
  if (!relation(m, box_of(m), nd, ns, &rel) || !relation_cols(m, box_of(m), nd, ns, true, &pw)) {
    n_skip++;
    goto done;
  }
  /* simplification, both modes */
  for (int mode = 0; mode < 2; mode++) {
    imap *s = imap_copy(a, m);
    imap_simplify(s, mode ? SIMPLIFY_PRESERVE_POINTS : SIMPLIFY_REPLACE_POINTS, NULL);
    if (!same_relation(s, &rel)) fail_case(mode ? "simplify preserve-points" : "simplify", m, &names, mstr(s));
  }
  /* named print -> read, text and MLIR; fixed point with names */
  if (!m->known_empty) {
    for (int mlir = 0; mlir < 2; mlir++) {
      const char *txt = named_str(m, &names, mlir);
      map_read_error err;
      map_names rn;
      imap *r = map_read_named(a, c, txt, 0, strlen(txt), &rn, &err);
      if (!r) {
        fail_case("read back", m, &names, err.message);
        continue;
      }
      if (!same_relation(r, &rel)) fail_case("print/read", m, &names, txt);
      const char *txt2 = named_str(r, &rn, mlir);
      imap *r2 = map_read_named(a, c, txt2, 0, strlen(txt2), &rn, &err);
      if (!r2 || strcmp(named_str(r2, &rn, mlir), txt2) != 0) fail_case("print/read/print", m, &names, txt2);
    }
  }
  /* submap: projection on the chosen results */
  {
    uint32_t sel[3], nsel = (uint32_t)rint_in(0, 3), cols[8];
    for (uint32_t k = 0; k < nd; k++) cols[k] = k;
    for (uint32_t k = 0; k < nsel; k++) {
      sel[k] = (uint32_t)(rnd() % m->nresults);
      cols[nd + k] = nd + sel[k];
    }
    mo_map sub = mo_submap(a, (mo_map){m, names}, sel, nsel);
    project(&rel, cols, nd + nsel, &want);
    if (!same_relation(sub.map, &want)) fail_case("submap", m, &names, mstr(sub.map));
  }
  /* symbols -> dims: the point-wise relation */
  {
    mo_map sd = mo_symbols_to_dims(a, (mo_map){imap_copy(a, m), names});
    if (sd.map->ndims != nd + ns || imap_nsyms(sd.map) != 0 || !same_relation(sd.map, &pw))
      fail_case("symbols -> dims", m, &names, mstr(sd.map));
  }
  /* remove unused: the projection on the kept dims, when the relation is not
   * empty and no kept constraint loses a variable (XLA's corner case) */
  for (int what = 1; what <= 3 && rel.n > 0; what++) {
    mo_map u = {imap_copy(a, m), names};
    /* identify dims by unique names */
    map_names ids = map_names_new(a, nd, ns);
    static const char *const dn[] = {"D0", "D1", "D2", "D3"};
    for (uint32_t k = 0; k < nd; k++) ids.dims[k] = dn[k];
    u.names = ids;
    imap *before = u.map;
    mo_remove_unused(&u, what);
    bool used_d[8] = {false}, used_s[8] = {false};
    for (uint32_t k = 0; k < m->nresults; k++) ae_collect_vars(m->results[k], used_d, nd, used_s, ns);
    bool quirk = false;
    for (uint32_t k = 0; k < before->ncons; k++) {
      bool cd[8] = {false}, cs[8] = {false}, removed = false, kept = false;
      ae_collect_vars(before->cons[k].expr, cd, nd, cs, ns);
      for (uint32_t v = 0; v < nd; v++)
        if (cd[v]) *((what & MO_UNUSED_DIMS) && !used_d[v] ? &removed : &kept) = true;
      for (uint32_t v = 0; v < ns; v++)
        if (cs[v]) *((what & MO_UNUSED_SYMBOLS) && !used_s[v] ? &removed : &kept) = true;
      if (removed && kept) quirk = true;
    }
    if (quirk) continue;
    uint32_t cols[8], n = 0;
    for (uint32_t k = 0; k < u.map->ndims; k++) cols[n++] = (uint32_t)(u.names.dims[k][1] - '0');
    for (uint32_t k = 0; k < m->nresults; k++) cols[n++] = nd + k;
    project(&rel, cols, n, &want);
    if (!same_relation(u.map, &want)) fail_case("remove unused", m, &names, mstr(u.map));
  }
  /* queries */
  {
    int64_t pt[16], res[4];
    interval *box = box_of(m);
    for (uint32_t v = 0; v < nd + ns; v++) pt[v] = iv_feasible(box[v]) ? rint_in(box[v].lo - 1, box[v].hi + 1) : 0;
    mo_violation viol[32];
    uint32_t nviol;
    if (mo_eval(m, pt, res, viol, &nviol) == MO_EVAL_OK && !m->known_empty) {
      int in = in_domain(m, pt, pt + nd);
      if (in >= 0 && (in == 1) != (nviol == 0)) fail_case("eval domain", m, &names, "violations disagree");
      for (uint32_t k = 0; k < m->nresults; k++) {
        int64_t x;
        if (ae_eval_point(m->results[k], pt, nd, pt + nd, ns, &x) && x != res[k])
          fail_case("eval", m, &names, "result differs");
      }
    }
    int64_t *tup;
    uint64_t n;
    const char *why;
    if (mo_image(a, m, pt, 1 << 16, &tup, &n, &why)) {
      /* the rows of the relation whose dims are pt */
      uint64_t k = 0;
      bool ok = true;
      for (size_t i = 0; i < rel.n; i++) {
        if (memcmp(rel.v + i * rel.stride, pt, nd * sizeof *pt) != 0) continue;
        if (k >= n || memcmp(rel.v + i * rel.stride + nd, tup + k * m->nresults, m->nresults * sizeof *pt) != 0)
          ok = false;
        k++;
      }
      if (!ok || k != n) fail_case("image", m, &names, "differs from the relation");
    }
    for (uint32_t r = 0; r < m->nresults; r++) {
      mo_range_info ri;
      mo_range(m, r, 1 << 16, &ri);
      bool any = false;
      interval ex = iv_make(0, -1);
      for (size_t i = 0; i < pw.n; i++) {
        int64_t x = pw.v[i * pw.stride + nd + ns + r];
        ex = any ? iv_union(ex, iv_point(x)) : iv_point(x);
        any = true;
      }
      if (ri.have_exact != any || (any && !iv_eq(ri.exact, ex))) fail_case("range exact", m, &names, "differs");
      if (any && !iv_contains_iv(ri.bound, ex)) fail_case("range bound", m, &names, "does not contain the values");
    }
  }
done:
  free(rel.v);
  free(pw.v);
  free(want.v);
  hb_arena_free(a);
}

int main(int argc, char **argv) {
  ae_ctx *c = ae_ctx_new();
  test_names(c);
  test_ops(c);
  test_queries(c);
  rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : 20250301;
  long count = argc > 2 ? strtol(argv[2], NULL, 0) : 6000;
  gen_minmax = true;
  for (long i = 0; i < count; i++) {
    random_case(c);
    if (ae_ctx_node_count(c) > 2000000) {
      ae_ctx_free(c);
      c = ae_ctx_new();
    }
  }
  ae_ctx_free(c);
  printf("map_ops: %ld random cases, %ld skipped, %ld failed\n", n_cases, n_skip, n_fail);
  t_checks += (int)n_cases;
  t_failures += (int)n_fail;
  return t_finish("map_ops");
}
