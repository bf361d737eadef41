#include "pair_sort.h"

/* (from, to) pairs, stored flat: read as one element each */
typedef struct {
  int64_t from, to;
} pair;

#define SORT_T pair
#define SORT_LT(a, b) ((a).from < (b).from || ((a).from == (b).from && (a).to < (b).to))
#define SORT_FN(name) ps_pair_##name
#include "sort_impl.h"

#define SORT_T uint64_t
#define SORT_LT(a, b) ((a) < (b))
#define SORT_FN(name) ps_key_##name
#include "sort_impl.h"

/* 2 log2 n quicksort levels */
static int depth_of(size_t n) {
  int depth = 0;
  for (size_t k = n; k > 1; k >>= 1) depth += 2;
  return depth;
}

void pair_sort_depth(int64_t *v, size_t npairs, int depth) { ps_pair_sort((pair *)v, npairs, depth); }

void pair_sort(int64_t *v, size_t npairs) { ps_pair_sort((pair *)v, npairs, depth_of(npairs)); }

bool pair_find(const int64_t *v, size_t npairs, int64_t from, int64_t to) {
  const pair *p = (const pair *)v;
  size_t i = ps_pair_lower(p, npairs, (pair){from, to});
  return i < npairs && p[i].from == from && p[i].to == to;
}

void key_sort_depth(uint64_t *v, size_t n, int depth) { ps_key_sort(v, n, depth); }

void key_sort(uint64_t *v, size_t n) { ps_key_sort(v, n, depth_of(n)); }

bool key_find(const uint64_t *v, size_t n, uint64_t key) {
  size_t i = ps_key_lower(v, n, key);
  return i < n && v[i] == key;
}
