#include "ss_layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "simplify.h"

/* Expression budget of one offset or inverse map's simplification. */
#define SS_NODE_BUDGET ((size_t)1 << 20)
/* Enumeration bound of ss_check_injective (elements; 16 bytes each). */
#define SS_ENUM_SIZE ((int64_t)1 << 22)
/* Work limit of ss_offset_indices (search steps). */
#define SS_SEARCH_STEPS 2000000

/* ---- building ------------------------------------------------------------------------------------- */

ss_layout *ss_leaf(hb_arena *a, int64_t size, int64_t stride) {
  ss_layout *l = hb_arena_zalloc(a, sizeof *l);
  l->size = size;
  l->stride = stride;
  return l;
}

uint32_t ss_depth(const ss_layout *l) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    uint32_t c = ss_depth(&l->child[i]) + 1;
    if (c > d) d = c;
  }
  return d;
}

uint32_t ss_leaf_count(const ss_layout *l) {
  if (!l->n) return 1;
  uint32_t n = 0;
  for (uint32_t i = 0; i < l->n; i++) n += ss_leaf_count(&l->child[i]);
  return n;
}

int64_t ss_size(const ss_layout *l) { return l->size; }

/* Largest offset: the sum of (size - 1) * stride over the leaves. */
static bool span(const ss_layout *l, int64_t *out) {
  if (!l->n) return hb_ck_mul(l->size - 1, l->stride, out) && *out <= SS_MAX_VALUE;
  int64_t s = 0, t;
  for (uint32_t i = 0; i < l->n; i++)
    if (!span(&l->child[i], &t) || !hb_ck_add(s, t, &s) || s > SS_MAX_VALUE) return false;
  *out = s;
  return true;
}

int64_t ss_cosize(const ss_layout *l) {
  int64_t s = 0;
  span(l, &s); /* checked when built */
  return s + 1;
}

ss_layout *ss_tuple(hb_arena *a, const ss_layout *children, uint32_t n, ss_error *err) {
  ss_layout *l = hb_arena_zalloc(a, sizeof *l);
  ss_layout *ch = hb_arena_array(a, n ? n : 1, sizeof *ch);
  memcpy(ch, children, n * sizeof *ch);
  l->n = n;
  l->child = ch;
  l->size = 1;
  for (uint32_t i = 0; i < n; i++)
    if (!hb_ck_mul(l->size, ch[i].size, &l->size) || l->size > SS_MAX_VALUE) {
      snprintf(err->message, sizeof err->message, "the layout has more than 2^62 elements");
      return NULL;
    }
  int64_t s;
  if (!span(l, &s)) {
    snprintf(err->message, sizeof err->message, "the layout's offsets exceed 2^62");
    return NULL;
  }
  if (ss_leaf_count(l) > SS_MAX_LEAVES) {
    snprintf(err->message, sizeof err->message, "the layout has more than %d modes", SS_MAX_LEAVES);
    return NULL;
  }
  if (ss_depth(l) > SS_MAX_DEPTH) {
    snprintf(err->message, sizeof err->message, "the layout nests more than %d levels", SS_MAX_DEPTH);
    return NULL;
  }
  return l;
}

ss_layout *ss_from_modes(hb_arena *a, const ss_mode *m, uint32_t n, ss_error *err) {
  if (n == 0) return ss_leaf(a, 1, 0);
  if (n == 1) {
    int64_t s;
    if (!hb_ck_mul(m[0].size - 1, m[0].stride, &s) || s > SS_MAX_VALUE) {
      snprintf(err->message, sizeof err->message, "the layout's offsets exceed 2^62");
      return NULL;
    }
    return ss_leaf(a, m[0].size, m[0].stride);
  }
  ss_layout *ch = hb_arena_zalloc(a, n * sizeof *ch);
  for (uint32_t i = 0; i < n; i++) ch[i] = (ss_layout){0, m[i].size, m[i].stride, NULL};
  return ss_tuple(a, ch, n, err);
}

static void flatten_rec(const ss_layout *l, ss_mode *out, uint32_t *k) {
  if (!l->n) {
    out[(*k)++] = (ss_mode){l->size, l->stride};
    return;
  }
  for (uint32_t i = 0; i < l->n; i++) flatten_rec(&l->child[i], out, k);
}

