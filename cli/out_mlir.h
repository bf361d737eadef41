/* Indexing maps as XLA's MLIR attribute (--format=mlir). */
#ifndef HLOIDX_OUT_MLIR_H
#define HLOIDX_OUT_MLIR_H

#include "indexing_map.h"
#include "instr_indexing.h"
#include "../parser/base/strbuf.h"

/* `#xla.indexing_map<"TEXT">` where TEXT is the map's single-line XLA text
 * (what XLA's IndexingMapAttr prints; its MLIR tests spell maps this way).
 * Known-empty maps print `#xla.indexing_map<"KNOWN EMPTY">`, as XLA's
 * printer does. */
void mlir_print_map(hb_strbuf *b, const imap *m);

/* One member of an entry, INDENT spaces in, ending with a newline:
 * `unknown indexing` for an undefined map, else the attribute, then one
 * line `  rt<j>: <instr>; <attribute>` per runtime variable and, for an
 * all-gather, `  replica id: <attribute>` (two more spaces in). */
void mlir_print_operand(hb_strbuf *b, const ii_operand *x, int indent);

#endif
