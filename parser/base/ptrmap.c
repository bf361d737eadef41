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

/* The slots (in the map itself while small, so a copied map stays valid). */
static const void **keys_of(hb_ptrmap *m) { return m->cap > HB_PTRMAP_SMALL ? m->keys : m->small_keys; }
static hb_ptrmap_val *vals_of(hb_ptrmap *m) { return m->cap > HB_PTRMAP_SMALL ? m->vals : m->small_vals; }

void hb_ptrmap_init(hb_ptrmap *m) {
  m->keys = NULL;
  m->vals = NULL;
  m->cap = 0;
  m->len = 0;
}

void hb_ptrmap_free(hb_ptrmap *m) {
  if (m->cap > HB_PTRMAP_SMALL) {
    free(m->keys);
    free(m->vals);
  }
  hb_ptrmap_init(m);
}

void hb_ptrmap_clear(hb_ptrmap *m) {
  if (m->len == 0) return;
  memset(keys_of(m), 0, m->cap * sizeof *m->keys);
  m->len = 0;
}

hb_ptrmap_val *hb_ptrmap_get(const hb_ptrmap *m, const void *key) {
  if (!m->cap) return NULL;
  const void *const *keys = m->cap > HB_PTRMAP_SMALL ? m->keys : m->small_keys;
  for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (keys[i] == key) return (hb_ptrmap_val *)(m->cap > HB_PTRMAP_SMALL ? &m->vals[i] : &m->small_vals[i]);
    if (!keys[i]) return NULL;
  }
}

static void grow(hb_ptrmap *m) {
  if (m->cap == 0) {
    memset(m->small_keys, 0, sizeof m->small_keys);
    m->cap = HB_PTRMAP_SMALL;
    return;
  }
  size_t ocap = m->cap, ncap = ocap * 2;
  const void **ok = keys_of(m);
  hb_ptrmap_val *ov = vals_of(m);
  const void **nk = hb_calloc(ncap, sizeof *nk);
  hb_ptrmap_val *nv = hb_calloc(ncap, sizeof *nv);
  for (size_t i = 0; i < ocap; i++) {
    if (!ok[i]) continue;
    size_t j = slot_of(ok[i], ncap);
    while (nk[j]) j = (j + 1) & (ncap - 1);
    nk[j] = ok[i];
    nv[j] = ov[i];
  }
  if (ocap > HB_PTRMAP_SMALL) {
    free(ok);
    free(ov);
  }
  m->keys = nk;
  m->vals = nv;
  m->cap = ncap;
}

void hb_ptrmap_put(hb_ptrmap *m, const void *key, hb_ptrmap_val v) {
  if ((m->len + 1) * 4 > m->cap * 3) grow(m);
  const void **keys = keys_of(m);
  size_t i = slot_of(key, m->cap);
  while (keys[i] && keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!keys[i]) {
    keys[i] = key;
    m->len++;
  }
  vals_of(m)[i] = v;
}
