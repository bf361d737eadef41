/* map_relation.h: equality of indexing maps as relations.
 *
 * A table of entries with the verdict each pair must get (and the witness
 * where one is shown), then a randomised check against brute force: for
 * random maps M (small domains), M against its simplified text must be
 * equal, and M against M with one result changed must be equal exactly
 * when an independent enumeration of both relations says so, with a
 * witness that is in one relation and not the other. */
#include "map_relation.h"
#include "test_util.h"

static const char *verdict_name(mrel_verdict v) {
  static const char *const names[] = {"equal text", "equal canonical", "equal enumerated", "different", "undecided",
                                      "error"};
  return names[v];
}

/* Entries are written as one string, members separated by '|'. */
static size_t split(const char *s, mrel_text *t) {
  size_t n = 0, start = 0, i = 0;
  for (;; i++) {
    if (s[i] == '|' || s[i] == '\0') {
      t[n++] = (mrel_text){s, start, i};
      start = i + 1;
    }
    if (!s[i]) break;
  }
  return n;
}

static void run(mrel_ctx *c, const char *a, const char *b, mrel_result *r) {
  mrel_text ta[8], tb[8];
  size_t na = split(a, ta), nb = split(b, tb);
  mrel_compare(c, ta, na, tb, nb, r);
}

typedef struct {
  const char *a, *b;
  mrel_verdict want;
  const char *witness; /* "[d...] -> [r...] @side", or NULL */
} row;

static const row rows[] = {
    /* the same text in another layout */
    {"(d0, d1) -> (d1, d0), domain: d0 in [0, 3], d1 in [0, 5]",
     "(d0, d1) -> (d1, d0),\n  domain:\n  d0 in [0, 3],\n  d1 in [0, 5]", MREL_EQUAL_TEXT, NULL},
    /* members in another order */
    {"(d0) -> (d0), domain: d0 in [0, 1]|(d0) -> (d0 + 2), domain: d0 in [0, 1]",
     "(d0) -> (d0 + 2), domain: d0 in [0, 1]|(d0) -> (d0), domain: d0 in [0, 1]", MREL_EQUAL_TEXT, NULL},
    /* reordered terms */
    {"(d0, d1) -> (d1 + d0 * 4), domain: d0 in [0, 3], d1 in [0, 3]",
     "(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 3], d1 in [0, 3]", MREL_EQUAL_CANONICAL, NULL},
    /* a runtime variable printed as {rt0} (V2) and as a range variable (2024) */
    {"(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 3], rt0 in [0, 4]",
     "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 4]", MREL_EQUAL_CANONICAL, NULL},
    /* older formats: trailing comma, is_simplified */
    {"(d0) -> (d0 floordiv 4 * 4 + d0 mod 4), domain: d0 in [0, 15], is_simplified: false",
     "(d0) -> (d0), domain: d0 in [0, 15],", MREL_EQUAL_CANONICAL, NULL},
    /* unknown indexing, spelled both ways */
    {"unknown indexing", "UNDEFINED", MREL_EQUAL_CANONICAL, NULL},
    {"KNOWN EMPTY", "(d0) -> (d0), domain: d0 in [0, 3], d0 mod 8 in [5, 6]", MREL_EQUAL_CANONICAL, NULL},
    /* an unused symbol */
    {"(d0)[s0] -> (d0), domain: d0 in [0, 3], s0 in [0, 7]", "(d0) -> (d0), domain: d0 in [0, 3]",
     MREL_EQUAL_CANONICAL, NULL},
    /* symbols swapped: only enumeration proves it (4 + 4 points... per side 2*2*2) */
    {"(d0)[s0, s1] -> (d0 + s0 * 2 + s1), domain: d0 in [0, 1], s0 in [0, 1], s1 in [0, 1]",
     "(d0)[s0, s1] -> (d0 + s1 * 2 + s0), domain: d0 in [0, 1], s0 in [0, 1], s1 in [0, 1]",
     MREL_EQUAL_ENUMERATED, NULL},
    /* one map against the union of two */
    {"(d0)[s0] -> (s0), domain: d0 in [0, 1], s0 in [0, 3]",
     "(d0)[s0] -> (s0), domain: d0 in [0, 1], s0 in [0, 1]|(d0)[s0] -> (s0 + 2), domain: d0 in [0, 1], s0 in [0, 1]",
     MREL_EQUAL_ENUMERATED, NULL},
    /* a changed stride: d0 = 1 reads element 2 in the first, 3 in the second */
    {"(d0) -> (d0 * 2), domain: d0 in [0, 3]", "(d0) -> (d0 * 3), domain: d0 in [0, 3]", MREL_DIFFERENT,
     "[1] -> [2] @0"},
    /* a larger output: the new point is only in the second */
    {"(d0) -> (d0), domain: d0 in [0, 3]", "(d0) -> (d0), domain: d0 in [0, 4]", MREL_DIFFERENT, "[4] -> [4] @1"},
    /* structural differences */
    {"unknown indexing", "(d0) -> (d0), domain: d0 in [0, 3]", MREL_DIFFERENT, NULL},
    {"(d0) -> (d0), domain: d0 in [0, 3]", "(d0, d1) -> (d0), domain: d0 in [0, 3], d1 in [0, 0]", MREL_DIFFERENT,
     NULL},
    /* 2^24 points: too many to enumerate; sampling finds the transpose */
    {"(d0, d1) -> (d0, d1), domain: d0 in [0, 4095], d1 in [0, 4095]",
     "(d0, d1) -> (d1, d0), domain: d0 in [0, 4095], d1 in [0, 4095]", MREL_DIFFERENT, NULL},
    /* too many to enumerate and equal: undecided, not claimed equal */
    {"(d0)[s0, s1] -> (d0 + s0 * 2 + s1), domain: d0 in [0, 10000000], s0 in [0, 1], s1 in [0, 1]",
     "(d0)[s0, s1] -> (d0 + s1 * 2 + s0), domain: d0 in [0, 10000000], s0 in [0, 1], s1 in [0, 1]",
     MREL_UNDECIDED, NULL},
    /* text that is not a map */
    {"(d0) -> (d0), domain: d0 in [0, 3]", "(d0) -> (d1), domain: d0 in [0, 3]", MREL_ERROR, NULL},
};

