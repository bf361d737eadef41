/* The generic-value fast path: the extent of the value of an instruction
 * attribute that the grammar keeps raw (gv_top in hlo_parser.y:
 * dimensions={1,0}, index=2, slice={[0:8]}, kind=kLoop), for the token
 * wrapper's COMMA_ATTR token (attr_fold in hlo_tokwrap.c).
 *
 * Token by token, every token of such a value costs a shift and two or
 * three reductions of the grammar (gv_unit, gv_inner_item, gv_inner) on
 * top of the lexer. Here the same lexer reads the tokens and only checks
 * what the grammar would: units as gv_top takes them, and inside brackets
 * anything gv_inner takes, with every bracket closed by its own kind. The
 * value ends, as in the grammar (gv_top is greedy: nothing that can follow
 * an attribute can start a unit), before the first token at its outer
 * level that cannot start a unit. Anything the token wrapper would treat
 * specially (metadata=, backend_config= or frontend_attributes= inside,
 * which switch the lexer to raw dictionaries or metadata values), a
 * lexical error, a separator, the end of input, a mismatched bracket or
 * deep nesting makes it give up, and the value is read token by token (so
 * diagnostics are those of the grammar).
 *
 * The entries of the FileLocations and StackFrames tables (§3.3), '1
 * {file_name_id=1 ...}', are such groups too (pc_stack_entries_scan), and
 * so are most values of the module's attributes, whose grammar takes one
 * unit (pc_unit_scan). */
#include <string.h>

#include "parse_ctx.h"

enum { VS_MAX_DEPTH = 64 };

/* The tokens of a gv_unit that are not brackets (hlo_parser.y). */
static bool unit_leaf(hlo_tok_kind k) {
  switch (k) {
  case HT_INT: case HT_FLOAT: case HT_KW_INF: case HT_NEG_INF: case HT_KW_TRUE: case HT_KW_FALSE:
  case HT_STRING: case HT_IDENT: case HT_PCT_NAME: case HT_DXD: case HT_PAD: case HT_DIM_LABELS:
  case HT_PRIM_TYPE: case HT_KW_CONSTANT: case HT_KW_PARAMETER: case HT_B_PAREN: case HT_NAME_COLON:
  case HT_KW_MAXIMAL: case HT_KW_REPLICATED: case HT_KW_MANUAL: case HT_KW_UNKNOWN: case HT_KW_UNREDUCED:
  case HT_KW_LAST_TILE_DIM_REPLICATE: case HT_KW_SHARD_AS: case HT_KW_SHARD_LIKE:
  case HT_LEQ: case HT_COLON: case HT_ARROW: case HT_STAR: case HT_QUESTION: case HT_HASH: case HT_PLUS:
  case HT_TILDE: case HT_DOTS: case HT_EQ:
    return true;
  default:
    return false;
  }
}

static char closer_of(hlo_tok_kind k) {
  return k == HT_RBRACE ? '{' : k == HT_RPAREN ? '(' : k == HT_RBRACKET ? '[' : 0;
}

/* An attribute name inside a bracket group: the grammar's gv_inner takes
 * any, but the token wrapper reads what follows metadata=, backend_config=
 * and frontend_attributes= (and any name inside the latter) its own way. */
static bool plain_attr_name(parse_ctx *P, const hlo_token *t) {
  if (P->fa_depth != 0) return false;
  int cls = pc_attr_class(pc_attr_id(pc_word(P, t->ptr, t->len)));
  return cls != PC_A_METADATA && cls != PC_A_BACKEND && cls != PC_A_FRONTEND;
}

/* Reads from LX the rest of a bracket group whose opener OPEN0 was just
 * read (at P->depth + 1): what gv_inner takes, then the matching closer,
 * the group's last token, into *LAST. */
static bool group_rest(parse_ctx *P, hlo_lexer *lx, char open0, hlo_token *last) {
  char open[VS_MAX_DEPTH];
  int depth = 1;
  open[0] = open0;
  for (;;) {
    hlo_lex(lx, last);
    hlo_tok_kind k = last->kind;
    if (k == HT_LBRACE || k == HT_LPAREN || k == HT_LBRACKET) {
      if (depth == VS_MAX_DEPTH || P->depth + depth >= HLO_MAX_NESTING) return false;
      open[depth++] = last->ptr[0];
    } else if (closer_of(k)) {
      if (open[depth - 1] != closer_of(k)) return false;
      if (--depth == 0) return true;
    } else if (k == HT_EOF || k == HT_ERROR || k == HT_SEP || (k == HT_ATTR_NAME && !plain_attr_name(P, last))) {
      return false;
    }
  }
}

