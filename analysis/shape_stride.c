/* The hierarchical shape:stride form of a tiled layout (see tiled_layout.h).
 *
 * Method: every logical index x_j is written in a mixed radix, its
 * "digits" (fastest first). Initially x_j is one digit: the top digit, whose
 * value is x_j itself (count = the dim size). A digit's value is
 * (x_j div R) mod r for an exact digit, x_j div R for the top digit (no
 * modulus: its count is just the number of values it takes).
 *
 * Every coordinate of the current (partially tiled) shape is a weighted sum
 * of digits, weights non-overlapping (a digit's weight is at least the
 * previous digit's weight times its count). Merging a group ('*') scales the
 * digits of the more-major dims by the sizes of the more-minor ones. Tiling a
 * coordinate c by t needs c mod t and c div t as digit sums again; per digit
 * of weight w and count r:
 *   - t divides w:           the digit moves to c div t with weight w / t;
 *   - w * r <= t:            the digit stays in c mod t with weight w;
 *   - w < t, w divides t:    with q = t / w, the digit is refined into
 *                            v mod q (in c mod t, weight w) and v div q (in
 *                            c div t, weight 1); the refinement is a
 *                            mixed-radix split of x_j only if q divides r or
 *                            the digit is the top digit;
 *   - otherwise the tile cuts the coordinate where no digit boundary lies:
 *     the offset is not a sum of per-digit terms and the layout is not
 *     expressible.
 * At the end each digit's stride is its weight times the row-major stride of
 * its coordinate; the modes of dim j are its digits in order.
 *
 * A cut that is not aligned can still be undone by the final row-major
 * order (e.g. a merged [6,7] tiled by (2) is stored as [21,2], whose offset
 * is just 7 * x + y). So when the structural method fails, the simplified
 * offset map is read instead: if it is a sum of terms stride * digit, where
 * each digit is d_j, d_j floordiv R, d_j mod r or (d_j floordiv R) mod r,
 * and the digits of every dim form a mixed radix (divisors 1, r_0, r_0 r_1,
 * ..., the last one without modulus or covering the dim), that is the form.
 * Otherwise the layout is reported as not expressible with the structural
 * reason. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/checked.h"
#include "tiled_layout.h"

typedef struct {
  int dim;        /* logical dimension */
  int64_t count;  /* radix of an exact digit; number of values of a top digit */
  bool top;       /* the most significant digit of its dim */
  int coord;      /* coordinate of the current shape holding it */
  int64_t weight; /* its weight in that coordinate */
  int next;       /* next more significant digit of the same dim, or -1 */
} digit;

static bool overflow(tl_error *err) {
  err->status = TL_OVERFLOW;
  snprintf(err->message, sizeof err->message, "a stride of the shape:stride form overflows int64");
  return false;
}

__attribute__((format(printf, 2, 3))) static bool not_expressible(tl_shape_stride *f, const char *fmt, ...) {
  f->expressible = false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->why, sizeof f->why, fmt, ap);
  va_end(ap);
  return true;
}

/* ---- the offset-expression method ------------------------------------------------------ */

typedef struct {
  int dim;
  int64_t div;    /* R */
  int64_t mod;    /* r, or 0 for none */
  int64_t stride; /* coefficient */
} term;

/* Reads `c * atom` (c defaults to 1) into T; false if the atom is not a digit. */
static bool read_term(const ae *e, term *t) {
  t->stride = 1;
  if (e->kind == AE_MUL && ae_is_const(e->rhs)) {
    t->stride = e->rhs->value;
    e = e->lhs;
  }
  t->div = 1;
  t->mod = 0;
  if (e->kind == AE_MOD && ae_is_const(e->rhs) && e->rhs->value > 0) {
    t->mod = e->rhs->value;
    e = e->lhs;
    if (e->kind == AE_FLOORDIV && ae_is_const(e->rhs) && e->rhs->value > 0) {
      t->div = e->rhs->value;
      e = e->lhs;
    }
  } else if (e->kind == AE_FLOORDIV && ae_is_const(e->rhs) && e->rhs->value > 0) {
    t->div = e->rhs->value;
    e = e->lhs;
    if (e->kind == AE_MOD && ae_is_const(e->rhs) && e->rhs->value > 0) { /* (d mod r) floordiv R, R | r */
      if (e->rhs->value % t->div != 0) return false;
      t->mod = e->rhs->value / t->div;
      e = e->lhs;
    }
  }
  if (e->kind != AE_DIM) return false;
  t->dim = (int)e->value;
  return true;
}

