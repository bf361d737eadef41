/* Region allocator: one arena per lifetime (module, expression context,
 * per-instruction scratch). Nothing allocated here is freed individually.
 *
 * With -DHLOIDX_ARENA_MALLOC=1 every allocation is its own malloc block so
 * AddressSanitizer can see overflows past the end of an object. */
#ifndef HLOIDX_ARENA_H
#define HLOIDX_ARENA_H

#include <stddef.h>

typedef struct arena arena;

arena *arena_new(void);
void arena_free(arena *a);
/* Drop every allocation but keep the first block for reuse. */
void arena_reset(arena *a);

/* Allocations are aligned for any object type. On out-of-memory the process
 * exits with status 3 (internal error): callers never see NULL. */
void *arena_alloc(arena *a, size_t size);
void *arena_zalloc(arena *a, size_t size);
/* Array allocation with overflow check on count * size. */
void *arena_array(arena *a, size_t count, size_t size);
void *arena_dup(arena *a, const void *src, size_t size);
/* NUL-terminated copy of len bytes. */
char *arena_strndup(arena *a, const char *s, size_t len);
/* Grow an array allocated in this arena: returns a new block of new_count
 * elements holding the first old_count elements of old (old is abandoned). */
void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem_size);

/* Bytes handed out since creation / last reset (for benchmarks). */
size_t arena_used(const arena *a);

#endif
