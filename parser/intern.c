#include "intern.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/oom.h"

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
/* A buffer of this many slots (1 MiB) or more that the table has grown
 * out of, too small for its next growth, is freed at once: a large
 * module's peak does not hold it, and many small modules still reuse
 * their two buffers. */
#define KEEP_SLOTS_MAX ((size_t)64 * 1024)

/* The slots live in one of two buffers, kept from module to module: a
 * module starts on the first MIN_SLOTS slots of one (its other slots hold
 * older generations: empty), and growing moves the strings to the other
 * buffer under a new generation, so neither a module's start nor a growth
 * allocates or zeroes memory once the buffers are as large as the largest
 * module needed (a large table kept for the small modules would spread
 * their few strings over many cache lines). */
struct hlo_intern {
  hb_arena *a;
  slot *buf[2];
  size_t cap[2]; /* slots of each buffer */
  int cur;       /* the buffer in use */
  slot *slots;   /* buf[cur], first mask + 1 of them in use */
  size_t mask;   /* slots in use - 1 (a power of two - 1) */
  size_t count;  /* strings of this generation */
  uint32_t gen;  /* never 0: calloc'd slots are empty */
};

hlo_intern *hlo_intern_new(hb_arena *a) {
  hlo_intern *t = hb_calloc(1, sizeof *t);
  t->a = a;
  t->gen = 1;
  for (int i = 0; i < 2; i++) {
    t->buf[i] = hb_calloc(MIN_SLOTS, sizeof(slot));
    t->cap[i] = MIN_SLOTS;
  }
  t->slots = t->buf[0];
  t->mask = MIN_SLOTS - 1;
  return t;
}

void hlo_intern_free(hlo_intern *t) {
  if (!t) return;
  free(t->buf[0]);
  free(t->buf[1]);
  free(t);
}

/* A generation no slot of either buffer has: the next one, or after the
 * counter wraps around, 1 with both buffers emptied (KEEP, the buffer in
 * use, is emptied by the caller once its strings are moved). */
static uint32_t next_gen(hlo_intern *t, int keep) {
  if (t->gen + 1 != 0) return t->gen + 1;
  for (int i = 0; i < 2; i++)
    if (i != keep && t->buf[i]) memset(t->buf[i], 0, t->cap[i] * sizeof(slot));
  return 1;
}

void hlo_intern_set_gen(hlo_intern *t, uint32_t gen) { t->gen = gen; }

void hlo_intern_reset(hlo_intern *t, hb_arena *a) {
  t->a = a;
  t->gen = next_gen(t, -1);
  t->mask = MIN_SLOTS - 1;
  t->count = 0;
}

static void grow(hlo_intern *t) {
  size_t old_n = t->mask + 1, n = old_n * 2;
  int to = t->cur ^ 1;
  if (t->cap[to] < n) {
    free(t->buf[to]);
    t->buf[to] = hb_calloc(n, sizeof(slot));
    t->cap[to] = n;
  }
  slot *old = t->slots, *nw = t->buf[to];
  uint32_t gen = t->gen, ngen = next_gen(t, t->cur);
  for (size_t i = 0; i < old_n; i++) {
    if (old[i].gen != gen) continue;
    size_t j = old[i].hash & (n - 1);
    while (nw[j].gen == ngen) j = (j + 1) & (n - 1);
    nw[j] = (slot){old[i].hash, ngen, old[i].e};
  }
  if (ngen == 1) memset(old, 0, t->cap[t->cur] * sizeof(slot)); /* (wrapped around) */
  if (t->cap[t->cur] >= KEEP_SLOTS_MAX && t->cap[t->cur] < 2 * n) { /* (the next growth would replace it) */
    free(t->buf[t->cur]);
    t->buf[t->cur] = NULL;
    t->cap[t->cur] = 0;
  }
  t->cur = to;
  t->slots = nw;
  t->mask = n - 1;
  t->gen = ngen;
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
  uint32_t gen = t->gen;
  size_t i = h & t->mask;
  for (;; i = (i + 1) & t->mask) {
    const slot *sl = &t->slots[i];
    if (sl->gen != gen) break;
    hlo_istr *e = sl->e;
    if (sl->hash == h && e->len == len && hlo_same_bytes(hlo_istr_str(e), s, len)) return e;
  }
  hlo_istr *e = hb_arena_alloc_small(t->a, sizeof *e + len + 1);
  memset(e, 0, sizeof *e);
  e->len = (uint32_t)len;
  e->opcode = -1;
  e->attr = -1;
  char *p = (char *)(e + 1);
  copy_short(p, s, len);
  p[len] = '\0';
  t->slots[i] = (slot){h, gen, e};
  if (++t->count * 4 > (t->mask + 1) * 3) grow(t); /* load 3/4: the hash in the slot keeps probes cheap */
  return e;
}

const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len) {
  return hlo_istr_str(hlo_intern_get(t, s, len));
}
