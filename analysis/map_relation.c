#include "map_relation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine_expr.h"
#include "indexing_map.h"
#include "map_read.h"
#include "../parser/base/oom.h"
#include "simplify.h"

/* Node budget of one canonical simplification (as --map's). */
#define MREL_NODE_BUDGET ((size_t)4 << 20)

struct mrel_ctx {
  ae_ctx *ae;
  hb_arena *scratch; /* reset per comparison */
  uint64_t enum_limit;
};

mrel_ctx *mrel_ctx_new(void) {
  mrel_ctx *c = hb_calloc(1, sizeof *c);
  c->ae = ae_ctx_new();
  c->scratch = hb_arena_new();
  c->enum_limit = MREL_ENUM_MAX_EVALS;
  return c;
}

void mrel_ctx_set_enum_limit(mrel_ctx *c, uint64_t evals) { c->enum_limit = evals; }

void mrel_ctx_free(mrel_ctx *c) {
  if (!c) return;
  hb_arena_free(c->scratch);
  ae_ctx_free(c->ae);
  free(c);
}

void mrel_result_free(mrel_result *r) {
  free(r->witness);
  r->witness = NULL;
}

/* ---- text ---------------------------------------------------------------------------------------- */

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }

bool mrel_text_equal(const char *text, size_t start, size_t end, const char *other, size_t ostart, size_t oend) {
  size_t i = start, j = ostart;
  for (;;) {
    while (i < end && is_space(text[i])) i++;
    while (j < oend && is_space(other[j])) j++;
    if (i == end || j == oend) return i == end && j == oend;
    if (text[i++] != other[j++]) return false;
  }
}

/* The text without surrounding whitespace is exactly WORD. */
static bool text_is(const mrel_text *t, const char *word) {
  size_t n = strlen(word);
  return mrel_text_equal(t->base, t->start, t->end, word, 0, n);
}

static int cmp_text(const mrel_text *x, const mrel_text *y) {
  size_t i = x->start, j = y->start;
  for (;;) {
    while (i < x->end && is_space(x->base[i])) i++;
    while (j < y->end && is_space(y->base[j])) j++;
    if (i == x->end || j == y->end) return (j == y->end) - (i == x->end);
    unsigned char a = (unsigned char)x->base[i++], b = (unsigned char)y->base[j++];
    if (a != b) return a < b ? -1 : 1;
  }
}

static int cmp_text_q(const void *a, const void *b) { return cmp_text(a, b); }

/* The same multiset of texts. */
static bool same_texts(const mrel_text *a, size_t na, const mrel_text *b, size_t nb) {
  if (na != nb) return false;
  mrel_text *x = hb_malloc((na + 1) * sizeof *x), *y = hb_malloc((nb + 1) * sizeof *y);
  memcpy(x, a, na * sizeof *x);
  memcpy(y, b, nb * sizeof *y);
  qsort(x, na, sizeof *x, cmp_text_q);
  qsort(y, nb, sizeof *y, cmp_text_q);
  bool same = true;
  for (size_t i = 0; same && i < na; i++) same = cmp_text(&x[i], &y[i]) == 0;
  free(x);
  free(y);
  return same;
}

/* ---- one side: its maps, canonical ----------------------------------------------------------------- */

typedef struct {
  bool undefined;  /* a member is unknown indexing: the relation is everything */
  uint32_t n;      /* defined members that are not known-empty (no two equal) */
  imap **maps;
  uint32_t *slots; /* hash set of maps: index + 1, 0 = empty; nslots a power of two */
  uint32_t nslots;
  bool shaped;     /* ndims / nresults known (n > 0) */
  uint32_t ndims, nresults;
  bool mixed;      /* members disagree on ndims or nresults */
} side;

/* M with its runtime variables turned into range variables (the symbol
 * positions are the same: range first, then runtime). */
