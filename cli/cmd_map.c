/* hloidx --map: read indexing maps in XLA's text form, simplify each and
 * print it back in XLA's form.
 *
 * Input: maps separated by blank lines (a line holding only whitespace; lines
 * end at \n, \r\n or a bare \r, see map_read_next_chunk);
 * `//` comments are ignored. Each map is simplified exactly like XLA's
 * IndexingMap::Simplify() (replace-points mode, indexing-semantics.md §6.5).
 * Unused symbols are NOT removed: XLA's Simplify() keeps them, and so does
 * this command, so its output is the fixed point XLA's simplifier reaches
 * (the examples of XLA's indexing documentation are stated that way).
 *
 * Output: each map in the multi-line layout (header line ending in ',',
 * `domain:`, one entry per line with a trailing ',' on all but the last),
 * maps separated by a blank line. Removing all whitespace gives XLA's text.
 * A map that cannot be read is reported as FILE:LINE:COL: error: ... and
 * skipped; the exit status is then 1. */
#include <stdio.h>
#include <string.h>

#include "../parser/arena.h"
#include "affine_expr.h"
#include "commands.h"
#include "map_print.h"
#include "map_read.h"
#include "output.h"
#include "simplify.h"
#include "source.h"
#include "strbuf.h"

/* Node budget per map: a map whose simplification would create more
 * expression nodes than this is reported as too large. */
#define MAP_NODE_BUDGET ((size_t)4 << 20)

static int run_file(const source_file *src, ae_ctx *ctx, arena *scratch, strbuf *out, int *nprinted) {
  int rc = 0;
  const char *s = src->data;
  size_t pos = 0, start, end;
  while (map_read_next_chunk(s, src->len, &pos, &start, &end)) {
    arena_reset(scratch);
    map_read_error err;
    imap *m = map_read(scratch, ctx, s, start, end, &err);
    if (!m) {
      output_sync();
      diag_error(src, err.offset, err.message);
      rc = 1;
      continue;
    }
    if (imap_simplify_budgeted(m, SIMPLIFY_REPLACE_POINTS, MAP_NODE_BUDGET) != SIMPLIFY_OK) {
      char msg[160];
      snprintf(msg, sizeof msg, "analysis too large for this map: simplifying it exceeds the budget of %zu expression nodes",
               MAP_NODE_BUDGET);
      output_sync();
      diag_error(src, start, msg);
      rc = 1;
      continue;
    }
    sb_reset(out);
    if ((*nprinted)++) sb_putc(out, '\n');
    map_print_opts po = {true, 0};
    map_print(out, m, &po);
    sb_putc(out, '\n');
    if (!output_write(out->data, out->len)) break;
  }
  return rc;
}

int cmd_map(const hloidx_options *o) {
  int rc = 0, nprinted = 0;
  ae_ctx *ctx = ae_ctx_new();
  arena *scratch = arena_new();
  strbuf out = STRBUF_INIT;
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int i = 0; i < nfiles && !output_failed(); i++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[i] : "-", &src)) {
      rc = 1;
      continue;
    }
    if (run_file(&src, ctx, scratch, &out, &nprinted)) rc = 1;
    source_free(&src);
  }
  sb_free(&out);
  arena_free(scratch);
  ae_ctx_free(ctx);
  return rc;
}