void ss_flatten(const ss_layout *l, ss_mode *out) {
  uint32_t k = 0;
  flatten_rec(l, out, &k);
}

bool ss_equal(const ss_layout *a, const ss_layout *b) {
  if (a->n != b->n) return false;
  if (!a->n) return a->size == b->size && a->stride == b->stride;
  for (uint32_t i = 0; i < a->n; i++)
    if (!ss_equal(&a->child[i], &b->child[i])) return false;
  return true;
}

/* ---- text ----------------------------------------------------------------------------------------------- */

static void print_part(hb_strbuf *b, const ss_layout *l, bool stride) {
  if (!l->n) {
    hb_sb_put_i64(b, stride ? l->stride : l->size);
    return;
  }
  hb_sb_putc(b, '(');
  for (uint32_t i = 0; i < l->n; i++) {
    if (i) hb_sb_putc(b, ',');
    print_part(b, &l->child[i], stride);
  }
  hb_sb_putc(b, ')');
}

void ss_print_shape(hb_strbuf *b, const ss_layout *l) { print_part(b, l, false); }
void ss_print_stride(hb_strbuf *b, const ss_layout *l) { print_part(b, l, true); }

void ss_print(hb_strbuf *b, const ss_layout *l) {
  print_part(b, l, false);
  hb_sb_putc(b, ':');
  print_part(b, l, true);
}

/* ---- coordinates ------------------------------------------------------------------------------------------ */

typedef struct {
  const char *s;
  size_t pos;
  int depth;
  ss_error *err;
  hb_arena *a;
} coord_reader;

static void cskip(coord_reader *r) {
  while (r->s[r->pos] == ' ' || r->s[r->pos] == '\t') r->pos++;
}

static bool cint(coord_reader *r, int64_t *v) {
  cskip(r);
  size_t p = r->pos;
  if (r->s[p] == '_') p++;
  if (r->s[p] < '0' || r->s[p] > '9') {
    snprintf(r->err->message, sizeof r->err->message, "expected an integer at column %zu of the coordinate",
             r->pos + 1);
    return false;
  }
  int64_t x = 0;
  for (; r->s[p] >= '0' && r->s[p] <= '9'; p++)
    if (!hb_ck_mul(x, 10, &x) || !hb_ck_add(x, r->s[p] - '0', &x) || x > SS_MAX_VALUE) {
      snprintf(r->err->message, sizeof r->err->message, "coordinate value too large");
      return false;
    }
  r->pos = p;
  *v = x;
  return true;
}

/* A coordinate list up to `close` ('\0' for the top level without parentheses). */
static ss_coord *clist(coord_reader *r, char close);

static ss_coord *citem(coord_reader *r) {
  cskip(r);
  if (r->s[r->pos] == '(') {
    if (++r->depth > SS_MAX_DEPTH) {
      snprintf(r->err->message, sizeof r->err->message, "coordinate nested too deeply");
      return NULL;
    }
    r->pos++;
    ss_coord *c = clist(r, ')');
    r->depth--;
    return c;
  }
  ss_coord *c = hb_arena_zalloc(r->a, sizeof *c);
  return cint(r, &c->value) ? c : NULL;
}

static ss_coord *clist(coord_reader *r, char close) {
  uint32_t n = 0, cap = 4;
  ss_coord *items = hb_arena_array(r->a, cap, sizeof *items);
  for (;;) {
    ss_coord *c = citem(r);
    if (!c) return NULL;
    if (n == SS_MAX_LEAVES) {
      snprintf(r->err->message, sizeof r->err->message, "coordinate too long");
      return NULL;
    }
    if (n == cap) {
      items = hb_arena_grow(r->a, items, cap, cap * 2, sizeof *items);
      cap *= 2;
    }
    items[n++] = *c;
    cskip(r);
    if (r->s[r->pos] == ',') {
      r->pos++;
      continue;
    }
    if (r->s[r->pos] != close) {
      snprintf(r->err->message, sizeof r->err->message, "expected ',' or '%s' at column %zu of the coordinate",
               close ? ")" : "the end", r->pos + 1);
      return NULL;
    }
    if (close) r->pos++;
    break;
  }
  ss_coord *t = hb_arena_zalloc(r->a, sizeof *t);
  t->n = n;
  t->child = items;
  return t;
}

