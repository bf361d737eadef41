/* The sharding fast path: the extent of the usual sharding={...} value of
 * an instruction (sharding={maximal device=0}, sharding={replicated}), for
 * the token wrapper's COMMA_ATTR token (attr_fold in hlo_tokwrap.c).
 *
 * Token by token such a value costs six tokens and as many reductions.
 * Here the same lexer reads it and checks what the grammar's sharding rule
 * would for this form: '{', then items that are a sharding keyword or
 * 'name=INT' (a name the attribute catalogue keeps raw, like device=),
 * then '}'. Anything else (tuple shardings, devices=[...], metadata inside,
 * named shardings, a lexical error) makes it give up, and the value is read
 * token by token, so diagnostics are those of the grammar. */
#include "parse_ctx.h"

bool pc_sharding_scan(parse_ctx *P, const char **start, const char **end) {
  if (P->depth >= HLO_MAX_NESTING) return false; /* the '{' would be one level too deep */
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t;
  hlo_lex(&lx, &t);
  if (t.kind != HT_LBRACE) return false;
  *start = t.ptr;
  for (;;) {
    hlo_lex(&lx, &t);
    switch (t.kind) {
    case HT_RBRACE:
      *end = t.ptr + 1;
      return true;
    case HT_KW_REPLICATED: case HT_KW_MAXIMAL: case HT_KW_MANUAL: case HT_KW_UNKNOWN: case HT_KW_UNREDUCED:
    case HT_KW_LAST_TILE_DIM_REPLICATE:
      break;
    case HT_ATTR_NAME:
      if (pc_attr_class(pc_attr_id(pc_word(P, t.ptr, t.len))) != PC_A_GENERIC) return false;
      hlo_lex(&lx, &t);
      if (t.kind != HT_INT) return false;
      break;
    default:
      return false;
    }
  }
}
