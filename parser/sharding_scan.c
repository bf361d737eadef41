/* The sharding fast path: the extent of the usual sharding={...} value of
 * an instruction (sharding={maximal device=0}, sharding={replicated},
 * sharding={devices=[2,1]<=[2]}, and tuples of those), for the token
 * wrapper's COMMA_ATTR token (attr_fold in hlo_tokwrap.c).
 *
 * Token by token such a value costs six tokens and more, and as many
 * reductions. Here the same lexer reads it and checks what the grammar's
 * sharding rule would for these forms: '{', then items, then '}', or '{'
 * then such '{...}' leaves separated by ',' then '}'. An item is a
 * sharding keyword, 'shard_as INT', 'shard_like INT', or a name the
 * attribute catalogue keeps raw (device=, devices=, last_tile_dims=)
 * followed by an integer, by '[' integers ']' and the device list (integers
 * separated by ',', or '<=' '[' integers ']' and maybe a name and '('
 * integers ')', the transpose), or by '{' sharding keywords separated by ','
 * '}'. Anything else (metadata inside, named shardings, a lexical error)
 * makes it give up, and the value is read token by token, so diagnostics
 * are those of the grammar. */
#include "parse_ctx.h"

/* Integers separated by ',' (the grammar's ints), the first one in *T;
 * the token after them in *T. */
static bool ints(hlo_lexer *lx, hlo_token *t) {
  for (;;) {
    if (t->kind != HT_INT) return false;
    hlo_lex(lx, t);
    if (t->kind != HT_COMMA) return true;
    hlo_lex(lx, t);
  }
}

/* '[' ints ']' with the '[' in *T; the token after the ']' in *T. */
static bool bracketed_ints(hlo_lexer *lx, hlo_token *t) {
  if (t->kind != HT_LBRACKET) return false;
  hlo_lex(lx, t);
  if (!ints(lx, t) || t->kind != HT_RBRACKET) return false;
  hlo_lex(lx, t);
  return true;
}

static bool sh_keyword(hlo_tok_kind k) {
  return k == HT_KW_REPLICATED || k == HT_KW_MAXIMAL || k == HT_KW_MANUAL || k == HT_KW_UNKNOWN ||
         k == HT_KW_UNREDUCED || k == HT_KW_LAST_TILE_DIM_REPLICATE;
}

/* What follows 'name=' in an item, its first token in *T; the token after
 * it in *T. */
static bool item_value(hlo_lexer *lx, hlo_token *t) {
  if (t->kind == HT_INT) {
    hlo_lex(lx, t);
    return true;
  }
  if (t->kind == HT_LBRACE) { /* '{' sharding keywords separated by ',' '}' */
    hlo_lex(lx, t);
    if (t->kind != HT_RBRACE)
      for (;;) {
        hlo_tok_kind k = t->kind;
        if (k != HT_KW_REPLICATED && k != HT_KW_MANUAL && k != HT_KW_MAXIMAL && k != HT_KW_UNREDUCED) return false;
        hlo_lex(lx, t);
        if (t->kind == HT_RBRACE) break;
        if (t->kind != HT_COMMA) return false;
        hlo_lex(lx, t);
      }
    hlo_lex(lx, t);
    return true;
  }
  if (!bracketed_ints(lx, t)) return false;
  if (t->kind == HT_INT) return ints(lx, t); /* the devices listed */
  if (t->kind != HT_LEQ) return false;       /* an iota of devices, maybe transposed */
  hlo_lex(lx, t);
  if (!bracketed_ints(lx, t) || t->kind != HT_IDENT) return true;
  hlo_lex(lx, t);
  if (t->kind != HT_LPAREN) return false;
  hlo_lex(lx, t);
  if (!ints(lx, t) || t->kind != HT_RPAREN) return false;
  hlo_lex(lx, t);
  return true;
}

/* The items of a '{...}' whose '{' was read, up to its '}' (in *T). ROOM:
 * whether one more bracket may open inside (the parser's nesting limit). */
static bool items(parse_ctx *P, hlo_lexer *lx, hlo_token *t, bool room) {
  hlo_lex(lx, t);
  while (t->kind != HT_RBRACE) {
    if (sh_keyword(t->kind)) {
      hlo_lex(lx, t);
    } else if (t->kind == HT_KW_SHARD_AS || t->kind == HT_KW_SHARD_LIKE) {
      hlo_lex(lx, t);
      if (t->kind != HT_INT) return false;
      hlo_lex(lx, t);
    } else if (t->kind == HT_ATTR_NAME) {
      if (pc_attr_class(pc_attr_id(pc_word(P, t->ptr, t->len))) != PC_A_GENERIC) return false;
      hlo_lex(lx, t);
      if ((t->kind != HT_INT && !room) || !item_value(lx, t)) return false;
    } else {
      return false;
    }
  }
  return true;
}

bool pc_sharding_scan(parse_ctx *P, const char **start, const char **end) {
  /* brackets that may open inside one another from here */
  int room = HLO_MAX_NESTING - P->depth;
  if (room < 1) return false;
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t;
  hlo_lex(&lx, &t);
  if (t.kind != HT_LBRACE) return false;
  *start = t.ptr;
  hlo_lexer after_open = lx;
  hlo_lex(&lx, &t);
  if (t.kind == HT_LBRACE) { /* a tuple: '{' leaves separated by ',' '}' */
    for (;;) {
      if (t.kind != HT_LBRACE || room < 2 || !items(P, &lx, &t, room > 2)) return false;
      hlo_lex(&lx, &t);
      if (t.kind == HT_RBRACE) break;
      if (t.kind != HT_COMMA) return false;
      hlo_lex(&lx, &t);
    }
  } else {
    lx = after_open;
    if (!items(P, &lx, &t, room > 1)) return false;
  }
  *end = t.ptr + 1;
  return true;
}
