/* Fuzz entry point: parser + instruction indexing + layouts (the path of
 * hloidx --all, driven through the library APIs so that the analysis is
 * fuzzed independently of the CLI).
 *
 * For every instruction of every computation of every module: output-to-
 * input indexing for each output and input-to-output indexing for each
 * operand, logical and physical (minor_to_major), printed in both layouts;
 * for the out2in maps also the tiled composition (--physical=tiled) between
 * the output's and the operand's tiled layouts. Ids just outside the valid
 * range are queried too (they must be rejected, not crash). The text limit
 * stays at its default, as in the CLI. A module only --no-verify and
 * --allow-unknown accept is analyzed too. Then the tile modes' path on
 * output 0: the symbolic tiles, the valid tilings counted, the first two
 * valid tilings instantiated with their byte sums and distinct elements,
 * and the output tile sizes of the instruction's backend_config. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "fuzz_common.h"
#include "hlo_ir.h"
#include "instr_indexing.h"
#include "map_print.h"
#include "../parser/base/strbuf.h"
#include "tiled_layout.h"
#include "backend_config.h"
#include "fusion_tiling.h"
#include "tilings.h"

/* Ids queried per instruction and direction (the rest behave alike and
 * would only slow the fuzzer down on wide tuples). */
#define MAX_IDS 16

static const hlo_shape *array_of(const hlo_shape *s) {
  return s->type == HLO_TUPLE || s->type == HLO_BUFFER ? NULL : s;
}

static void print_all(ii_ctx *c, hb_strbuf *b, const ii_indexing *x) {
  static const map_print_opts multi = {true, 2}, single = {false, 0};
  ii_print_indexing(c, b, x, &multi);
  ii_print_indexing(c, b, x, &single);
  (void)ii_indexing_text_nodes(x);
}

/* out2in sets of output `out_id` composed into tiled coordinates. */
static void tiled(ii_ctx *c, hb_strbuf *b, const hlo_instr *in, int64_t out_id, const ii_indexing *x) {
  const hlo_shape *from = array_of(in->shape->type == HLO_TUPLE && out_id < in->shape->n_elems
                                       ? in->shape->elems[out_id]
                                       : in->shape);
  if (!from) return;
  hb_arena *a = ii_ctx_arena(c);
  tl_layout lf;
  tl_error err;
  if (!tl_analyze(a, from, &lf, &err)) return;
  for (uint32_t k = 0; k < x->n && k < (uint32_t)in->n_operands; k++) {
    const hlo_shape *to = array_of(in->operands[k]->shape);
    if (!to) continue;
    tl_layout lt;
    if (!tl_analyze(a, to, &lt, &err)) continue;
    const ii_set *s = &x->sets[k];
    for (uint32_t j = 0; j < s->n; j++) {
      imap *m = tl_compose_tiled(a, &lf, s->items[j]->map, &lt, &err);
      if (m) map_print(b, m, &(map_print_opts){false, 0});
    }
  }
}

static void tiles(ii_ctx *c, const hlo_instr *in) {
  ii_ctx_reset(c);
  ft_tiling t;
  ii_error err;
  if (ft_symbolic(c, in, 0, &t, &err) != II_OK) return;
  tg_count cnt;
  tg_count_valid(&t, &cnt);
  tg_iter it;
  tg_begin(ii_ctx_arena(c), &t, false, &it);
  int64_t *ts = hb_arena_array(ii_ctx_arena(c), t.rank + 1, sizeof *ts);
  for (int n = 0; n < 2 && tg_next(&it, ts); n++) {
    ft_instantiate(c, &t, ts);
    ft_distinct(c, &t);
  }
  int64_t *sizes;
  uint32_t ns;
  char why[200];
  (void)bc_output_tile(ii_ctx_arena(c), in, 0, &sizes, &ns, why, sizeof why);
}

static void analyze_instr(ii_ctx *c, hb_strbuf *b, const hlo_instr *in) {
  tiles(c, in);
  ii_indexing x;
  ii_error err;
  int64_t nout = ii_num_outputs(in);
  for (int phys = 0; phys < 2; phys++) {
    for (int64_t k = -1; k <= nout && k <= MAX_IDS; k++) {
      ii_ctx_reset(c);
      ii_status st = (phys ? ii_o2i_physical : ii_o2i)(c, in, k, &x, &err);
      if (st == II_OK) {
        print_all(c, b, &x);
        if (!phys) tiled(c, b, in, k, &x);
      } else if (memchr(err.message, '\0', sizeof err.message) == NULL) {
        abort();
      }
      hb_sb_reset(b);
    }
    for (int64_t k = -1; k <= in->n_operands && k <= MAX_IDS; k++) {
      ii_ctx_reset(c);
      ii_status st = (phys ? ii_i2o_physical : ii_i2o)(c, in, k, &x, &err);
      if (st == II_OK) print_all(c, b, &x);
      else if (memchr(err.message, '\0', sizeof err.message) == NULL) abort();
      hb_sb_reset(b);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_padded_copy(data, size);
  hlo_parse_result r;
  hlo_error perr;
  /* A text the verifier rejects is analyzed as --no-verify --allow-unknown
   * read it: shapes that disagree with their ops must not crash the
   * analysis either. */
  int rc = hlo_parse_file(text, size, &r, &perr);
  if (rc) {
    hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = true, .no_verify = true});
    rc = hlo_parse_file(text, size, &r, &perr);
    hlo_parse_set_options(&(hlo_parse_options){0});
  }
  if (rc == 0) {
    ii_ctx *c = ii_ctx_new();
    hb_strbuf b = HB_STRBUF_INIT;
    for (int i = 0; i < r.n_modules; i++) {
      const hlo_module *m = r.modules[i];
      for (int ci = 0; ci < m->n_computations; ci++) {
        const hlo_computation *comp = m->computations[ci];
        for (int k = 0; k < comp->n_instrs; k++) analyze_instr(c, &b, comp->instrs[k]);
      }
      ii_ctx_end_module(c);
    }
    hb_sb_free(&b);
    ii_ctx_free(c);
    hlo_parse_result_free(&r);
  }
  free(text);
  return 0;
}
