/* Which instructions a run reads: --instr, --match, --opcode, --all, or by
 * default the ENTRY root (the default mode, --list, --layout). */
#ifndef HLOIDX_SELECT_H
#define HLOIDX_SELECT_H

#include <stdbool.h>

#include "hlo_ir.h"
#include "options.h"

/* The instructions --all analyses in a walked computation: every fusion
 * and every other instruction with operands, not tuple, get-tuple-element
 * or parameter. */
bool select_walked_instr(const hlo_instr *in);
/* Marks walk[c->index] for ENTRY and every computation it reaches through
 * calls other than a fusion's calls= and to_apply= (while, conditional,
 * call, async, custom-call called_computations, ...). WALK: one entry per
 * computation, false on entry. */
void select_walked_computations(const hlo_module *m, bool *walk);
/* --instr NAME: the ENTRY computation's instruction of that name, else the
 * first of the other computations' in textual order; NULL if none. */
const hlo_instr *select_find(const hlo_module *m, const char *name);

typedef enum {
  SELECT_ROOT,  /* nothing selected: the ENTRY root */
  SELECT_EVERY, /* nothing selected: every instruction of every computation */
} select_default;

typedef struct {
  /* before the first instruction of each computation, when the options
   * walk computations (not for --instr or the ENTRY root); may be NULL */
  void (*computation)(void *arg, const hlo_computation *c);
  void (*instr)(void *arg, const hlo_instr *in);
  /* an --instr NAME the module does not have */
  void (*missing)(void *arg, const char *name);
} select_visitor;

/* Hands the instructions the options pick in M to V, in order: with
 * --instr each name in command-line order; otherwise, in textual order,
 * the instructions of every computation (of the --all walk when ALL_WALKS
 * and --all is given; every computation when not) that pass --match and
 * --opcode; without any selection option, DFLT. */
void select_each(const hloidx_options *o, const hlo_module *m, bool all_walks, select_default dflt,
                 const select_visitor *v, void *arg);

#endif
