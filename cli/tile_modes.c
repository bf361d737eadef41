/* The tile modes of the instruction walk (cmd_index.c): which report runs.
 * All three work on logical out2in maps; which options they take is
 * options.c's (option_modes, check_combinations). */
#include "index_run.h"

extern const index_report index_report_symtile;     /* out_symtile.c */
extern const index_report index_report_tiles;       /* out_tiles.c */
extern const index_report index_report_tiles_json;  /* out_tiles_json.c */
extern const index_report index_report_tile_verify; /* out_tile_verify.c */
extern const index_report index_report_tilings;     /* out_tilings.c */

const index_report *tile_mode_report(const hloidx_options *o) {
  switch (o->mode) {
  case MODE_SYMTILE: return &index_report_symtile;
  case MODE_TILINGS: return &index_report_tilings;
  case MODE_TILES:
    return o->verify                ? &index_report_tile_verify
           : o->format == FMT_JSON ? &index_report_tiles_json
                                    : &index_report_tiles;
  default: return NULL;
  }
}