static int cmp_term(const void *pa, const void *pb) {
  const term *a = pa, *b = pb;
  if (a->dim != b->dim) return a->dim < b->dim ? -1 : 1;
  return a->div < b->div ? -1 : a->div > b->div;
}

/* The form read from the simplified offset map; false if it is not one. */
static bool from_offset(hb_arena *a, const tl_layout *l, const imap *off, tl_shape_stride *f) {
  size_t cap = 1;
  const ae *e = off->results[0];
  while (e->kind == AE_ADD) {
    cap++;
    e = e->lhs;
  }
  term *ts = hb_arena_array(a, cap, sizeof *ts);
  size_t n = 0;
  for (e = off->results[0];; e = e->lhs) {
    const ae *t = e->kind == AE_ADD ? e->rhs : e;
    if (!ae_is_const_value(t, 0)) {
      if (!read_term(t, &ts[n]) || ts[n].dim >= l->rank) return false;
      n++;
    }
    if (e->kind != AE_ADD) break;
  }
  qsort(ts, n, sizeof *ts, cmp_term);
  int *nmodes = hb_arena_array(a, (size_t)l->rank + 1, sizeof *nmodes);
  tl_mode **modes = hb_arena_array(a, (size_t)l->rank + 1, sizeof *modes);
  size_t i = 0;
  for (int j = 0; j < l->rank; j++) {
    size_t first = i;
    while (i < n && ts[i].dim == j) i++;
    modes[j] = hb_arena_array(a, i - first + 1, sizeof *modes[j]);
    nmodes[j] = 0;
    int64_t next = 1, dim = l->dims[j];
    bool covered = dim <= 1; /* the digits so far determine x_j */
    for (size_t k = first; k < i; k++) {
      if (covered || ts[k].div != next) return false; /* a gap or an overlap in the mixed radix */
      int64_t cnt = ts[k].mod, span;
      if (!cnt || !hb_ck_mul(next, cnt, &span) || span >= dim) {
        cnt = (dim + next - 1) / next; /* the top digit: the values of x_j floordiv R */
        covered = true;
      } else {
        next = span;
      }
      if (cnt > 1) modes[j][nmodes[j]++] = (tl_mode){cnt, ts[k].stride};
    }
    if (!covered) return false; /* the offset ignores the high part of x_j */
  }
  f->expressible = true;
  f->nmodes = nmodes;
  f->modes = (const tl_mode *const *)modes;
  return true;
}

/* ---- the structural method ------------------------------------------------------------------ */

