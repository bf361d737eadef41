/* A small open-addressing hash map from pointers to a 16-byte value, used
 * for memo tables keyed by hash-consed expression nodes. Iteration order is
 * never used for output, so hashing the pointer value is fine. */
#ifndef HB_PTRMAP_H
#define HB_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int64_t a, b;
} hb_ptrmap_val;

/* Up to HB_PTRMAP_SMALL slots live in the map itself: most memo tables stay
 * that small, and a malloc/free pair per table was a visible part of
 * `hloidx --all`. */
#define HB_PTRMAP_SMALL 16

typedef struct {
  const void **keys; /* the slots when cap > HB_PTRMAP_SMALL */
  hb_ptrmap_val *vals;
  size_t cap; /* power of two or 0 */
  size_t len;
  const void *small_keys[HB_PTRMAP_SMALL]; /* the slots when cap == HB_PTRMAP_SMALL */
  hb_ptrmap_val small_vals[HB_PTRMAP_SMALL];
} hb_ptrmap;

void hb_ptrmap_init(hb_ptrmap *m);
void hb_ptrmap_free(hb_ptrmap *m);
void hb_ptrmap_clear(hb_ptrmap *m);
/* NULL when absent. The pointer is valid until the next insertion. */
hb_ptrmap_val *hb_ptrmap_get(const hb_ptrmap *m, const void *key);
/* Inserts or overwrites. */
void hb_ptrmap_put(hb_ptrmap *m, const void *key, hb_ptrmap_val v);

/* Pointer-valued convenience wrappers. */
static inline const void *hb_ptrmap_get_ptr(const hb_ptrmap *m, const void *key, bool *found) {
  hb_ptrmap_val *v = hb_ptrmap_get(m, key);
  *found = v != NULL;
  return v ? (const void *)(uintptr_t)v->a : NULL;
}
static inline void hb_ptrmap_put_ptr(hb_ptrmap *m, const void *key, const void *val) {
  hb_ptrmap_val v = {(int64_t)(uintptr_t)val, 0};
  hb_ptrmap_put(m, key, v);
}

#endif
