#include "tile_constraint.h"

#include <stdlib.h>
#include <string.h>

#include "map_print.h"
#include "../parser/base/oom.h"

/* ---- conjunctions ------------------------------------------------------------------------------ */

static int64_t find_atom(const tc_atom *atoms, uint32_t n, const ae *e) {
  for (uint32_t i = 0; i < n; i++)
    if (atoms[i].expr == e) return i;
  return -1;
}

/* Appends y's atoms to the n atoms at dst (room for n + y->n), intersecting
 * equal expressions; false when an intersection is empty. */
static bool merge_into(tc_atom *dst, uint32_t *n, const tc_atom *src, uint32_t nsrc) {
  for (uint32_t i = 0; i < nsrc; i++) {
    int64_t k = find_atom(dst, *n, src[i].expr);
    if (k < 0) {
      dst[(*n)++] = src[i];
      continue;
    }
    interval iv = iv_intersect(dst[k].iv, src[i].iv);
    if (!iv_feasible(iv)) return false;
    dst[k].iv = iv;
  }
  return true;
}

tc_dnf tc_conjunction(hb_arena *a, const tc_atom *atoms, uint32_t n) {
  tc_conj *c = hb_arena_alloc(a, sizeof *c);
  c->atoms = hb_arena_array(a, n ? n : 1, sizeof *c->atoms);
  c->n = 0;
  if (!merge_into(c->atoms, &c->n, atoms, n)) return tc_unsatisfiable();
  return (tc_dnf){true, 1, c};
}

tc_dnf tc_or(hb_arena *a, const tc_dnf *x, const tc_dnf *y) {
  if (tc_is_always(x) || tc_is_always(y)) return tc_always();
  if (!x->satisfiable) return *y;
  if (!y->satisfiable) return *x;
  tc_dnf r = {true, x->n + y->n, hb_arena_array(a, (size_t)x->n + y->n, sizeof(tc_conj))};
  memcpy(r.conjs, x->conjs, x->n * sizeof(tc_conj));
  memcpy(r.conjs + x->n, y->conjs, y->n * sizeof(tc_conj));
  return r;
}

bool tc_and(hb_arena *a, const tc_dnf *x, const tc_dnf *y, uint64_t max_conjs, tc_dnf *out) {
  if (!x->satisfiable || !y->satisfiable) {
    *out = tc_unsatisfiable();
    return true;
  }
  if (tc_is_always(x)) return *out = *y, true;
  if (tc_is_always(y)) return *out = *x, true;
  if ((uint64_t)x->n * y->n > max_conjs) return false;
  tc_dnf r = {true, 0, hb_arena_array(a, (size_t)x->n * y->n, sizeof(tc_conj))};
  for (uint32_t i = 0; i < x->n; i++)
    for (uint32_t j = 0; j < y->n; j++) {
      const tc_conj *cx = &x->conjs[i], *cy = &y->conjs[j];
      tc_conj *c = &r.conjs[r.n];
      c->atoms = hb_arena_array(a, (size_t)cx->n + cy->n + 1, sizeof(tc_atom));
      memcpy(c->atoms, cx->atoms, cx->n * sizeof(tc_atom));
      c->n = cx->n;
      if (merge_into(c->atoms, &c->n, cy->atoms, cy->n)) r.n++; /* an empty intersection drops the pair */
    }
  if (r.n == 0) r.satisfiable = false;
  *out = r;
  return true;
}

/* ---- simplification ------------------------------------------------------------------------------- */

static uint64_t atom_hash(const tc_atom *t) {
  uint64_t h = t->expr->hash ^ ((uint64_t)t->iv.lo * 0x9e3779b97f4a7c15ULL);
  h ^= (uint64_t)t->iv.hi * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

static bool conj_equal(const tc_conj *x, const tc_conj *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++) {
    int64_t k = find_atom(y->atoms, y->n, x->atoms[i].expr);
    if (k < 0 || !iv_eq(y->atoms[k].iv, x->atoms[i].iv)) return false;
  }
  return true;
}

typedef struct {
  uint64_t hash;
  uint32_t index;
} conj_key;

