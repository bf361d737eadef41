/* XLA's text of a symbolic tile (symbolic-tiles.md §4), mlir era: the
 * maps print as headers only (no domain), runtime variables as s<k>, and
 * the lines are indented by two spaces instead of XLA's tab (the checker
 * and XLA's tests compare modulo whitespace). */
#include <inttypes.h>

#include "map_print.h"
#include "symbolic_tile.h"

static void put_map(hb_strbuf *b, const st_tile *t, const ae *const *res, uint32_t nsyms) {
  hb_sb_putc(b, '(');
  for (uint32_t i = 0; i < t->ndims; i++) hb_sb_printf(b, "%sd%" PRIu32, i ? ", " : "", i);
  hb_sb_putc(b, ')');
  if (nsyms) {
    hb_sb_putc(b, '[');
    for (uint32_t i = 0; i < nsyms; i++) hb_sb_printf(b, "%ss%" PRIu32, i ? ", " : "", i);
    hb_sb_putc(b, ']');
  }
  hb_sb_puts(b, " -> (");
  for (uint32_t j = 0; j < t->nresults; j++) {
    if (j) hb_sb_puts(b, ", ");
    map_print_expr(b, res[j], nsyms); /* symbol p < nsyms prints as s<p> */
  }
  hb_sb_putc(b, ')');
}

bool st_print(hb_strbuf *b, hb_arena *a, const st_tile *t) {
  size_t start = b->len;
  hb_sb_puts(b, "Symbolic tile with\n  offset_map: ");
  put_map(b, t, t->offsets, t->nrt);
  hb_sb_puts(b, "\n  size_map: ");
  put_map(b, t, t->sizes, 0);
  hb_sb_puts(b, "\n  stride_map: ");
  put_map(b, t, t->strides, 0);
  hb_sb_putc(b, '\n');
  if (t->nrt) {
    hb_sb_puts(b, "  rt_vars:");
    for (uint32_t i = 0; i < t->nrt; i++)
      hb_sb_printf(b, " s%" PRIu32 " in [%" PRId64 ", %" PRId64 "],", i, t->rt_iv[i].lo, t->rt_iv[i].hi);
    hb_sb_putc(b, '\n');
  }
  size_t before = b->len;
  hb_sb_puts(b, "  constraints: ");
  switch (tc_print(b, a, &t->cons, ST_MAX_DNF)) {
  case TC_PRINT_ALWAYS: b->len = before; break;
  case TC_PRINT_OK: hb_sb_putc(b, '\n'); break;
  case TC_PRINT_TOO_LARGE: b->len = start; break;
  }
  if (b->data) b->data[b->len] = '\0';
  return b->len != start;
}
