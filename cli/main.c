/* hloidx entry point: parse options, run the chosen command. */
#include "commands.h"
#include "options.h"

int main(int argc, char **argv) {
  hloidx_options o;
  int rc = options_parse(argc, argv, &o);
  if (rc >= 0) return rc;
  switch (o.mode) {
  case MODE_CHECK: return cmd_check(&o);
  case MODE_MAP: return cmd_map(&o);
  case MODE_INDEX: return cmd_index(&o);
  case MODE_LAYOUT: return cmd_layout(&o);
  }
  return 3;
}
