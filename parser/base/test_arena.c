/* The arena's two alignments (arena.h): hb_arena_alloc aligns for any
 * object, hb_arena_alloc_small to 8 bytes; mixed in one arena, across
 * block boundaries and resets, every object is aligned as asked, holds
 * its bytes (none overlaps another) and the zero-size ones are distinct.
 * A scratch vector's list goes into the arena: copied when it is small
 * or not the whole vector, handed over (hb_arena_adopt) when it is a large
 * whole vector, which then starts again empty; an adopted buffer is freed
 * by a reset, a reset that keeps the blocks and the arena's end (ASan's
 * leak check sees one left behind). A rollback (check_rollback). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "vec.h"
#include "../test_check.h"

enum { N = 20000 };

static void check_mixed(hb_arena *a) {
  static unsigned char *p[N];
  static size_t len[N];
  for (int i = 0; i < N; i++) {
    bool small = i % 3 != 0;
    len[i] = (size_t)(i * 7 % 61); /* 0..60 bytes: odd sizes, some zero */
    if (i % 997 == 0) len[i] = 70000; /* larger than the first block */
    p[i] = small ? hb_arena_alloc_small(a, len[i]) : hb_arena_alloc(a, len[i]);
    CHECK((uintptr_t)p[i] % (small ? 8 : _Alignof(max_align_t)) == 0);
    memset(p[i], i & 0xff, len[i]);
  }
  for (int i = 0; i < N; i++) {
    for (size_t j = 0; j < len[i]; j++)
      if (p[i][j] != (unsigned char)(i & 0xff)) {
        CHECK(!"an object's bytes were overwritten");
        return;
      }
    if (i && len[i] == 0 && len[i - 1] == 0) CHECK(p[i] != p[i - 1]);
  }
}

/* N int64 pushed on V from V's top; taken [b, top); checks the values. */
static int64_t *push_take(hb_arena *a, hb_vec *v, size_t b, size_t n) {
  for (size_t i = 0; i < n; i++) HB_PUSH(*v, int64_t, (int64_t)(i * 3));
  size_t top = v->n;
  int64_t *out = hb_vec_take(a, v, sizeof *out, b, top);
  CHECK(v->n == b);
  for (size_t i = 0; i < n; i++) CHECK(out[top - n - b + i] == (int64_t)(i * 3)); /* (the N pushed, last) */
  return out;
}

static void check_take(hb_arena *a) {
  hb_vec v = {0};
  int64_t *small = push_take(a, &v, 0, 100); /* copied: the vector keeps its buffer */
  CHECK(v.p != NULL && (void *)small != v.p);
  size_t big = HB_VEC_HANDOVER_MIN / sizeof(int64_t) + 1;
  HB_PUSH(v, int64_t, -1);
  int64_t *top = push_take(a, &v, 1, big); /* large, not the whole vector: copied */
  CHECK(v.n == 1 && (void *)top != v.p && HB_AT(v, int64_t, 0) == -1);
  v.n = 0;
  int64_t *whole = push_take(a, &v, 0, big); /* large and whole: handed over */
  CHECK(v.p == NULL && v.n == 0 && v.cap == 0 && whole[big - 1] == (int64_t)((big - 1) * 3));
  push_take(a, &v, 0, 10); /* the vector grows again from nothing */
  hb_vec_free(&v);
}

/* A rollback gives back what was allocated since its mark (the next
 * allocation reuses the place, where the arena is not one block per
 * allocation) and keeps what came before; across a new block it gives
 * back nothing, or (one block per allocation) frees the blocks since. */
static void check_rollback(hb_arena *a) {
  char *keep = hb_arena_alloc_small(a, 16);
  memset(keep, 7, 16);
  size_t used = hb_arena_used(a);
  hb_arena_mark m = hb_arena_mark_now(a);
  char *gone = hb_arena_alloc_small(a, 40);
  memset(gone, 9, 40);
  CHECK(hb_arena_rollback(a, m) && hb_arena_used(a) == used);
  char *next = hb_arena_alloc_small(a, 40);
#ifndef HLOIDX_ARENA_MALLOC
  CHECK(next == gone);
#endif
  memset(next, 5, 40);
  CHECK(keep[0] == 7 && keep[15] == 7);
  m = hb_arena_mark_now(a);
  used = hb_arena_used(a);
  (void)hb_arena_alloc_small(a, 1 << 20); /* (past any block so far: a new one) */
#ifdef HLOIDX_ARENA_MALLOC
  CHECK(hb_arena_rollback(a, m) && hb_arena_used(a) == used);
#else
  CHECK(!hb_arena_rollback(a, m) && hb_arena_used(a) > used);
#endif
  CHECK(keep[0] == 7 && next[39] == 5);
}

int main(void) {
  hb_arena *a = hb_arena_new();
  check_rollback(a);
  check_take(a);
  hb_arena_reset(a);
  check_take(a);
  hb_arena_reset_keep(a);
  check_take(a);
  check_mixed(a);
  hb_arena_reset(a);
  check_mixed(a);
  /* emptied with its blocks kept, filled again (from the kept blocks:
   * the bytes handed out restart at 0), twice */
  for (int k = 0; k < 2; k++) {
    hb_arena_reset_keep(a);
    CHECK(hb_arena_used(a) == 0);
    check_mixed(a);
  }
  hb_arena_reset(a); /* (frees the kept ones: ASan would see a leak) */
  check_mixed(a);
  hb_arena_reset_keep(a);
  int64_t *v = hb_arena_array_small(a, 3, sizeof *v);
  CHECK((uintptr_t)v % 8 == 0);
  long double *d = hb_arena_zalloc(a, sizeof *d); /* (an object that needs max_align_t) */
  CHECK((uintptr_t)d % _Alignof(max_align_t) == 0 && *d == 0);
  check_take(a); /* (freed with the arena) */
  hb_arena_free(a);
  return failures != 0;
}
