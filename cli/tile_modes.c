/* The tile modes of the instruction walk (cmd_index.c): which report runs
 * and which options they take. All three work on logical out2in maps. */
#include <stdio.h>

#include "index_run.h"

extern const index_report index_report_symtile;     /* out_symtile.c */
extern const index_report index_report_tiles;       /* out_tiles.c */
extern const index_report index_report_tiles_json;  /* out_tiles_json.c */
extern const index_report index_report_tile_verify; /* out_tile_verify.c */
extern const index_report index_report_tilings;     /* out_tilings.c */

static int usage(const char *msg) {
  fprintf(stderr, "hloidx: error: %s\nTry 'hloidx --help' for more information.\n", msg);
  return 2;
}

int tile_mode_report(const hloidx_options *o, const index_report **rep) {
  *rep = NULL;
  bool tiles = o->mode == MODE_TILES, tilings = o->mode == MODE_TILINGS;
  if (o->mode != MODE_SYMTILE && !tiles && !tilings) {
    if (o->n_tile_sizes) return usage("--tile-sizes applies to --tiles");
    return -1;
  }
  if (o->physical != PHYS_NONE) return usage("tiles are of logical indices: --physical does not apply");
  if (o->direction != DIR_BOTH) return usage("tiles follow out2in maps: --direction does not apply");
  if (o->summary) return usage("--summary does not apply to the tile modes");
  if (o->format == FMT_MLIR) return usage("the tile modes print text or JSON (--format=mlir prints maps)");
  if (o->mode == MODE_SYMTILE) {
    if (o->format != FMT_TEXT) return usage("--symbolic-tile prints XLA's text (no --format=json)");
    if (o->verify) return usage("--verify checks tiles with --tiles");
    if (o->n_tile_sizes) return usage("--tile-sizes applies to --tiles");
    *rep = &index_report_symtile;
    return -1;
  }
  if (tilings) {
    if (o->verify) return usage("--verify checks tiles with --tiles");
    if (o->format != FMT_TEXT) return usage("--tilings prints text (--tiles --format=json has the tiles of one tiling)");
    if (o->n_tile_sizes) return usage("--tile-sizes applies to --tiles (--tilings enumerates them)");
    *rep = &index_report_tilings;
    return -1;
  }
  if (o->verify && o->format != FMT_TEXT) return usage("--verify prints a text report");
  *rep = o->verify ? &index_report_tile_verify : o->format == FMT_JSON ? &index_report_tiles_json : &index_report_tiles;
  return -1;
}
