#include "tilings.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/oom.h"

uint32_t tg_candidates(int64_t n, int64_t out[TG_MAX_CANDIDATES]) {
  uint32_t k = 0;
  for (int64_t p = 1; p < n && k < TG_MAX_CANDIDATES - 1; p *= 2) {
    out[k++] = p;
    if (p > INT64_MAX / 2) break;
  }
  out[k++] = n < 1 ? 1 : n;
  return k;
}

bool tg_valid(const ft_tiling *t, const int64_t *ts, bool partial) {
  for (uint32_t i = 0; i < t->nentries; i++) {
    if (t->entries[i].status != ST_OK && partial) continue;
    if (t->entries[i].status != ST_OK || !st_holds(&t->entries[i].tile, ts)) return false;
  }
  return true;
}

bool tg_tileable(const ft_tiling *t, char *why, size_t cap) {
  for (uint32_t i = 0; i < t->nentries; i++) {
    const ft_entry *e = &t->entries[i];
    if (e->status == ST_OK) continue;
    if (why) snprintf(why, cap, "operand %u has no symbolic tile (%.360s)", e->operand, e->why);
    return false;
  }
  return true;
}

static uint32_t find(uint32_t *p, uint32_t i) {
  while (p[i] != i) i = p[i] = p[p[i]];
  return i;
}

typedef struct {
  const tc_factor *f;
  uint32_t group; /* the root of its parameters; UINT32_MAX when it has none */
} factor_ref;

void tg_count_valid(const ft_tiling *t, tg_count *out) {
  memset(out, 0, sizeof *out);
  uint32_t n = t->rank, nf = 0;
  int64_t (*cand)[TG_MAX_CANDIDATES] = hb_calloc(n + 1, sizeof *cand);
  uint32_t *ncand = hb_calloc(n + 1, sizeof *ncand), *parent = hb_calloc(n + 1, sizeof *parent);
  uint32_t *idx = hb_calloc(n + 1, sizeof *idx), *members = hb_calloc(n + 1, sizeof *members);
  bool *used = hb_calloc(n + 1, sizeof *used), *fv = hb_calloc(n + 1, sizeof *fv);
  int64_t *ts = hb_calloc(n + 1, sizeof *ts);
  out->total = 1;
  for (uint32_t i = 0; i < n; i++) {
    ncand[i] = tg_candidates(t->extent[i], cand[i]);
    out->total *= ncand[i];
    parent[i] = i;
    ts[i] = cand[i][0];
  }
  for (uint32_t i = 0; i < t->nentries; i++) nf += t->entries[i].tile.cons.n;
  factor_ref *refs = hb_calloc(nf + 1, sizeof *refs);
  out->tileable = tg_tileable(t, out->why, sizeof out->why);
  out->exact = true;
  if (!out->tileable) goto done;
  /* groups of parameters joined by the factors that mention them */
  nf = 0;
  for (uint32_t i = 0; i < t->nentries; i++) {
    const tc_factors *fs = &t->entries[i].tile.cons;
    for (uint32_t f = 0; f < fs->n; f++) {
      memset(fv, 0, (n + 1) * sizeof *fv);
      tc_factor_vars(&fs->f[f], fv, n);
      int64_t first = -1;
      for (uint32_t v = 0; v < n; v++) {
        if (!fv[v]) continue;
        used[v] = true;
        if (first < 0) first = v;
        else parent[find(parent, v)] = find(parent, (uint32_t)first);
      }
      refs[nf++] = (factor_ref){&fs->f[f], first < 0 ? UINT32_MAX : (uint32_t)first};
    }
  }
  for (uint32_t i = 0; i < nf; i++) {
    if (refs[i].group == UINT32_MAX) { /* no parameter: true or false for every tiling */
      if (!tc_factor_holds(refs[i].f, ts, n)) goto done;
    } else {
      refs[i].group = find(parent, refs[i].group);
    }
  }
  out->valid = 1;
  for (uint32_t root = 0; root < n; root++) {
    if (find(parent, root) != root) continue;
    if (!used[root]) { /* unconstrained: every candidate */
      out->valid *= ncand[root];
      continue;
    }
    uint32_t nm = 0;
    uint64_t points = 1;
    for (uint32_t v = 0; v < n; v++)
      if (find(parent, v) == root) {
        members[nm++] = v;
        points = points > TG_GROUP_POINTS ? points : points * ncand[v];
      }
    if (points > TG_GROUP_POINTS) { /* counted as one valid assignment: a lower bound */
      out->exact = false;
      snprintf(out->why, sizeof out->why, "a group of %u tile sizes has more than %" PRIu64 " candidates", nm,
               TG_GROUP_POINTS);
      continue;
    }
    tf_count good = 0;
    memset(idx, 0, (n + 1) * sizeof *idx);
    for (;;) {
      for (uint32_t k = 0; k < nm; k++) ts[members[k]] = cand[members[k]][idx[k]];
      bool ok = true;
      for (uint32_t i = 0; i < nf && ok; i++)
        if (refs[i].group == root) ok = tc_factor_holds(refs[i].f, ts, n);
      good += ok;
      uint32_t k = nm;
      while (k-- > 0) {
        if (++idx[k] < ncand[members[k]]) break;
        idx[k] = 0;
      }
      if (k == UINT32_MAX) break;
    }
    out->valid *= good;
  }
done:
  free(cand), free(ncand), free(parent), free(used), free(fv), free(ts), free(idx), free(members), free(refs);
}