static imap *as_range_only(hb_arena *a, const imap *m) {
  if (m->nrt == 0) return imap_copy(a, m);
  imap *r = imap_new(a, m->ctx, m->ndims, m->nrange + m->nrt, 0, m->dim_iv, m->sym_iv, m->nresults, m->results);
  if (m->known_empty) imap_set_known_empty(r);
  for (uint32_t i = 0; !r->known_empty && i < m->ncons; i++) imap_put_constraint(r, m->cons[i].expr, m->cons[i].iv);
  return r;
}

/* The slot of a map equal to M in S's set, or the empty slot where it goes. */
static uint32_t *map_slot(const side *s, const imap *m) {
  uint32_t mask = s->nslots - 1, i = (uint32_t)imap_hash(m) & mask;
  while (s->slots[i] && !imap_equal(s->maps[s->slots[i] - 1], m)) i = (i + 1) & mask;
  return &s->slots[i];
}

/* Reads and canonicalises the maps of one side; false with *out's error
 * fields set when a text cannot be read. */
static bool load_side(mrel_ctx *c, const mrel_text *t, size_t n, int which, side *s, mrel_result *out) {
  memset(s, 0, sizeof *s);
  s->maps = hb_arena_array(c->scratch, n + 1, sizeof *s->maps);
  s->nslots = 16;
  while (s->nslots < 2 * n + 2) s->nslots *= 2;
  s->slots = hb_arena_zalloc(c->scratch, s->nslots * sizeof *s->slots);
  for (size_t i = 0; i < n; i++) {
    if (text_is(&t[i], "UNDEFINED") || text_is(&t[i], "unknownindexing")) {
      s->undefined = true;
      continue;
    }
    if (text_is(&t[i], "KNOWNEMPTY")) continue;
    map_read_error err;
    imap *m = map_read(c->scratch, c->ae, t[i].base, t[i].start, t[i].end, &err);
    if (!m) {
      out->verdict = MREL_ERROR;
      out->side = which;
      out->offset = err.offset;
      snprintf(out->why, sizeof out->why, "%s", err.message);
      return false;
    }
    if (m->undefined) {
      s->undefined = true;
      continue;
    }
    m = as_range_only(c->scratch, m);
    /* a map over the budget stays valid, only less simplified */
    (void)imap_simplify_budgeted(m, SIMPLIFY_REPLACE_POINTS, MREL_NODE_BUDGET);
    if (m->known_empty) continue;
    imap_remove_unused_symbols(m, NULL);
    uint32_t *slot = map_slot(s, m);
    if (*slot) continue; /* a duplicate */
    if (!s->shaped) {
      s->shaped = true;
      s->ndims = m->ndims;
      s->nresults = m->nresults;
    } else if (m->ndims != s->ndims || m->nresults != s->nresults) {
      s->mixed = true;
    }
    s->maps[s->n++] = m;
    *slot = s->n;
  }
  return true;
}

/* The same set of canonical maps (each side has no duplicates). */
static bool same_canonical(const side *a, const side *b) {
  if (a->undefined || b->undefined) return a->undefined && b->undefined;
  if (a->n != b->n) return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!*map_slot(b, a->maps[i])) return false;
  return true;
}

/* ---- points ---------------------------------------------------------------------------------------- */

/* Points of M's variable box (saturating at UINT64_MAX); 0 when empty. */
static uint64_t box_points(const imap *m, bool syms_only) {
  uint64_t n = 1;
  uint32_t nsyms = imap_nsyms(m);
  for (uint32_t i = syms_only ? m->ndims : 0; i < m->ndims + nsyms; i++) {
    interval iv = i < m->ndims ? m->dim_iv[i] : m->sym_iv[i - m->ndims];
    if (iv.hi < iv.lo) return 0;
    uint64_t size = (uint64_t)iv.hi - (uint64_t)iv.lo + 1; /* 0: the whole int64 range */
    if (size == 0 || n > UINT64_MAX / size) return UINT64_MAX;
    n *= size;
  }
  return n;
}

