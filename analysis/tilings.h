/* The tilings XLA's SymbolicTileAnalysis enumerates (symbolic-tiles.md §8
 * item 6): per output dimension of extent N the candidates are the powers
 * of two below N, then N (N = 5: 1, 2, 4, 5); the Cartesian product in
 * order, first dimension outermost; a tiling is valid when the constraints
 * of every operand tile hold (a fusion with an operand map without a tile
 * has none).
 *
 * XLA enumerates the whole product and keeps the valid ones: at rank 12
 * that is millions of tilings with a constraint expression that itself
 * grew exponentially. Here the count is exact without enumerating the
 * product: the parameters fall into groups that share a constraint factor
 * (tile_constraint.h); a group's valid assignments are counted by
 * enumerating only its own candidates (at most TG_GROUP_POINTS), and the
 * count is the product over groups times the candidates of unconstrained
 * parameters. The listing walks the product in XLA's order and stops after
 * the requested number of valid tilings or TG_STEPS candidates. */
#ifndef HLOIDX_TILINGS_H
#define HLOIDX_TILINGS_H

#include "fusion_tiling.h"

#define TG_GROUP_POINTS ((uint64_t)1 << 20)
#define TG_STEPS ((uint64_t)1 << 20)
#define TG_MAX_CANDIDATES 64 /* powers of two below 2^63, then N */

/* The candidates for extent n (at least 1): their number. */
uint32_t tg_candidates(int64_t n, int64_t out[TG_MAX_CANDIDATES]);

typedef struct {
  bool tileable;    /* every operand map has a symbolic tile */
  char why[420];    /* when not: which and why */
  tf_count total;   /* tilings in the product */
  tf_count valid;   /* of them valid */
  bool exact;       /* `valid` is exact (else a lower bound: a group too large) */
} tg_count;

void tg_count_valid(const ft_tiling *t, tg_count *out);

typedef struct {
  const ft_tiling *t;
  uint32_t rank;
  int64_t (*cand)[TG_MAX_CANDIDATES];
  uint32_t *ncand, *idx;
  uint64_t steps;  /* candidates checked so far */
  bool started, ended;
  bool exhausted;  /* stopped by TG_STEPS, not by the end of the product */
  bool partial;    /* operand maps without a tile are ignored */
} tg_iter;

/* Walks XLA's valid tilings; with `partial` (the enumeration check, which
 * checks the tiles that exist) the tilings valid for the maps that have a
 * tile, also when another map has none. */
void tg_begin(hb_arena *a, const ft_tiling *t, bool partial, tg_iter *it);
/* The next valid tiling in order into ts; false at the end (or when the
 * step budget ran out: it->exhausted). */
bool tg_next(tg_iter *it, int64_t *ts);

/* Whether every operand tile's constraints hold at ts (partial: every
 * existing tile's). */
bool tg_valid(const ft_tiling *t, const int64_t *ts, bool partial);

/* Whether every operand map of T has a symbolic tile; when not, WHY
 * (CAP bytes, may be NULL) names the first that has none. */
bool tg_tileable(const ft_tiling *t, char *why, size_t cap);

/* The tilings of an output whose operand maps come in parts (a
 * concatenate of thousands of operands, index_run.h): every candidate
 * tiling in a table, each part's tiles ruling out those where their
 * constraints fail; what remains is the valid ones, counted exactly and
 * in XLA's order, without holding more than a part's tiles. For products
 * of at most TG_TABLE_MAX candidates, and constrained tiles times
 * candidates at most TG_TABLE_STEPS (else tg_count_valid on the whole). */
#define TG_TABLE_MAX ((uint64_t)1 << 14)
#define TG_TABLE_STEPS ((uint64_t)1 << 26)
typedef struct {
  uint32_t rank;
  uint64_t n;       /* candidates */
  int64_t *ts;      /* candidate j's tile sizes: ts[j * rank, (j + 1) * rank) */
  unsigned char *ok; /* candidate j holds for every tile sifted so far */
  uint64_t valid;   /* how many do */
  uint64_t steps;
} tg_table;
/* False when the product of the candidates for EXTENT is too large. */
bool tg_table_begin(tg_table *tb, const int64_t *extent, uint32_t rank);
/* Rules out the candidates where a tile of PART fails; false when the
 * steps ran out (the table is then incomplete). */
bool tg_table_sift(tg_table *tb, const ft_tiling *part);
void tg_table_end(tg_table *tb);

#endif