ss_coord *ss_read_coord(hb_arena *a, const char *text, ss_error *err) {
  coord_reader r = {text, 0, 0, err, a};
  ss_coord *c = clist(&r, '\0');
  if (!c) return NULL;
  /* the list around the text: `(1,5)` reads as a list of one tuple, `21` as
   * a list of one integer, `1,5` as a list of two */
  if (c->n == 1) c = (ss_coord *)&c->child[0];
  return c;
}

void ss_print_coord(hb_strbuf *b, const ss_coord *c) {
  if (!c->n) {
    hb_sb_put_i64(b, c->value);
    return;
  }
  hb_sb_putc(b, '(');
  for (uint32_t i = 0; i < c->n; i++) {
    if (i) hb_sb_putc(b, ',');
    ss_print_coord(b, &c->child[i]);
  }
  hb_sb_putc(b, ')');
}

int64_t ss_index_offset(const ss_layout *l, int64_t x) {
  if (!l->n) return x * l->stride; /* x < size: within the checked span */
  int64_t off = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    const ss_layout *c = &l->child[i];
    int64_t xi = i + 1 < l->n ? x % c->size : x;
    off += ss_index_offset(c, xi);
    x /= c->size;
  }
  return off;
}

bool ss_crd2offset(const ss_layout *l, const ss_coord *c, int64_t *offset, ss_error *err) {
  if (!c->n) {
    if (c->value < 0 || c->value >= l->size) {
      snprintf(err->message, sizeof err->message, "coordinate %" PRId64 " is outside a mode of size %" PRId64,
               c->value, l->size);
      return false;
    }
    *offset = ss_index_offset(l, c->value);
    return true;
  }
  if (c->n != l->n) {
    snprintf(err->message, sizeof err->message, "a coordinate of %u entries for a mode of %u", c->n, l->n ? l->n : 1);
    return false;
  }
  int64_t sum = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    int64_t o;
    if (!ss_crd2offset(&l->child[i], &c->child[i], &o, err)) return false;
    sum += o;
  }
  *offset = sum;
  return true;
}

int64_t ss_top_offset(const ss_layout *l, const int64_t *x) {
  int64_t off = 0;
  for (uint32_t i = 0; i < ss_rank(l); i++) off += ss_index_offset(ss_mode_at(l, i), x[i]);
  return off;
}

void ss_index_top(const ss_layout *l, int64_t x, int64_t *top) {
  uint32_t r = ss_rank(l);
  for (uint32_t i = 0; i < r; i++) {
    int64_t s = ss_mode_at(l, i)->size;
    top[i] = i + 1 < r ? x % s : x;
    x /= s;
  }
}

static ss_coord *index_coord(hb_arena *a, const ss_layout *l, int64_t x) {
  ss_coord *c = hb_arena_zalloc(a, sizeof *c);
  if (!l->n) {
    c->value = x;
    return c;
  }
  ss_coord *ch = hb_arena_array(a, l->n, sizeof *ch);
  for (uint32_t i = 0; i < l->n; i++) {
    int64_t s = l->child[i].size;
    ch[i] = *index_coord(a, &l->child[i], i + 1 < l->n ? x % s : x);
    x /= s;
  }
  c->n = l->n;
  c->child = ch;
  return c;
}

ss_coord *ss_index_coord(hb_arena *a, const ss_layout *l, int64_t x) { return index_coord(a, l, x); }

/* ---- offset -> coordinates ------------------------------------------------------------------------------------ */

typedef struct {
  ss_mode *m;      /* flat modes with stride > 0, sorted by stride, largest first */
  int64_t *weight; /* their weights in the 1-D index */
  int64_t *rest;   /* rest[k]: the largest offset modes k.. reach */
  uint32_t n;
  int64_t *idx;
  uint32_t max, found;
  uint64_t count;
  uint64_t steps;
  bool complete;
} search;

static int cmp_idx(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return a < b ? -1 : a > b;
}

