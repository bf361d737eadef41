#include "intern.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "oom.h"

/* A slot keeps the entry's hash next to its pointer: a probe that meets
 * another string is decided without loading that string's header, which
 * is rarely in the cache (entries are spread over the module's arena).
 * A slot is empty unless its generation is the table's. */
typedef struct {
  uint32_t hash;
  uint32_t gen;
  hlo_istr *e;
} slot;

#define MIN_SLOTS 512

struct hlo_intern {
  arena *a;
  slot *slots; /* power-of-two sized */
  size_t mask; /* slots - 1 */
  size_t count; /* strings of this generation */
  uint32_t gen; /* never 0: calloc'd slots are empty */
};

static void alloc_slots(hlo_intern *t, size_t n) {
  t->slots = xcalloc(n, sizeof *t->slots);
  t->mask = n - 1;
}

hlo_intern *hlo_intern_new(arena *a) {
  hlo_intern *t = xcalloc(1, sizeof *t);
  t->a = a;
  t->gen = 1;
  alloc_slots(t, MIN_SLOTS);
  return t;
}

void hlo_intern_free(hlo_intern *t) {
  if (!t) return;
  free(t->slots);
  free(t);
}

void hlo_intern_reset(hlo_intern *t, arena *a) {
  t->a = a;
  /* A table grown for a large module is given up when the last one used
   * little of it: small modules' strings would be spread over it. */
  if (t->mask + 1 > 8 * MIN_SLOTS && t->count * 16 < t->mask + 1) {
    free(t->slots);
    alloc_slots(t, MIN_SLOTS);
    t->gen = 0;
  }
  if (++t->gen == 0) { /* wrapped around: old generations could match again */
    memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    t->gen = 1;
  }
  t->count = 0;
}

static void grow(hlo_intern *t) {
  size_t n = (t->mask + 1) * 2;
  slot *old = t->slots;
  size_t old_n = t->mask + 1;
  alloc_slots(t, n);
  for (size_t i = 0; i < old_n; i++) {
    if (old[i].gen != t->gen) continue;
    size_t j = old[i].hash & (n - 1);
    while (t->slots[j].gen == t->gen) j = (j + 1) & (n - 1);
    t->slots[j] = old[i];
  }
  free(old);
}

hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_inline(s, len), gen = t->gen;
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    const slot *sl = &t->slots[i];
    if (sl->gen != gen) break;
    hlo_istr *e = sl->e;
    if (sl->hash == h && e->len == len && hlo_same_bytes(hlo_istr_str(e), s, len)) return e;
  }
  hlo_istr *e = arena_alloc(t->a, sizeof *e + len + 1);
  memset(e, 0, sizeof *e);
  e->len = (uint32_t)len;
  e->opcode = -1;
  e->attr = -1;
  char *p = (char *)(e + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  t->slots[i] = (slot){h, gen, e};
  if (++t->count * 2 > t->mask + 1) grow(t);
  return e;
}

const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len) {
  return hlo_istr_str(hlo_intern_get(t, s, len));
}
