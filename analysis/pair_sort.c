#include "pair_sort.h"

static inline bool lt(const int64_t *a, int64_t b0, int64_t b1) { return a[0] < b0 || (a[0] == b0 && a[1] < b1); }

static inline bool gt(const int64_t *a, int64_t b0, int64_t b1) { return a[0] > b0 || (a[0] == b0 && a[1] > b1); }

static inline bool pair_lt(const int64_t *a, const int64_t *b) { return lt(a, b[0], b[1]); }

static inline void swap(int64_t *a, int64_t *b) {
  int64_t t0 = a[0], t1 = a[1];
  a[0] = b[0];
  a[1] = b[1];
  b[0] = t0;
  b[1] = t1;
}

static void insertion(int64_t *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    int64_t a = v[2 * i], b = v[2 * i + 1];
    size_t j = i;
    for (; j > 0 && gt(v + 2 * j - 2, a, b); j--) {
      v[2 * j] = v[2 * j - 2];
      v[2 * j + 1] = v[2 * j - 1];
    }
    v[2 * j] = a;
    v[2 * j + 1] = b;
  }
}

/* Max-heap below I among the first N pairs. */
static void sift(int64_t *v, size_t i, size_t n) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && pair_lt(v + 2 * c, v + 2 * c + 2)) c++;
    if (!pair_lt(v + 2 * i, v + 2 * c)) return;
    swap(v + 2 * i, v + 2 * c);
    i = c;
  }
}

static void heapsort(int64_t *v, size_t n) {
  for (size_t i = n / 2; i-- > 0;) sift(v, i, n);
  for (size_t k = n; k-- > 1;) {
    swap(v, v + 2 * k);
    sift(v, 0, k);
  }
}

static void sort(int64_t *v, size_t n, int depth) {
  while (n > 16) {
    if (depth-- == 0) {
      heapsort(v, n);
      return;
    }
    /* median of three: the first pair <= the pivot <= the last, which
     * then stop the scans below (no bounds checks) */
    int64_t *a = v, *b = v + 2 * (n / 2), *c = v + 2 * (n - 1);
    if (pair_lt(b, a)) swap(a, b);
    if (pair_lt(c, b)) {
      swap(b, c);
      if (pair_lt(b, a)) swap(a, b);
    }
    int64_t p0 = b[0], p1 = b[1];
    size_t i = 0, j = n - 1;
    for (;;) {
      do i++;
      while (lt(v + 2 * i, p0, p1));
      do j--;
      while (gt(v + 2 * j, p0, p1));
      if (i >= j) break;
      swap(v + 2 * i, v + 2 * j);
    }
    /* [0, j] <= pivot <= (j, n): both parts non-empty (j in [0, n - 2]);
     * the smaller one recursively, the larger in this loop */
    size_t nl = j + 1, nr = n - nl;
    if (nl < nr) {
      sort(v, nl, depth);
      v += 2 * nl;
      n = nr;
    } else {
      sort(v + 2 * nl, nr, depth);
      n = nl;
    }
  }
  insertion(v, n);
}

void pair_sort_depth(int64_t *v, size_t npairs, int depth) { sort(v, npairs, depth); }

void pair_sort(int64_t *v, size_t npairs) {
  int depth = 0;
  for (size_t k = npairs; k > 1; k >>= 1) depth += 2;
  sort(v, npairs, depth);
}

bool pair_find(const int64_t *v, size_t npairs, int64_t from, int64_t to) {
  size_t lo = 0, hi = npairs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (lt(v + 2 * mid, from, to)) lo = mid + 1;
    else hi = mid;
  }
  return lo < npairs && v[2 * lo] == from && v[2 * lo + 1] == to;
}
