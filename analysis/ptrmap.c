#include "ptrmap.h"

#include "oom.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static size_t slot_of(const void *key, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (cap - 1);
}

void ptrmap_init(ptrmap *m) { memset(m, 0, sizeof *m); }

void ptrmap_free(ptrmap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

void ptrmap_clear(ptrmap *m) {
  if (m->len == 0) return;
  memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->len = 0;
}

ptrmap_val *ptrmap_get(const ptrmap *m, const void *key) {
  if (!m->cap) return NULL;
  for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return &m->vals[i];
    if (!m->keys[i]) return NULL;
  }
}

static void grow(ptrmap *m) {
  size_t ncap = m->cap ? m->cap * 2 : 16;
  const void **ok = m->keys;
  ptrmap_val *ov = m->vals;
  size_t ocap = m->cap;
  m->keys = xcalloc(ncap, sizeof *m->keys);
  m->vals = xcalloc(ncap, sizeof *m->vals);
  m->cap = ncap;
  for (size_t i = 0; i < ocap; i++) {
    if (!ok[i]) continue;
    size_t j = slot_of(ok[i], ncap);
    while (m->keys[j]) j = (j + 1) & (ncap - 1);
    m->keys[j] = ok[i];
    m->vals[j] = ov[i];
  }
  free(ok);
  free(ov);
}

void ptrmap_put(ptrmap *m, const void *key, ptrmap_val v) {
  if ((m->len + 1) * 4 > m->cap * 3) grow(m);
  size_t i = slot_of(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->len++;
  }
  m->vals[i] = v;
}
