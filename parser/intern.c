#include "intern.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/oom.h"

/* A slot is the string's hash and its place in the table's list of
 * strings (+ 1; 0: empty): 8 bytes, so the slots of a 100,000-name
 * module take 2 MiB, and a probe that meets another string is decided by
 * the hash without loading that string's header (rarely in the cache:
 * the strings are spread over the module's arena). */
typedef struct {
  uint32_t hash;
  uint32_t ref;
} slot;

#define MIN_SLOTS 512

/* One table serves every module the parser reads: a module starts on
 * MIN_SLOTS empty slots (a large table kept for small modules would
 * spread their few strings over many cache lines), and the list of
 * strings keeps its buffer unless it grew large. */
struct hlo_intern {
  hb_arena *a;
  slot *slots;
  size_t mask;      /* slots - 1 (a power of two - 1) */
  hlo_istr **strs;  /* the module's strings, in the order they came */
  size_t count, cap;
};

#define KEEP_STRS_MAX ((size_t)64 * 1024)

hlo_intern *hlo_intern_new(hb_arena *a) {
  hlo_intern *t = hb_calloc(1, sizeof *t);
  t->a = a;
  t->slots = hb_calloc(MIN_SLOTS, sizeof(slot));
  t->mask = MIN_SLOTS - 1;
  return t;
}

void hlo_intern_free(hlo_intern *t) {
  if (!t) return;
  free(t->slots);
  free(t->strs);
  free(t);
}

bool hlo_intern_shrink(hlo_intern *t) {
  if (t->mask + 1 == MIN_SLOTS) return false;
  free(t->slots);
  t->slots = hb_calloc(MIN_SLOTS, sizeof(slot));
  t->mask = MIN_SLOTS - 1;
  if (t->cap > KEEP_STRS_MAX) {
    free(t->strs);
    t->strs = NULL;
    t->cap = 0;
  }
  t->count = 0;
  return true;
}

void hlo_intern_reset(hlo_intern *t, hb_arena *a) {
  t->a = a;
  if (!hlo_intern_shrink(t) && t->count) memset(t->slots, 0, MIN_SLOTS * sizeof(slot));
  t->count = 0;
}

size_t hlo_intern_count(const hlo_intern *t) { return t->count; }

static void grow(hlo_intern *t) {
  size_t old_n = t->mask + 1, n = old_n * 2;
  slot *old = t->slots, *nw = hb_calloc(n, sizeof(slot));
  for (size_t i = 0; i < old_n; i++) {
    if (!old[i].ref) continue;
    size_t j = old[i].hash & (n - 1);
    while (nw[j].ref) j = (j + 1) & (n - 1);
    nw[j] = old[i];
  }
  free(old);
  t->slots = nw;
  t->mask = n - 1;
}

/* memcpy(d, s, len) for the short names interned (most under 16 bytes)
 * without the library call: two overlapping words, else a loop. */
static inline void copy_short(char *d, const char *s, size_t len) {
  uint64_t a, b;
  if (len >= 8 && len <= 16) {
    memcpy(&a, s, 8);
    memcpy(&b, s + len - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + len - 8, &b, 8);
  } else if (len > 16) {
    memcpy(d, s, len);
  } else {
    for (size_t i = 0; i < len; i++) d[i] = s[i];
  }
}

hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_inline(s, len);
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    const slot *sl = &t->slots[i];
    if (!sl->ref) break;
    if (sl->hash != h) continue;
    hlo_istr *e = t->strs[sl->ref - 1];
    if (e->len == len && hlo_same_bytes(hlo_istr_str(e), s, len)) return e;
  }
  if (t->count == t->cap) {
    if (t->cap >= UINT32_MAX / 2) hb_oom(); /* (refs are 32-bit) */
    t->cap = t->cap ? t->cap * 2 : 256;
    t->strs = hb_realloc(t->strs, t->cap * sizeof *t->strs);
  }
  hlo_istr *e = hb_arena_alloc_small(t->a, sizeof *e + len + 1);
  memset(e, 0, sizeof *e);
  e->len = (uint32_t)len;
  e->opcode = 0xffff;
  e->attr = -1;
  char *p = (char *)(e + 1);
  copy_short(p, s, len);
  p[len] = '\0';
  t->strs[t->count++] = e;
  t->slots[i] = (slot){h, (uint32_t)t->count};
  if (t->count * 4 > (t->mask + 1) * 3) grow(t); /* load 3/4: the hash in the slot keeps probes cheap */
  return e;
}

const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len) {
  return hlo_istr_str(hlo_intern_get(t, s, len));
}
