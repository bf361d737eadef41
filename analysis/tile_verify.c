#include "tile_verify.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oom.h"

typedef struct {
  int64_t *v; /* n points of `width` coordinates */
  size_t n, cap, width;
} points;

static void add_point(points *s, const int64_t *p) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    s->v = xrealloc(s->v, s->cap * (s->width + 1) * sizeof *s->v);
  }
  memcpy(s->v + s->n * s->width, p, s->width * sizeof *p);
  s->n++;
}

static size_t sort_width; /* qsort has no context argument */
static int cmp_point(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (size_t i = 0; i < sort_width; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

static void normalize(points *s) {
  if (s->n < 2 || s->width == 0) {
    if (s->width == 0 && s->n > 1) s->n = 1;
    return;
  }
  sort_width = s->width;
  qsort(s->v, s->n, s->width * sizeof *s->v, cmp_point);
  size_t k = 1;
  for (size_t i = 1; i < s->n; i++)
    if (cmp_point(s->v + (k - 1) * s->width, s->v + i * s->width))
      memmove(s->v + k++ * s->width, s->v + i * s->width, s->width * sizeof *s->v);
  s->n = k;
}

/* The first element of a not in b (both normalized), or NULL. */
static const int64_t *missing(const points *a, const points *b) {
  sort_width = a->width;
  size_t j = 0;
  for (size_t i = 0; i < a->n; i++) {
    const int64_t *p = a->v + i * a->width;
    while (j < b->n && cmp_point(b->v + j * b->width, p) < 0) j++;
    if (j == b->n || cmp_point(b->v + j * b->width, p) != 0) return p;
  }
  return NULL;
}

/* Advances the multi-index i over [lo, hi] per coordinate; false after the last. */
static bool next(int64_t *i, const int64_t *lo, const int64_t *hi, uint32_t n) {
  for (uint32_t k = n; k-- > 0;) {
    if (++i[k] <= hi[k]) return true;
    i[k] = lo[k];
  }
  return false;
}

__attribute__((format(printf, 3, 4))) static void set(tv_result *r, tv_status st, const char *fmt, ...) {
  r->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  va_end(ap);
}

static void put_vec(char *buf, size_t cap, const int64_t *v, uint32_t n) {
  size_t w = (size_t)snprintf(buf, cap, "[");
  for (uint32_t i = 0; i < n && w < cap; i++) w += (size_t)snprintf(buf + w, cap - w, "%s%" PRId64, i ? ", " : "", v[i]);
  if (w < cap) snprintf(buf + w, cap - w, "]");
}

/* count *= n, saturating at limit + 1. */
static void times(uint64_t *count, int64_t n, uint64_t limit) {
  uint64_t u = n > 0 ? (uint64_t)n : 0;
  *count = (u && *count > limit / u) ? limit + 1 : *count * u;
}

typedef struct {
  const ft_tiling *t;
  const ft_entry *e;
  const imap *m;
  uint32_t nd, nr, nrange, nrt, rank;
  const int64_t *D; /* operand dims */
  int64_t *x, *xlo, *xhi, *s, *slo, *shi, *k, *klo, *khi, *p, *rt, *osyms, *off;
  points img, box;
} vctx;

/* What the map reads for the output elements of tile `tile`, at the
 * runtime values rt. */
static void read_set(vctx *c, const int64_t *tile) {
  const imap *m = c->m;
  c->img.n = 0;
  for (uint32_t i = 0; i < c->nd; i++) {
    c->xlo[i] = tile[i] * c->t->ts[i];
    c->xhi[i] = c->xlo[i] + c->t->ts[i] - 1;
    if (c->xhi[i] >= c->t->extent[i]) c->xhi[i] = c->t->extent[i] - 1;
    c->x[i] = c->xlo[i];
  }
  for (uint32_t j = 0; j < c->nrange; j++) c->s[j] = c->slo[j] = m->sym_iv[j].lo, c->shi[j] = m->sym_iv[j].hi;
  for (uint32_t j = 0; j < c->nrt; j++) c->s[c->nrange + j] = c->rt[j];
  do {
    bool in = true;
    for (uint32_t i = 0; i < c->nd && in; i++) in = iv_contains(m->dim_iv[i], c->x[i]);
    if (!in) continue;
    do {
      bool ok = true;
      for (uint32_t q = 0; q < m->ncons && ok; q++) {
        int64_t v;
        ok = ae_eval_point(m->cons[q].expr, c->x, c->nd, c->s, c->nrange + c->nrt, &v) && iv_contains(m->cons[q].iv, v);
      }
      for (uint32_t r = 0; r < c->nr && ok; r++) ok = ae_eval_point(m->results[r], c->x, c->nd, c->s, c->nrange + c->nrt, &c->p[r]);
      if (ok) add_point(&c->img, c->p);
    } while (c->nrange && next(c->s, c->slo, c->shi, c->nrange));
  } while (c->nd && next(c->x, c->xlo, c->xhi, c->nd));
  normalize(&c->img);
}

/* The tile's box inside the operand; false if the offsets cannot be evaluated. */
static bool box_set(vctx *c, const int64_t *tile) {
  const imap *o = c->e->offsets;
  c->box.n = 0;
  for (uint32_t j = 0; j < c->nrt; j++)
    if (c->e->rt_of[j] >= 0) c->osyms[c->e->rt_of[j]] = c->rt[j];
  for (uint32_t r = 0; r < c->nr; r++)
    if (!ae_eval_point(o->results[r], tile, c->nd, c->osyms, imap_nsyms(o), &c->off[r])) return false;
  for (uint32_t r = 0; r < c->nr; r++) c->k[r] = c->klo[r] = 0, c->khi[r] = c->e->sizes[r] - 1;
  do {
    bool in = true;
    for (uint32_t r = 0; r < c->nr && in; r++) {
      c->p[r] = c->off[r] + c->k[r] * c->e->strides[r];
      in = c->p[r] >= 0 && c->p[r] < c->D[r];
    }
    if (in) add_point(&c->box, c->p);
  } while (c->nr && next(c->k, c->klo, c->khi, c->nr));
  normalize(&c->box);
  return true;
}

void tv_check(const ft_tiling *t, const ft_entry *e, tv_result *res) {
  memset(res, 0, sizeof *res);
  const ft_operand *op = &t->operands[e->operand];
  const imap *m = e->x->map;
  if (e->status != ST_OK) return set(res, TV_SKIPPED, "no symbolic tile");
  if (!e->holds) return set(res, TV_SKIPPED, "the tile's constraints do not hold at these sizes");
  if (!e->offsets) return set(res, TV_SKIPPED, "offsets not computed");
  if (m->known_empty) return set(res, TV_SKIPPED, "the map is known to be empty");
  const hlo_shape *os = op->producer->shape;
  if (os->type == HLO_TUPLE || (uint32_t)os->rank != m->nresults) return set(res, TV_SKIPPED, "the operand is not an array of the map's rank");
  for (int i = 0; i < os->rank; i++)
    if (os->dims[i] < 0) return set(res, TV_SKIPPED, "the operand has an unbounded dimension");
  /* the size of the work */
  uint64_t pts = 1, rts = 1, boxes = t->total_tiles > TV_MAX_STEPS ? TV_MAX_STEPS + 1 : (uint64_t)t->total_tiles;
  for (uint32_t i = 0; i < t->rank; i++) times(&pts, t->extent[i], TV_MAX_POINTS);
  for (uint32_t j = 0; j < imap_nsyms(m); j++) times(&pts, m->sym_iv[j].hi - m->sym_iv[j].lo + 1, TV_MAX_POINTS);
  for (uint32_t j = 0; j < m->nrt; j++) times(&rts, m->sym_iv[m->nrange + j].hi - m->sym_iv[m->nrange + j].lo + 1, TV_MAX_STEPS);
  for (uint32_t r = 0; r < m->nresults; r++) times(&boxes, e->sizes[r], TV_MAX_STEPS);
  times(&boxes, (int64_t)rts, TV_MAX_STEPS);
  if (pts > TV_MAX_POINTS) return set(res, TV_SKIPPED, "domain beyond %" PRIu64 " points", TV_MAX_POINTS);
  if (boxes > TV_MAX_STEPS) return set(res, TV_SKIPPED, "boxes beyond %" PRIu64 " elements in all", TV_MAX_STEPS);

  vctx c;
  memset(&c, 0, sizeof c);
  c.t = t, c.e = e, c.m = m, c.nd = m->ndims, c.nr = m->nresults, c.nrange = m->nrange, c.nrt = m->nrt;
  c.rank = (uint32_t)os->rank, c.D = os->dims;
  uint32_t w = c.nd + c.nr + imap_nsyms(m) + 1;
  int64_t *mem = xcalloc((size_t)w * 12 + imap_nsyms(e->offsets) + 1, sizeof *mem);
  int64_t *q = mem;
  c.x = q, q += w, c.xlo = q, q += w, c.xhi = q, q += w, c.s = q, q += w, c.slo = q, q += w, c.shi = q, q += w;
  c.k = q, q += w, c.klo = q, q += w, c.khi = q, q += w, c.p = q, q += w, c.rt = q, q += w, c.off = q, q += w;
  c.osyms = q;
  c.img.width = c.box.width = c.nr;
  int64_t *tile = xcalloc(c.nd + 1, sizeof *tile), *tlo = xcalloc(c.nd + 1, sizeof *tlo), *thi = xcalloc(c.nd + 1, sizeof *thi);
  int64_t *rlo = xcalloc(c.nrt + 1, sizeof *rlo), *rhi = xcalloc(c.nrt + 1, sizeof *rhi);
  for (uint32_t i = 0; i < c.nd; i++) thi[i] = t->ntiles[i] - 1;
  for (uint32_t j = 0; j < c.nrt; j++) c.rt[j] = rlo[j] = m->sym_iv[m->nrange + j].lo, rhi[j] = m->sym_iv[m->nrange + j].hi;
  bool overhang = false, done = false;
  res->status = TV_OK;
  if (t->total_tiles == 0) done = true;
  do {
    memset(tile, 0, (c.nd + 1) * sizeof *tile);
    do {
      read_set(&c, tile);
      bool reads = !e->offsets->known_empty;
      for (uint32_t i = 0; i < c.nd && reads; i++) reads = iv_contains(e->offsets->dim_iv[i], tile[i]);
      if (!reads) { /* a tile outside the map's domain: it must read nothing, and loads nothing */
        if (c.img.n) {
          char tb[120];
          put_vec(tb, sizeof tb, tile, c.nd);
          set(res, TV_MISMATCH, "tile %s reads the operand but has no box", tb);
          done = true;
          break;
        }
        continue;
      }
      if (!box_set(&c, tile)) {
        set(res, TV_SKIPPED, "an offset cannot be evaluated (overflow)");
        done = true;
        break;
      }
      res->tiles++;
      bool full = true;
      for (uint32_t i = 0; i < c.nd; i++) full &= (tile[i] + 1) * t->ts[i] <= t->extent[i];
      const int64_t *miss = missing(&c.img, &c.box), *extra = miss ? NULL : missing(&c.box, &c.img);
      if (miss || (extra && full)) {
        char tb[120], pb[120], rb[120] = "";
        put_vec(tb, sizeof tb, tile, c.nd);
        put_vec(pb, sizeof pb, miss ? miss : extra, c.nr);
        if (c.nrt) {
          rb[0] = ' ', rb[1] = 'r', rb[2] = 't';
          put_vec(rb + 3, sizeof rb - 3, c.rt, c.nrt);
        }
        set(res, TV_MISMATCH, "tile %s%s: its box %s operand element %s", tb, rb, miss ? "misses" : "holds the unread", pb);
        done = true;
        break;
      }
      overhang |= extra != NULL;
    } while (c.nd && next(tile, tlo, thi, c.nd));
  } while (!done && c.nrt && next(c.rt, rlo, rhi, c.nrt));
  if (res->status == TV_OK && overhang) res->status = TV_OK_OVERHANG;
  free(c.img.v);
  free(c.box.v);
  free(mem);
  free(tile), free(tlo), free(thi), free(rlo), free(rhi);
}
