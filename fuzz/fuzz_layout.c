/* Fuzz entry point: tiled layouts (the path of hloidx --layout and
 * --physical=tiled).
 *
 * The input is an HLO module; when it does not parse as one, it is taken as
 * a shape and wrapped into `ENTRY e { ROOT p = <input> parameter(0) }`, so
 * that the fuzzer can mutate layouts directly. For every array value of
 * every instruction (tuple leaves included): the layout analysis, the
 * shape:stride form, the offset, tiled and inverse maps, the padding
 * overhead, and the tiled composition of the identity map (logical ->
 * logical through the tiled layouts on both sides), everything printed into
 * a discarded buffer. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "fuzz_common.h"
#include "hlo_ir.h"
#include "map_print.h"
#include "../parser/base/strbuf.h"
#include "tiled_layout.h"

#define MAX_LEAVES 256 /* array leaves analysed per input */

static void one_array(hb_arena *a, ae_ctx *ctx, hb_strbuf *b, const hlo_shape *s) {
  static const map_print_opts line = {false, 0};
  tl_layout l;
  tl_error err;
  hb_arena_reset(a);
  if (!tl_analyze(a, s, &l, &err)) {
    if (memchr(err.message, '\0', sizeof err.message) == NULL) abort();
    return;
  }
  /* sizes are consistent */
  if (l.logical_elems < 0 || l.tiled_elems < l.logical_elems || l.physical_elems < l.tiled_elems ||
      l.bytes < l.logical_bytes)
    abort();
  tl_overhead_print(b, &l);
  (void)tl_overhead_compare(&l, &l);
  hb_sb_puts(b, tl_memory_space_name(l.memory_space));
  tl_shape_stride f;
  if (tl_shape_stride_form(a, ctx, &l, &f, &err)) tl_shape_stride_print(b, &f);
  imap *m;
  if ((m = tl_logical_to_offset(a, ctx, &l, &err))) map_print(b, m, &line);
  if ((m = tl_logical_to_tiled(a, ctx, &l, &err))) map_print(b, m, &line);
  if ((m = tl_tiled_to_logical(a, ctx, &l, &err))) map_print(b, m, &line);
  if (l.rank > 0 && l.logical_elems > 0) {
    imap *id = imap_identity(a, ctx, (uint32_t)l.rank, l.dims);
    if ((m = tl_compose_tiled(a, &l, id, &l, &err))) map_print(b, m, &line);
  }
  hb_sb_reset(b);
}

static void leaves(hb_arena *a, ae_ctx *ctx, hb_strbuf *b, const hlo_shape *s, int *budget) {
  if (*budget <= 0) return;
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    for (int i = 0; i < s->n_elems; i++) leaves(a, ctx, b, s->elems[i], budget);
    return;
  }
  (*budget)--;
  one_array(a, ctx, b, s);
}

static void run_modules(const hlo_parse_result *r) {
  ae_ctx *ctx = ae_ctx_new();
  hb_arena *a = hb_arena_new();
  hb_strbuf b = HB_STRBUF_INIT;
  int budget = MAX_LEAVES;
  for (int i = 0; i < r->n_modules; i++) {
    const hlo_module *m = r->modules[i];
    for (int c = 0; c < m->n_computations; c++)
      for (int k = 0; k < m->computations[c]->n_instrs; k++)
        leaves(a, ctx, &b, m->computations[c]->instrs[k]->shape, &budget);
  }
  hb_sb_free(&b);
  hb_arena_free(a);
  ae_ctx_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char pre[] = "HloModule m\n\nENTRY e {\n  ROOT p = ", post[] = " parameter(0)\n}\n";
  char *text = fuzz_padded_copy(data, size);
  hlo_parse_result r;
  hlo_error err;
  if (hlo_parse_file(text, size, &r, &err) == 0) {
    run_modules(&r);
    hlo_parse_result_free(&r);
  } else if (memchr(data, '\n', size) == NULL) {
    /* one line: a shape */
    size_t n = sizeof pre - 1 + size + sizeof post - 1;
    char *w = hb_malloc(n + FUZZ_PADDING);
    memcpy(w, pre, sizeof pre - 1);
    if (size) memcpy(w + sizeof pre - 1, data, size);
    memcpy(w + sizeof pre - 1 + size, post, sizeof post - 1);
    memset(w + n, 0, FUZZ_PADDING);
    if (hlo_parse_file(w, n, &r, &err) == 0) {
      run_modules(&r);
      hlo_parse_result_free(&r);
    }
    free(w);
  }
  free(text);
  return 0;
}