static void dfs(search *s, uint32_t k, int64_t r, int64_t index) {
  if (!s->complete) return;
  if (++s->steps > SS_SEARCH_STEPS) {
    s->complete = false;
    return;
  }
  if (k == s->n) {
    if (r != 0) return;
    if (s->found < s->max) s->idx[s->found++] = index;
    s->count++;
    return;
  }
  const ss_mode *md = &s->m[k];
  int64_t rest = k + 1 < s->n ? s->rest[k + 1] : 0;
  int64_t hi = r / md->stride;
  if (hi > md->size - 1) hi = md->size - 1;
  int64_t lo = r > rest ? (r - rest + md->stride - 1) / md->stride : 0;
  for (int64_t c = lo; c <= hi; c++) dfs(s, k + 1, r - c * md->stride, index + c * s->weight[k]);
}

typedef struct {
  ss_mode m;
  int64_t weight;
} weighted;

static int cmp_stride_desc(const void *pa, const void *pb) {
  const weighted *a = pa, *b = pb;
  if (a->m.stride != b->m.stride) return a->m.stride > b->m.stride ? -1 : 1;
  return a->weight > b->weight ? -1 : a->weight < b->weight;
}

void ss_offset_indices(const ss_layout *l, int64_t offset, int64_t *idx, uint32_t max, uint64_t *count,
                       bool *complete) {
  uint32_t nl = ss_leaf_count(l);
  ss_mode *flat = malloc(nl * sizeof *flat);
  weighted *w = malloc(nl * sizeof *w);
  ss_flatten(l, flat);
  /* stride-0 modes take any value: their indices multiply the solutions */
  uint32_t n = 0, nz = 0;
  int64_t wt = 1;
  int64_t *zw = malloc(nl * sizeof *zw), *zs = malloc(nl * sizeof *zs);
  for (uint32_t i = 0; i < nl; i++) {
    if (flat[i].size > 1) {
      if (flat[i].stride > 0) w[n++] = (weighted){flat[i], wt};
      else zw[nz] = wt, zs[nz++] = flat[i].size;
    }
    wt *= flat[i].size;
  }
  qsort(w, n, sizeof *w, cmp_stride_desc);
  search s = {0};
  s.m = malloc((n + 1) * sizeof *s.m);
  s.weight = malloc((n + 1) * sizeof *s.weight);
  s.rest = malloc((n + 1) * sizeof *s.rest);
  s.n = n;
  for (uint32_t k = 0; k < n; k++) s.m[k] = w[k].m, s.weight[k] = w[k].weight;
  for (uint32_t k = n; k-- > 0;) s.rest[k] = (k + 1 < n ? s.rest[k + 1] : 0) + (s.m[k].size - 1) * s.m[k].stride;
  /* base solutions (the stride-0 modes at 0), then every combination of those modes */
  uint32_t base_max = max ? max : 1;
  s.idx = malloc(base_max * sizeof *s.idx);
  s.max = base_max;
  s.complete = true;
  if (offset >= 0) dfs(&s, 0, offset, 0);
  uint64_t zcount = 1;
  for (uint32_t z = 0; z < nz; z++) zcount = zcount > UINT64_MAX / (uint64_t)zs[z] ? UINT64_MAX : zcount * (uint64_t)zs[z];
  *count = s.count > 0 && zcount > UINT64_MAX / s.count ? UINT64_MAX : s.count * zcount;
  *complete = s.complete;
  /* list: every base index with the stride-0 modes' values, smallest first */
  uint32_t got = 0;
  int64_t *zc = calloc(nz + 1, sizeof *zc);
  for (uint32_t b = 0; b < s.found && got < max; b++) {
    memset(zc, 0, (nz + 1) * sizeof *zc);
    for (;;) {
      int64_t x = s.idx[b];
      for (uint32_t z = 0; z < nz; z++) x += zc[z] * zw[z];
      if (got < max) idx[got++] = x;
      uint32_t z = 0;
      while (z < nz && zc[z] == zs[z] - 1) zc[z++] = 0;
      if (z == nz || got >= max) break;
      zc[z]++;
    }
  }
  qsort(idx, got, sizeof *idx, cmp_idx);
  free(zc);
  free(s.idx);
  free(s.m);
  free(s.weight);
  free(s.rest);
  free(zw);
  free(zs);
  free(w);
  free(flat);
}

/* ---- injectivity -------------------------------------------------------------------------------------------------- */

