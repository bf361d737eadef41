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
 * specially (an attribute name inside, which may switch the lexer to raw
 * dictionaries or metadata values), a lexical error, a separator, the end
 * of input, a mismatched bracket or deep nesting makes it give up, and the
 * value is read token by token (so diagnostics are those of the grammar). */
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

bool pc_value_scan(parse_ctx *P, hlo_token *last, const char **start) {
  hlo_lexer lx = P->lx;
  hlo_token t;
  char open[VS_MAX_DEPTH];
  int depth = 0;
  *start = NULL;
  for (;;) {
    const char *before = lx.cur;
    hlo_lex(&lx, &t);
    bool opener = t.kind == HT_LBRACE || t.kind == HT_LPAREN || t.kind == HT_LBRACKET;
    if (depth == 0) {
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
    }
    if (opener) {
      if (depth == VS_MAX_DEPTH || P->depth + depth >= HLO_MAX_NESTING) return false;
      open[depth++] = t.ptr[0];
    } else if (closer_of(t.kind)) {
      if (open[depth - 1] != closer_of(t.kind)) return false;
      depth--;
    } else if (t.kind == HT_EOF || t.kind == HT_ERROR || t.kind == HT_SEP || t.kind == HT_ATTR_NAME) {
      return false;
    }
    *last = t;
  }
}
