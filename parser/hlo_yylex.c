/* The grammar's token source: the re2c lexer's tokens, classified for the
 * Bison grammar where the class depends on the context (hlo_parser.y's
 * header lists them):
 *   - LAYOUT_LBRACE: '{' right after ']' whose content starts like a layout
 *     (a digit, '-', ':' or '}'), §9.3;
 *   - the layout field letters T L E S SC P M D after a layout's ':';
 *   - attribute names by the attribute catalogue (A_GENERIC, A_COMP, ...),
 *     §9.1, and frontend-attribute keys (FA_KEY);
 *   - RAW_DICT after backend_config= and a frontend-attribute key, §9.2;
 *   - the coarse tokens, when P->coarse: SHAPE_TOK (a shape text the shape
 *     cache knows), METADATA_VALUE (a metadata payload of the usual
 *     spelling, hlo_lex_metadata), INT_LIST and SLICES (hlo_lex_int_brace).
 * It also keeps the stack of open brackets: the nesting limit
 * (HLO_MAX_NESTING), and what each bracket belongs to, for "expected ...
 * in layout" and the "'{' opened here" notes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_parser.h"
#include "parse_ctx.h"

/* Context codes of open brackets, for "expected ... in <context>". */
enum {
  BK_OTHER, BK_DIMS, BK_LAYOUT, BK_OPERANDS, BK_TUPLE_SHAPE, BK_LITERAL, BK_ATTR, BK_BODY,
};

static const char *const bk_names[] = {
    NULL, "in dimensions", "in layout", "in operand list", "in tuple shape", "in literal",
    "in attribute value", "in computation body",
};

/* The grammar token of each lexer token kind whose class does not depend
 * on the context (0: decided by classify's switch). */
static const short grammar_token[HT_KIND_COUNT] = {
    [HT_PCT_NAME] = PCT_NAME, [HT_NAME_COLON] = NAME_COLON, [HT_NAME_DEF] = NAME_DEF,
    [HT_INT] = INT, [HT_FLOAT] = FLOAT,
    [HT_NEG_INF] = NEG_INF, [HT_DIM_LABELS] = DIM_LABELS, [HT_DXD] = DXD, [HT_PAD] = PAD,
    [HT_STRING] = STRING, [HT_RAW_DICT] = RAW_DICT, [HT_ARROW] = ARROW, [HT_LEQ] = LEQ,
    [HT_DOTS] = DOTS, [HT_B_PAREN] = B_PAREN, [HT_EQ] = EQ, [HT_COMMA] = COMMA,
    [HT_STAR] = STAR, [HT_QUESTION] = QUESTION, [HT_HASH] = HASH, [HT_PLUS] = PLUS, [HT_TILDE] = TILDE,
    [HT_KW_TRUE] = KW_TRUE, [HT_KW_FALSE] = KW_FALSE,
    [HT_KW_INF] = KW_INF, [HT_KW_HLOMODULE] = KW_HLOMODULE, [HT_KW_ENTRY] = KW_ENTRY, [HT_KW_ROOT] = KW_ROOT,
    [HT_KW_FILENAMES] = KW_FILENAMES, [HT_KW_FUNCTIONNAMES] = KW_FUNCTIONNAMES,
    [HT_KW_FILELOCATIONS] = KW_FILELOCATIONS, [HT_KW_STACKFRAMES] = KW_STACKFRAMES,
    [HT_KW_MAXIMAL] = KW_MAXIMAL, [HT_KW_REPLICATED] = KW_REPLICATED, [HT_KW_MANUAL] = KW_MANUAL,
    [HT_KW_UNKNOWN] = KW_UNKNOWN, [HT_KW_UNREDUCED] = KW_UNREDUCED,
    [HT_KW_LAST_TILE_DIM_REPLICATE] = KW_LAST_TILE, [HT_KW_SHARD_AS] = KW_SHARD_AS,
    [HT_KW_SHARD_LIKE] = KW_SHARD_LIKE, [HT_KW_CONSTANT] = KW_CONSTANT, [HT_KW_PARAMETER] = KW_PARAMETER,
};

