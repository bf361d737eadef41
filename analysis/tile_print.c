/* XLA's text of a symbolic tile (symbolic-tiles.md §4), mlir era: the
 * maps print as headers only (no domain), runtime variables as s<k>, and
 * the lines are indented by two spaces instead of XLA's tab (the checker
 * and XLA's tests compare modulo whitespace). */
#include <inttypes.h>

#include "map_print.h"
#include "symbolic_tile.h"

static void put_map(strbuf *b, const st_tile *t, const ae *const *res, uint32_t nsyms) {
  sb_putc(b, '(');
  for (uint32_t i = 0; i < t->ndims; i++) sb_printf(b, "%sd%" PRIu32, i ? ", " : "", i);
  sb_putc(b, ')');
  if (nsyms) {
    sb_putc(b, '[');
    for (uint32_t i = 0; i < nsyms; i++) sb_printf(b, "%ss%" PRIu32, i ? ", " : "", i);
    sb_putc(b, ']');
  }
  sb_puts(b, " -> (");
  for (uint32_t j = 0; j < t->nresults; j++) {
    if (j) sb_puts(b, ", ");
    map_print_expr(b, res[j], nsyms); /* symbol p < nsyms prints as s<p> */
  }
  sb_putc(b, ')');
}

bool st_print(strbuf *b, arena *a, const st_tile *t) {
  size_t start = b->len;
  sb_puts(b, "Symbolic tile with\n  offset_map: ");
  put_map(b, t, t->offsets, t->nrt);
  sb_puts(b, "\n  size_map: ");
  put_map(b, t, t->sizes, 0);
  sb_puts(b, "\n  stride_map: ");
  put_map(b, t, t->strides, 0);
  sb_putc(b, '\n');
  if (t->nrt) {
    sb_puts(b, "  rt_vars:");
    for (uint32_t i = 0; i < t->nrt; i++)
      sb_printf(b, " s%" PRIu32 " in [%" PRId64 ", %" PRId64 "],", i, t->rt_iv[i].lo, t->rt_iv[i].hi);
    sb_putc(b, '\n');
  }
  size_t before = b->len;
  sb_puts(b, "  constraints: ");
  switch (tc_print(b, a, &t->cons, ST_MAX_DNF)) {
  case TC_PRINT_ALWAYS: b->len = before; break;
  case TC_PRINT_OK: sb_putc(b, '\n'); break;
  case TC_PRINT_TOO_LARGE: b->len = start; break;
  }
  if (b->data) b->data[b->len] = '\0';
  return b->len != start;
}