bool pc_value_scan(parse_ctx *P, hlo_token *last, const char **start) {
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t;
  *start = NULL;
  /* the usual first unit, a list of integers ({1,0}), without the lexer */
  const char *open = pc_skip_blanks(lx.cur), *close = pc_plain_int_list(open, NULL);
  if (close && P->depth < HLO_MAX_NESTING) {
    *start = open;
    *last = (hlo_token){.kind = HT_RBRACE, .ptr = close - 1, .len = 1, .off = (size_t)(close - 1 - P->data)};
    lx.cur = close;
  }
  for (;;) {
    const char *before = lx.cur;
    hlo_lex(&lx, &t);
    bool opener = t.kind == HT_LBRACE || t.kind == HT_LPAREN || t.kind == HT_LBRACKET;
    const char *at;
    bool unit = opener || unit_leaf(t.kind);
    /* a name followed by '=' is the next instruction (NAME_DEF) */
    if (unit && pc_name_like(t.kind) && hlo_lex_peek(&lx, &at) == '=') unit = false;
    if (!unit) {
      if (!*start) return false;
      P->lx.cur = before; /* the grammar reads that token */
      return true;
    }
    if (!*start) *start = P->data + t.off;
    if (opener && (P->depth >= HLO_MAX_NESTING || !group_rest(P, &lx, t.ptr[0], &t))) return false;
    *last = t;
  }
}

bool pc_unit_scan(parse_ctx *P, hlo_token *first, hlo_token *last) {
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_lex(&lx, first);
  *last = *first;
  switch (first->kind) {
  case HT_INT: case HT_FLOAT: case HT_STRING: case HT_KW_TRUE: case HT_KW_FALSE:
    break;
  /* (not '(' nor a name or an element type: the token wrapper may read a
   * shape, a signature or a computation's head there) */
  case HT_LBRACE: case HT_LBRACKET:
    if (P->depth >= HLO_MAX_NESTING || !group_rest(P, &lx, first->ptr[0], last)) return false;
    break;
  default:
    return false;
  }
  P->lx.cur = lx.cur;
  return true;
}

/* The usual entry, "{file_name_id=1 line=12}" at P: names directly
 * followed by '=' (ATTR_NAME tokens, none of them one that the token
 * wrapper reads its own way: plain_attr_name) and plain integers (INT
 * tokens: the lexer's rule for digits followed by one of these bytes), up
 * to the '}'. The position after it, or NULL for anything else (group_rest
 * reads it then). */
static const char *plain_entry(const char *p) {
  if (*p != '{') return NULL;
  for (p++;;) {
    p = pc_skip_blanks(p);
    if (*p == '}') return p + 1;
    const char *name = p;
    if (!pc_id_start(*p)) return NULL;
    for (p++; pc_id_char(*p); p++) {
    }
    size_t n = (size_t)(p - name);
    if (*p != '=' || (n == 8 && memcmp(name, "metadata", 8) == 0) ||
        (n == 14 && memcmp(name, "backend_config", 14) == 0) ||
        (n == 19 && memcmp(name, "frontend_attributes", 19) == 0))
      return NULL;
    uint64_t u;
    if (!(p = pc_plain_uint(p + 1, &u))) return NULL;
    if (!(*p == ' ' || *p == '\n' || *p == ',' || *p == '}')) return NULL;
    if (*p == ',') p++;
  }
}

bool pc_stack_entries_scan(parse_ctx *P, const char **end) {
  if (P->depth != 0) return false;
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t;
  *end = NULL;
  for (;;) {
    const char *e = P->fa_depth == 0 ? plain_entry(pc_skip_blanks(lx.cur)) : NULL;
    if (e) {
      lx.cur = e;
    } else {
      hlo_lex(&lx, &t);
      if (t.kind != HT_LBRACE || !group_rest(P, &lx, '{', &t)) return *end != NULL;
    }
    *end = lx.cur;
    P->lx.cur = lx.cur;
    hlo_lex(&lx, &t); /* the next entry's number, or the end of the table */
    if (t.kind != HT_INT) return true;
  }
}