/* The results of M at (dims, syms) when the point meets every constraint:
 * 1 with RES filled; 0 when a constraint fails; -1 when evaluating
 * overflows. */
static int eval_at(const imap *m, const int64_t *dims, const int64_t *syms, int64_t *res) {
  uint32_t nsyms = imap_nsyms(m);
  for (uint32_t k = 0; k < m->ncons; k++) {
    int64_t v;
    if (!ae_eval_point(m->cons[k].expr, dims, m->ndims, syms, nsyms, &v)) return -1;
    if (!iv_contains(m->cons[k].iv, v)) return 0;
  }
  for (uint32_t k = 0; k < m->nresults; k++)
    if (!ae_eval_point(m->results[k], dims, m->ndims, syms, nsyms, &res[k])) return -1;
  return 1;
}

/* A variable of the box: index I (dims first, then symbols). */
static interval var_iv(const imap *m, uint32_t i) { return i < m->ndims ? m->dim_iv[i] : m->sym_iv[i - m->ndims]; }

/* Next point of the box in odometer order (the last variable fastest)
 * over variables [from, nvars); false after the last one. */
static bool next_point(const imap *m, int64_t *vals, uint32_t from, uint32_t nvars) {
  for (uint32_t i = nvars; i-- > from;) {
    if (vals[i] < var_iv(m, i).hi) {
      vals[i]++;
      return true;
    }
    vals[i] = var_iv(m, i).lo;
  }
  return false;
}

/* A set of tuples of W int64s: open addressing over indices into V. */
typedef struct {
  uint32_t w;
  int64_t *v;
  size_t n, cap;
  uint32_t *slots; /* index + 1; 0 = empty */
  size_t nslots;
} tset;

static uint64_t tuple_hash(const int64_t *t, uint32_t w) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (uint32_t i = 0; i < w; i++) h = (h ^ (uint64_t)t[i]) * 0xff51afd7ed558ccdULL, h ^= h >> 29;
  return h;
}

static uint32_t *tset_slot(const tset *s, const int64_t *t) {
  size_t mask = s->nslots - 1, i = (size_t)tuple_hash(t, s->w) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t k = s->slots[i];
    if (k == 0 || !memcmp(s->v + (size_t)(k - 1) * s->w, t, s->w * sizeof *t)) return &s->slots[i];
  }
}

static void tset_grow(tset *s) {
  size_t cap = s->nslots ? s->nslots * 2 : 16;
  free(s->slots);
  s->slots = hb_calloc(cap, sizeof *s->slots);
  s->nslots = cap;
  for (size_t i = 0; i < s->n; i++) *tset_slot(s, s->v + i * s->w) = (uint32_t)(i + 1);
}

static bool tset_has(const tset *s, const int64_t *t) { return s->nslots && *tset_slot(s, t) != 0; }

static void tset_add(tset *s, const int64_t *t) {
  if (2 * (s->n + 1) > s->nslots) tset_grow(s);
  uint32_t *slot = tset_slot(s, t);
  if (*slot) return;
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    s->v = hb_realloc(s->v, s->cap * s->w * sizeof *s->v);
  }
  memcpy(s->v + s->n * s->w, t, s->w * sizeof *t);
  *slot = (uint32_t)++s->n;
}

static void tset_free(tset *s) {
  free(s->v);
  free(s->slots);
}

/* Empties S; few tuples are taken out one by one, last first (a tuple's
 * probe sequence only crosses the slots of tuples added before it). */
static void tset_clear(tset *s) {
  if (s->n * 8 < s->nslots) {
    while (s->n) {
      s->n--;
      *tset_slot(s, s->v + s->n * s->w) = 0;
    }
  } else if (s->nslots) {
    memset(s->slots, 0, s->nslots * sizeof *s->slots);
  }
  s->n = 0;
}

/* The results of side S at the dimension point D (in every member whose
 * dimension box holds D, every symbol point) into SET. False when
 * evaluating overflowed. */
