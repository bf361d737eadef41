/* The one out-of-memory policy of hloidx (parser, arena, analysis, cli):
 * message and exit status 3 (internal error). Callers never see NULL from
 * these helpers. */
#ifndef HLOIDX_OOM_H
#define HLOIDX_OOM_H

#include <stdio.h>
#include <stdlib.h>

static inline _Noreturn void hloidx_oom(void) {
  fputs("hloidx: internal error: out of memory\n", stderr);
  exit(3);
}
static inline void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) hloidx_oom();
  return p;
}
static inline void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) hloidx_oom();
  return p;
}
static inline void *xrealloc(void *old, size_t n) {
  void *p = realloc(old, n ? n : 1);
  if (!p) hloidx_oom();
  return p;
}

#endif
