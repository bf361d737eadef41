#include "oom.h"

#include <stdio.h>

_Thread_local const char *hloidx_oom_file;

_Noreturn void hloidx_oom(void) {
  /* fputs: no formatting that could itself need memory */
  fputs("hloidx: error: ", stderr);
  if (hloidx_oom_file) {
    fputs(hloidx_oom_file, stderr);
    fputs(": ", stderr);
  }
  fputs("out of memory\n", stderr);
  exit(1);
}