static void format_witness(const mrel_result *r, char *buf, size_t n) {
  hb_strbuf b = HB_STRBUF_INIT;
  hb_sb_putc(&b, '[');
  for (uint32_t i = 0; i < r->ndims; i++) hb_sb_printf(&b, "%s%lld", i ? ", " : "", (long long)r->witness[i]);
  hb_sb_puts(&b, "] -> [");
  for (uint32_t i = 0; i < r->nresults; i++)
    hb_sb_printf(&b, "%s%lld", i ? ", " : "", (long long)r->witness[r->ndims + i]);
  hb_sb_printf(&b, "] @%d", r->side);
  snprintf(buf, n, "%s", hb_sb_str(&b));
  hb_sb_free(&b);
}

static void table(mrel_ctx *c) {
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const row *t = &rows[i];
    for (int swap = 0; swap < 2; swap++) {
      mrel_result r;
      run(c, swap ? t->b : t->a, swap ? t->a : t->b, &r);
      CHECK(r.verdict == t->want, "row %zu%s: %s, want %s (%s)", i, swap ? " swapped" : "", verdict_name(r.verdict),
            verdict_name(t->want), r.why);
      if (r.verdict == MREL_DIFFERENT && t->witness && !swap) {
        CHECK(r.witness != NULL, "row %zu: no witness", i);
        char w[128];
        if (r.witness) {
          format_witness(&r, w, sizeof w);
          CHECK_STR(w, t->witness, "witness");
        }
      }
      mrel_result_free(&r);
    }
  }
}

/* ---- against brute force --------------------------------------------------------------------------- */

