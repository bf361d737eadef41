/* A small open-addressing hash map from pointers to a 16-byte value, used
 * for memo tables keyed by hash-consed expression nodes. Iteration order is
 * never used for output, so hashing the pointer value is fine. */
#ifndef HLOIDX_PTRMAP_H
#define HLOIDX_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int64_t a, b;
} ptrmap_val;

/* Up to PTRMAP_SMALL slots live in the map itself: most memo tables stay
 * that small, and a malloc/free pair per table was a visible part of
 * `hloidx --all`. */
#define PTRMAP_SMALL 16

typedef struct {
  const void **keys; /* the slots when cap > PTRMAP_SMALL */
  ptrmap_val *vals;
  size_t cap; /* power of two or 0 */
  size_t len;
  const void *small_keys[PTRMAP_SMALL]; /* the slots when cap == PTRMAP_SMALL */
  ptrmap_val small_vals[PTRMAP_SMALL];
} ptrmap;

void ptrmap_init(ptrmap *m);
void ptrmap_free(ptrmap *m);
void ptrmap_clear(ptrmap *m);
/* NULL when absent. The pointer is valid until the next insertion. */
ptrmap_val *ptrmap_get(const ptrmap *m, const void *key);
/* Inserts or overwrites. */
void ptrmap_put(ptrmap *m, const void *key, ptrmap_val v);

/* Pointer-valued convenience wrappers. */
static inline const void *ptrmap_get_ptr(const ptrmap *m, const void *key, bool *found) {
  ptrmap_val *v = ptrmap_get(m, key);
  *found = v != NULL;
  return v ? (const void *)(uintptr_t)v->a : NULL;
}
static inline void ptrmap_put_ptr(ptrmap *m, const void *key, const void *val) {
  ptrmap_val v = {(int64_t)(uintptr_t)val, 0};
  ptrmap_put(m, key, v);
}

#endif
