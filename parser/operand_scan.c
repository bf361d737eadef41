/* The operand-list fast path: "(f32[2]{0} %a, %b)" right after an
 * instruction's opcode, read as one token (OPERAND_LIST).
 *
 * Most instructions of a dump list plain operands: an optional shape whose
 * text the shape cache has seen before, then a %name, separated by commas.
 * Token by token, the grammar shifts '(' and ')', a name, a shape and a
 * comma per operand and reduces four rules for each; here a byte scan
 * recognises the list and pushes the operands exactly as the grammar's
 * operand actions would (pc_operand_name, in order). Anything else (a
 * name without '%', a nested instruction, a shape not seen before, a
 * comment, a line break, an unbalanced list) makes it give up, and the
 * list is read token by token. The wrapper asks for it only right after
 * the grammar reduced an opcode (parse_ctx.after_opcode), where '(' can
 * only start the operand list, so the token stands exactly where the
 * tokens it replaces would be accepted. */
#include "parse_ctx.h"

static const char *skip_spaces(const char *p) {
  while (*p == ' ') p++;
  return p;
}

bool pc_operand_scan(parse_ctx *P, const char *open, const char **end, pc_range *ops) {
  size_t base = P->operands.n;
  const char *p = skip_spaces(open + 1);
  if (*p != ')') {
    for (;;) {
      const hlo_shape *decl = NULL;
      if (*p != '%') { /* a shape first: one the cache knows, or give up */
        const char *q;
        if (!((*p >= 'a' && *p <= 'z') || *p == '(')) goto give_up;
        decl = pc_shape_cache_find(P, p, *p == '(', &q);
        if (!decl) goto give_up;
        p = skip_spaces(q);
        if (*p != '%') goto give_up;
      }
      const char *name = p + 1;
      if (!pc_id_start(*name)) goto give_up;
      for (p = name + 1; pc_id_char(*p); p++) {
      }
      pc_tok t = {.ptr = name, .len = (uint32_t)(p - name), .kind = HT_PCT_NAME, .off = (size_t)(name - 1 - P->data)};
      pc_operand_name(P, decl, &t, NULL);
      p = skip_spaces(p);
      if (*p == ')') break;
      if (*p != ',') goto give_up;
      p = skip_spaces(p + 1);
    }
  }
  *end = p + 1;
  *ops = (pc_range){(uint32_t)base, (uint32_t)P->operands.n};
  return true;
give_up:
  P->operands.n = base;
  return false;
}
