/* The one out-of-memory policy of hloidx (parser, arena, analysis, cli):
 * like an unreadable input, `hloidx: error: FILE: out of memory` (FILE:
 * the input being read or analysed on this thread, which the cli sets)
 * and exit status 1. Callers never see NULL from these helpers. */
#ifndef HB_OOM_H
#define HB_OOM_H

#include <stdlib.h>

/* The input the current thread works on (NULL: none); the cli sets it. */
extern _Thread_local const char *hb_oom_file;

_Noreturn void hb_oom(void);

static inline void *hb_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) hb_oom();
  return p;
}
static inline void *hb_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) hb_oom();
  return p;
}
/* Gives the whole free pages inside the heap back to the system: a list
 * that grew past HB_TRIM_MIN by moving left its old buffer as a hole, which
 * otherwise stays resident (the arenas' larger blocks never fit in it) --
 * a few MB of a 100,000-instruction module's peak. */
#define HB_TRIM_MIN ((size_t)1 << 20)
void hb_trim(void);
static inline void *hb_realloc(void *old, size_t n) {
  void *p = realloc(old, n ? n : 1);
  if (!p) hb_oom();
  if (old && p != old && n >= HB_TRIM_MIN) hb_trim();
  return p;
}

#endif
