/* A text dump of a parsed module, for the tests (not part of hloidx): the
 * parser goldens (testdata/parser/accept_*.ir) pin what was built, and the
 * grammar-only parse is compared with the usual one through it. Every
 * field the parser fills is printed, positions as line:column of DATA (the
 * text the module was parsed from); nothing depends on addresses. */
#ifndef HLOIDX_IR_DUMP_H
#define HLOIDX_IR_DUMP_H

#include <stdio.h>

#include "hlo_ir.h"

void hlo_ir_dump(FILE *f, const hlo_module *m, const char *data);

#endif
