/* Per tile: every element the map reads must lie in the box (its position
 * in the box is found by division: no set of points is built), and is
 * marked there; a full tile must have marked every box element inside the
 * operand. Linear in the points enumerated. */
#include "tile_verify.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/oom.h"

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
  uint32_t nd, nr, nrange, nrt;
  const int64_t *D;     /* operand dims */
  int64_t *x, *xlo, *xhi, *s, *slo, *shi, *k, *klo, *khi, *p, *rt, *osyms, *off;
  uint8_t *mark;        /* one per box element inside the operand (row-major over the k ranges) */
  uint64_t marked;
} vctx;

/* The position of operand element p among the box elements inside the
 * operand, or -1. */
static int64_t box_index(const vctx *c, const int64_t *p) {
  int64_t idx = 0;
  for (uint32_t r = 0; r < c->nr; r++) {
    int64_t d = p[r] - c->off[r], st = c->e->strides[r], k;
    if (st == 0) k = d == 0 ? 0 : -1;
    else k = d % st == 0 ? d / st : -1;
    if (k < c->klo[r] || k > c->khi[r]) return -1;
    idx = idx * (c->khi[r] - c->klo[r] + 1) + (k - c->klo[r]);
  }
  return idx;
}

/* The tile's offsets at the current runtime values and the range of box
 * elements inside the operand per dimension; false on overflow. */
static bool offsets_at(vctx *c, const int64_t *tile) {
  const imap *o = c->e->offsets;
  for (uint32_t j = 0; j < c->nrt; j++)
    if (c->e->rt_of[j] >= 0) c->osyms[c->e->rt_of[j]] = c->rt[j];
  for (uint32_t r = 0; r < c->nr; r++) {
    if (!ae_eval_point(o->results[r], tile, c->nd, c->osyms, imap_nsyms(o), &c->off[r])) return false;
    tf_box_range(c->off[r], c->e->sizes[r], c->e->strides[r], c->D[r], &c->klo[r], &c->khi[r]);
  }
  return true;
}

/* Marks what the map reads for the output elements of `tile` (at the
 * current runtime values); false when an element lies outside the box
 * (c->p holds it). *any: something was read. */
static bool read_tile(vctx *c, const int64_t *tile, bool *any) {
  const imap *m = c->m;
  *any = false;
  for (uint32_t i = 0; i < c->nd; i++) {
    c->xlo[i] = tile[i] * c->t->ts[i];
    c->xhi[i] = c->xlo[i] + c->t->ts[i] - 1;
    if (c->xhi[i] >= c->t->extent[i]) c->xhi[i] = c->t->extent[i] - 1;
    c->x[i] = c->xlo[i];
  }
  for (uint32_t j = 0; j < c->nrange; j++) c->s[j] = c->slo[j] = m->sym_iv[j].lo, c->shi[j] = m->sym_iv[j].hi;
  for (uint32_t j = 0; j < c->nrt; j++) c->s[c->nrange + j] = c->rt[j];
  uint32_t ns = c->nrange + c->nrt;
  do {
    bool in = true;
    for (uint32_t i = 0; i < c->nd && in; i++) in = iv_contains(m->dim_iv[i], c->x[i]);
    if (!in) continue;
    do {
      bool ok = true;
      for (uint32_t q = 0; q < m->ncons && ok; q++) {
        int64_t v;
        ok = ae_eval_point(m->cons[q].expr, c->x, c->nd, c->s, ns, &v) && iv_contains(m->cons[q].iv, v);
      }
      for (uint32_t r = 0; r < c->nr && ok; r++) ok = ae_eval_point(m->results[r], c->x, c->nd, c->s, ns, &c->p[r]);
      if (!ok) continue;
      *any = true;
      int64_t idx = box_index(c, c->p);
      if (idx < 0) return false;
      if (!c->mark[idx]) c->mark[idx] = 1, c->marked++;
    } while (c->nrange && next(c->s, c->slo, c->shi, c->nrange));
  } while (c->nd && next(c->x, c->xlo, c->xhi, c->nd));
  return true;
}

/* The box elements inside the operand; the first unmarked one into c->p
 * (when *unread). Clears the marks. */