/* (offset, index) pairs in ss_mode's two fields, by offset then index. */
static int cmp_pair(const void *pa, const void *pb) {
  const ss_mode *a = pa, *b = pb;
  if (a->size != b->size) return a->size < b->size ? -1 : 1;
  return a->stride < b->stride ? -1 : a->stride > b->stride;
}

static int cmp_mode_stride(const void *pa, const void *pb) {
  const ss_mode *a = pa, *b = pb;
  if (a->stride != b->stride) return a->stride < b->stride ? -1 : 1;
  return a->size < b->size ? -1 : a->size > b->size;
}

void ss_check_injective(const ss_layout *l, ss_injectivity *out) {
  memset(out, 0, sizeof *out);
  out->gap = -1;
  int64_t size = ss_size(l), cosize = ss_cosize(l);
  uint32_t nl = ss_leaf_count(l), n = 0;
  ss_mode *m = malloc(nl * sizeof *m);
  ss_flatten(l, m);
  for (uint32_t i = 0; i < nl; i++)
    if (m[i].size > 1) m[n++] = m[i];
  qsort(m, n, sizeof *m, cmp_mode_stride);
  /* nested: each stride at least the extent of the modes before it; the
   * offsets below `reach` are then all reached, and the first gap is the
   * first reach a stride jumps over */
  bool nested = true;
  int64_t reach = 1, gap = -1;
  for (uint32_t i = 0; i < n && nested; i++) {
    if (m[i].stride < reach) nested = false;
    if (m[i].stride > reach && gap < 0) gap = reach;
    reach = m[i].stride * m[i].size; /* within the span: no overflow */
  }
  free(m);
  if (nested) {
    out->injective = SS_YES;
    out->unused = cosize - size;
    out->compact = cosize == size;
    out->gap = out->compact ? -1 : gap;
    return;
  }
  if (size > SS_ENUM_SIZE) {
    out->injective = SS_UNKNOWN;
    return;
  }
  /* the offsets of every index, sorted: equal neighbours share an offset */
  ss_mode *pairs = malloc((size_t)size * sizeof *pairs); /* (offset, index) */
  for (int64_t x = 0; x < size; x++) pairs[x] = (ss_mode){ss_index_offset(l, x), x};
  qsort(pairs, (size_t)size, sizeof *pairs, cmp_pair);
  out->injective = SS_YES;
  for (int64_t i = 1; i < size; i++)
    if (pairs[i].size == pairs[i - 1].size) {
      out->injective = SS_NO;
      out->witness_a = pairs[i - 1].stride;
      out->witness_b = pairs[i].stride;
      break;
    }
  if (out->injective == SS_YES) {
    out->unused = cosize - size;
    out->compact = cosize == size;
    for (int64_t i = 0; i < size && out->gap < 0; i++)
      if (pairs[i].size != i) out->gap = i; /* sorted distinct offsets from 0: the first that skips */
  }
  free(pairs);
}

/* ---- maps ---------------------------------------------------------------------------------------------------------- */

/* The offset of coordinate e (over [0, size of node)) of node l, as an expression. */
static const ae *offset_expr(ae_ctx *c, const ss_layout *l, const ae *e) {
  if (!l->n) return ae_mul_const(c, e, l->stride);
  const ae *sum = ae_const(c, 0);
  int64_t below = 1;
  for (uint32_t i = 0; i < l->n; i++) {
    const ss_layout *ch = &l->child[i];
    const ae *digit = ae_floordiv_const(c, e, below);
    if (i + 1 < l->n) digit = ae_mod_const(c, digit, ch->size);
    sum = ae_add(c, sum, offset_expr(c, ch, digit));
    below *= ch->size;
  }
  return sum;
}

static bool budgeted(imap *m, ss_error *err) {
  if (imap_simplify_budgeted(m, SIMPLIFY_REPLACE_POINTS, SS_NODE_BUDGET) == SIMPLIFY_OK) return true;
  snprintf(err->message, sizeof err->message,
           "analysis too large for this layout: simplifying its map exceeds the budget of %zu expression nodes",
           SS_NODE_BUDGET);
  return false;
}

