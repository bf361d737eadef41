#include "out_mlir.h"

#include "map_print.h"

void mlir_print_map(hb_strbuf *b, const imap *m) {
  static const map_print_opts one_line = {false, 0};
  /* The map text has no '"' or '\\' (names are d<i>, s<j>, rt<k>), so it
   * needs no escaping inside the MLIR string. */
  hb_sb_puts(b, "#xla.indexing_map<\"");
  map_print(b, m, &one_line);
  hb_sb_puts(b, "\">");
}

void mlir_print_operand(hb_strbuf *b, const ii_operand *x, int indent) {
  hb_sb_indent(b, indent);
  if (x->map->undefined) {
    if (x->why) hb_sb_printf(b, "unknown indexing (%s)\n", x->why);
    else hb_sb_puts(b, "unknown indexing\n");
    return;
  }
  mlir_print_map(b, x->map);
  hb_sb_putc(b, '\n');
  for (uint32_t j = 0; j < x->nrt; j++) {
    hb_sb_indent(b, indent + 2);
    hb_sb_printf(b, "rt%u: ", j);
    ii_rt_text(b, x->rt[j].instr);
    hb_sb_puts(b, "; ");
    mlir_print_map(b, x->rt[j].map);
    hb_sb_putc(b, '\n');
  }
  if (x->replica) {
    hb_sb_indent(b, indent + 2);
    hb_sb_puts(b, "replica id: ");
    mlir_print_map(b, x->replica);
    hb_sb_putc(b, '\n');
  }
}