static void sweep_box(vctx *c, bool *unread) {
  *unread = false;
  for (uint32_t r = 0; r < c->nr; r++)
    if (c->klo[r] > c->khi[r]) return; /* no element inside the operand */
  uint64_t idx = 0;
  for (uint32_t r = 0; r < c->nr; r++) c->k[r] = c->klo[r];
  do {
    if (!c->mark[idx] && !*unread) {
      *unread = true;
      for (uint32_t r = 0; r < c->nr; r++) c->p[r] = c->off[r] + c->k[r] * c->e->strides[r];
    }
    c->mark[idx++] = 0;
  } while (c->nr && next(c->k, c->klo, c->khi, c->nr));
  c->marked = 0;
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
  if (os->type == HLO_TUPLE || (uint32_t)os->rank != m->nresults)
    return set(res, TV_SKIPPED, "the operand is not an array of the map's rank");
  for (int i = 0; i < os->rank; i++)
    if (os->dims[i] < 0) return set(res, TV_SKIPPED, "the operand has an unbounded dimension");
  /* the size of the work: every tile when the whole domain is small,
   * else a sample of tiles (the first, second, middle, last but one and
   * last along each dimension; the diagonal of those at high rank) */
  uint64_t pts = 1, rts = 1, box = 1, tile_pts = 1, ntiles = t->total_tiles > TV_MAX_STEPS ? TV_MAX_STEPS + 1 : (uint64_t)t->total_tiles;
  for (uint32_t i = 0; i < t->rank; i++) {
    times(&pts, t->extent[i], TV_MAX_POINTS);
    times(&tile_pts, t->ts[i] < t->extent[i] ? t->ts[i] : t->extent[i], TV_MAX_POINTS);
  }
  for (uint32_t j = 0; j < imap_nsyms(m); j++) {
    times(&pts, m->sym_iv[j].hi - m->sym_iv[j].lo + 1, TV_MAX_POINTS);
    times(&tile_pts, m->sym_iv[j].hi - m->sym_iv[j].lo + 1, TV_MAX_POINTS);
  }
  for (uint32_t j = 0; j < m->nrt; j++) times(&rts, m->sym_iv[m->nrange + j].hi - m->sym_iv[m->nrange + j].lo + 1, TV_MAX_STEPS);
  for (uint32_t r = 0; r < m->nresults; r++) /* the elements inside the operand */
    times(&box, e->strides[r] == 0 ? 1 : e->sizes[r] < os->dims[r] ? e->sizes[r] : os->dims[r], TV_MAX_STEPS);
  uint32_t nd = m->ndims;
  int64_t **samples = hb_calloc(nd + 1, sizeof *samples);
  int64_t *nsamples = hb_calloc(nd + 1, sizeof *nsamples);
  bool sampled = pts > TV_MAX_POINTS;
  uint64_t chosen = sampled ? 1 : ntiles;
  for (uint32_t i = 0; i < nd && sampled; i++) {
    int64_t n = t->ntiles[i], cand[5] = {0, 1, n / 2, n - 2, n - 1}, k = 0;
    samples[i] = hb_calloc(5, sizeof **samples);
    for (int j = 0; j < 5; j++)
      if (cand[j] >= 0 && cand[j] < n && (k == 0 || cand[j] > samples[i][k - 1])) samples[i][k++] = cand[j];
    nsamples[i] = k;
    times(&chosen, k, TV_MAX_STEPS);
  }
  bool diagonal = sampled && chosen > 256;
  if (diagonal) chosen = 5;
  for (uint32_t i = 0; i < nd && !sampled; i++) {
    samples[i] = hb_calloc((size_t)t->ntiles[i] + 1, sizeof **samples);
    for (int64_t j = 0; j < t->ntiles[i]; j++) samples[i][j] = j;
    nsamples[i] = t->ntiles[i];
  }
  uint64_t work = chosen, boxes = chosen;
  times(&work, (int64_t)tile_pts, TV_MAX_POINTS);
  times(&work, (int64_t)rts, TV_MAX_POINTS);
  times(&boxes, (int64_t)box, TV_MAX_STEPS);
  times(&boxes, (int64_t)rts, TV_MAX_STEPS);
  const char *why = work > TV_MAX_POINTS ? "tiles of more than %" PRIu64 " points to sample" : NULL;
  if (!sampled && pts > TV_MAX_POINTS) why = "domain beyond %" PRIu64 " points";
  if (why || boxes > TV_MAX_STEPS) {
    for (uint32_t i = 0; i < nd; i++) free(samples[i]);
    free(samples), free(nsamples);
    if (why) return set(res, TV_SKIPPED, why, TV_MAX_POINTS);
    return set(res, TV_SKIPPED, "boxes beyond %" PRIu64 " elements in all", TV_MAX_STEPS);
  }
  if (sampled) res->sampled_of = t->total_tiles;

  vctx c;
  memset(&c, 0, sizeof c);
  c.t = t, c.e = e, c.m = m, c.nd = m->ndims, c.nr = m->nresults, c.nrange = m->nrange, c.nrt = m->nrt;
  c.D = os->dims;
  uint32_t w = c.nd + c.nr + imap_nsyms(m) + 1;
  int64_t *mem = hb_calloc((size_t)w * 12 + imap_nsyms(e->offsets) + 1, sizeof *mem), *q = mem;
  c.x = q, q += w, c.xlo = q, q += w, c.xhi = q, q += w, c.s = q, q += w, c.slo = q, q += w, c.shi = q, q += w;
  c.k = q, q += w, c.klo = q, q += w, c.khi = q, q += w, c.p = q, q += w, c.rt = q, q += w;
  c.off = q, q += w;
  c.osyms = q;
  c.mark = hb_calloc(box + 1, 1);
  /* tile = samples[i][pos[i]]; the diagonal moves every pos together */
  int64_t *tile = hb_calloc(c.nd + 1, sizeof *tile), *pos = hb_calloc(c.nd + 1, sizeof *pos), *plo = hb_calloc(c.nd + 1, sizeof *plo);
  int64_t *phi = hb_calloc(c.nd + 1, sizeof *phi);
  int64_t *rlo = hb_calloc(c.nrt + 1, sizeof *rlo), *rhi = hb_calloc(c.nrt + 1, sizeof *rhi);
  for (uint32_t i = 0; i < c.nd; i++) phi[i] = nsamples[i] - 1;
  for (uint32_t j = 0; j < c.nrt; j++) c.rt[j] = rlo[j] = m->sym_iv[m->nrange + j].lo, rhi[j] = m->sym_iv[m->nrange + j].hi;
  bool overhang = false, done = t->total_tiles == 0;
  res->status = TV_OK;
  char tb[120], pb[120], rb[120] = "";
  while (!done) {
    memset(pos, 0, (c.nd + 1) * sizeof *pos);
    for (int step = 0;; step++) {
      if (diagonal && step == 5) break;
      for (uint32_t i = 0; i < c.nd; i++) {
        int64_t j = diagonal ? (step < nsamples[i] ? step : nsamples[i] - 1) : pos[i];
        tile[i] = samples[i][j];
      }
      bool reads = !e->offsets->known_empty, any, unread;
      for (uint32_t i = 0; i < c.nd && reads; i++) reads = iv_contains(e->offsets->dim_iv[i], tile[i]);
      if (!offsets_at(&c, tile)) {
        set(res, TV_SKIPPED, "an offset cannot be evaluated (overflow)");
        done = true;
        break;
      }
      bool inside = read_tile(&c, tile, &any);
      /* a tile outside the map's domain reads nothing and loads nothing */
      if (!reads && !any) {
        sweep_box(&c, &unread);
        if (!diagonal && !(c.nd && next(pos, plo, phi, c.nd))) break;
        continue;
      }
      res->tiles++;
      bool full = reads;
      for (uint32_t i = 0; i < c.nd; i++)
        full &= tile[i] * t->ts[i] >= m->dim_iv[i].lo && (tile[i] + 1) * t->ts[i] - 1 <= m->dim_iv[i].hi &&
                (tile[i] + 1) * t->ts[i] <= t->extent[i];
      /* a tile that overhangs the output or the map's domain reads less than its box */
      if (inside) sweep_box(&c, &unread);
      else memset(c.mark, 0, box);
      if (inside && reads && !(unread && full)) {
        overhang |= unread;
        if (!diagonal && !(c.nd && next(pos, plo, phi, c.nd))) break;
        continue;
      }
      put_vec(tb, sizeof tb, tile, c.nd);
      put_vec(pb, sizeof pb, c.p, c.nr);
      if (c.nrt) {
        memcpy(rb, " rt", 3);
        put_vec(rb + 3, sizeof rb - 3, c.rt, c.nrt);
      }
      if (!reads) set(res, TV_MISMATCH, "tile %s%s reads operand element %s but has no box", tb, rb, pb);
      else set(res, TV_MISMATCH, "tile %s%s: its box %s operand element %s", tb, rb, inside ? "holds the unread" : "misses", pb);
      done = true;
      break;
    }
    if (done || !c.nrt || !next(c.rt, rlo, rhi, c.nrt)) break;
  }
  if (res->status == TV_OK && overhang) res->status = TV_OK_OVERHANG;
  free(mem), free(c.mark);
  free(tile), free(pos), free(plo), free(phi), free(rlo), free(rhi);
  for (uint32_t i = 0; i < nd; i++) free(samples[i]);
  free(samples), free(nsamples);
}