static const int attr_class_token[] = {
    [PC_A_GENERIC] = A_GENERIC,     [PC_A_COMP] = A_COMP,           [PC_A_COMP_LIST] = A_COMP_LIST,
    [PC_A_SHARDING] = A_SHARDING,   [PC_A_METADATA] = A_METADATA,   [PC_A_FRONTEND] = A_FRONTEND,
    [PC_A_BACKEND] = A_BACKEND,     [PC_A_SHAPE] = A_SHAPE,         [PC_A_SHAPE_LIST] = A_SHAPE_LIST,
    [PC_A_LITERAL] = A_LITERAL,     [PC_A_HDR_LAYOUT] = A_HDR_LAYOUT,
};

/* The '{' just read followed ']': does a layout start here (§9.3)? */
static bool layout_brace_follows(parse_ctx *P) {
  const char *at;
  char c = hlo_lex_peek(&P->lx, &at);
  return (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '}';
}

static int layout_letter(const hlo_token *t) {
  if (t->len == 1) {
    switch (t->ptr[0]) {
    case 'T': return LF_T;
    case 'L': return LF_L;
    case 'E': return LF_E;
    case 'S': return LF_S;
    case 'P': return LF_P;
    case 'M': return LF_M;
    case 'D': return LF_D;
    default: return 0;
    }
  }
  if (t->len == 2 && t->ptr[0] == 'S' && t->ptr[1] == 'C') return LF_SC;
  return 0;
}

static int open_bracket(parse_ctx *P, const hlo_token *t, int ctx) {
  if (P->depth >= HLO_MAX_NESTING) {
    pc_error(P, t->off, "nesting deeper than %d levels", HLO_MAX_NESTING);
    return -1;
  }
  P->depth++;
  HB_PUSH(P->brackets, pc_bracket, ((pc_bracket){(unsigned char)ctx, t->ptr[0], t->off}));
  return 0;
}

static int top_ctx(parse_ctx *P) {
  return P->brackets.n ? HB_AT(P->brackets, pc_bracket, P->brackets.n - 1).ctx : BK_OTHER;
}

/* Closes the innermost bracket if OPEN matches it (a mismatch is left for
 * the grammar to report, with the bracket still open). */
static void close_bracket(parse_ctx *P, char open) {
  if (P->depth > 0 && HB_AT(P->brackets, pc_bracket, P->brackets.n - 1).open == open) {
    P->depth--;
    P->brackets.n--;
    P->closed_ctx = HB_AT(P->brackets, pc_bracket, P->brackets.n).ctx;
    P->closed_now = true;
  }
}

/* The kind of the closing bracket a shape text ends with. */
static hlo_tok_kind closer_kind(const char *end) {
  return end[-1] == ')' ? HT_RPAREN : end[-1] == '}' ? HT_RBRACE : HT_RBRACKET;
}

/* The bracket context of a '(' read after a token of kind PREV. */
static int paren_context(parse_ctx *P, int prev, unsigned after_layout_field) {
  if (after_layout_field) return BK_LAYOUT;
  switch (prev) {
  case HT_IDENT: return BK_OPERANDS;
  case HT_KW_CONSTANT: return BK_LITERAL;
  case HT_ATTR_NAME: return BK_ATTR;
  case HT_LPAREN: case HT_COMMA: case HT_EQ: {
    int ctx = top_ctx(P);
    if (ctx == BK_OPERANDS || ctx == BK_TUPLE_SHAPE) return BK_TUPLE_SHAPE;
    return ctx == BK_LITERAL || ctx == BK_LAYOUT ? ctx : BK_OTHER;
  }
  default:
    return top_ctx(P) == BK_LAYOUT ? BK_LAYOUT : BK_OTHER;
  }
}

/* The bracket context of a '{' read after a token of kind PREV (not a
 * layout's): a computation's body at the top level; in an instruction's
 * line, an attribute value's (or a literal's). */
static int brace_context(parse_ctx *P, int prev) {
  if (prev == HT_ATTR_NAME) return BK_ATTR;
  if (P->depth == 0) /* after a computation's name, signature or result shape */
    return prev == HT_IDENT || prev == HT_PCT_NAME || prev == HT_RPAREN || prev == HT_RBRACKET || prev == HT_RBRACE
               ? BK_BODY
               : BK_OTHER;
  int ctx = top_ctx(P);
  return ctx == BK_BODY || ctx == BK_ATTR ? BK_ATTR : ctx == BK_LITERAL ? BK_LITERAL : BK_OTHER;
}

/* Where a tuple shape's '(' may come: after these token kinds. */
static bool shape_may_follow(int prev) {
  switch (prev) {
  case HT_NAME_DEF: case HT_LPAREN: case HT_COMMA: case HT_NAME_COLON: case HT_COLON: case HT_ARROW:
  case HT_ATTR_NAME: case HT_LBRACE: case HT_EQ:
    return true;
  default:
    return false;
  }
}

/* A SHAPE_TOK for the shape S whose text is [START, END). */
static int shape_token(parse_ctx *P, hlo_token *tp, pc_tok *o, const hlo_shape *s, const char *start,
                       const char *end) {
  hlo_lex_skip_to(&P->lx, end);
  tp->kind = *start == '(' ? HT_LPAREN : HT_PRIM_TYPE; /* (for messages: the text is the whole shape) */
  tp->ptr = start;
  tp->len = (size_t)(end - start);
  tp->off = (size_t)(start - P->data);
  o->shape = s;
  o->off = tp->off;
  o->ptr = start;
  o->len = tp->len;
  P->prev_kind = closer_kind(end);
  P->closed_now = false;
  return SHAPE_TOK;
}

/* The grammar token of the lexer token just read, P->last (read after one
 * of kind P->prev_kind), its value in *V. PEND: the P->lex_pending flags
 * for it; PARAMS_PAREN: it may be the '(' of a program shape's parameter
 * list. */
static inline int classify(parse_ctx *P, HLO_YYSTYPE *v, unsigned pend, bool params_paren) {
  hlo_token *tp = P->last;
  int prev = P->prev_kind;
  pc_tok *o = &v->PCT_NAME;
  P->prev_kind = tp->kind;
  memcpy(o, tp, sizeof *o);
  int g = grammar_token[tp->kind];
  if (g) return g;
  switch (tp->kind) {
  case HT_PRIM_TYPE:
    if (P->coarse) {
      const char *end, *start = P->data + tp->off;
      const hlo_shape *s = pc_shape_cache_find(P, start, false, &end);
      if (s) return shape_token(P, tp, o, s, start, end);
    }
    return PRIM_TYPE;
  case HT_LPAREN:
    /* '(' starts a tuple shape only where a shape may start, never right
     * after an opcode (that is the operand list) nor where a program
     * shape's parameter list starts (its text may be that of a tuple
     * shape) */
    if (P->coarse && !params_paren && shape_may_follow(prev)) {
      const char *end, *start = P->data + tp->off;
      const hlo_shape *s = pc_shape_cache_find(P, start, true, &end);
      if (s) return shape_token(P, tp, o, s, start, end);
    }
    if (open_bracket(P, tp, paren_context(P, prev, pend & PC_PEND_LAYOUT_FIELD)) < 0) return HLO_YYerror;
    return LPAREN;
  case HT_EOF:
    P->end_off = tp->off;
    return HLO_YYEOF;
  case HT_ERROR: {
    unsigned char c = (unsigned char)P->data[tp->off];
    if (strcmp(tp->msg, "unexpected character") == 0 && c >= 0x20 && c < 0x7f)
      pc_error(P, tp->off, "unexpected character '%c'", c);
    else if (strcmp(tp->msg, "unexpected character") == 0)
      pc_error(P, tp->off, "unexpected byte 0x%02x", c);
    else
      pc_error(P, tp->off, "%s", tp->msg);
    return HLO_YYerror;
  }
  case HT_SEP:
    if (tp->off >= P->stop_at) { /* the end of a span of modules (hlo_parse_span) */
      P->end_off = tp->off;
      return HLO_YYEOF;
    }
    return SEP;
  case HT_ATTR_NAME: {
    if (P->fa_depth == 1) {
      P->lex_pending |= PC_PEND_RAW;
      return FA_KEY;
    }
    hlo_istr *is = pc_word(P, tp->ptr, tp->len);
    o->is = is;
    int cls = pc_attr_class(pc_attr_id(is));
    if (cls == PC_A_METADATA) P->lex_pending |= PC_PEND_METADATA;
    if (cls == PC_A_BACKEND) P->lex_pending |= PC_PEND_RAW;
    if (cls == PC_A_FRONTEND) P->lex_pending |= PC_PEND_FA;
    if (cls == PC_A_HDR_LAYOUT) {
      P->layout_paren_in = 2; /* '{' then '(' */
      P->lex_pending |= PC_PEND_HDR_LAYOUT;
    }
    return attr_class_token[cls];
  }
  case HT_LBRACE: {
    /* (a layout's brace stays a bracket; so does one whose brackets, the
     * slice ranges' too, would be nested too deeply, for the grammar to
     * report) */
    if (P->coarse && !pend && prev != HT_RBRACKET && !P->fa_depth && P->depth < HLO_MAX_NESTING - 1 &&
        hlo_lex_int_brace(&P->lx, tp)) {
      o->kind = tp->kind;
      o->len = tp->len;
      P->prev_kind = HT_RBRACE;
      return tp->kind == HT_INT_LIST ? INT_LIST : SLICES;
    }
    int tok = LBRACE, ctx;
    if (prev == HT_RBRACKET && layout_brace_follows(P)) {
      tok = LAYOUT_LBRACE;
      ctx = BK_LAYOUT;
      HB_PUSH(P->lay_track, pc_lay_track, ((pc_lay_track){false}));
    } else {
      ctx = brace_context(P, prev);
    }
    if (pend & PC_PEND_FA) P->fa_depth = 1;
    else if (P->fa_depth > 0) P->fa_depth++;
    if (open_bracket(P, tp, ctx) < 0) return HLO_YYerror;
    return tok;
  }
  case HT_RBRACE:
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT && HB_AT(P->brackets, pc_bracket, P->brackets.n - 1).open == '{')
      P->lay_track.n--;
    if (P->fa_depth > 0) P->fa_depth--;
    close_bracket(P, '{');
    return RBRACE;
  case HT_RPAREN:
    close_bracket(P, '(');
    return RPAREN;
  case HT_LBRACKET:
    if (open_bracket(P, tp, prev == HT_PRIM_TYPE ? BK_DIMS : top_ctx(P) == BK_LAYOUT ? BK_LAYOUT : BK_OTHER) < 0)
      return HLO_YYerror;
    return LBRACKET;
  case HT_RBRACKET:
    close_bracket(P, '[');
    return RBRACKET;
  case HT_COLON:
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT && HB_AT(P->brackets, pc_bracket, P->brackets.n - 1).open == '{')
      HB_AT(P->lay_track, pc_lay_track, P->lay_track.n - 1).fields = true;
    return COLON;
  case HT_IDENT: /* directly inside a layout's braces, after its ':' */
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT && HB_AT(P->brackets, pc_bracket, P->brackets.n - 1).open == '{' &&
        HB_AT(P->lay_track, pc_lay_track, P->lay_track.n - 1).fields) {
      int lf = layout_letter(tp);
      if (lf) {
        P->lex_pending |= PC_PEND_LAYOUT_FIELD;
        return lf;
      }
    }
    return IDENT;
  default:
    return HLO_YYUNDEF;
  }
}