imap *ss_offset_map(hb_arena *a, ae_ctx *ctx, const ss_layout *l, const int64_t *dims, ss_error *err) {
  uint32_t r = ss_rank(l);
  int64_t *sz = hb_arena_array(a, r, sizeof *sz);
  const ae *sum = ae_const(ctx, 0);
  for (uint32_t i = 0; i < r; i++) {
    sz[i] = dims ? dims[i] : ss_mode_at(l, i)->size;
    sum = ae_add(ctx, sum, offset_expr(ctx, ss_mode_at(l, i), ae_dim(ctx, i)));
  }
  interval *iv = hb_arena_array(a, r, sizeof *iv);
  for (uint32_t i = 0; i < r; i++) iv[i] = iv_make(0, sz[i] - 1);
  imap *m = imap_new(a, ctx, r, 0, 0, iv, NULL, 1, &sum);
  return budgeted(m, err) ? m : NULL;
}

imap *ss_inverse_map(hb_arena *a, ae_ctx *ctx, const ss_layout *l, const int64_t *dims, const char **why,
                     ss_error *err) {
  *why = NULL;
  uint32_t nl = ss_leaf_count(l), r = ss_rank(l);
  ss_mode *flat = hb_arena_array(a, nl, sizeof *flat);
  ss_flatten(l, flat);
  /* per flat mode: its top-level mode and its weight within that mode */
  uint32_t *top = hb_arena_array(a, nl, sizeof *top);
  int64_t *inner = hb_arena_array(a, nl, sizeof *inner);
  for (uint32_t i = 0, k = 0; i < r; i++) {
    uint32_t cnt = ss_leaf_count(ss_mode_at(l, i));
    int64_t w = 1;
    for (uint32_t j = 0; j < cnt; j++, k++) {
      top[k] = i;
      inner[k] = w;
      w *= flat[k].size;
    }
  }
  /* the modes of size > 1 by stride */
  uint32_t *ord = hb_arena_array(a, nl, sizeof *ord), n = 0;
  for (uint32_t k = 0; k < nl; k++)
    if (flat[k].size > 1) {
      if (flat[k].stride == 0) {
        *why = "a mode of size > 1 has stride 0 (several coordinates share each offset)";
        return NULL;
      }
      uint32_t j = n++;
      while (j > 0 && flat[ord[j - 1]].stride > flat[k].stride) ord[j] = ord[j - 1], j--;
      ord[j] = k;
    }
  for (uint32_t j = 1; j < n; j++) {
    const ss_mode *p = &flat[ord[j - 1]], *q = &flat[ord[j]];
    if (q->stride % p->stride != 0 || q->stride < p->stride * p->size) {
      *why = "the modes interleave: sorted by stride, a stride is not a multiple of the one before, or "
             "falls inside its extent";
      return NULL;
    }
  }
  int64_t cos = ss_cosize(l);
  interval dom = iv_make(0, cos - 1);
  const ae *o = ae_dim(ctx, 0);
  const ae **res = hb_arena_array(a, r, sizeof *res);
  for (uint32_t i = 0; i < r; i++) res[i] = ae_const(ctx, 0);
  imap *m = imap_new(a, ctx, 1, 0, 0, &dom, NULL, r, res);
  if (n > 0 && flat[ord[0]].stride > 1) imap_add_constraint(m, ae_mod_const(ctx, o, flat[ord[0]].stride), iv_point(0));
  for (uint32_t j = 0; j < n; j++) {
    const ss_mode *p = &flat[ord[j]];
    const ae *digit = ae_floordiv_const(ctx, o, p->stride);
    if (j + 1 < n) {
      int64_t ext = flat[ord[j + 1]].stride / p->stride;
      digit = ae_mod_const(ctx, digit, ext);
      if (ext > p->size) imap_add_constraint(m, digit, iv_make(0, p->size - 1));
    }
    uint32_t t = top[ord[j]];
    res[t] = ae_add(ctx, res[t], ae_mul_const(ctx, digit, inner[ord[j]]));
  }
  for (uint32_t i = 0; i < r; i++) {
    imap_set_result(m, i, res[i]);
    if (dims && dims[i] < ss_mode_at(l, i)->size) imap_add_constraint(m, res[i], iv_make(0, dims[i] - 1));
  }
  return budgeted(m, err) ? m : NULL;
}
