/* hloidx --symbolic-tile --map: the symbolic tile of each indexing map of
 * the input (XLA's text form, maps separated by blank lines, as --map
 * reads them; symbolic-tiles.md §2, §6).
 *
 * Output: each tile in XLA's text (analysis/tile_print.c), or `no symbolic
 * tile (WHY)` when XLA derives none; several maps are separated by a blank
 * line. Exit status: 1 if a map could not be read or analysed (reported as
 * FILE:LINE:COL: error:), else 2 if some map has no tile, else 0. */
#include <stdio.h>

#include "../parser/arena.h"
#include "commands.h"
#include "map_read.h"
#include "source.h"
#include "strbuf.h"
#include "symbolic_tile.h"

static int run_file(const source_file *src, bool xla_compat, ae_ctx *ctx, arena *scratch, strbuf *out, int *nprinted, bool *none) {
  int rc = 0;
  size_t pos = 0, start, end;
  while (map_read_next_chunk(src->data, src->len, &pos, &start, &end)) {
    arena_reset(scratch);
    map_read_error err;
    imap *m = map_read(scratch, ctx, src->data, start, end, &err);
    if (!m) {
      diag_error(src, err.offset, err.message);
      rc = 1;
      continue;
    }
    st_tile t;
    char why[400];
    st_status st = st_derive(scratch, m, xla_compat, &t, why, sizeof why);
    sb_reset(out);
    if (st == ST_OK && !st_print(out, scratch, &t)) {
      st = ST_TOO_LARGE;
      snprintf(why, sizeof why, "the constraints exceed %d conjunctions even factor by factor", ST_MAX_DNF);
    }
    if (st == ST_TOO_LARGE) {
      char msg[480];
      snprintf(msg, sizeof msg, "analysis too large for this map: %s", why);
      diag_error(src, start, msg);
      rc = 1;
      continue;
    }
    if (st == ST_NONE) {
      sb_printf(out, "no symbolic tile (%s)\n", why);
      *none = true;
    }
    if ((*nprinted)++) fputc('\n', stdout);
    fwrite(out->data, 1, out->len, stdout);
  }
  return rc;
}

int cmd_symtile_map(const hloidx_options *o) {
  int rc = 0, nprinted = 0;
  bool none = false;
  ae_ctx *ctx = ae_ctx_new();
  arena *scratch = arena_new();
  strbuf out = STRBUF_INIT;
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int i = 0; i < nfiles; i++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[i] : "-", &src)) {
      rc = 1;
      continue;
    }
    if (run_file(&src, o->xla_compat, ctx, scratch, &out, &nprinted, &none)) rc = 1;
    source_free(&src);
  }
  sb_free(&out);
  arena_free(scratch);
  ae_ctx_free(ctx);
  if (fflush(stdout) != 0) {
    fputs("hloidx: error: cannot write the output\n", stderr);
    return 3;
  }
  return rc ? rc : none ? 2 : 0;
}
