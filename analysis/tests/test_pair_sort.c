/* pair_sort and key_sort (and their heapsort, by a depth limit) against qsort on the
 * same pairs: random ones over wide and narrow ranges (many equal "from",
 * many equal pairs), sorted, reversed,
 * all equal, and every length up to 100 (the insertion sort, the
 * partition's edges); pair_find for pairs present and absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair_sort.h"
#include "test_util.h"

static int cmp(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Sorts V both ways (pair_sort, or with DEPTH >= 0 quicksort levels);
 * true when they agree. */
static bool agrees_depth(const int64_t *v, size_t n, int depth) {
  int64_t *a = malloc((2 * n + 1) * sizeof *a), *b = malloc((2 * n + 1) * sizeof *b);
  memcpy(a, v, 2 * n * sizeof *a);
  memcpy(b, v, 2 * n * sizeof *b);
  if (depth < 0) pair_sort(a, n);
  else pair_sort_depth(a, n, depth);
  qsort(b, n, 2 * sizeof *b, cmp);
  bool ok = memcmp(a, b, 2 * n * sizeof *a) == 0;
  for (size_t i = 0; ok && i < n; i++) ok = pair_find(a, n, a[2 * i], a[2 * i + 1]);
  free(a);
  free(b);
  return ok;
}

/* pair_sort, heapsort alone, one quicksort level then heapsort. */
static bool agrees(const int64_t *v, size_t n) {
  return agrees_depth(v, n, -1) && agrees_depth(v, n, 0) && agrees_depth(v, n, 1);
}

static int cmp_key(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* key_sort of the pairs of V read as keys (from's and to's low 32 bits),
 * against qsort, with DEPTH as above; and key_find of each key. */
static bool keys_agree_depth(const int64_t *v, size_t n, int depth) {
  uint64_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
  for (size_t i = 0; i < n; i++) a[i] = b[i] = (uint64_t)v[2 * i] << 32 | (uint32_t)v[2 * i + 1];
  if (depth < 0) key_sort(a, n);
  else key_sort_depth(a, n, depth);
  qsort(b, n, sizeof *b, cmp_key);
  bool ok = memcmp(a, b, n * sizeof *a) == 0;
  for (size_t i = 0; ok && i < n; i++) ok = key_find(a, n, a[i]);
  free(a);
  free(b);
  return ok;
}

static bool keys_agree(const int64_t *v, size_t n) {
  return keys_agree_depth(v, n, -1) && keys_agree_depth(v, n, 0) && keys_agree_depth(v, n, 1);
}

static void fill(int64_t *v, size_t n, int kind, int64_t range) {
  for (size_t i = 0; i < n; i++) {
    switch (kind) {
    case 0: v[2 * i] = (int64_t)(rnd() % (uint64_t)range) - range / 2, v[2 * i + 1] = (int64_t)(rnd() % 7); break;
    case 1: v[2 * i] = (int64_t)i, v[2 * i + 1] = -(int64_t)i; break;     /* sorted */
    case 2: v[2 * i] = (int64_t)(n - i), v[2 * i + 1] = 0; break;         /* reversed */
    case 3: v[2 * i] = 5, v[2 * i + 1] = 5; break;                        /* all equal */
    default: v[2 * i] = INT64_MIN + (int64_t)(rnd() % 3), v[2 * i + 1] = INT64_MAX - (int64_t)(rnd() % 3); break;
    }
  }
}

int main(void) {
  static int64_t v[2 * 200000];
  rng_state = 31;
  for (size_t n = 0; n <= 100; n++)
    for (int kind = 0; kind < 5; kind++) {
      fill(v, n, kind, 5);
      CHECK(agrees(v, n), "length %zu, kind %d", n, kind);
      CHECK(keys_agree(v, n), "keys: length %zu, kind %d", n, kind);
    }
  static const size_t sizes[] = {1000, 4096, 65537, 200000};
  static const int64_t ranges[] = {2, 50, 1 << 20, INT64_MAX};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    for (int kind = 0; kind < 5; kind++)
      for (size_t r = 0; r < (kind == 0 ? sizeof ranges / sizeof *ranges : 1); r++) {
        fill(v, sizes[s], kind, ranges[r]);
        CHECK(agrees(v, sizes[s]), "length %zu, kind %d, range %lld", sizes[s], kind, (long long)ranges[r]);
        CHECK(keys_agree(v, sizes[s]), "keys: length %zu, kind %d, range %lld", sizes[s], kind, (long long)ranges[r]);
      }
  /* absent pairs: between, before and after the present ones */
  int64_t w[6] = {1, 1, 1, 3, 4, 0};
  pair_sort(w, 3);
  CHECK(pair_find(w, 3, 1, 3) && !pair_find(w, 3, 1, 2) && !pair_find(w, 3, 0, 9) && !pair_find(w, 3, 4, 1) &&
            !pair_find(w, 0, 1, 1),
        "pair_find");
  uint64_t k[3] = {7, 3, 5};
  key_sort(k, 3);
  CHECK(key_find(k, 3, 5) && !key_find(k, 3, 4) && !key_find(k, 3, 2) && !key_find(k, 3, 8) && !key_find(k, 0, 3),
        "key_find");
  return t_finish("pair_sort");
}
