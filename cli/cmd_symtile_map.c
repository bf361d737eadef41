/* hloidx --symbolic-tile --map: the symbolic tile of each indexing map of
 * the input (XLA's text form, maps separated by blank lines, as --map
 * reads them; symbolic-tiles.md §2, §6).
 *
 * Output: each tile in XLA's text (analysis/tile_print.c), or `no symbolic
 * tile (WHY)` when XLA derives none (and for a map with max or min that
 * has none: symbolic_tile.c); several maps are separated by a blank line.
 * Exit status: 1 if a map could not be read or analysed (reported as
 * FILE:LINE:COL: error:), else 2 if some map has no tile, else 0. */
#include <stdio.h>

#include "../parser/base/arena.h"
#include "commands.h"
#include "inputs.h"
#include "map_read.h"
#include "output.h"
#include "../parser/base/strbuf.h"
#include "symbolic_tile.h"

static void run_file(inputs_run *r) {
  bool *none = r->cl;
  const source_file *src = r->src;
  size_t pos = 0, start, end;
  while (!output_failed() && map_read_next_chunk(src->data, src->len, &pos, &start, &end)) {
    hb_arena_reset(r->scratch);
    map_read_error err;
    imap *m = map_read(r->scratch, r->ctx, src->data, start, end, &err);
    if (!m) {
      inputs_error(r, err.offset, err.message);
      continue;
    }
    st_tile t;
    char why[400];
    st_status st = st_derive(r->scratch, m, r->o->xla_compat, &t, why, sizeof why);
    hb_sb_reset(&r->out);
    if (st == ST_OK && !st_print(&r->out, r->scratch, &t)) {
      st = ST_TOO_LARGE;
      snprintf(why, sizeof why, "the constraints exceed %d conjunctions even factor by factor", ST_MAX_DNF);
    }
    if (st == ST_TOO_LARGE) {
      char msg[480];
      snprintf(msg, sizeof msg, "analysis too large for this map: %s", why);
      inputs_error(r, start, msg);
      continue;
    }
    if (st == ST_NONE) {
      hb_sb_printf(&r->out, "no symbolic tile (%s)\n", why);
      *none = true;
    }
    inputs_emit(r);
  }
}

int cmd_symtile_map(const hloidx_options *o) {
  bool none = false;
  int rc = inputs_run_each(o, run_file, &none);
  return rc ? rc : none ? 2 : 0;
}
