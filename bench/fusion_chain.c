/* Benchmark: out2in indexing of one fusion holding a long chain of
 * reshapes, bitcasts and transposes over a high-rank tensor.
 *
 *     bench_fusion_chain [RANK] [LENGTH] [REPEATS]     (default 12 200 5)
 *
 * The fused computation starts from a parameter of RANK dims (sizes 2, 3,
 * 2, 3, ...) and applies LENGTH ops cycling through
 *   1. transpose: rotate the dims left by one;
 *   2. reshape: merge the first two dims;
 *   3. bitcast: split the first dim back (a reshape-like bitcast);
 *   4. bitcast: swap the first two dims, with a layout that keeps the
 *      physical order (a transpose-like bitcast; later bitcasts then see
 *      non-default layouts and may need transpose-reshape-transpose);
 *   5. transpose: swap the first two dims back (a logical transpose);
 *   6. reshape: swap the sizes of the first two dims ([2,3,..] -> [3,2,..]),
 *      a generic reshape whose map needs floordiv/mod that later steps
 *      must simplify away again.
 * It prints the best time of REPEATS runs of ii_o2i on the fusion (each
 * from a fresh context) and of the same query on every instruction of the
 * chain, plus the resulting map (unless its text would exceed hloidx's
 * limit: expressions are DAGs, their text is a tree). Parsing is timed
 * separately. Then the same for tiles (what --tiles and --tilings do per
 * output): the symbolic tile of every operand map, the valid tilings
 * counted, the first valid tiling instantiated (offsets, sizes, strides,
 * bytes over all tiles), on the fusion and on every instruction of the
 * chain (XLA's SymbolicTileAnalysis tiles each instruction of a fusion;
 * at rank > 8 it runs out of memory, openxla/xla#41173). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fusion_tiling.h"
#include "hlo_ir.h"
#include "instr_indexing.h"
#include "tilings.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
  int rank;
  long dims[64];
  int m2m[64]; /* minor_to_major */
} shp;

static void put_shape(hb_strbuf *b, const shp *s) {
  hb_sb_puts(b, "f32[");
  for (int i = 0; i < s->rank; i++) hb_sb_printf(b, "%s%ld", i ? "," : "", s->dims[i]);
  hb_sb_puts(b, "]{");
  for (int i = 0; i < s->rank; i++) hb_sb_printf(b, "%s%d", i ? "," : "", s->m2m[i]);
  hb_sb_putc(b, '}');
}

static void default_layout(shp *s) {
  for (int i = 0; i < s->rank; i++) s->m2m[i] = s->rank - 1 - i;
}

/* The HLO text of the benchmark module. */
static void build(hb_strbuf *b, int rank, int length) {
  shp s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = i % 2 ? 3 : 2;
  default_layout(&s);
  shp first = s;
  long split_a = 0, split_b = 0;
  hb_sb_puts(b, "HloModule chain\n\nfused {\n  v0 = ");
  put_shape(b, &s);
  hb_sb_puts(b, " parameter(0)\n");
  int step = 0;
  for (int i = 1; i <= length; i++, step = (step + 1) % 6) {
    shp n = s;
    const char *op;
    char attrs[512] = "";
    if (step != 0 && s.rank < 2) step = 0; /* nothing to merge: rotate instead */
    switch (step) {
    case 0: { /* rotate left */
      for (int k = 0; k < s.rank; k++) n.dims[k] = s.dims[(k + 1) % s.rank];
      default_layout(&n);
      op = "transpose";
      size_t w = (size_t)snprintf(attrs, sizeof attrs, ", dimensions={");
      for (int k = 0; k < s.rank; k++) w += (size_t)snprintf(attrs + w, sizeof attrs - w, "%s%d", k ? "," : "", (k + 1) % s.rank);
      snprintf(attrs + w, sizeof attrs - w, "}");
      break;
    }
    case 1: /* merge the first two dims */
      split_a = s.dims[0];
      split_b = s.dims[1];
      n.rank = s.rank - 1;
      n.dims[0] = s.dims[0] * s.dims[1];
      for (int k = 1; k < n.rank; k++) n.dims[k] = s.dims[k + 1];
      default_layout(&n);
      op = "reshape";
      break;
    case 2: /* split it back, as a bitcast */
      n.rank = s.rank + 1;
      n.dims[0] = split_a;
      n.dims[1] = split_b;
      for (int k = 2; k < n.rank; k++) n.dims[k] = s.dims[k - 1];
      default_layout(&n);
      op = "bitcast";
      break;
    case 3: /* swap the first two dims, same physical order */
      n.dims[0] = s.dims[1];
      n.dims[1] = s.dims[0];
      for (int k = 0; k < s.rank; k++) {
        int d = s.m2m[k];
        n.m2m[k] = d == 0 ? 1 : d == 1 ? 0 : d;
      }
      op = "bitcast";
      break;
    case 5: /* generic reshape: swap the sizes of the first two dims */
      n.dims[0] = s.dims[1];
      n.dims[1] = s.dims[0];
      default_layout(&n);
      op = "reshape";
      break;
    default: /* logical transpose back */
      n.dims[0] = s.dims[1];
      n.dims[1] = s.dims[0];
      default_layout(&n);
      op = "transpose";
      snprintf(attrs, sizeof attrs, ", dimensions={1,0");
      for (int k = 2; k < s.rank; k++) snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), ",%d", k);
      snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), "}");
      break;
    }
    hb_sb_printf(b, "  %sv%d = ", i == length ? "ROOT " : "", i);
    put_shape(b, &n);
    hb_sb_printf(b, " %s(v%d)%s\n", op, i - 1, attrs);
    s = n;
  }
  hb_sb_puts(b, "}\n\nENTRY e {\n  p = ");
  put_shape(b, &first);
  hb_sb_puts(b, " parameter(0)\n  ROOT f = ");
  put_shape(b, &s);
  hb_sb_puts(b, " fusion(p), kind=kLoop, calls=fused\n}\n");
}