static bool structural(hb_arena *a, const tl_layout *l, tl_shape_stride *f, tl_error *err) {
  memset(f, 0, sizeof *f);
  f->rank = l->rank;
  size_t cap = (size_t)l->rank + 1;
  for (int v = 0; v < l->nlevels; v++) cap += (size_t)l->levels[v].ntiled;
  digit *dg = hb_arena_array(a, cap, sizeof *dg);
  int *head = hb_arena_array(a, (size_t)l->rank + 1, sizeof *head);
  int nd = 0;
  for (int k = 0; k < l->rank; k++) {
    int j = l->phys_order[k];
    dg[nd] = (digit){j, l->dims[j], true, k, 1, -1};
    head[j] = nd++;
  }
  for (int v = 0; v < l->nlevels; v++) {
    const tl_level *lv = &l->levels[v];
    /* per coordinate of `in`: its group and the product of the group's more-minor dims */
    int *group = hb_arena_array(a, (size_t)lv->nin + 1, sizeof *group);
    int64_t *scale = hb_arena_array(a, (size_t)lv->nin + 1, sizeof *scale);
    for (int i = 0; i < lv->nlead; i++) group[i] = -1;
    for (int g = 0; g < lv->ntiled; g++) {
      int64_t s = 1;
      for (int j = lv->group_last[g]; j >= lv->group_first[g]; j--) {
        group[j] = g;
        scale[j] = s;
        if (!hb_ck_mul(s, lv->in[j], &s)) return overflow(err);
      }
    }
    int nstart = nd;
    for (int i = 0; i < nstart; i++) {
      digit *d = &dg[i];
      int c = d->coord + lv->nimplicit;
      d->coord = c;
      int g = group[c];
      if (g < 0) continue; /* a leading dim: unchanged */
      int64_t w, t = lv->tile[g], wr;
      if (!hb_ck_mul(d->weight, scale[c], &w)) return overflow(err);
      int cnt = lv->nlead + g, in = lv->nlead + lv->ntiled + g;
      if (w % t == 0) {
        d->coord = cnt;
        d->weight = w / t;
      } else if (w < t && hb_ck_mul(w, d->count, &wr) && wr <= t) {
        d->coord = in;
        d->weight = w;
      } else if (w < t && t % w == 0) {
        int64_t q = t / w;
        if (d->count % q != 0 && !d->top)
          return not_expressible(f, "tile %d (size %" PRId64 ") splits a tile of dimension %d whose extent %" PRId64
                                 " it does not divide",
                                 lv->tile_index + 1, t, d->dim, d->count);
        int64_t hi = d->count / q + (d->count % q != 0); /* ceil; count >= 0, q > 0 */
        dg[nd] = (digit){d->dim, hi, d->top, cnt, 1, d->next};
        d->next = nd++;
        d->count = q;
        d->top = false;
        d->coord = in;
        d->weight = w;
      } else {
        return not_expressible(f, "tile %d (size %" PRId64 ") does not align with dimension %d inside a %s"
                               " dimension of size %" PRId64,
                               lv->tile_index + 1, t, d->dim,
                               lv->group_first[g] < lv->group_last[g] ? "merged" : "tiled", lv->group_size[g]);
      }
    }
  }
  /* strides; modes per logical dim, size-1 digits left out */
  int *nmodes = hb_arena_array(a, (size_t)l->rank + 1, sizeof *nmodes);
  tl_mode **modes = hb_arena_array(a, (size_t)l->rank + 1, sizeof *modes);
  for (int j = 0; j < l->rank; j++) {
    int n = 0;
    for (int i = head[j]; i >= 0; i = dg[i].next) n++;
    modes[j] = hb_arena_array(a, (size_t)n + 1, sizeof *modes[j]);
    nmodes[j] = 0;
    for (int i = head[j]; i >= 0; i = dg[i].next) {
      if (dg[i].count == 1) continue;
      int64_t s;
      if (!hb_ck_mul(dg[i].weight, l->strides[dg[i].coord], &s)) return overflow(err);
      modes[j][nmodes[j]++] = (tl_mode){dg[i].count, s};
    }
  }
  f->expressible = true;
  f->nmodes = nmodes;
  f->modes = (const tl_mode *const *)modes;
  return true;
}

bool tl_shape_stride_form(hb_arena *a, ae_ctx *ctx, const tl_layout *l, tl_shape_stride *f, tl_error *err) {
  if (!structural(a, l, f, err)) return false;
  if (f->expressible) return true;
  imap *off = tl_logical_to_offset(a, ctx, l, err);
  if (!off) return false;
  if (!off->known_empty) {
    tl_shape_stride g = *f;
    if (from_offset(a, l, off, &g)) *f = g;
  }
  return true;
}

static void put_modes(hb_strbuf *b, const tl_shape_stride *f, bool strides) {
  hb_sb_putc(b, '(');
  for (int j = 0; j < f->rank; j++) {
    if (j) hb_sb_putc(b, ',');
    int n = f->nmodes[j];
    if (n == 0) {
      hb_sb_putc(b, strides ? '0' : '1');
      continue;
    }
    if (n > 1) hb_sb_putc(b, '(');
    for (int i = 0; i < n; i++) {
      if (i) hb_sb_putc(b, ',');
      hb_sb_put_i64(b, strides ? f->modes[j][i].stride : f->modes[j][i].size);
    }
    if (n > 1) hb_sb_putc(b, ')');
  }
  hb_sb_putc(b, ')');
}

void tl_shape_stride_print(hb_strbuf *b, const tl_shape_stride *f) {
  if (!f->expressible) {
    hb_sb_puts(b, "not expressible: ");
    hb_sb_puts(b, f->why);
    return;
  }
  put_modes(b, f, false);
  hb_sb_putc(b, ':');
  put_modes(b, f, true);
}