/* hlo_yylex when P->lex_pending has flags: what the token before asked
 * for, a module to begin, the diagnostic parse's bookkeeping (out of line:
 * the usual token pays nothing for it). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int lex_pending(HLO_YYSTYPE *v, parse_ctx *P) {
  hlo_token *tp = P->last;
  if (P->lex_pending & PC_PEND_MESSAGES) { /* the new token goes where the one before the last was */
    tp = P->before_last;
    P->before_last = P->last;
    P->last = tp;
    P->closed_now = false;
  }
  unsigned pend = P->lex_pending;
  P->lex_pending &= PC_PEND_MESSAGES | PC_PEND_MODULE;
  /* the '(' of a program shape's parameter list */
  bool params_paren = false;
  if (pend & PC_PEND_HDR_LAYOUT) {
    params_paren = --P->layout_paren_in == 0;
    if (P->layout_paren_in) P->lex_pending |= PC_PEND_HDR_LAYOUT;
  }
  if ((pend & PC_PEND_METADATA) && P->coarse && hlo_lex_metadata(&P->lx, tp)) {
    pc_tok *o = &v->PCT_NAME;
    o->ptr = tp->ptr;
    o->len = (uint32_t)tp->len;
    o->off = tp->off;
    o->kind = HT_METADATA;
    P->prev_kind = HT_RBRACE;
    P->closed_now = false;
    return METADATA_VALUE;
  }
  if (!(pend & PC_PEND_RAW) || !hlo_lex_raw_dict(&P->lx, tp)) hlo_lex(&P->lx, tp);
  if ((pend & PC_PEND_MODULE) && tp->kind != HT_EOF && tp->kind != HT_SEP && tp->kind != HT_ERROR) {
    pc_module_begin_if_needed(P, tp->off);
    P->lex_pending &= (uint8_t)~PC_PEND_MODULE;
  }
  return classify(P, v, pend & PC_PEND_NEXT, params_paren);
}

