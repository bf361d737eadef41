/* Fuzz entry point: layout expressions (the path of hloidx --shape-stride
 * and --kernel-layout).
 *
 * Each line of the input is read as a layout expression (ss_read.h; an XLA
 * shape in it is wrapped into a one-instruction module and parsed, as the
 * CLI does) and as a coordinate (ss_read_coord). For every layout read:
 * size, cosize, injectivity, coalesce (whole and by mode), the offset and
 * inverse maps, crd2offset and offset -> coordinates for a few indices,
 * make_layout_tile, composition with itself, complement, the XLA layout
 * search (the first layout of the input of at most 4096 elements: a search
 * tries up to 100,000 candidates, seconds under ASan, and 64 of them would
 * pass any timeout) and the comparison with an XLA layout when the line is
 * one; everything printed into a discarded buffer.
 * Results are checked where they must agree: a read coordinate of the
 * layout's own printing gives the offset of its index. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "../parser/hlo_ir.h"
#include "affine_expr.h"
#include "fuzz_common.h"
#include "map_print.h"
#include "ss_algebra.h"
#include "ss_read.h"
#include "ss_xla.h"
#include "../parser/base/strbuf.h"

#define MAX_LINES 64
#define SEARCH_MAX_SIZE 4096

typedef struct {
  hb_arena *a;
  ae_ctx *ctx;
  hlo_parse_result res[MAX_LINES];
  char *text[MAX_LINES];
  int n;
  tl_layout last;
  bool have_last;
} xla_cl;

static const ss_layout *resolve(void *cl, const char *text, size_t start, size_t end, ss_read_error *err) {
  static const char pre[] = "HloModule m\n\nENTRY e {\n  ROOT p = ", post[] = " parameter(0)\n}\n";
  xla_cl *x = cl;
  x->have_last = false;
  if (x->n == MAX_LINES) {
    snprintf(err->message, sizeof err->message, "too many shapes");
    return NULL;
  }
  size_t n = end - start, np = sizeof pre - 1, len = np + n + sizeof post - 1;
  char *w = hb_calloc(len + FUZZ_PADDING, 1);
  memcpy(w, pre, np);
  memcpy(w + np, text + start, n);
  memcpy(w + np + n, post, sizeof post - 1);
  hlo_error herr;
  if (hlo_parse_file(w, len, &x->res[x->n], &herr)) {
    free(w);
    err->offset = start;
    snprintf(err->message, sizeof err->message, "bad shape");
    return NULL;
  }
  x->text[x->n] = w;
  const hlo_shape *s = x->res[x->n++].modules[0]->entry->root->shape;
  tl_error te;
  if (!tl_analyze(x->a, s, &x->last, &te)) {
    snprintf(err->message, sizeof err->message, "%s", te.message);
    return NULL;
  }
  x->have_last = true;
  ss_error se;
  const ss_layout *l = ss_from_xla(x->a, x->ctx, &x->last, &se);
  if (!l) snprintf(err->message, sizeof err->message, "%s", se.message);
  return l;
}

static void one_layout(hb_arena *a, ae_ctx *ctx, hb_strbuf *b, const ss_layout *l, const xla_cl *x, bool is_xla,
                       bool *searched) {
  static const map_print_opts line = {false, 0};
  ss_error err;
  ss_print(b, l);
  int64_t size = ss_size(l), cos = ss_cosize(l);
  if (size < 1 || cos < 1) abort();
  ss_injectivity inj;
  ss_check_injective(l, &inj);
  const ss_layout *c = ss_coalesce(a, l, &err);
  if (c) ss_print(b, c);
  if ((c = ss_coalesce_modes(a, l, &err))) ss_print(b, c);
  imap *m = ss_offset_map(a, ctx, l, NULL, &err);
  if (m) map_print(b, m, &line);
  const char *why;
  if ((m = ss_inverse_map(a, ctx, l, NULL, &why, &err))) map_print(b, m, &line);
  /* a few indices: their offsets, back to indices, and their coordinates read back */
  int64_t xs[3] = {0, size / 2, size - 1};
  for (int k = 0; k < 3; k++) {
    int64_t o = ss_index_offset(l, xs[k]), idx[4];
    uint64_t cnt;
    bool complete;
    ss_offset_indices(l, o, idx, 4, &cnt, &complete);
    if (complete && cnt == 0) abort(); /* o is reached by xs[k] */
    hb_strbuf t = HB_STRBUF_INIT;
    ss_print_coord(&t, ss_index_coord(a, l, xs[k]));
    ss_coord *rc = ss_read_coord(a, hb_sb_str(&t), &err);
    int64_t back;
    if (!rc || !ss_crd2offset(l, rc, &back, &err) || back != o) abort();
    hb_sb_free(&t);
  }
  int64_t tile[SS_MAX_LEAVES];
  for (uint32_t i = 0; i < ss_rank(l); i++) tile[i] = ss_mode_at(l, i)->size;
  if ((c = ss_make_layout_tile(a, l, tile, ss_rank(l), &err))) ss_print(b, c);
  if ((c = ss_composition(a, l, l, &err))) ss_print(b, c);
  if ((c = ss_complement(a, l, cos, &err))) ss_print(b, c);
  if (size <= SEARCH_MAX_SIZE && !*searched) {
    *searched = true;
    ss_xla_layout xl;
    ss_to_xla(a, l, &xl);
    if (xl.found) ss_xla_layout_print(b, &xl);
  }
  if (is_xla && x->have_last) {
    ss_comparison cmp;
    ss_compare_xla(a, ctx, l, &x->last, &cmp);
    if (cmp.decided && !cmp.equal) abort(); /* a layout's own shape:stride form */
  }
  hb_sb_reset(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = fuzz_padded_copy(data, size);
  ae_ctx *ctx = ae_ctx_new();
  hb_arena *a = hb_arena_new();
  hb_strbuf b = HB_STRBUF_INIT;
  xla_cl x = {a, ctx, {{0}}, {0}, 0, {0}, false};
  size_t pos = 0;
  bool searched = false;
  for (int lines = 0; pos < size && lines < MAX_LINES; lines++) {
    size_t e = pos;
    while (e < size && s[e] != '\n') e++;
    hb_arena_reset(a);
    ss_read_result res;
    ss_read_error err;
    if (ss_read(a, s, pos, e, resolve, &x, &res, &err)) {
      one_layout(a, ctx, &b, res.layout, &x, res.xla, &searched);
    } else if (err.offset < pos || err.offset > e || memchr(err.message, '\0', sizeof err.message) == NULL) {
      abort();
    }
    /* the line as a coordinate */
    char *line = hb_calloc(e - pos + 1, 1);
    memcpy(line, s + pos, e - pos);
    ss_error ce;
    ss_coord *c = ss_read_coord(a, line, &ce);
    if (c) ss_print_coord(&b, c);
    free(line);
    hb_sb_reset(&b);
    pos = e + 1;
  }
  for (int i = 0; i < x.n; i++) {
    hlo_parse_result_free(&x.res[i]);
    free(x.text[i]);
  }
  hb_sb_free(&b);
  hb_arena_free(a);
  ae_ctx_free(ctx);
  free(s);
  return 0;
}