static int cmp_key(const void *pa, const void *pb) {
  const conj_key *a = pa, *b = pb;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

tc_dnf tc_simplify(hb_arena *a, const tc_dnf *d) {
  if (!d->satisfiable || d->n == 0) return *d;
  tc_dnf r = {true, 0, hb_arena_array(a, d->n, sizeof(tc_conj))};
  for (uint32_t i = 0; i < d->n; i++) {
    const tc_conj *c = &d->conjs[i];
    tc_conj nc = {0, hb_arena_array(a, c->n + 1, sizeof(tc_atom))};
    bool dead = false;
    for (uint32_t k = 0; k < c->n && !dead; k++) {
      const tc_atom *t = &c->atoms[k];
      if (!iv_feasible(t->iv)) dead = true;
      else if (t->expr->kind == AE_CONST) dead = !iv_contains(t->iv, t->expr->value);
      else if (!merge_into(nc.atoms, &nc.n, t, 1)) dead = true;
    }
    if (dead) continue;
    if (nc.n == 0) return tc_always(); /* one conjunction always holds */
    r.conjs[r.n++] = nc;
  }
  if (r.n == 0) return tc_unsatisfiable();
  /* duplicate conjunctions (as sets of atoms): keep the first of each */
  conj_key *keys = hb_malloc(r.n * sizeof *keys);
  bool *dup = hb_calloc(r.n, sizeof *dup);
  for (uint32_t i = 0; i < r.n; i++) {
    uint64_t h = 0;
    for (uint32_t k = 0; k < r.conjs[i].n; k++) h += atom_hash(&r.conjs[i].atoms[k]);
    keys[i] = (conj_key){h, i};
  }
  qsort(keys, r.n, sizeof *keys, cmp_key);
  for (uint32_t i = 0; i < r.n; i++)
    for (uint32_t j = i + 1; j < r.n && keys[j].hash == keys[i].hash; j++)
      if (!dup[keys[j].index] && conj_equal(&r.conjs[keys[i].index], &r.conjs[keys[j].index]))
        dup[keys[j].index] = true;
  uint32_t n = 0;
  for (uint32_t i = 0; i < r.n; i++)
    if (!dup[i]) r.conjs[n++] = r.conjs[i];
  r.n = n;
  free(keys);
  free(dup);
  return r;
}

static bool atom_holds(const tc_atom *t, const int64_t *dims, uint32_t ndims) {
  int64_t v;
  return ae_eval_point(t->expr, dims, ndims, NULL, 0, &v) && iv_contains(t->iv, v);
}

bool tc_dnf_holds(const tc_dnf *d, const int64_t *dims, uint32_t ndims) {
  if (!d->satisfiable) return false;
  if (d->n == 0) return true;
  for (uint32_t i = 0; i < d->n; i++) {
    bool all = true;
    for (uint32_t k = 0; k < d->conjs[i].n && all; k++) all = atom_holds(&d->conjs[i].atoms[k], dims, ndims);
    if (all) return true;
  }
  return false;
}

/* ---- factors ----------------------------------------------------------------------------------------- */

static tc_factor *push(hb_arena *a, tc_factors *fs) {
  if (fs->n == fs->cap) {
    uint32_t cap = fs->cap ? fs->cap * 2 : 4;
    fs->f = hb_arena_grow(a, fs->f, fs->n, cap, sizeof *fs->f);
    fs->cap = cap;
  }
  tc_factor *f = &fs->f[fs->n++];
  memset(f, 0, sizeof *f);
  return f;
}

void tc_factors_add_dnf(hb_arena *a, tc_factors *fs, tc_dnf d) {
  tc_factor *f = push(a, fs);
  f->kind = TC_FACTOR_DNF;
  f->dnf = d;
}

void tc_factors_add_summation(hb_arena *a, tc_factors *fs, uint32_t n, const ae *const *sizes, const int64_t *ranges) {
  tc_factor *f = push(a, fs);
  f->kind = TC_FACTOR_SUMMATION;
  f->n = n;
  const ae **s = hb_arena_array(a, n ? n : 1, sizeof *s);
  int64_t *r = hb_arena_array(a, n ? n : 1, sizeof *r);
  for (uint32_t i = 0; i < n; i++) s[i] = sizes[i], r[i] = ranges[i];
  f->sizes = s;
  f->ranges = r;
}

bool tc_summation_dnf(hb_arena *a, const tc_factor *f, uint64_t max_conjs, tc_dnf *out) {
  uint32_t n = f->n;
  if ((uint64_t)n * (n + 1) / 2 > max_conjs) return false;
  tc_atom *atoms = hb_arena_array(a, n ? n : 1, sizeof *atoms);
  tc_dnf r = tc_unsatisfiable();
  /* "1, ..., 1 (before p), anything (p), full (p+1 .. p+f), 1, ..., 1" */
  for (uint32_t p = 0; p < n; p++)
    for (uint32_t full = 0; p + full < n; full++) {
      uint32_t k = 0;
      for (uint32_t i = 0; i < n; i++) {
        if (i == p) continue;
        int64_t v = (i > p && i <= p + full) ? f->ranges[i] : 1;
        atoms[k++] = (tc_atom){f->sizes[i], iv_point(v)};
      }
      tc_dnf c = tc_conjunction(a, atoms, k);
      r = tc_or(a, &r, &c);
    }
  *out = r;
  return true;
}

static bool summation_holds(const tc_factor *f, const int64_t *dims, uint32_t ndims) {
  uint32_t n = f->n, i = 0;
  int64_t v;
  /* the first size that is not 1 is the partial one (choosing it as late as
   * possible never loses a solution), then a run of full sizes, then 1s */
  for (; i < n; i++) {
    if (!ae_eval_point(f->sizes[i], dims, ndims, NULL, 0, &v)) return false;
    if (v != 1) break;
  }
  for (i++; i < n; i++) {
    if (!ae_eval_point(f->sizes[i], dims, ndims, NULL, 0, &v)) return false;
    if (v != f->ranges[i]) break;
  }
  for (; i < n; i++) {
    if (!ae_eval_point(f->sizes[i], dims, ndims, NULL, 0, &v)) return false;
    if (v != 1) return false;
  }
  return true;
}

bool tc_factor_holds(const tc_factor *f, const int64_t *dims, uint32_t ndims) {
  return f->kind == TC_FACTOR_DNF ? tc_dnf_holds(&f->dnf, dims, ndims) : summation_holds(f, dims, ndims);
}

bool tc_factors_hold(const tc_factors *fs, const int64_t *dims, uint32_t ndims) {
  for (uint32_t i = 0; i < fs->n; i++)
    if (!tc_factor_holds(&fs->f[i], dims, ndims)) return false;
  return true;
}

static bool factor_dnf(hb_arena *a, const tc_factor *f, uint64_t max_conjs, tc_dnf *out) {
  if (f->kind == TC_FACTOR_DNF) return *out = f->dnf, true;
  return tc_summation_dnf(a, f, max_conjs, out);
}

bool tc_factors_dnf(hb_arena *a, const tc_factors *fs, uint64_t max_conjs, tc_dnf *out) {
  tc_dnf r = tc_always();
  for (uint32_t i = 0; i < fs->n; i++) {
    tc_dnf d;
    if (!factor_dnf(a, &fs->f[i], max_conjs, &d) || !tc_and(a, &r, &d, max_conjs, &r)) return false;
  }
  *out = tc_simplify(a, &r);
  return true;
}

void tc_factor_vars(const tc_factor *f, bool *used, uint32_t ndims) {
  if (f->kind == TC_FACTOR_SUMMATION) {
    for (uint32_t k = 0; k < f->n; k++) ae_collect_vars(f->sizes[k], used, ndims, NULL, 0);
    return;
  }
  for (uint32_t c = 0; c < f->dnf.n; c++)
    for (uint32_t k = 0; k < f->dnf.conjs[c].n; k++) ae_collect_vars(f->dnf.conjs[c].atoms[k].expr, used, ndims, NULL, 0);
}

void tc_factors_vars(const tc_factors *fs, bool *used, uint32_t ndims) {
  for (uint32_t i = 0; i < fs->n; i++) tc_factor_vars(&fs->f[i], used, ndims);
}

/* ---- text ------------------------------------------------------------------------------------------------ */

static int cmp_str(const void *pa, const void *pb) { return strcmp(*(char *const *)pa, *(char *const *)pb); }

/* Sorts n strings and writes them joined by sep. */
static void put_sorted(hb_strbuf *b, char **s, uint32_t n, const char *sep) {
  qsort(s, n, sizeof *s, cmp_str);
  for (uint32_t i = 0; i < n; i++) {
    if (i) hb_sb_puts(b, sep);
    hb_sb_puts(b, s[i]);
  }
}

/* Strings live in the arena: the texts are short-lived and few. */
static char *text_of(hb_arena *a, const hb_strbuf *t) { return hb_arena_strndup(a, hb_sb_str(t), t->len); }

static void dnf_print(hb_strbuf *b, hb_arena *a, const tc_dnf *d) {
  if (!d->satisfiable) {
    hb_sb_puts(b, "unsatisfiable");
    return;
  }
  if (d->n == 0) {
    hb_sb_puts(b, "always satisfied");
    return;
  }
  char **conjs = hb_arena_array(a, d->n, sizeof *conjs);
  hb_strbuf t = HB_STRBUF_INIT, c = HB_STRBUF_INIT;
  for (uint32_t i = 0; i < d->n; i++) {
    const tc_conj *cj = &d->conjs[i];
    char **atoms = hb_arena_array(a, cj->n + 1, sizeof *atoms);
    for (uint32_t k = 0; k < cj->n; k++) {
      hb_sb_reset(&t);
      map_print_constraint(&t, cj->atoms[k].expr, cj->atoms[k].iv, 0);
      atoms[k] = text_of(a, &t);
    }
    hb_sb_reset(&c);
    put_sorted(&c, atoms, cj->n, " && ");
    conjs[i] = text_of(a, &c);
  }
  put_sorted(b, conjs, d->n, " || ");
  hb_sb_free(&t);
  hb_sb_free(&c);
}

void tc_dnf_print(hb_strbuf *b, const tc_dnf *d) {
  hb_arena *a = hb_arena_new();
  dnf_print(b, a, d);
  hb_arena_free(a);
}

tc_print_status tc_print(hb_strbuf *b, hb_arena *a, const tc_factors *fs, uint64_t max_conjs) {
  if (fs->n == 0) return TC_PRINT_ALWAYS;
  tc_dnf d;
  if (tc_factors_dnf(a, fs, max_conjs, &d)) {
    if (tc_is_always(&d)) return TC_PRINT_ALWAYS;
    dnf_print(b, a, &d);
    return TC_PRINT_OK;
  }
  /* too large as one DNF: each factor on its own, sorted, in parentheses */
  char **parts = hb_arena_array(a, fs->n + 1, sizeof *parts);
  uint32_t n = 0;
  hb_strbuf t = HB_STRBUF_INIT;
  tc_print_status st = TC_PRINT_OK;
  bool unsat = false;
  for (uint32_t i = 0; i < fs->n && !unsat; i++) {
    tc_dnf f;
    if (!factor_dnf(a, &fs->f[i], max_conjs, &f)) {
      st = TC_PRINT_TOO_LARGE;
      break;
    }
    f = tc_simplify(a, &f);
    if (tc_is_always(&f)) continue;
    unsat = !f.satisfiable;
    hb_sb_reset(&t);
    hb_sb_putc(&t, '(');
    dnf_print(&t, a, &f);
    hb_sb_putc(&t, ')');
    parts[n++] = text_of(a, &t);
  }
  hb_sb_free(&t);
  if (st == TC_PRINT_TOO_LARGE) return st;
  if (unsat) hb_sb_puts(b, "unsatisfiable");
  else if (n == 0) return TC_PRINT_ALWAYS;
  else put_sorted(b, parts, n, " && ");
  return TC_PRINT_OK;
}
