#include "arena.h"
#include "oom.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_ARENA_BLOCK_MIN ((size_t)64 * 1024)

typedef struct hb_arena_block {
  struct hb_arena_block *next;
  size_t size;        /* usable bytes after the header */
  max_align_t data[]; /* aligned start of the payload */
} block;

#ifndef HLOIDX_ARENA_MALLOC
static size_t align_up(size_t n, size_t align) {
  if (n > SIZE_MAX - (align - 1)) hb_oom();
  return (n + align - 1) & ~(align - 1);
}
#endif

struct hb_arena_adopted {
  struct hb_arena_adopted *next;
  void *p;
};

static void free_adopted(hb_arena *a) {
  for (struct hb_arena_adopted *x = a->adopted; x; x = x->next) free(x->p);
  a->adopted = NULL; /* (the records were in the arena's blocks) */
}

void hb_arena_adopt(hb_arena *a, void *p) {
  struct hb_arena_adopted *x = hb_arena_alloc_small(a, sizeof *x);
  x->p = p;
  x->next = a->adopted;
  a->adopted = x;
}

static block *block_new(size_t size) {
  if (size > SIZE_MAX - sizeof(block)) hb_oom();
  block *b = malloc(sizeof(block) + size);
  if (!b) hb_oom();
  b->next = NULL;
  b->size = size;
  return b;
}

hb_arena *hb_arena_new(void) {
  hb_arena *a = calloc(1, sizeof *a);
  if (!a) hb_oom();
  return a;
}

static void free_list(block *b) {
  for (block *n; b; b = n) {
    n = b->next;
    free(b);
  }
}

void hb_arena_free(hb_arena *a) {
  if (!a) return;
  free_adopted(a);
  free_list(a->head);
  free_list(a->spare);
  free(a);
}

void hb_arena_reset_keep(hb_arena *a) {
  free_adopted(a);
#ifdef HLOIDX_ARENA_MALLOC
  hb_arena_reset(a); /* (exact blocks for ASan: nothing to keep) */
#else
  /* oldest first, as they were filled: the next fill takes them in the
   * same order and touches the same pages (largest first, it would touch
   * all of every block) */
  block *rev = a->spare; /* (reversed onto the spares: the newest ends up just before them) */
  for (block *b = a->head, *n; b; b = n) {
    n = b->next;
    b->next = rev;
    rev = b;
  }
  a->spare = rev;
  a->head = NULL;
  a->cur = a->end = NULL;
  a->total = 0;
#endif
}

bool hb_arena_rollback(hb_arena *a, hb_arena_mark m) {
#ifdef HLOIDX_ARENA_MALLOC
  while (a->head && (const void *)a->head != m.head) { /* (a block per allocation, newest first) */
    block *b = a->head;
    a->head = b->next;
    free(b);
  }
#else
  if ((const void *)a->head != m.head) return false;
  a->cur = m.cur;
#endif
  a->total = m.total;
  return true;
}

void hb_arena_reset(hb_arena *a) {
  free_adopted(a);
  free_list(a->spare);
  a->spare = NULL;
  block *keep = NULL;
  for (block *b = a->head, *n; b; b = n) {
    n = b->next;
#ifndef HLOIDX_ARENA_MALLOC
    if (!n) { /* the oldest block is the first, smallest one: keep it */
      keep = b;
      break;
    }
#endif
    free(b);
  }
  if (keep) keep->next = NULL;
  a->head = keep;
  a->cur = keep ? (char *)keep->data : NULL;
  a->end = keep ? (char *)keep->data + keep->size : NULL;
  a->total = 0;
}

void *hb_arena_alloc_slow(hb_arena *a, size_t size, size_t align) {
  if (size == 0) size = 1;
#ifdef HLOIDX_ARENA_MALLOC
  /* Exact-size block so ASan flags any access past the object. */
  (void)align;
  block *b = block_new(size);
  b->next = a->head;
  a->head = b;
  a->total += size;
  return b->data;
#else
  size_t need = align_up(size, HB_ARENA_SMALL_ALIGN);
  block *b = a->head;
  uintptr_t p = b ? align_up((uintptr_t)a->cur, align) : 0;
  if (!b || p > (uintptr_t)a->end || (uintptr_t)a->end - p < need) {
    size_t bsize = HB_ARENA_BLOCK_MIN;
    if (b && b->size < ((size_t)64 << 20)) bsize = b->size * 2; /* geometric growth */
    if (bsize < need) bsize = need;
    if (b && a->cur == (char *)b->data) { /* never leave an empty block behind */
      a->head = b->next;
      free(b);
    }
    block **sp = &a->spare; /* a kept block that holds it, before a new one */
    while (*sp && (*sp)->size < need) sp = &(*sp)->next;
    if (*sp) {
      b = *sp;
      *sp = b->next;
    } else {
      b = block_new(bsize);
    }
    b->next = a->head;
    a->head = b;
    a->cur = (char *)b->data;
    a->end = a->cur + b->size;
    p = (uintptr_t)a->cur; /* (a block's data is aligned for any object) */
  }
  a->cur = (char *)p + need;
  a->total += size;
  return (void *)p;
#endif
}

void *hb_arena_dup(hb_arena *a, const void *src, size_t size) {
  void *p = hb_arena_alloc(a, size);
  if (size) memcpy(p, src, size);
  return p;
}

char *hb_arena_strndup(hb_arena *a, const char *s, size_t len) {
  if (len == SIZE_MAX) hb_oom();
  char *p = hb_arena_alloc(a, len + 1);
  if (len) memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

void *hb_arena_grow(hb_arena *a, void *old, size_t old_count, size_t new_count, size_t elem_size) {
  void *p = hb_arena_array(a, new_count, elem_size);
  size_t keep = old_count < new_count ? old_count : new_count;
  if (old && keep) memcpy(p, old, keep * elem_size);
  return p;
}

size_t hb_arena_used(const hb_arena *a) { return a->total; }
