#include "oom.h"

#include <stdio.h>

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
