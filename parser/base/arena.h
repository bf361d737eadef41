/* Region allocator: one arena per lifetime (module, expression context,
 * per-instruction scratch). Nothing allocated here is freed individually.
 *
 * With -DHLOIDX_ARENA_MALLOC=1 every allocation is its own malloc block so
 * AddressSanitizer can see overflows past the end of an object. */
#ifndef HB_ARENA_H
#define HB_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "oom.h"

typedef struct hb_arena hb_arena;

/* Only cur and end are for the inline allocation below; the rest belongs to
 * arena.c. (With HLOIDX_ARENA_MALLOC both stay NULL: every allocation takes
 * the out-of-line path.) */
struct hb_arena {
  char *cur;                /* free space of the current block ... */
  char *end;                /* ... up to here */
  size_t total;             /* bytes handed out */
  struct hb_arena_block *head; /* current block (most recent first) */
  struct hb_arena_block *spare; /* blocks kept by hb_arena_reset_keep, in the order they were filled */
  struct hb_arena_adopted *adopted; /* malloc'd buffers freed with the arena (hb_arena_adopt) */
};

hb_arena *hb_arena_new(void);
void hb_arena_free(hb_arena *a);
/* Drop every allocation but keep the first block for reuse. */
void hb_arena_reset(hb_arena *a);
/* Drop every allocation and keep every block for the next ones: for an
 * arena emptied and filled again with about as much, many times (one
 * tiling after another), where giving its large blocks back to the system
 * and faulting them in again would cost more than the work in them. */
void hb_arena_reset_keep(hb_arena *a);

/* Allocations are aligned for any object type. On out-of-memory the process
 * exits with status 1 (oom.h): callers never see NULL. The usual
 * case (room in the current block) is inline; parsing allocates a lot.
 * The _small variants align to 8 bytes only, for the many small objects
 * of the IR that hold no 16-byte member (instructions, names, operand
 * and integer arrays): their sizes round up to 8, not 16. */
#define HB_ARENA_ALIGN _Alignof(max_align_t)
#define HB_ARENA_SMALL_ALIGN ((size_t)8)
void *hb_arena_alloc_slow(hb_arena *a, size_t size, size_t align);

static inline void *hb_arena_alloc_aligned_(hb_arena *a, size_t size, size_t align) {
  size_t need = (size + HB_ARENA_SMALL_ALIGN - 1) & ~(HB_ARENA_SMALL_ALIGN - 1);
  uintptr_t p = ((uintptr_t)a->cur + (align - 1)) & ~(uintptr_t)(align - 1);
  if (size - 1 < need && p >= (uintptr_t)a->cur && p <= (uintptr_t)a->end && need <= (uintptr_t)a->end - p) {
    a->cur = (char *)p + need; /* (size > 0, no overflow, room) */
    a->total += size;
    return (void *)p;
  }
  return hb_arena_alloc_slow(a, size, align);
}

static inline void *hb_arena_alloc(hb_arena *a, size_t size) { return hb_arena_alloc_aligned_(a, size, HB_ARENA_ALIGN); }
static inline void *hb_arena_alloc_small(hb_arena *a, size_t size) {
  return hb_arena_alloc_aligned_(a, size, HB_ARENA_SMALL_ALIGN);
}

static inline void *hb_arena_zalloc(hb_arena *a, size_t size) {
  void *p = hb_arena_alloc(a, size);
  memset(p, 0, size ? size : 1);
  return p;
}

static inline void *hb_arena_zalloc_small(hb_arena *a, size_t size) {
  void *p = hb_arena_alloc_small(a, size);
  memset(p, 0, size ? size : 1);
  return p;
}

/* Array allocation with overflow check on count * size. */
static inline void *hb_arena_array(hb_arena *a, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) hb_oom();
  return hb_arena_alloc(a, count * size);
}
static inline void *hb_arena_array_small(hb_arena *a, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) hb_oom();
  return hb_arena_alloc_small(a, count * size);
}
void *hb_arena_dup(hb_arena *a, const void *src, size_t size);
/* Makes the malloc'd buffer P part of the arena: freed when the arena is
 * reset or freed (a large list handed over instead of copied). */
void hb_arena_adopt(hb_arena *a, void *p);
/* NUL-terminated copy of len bytes. */
char *hb_arena_strndup(hb_arena *a, const char *s, size_t len);
/* Grow an array allocated in this arena: returns a new block of new_count
 * elements holding the first old_count elements of old (old is abandoned). */
void *hb_arena_grow(hb_arena *a, void *old, size_t old_count, size_t new_count, size_t elem_size);

/* A point in an arena's allocations, to give back to (hb_arena_rollback). */
typedef struct {
  const void *head; /* the current block then */
  char *cur;
  size_t total;
} hb_arena_mark;
static inline hb_arena_mark hb_arena_mark_now(const hb_arena *a) { return (hb_arena_mark){a->head, a->cur, a->total}; }
/* Gives back every allocation made since M; nothing may point into them
 * any more. False, and nothing given back, when they did not all fit in
 * the block M was taken in (a rare loss, not an error). With
 * HLOIDX_ARENA_MALLOC the blocks made since M are freed, so that
 * AddressSanitizer sees any later use of them. */
bool hb_arena_rollback(hb_arena *a, hb_arena_mark m);

/* Bytes handed out since creation / last reset (for benchmarks). */
size_t hb_arena_used(const hb_arena *a);

#endif
