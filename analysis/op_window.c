/* The pad map (indexing-semantics.md §3.7) and the window map W of §3.14,
 * shared by pad, reduce-window and convolution. */
#include "ii_internal.h"

/* ---- the pad map ---------------------------------------------------------------------------------- */

imap *ii_pad_map(ii_ctx *c, uint32_t rank, const int64_t *out, const int64_t *lo, const int64_t *hi,
                 const int64_t *interior) {
  const ae **res = ii_exprs(c, rank);
  interval *div = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *div);
  for (uint32_t i = 0; i < rank; i++) {
    int64_t last = out[i] - 1, last_hi = out[i] - 1 - hi[i];
    div[i] = iv_make(lo[i] > 0 ? lo[i] : 0, last < last_hi ? last : last_hi);
    const ae *x = ae_add(c->ae, D(c, i), K(c, -lo[i]));
    res[i] = interior[i] == 0 ? x : ae_floordiv(c->ae, x, K(c, interior[i] + 1));
  }
  imap *m = imap_new(c->scratch, c->ae, rank, 0, 0, div, NULL, rank, res);
  for (uint32_t i = 0; i < rank; i++) {
    if (interior[i] == 0) continue;
    const ae *x = ae_add(c->ae, D(c, i), K(c, -lo[i]));
    imap_add_constraint(m, ae_mod(c->ae, x, K(c, interior[i] + 1)), iv_make(0, 0));
  }
  return m;
}

/* ---- the window map ------------------------------------------------------------------------------- */

ii_status ii_window_map(ii_ctx *c, uint32_t rank, const int64_t *in, const int64_t *out, const hlo_window_dim *w,
                        imap **res) {
  /* 1. window only: s_i * window_dilation + d_i * stride */
  const ae **wexpr = ii_exprs(c, rank);
  int64_t *wsize = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *wsize);
  for (uint32_t i = 0; i < rank; i++) {
    wsize[i] = w[i].size;
    wexpr[i] = ae_add(c->ae, ae_mul(c->ae, S(c, i), K(c, w[i].rhs_dilate)), ae_mul(c->ae, D(c, i), K(c, w[i].stride)));
  }
  imap *window = ii_map(c, rank, out, rank, wsize, rank, wexpr);
  /* 2. the pad map of the padded, base-dilated input */
  int64_t *padded = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *padded);
  int64_t *lo = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *lo);
  int64_t *hi = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *hi);
  int64_t *interior = hb_arena_array(c->scratch, rank ? rank : 1, sizeof *interior);
  for (uint32_t i = 0; i < rank; i++) {
    lo[i] = w[i].pad_lo;
    hi[i] = w[i].pad_hi;
    interior[i] = w[i].lhs_dilate - 1;
    /* sizes and attributes are at most 2^40 (checked on entry): the product needs a check */
    int64_t dil;
    if (__builtin_mul_overflow(in[i] - 1, interior[i], &dil)) return II_TOO_LARGE;
    padded[i] = in[i] + lo[i] + hi[i] + dil;
  }
  imap *pad = ii_pad_map(c, rank, padded, lo, hi, interior);
  /* 3. compose, 4. simplify and drop unused window symbols */
  imap *m = imap_compose(c->scratch, window, pad);
  if (ii_simplify_map(c, m, SIMPLIFY_REPLACE_POINTS) != II_OK) return II_TOO_LARGE;
  imap_remove_unused_symbols(m, NULL);
  *res = m;
  return ii_budget_status(c);
}