/* The tile work of one output: 1 when some operand map has no tile. */
static int tile_instr(ii_ctx *c, const hlo_instr *in, tg_count *cnt) {
  ft_tiling t;
  ii_error e;
  if (ft_symbolic(c, in, 0, &t, &e) != II_OK) {
    fprintf(stderr, "tiles of %s failed: %s\n", in->name, e.message);
    exit(1);
  }
  tg_count_valid(&t, cnt);
  if (!cnt->tileable) return 1;
  tg_iter it;
  tg_begin(ii_ctx_arena(c), &t, false, &it);
  int64_t ts[64];
  if (tg_next(&it, ts)) ft_instantiate(c, &t, ts);
  return 0;
}

int main(int argc, char **argv) {
  int rank = argc > 1 ? atoi(argv[1]) : 12;
  int length = argc > 2 ? atoi(argv[2]) : 200;
  int repeats = argc > 3 ? atoi(argv[3]) : 5;
  if (rank < 1 || rank > 40 || length < 1 || repeats < 1) {
    fprintf(stderr, "usage: bench_fusion_chain [RANK 1..40] [LENGTH] [REPEATS]\n");
    return 2;
  }
  hb_strbuf text = HB_STRBUF_INIT;
  build(&text, rank, length);
  if (getenv("BENCH_PRINT_HLO")) fputs(hb_sb_str(&text), stdout);

  double t0 = now();
  hlo_parse_result pr;
  hlo_error err;
  char *buf = calloc(text.len + 64, 1);
  memcpy(buf, text.data, text.len);
  if (hlo_parse_file(buf, text.len, &pr, &err)) {
    fprintf(stderr, "parse error at %zu: %s\n", err.offset, err.message);
    return 1;
  }
  double t_parse = now() - t0;
  const hlo_instr *fusion = pr.modules[0]->entry->root;
  const hlo_computation *fused = fusion->cold->called[0];

  double best = 1e30, best_all = 1e30;
  hb_strbuf out = HB_STRBUF_INIT;
  size_t nodes = 0;
  uint64_t text_nodes = 0;
  for (int r = 0; r < repeats; r++) {
    ii_ctx *c = ii_ctx_new();
    ii_ctx_set_text_limit(c, 0); /* time the analysis even when the text would be huge */
    ii_indexing x;
    ii_error e;
    double t = now();
    ii_status st = ii_o2i(c, fusion, 0, &x, &e);
    t = now() - t;
    if (st != II_OK) {
      fprintf(stderr, "analysis failed: %s\n", e.message);
      return 1;
    }
    if (t < best) best = t;
    if (r == 0) {
      map_print_opts po = {false, 0};
      text_nodes = ii_indexing_text_nodes(&x);
      if (text_nodes <= II_DEFAULT_TEXT_NODES) ii_print_indexing(c, &out, &x, &po);
      else hb_sb_printf(&out, "(map not printed: %llu expression nodes as text)\n", (unsigned long long)text_nodes);
      nodes = ae_ctx_node_count(ii_ctx_ae(c));
    }
    /* every instruction of the chain, one query each (as --all would) */
    t = now();
    for (int i = 0; i < fused->n_instrs; i++) {
      ii_ctx_reset(c);
      if (ii_o2i(c, fused->instrs[i], 0, &x, &e) != II_OK) {
        fprintf(stderr, "analysis of %s failed: %s\n", fused->instrs[i]->name, e.message);
        return 1;
      }
    }
    t = now() - t;
    if (t < best_all) best_all = t;
    ii_ctx_free(c);
  }
  printf("rank %d, chain of %d ops: parse %.2f ms, fusion out2in %.2f ms (best of %d), "
         "%d single-op queries %.2f ms, %zu expression nodes (%llu as text)\n",
         rank, length, t_parse * 1e3, best * 1e3, repeats, fused->n_instrs, best_all * 1e3, nodes,
         (unsigned long long)text_nodes);

  double best_tile = 1e30, best_tile_all = 1e30;
  int untileable = 0, fusion_untileable = 0;
  tg_count root_count = {0};
  for (int r = 0; r < repeats; r++) {
    ii_ctx *c = ii_ctx_new();
    tg_count cnt;
    double t = now();
    fusion_untileable = tile_instr(c, fusion, &cnt);
    t = now() - t;
    if (t < best_tile) best_tile = t;
    t = now();
    untileable = 0;
    for (int i = 0; i < fused->n_instrs; i++) {
      if (fused->instrs[i]->op == HLO_OP_PARAMETER) continue;
      ii_ctx_reset(c);
      untileable += tile_instr(c, fused->instrs[i], &cnt);
      if (fused->instrs[i] == fused->root) root_count = cnt;
    }
    t = now() - t;
    if (t < best_tile_all) best_tile_all = t;
    ii_ctx_free(c);
  }
  printf("tiles: fusion %.2f ms (%s), every instruction of the chain %.2f ms (%d without a tile; the root's "
         "valid tilings: %.0f of %.0f)\n",
         best_tile * 1e3, fusion_untileable ? "no symbolic tile" : "tiled", best_tile_all * 1e3, untileable,
         (double)root_count.valid, (double)root_count.total);
  fputs(hb_sb_str(&out), stdout);
  hb_sb_free(&out);
  hb_sb_free(&text);
  hlo_parse_result_free(&pr);
  free(buf);
  return 0;
}