static bool results_at(const side *s, const int64_t *d, tset *set) {
  tset_clear(set);
  bool ok = true;
  for (uint32_t i = 0; ok && i < s->n; i++) {
    const imap *m = s->maps[i];
    bool in_box = true;
    for (uint32_t k = 0; in_box && k < m->ndims; k++) in_box = iv_contains(m->dim_iv[k], d[k]);
    if (!in_box || box_points(m, true) == 0) continue;
    uint32_t nsyms = imap_nsyms(m);
    int64_t *vals = hb_malloc((m->ndims + nsyms + 1) * sizeof *vals), *res = hb_malloc((set->w + 1) * sizeof *res);
    memcpy(vals, d, m->ndims * sizeof *vals);
    for (uint32_t k = 0; k < nsyms; k++) vals[m->ndims + k] = m->sym_iv[k].lo;
    do {
      int r = eval_at(m, vals, vals + m->ndims, res);
      if (r < 0) ok = false;
      if (r > 0) tset_add(set, res);
    } while (ok && next_point(m, vals, m->ndims, m->ndims + nsyms));
    free(vals);
    free(res);
  }
  return ok;
}

/* Evaluations step 3 needs: the points of the hull of all dimension boxes
 * times the symbol points of every member (saturating). *HULL gets the
 * hull (NDIMS intervals). */
static uint64_t enum_cost(const side *a, const side *b, uint32_t ndims, interval *hull) {
  bool first = true;
  uint64_t syms = 0;
  for (int k = 0; k < 2; k++) {
    const side *s = k ? b : a;
    for (uint32_t i = 0; i < s->n; i++) {
      const imap *m = s->maps[i];
      uint64_t p = box_points(m, false) ? box_points(m, true) : 0;
      if (!p) continue;
      syms = p > UINT64_MAX - syms ? UINT64_MAX : syms + p;
      for (uint32_t j = 0; j < ndims; j++) hull[j] = first ? m->dim_iv[j] : iv_union(hull[j], m->dim_iv[j]);
      first = false;
    }
  }
  if (first) return 0; /* both relations are empty */
  uint64_t n = 1;
  for (uint32_t j = 0; j < ndims; j++) {
    uint64_t size = (uint64_t)hull[j].hi - (uint64_t)hull[j].lo + 1;
    if (size == 0 || n > UINT64_MAX / size) return UINT64_MAX;
    n *= size;
  }
  return syms && n > UINT64_MAX / syms ? UINT64_MAX : n * syms;
}

/* Whether TUPLE (dims, then results) is in side S: 1 yes, 0 no, -1 cannot
 * tell (a symbol box too large to enumerate, or overflow; or *BUDGET spent).
 * Each map tried and each point evaluated is a step taken from *BUDGET; a
 * symbol box larger than what is left spends it all. */
static int member(const side *s, const int64_t *tuple, uint64_t *budget) {
  int answer = 0;
  for (uint32_t i = 0; i < s->n && answer != 1; i++) {
    if (!*budget) return -1;
    --*budget;
    const imap *m = s->maps[i];
    bool in_box = true;
    for (uint32_t k = 0; in_box && k < m->ndims; k++) in_box = iv_contains(m->dim_iv[k], tuple[k]);
    if (!in_box) continue;
    uint64_t pts = box_points(m, true);
    if (pts == 0) continue;
    if (pts > MREL_MEMBER_MAX_POINTS) {
      answer = -1;
      continue;
    }
    if (pts > *budget) {
      *budget = 0;
      return -1;
    }
    uint32_t nsyms = imap_nsyms(m);
    int64_t *syms = hb_malloc((nsyms + 1) * sizeof *syms), *res = hb_malloc((m->nresults + 1) * sizeof *res),
            *vals = hb_malloc((m->ndims + nsyms + 1) * sizeof *vals);
    memcpy(vals, tuple, m->ndims * sizeof *vals);
    for (uint32_t k = 0; k < nsyms; k++) vals[m->ndims + k] = m->sym_iv[k].lo;
    do {
      memcpy(syms, vals + m->ndims, nsyms * sizeof *syms);
      --*budget;
      int r = eval_at(m, vals, syms, res);
      if (r < 0) answer = -1;
      if (r > 0 && !memcmp(res, tuple + m->ndims, m->nresults * sizeof *res)) answer = 1;
    } while (answer != 1 && next_point(m, vals, m->ndims, m->ndims + nsyms));
    free(syms);
    free(res);
    free(vals);
  }
  return answer;
}

