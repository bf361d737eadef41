/* The introsort of pair_sort.c for one element type, included once per
 * type with SORT_T (the element type), SORT_LT(a, b) (whether element a
 * comes strictly before element b) and SORT_FN(name) (a name for this
 * type's copy of function name). Quicksort with a median-of-three pivot,
 * heapsort past the depth limit, insertion sort below 16 elements. */

static void SORT_FN(insertion)(SORT_T *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    SORT_T x = v[i];
    size_t j = i;
    for (; j > 0 && SORT_LT(x, v[j - 1]); j--) v[j] = v[j - 1];
    v[j] = x;
  }
}

/* Max-heap below I among the first N elements. */
static void SORT_FN(sift)(SORT_T *v, size_t i, size_t n) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && SORT_LT(v[c], v[c + 1])) c++;
    if (!SORT_LT(v[i], v[c])) return;
    SORT_T t = v[i];
    v[i] = v[c], v[c] = t;
    i = c;
  }
}

static void SORT_FN(heapsort)(SORT_T *v, size_t n) {
  for (size_t i = n / 2; i-- > 0;) SORT_FN(sift)(v, i, n);
  for (size_t k = n; k-- > 1;) {
    SORT_T t = v[0];
    v[0] = v[k], v[k] = t;
    SORT_FN(sift)(v, 0, k);
  }
}

static void SORT_FN(sort)(SORT_T *v, size_t n, int depth) {
  while (n > 16) {
    if (depth-- == 0) {
      SORT_FN(heapsort)(v, n);
      return;
    }
    /* median of three: the first element <= the pivot <= the last, which
     * then stop the scans below (no bounds checks) */
    SORT_T *a = v, *b = v + n / 2, *c = v + n - 1, t;
    if (SORT_LT(*b, *a)) t = *a, *a = *b, *b = t;
    if (SORT_LT(*c, *b)) {
      t = *b, *b = *c, *c = t;
      if (SORT_LT(*b, *a)) t = *a, *a = *b, *b = t;
    }
    SORT_T p = *b;
    size_t i = 0, j = n - 1;
    for (;;) {
      do i++;
      while (SORT_LT(v[i], p));
      do j--;
      while (SORT_LT(p, v[j]));
      if (i >= j) break;
      t = v[i], v[i] = v[j], v[j] = t;
    }
    /* [0, j] <= pivot <= (j, n): both parts non-empty (j in [0, n - 2]);
     * the smaller one recursively, the larger in this loop */
    size_t nl = j + 1, nr = n - nl;
    if (nl < nr) {
      SORT_FN(sort)(v, nl, depth);
      v += nl;
      n = nr;
    } else {
      SORT_FN(sort)(v + nl, nr, depth);
      n = nl;
    }
  }
  SORT_FN(insertion)(v, n);
}

/* The first place in the sorted V (N elements) whose element is not
 * before X. */
static size_t SORT_FN(lower)(const SORT_T *v, size_t n, SORT_T x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (SORT_LT(v[mid], x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

#undef SORT_T
#undef SORT_LT
#undef SORT_FN
