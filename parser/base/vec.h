/* Growable vectors in malloc'd memory (out of memory: hb_oom), reused
 * across a whole parse; a finished list moves into an arena (hb_vec_take). */
#ifndef HB_VEC_H
#define HB_VEC_H

#include <stddef.h>

#include "arena.h"

typedef struct hb_vec {
  void *p;
  size_t n;   /* elements in use */
  size_t cap; /* elements allocated */
} hb_vec;

void *hb_vec_grow(hb_vec *v, size_t elem);
static inline void *hb_vec_push_raw(hb_vec *v, size_t elem) {
  if (v->n == v->cap) return hb_vec_grow(v, elem);
  return (char *)v->p + elem * v->n++;
}
#define HB_PUSH(v, T, x) (*(T *)hb_vec_push_raw(&(v), sizeof(T)) = (x))
#define HB_AT(v, T, i) (((T *)(v).p)[i])
void hb_vec_free(hb_vec *v);
/* Entries [b, e) of v (the top of the vector) copied into arena a, then
 * popped (v->n = b): how a list collected on a scratch vector ends up in
 * the IR. Returns the arena copy, 8-byte aligned (hb_arena_alloc_small:
 * for elements without 16-byte members). */
void *hb_vec_take(hb_arena *a, hb_vec *v, size_t elem, size_t b, size_t e);

#endif