/* Next point of the box HULL (NDIMS intervals), odometer order. */
static bool next_hull(const interval *hull, int64_t *d, uint32_t ndims) {
  for (uint32_t i = ndims; i-- > 0;) {
    if (d[i] < hull[i].hi) {
      d[i]++;
      return true;
    }
    d[i] = hull[i].lo;
  }
  return false;
}

static void set_witness(mrel_result *out, int which, const int64_t *t, uint32_t ndims, uint32_t nres) {
  out->verdict = MREL_DIFFERENT;
  out->side = which;
  out->ndims = ndims;
  out->nresults = nres;
  out->witness = hb_malloc((ndims + nres + 1) * sizeof *out->witness);
  memcpy(out->witness, t, (ndims + nres) * sizeof *t);
}

/* Step 3: both relations, dimension point by dimension point (in
 * odometer order over the hull of their dimension boxes), so that memory
 * holds the results of one point only. False when evaluating overflowed. */
static bool compare_enumerated(const side *a, const side *b, uint32_t ndims, uint32_t nres, const interval *hull,
                               mrel_result *out) {
  tset ra = {.w = nres}, rb = {.w = nres};
  int64_t *d = hb_malloc((ndims + nres + 1) * sizeof *d);
  for (uint32_t j = 0; j < ndims; j++) d[j] = hull[j].lo;
  bool ok = true;
  out->verdict = MREL_EQUAL_ENUMERATED;
  out->points = 0;
  do {
    ok = results_at(a, d, &ra) && results_at(b, d, &rb);
    out->points += ra.n;
    for (int k = 0; ok && k < 2 && out->verdict != MREL_DIFFERENT; k++) {
      const tset *x = k ? &rb : &ra, *y = k ? &ra : &rb;
      for (size_t i = 0; i < x->n; i++)
        if (!tset_has(y, x->v + i * nres)) {
          memcpy(d + ndims, x->v + i * nres, nres * sizeof *d);
          set_witness(out, k, d, ndims, nres);
          break;
        }
    }
  } while (ok && out->verdict != MREL_DIFFERENT && next_hull(hull, d, ndims));
  free(d);
  tset_free(&ra);
  tset_free(&rb);
  return ok;
}

/* A pseudo-random value in IV (a fixed sequence: the output is the same
 * from run to run). */
static int64_t sample_in(uint64_t *seed, interval iv) {
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  uint64_t span = (uint64_t)iv.hi - (uint64_t)iv.lo + 1, r = *seed >> 11;
  return (int64_t)((uint64_t)iv.lo + (span ? r % span : r));
}

/* Step 4: points of FROM (side WHICH) looked up in TO, while *BUDGET
 * (steps, both sides together) lasts: without it, each of the thousands
 * of points could enumerate 2^16 symbol points per map of TO.
 * Returns true with a witness in *out; *tested counts the points tested. */
