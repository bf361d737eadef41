/* hloidx entry point: parse options, run the chosen command. */
#include <stdlib.h> /* first: any libc header defines __GLIBC__, tested below */

#include "commands.h"
#include "options.h"
#include "output.h"
#include "source.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char **argv) {
#ifdef __GLIBC__
  /* Arenas take blocks of 64 KiB to 64 MiB and give them back per module
   * and per analysed instruction. By default glibc serves blocks above its
   * mmap threshold (128 KiB at first) with fresh mappings, and every reuse then pays page
   * faults on zeroed pages; keeping them in the heap lets them be reused. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest value on 64-bit targets */
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  hloidx_options o;
  int rc = options_parse(argc, argv, &o);
  if (rc >= 0) return output_close(rc); /* --help, --version, usage errors */
  if (output_open(o.out_path)) return 1;
  diag_set_policy(o.quiet, o.fatal_warnings);
  switch (o.mode) {
  case MODE_CHECK: rc = cmd_check(&o); break;
  case MODE_MAP: rc = cmd_map(&o); break;
  case MODE_INDEX: rc = cmd_index(&o); break;
  case MODE_LAYOUT: rc = cmd_layout(&o); break;
  case MODE_COMPARE: rc = cmd_compare(&o); break;
  default: rc = 3; break;
  }
  if (o.fatal_warnings && diag_warning_count() && rc == 0) rc = 1;
  /* every mode: a write error is exit status 1 (cli/output.h) */
  return output_close(rc);
}