/* The usual token: the coarse parse's, with nothing pending. */
int hlo_yylex(HLO_YYSTYPE *v, parse_ctx *P) {
  if (P->lex_pending) return lex_pending(v, P);
  hlo_lex(&P->lx, P->last);
  return classify(P, v, 0, false);
}

void pc_describe_last(parse_ctx *P, char *buf, size_t cap) {
  const hlo_token *t = P->last;
  /* At most 48 bytes of the token, up to its first line end (an
   * unterminated string runs on over lines): the text goes into a one-line
   * diagnostic (whose printer turns other unprintable bytes into '?'). */
  size_t n = 0;
  while (n < t->len && n < 48 && t->ptr[n] != '\n' && t->ptr[n] != '\r') n++;
  const char *text = t->ptr, *more = n < t->len ? "..." : "";
  switch (t->kind) {
  case HT_EOF: snprintf(buf, cap, "end of input"); return;
  case HT_SEP: snprintf(buf, cap, "'// -----'"); return;
  case HT_RAW_DICT: case HT_METADATA: case HT_INT_LIST: case HT_SLICES: snprintf(buf, cap, "'{...}'"); return;
  case HT_PCT_NAME: snprintf(buf, cap, "'%%%.*s%s'", (int)n, text, more); return;
  case HT_NAME_COLON: snprintf(buf, cap, "'%.*s%s:'", (int)n, text, more); return;
  case HT_ATTR_NAME: snprintf(buf, cap, "'%.*s%s='", (int)n, text, more); return;
  case HT_NAME_DEF:
    snprintf(buf, cap, "'%s%.*s%s ='", P->data[t->off] == '%' ? "%" : "", (int)n, text, more);
    return;
  default:
    snprintf(buf, cap, "'%.*s%s'", (int)n, text, more);
    return;
  }
}

