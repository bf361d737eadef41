#include "intern.h"

#include <string.h>

#include "arena.h"

struct hlo_intern {
  arena *a;
  hlo_istr **slots; /* power-of-two sized; NULL = empty */
  size_t mask;      /* slots - 1 */
  size_t count;
};

/* FNV-1a over 8-byte words: cheap, and good enough for names. */
uint32_t hlo_hash_bytes(const char *s, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < len; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  h ^= h >> 32;
  return (uint32_t)h;
}

hlo_intern *hlo_intern_new(arena *a) {
  hlo_intern *t = arena_zalloc(a, sizeof *t);
  t->a = a;
  t->mask = 1023;
  t->slots = arena_zalloc(a, (t->mask + 1) * sizeof *t->slots);
  return t;
}

static void grow(hlo_intern *t) {
  size_t n = (t->mask + 1) * 2;
  hlo_istr **slots = arena_zalloc(t->a, n * sizeof *slots);
  for (size_t i = 0; i <= t->mask; i++) {
    hlo_istr *e = t->slots[i];
    if (!e) continue;
    size_t j = e->hash & (n - 1);
    while (slots[j]) j = (j + 1) & (n - 1);
    slots[j] = e;
  }
  t->slots = slots;
  t->mask = n - 1;
}

hlo_istr *hlo_intern_lookup(const hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_bytes(s, len);
  for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
    hlo_istr *e = t->slots[i];
    if (!e) return NULL;
    if (e->hash == h && e->len == len && memcmp(hlo_istr_str(e), s, len) == 0) return e;
  }
}

hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_bytes(s, len);
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    hlo_istr *e = t->slots[i];
    if (!e) break;
    if (e->hash == h && e->len == len && memcmp(hlo_istr_str(e), s, len) == 0) return e;
  }
  hlo_istr *e = arena_alloc(t->a, sizeof *e + len + 1);
  memset(e, 0, sizeof *e);
  e->len = (uint32_t)len;
  e->hash = h;
  e->opcode = -1;
  e->attr = -1;
  char *p = (char *)(e + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  t->slots[i] = e;
  if (++t->count * 2 > t->mask + 1) grow(t);
  return e;
}

const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len) {
  return hlo_istr_str(hlo_intern_get(t, s, len));
}

size_t hlo_intern_count(const hlo_intern *t) { return t->count; }
