/* Benchmark: simplifying maps whose expressions share large sub-DAGs.
 *
 * A chain of N reshape-like steps: each step linearises the current index
 * (e0 * q + e1, the i2o map of a reshape) and delinearises it into a new
 * shape (lin floordiv p, lin mod p). Both results of a step use the same
 * linearisation, and the next step uses both, so the expressions form a DAG
 * whose tree size doubles per step (2^N for N = 200) while the DAG stays
 * linear. A tree walk would never finish; the simplifier must be linear.
 *
 *   bench_simplify_chain [N] [repeats]      (default 200, 5)
 *
 * Variants: "2d" alternates [4, 6] <-> [6, 4]; "3d" cycles
 * [2, 3, 4] -> [4, 6] -> [3, 8] -> [24] -> [2, 3, 4] (generic, collapse and
 * expand reshapes); "2d-preserve" is "2d" in preserve-points mode with a
 * unit dimension. Prints the time of imap_simplify (best of the repeats),
 * the nodes it created and the simplified map. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "affine_expr.h"
#include "indexing_map.h"
#include "map_print.h"
#include "simplify.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* results for shape `to` from index exprs `e` of shape `from` (row-major) */
static int reshape(ae_ctx *c, const ae **e, const int64_t *from, int nf, const int64_t *to, int nt, const ae **out) {
  const ae *lin = ae_const(c, 0);
  for (int i = 0; i < nf; i++) lin = ae_add(c, ae_mul_const(c, lin, from[i]), e[i]);
  const ae *rem = lin;
  for (int i = 0; i < nt; i++) {
    int64_t stride = 1;
    for (int j = i + 1; j < nt; j++) stride *= to[j];
    out[i] = ae_floordiv_const(c, rem, stride);
    rem = ae_mod_const(c, rem, stride);
  }
  return nt;
}

typedef struct {
  const char *name;
  int nshapes;
  int64_t shapes[4][3];
  int ranks[4];
  simplify_mode mode;
} variant;

static void run(const variant *v, int n, int repeats) {
  double best = 1e9, build = 0;
  size_t nodes = 0, total = 0;
  char *text = NULL;
  for (int r = 0; r < repeats; r++) {
    ae_ctx *c = ae_ctx_new();
    hb_arena *a = hb_arena_new();
    double t0 = now();
    int rank = v->ranks[0];
    const ae *e[3], *tmp[3];
    interval dv[3];
    for (int i = 0; i < rank; i++) {
      e[i] = ae_dim(c, (uint32_t)i);
      dv[i] = iv_make(0, v->shapes[0][i] - 1);
    }
    for (int s = 0; s < n; s++) {
      int from = s % v->nshapes, to = (s + 1) % v->nshapes;
      rank = reshape(c, e, v->shapes[from], v->ranks[from], v->shapes[to], v->ranks[to], tmp);
      memcpy(e, tmp, sizeof tmp);
    }
    imap *m = imap_new(a, c, (uint32_t)v->ranks[0], 0, 0, dv, NULL, (uint32_t)rank, e);
    double t1 = now();
    size_t before = ae_ctx_node_count(c);
    simplify_status st = imap_simplify(m, v->mode, NULL);
    double t2 = now();
    if (st != SIMPLIFY_OK) {
      fprintf(stderr, "%s: simplification stopped (budget)\n", v->name);
      exit(1);
    }
    if (t2 - t1 < best) best = t2 - t1;
    build = t1 - t0;
    nodes = ae_ctx_node_count(c) - before;
    total = before;
    if (!text) {
      hb_strbuf b = HB_STRBUF_INIT;
      map_print(&b, m, NULL);
      text = malloc(b.len + 1);
      memcpy(text, hb_sb_str(&b), b.len + 1);
      hb_sb_free(&b);
    }
    hb_arena_free(a);
    ae_ctx_free(c);
  }
  printf("%-12s N=%d  build %.3f ms (%zu nodes)  simplify %.3f ms (+%zu nodes)\n  -> %s\n", v->name, n, build * 1e3,
         total, best * 1e3, nodes, text);
  free(text);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  int repeats = argc > 2 ? atoi(argv[2]) : 5;
  if (n < 0 || repeats < 1) return 2;
  static const variant variants[] = {
      {"2d", 2, {{4, 6}, {6, 4}}, {2, 2}, SIMPLIFY_REPLACE_POINTS},
      {"3d", 4, {{2, 3, 4}, {4, 6}, {3, 8}, {24}}, {3, 2, 2, 1}, SIMPLIFY_REPLACE_POINTS},
      {"2d-preserve", 2, {{1, 24}, {24, 1}}, {2, 2}, SIMPLIFY_PRESERVE_POINTS},
  };
  for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) run(&variants[i], n, repeats);
  return 0;
}