void tg_begin(hb_arena *a, const ft_tiling *t, bool partial, tg_iter *it) {
  memset(it, 0, sizeof *it);
  it->t = t;
  it->rank = t->rank;
  it->cand = hb_arena_array(a, t->rank + 1, sizeof *it->cand);
  it->ncand = hb_arena_zalloc(a, (t->rank + 1) * sizeof *it->ncand);
  it->idx = hb_arena_zalloc(a, (t->rank + 1) * sizeof *it->idx);
  for (uint32_t i = 0; i < t->rank; i++) it->ncand[i] = tg_candidates(t->extent[i], it->cand[i]);
  it->partial = partial;
  it->ended = !partial && !tg_tileable(t, NULL, 0);
}

bool tg_next(tg_iter *it, int64_t *ts) {
  while (!it->ended) {
    if (it->started) { /* advance */
      uint32_t k = it->rank;
      while (k-- > 0) {
        if (++it->idx[k] < it->ncand[k]) break;
        it->idx[k] = 0;
      }
      if (k == UINT32_MAX) {
        it->ended = true;
        break;
      }
    }
    it->started = true;
    if (it->steps++ >= TG_STEPS) {
      it->ended = it->exhausted = true;
      break;
    }
    for (uint32_t i = 0; i < it->rank; i++) ts[i] = it->cand[i][it->idx[i]];
    if (tg_valid(it->t, ts, it->partial)) return true;
  }
  return false;
}

bool tg_table_begin(tg_table *tb, const int64_t *extent, uint32_t rank) {
  memset(tb, 0, sizeof *tb);
  uint64_t n = 1;
  int64_t cand[TG_MAX_CANDIDATES];
  for (uint32_t i = 0; i < rank; i++) {
    n *= tg_candidates(extent[i], cand);
    if (n > TG_TABLE_MAX) return false;
  }
  tb->rank = rank;
  tb->n = tb->valid = n;
  tb->ts = hb_malloc((n * rank + 1) * sizeof *tb->ts);
  tb->ok = hb_malloc(n + 1);
  memset(tb->ok, 1, n);
  /* the product in XLA's order: the last dimension's candidate changes fastest */
  for (uint64_t j = 0; j < n; j++) {
    uint64_t q = j;
    for (uint32_t i = rank; i-- > 0;) {
      uint32_t nc = tg_candidates(extent[i], cand);
      tb->ts[j * rank + i] = cand[q % nc];
      q /= nc;
    }
  }
  return true;
}

bool tg_table_sift(tg_table *tb, const ft_tiling *part) {
  for (uint32_t i = 0; i < part->nentries; i++) {
    const st_tile *tile = &part->entries[i].tile;
    if (!tile->cons.n) continue; /* (no constraint: every tiling; a concatenate's tiles have none) */
    if ((tb->steps += tb->n) > TG_TABLE_STEPS) return false;
    for (uint64_t j = 0; j < tb->n; j++)
      if (tb->ok[j] && !st_holds(tile, &tb->ts[j * tb->rank])) tb->ok[j] = 0, tb->valid--;
  }
  return true;
}

void tg_table_end(tg_table *tb) {
  free(tb->ts);
  free(tb->ok);
  memset(tb, 0, sizeof *tb);
}
