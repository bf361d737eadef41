/* --check: parse and verify every input; print nothing when all are valid. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "hlo_ir.h"
#include "source.h"

/* Default --jobs: one thread per processor, at most 16. */
static int default_jobs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

static int check_one(const char *path, int jobs) {
  source_file src;
  if (source_read(path, &src)) return 1;
  hlo_error err;
  int rc = 0;
  if (hlo_check_text(src.data, src.len, jobs, &err)) {
    diag_error(&src, err.offset, err.message);
    rc = 1;
  }
  source_free(&src);
  return rc;
}

int cmd_check(const hloidx_options *o) {
  int jobs = o->jobs > 0 ? o->jobs : default_jobs();
  if (o->nfiles == 0) return check_one("-", jobs);
  for (int i = 0; i < o->nfiles; i++)
    if (check_one(o->files[i], jobs)) return 1;
  return 0;
}
