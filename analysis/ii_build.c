/* Helpers every indexing rule shares: errors, shapes, maps over shapes,
 * operand indexings and sets (equality, insertion, composition,
 * simplification) and the text-size measure of results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"

/* ---- errors and shapes ---------------------------------------------------------------------------- */

ii_status ii_fail(ii_error *err, const hlo_instr *in, const char *fmt, ...) {
  if (err) {
    err->instr = in;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return II_ERROR;
}

const hlo_shape *ii_array_shape(const hlo_shape *s) {
  while (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    if (s->n_elems == 0) break;
    s = s->elems[0];
  }
  return s;
}

const hlo_shape *ii_set_operand_shape(const hlo_instr *in, int64_t k, const ii_set *s) {
  const hlo_shape *x = in->operands[k]->shape;
  if (s->in_elem && x->type == HLO_TUPLE && s->elem >= 0 && s->elem < x->n_elems) return x->elems[s->elem];
  return x;
}

const hlo_shape *ii_output_shape(const hlo_instr *in, int64_t output_id) {
  const hlo_shape *s = in->shape;
  if (s->type == HLO_TUPLE && output_id >= 0 && output_id < s->n_elems) return s->elems[output_id];
  return s;
}

/* ---- building blocks ---------------------------------------------------------------------------- */

const hlo_computation *ii_called(const hlo_instr *in, hlo_call_role role) {
  for (int i = 0; i < in->cold->n_called; i++)
    if (in->cold->called_role[i] == role) return in->cold->called[i];
  return NULL;
}

bool ii_same_dims(const hlo_shape *a, const hlo_shape *b) {
  if (!ii_is_array(a) || !ii_is_array(b) || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

void ii_indexing_init(ii_ctx *c, ii_indexing *x, uint32_t n) {
  x->n = x->nlive = n;
  x->ids = NULL;
  x->sets = hb_arena_zalloc(c->scratch, (n ? n : 1) * sizeof *x->sets);
}

/* ii_set_copy; SHARED (when not NULL) maps a member copied before to its
 * copy, so that a member several sets hold is copied once. */
static void set_copy(hb_arena *a, const ii_set *s, ii_set *d, const hlo_computation *from, const hlo_computation *to,
                     hb_ptrmap *shared) {
  d->n = d->cap = s->n;
  d->items = hb_arena_array(a, s->n ? s->n : 1, sizeof *d->items);
  d->hash = hb_arena_array(a, s->n ? s->n : 1, sizeof *d->hash);
  if (s->nhashed) memcpy(d->hash, s->hash, s->nhashed * sizeof *d->hash);
  d->nhashed = s->nhashed;
  d->in_elem = s->in_elem;
  d->elem = s->elem;
  for (uint32_t i = 0; i < s->n; i++) {
    bool found = false;
    ii_operand *p = shared ? (ii_operand *)hb_ptrmap_get_ptr(shared, s->items[i], &found) : NULL;
    if (!found) {
      p = ii_operand_copy(a, s->items[i], from, to);
      if (shared) hb_ptrmap_put_ptr(shared, s->items[i], p);
    }
    d->items[i] = p;
  }
}

/* Members are shared between sets as in X: the entries of the 10,000
 * parameters of an elementwise fusion hold one map (fusion.c's
 * shared_copy), and so does the copy. */
void ii_indexing_copy(hb_arena *a, const ii_indexing *x, ii_indexing *out, const hlo_computation *from,
                      const hlo_computation *to) {
  uint32_t n = ii_nstored(x);
  *out = *x;
  if (x->ids) out->ids = hb_arena_dup(a, x->ids, (n ? n : 1) * sizeof *x->ids);
  out->sets = hb_arena_zalloc(a, (n ? n : 1) * sizeof *out->sets);
  hb_ptrmap shared;
  hb_ptrmap_init(&shared);
  for (uint32_t k = 0; k < n; k++) set_copy(a, &x->sets[k], &out->sets[k], from, to, &shared);
  hb_ptrmap_free(&shared);
}

void ii_set_copy(hb_arena *a, const ii_set *s, ii_set *d, const hlo_computation *from, const hlo_computation *to) {
  set_copy(a, s, d, from, to, NULL);
}

ii_operand *ii_operand_copy(hb_arena *a, const ii_operand *o, const hlo_computation *from, const hlo_computation *to) {
  ii_operand *p = hb_arena_zalloc(a, sizeof *p);
  p->map = imap_copy(a, o->map);
  p->nrt = o->nrt;
  p->rt = o->nrt ? hb_arena_array(a, o->nrt, sizeof *p->rt) : NULL; /* (most have none: held by the thousand) */
  for (uint32_t j = 0; j < o->nrt; j++) {
    const hlo_instr *in = o->rt[j].instr;
    p->rt[j] = o->rt[j];
    if (from && in->parent == from) p->rt[j].instr = to->instrs[in->index];
    p->rt[j].map = imap_copy(a, o->rt[j].map);
  }
  p->replica = o->replica ? imap_copy(a, o->replica) : NULL;
  p->why = o->why ? hb_arena_strndup(a, o->why, strlen(o->why)) : NULL; /* no names: the same in both fusions */
  return p;
}

ii_operand *ii_wrap(ii_ctx *c, imap *m) {
  ii_operand *x = hb_arena_zalloc(c->scratch, sizeof *x);
  x->map = m;
  return x;
}

void ii_indexing_init_sparse(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t nlive, const uint32_t *ids) {
  x->n = n;
  x->nlive = nlive;
  x->ids = nlive ? hb_arena_dup(c->scratch, ids, nlive * sizeof *ids) : hb_arena_alloc(c->scratch, sizeof *ids);
  x->sets = hb_arena_zalloc(c->scratch, (nlive ? nlive : 1) * sizeof *x->sets);
}

/* The stored position of entry K, or -1. */
static int64_t stored_at(const ii_indexing *x, uint32_t k) {
  if (!x->ids) return k < x->n ? (int64_t)k : -1;
  uint32_t lo = 0, hi = x->nlive;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (x->ids[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo < x->nlive && x->ids[lo] == k ? (int64_t)lo : -1;
}

const ii_set *ii_entry(const ii_indexing *x, uint32_t k) {
  static const ii_set none;
  int64_t i = stored_at(x, k);
  return i < 0 ? &none : &x->sets[i];
}

void ii_indexing_view(const ii_indexing *x, uint32_t from, uint32_t to, uint32_t *ids, ii_indexing *out) {
  out->n = x->n;
  out->sets = x->sets + from;
  out->nlive = to - from;
  if (x->ids) {
    out->ids = x->ids + from;
    return;
  }
  for (uint32_t i = from; i < to; i++) ids[i - from] = i;
  out->ids = ids;
}

uint32_t ii_next_entry(const ii_indexing *x, uint32_t k) {
  uint32_t i = k;
  if (x->ids) { /* the first stored id >= k */
    uint32_t hi = x->nlive;
    i = 0;
    while (i < hi) {
      uint32_t mid = i + (hi - i) / 2;
      if (x->ids[mid] < k) i = mid + 1;
      else hi = mid;
    }
  }
  for (; i < ii_nstored(x); i++)
    if (x->sets[i].n) return ii_stored_id(x, i);
  return x->n;
}

ii_set *ii_entry_mut(ii_indexing *x, uint32_t k) {
  int64_t i = stored_at(x, k);
  return i < 0 ? NULL : &x->sets[i];
}

void ii_add(ii_ctx *c, ii_indexing *x, uint32_t k, imap *m) { ii_set_insert(c, ii_entry_mut(x, k), ii_wrap(c, m)); }

void ii_unknown(ii_ctx *c, ii_indexing *x, uint32_t n) { ii_unknown_why(c, x, n, NULL); }

const char *ii_why(ii_ctx *c, const char *fmt, ...) {
  if (c->xla_compat) return NULL;
  char buf[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return hb_arena_strndup(c->scratch, buf, strlen(buf));
}

void ii_add_unknown(ii_ctx *c, ii_indexing *x, uint32_t k, const char *why) {
  ii_operand *o = ii_wrap(c, imap_new_undefined(c->scratch, c->ae));
  o->why = c->xla_compat ? NULL : why;
  ii_set_insert(c, ii_entry_mut(x, k), o);
}

void ii_indexing_init_range(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t lo, uint32_t hi) {
  uint32_t *ids = hb_arena_array(c->scratch, hi - lo + 1, sizeof *ids);
  for (uint32_t k = lo; k < hi; k++) ids[k - lo] = k;
  ii_indexing_init_sparse(c, x, n, hi - lo, ids);
}

int ii_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

void ii_unknown_range(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t lo, uint32_t hi, const char *why) {
  ii_indexing_init_range(c, x, n, lo, hi);
  for (uint32_t k = lo; k < hi; k++) ii_add_unknown(c, x, k, ii_why(c, "%s", why));
}

void ii_unknown_why(ii_ctx *c, ii_indexing *x, uint32_t n, const char *why) {
  ii_indexing_init(c, x, n);
  for (uint32_t k = 0; k < n; k++) ii_add_unknown(c, x, k, why);
}

imap *ii_identity(ii_ctx *c, const hlo_shape *s) {
  s = ii_array_shape(s);
  return imap_identity(c->scratch, c->ae, ii_rank(s), ii_dims(s));
}

imap *ii_scalar_map(ii_ctx *c, const hlo_shape *s) {
  s = ii_array_shape(s);
  return imap_scalar(c->scratch, c->ae, ii_rank(s), ii_dims(s));
}

imap *ii_map(ii_ctx *c, uint32_t ndims, const int64_t *dim_sizes, uint32_t nrange, const int64_t *range_sizes,
             uint32_t nresults, const ae *const *results) {
  interval *div = hb_arena_array(c->scratch, ndims ? ndims : 1, sizeof *div);
  interval *siv = hb_arena_array(c->scratch, nrange ? nrange : 1, sizeof *siv);
  for (uint32_t i = 0; i < ndims; i++) div[i] = iv_make(0, dim_sizes[i] - 1);
  for (uint32_t i = 0; i < nrange; i++) siv[i] = iv_make(0, range_sizes[i] - 1);
  return imap_new(c->scratch, c->ae, ndims, nrange, 0, div, siv, nresults, results);
}

const ae **ii_exprs(ii_ctx *c, size_t n) { return hb_arena_array(c->scratch, n ? n : 1, sizeof(const ae *)); }

ii_status ii_simplify_map(ii_ctx *c, imap *m, simplify_mode mode) {
  if (imap_simplify(m, mode, NULL) == SIMPLIFY_OK) return II_OK;
  c->over = true;
  return II_TOO_LARGE;
}

ii_status ii_budget_status(ii_ctx *c) { return ae_ctx_status(c->ae) == AE_STATUS_OK ? II_OK : II_TOO_LARGE; }

/* ---- operand indexings and sets -------------------------------------------------------------------- */

bool ii_operand_equal(const ii_operand *a, const ii_operand *b) {
  if (!imap_equal(a->map, b->map)) return false;
  if (a->nrt != b->nrt) return false;
  for (uint32_t j = 0; j < a->nrt; j++)
    if (a->rt[j].instr != b->rt[j].instr || !imap_equal(a->rt[j].map, b->rt[j].map)) return false;
  if (!a->replica != !b->replica) return false;
  return !a->replica || imap_equal(a->replica, b->replica);
}

uint64_t ii_operand_hash(const ii_operand *x) {
  uint64_t h = imap_hash(x->map) * 31 + x->nrt;
  for (uint32_t j = 0; j < x->nrt; j++) h = h * 1000003u ^ imap_hash(x->rt[j].map);
  if (x->replica) h = h * 131 ^ imap_hash(x->replica);
  return h;
}

bool ii_set_insert(ii_ctx *c, ii_set *s, ii_operand *x) {
  if (s->n == s->cap) {
    uint32_t ncap = s->cap ? s->cap * 2 : 2;
    s->items = hb_arena_grow(c->scratch, s->items, s->n, ncap, sizeof *s->items);
    s->hash = hb_arena_grow(c->scratch, s->hash, s->nhashed, ncap, sizeof *s->hash);
    s->cap = ncap;
  }
  /* most sets hold one member: hashes are computed once a second one comes */
  if (s->n > 0) {
    for (uint32_t i = s->nhashed; i < s->n; i++) s->hash[i] = ii_operand_hash(s->items[i]);
    s->nhashed = s->n;
    uint64_t h = ii_operand_hash(x);
    for (uint32_t i = 0; i < s->n; i++)
      if (s->hash[i] == h && ii_operand_equal(s->items[i], x)) return false;
    s->hash[s->n] = h;
    s->nhashed = s->n + 1;
  }
  s->items[s->n++] = x;
  return true;
}

ii_operand *ii_operand_compose(ii_ctx *c, const ii_operand *first, const ii_operand *second) {
  imap *m = imap_compose(c->scratch, first->map, second->map);
  ii_operand *x = ii_wrap(c, m);
  if (m->undefined) { /* no descriptions: all undefined members are alike */
    x->why = first->map->undefined ? first->why : second->why;
    return x;
  }
  if (first->replica && second->replica) {
    x->map = imap_new_undefined(c->scratch, c->ae);
    return x;
  }
  if (!c->xla_compat) {
    ii_rt_compose(c, first, second, x);
  } else {
    x->nrt = first->nrt + second->nrt;
    x->rt = hb_arena_array(c->scratch, x->nrt ? x->nrt : 1, sizeof *x->rt);
    for (uint32_t j = 0; j < first->nrt; j++) x->rt[j] = first->rt[j];
    for (uint32_t j = 0; j < second->nrt; j++) {
      x->rt[first->nrt + j] = second->rt[j];
      x->rt[first->nrt + j].map = imap_compose(c->scratch, first->map, second->rt[j].map);
    }
  }
  if (first->replica) x->replica = first->replica;
  else if (second->replica) x->replica = imap_compose(c->scratch, first->map, second->replica);
  return x;
}

ii_status ii_operand_simplify(ii_ctx *c, ii_operand *x, bool simplify, bool remove_unused) {
  imap *m = x->map;
  if (m->undefined) return II_OK;
  if (simplify && ii_simplify_map(c, m, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  if (remove_unused && !c->xla_compat && x->nrt > 0) return ii_rt_remove_unused(c, x);
  if (remove_unused) {
    uint32_t nr0 = m->nrange, ns = imap_nsyms(m);
    int32_t *o2n = hb_arena_array(c->scratch, ns ? ns : 1, sizeof *o2n);
    if (imap_remove_unused_symbols(m, o2n) > 0 && x->nrt > 0) {
      ii_rtvar *keep = hb_arena_array(c->scratch, x->nrt, sizeof *keep);
      uint32_t n = 0;
      for (uint32_t j = 0; j < x->nrt; j++)
        if (nr0 + j >= ns || o2n[nr0 + j] >= 0) keep[n++] = x->rt[j];
      x->rt = keep;
      x->nrt = n;
    }
  }
  return ii_budget_status(c);
}

/* Expressions are DAGs, but their text is a tree: a long chain of generic
 * reshapes can give a map of a few thousand nodes whose text would take
 * gigabytes. Such a result is reported as too large instead of printed. */
static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

uint64_t ii_operand_text_nodes(const ii_operand *o) {
  uint64_t n = sat_add(imap_text_nodes(o->map), imap_text_nodes(o->replica));
  for (uint32_t j = 0; j < o->nrt; j++) n = sat_add(n, imap_text_nodes(o->rt[j].map));
  return n;
}

uint64_t ii_indexing_text_nodes(const ii_indexing *x) {
  uint64_t n = 0;
  for (uint32_t k = 0; k < ii_nstored(x); k++)
    for (uint32_t i = 0; i < x->sets[k].n; i++) n = sat_add(n, ii_operand_text_nodes(x->sets[k].items[i]));
  return n;
}

