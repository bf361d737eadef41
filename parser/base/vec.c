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

void *hb_vec_handover(hb_arena *a, hb_vec *v, size_t elem) {
  void *out = hb_realloc(v->p, v->n * elem); /* (trimmed: the pages past it go back) */
  hb_arena_adopt(a, out);
  v->p = NULL;
  v->n = v->cap = 0;
  return out;
}
