/* hloidx entry point: parse options, run the chosen command. */
#include <stdlib.h> /* first: any libc header defines __GLIBC__, tested below */

#include <stdbool.h>

#include "commands.h"
#include "hlo_ir.h"
#include "inputs.h"
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
  if (rc >= 0) { /* --help, --version, usage errors */
    options_free(&o);
    return output_close(rc);
  }
  if (output_open(o.out_path)) {
    options_free(&o);
    return 1;
  }
  diag_set_policy(o.quiet, o.fatal_warnings);
  hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = o.allow_unknown, .no_verify = o.no_verify});
  bool named = o.nfiles > 0;
  int inputs_rc = inputs_expand(&o);
  if (named && o.nfiles == 0) {
    rc = inputs_rc; /* nothing left to read (not standard input) */
  } else {
    switch (o.mode) {
    case MODE_CHECK: rc = cmd_check(&o); break;
    case MODE_MAP: rc = cmd_map(&o); break;
    case MODE_INDEX: rc = cmd_index(&o); break;
    case MODE_LAYOUT: rc = cmd_layout(&o); break;
    case MODE_LIST: rc = cmd_list(&o); break;
    case MODE_COMPARE: rc = cmd_compare(&o); break;
    case MODE_SHAPE_STRIDE: rc = cmd_shape_stride(&o); break;
    case MODE_SYMTILE: rc = o.map_input ? cmd_symtile_map(&o) : cmd_index(&o); break;
    case MODE_TILES:
    case MODE_TILINGS: rc = cmd_index(&o); break;
    default: rc = 3; break;
    }
    if (rc == 0) rc = inputs_rc;
  }
  if (o.fatal_warnings && diag_warning_count() && rc == 0) rc = 1;
  options_free(&o);
  /* every mode: a write error is exit status 1 (cli/output.h) */
  return output_close(rc);
}