static bool sample_side(const side *from, const side *to, int which, uint64_t *budget, uint32_t *tested,
                        mrel_result *out) {
  uint64_t seed = 0x243f6a8885a308d3ULL;
  for (uint32_t i = 0; i < from->n && *budget; i++) {
    const imap *m = from->maps[i];
    if (box_points(m, false) == 0) continue;
    uint32_t nvars = m->ndims + imap_nsyms(m), w = m->ndims + m->nresults;
    int64_t *vals = hb_malloc((nvars + 1) * sizeof *vals), *tuple = hb_malloc((w + 1) * sizeof *tuple);
    bool found = false;
    for (uint32_t k = 0; k < MREL_SAMPLES / from->n + 2 && !found && *budget; k++) {
      --*budget;
      for (uint32_t v = 0; v < nvars; v++) {
        interval iv = var_iv(m, v);
        vals[v] = k == 0 ? iv.lo : k == 1 ? iv.hi : sample_in(&seed, iv);
      }
      if (eval_at(m, vals, vals + m->ndims, tuple + m->ndims) <= 0) continue;
      memcpy(tuple, vals, m->ndims * sizeof *tuple);
      int r = member(to, tuple, budget);
      if (r >= 0) ++*tested;
      if (r == 0) {
        set_witness(out, which, tuple, m->ndims, m->nresults);
        found = true;
      }
    }
    free(vals);
    free(tuple);
    if (found) return true;
  }
  return false;
}

void mrel_compare(mrel_ctx *c, const mrel_text *a, size_t na, const mrel_text *b, size_t nb, mrel_result *out) {
  memset(out, 0, sizeof *out);
  out->side = -1;
  if (same_texts(a, na, b, nb)) {
    out->verdict = MREL_EQUAL_TEXT;
    return;
  }
  hb_arena_reset(c->scratch);
  side sa, sb;
  if (!load_side(c, a, na, 0, &sa, out) || !load_side(c, b, nb, 1, &sb, out)) return;
  if (same_canonical(&sa, &sb)) {
    out->verdict = MREL_EQUAL_CANONICAL;
    return;
  }
  out->verdict = MREL_DIFFERENT;
  if (sa.undefined != sb.undefined) {
    out->side = sa.undefined ? 0 : 1;
    snprintf(out->why, sizeof out->why, "unknown indexing");
    return;
  }
  if (sa.mixed || sb.mixed) {
    out->side = sa.mixed ? 0 : 1;
    snprintf(out->why, sizeof out->why, "maps with different numbers of dimensions or results");
    return;
  }
  if (sa.shaped && sb.shaped && (sa.ndims != sb.ndims || sa.nresults != sb.nresults)) {
    snprintf(out->why, sizeof out->why, "%u dimensions and %u results against %u and %u", sa.ndims, sa.nresults,
             sb.ndims, sb.nresults);
    return;
  }
  uint32_t ndims = sa.shaped ? sa.ndims : sb.ndims, nres = sa.shaped ? sa.nresults : sb.nresults;
  interval *hull = hb_arena_array(c->scratch, ndims + 1, sizeof *hull);
  uint64_t cost = enum_cost(&sa, &sb, ndims, hull);
  if (cost == 0) {
    out->verdict = MREL_EQUAL_ENUMERATED; /* both empty */
    return;
  }
  if (cost <= c->enum_limit && compare_enumerated(&sa, &sb, ndims, nres, hull, out)) return;
  uint32_t tested = 0;
  uint64_t budget = c->enum_limit;
  if (sample_side(&sa, &sb, 0, &budget, &tested, out) || sample_side(&sb, &sa, 1, &budget, &tested, out)) return;
  out->verdict = MREL_UNDECIDED;
  char stop[96] = "";
  if (!budget)
    snprintf(stop, sizeof stop, " (sampling stopped after %llu steps)", (unsigned long long)c->enum_limit);
  if (cost <= c->enum_limit)
    snprintf(out->why, sizeof out->why, "evaluating the maps overflows int64; no difference at %u sampled points%s",
             tested, stop);
  else if (cost == UINT64_MAX)
    snprintf(out->why, sizeof out->why,
             "canonical forms differ, the domain is too large to enumerate; no difference at %u sampled points%s",
             tested, stop);
  else
    snprintf(out->why, sizeof out->why,
             "canonical forms differ, enumerating takes %llu evaluations (more than %llu); no difference at %u sampled "
             "points%s",
             (unsigned long long)cost, (unsigned long long)c->enum_limit, tested, stop);
}
