#include "oom.h"

#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

_Thread_local const char *hb_oom_file;

_Noreturn void hb_oom(void) {
  /* fputs: no formatting that could itself need memory */
  fputs("hloidx: error: ", stderr);
  if (hb_oom_file) {
    fputs(hb_oom_file, stderr);
    fputs(": ", stderr);
  }
  fputs("out of memory\n", stderr);
  exit(1);
}

void hb_trim(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}
