/* Region allocator: one arena per lifetime (module, expression context,
 * per-instruction scratch). Nothing allocated here is freed individually.
 *
 * With -DHLOIDX_ARENA_MALLOC=1 every allocation is its own malloc block so
 * AddressSanitizer can see overflows past the end of an object. */
#ifndef HLOIDX_ARENA_H
#define HLOIDX_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct arena arena;

/* Only cur and end are for the inline allocation below; the rest belongs to
 * arena.c. (With HLOIDX_ARENA_MALLOC both stay NULL: every allocation takes
 * the out-of-line path.) */
struct arena {
  char *cur;                /* free space of the current block ... */
  char *end;                /* ... up to here */
  size_t total;             /* bytes handed out */
  struct arena_block *head; /* current block (most recent first) */
};

arena *arena_new(void);
void arena_free(arena *a);
/* Drop every allocation but keep the first block for reuse. */
void arena_reset(arena *a);

/* Allocations are aligned for any object type. On out-of-memory the process
 * exits with status 1 (parser/oom.h): callers never see NULL. The usual
 * case (room in the current block) is inline; parsing allocates a lot. */
#define ARENA_ALIGN _Alignof(max_align_t)
void *arena_alloc_slow(arena *a, size_t size);
_Noreturn void arena_oom(void);

static inline void *arena_alloc(arena *a, size_t size) {
  size_t need = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  if (size - 1 < need && need <= (uintptr_t)a->end - (uintptr_t)a->cur) { /* size > 0, no overflow, room */
    void *p = a->cur;
    a->cur += need;
    a->total += size;
    return p;
  }
  return arena_alloc_slow(a, size);
}

static inline void *arena_zalloc(arena *a, size_t size) {
  void *p = arena_alloc(a, size);
  memset(p, 0, size ? size : 1);
  return p;
}

/* Array allocation with overflow check on count * size. */
static inline void *arena_array(arena *a, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) arena_oom();
  return arena_alloc(a, count * size);
}
void *arena_dup(arena *a, const void *src, size_t size);
/* NUL-terminated copy of len bytes. */
char *arena_strndup(arena *a, const char *s, size_t len);
/* Grow an array allocated in this arena: returns a new block of new_count
 * elements holding the first old_count elements of old (old is abandoned). */
void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem_size);

/* Bytes handed out since creation / last reset (for benchmarks). */
size_t arena_used(const arena *a);

#endif
