/* --check: parse and verify every input; print nothing when all are valid. */
#include <stdio.h>

#include "commands.h"
#include "hlo_ir.h"
#include "source.h"

/* Modules are released as soon as they are verified. */
static int drop_module(hlo_module *m, void *ctx) {
  (void)ctx;
  hlo_module_free(m);
  return 0;
}

static int check_one(const char *path) {
  source_file src;
  if (source_read(path, &src)) return 1;
  hlo_error err;
  int rc = 0;
  if (hlo_parse_file_each(src.data, src.len, drop_module, NULL, &err)) {
    diag_error(&src, err.offset, err.message);
    rc = 1;
  }
  source_free(&src);
  return rc;
}

int cmd_check(const hloidx_options *o) {
  if (o->nfiles == 0) return check_one("-");
  for (int i = 0; i < o->nfiles; i++)
    if (check_one(o->files[i])) return 1;
  return 0;
}
