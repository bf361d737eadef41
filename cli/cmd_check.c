/* --check: parse and verify every input; print nothing when all are valid. */
#include <stdio.h>

#include "commands.h"
#include "hlo_ir.h"
#include "source.h"

static int check_one(const char *path) {
  source_file src;
  if (source_read(path, &src)) return 1;
  hlo_parse_result res;
  hlo_error err;
  int rc = 0;
  if (hlo_parse_file(src.data, src.len, &res, &err)) {
    diag_error(&src, err.offset, err.message);
    rc = 1;
  } else {
    hlo_parse_result_free(&res);
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
