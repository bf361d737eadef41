#include "vec.h"

#include <stdlib.h>
#include <string.h>

#include "oom.h"

void *hb_vec_grow(hb_vec *v, size_t elem) {
  size_t cap = v->cap ? v->cap * 2 : 64;
  v->p = hb_realloc(v->p, cap * elem);
  v->cap = cap;
  return (char *)v->p + elem * v->n++;
}

void hb_vec_free(hb_vec *v) {
  free(v->p);
  v->p = NULL;
  v->n = v->cap = 0;
}

void *hb_vec_take(hb_arena *a, hb_vec *v, size_t elem, size_t b, size_t e) {
  size_t n = e - b;
  void *out = hb_arena_array_small(a, n, elem);
  if (n) memcpy(out, (char *)v->p + b * elem, n * elem);
  v->n = b;
  return out;
}
