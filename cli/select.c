#include "select.h"

#include <string.h>

#include "../parser/base/oom.h"

bool select_walked_instr(const hlo_instr *in) {
  if (in->op == HLO_OP_FUSION) return true;
  if (in->n_operands == 0) return false;
  return in->op != HLO_OP_TUPLE && in->op != HLO_OP_GET_TUPLE_ELEMENT && in->op != HLO_OP_PARAMETER;
}

/* Iterative: call chains can be long. */
void select_walked_computations(const hlo_module *m, bool *walk) {
  int n = m->n_computations;
  const hlo_computation **stack = hb_calloc((size_t)n + 1, sizeof *stack);
  int sp = 0;
  if (m->entry) {
    walk[m->entry->index] = true;
    stack[sp++] = m->entry;
  }
  while (sp) {
    const hlo_computation *c = stack[--sp];
    for (int i = 0; i < c->n_instrs; i++) {
      const hlo_instr *in = c->instrs[i];
      for (int k = 0; k < in->cold->n_called; k++) {
        hlo_call_role role = in->cold->called_role[k];
        if (role == HLO_CALL_TO_APPLY || (in->op == HLO_OP_FUSION && role == HLO_CALL_CALLS)) continue;
        const hlo_computation *t = in->cold->called[k];
        if (t->module != m || walk[t->index]) continue;
        walk[t->index] = true;
        stack[sp++] = t;
      }
    }
  }
  free(stack);
}

const hlo_instr *select_find(const hlo_module *m, const char *name) {
  const hlo_instr *in = m->entry ? hlo_computation_find_instr(m->entry, name) : NULL;
  for (int i = 0; !in && i < m->n_computations; i++) in = hlo_computation_find_instr(m->computations[i], name);
  return in;
}

/* --match and --opcode (an opcode matches as written or by its table
 * name: --opcode=async-start picks custom-call-start too). */
static bool passes(const hloidx_options *o, const hlo_instr *in) {
  if (o->has_match && regexec(&o->match, in->name, 0, NULL, 0) != 0) return false;
  if (o->nopcodes == 0) return true;
  const char *canon = hlo_opcode_name(in->op);
  for (int i = 0; i < o->nopcodes; i++)
    if (!strcmp(o->opcodes[i], hlo_instr_opcode_text(in)) ||
        (in->op != HLO_OP_UNKNOWN && !strcmp(o->opcodes[i], canon)))
      return true;
  return false;
}

void select_each(const hloidx_options *o, const hlo_module *m, bool all_walks, select_default dflt,
                 const select_visitor *v, void *arg) {
  if (o->ninstrs) {
    for (int i = 0; i < o->ninstrs; i++) {
      const hlo_instr *in = select_find(m, o->instrs[i]);
      if (in) v->instr(arg, in);
      else v->missing(arg, o->instrs[i]);
    }
    return;
  }
  if (!o->all && !options_select(o) && dflt == SELECT_ROOT) {
    if (m->entry && m->entry->root) v->instr(arg, m->entry->root);
    return;
  }
  bool walks = o->all && all_walks;
  bool *walk = NULL;
  if (walks) {
    walk = hb_calloc((size_t)m->n_computations + 1, sizeof *walk);
    select_walked_computations(m, walk);
  }
  for (int i = 0; i < m->n_computations; i++) {
    const hlo_computation *c = m->computations[i];
    if (walk && !walk[i]) continue;
    bool begun = false;
    for (int j = 0; j < c->n_instrs; j++) {
      const hlo_instr *in = c->instrs[j];
      if ((walks && !select_walked_instr(in)) || !passes(o, in)) continue;
      if (!begun && v->computation) v->computation(arg, c);
      begun = true;
      v->instr(arg, in);
    }
  }
  free(walk);
}
