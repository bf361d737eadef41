/* Growable vectors in malloc'd memory (out of memory: hb_oom), reused
 * across a whole parse; a finished list moves into an arena (hb_vec_take). */
#ifndef HB_VEC_H
#define HB_VEC_H

#include <stddef.h>
#include <string.h>

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
 * for elements without 16-byte members). A large list that is the whole
 * vector is not copied: the buffer, trimmed to it, goes to the arena
 * (hb_arena_adopt) and the vector starts again empty; a 100,000-operand
 * list would otherwise be held twice at the module's peak. */
#define HB_VEC_HANDOVER_MIN ((size_t)64 * 1024) /* bytes */
void *hb_vec_handover(hb_arena *a, hb_vec *v, size_t elem);
static inline void *hb_vec_take(hb_arena *a, hb_vec *v, size_t elem, size_t b, size_t e) {
  size_t n = e - b;
  if (b == 0 && e == v->n && n * elem >= HB_VEC_HANDOVER_MIN) return hb_vec_handover(a, v, elem);
  void *out = hb_arena_array_small(a, n, elem);
  if (n) memcpy(out, (char *)v->p + b * elem, n * elem);
  v->n = b;
  return out;
}

#endif