/* The relation of M (dims, results), by enumerating its box. */
static size_t brute(const imap *m, int64_t *out, size_t cap) {
  if (m->known_empty) return 0;
  uint32_t nv = m->ndims + imap_nsyms(m);
  int64_t pt[8];
  interval box[8];
  for (uint32_t i = 0; i < nv; i++) {
    box[i] = i < m->ndims ? m->dim_iv[i] : m->sym_iv[i - m->ndims];
    if (box[i].hi < box[i].lo) return 0;
    pt[i] = box[i].lo;
  }
  size_t n = 0, w = m->ndims + m->nresults;
  for (;;) {
    bool in = true;
    for (uint32_t k = 0; in && k < m->ncons; k++) {
      int64_t v;
      in = ae_eval_point(m->cons[k].expr, pt, m->ndims, pt + m->ndims, imap_nsyms(m), &v) &&
           iv_contains(m->cons[k].iv, v);
    }
    if (in && n < cap) {
      memcpy(out + n * w, pt, m->ndims * sizeof *pt);
      for (uint32_t k = 0; k < m->nresults; k++)
        ae_eval_point(m->results[k], pt, m->ndims, pt + m->ndims, imap_nsyms(m), &out[n * w + m->ndims + k]);
      n++;
    }
    uint32_t i = nv;
    while (i > 0 && pt[i - 1] == box[i - 1].hi) {
      pt[i - 1] = box[i - 1].lo;
      i--;
    }
    if (i == 0) break;
    pt[i - 1]++;
  }
  return n;
}

static bool has(const int64_t *set, size_t n, size_t w, const int64_t *t) {
  for (size_t i = 0; i < n; i++)
    if (!memcmp(set + i * w, t, w * sizeof *t)) return true;
  return false;
}

static bool subset(const int64_t *a, size_t na, const int64_t *b, size_t nb, size_t w) {
  for (size_t i = 0; i < na; i++)
    if (!has(b, nb, w, a + i * w)) return false;
  return true;
}

static const ae *rand_expr(ae_ctx *c, int depth, uint32_t nd, uint32_t ns) {
  if (depth == 0 || rnd() % 3 == 0) {
    uint64_t k = rnd() % 6;
    if (k < 3) return ae_dim(c, (uint32_t)(rnd() % nd));
    if (k < 5 && ns) return ae_sym(c, (uint32_t)(rnd() % ns));
    return ae_const(c, (int64_t)(rnd() % 7));
  }
  const ae *x = rand_expr(c, depth - 1, nd, ns);
  switch (rnd() % 5) {
  case 0: return ae_add(c, x, rand_expr(c, depth - 1, nd, ns));
  case 1: return ae_mul_const(c, x, (int64_t)(rnd() % 5) - 1);
  case 2: return ae_floordiv_const(c, x, (int64_t)(rnd() % 4) + 1);
  case 3: return ae_mod_const(c, x, (int64_t)(rnd() % 4) + 1);
  default: return ae_add_const(c, x, (int64_t)(rnd() % 5) - 2);
  }
}

