/* The operand-list fast path: "(f32[2]{0} %a, %b)" right after an
 * instruction's opcode, read as one token (OPERAND_LIST).
 *
 * Most instructions of a dump list plain operands: an optional shape whose
 * text the shape cache has seen before, then a name (%a, or a without the
 * '%' as JAX prints them), separated by commas. Token by token, the grammar
 * shifts '(' and ')', a name, a shape and a comma per operand and reduces
 * four rules for each; here a byte scan recognises the list and pushes the
 * operands exactly as the grammar's operand actions would
 * (pc_operand_name, in order). A name without '%' must be one the lexer
 * reads as a name (with a '.' it always is: no keyword has one; else the
 * lexer is asked). Before an operand, the block comments "index=N" that
 * XLA prints in long lists (every fifth operand) are skipped, as the
 * lexer skips them. Anything else (a nested instruction, a shape not seen
 * before, another comment, a line break, an unbalanced list) makes it give up,
 * and the list is read token by token. The wrapper asks for it only right
 * after the grammar reduced an opcode (parse_ctx.after_opcode), where '('
 * can only start the operand list, so the token stands exactly where the
 * tokens it replaces would be accepted. */
#include <string.h>

#include "parse_ctx.h"

static const char *skip_spaces(const char *p) {
  while (*p == ' ') p++;
  return p;
}

/* After the block comment "index=N" (N decimal digits, nothing else
 * between the comment's delimiters) starting at P, or P. */
static const char *skip_index_comment(const char *p) {
  if (*p != '/' || strncmp(p, "/*index=", 8) != 0) return p; /* (most operands: no call) */
  const char *q = p + 8, *d = q;
  while (*q >= '0' && *q <= '9') q++;
  return q > d && q[0] == '*' && q[1] == '/' ? q + 2 : p;
}

/* Whether the identifier [NAME, END) is read by the lexer as a name (and as
 * nothing longer: END is where the scan stopped). */
static bool plain_name(parse_ctx *P, const char *name, const char *end, hlo_tok_kind *kind) {
  *kind = HT_IDENT;
  for (const char *c = name; c < end; c++)
    if (*c == '.') return true; /* no keyword or element type has a '.' */
  hlo_lexer lx = {P->data, name, P->data + P->len};
  hlo_token t;
  hlo_lex(&lx, &t);
  *kind = t.kind;
  return pc_name_like(t.kind) && t.ptr + t.len == end;
}

/* The name's entry: the instruction on the line before (compared first:
 * the intern table's lookup is a hash, and a slot and an entry that are
 * often out of the cache), else the table's. */
static hlo_istr *name_entry(parse_ctx *P, const char *name, size_t len) {
  hlo_istr *last = P->last_def;
  if (last && last->len == len && hlo_same_bytes(hlo_istr_str(last), name, len)) return last;
  return hlo_intern_get(P->in, name, len);
}

/* An operand written as its definition's line wrote its shape: an array
 * shape's text at P, blanks, then %name, where the line that defined name
 * (the last one read with it, head_fold) had these same bytes as its
 * shape. The same bytes are the same shape, so the shape cache is not
 * asked. Returns the shape, with the name's entry in *IS, and [*NAME,
 * *NAME_END) the '%' and the name; NULL otherwise. (The '%' is looked
 * for after the text's first blanks: an array's text has none, but in a
 * dimension list, which is then left to the usual path, as are tuples,
 * whose texts have blanks, and names without '%'.) */
static const hlo_shape *own_shape(parse_ctx *P, const char *p, hlo_istr **is, const char **name,
                                  const char **name_end) {
  const char *lim = P->data + P->len, *c = pc_skip_to3(p, lim, '%', '\n', ' ');
  while (*c != '%' && *c != '\n' && *c != ' ' && *c != '\0') c++; /* (after the blocks) */
  while (*c == ' ') c++;
  if (*c != '%' || !pc_id_start(c[1])) return NULL;
  const char *e = pc_skip_id_tail(c + 2, lim);
  hlo_istr *w = name_entry(P, c + 1, (size_t)(e - c - 1));
  size_t n = w->decl_len;
  if (n == 0 || n > (size_t)(c - p) || !hlo_same_bytes(p, w->decl_text, n)) return NULL;
  for (const char *b = p + n; b < c; b++)
    if (*b != ' ') return NULL;
  *is = w;
  *name = c;
  *name_end = e;
  return w->decl_shape;
}

bool pc_operand_scan(parse_ctx *P, const char *open, const char **end, pc_range *ops) {
  size_t base = P->operands.n;
  const char *p = skip_spaces(open + 1);
  if (*p != ')') {
    for (;;) {
      const hlo_shape *decl = NULL;
      const char *q;
      hlo_istr *is;
      const char *at;
      /* a shape first when the cache knows the text here ('(' must be one) */
      if (*p == '(' || (*p >= 'a' && *p <= 'z')) {
        if (*p != '(' && (decl = own_shape(P, p, &is, &at, &q))) {
          PC_PUSH(P->operands, pc_operand, ((pc_operand){is, NULL, decl, (size_t)(at - P->data)}));
          p = q;
          goto next;
        }
        decl = pc_shape_cache_find(P, p, *p == '(', &q);
        if (!decl && *p == '(') goto give_up;
        if (decl) p = skip_spaces(q);
      }
      bool pct = *p == '%';
      const char *name = p + pct;
      if (!pc_id_start(*name)) goto give_up;
      p = pc_skip_id_tail(name + 1, P->data + P->len);
      hlo_tok_kind kind = HT_PCT_NAME;
      if (!pct && !plain_name(P, name, p, &kind)) goto give_up;
      pc_tok t = {.ptr = name, .len = (uint32_t)(p - name), .kind = (uint8_t)kind, .off = (size_t)(name - pct - P->data)};
      /* Operands often name the instruction on the line before: compared
       * with its name first, the intern table's lookup (a hash, and a slot
       * and an entry that are often out of the cache) is left out. */
      hlo_istr *last = P->last_def;
      if (last && last->len == t.len && hlo_same_bytes(hlo_istr_str(last), name, t.len))
        PC_PUSH(P->operands, pc_operand, ((pc_operand){last, NULL, decl, t.off}));
      else
        pc_operand_name(P, decl, &t, NULL);
    next:
      p = skip_spaces(p);
      if (*p == ')') break;
      if (*p != ',') goto give_up;
      p = skip_spaces(skip_index_comment(skip_spaces(p + 1)));
    }
  }
  *end = p + 1;
  *ops = (pc_range){(uint32_t)base, (uint32_t)P->operands.n};
  return true;
give_up:
  P->operands.n = base;
  return false;
}
