/* A max-heap of uint32_t in a caller's array (room for one more element
 * on push): the walks that visit the instructions reached, users before
 * operands, pop post-order places from it. */
#ifndef HLOIDX_U32_HEAP_H
#define HLOIDX_U32_HEAP_H

#include <stdint.h>

static inline void u32_heap_push(uint32_t *h, uint32_t *n, uint32_t v) {
  uint32_t i = (*n)++;
  for (; i && h[(i - 1) / 2] < v; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
  h[i] = v;
}

/* The largest (the heap must not be empty). */
static inline uint32_t u32_heap_pop(uint32_t *h, uint32_t *n) {
  uint32_t top = h[0], v = h[--*n], i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1, m = l + 1 < *n && h[l + 1] > h[l] ? l + 1 : l;
    if (l >= *n || h[m] <= v) break;
    h[i] = h[m];
    i = m;
  }
  if (*n) h[i] = v;
  return top;
}

#endif