static void randomised(mrel_ctx *c) {
  hb_arena *a = hb_arena_new();
  ae_ctx *ctx = ae_ctx_new();
  static const map_print_opts one_line = {false, 0};
  int64_t *ra = malloc(4096 * 8 * sizeof *ra), *rb = malloc(4096 * 8 * sizeof *rb);
  rng_state = 28;
  for (int iter = 0; iter < 400; iter++) {
    hb_arena_reset(a);
    uint32_t nd = 1 + (uint32_t)(rnd() % 2), ns = (uint32_t)(rnd() % 3), nres = 1 + (uint32_t)(rnd() % 2);
    interval iv[5];
    for (uint32_t i = 0; i < nd + ns; i++) iv[i] = iv_make(0, (int64_t)(rnd() % 5));
    const ae *res[2];
    for (uint32_t i = 0; i < nres; i++) res[i] = rand_expr(ctx, 3, nd, ns);
    imap *m = imap_new(a, ctx, nd, ns, 0, iv, iv + nd, nres, res);
    if (rnd() % 2) imap_add_constraint(m, rand_expr(ctx, 2, nd, ns), iv_make(0, (int64_t)(rnd() % 4)));
    /* the simplified map: the same relation */
    imap *s = imap_copy(a, m);
    imap_simplify(s, SIMPLIFY_REPLACE_POINTS, NULL);
    hb_strbuf tm = HB_STRBUF_INIT, ts = HB_STRBUF_INIT, tc = HB_STRBUF_INIT;
    map_print(&tm, m, &one_line);
    map_print(&ts, s, &one_line);
    mrel_text x = {tm.data, 0, tm.len}, y = {ts.data, 0, ts.len};
    mrel_result r;
    mrel_compare(c, &x, 1, &y, 1, &r);
    CHECK(r.verdict <= MREL_EQUAL_ENUMERATED, "%s\n  against its simplified form %s: %s (%s)", hb_sb_str(&tm),
          hb_sb_str(&ts), verdict_name(r.verdict), r.why);
    mrel_result_free(&r);
    /* one result changed: equal exactly when brute force says so */
    imap *chg = imap_copy(a, m);
    imap_set_result(chg, 0, ae_add_const(ctx, m->results[0], (int64_t)(rnd() % 3) + 1));
    map_print(&tc, chg, &one_line);
    y = (mrel_text){tc.data, 0, tc.len};
    mrel_compare(c, &x, 1, &y, 1, &r);
    size_t na = brute(m, ra, 4096), nb = brute(chg, rb, 4096), w = nd + nres;
    bool equal = na == nb && subset(ra, na, rb, nb, w) && subset(rb, nb, ra, na, w);
    CHECK((r.verdict <= MREL_EQUAL_ENUMERATED) == equal, "%s\n  against %s: %s (%s), brute force: %s", hb_sb_str(&tm),
          hb_sb_str(&tc), verdict_name(r.verdict), r.why, equal ? "equal" : "different");
    if (r.verdict == MREL_DIFFERENT && r.witness) {
      bool in_a = has(ra, na, w, r.witness), in_b = has(rb, nb, w, r.witness);
      CHECK(r.side == 0 ? in_a && !in_b : in_b && !in_a, "%s against %s: the witness is not in one side only",
            hb_sb_str(&tm), hb_sb_str(&tc));
    }
    mrel_result_free(&r);
    hb_sb_free(&tm);
    hb_sb_free(&ts);
    hb_sb_free(&tc);
  }
  free(ra);
  free(rb);
  ae_ctx_free(ctx);
  hb_arena_free(a);
}

/* Sampling spends at most the enumeration limit in steps. Both entries are
 * one relation (the two symbols swapped over a square box), too large to
 * enumerate: each sampled point is found in the other side only after
 * enumerating about half its 65536 symbol points, so the 4100 points of
 * MREL_SAMPLES would take about 134M evaluations. */
static void sampling_budget(mrel_ctx *c) {
  static const char a[] = "(d0)[s0, s1] -> (d0, s1, s0), domain: d0 in [0, 8191], s0 in [0, 255], s1 in [0, 255]",
                    b[] = "(d0)[s0, s1] -> (d0, s0, s1), domain: d0 in [0, 8191], s0 in [0, 255], s1 in [0, 255]";
  static const struct {
    uint64_t limit;
    unsigned lo, hi; /* sampled points: at most limit / 2 steps each (a point and a map tried) */
  } cases[] = {{1 << 12, 0, 1 << 11}, {1 << 20, 1, 1 << 19}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    mrel_ctx_set_enum_limit(c, cases[i].limit);
    mrel_result r;
    run(c, a, b, &r);
    char stop[96];
    snprintf(stop, sizeof stop, "(sampling stopped after %llu steps)", (unsigned long long)cases[i].limit);
    const char *at = strstr(r.why, "no difference at ");
    unsigned n = at ? (unsigned)strtoul(at + 17, NULL, 10) : ~0u;
    CHECK(r.verdict == MREL_UNDECIDED && strstr(r.why, stop) && n >= cases[i].lo && n <= cases[i].hi,
          "limit %llu: %s (%s)", (unsigned long long)cases[i].limit, verdict_name(r.verdict), r.why);
    mrel_result_free(&r);
  }
  mrel_ctx_set_enum_limit(c, MREL_ENUM_MAX_EVALS);
}

int main(void) {
  mrel_ctx *c = mrel_ctx_new();
  table(c);
  sampling_budget(c);
  randomised(c);
  mrel_ctx_free(c);
  return t_finish("map_relation");
}
