#include "intern.h"

#include <stdbool.h>
#include <string.h>

#include "arena.h"

struct hlo_intern {
  arena *a;
  hlo_istr **slots; /* power-of-two sized; NULL = empty */
  size_t mask;      /* slots - 1 */
  size_t count;
};

static uint64_t load64(const char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static uint64_t load32(const char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

/* Multiply-mixing of 8-byte words; the last word overlaps the previous one
 * instead of a loop over the remaining bytes (names are short), and strings
 * under 8 bytes take two overlapping 4-byte loads or up to three bytes.
 * Nothing outside s[0..len) is read. */
uint32_t hlo_hash_bytes(const char *s, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull ^ len;
  if (len >= 8) {
    size_t i = 0;
    for (; i + 8 < len; i += 8) h = mix(h, load64(s + i));
    h = mix(h, load64(s + len - 8));
  } else if (len >= 4) {
    h = mix(h, load32(s) << 32 | load32(s + len - 4));
  } else if (len > 0) {
    h = mix(h, (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[len / 2] << 8 |
                   (unsigned char)s[len - 1]);
  }
  return (uint32_t)((h * 0xff51afd7ed558ccdull) >> 32); /* the high half depends on every bit */
}

/* s == t for LEN bytes, without a call for short strings. */
static bool same_bytes(const char *s, const char *t, size_t len) {
  if (len > 16) return memcmp(s, t, len) == 0;
  if (len >= 8) return load64(s) == load64(t) && load64(s + len - 8) == load64(t + len - 8);
  if (len >= 4) return load32(s) == load32(t) && load32(s + len - 4) == load32(t + len - 4);
  for (size_t i = 0; i < len; i++)
    if (s[i] != t[i]) return false;
  return true;
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
    if (e->hash == h && e->len == len && same_bytes(hlo_istr_str(e), s, len)) return e;
  }
}

hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len) {
  uint32_t h = hlo_hash_bytes(s, len);
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    hlo_istr *e = t->slots[i];
    if (!e) break;
    if (e->hash == h && e->len == len && same_bytes(hlo_istr_str(e), s, len)) return e;
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
