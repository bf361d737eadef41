#include "intern.h"

#include <stdbool.h>
#include <string.h>

#include "arena.h"

/* A slot keeps the entry's hash next to its pointer: a probe that meets
 * another string is decided without loading that string's header, which
 * is rarely in the cache (entries are spread over the module's arena). */
typedef struct {
  uint32_t hash;
  hlo_istr *e; /* NULL = empty */
} slot;

struct hlo_intern {
  arena *a;
  slot *slots; /* power-of-two sized */
  size_t mask; /* slots - 1 */
  size_t count;
};

hlo_intern *hlo_intern_new(arena *a) {
  hlo_intern *t = arena_zalloc(a, sizeof *t);
  t->a = a;
  t->mask = 511;
  t->slots = arena_zalloc(a, (t->mask + 1) * sizeof *t->slots);
  return t;
}

static void grow(hlo_intern *t) {
  size_t n = (t->mask + 1) * 2;
  slot *slots = arena_zalloc(t->a, n * sizeof *slots);
  for (size_t i = 0; i <= t->mask; i++) {
    if (!t->slots[i].e) continue;
    size_t j = t->slots[i].hash & (n - 1);
    while (slots[j].e) j = (j + 1) & (n - 1);
    slots[j] = t->slots[i];
  }
  t->slots = slots;
  t->mask = n - 1;
}

hlo_istr *hlo_intern_lookup(const hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_inline(s, len);
  for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
    hlo_istr *e = t->slots[i].e;
    if (!e) return NULL;
    if (t->slots[i].hash == h && e->len == len && hlo_same_bytes(hlo_istr_str(e), s, len)) return e;
  }
}

hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_inline(s, len);
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    hlo_istr *e = t->slots[i].e;
    if (!e) break;
    if (t->slots[i].hash == h && e->len == len && hlo_same_bytes(hlo_istr_str(e), s, len)) return e;
  }
  hlo_istr *e = arena_alloc(t->a, sizeof *e + len + 1);
  memset(e, 0, sizeof *e);
  e->len = (uint32_t)len;
  e->opcode = -1;
  e->attr = -1;
  char *p = (char *)(e + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  t->slots[i] = (slot){h, e};
  if (++t->count * 2 > t->mask + 1) grow(t);
  return e;
}

const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len) {
  return hlo_istr_str(hlo_intern_get(t, s, len));
}

size_t hlo_intern_count(const hlo_intern *t) { return t->count; }
