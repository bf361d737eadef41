/* hloidx entry point: parse options, run the chosen command. */
#include <stdlib.h> /* first: any libc header defines __GLIBC__, tested below */

#include "commands.h"
#include "hlo_ir.h"
#include "options.h"

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
  if (rc >= 0) return rc;
  hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = o.allow_unknown, .no_verify = o.no_verify});
  switch (o.mode) {
  case MODE_CHECK: return cmd_check(&o);
  case MODE_MAP: return cmd_map(&o);
  case MODE_INDEX: return cmd_index(&o);
  case MODE_LAYOUT: return cmd_layout(&o);
  }
  return 3;
}
