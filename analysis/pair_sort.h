/* In-place sort of (from, to) pairs of int64_t, stored flat (2 per pair),
 * in increasing order of from, then to. The verifier's relations hold up
 * to millions of pairs: qsort (a merge sort with a buffer as large as the
 * array, and a call per comparison) was 38% of `--all --verify` on a real
 * dump. Introsort: quicksort, heapsort past 2 log2 n levels, insertion
 * sort below 16 pairs (analysis/sort_impl.h). */
#ifndef HLOIDX_PAIR_SORT_H
#define HLOIDX_PAIR_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void pair_sort(int64_t *v, size_t npairs);
/* The same with DEPTH quicksort levels before heapsort (pair_sort: 2 log2
 * n; tests give 0 and 1 to reach the heapsort). */
void pair_sort_depth(int64_t *v, size_t npairs, int depth);
/* Whether the sorted V holds (FROM, TO). */
bool pair_find(const int64_t *v, size_t npairs, int64_t from, int64_t to);

/* The same for pairs packed into one unsigned key each (a relation whose
 * element numbers fit in 32 bits: half the memory), in increasing order. */
void key_sort(uint64_t *v, size_t n);
void key_sort_depth(uint64_t *v, size_t n, int depth);
bool key_find(const uint64_t *v, size_t n, uint64_t key);

#endif