const char *pc_bracket_context(parse_ctx *P) {
  if (P->closed_now) return bk_names[P->closed_ctx]; /* the bracket the last token closed */
  if (!P->brackets.n) return NULL;
  /* An opener just read belongs to the bracket around it. */
  size_t i = P->brackets.n - 1;
  hlo_tok_kind k = P->last->kind;
  if (k == HT_LBRACE || k == HT_LPAREN || k == HT_LBRACKET) {
    if (i == 0) return NULL;
    i--;
  }
  return bk_names[HB_AT(P->brackets, pc_bracket, i).ctx];
}

bool pc_unclosed_bracket(parse_ctx *P, size_t *off, char *open, bool *body) {
  if (!P->brackets.n) return false;
  size_t i = P->brackets.n - 1;
  /* a bracket the last token opened is not "unclosed" yet */
  hlo_tok_kind k = P->last->kind;
  if ((k == HT_LBRACE || k == HT_LPAREN || k == HT_LBRACKET) && HB_AT(P->brackets, pc_bracket, i).off == P->last->off) {
    if (i == 0) return false;
    i--;
  }
  const pc_bracket *b = &HB_AT(P->brackets, pc_bracket, i);
  *off = b->off;
  *open = b->open;
  *body = b->ctx == BK_BODY;
  return true;
}
