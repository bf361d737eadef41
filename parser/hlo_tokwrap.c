/* The token wrapper between the re2c lexer and the Bison parser.
 *
 * It maps lexer tokens to grammar tokens and adds the context-dependent
 * decisions that keep the grammar LALR(1):
 *   - NAME_DEF: a name followed by '=' (the start of an instruction);
 *   - LAYOUT_LBRACE: '{' right after ']' whose content starts like a layout
 *     (a digit, '-', ':' or '}'), §9.3;
 *   - RAW_DICT after backend_config= and after a key of
 *     frontend_attributes={...}, §9.2;
 *   - the layout field letters T L E S SC P M D after a layout's ':';
 *   - attribute names classified by the attribute catalogue, §9.1;
 *   - folded tokens, one token for what the grammar would read as several:
 *     SHAPE_TOK (a shape the shape cache knows) and OPERAND_LIST, also in
 *     the diagnostic re-parse (from its own module's shapes only); and,
 *     never there, SIGNATURE, COMP_HEAD (a computation's name, signature
 *     and '{': comp_head_fold), HDR_ATTR and HDR_LAYOUT (', name=value'
 *     in the module's header: header_attr_fold), ST_ENTRIES and
 *     ST_STRINGS (the entries of a stack-frame table), COMMA_ATTR and
 *     COMMA_COMP (', name=value' inside a computation body: attr_fold),
 *     INSTR_HEAD ('name = shape opcode(operands)', 'name = shape
 *     parameter(N)' or 'constant(literal)', and the attributes after it
 *     that attr_fold takes: head_fold), and INSTR_RUN (a run of such
 *     instructions, built here: instr_run; RUN_END when the computation's
 *     '}' ends it). Each is held to the parse that folds none
 *     (hlo_parse_file_unfolded) by parser/folds and parser/fold_inputs.
 * It also limits the bracket nesting depth (HLO_MAX_NESTING). */
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

static int lexer_to_grammar(hlo_tok_kind k) {
  switch (k) {
  case HT_PCT_NAME: return PCT_NAME;
  case HT_NAME_COLON: return NAME_COLON;
  case HT_PRIM_TYPE: return PRIM_TYPE;
  case HT_IDENT: return IDENT;
  case HT_INT: return INT;
  case HT_FLOAT: return FLOAT;
  case HT_NEG_INF: return NEG_INF;
  case HT_DIM_LABELS: return DIM_LABELS;
  case HT_DXD: return DXD;
  case HT_PAD: return PAD;
  case HT_STRING: return STRING;
  case HT_RAW_DICT: return RAW_DICT;
  case HT_ARROW: return ARROW;
  case HT_LEQ: return LEQ;
  case HT_DOTS: return DOTS;
  case HT_B_PAREN: return B_PAREN;
  case HT_EQ: return EQ;
  case HT_COMMA: return COMMA;
  case HT_COLON: return COLON;
  case HT_STAR: return STAR;
  case HT_QUESTION: return QUESTION;
  case HT_HASH: return HASH;
  case HT_PLUS: return PLUS;
  case HT_TILDE: return TILDE;
  case HT_LBRACKET: return LBRACKET;
  case HT_RBRACKET: return RBRACKET;
  case HT_LBRACE: return LBRACE;
  case HT_RBRACE: return RBRACE;
  case HT_LPAREN: return LPAREN;
  case HT_RPAREN: return RPAREN;
  case HT_KW_TRUE: return KW_TRUE;
  case HT_KW_FALSE: return KW_FALSE;
  case HT_KW_INF: return KW_INF;
  case HT_KW_HLOMODULE: return KW_HLOMODULE;
  case HT_KW_ENTRY: return KW_ENTRY;
  case HT_KW_ROOT: return KW_ROOT;
  case HT_KW_FILENAMES: return KW_FILENAMES;
  case HT_KW_FUNCTIONNAMES: return KW_FUNCTIONNAMES;
  case HT_KW_FILELOCATIONS: return KW_FILELOCATIONS;
  case HT_KW_STACKFRAMES: return KW_STACKFRAMES;
  case HT_KW_MAXIMAL: return KW_MAXIMAL;
  case HT_KW_REPLICATED: return KW_REPLICATED;
  case HT_KW_MANUAL: return KW_MANUAL;
  case HT_KW_UNKNOWN: return KW_UNKNOWN;
  case HT_KW_UNREDUCED: return KW_UNREDUCED;
  case HT_KW_LAST_TILE_DIM_REPLICATE: return KW_LAST_TILE;
  case HT_KW_SHARD_AS: return KW_SHARD_AS;
  case HT_KW_SHARD_LIKE: return KW_SHARD_LIKE;
  case HT_KW_CONSTANT: return KW_CONSTANT;
  case HT_KW_PARAMETER: return KW_PARAMETER;
  case HT_SEP: return SEP;
  default: return HLO_YYUNDEF;
  }
}

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
  PC_PUSH(P->brackets, pc_bracket, ((pc_bracket){(unsigned char)ctx, t->ptr[0], t->off}));
  return 0;
}

static int top_ctx(parse_ctx *P) {
  return P->brackets.n ? PC_AT(P->brackets, pc_bracket, P->brackets.n - 1).ctx : BK_OTHER;
}

/* Closes the innermost bracket if OPEN matches it (a mismatch is left for
 * the grammar to report, with the bracket still open). */
static void close_bracket(parse_ctx *P, char open) {
  if (P->depth > 0 && PC_AT(P->brackets, pc_bracket, P->brackets.n - 1).open == open) {
    P->depth--;
    P->brackets.n--;
    P->closed_ctx = PC_AT(P->brackets, pc_bracket, P->brackets.n).ctx;
    P->closed_now = true;
  }
}

/* The next token, when it is the usual 'name=' (blanks, then an identifier
 * directly followed by '=': what hlo_lex reads as HT_ATTR_NAME) without
 * running the lexer; anything else is left to hlo_lex. (For an
 * HT_ATTR_NAME only kind, ptr, len and off are set: what its callers
 * read.) */
static void lex_attr_name(hlo_lexer *lx, hlo_token *t) {
  const char *p = pc_skip_blanks(lx->cur), *q = p;
  if (pc_id_start(*q)) {
    q = pc_skip_id_tail(q + 1, lx->lim);
    if (*q == '=') {
      t->kind = HT_ATTR_NAME;
      t->ptr = p;
      t->len = (size_t)(q - p);
      t->off = (size_t)(p - lx->base);
      lx->cur = q + 1;
      return;
    }
  }
  hlo_lex(lx, t);
}

/* After backend_config= or a key of frontend_attributes: what the
 * grammar's backend_value takes, a raw dictionary or a string, read as
 * hlo_yylex reads it there (raw_next). */
static bool raw_value(hlo_lexer *lx, hlo_token *t) {
  if (!hlo_lex_raw_dict(lx, t)) hlo_lex(lx, t);
  return t->kind == HT_RAW_DICT || t->kind == HT_STRING;
}

/* After frontend_attributes=: what the grammar's fa_value takes, '{',
 * items 'key=' raw_value separated by ',' (one may end them), '}'. The '{'
 * in *OPEN, the '}' in *CLOSE. */
static bool fa_value(hlo_lexer *lx, hlo_token *open, hlo_token *close) {
  hlo_lex(lx, open);
  if (open->kind != HT_LBRACE) return false;
  hlo_lex(lx, close);
  while (close->kind != HT_RBRACE) {
    if (close->kind != HT_ATTR_NAME || !raw_value(lx, close)) return false;
    hlo_lex(lx, close);
    if (close->kind == HT_COMMA) hlo_lex(lx, close);
    else if (close->kind != HT_RBRACE) return false;
  }
  return true;
}

/* The ',' in TP was read directly inside a computation body, where it can
 * only separate an instruction's attributes. When 'name=value' follows and
 * is the usual metadata value (metadata_scan.c), the usual sharding
 * (sharding_scan.c), a raw value (value_scan.c), or what backend_config=
 * or frontend_attributes= take (raw_value, fa_value), all of it becomes one
 * COMMA_ATTR token: the name in *O, the value's extent in *L; when it is a
 * computation attribute with a name, one COMMA_COMP token (the computation
 * name's extent in *L). TP stays the ','. Returns 0 (and moves nothing)
 * otherwise. The grammar takes both wherever ',' may start an attribute;
 * the diagnostic re-parse (token_by_token) reads the pieces, so the
 * "expected" lists of what may follow a value stay exact. */
static int attr_fold(parse_ctx *P, pc_tok *o, HLO_YYLTYPE *l) {
  const char *save = P->lx.cur;
  hlo_token name;
  lex_attr_name(&P->lx, &name);
  if (name.kind == HT_ATTR_NAME) {
    hlo_istr *is = pc_word(P, name.ptr, name.len);
    int cls = pc_attr_class(pc_attr_id(is)), tok = COMMA_ATTR;
    const char *start = NULL, *end = NULL;
    int last_kind = HT_RBRACE;
    if ((cls == PC_A_METADATA && pc_metadata_scan(&P->lx, &start, &end)) ||
        (cls == PC_A_SHARDING && pc_sharding_scan(P, &start, &end))) {
      P->lx.cur = end;
    } else if (cls == PC_A_GENERIC) {
      hlo_token last;
      if (pc_value_scan(P, &last, &start)) {
        end = last.ptr + last.len;
        last_kind = last.kind;
      }
    } else if (cls == PC_A_BACKEND || cls == PC_A_FRONTEND) {
      hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
      hlo_token first, last;
      if (cls == PC_A_BACKEND ? raw_value(&lx, &first) : fa_value(&lx, &first, &last)) {
        if (cls == PC_A_BACKEND) last = first;
        P->lx.cur = lx.cur;
        start = P->data + first.off;
        end = last.ptr + last.len;
        last_kind = last.kind;
      }
    } else if (cls == PC_A_COMP) { /* calls=%f, to_apply=add, ...: a name not followed by '=' */
      hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
      hlo_token t;
      const char *at;
      hlo_lex(&lx, &t);
      if ((t.kind == HT_PCT_NAME || t.kind == HT_IDENT) && hlo_lex_peek(&lx, &at) != '=') {
        P->lx.cur = lx.cur;
        start = P->data + t.off;
        end = t.ptr + t.len;
        last_kind = t.kind;
        tok = COMMA_COMP;
      }
    }
    if (end) {
      o->ptr = name.ptr;
      o->len = (uint32_t)name.len;
      o->off = name.off;
      o->kind = HT_ATTR_NAME;
      o->is = is;
      l->first = (size_t)(start - P->data);
      l->last = (size_t)(end - P->data);
      P->prev_kind = last_kind;
      return tok;
    }
  }
  P->lx.cur = save;
  return 0;
}

/* The ',' in TP was read outside any bracket before the module's first
 * computation, where it can only separate the module's attributes. When
 * 'name=value' follows, with a value the grammar's header_attr takes
 * (one unit, pc_unit_scan, after a plain attribute; what
 * frontend_attributes= and backend_config= take), all of it becomes one
 * HDR_ATTR token: the name in *O, the value's extent in *L; for the usual
 * entry_computation_layout (pc_program_shape_scan), one HDR_LAYOUT token,
 * its shapes on P->shapes (their range in O->ops: the parameters', then
 * the result's). TP stays the ','. Returns 0 (and moves nothing)
 * otherwise. */
static int header_attr_fold(parse_ctx *P, pc_tok *o, HLO_YYLTYPE *l) {
  const char *save = P->lx.cur;
  hlo_token name, first, last;
  lex_attr_name(&P->lx, &name);
  if (name.kind == HT_ATTR_NAME) {
    hlo_istr *is = pc_word(P, name.ptr, name.len);
    int cls = pc_attr_class(pc_attr_id(is)), tok = HDR_ATTR;
    const char *open, *end = NULL;
    bool ok = false;
    hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
    if (cls == PC_A_GENERIC) {
      ok = pc_unit_scan(P, &first, &last);
      lx.cur = P->lx.cur;
    } else if (cls == PC_A_FRONTEND) {
      ok = fa_value(&lx, &first, &last);
    } else if (cls == PC_A_BACKEND) {
      ok = raw_value(&lx, &first);
      last = first;
    } else if (cls == PC_A_HDR_LAYOUT && hlo_lex_peek(&lx, &open) == '{' &&
               pc_program_shape_scan(P, open, &end, &o->ops)) {
      ok = true;
      first = (hlo_token){.kind = HT_LBRACE, .off = (size_t)(open - P->data)};
      last = (hlo_token){.kind = HT_RBRACE, .ptr = end - 1, .len = 1};
      lx.cur = end;
      tok = HDR_LAYOUT;
    }
    if (ok) {
      P->lx.cur = lx.cur;
      o->ptr = name.ptr;
      o->len = (uint32_t)name.len;
      o->off = name.off;
      o->kind = HT_ATTR_NAME;
      if (tok == HDR_ATTR) o->is = is;
      l->first = first.off;
      l->last = (size_t)(last.ptr + last.len - P->data);
      P->prev_kind = last.kind;
      return tok;
    }
  }
  P->lx.cur = save;
  return 0;
}

/* The number of the first entry of a FileNames or FunctionNames table
 * (TP) was just read: the entries, 'INT STRING' pairs, up to the first
 * that is not one, become one ST_STRINGS token (TP its last string).
 * Returns false (and moves nothing) when not even the first is a pair. */
static bool st_strings_fold(parse_ctx *P, HLO_YYLTYPE *l, hlo_token *tp) {
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t, last;
  hlo_lex(&lx, &last);
  if (last.kind != HT_STRING) return false;
  for (;;) {
    P->lx.cur = lx.cur;
    hlo_lex(&lx, &t);
    if (t.kind != HT_INT) break;
    hlo_lex(&lx, &t);
    if (t.kind != HT_STRING) break;
    last = t;
  }
  *tp = last;
  l->last = last.off + last.len;
  P->prev_kind = HT_STRING;
  return true;
}

/* A folded token ends with the closing bracket (KIND) before END: the lexer
 * goes on there, and TP, the last token read, is that bracket (the one
 * before it is never looked at: the next call moves it out, and an error at
 * a folded token is reported by the token-by-token re-parse). */
static void end_at_closer(parse_ctx *P, HLO_YYLTYPE *l, hlo_token *tp, const char *end, hlo_tok_kind kind) {
  hlo_lex_skip_to(&P->lx, end);
  l->last = (size_t)(end - P->data);
  P->prev_kind = kind;
  tp->kind = kind;
  tp->ptr = end - 1;
  tp->len = 1;
  tp->off = (size_t)(end - 1 - P->data);
}

/* The kind of the closing bracket a folded shape or signature text ends with. */
static hlo_tok_kind closer_kind(const char *end) {
  return end[-1] == ')' ? HT_RPAREN : end[-1] == '}' ? HT_RBRACE : HT_RBRACKET;
}

/* *O = the lexer token T, stored field by field: a pc_tok built on the
 * stack and copied would be read back in 16-byte loads from the 8-byte
 * stores that wrote it, which the store buffer cannot forward (a stall of
 * about a dozen cycles, several per instruction line). */
static void tok_set(pc_tok *o, const hlo_token *t) {
  o->ptr = t->ptr;
  o->len = (uint32_t)t->len;
  o->kind = (uint8_t)t->kind;
  o->sub = 0;
  o->neg = t->neg;
  o->off = t->off;
  o->u = t->u;
}

static bool scalar_kind(hlo_tok_kind k) {
  return k == HT_INT || k == HT_FLOAT || k == HT_KW_INF || k == HT_NEG_INF || k == HT_KW_TRUE || k == HT_KW_FALSE;
}

/* A literal as the grammar's lit takes it, read from LX inside
 * 'constant(' (at P->depth + 1): a scalar, '{...}', or '{' or '(' around
 * literals separated by ','. Its last token in *T. Gives up (false) on
 * anything else, past 64 brackets, and at a '(' the token wrapper would
 * read as a tuple shape the shape cache knows. */
static bool lit_scan(parse_ctx *P, hlo_lexer *lx, hlo_token *t) {
  enum { MAX = 64 };
  hlo_tok_kind close[MAX];
  int n = 0;
  for (;;) {
    hlo_lex(lx, t); /* a literal */
    hlo_tok_kind k = t->kind;
    if (k == HT_LBRACE || k == HT_LPAREN) {
      const char *e;
      if (n == MAX || P->depth + 2 + n >= HLO_MAX_NESTING) return false;
      if (k == HT_LPAREN && pc_shape_cache_find(P, t->ptr, true, &e)) return false;
      close[n++] = k == HT_LBRACE ? HT_RBRACE : HT_RPAREN;
      hlo_lexer save = *lx;
      hlo_lex(lx, t);
      if (k == HT_LBRACE && t->kind == HT_DOTS) hlo_lex(lx, t);
      else if (t->kind != close[n - 1]) { /* a list: its first literal next */
        *lx = save;
        continue;
      }
      if (t->kind != close[--n]) return false;
    } else if (!scalar_kind(k)) {
      return false;
    }
    for (;;) { /* after a literal: the end, a ',' and the next one, or a closer */
      if (n == 0) return true;
      hlo_lex(lx, t);
      if (t->kind == HT_COMMA) break;
      if (t->kind != close[--n]) return false;
    }
  }
}

/* After 'parameter' or 'constant' (KW, read from LX): '(' what the
 * grammar's rhs rules take there without an error: a parameter number in
 * range, or a literal (lit_scan). Its extent in *ARG (one token for a
 * parameter number or a scalar), the end of the ')' in *END. */
static bool one_arg(parse_ctx *P, hlo_lexer *lx, const hlo_token *kw, hlo_token *arg, const char **end) {
  hlo_token t;
  /* the usual '(' digits ')' read from its bytes: the lexer's LPAREN, INT
   * (digits followed by ')', at most 18 of them) and RPAREN */
  const char *d = lx->cur + 1, *q;
  uint64_t u;
  if (*lx->cur == '(' && (q = pc_plain_uint(d, &u)) && *q == ')') {
    if (kw->kind == HT_KW_PARAMETER && u > (1u << 30)) return false;
    *arg = (hlo_token){.kind = HT_INT, .ptr = d, .len = (size_t)(q - d), .off = (size_t)(d - lx->base), .u = u};
    *end = q + 1;
    return true;
  }
  hlo_lex(lx, &t);
  if (t.kind != HT_LPAREN) return false;
  hlo_lexer at = *lx;
  hlo_lex(lx, arg);
  if (kw->kind == HT_KW_PARAMETER) {
    if (arg->kind != HT_INT || arg->neg || arg->u > (1u << 30)) return false;
  } else if (!scalar_kind(arg->kind)) {
    /* an array or tuple literal: its whole text */
    *lx = at;
    if (!lit_scan(P, lx, &t)) return false;
    arg->len = (size_t)(t.ptr + t.len - arg->ptr);
  }
  hlo_lex(lx, &t);
  if (t.kind != HT_RPAREN) return false;
  *end = t.ptr + 1;
  return true;
}

/* The opcode after an instruction's shape that ends at P, read without
 * the lexer's automaton: blanks, then a word directly followed by its '('
 * that names a known opcode. Such a word is the lexer's IDENT token, but
 * for parameter and constant, its keywords (lexer/words holds every opcode
 * name to that). Fills *T as the lexer would and returns true, with the
 * opcode's interned word in *WORD (NULL for the keywords); false
 * otherwise (the lexer reads what is there). */
static bool opcode_token(parse_ctx *P, const char *p, hlo_token *t, hlo_istr **word) {
  p = pc_skip_blanks(p);
  if (!(*p >= 'a' && *p <= 'z')) return false;
  const char *e = p + 1;
  while (pc_id_char(*e)) e++; /* (opcodes are short: a byte loop beats blocks) */
  if (*e != '(') return false;
  hlo_istr *w = pc_word(P, p, (size_t)(e - p));
  if (w->opcode < 0) { /* (looked up once per word and module) */
    hlo_opcode wrapped;
    pc_opcode_of(w, &wrapped);
  }
  hlo_opcode op = (hlo_opcode)(w->opcode & 0xffff);
  if (op == HLO_OP_UNKNOWN) return false;
  t->kind = op == HLO_OP_PARAMETER ? HT_KW_PARAMETER : op == HLO_OP_CONSTANT ? HT_KW_CONSTANT : HT_IDENT;
  t->ptr = p;
  t->len = (size_t)(e - p);
  t->off = (size_t)(p - P->data);
  t->neg = false;
  t->u = 0;
  *word = t->kind == HT_IDENT ? w : NULL;
  return true;
}

/* 'name =' was just read (the name in *O, TP) directly inside a top-level
 * computation body, where it can only start an instruction. When the shape
 * cache knows the shape that follows and an opcode with an operand list of
 * the usual form (operand_scan.c), 'parameter(N)' or 'constant(literal)'
 * comes next, all of it becomes one INSTR_HEAD token: the name in *O, the
 * rest in *H, TP the ')'. The attributes after it that attr_fold takes,
 * up to the first it does not, join the token (H->attrs, a range of
 * P->head_attrs: they are added after those there), so
 * that the grammar shifts and reduces less (121 K -> 86 K tokens in the
 * first 10 MB of the bench input). Returns 0 (and moves nothing)
 * otherwise. */
#if defined(__GNUC__)
/* (two callers, hlo_yylex and instr_run: out of line it costs 0.6% more
 * instructions on the bench input) */
__attribute__((always_inline))
#endif
static inline int head_fold(parse_ctx *P, HLO_YYLTYPE *l, hlo_token *tp, pc_head *h, const hlo_token *name) {
  hlo_lexer lx = PC_LEXER_AT(P, P->lx.cur);
  hlo_token t, arg;
  /* the name is interned once the rest is read: its table slot comes into
   * the cache meanwhile */
  uint32_t name_hash = hlo_intern_prefetch(P->in, name->ptr, name->len);
  /* a shape the cache knows (its text starts with '(' or an element type;
   * after a comment the fold is not tried) */
  const char *end, *open, *at = pc_skip_blanks(lx.cur);
  if (!(*at == '(' || (*at >= 'a' && *at <= 'z'))) return 0;
  const hlo_shape *s = pc_shape_cache_find(P, at, *at == '(', &end);
  if (!s) return 0;
  const char *shape_end = end;
  hlo_istr *op = NULL;
  if (opcode_token(P, end, &t, &op)) {
    hlo_lex_skip_to(&lx, t.ptr + t.len); /* at its '(' */
  } else {
    hlo_lex_skip_to(&lx, end);
    hlo_lex(&lx, &t);
  }
  if (t.kind == HT_IDENT) {
    if (hlo_lex_peek(&lx, &open) != '(') return 0;
    if (!pc_operand_scan(P, open, &end, &h->ops)) return 0;
    if (!op) op = pc_word(P, t.ptr, t.len);
  } else if (t.kind == HT_KW_PARAMETER || t.kind == HT_KW_CONSTANT) {
    if (!one_arg(P, &lx, &t, &arg, &end)) return 0;
    tok_set(&h->arg, &arg);
  } else {
    return 0;
  }
  h->shape = s;
  h->name = P->last_def = hlo_intern_get_hashed(P->in, name->ptr, name->len, name_hash);
  h->name->decl_text = at;
  h->name->decl_len = (uint32_t)(shape_end - at);
  h->name->decl_shape = s;
  tok_set(&h->opcode, &t);
  h->opcode.is = op; /* (pc_rhs_head looks it up no more) */
  end_at_closer(P, l, tp, end, HT_RPAREN);
  /* the attributes that attr_fold takes, each directly after the last */
  h->attrs.b = h->attrs.e = (uint32_t)P->head_attrs.n;
  for (;;) {
    const char *c = pc_skip_blanks(P->lx.cur);
    if (*c != ',') {
      /* the blanks (the line break and the next line's indent) are read:
       * the callers' tests for ',' and the next token start after them */
      P->lx.cur = c;
      break;
    }
    const char *save = P->lx.cur;
    HLO_YYLTYPE al;
    /* filled in place: a copy of the record would be a slow string move */
    pc_head_attr *a = pc_vec_push_raw(&P->head_attrs, sizeof *a);
    P->lx.cur = c + 1;
    int tok = attr_fold(P, &a->name, &al);
    if (!tok) { /* the ',' is read again, as a token */
      P->head_attrs.n--;
      P->lx.cur = save;
      break;
    }
    a->loc = al;
    a->comp = tok == COMMA_COMP;
    h->attrs.e++;
    l->last = (size_t)(P->lx.cur - P->data);
  }
  return INSTR_HEAD;
}

/* Whether a ',' comes next, after blanks and comments: then the
 * instruction head_fold read goes on with attributes it did not take. */
static bool comma_next(parse_ctx *P) {
  const char *c = pc_skip_blanks(P->lx.cur), *at;
  if (*c != '/') return *c == ',';
  return hlo_lex_peek(&P->lx, &at) == ','; /* (a comment before the ',') */
}

/* Lines per run at most, so that the run's records stay few (150 bytes
 * each). Longer runs measured faster: with at most 4 lines, 1% slower
 * than no runs at all on the bench input; 16, the same; 64, 1.8% faster;
 * 256 and more, 2.5%. */
#define RUN_MAX 1024

/* head_fold has just read an instruction (not after ROOT; its name in *O,
 * its parts in P->head) with nothing after it that continues it (no ',').
 * Rather than returning it as INSTR_HEAD, for the grammar to shift it and
 * reduce three rules, the following lines of the same form ('name = ...'
 * or 'ROOT name = ...' that head_fold takes) are read too, and one
 * INSTR_RUN token stands for all of them: the grammar's 'instruction:
 * INSTR_RUN' builds them (pc_run_build), in the order and with the actions
 * of their INSTR_HEAD tokens, right after the reductions still due before
 * it (the previous instruction's). A line with ',' after what head_fold
 * took ends the run: it becomes the next token, an INSTR_HEAD (its parts
 * in P->head; parse_ctx.stash). The '}' that ends a top-level
 * computation ends the run too, and RUN_END stands for both (the grammar's
 * body_end). Any other line that does not fold is read
 * again from its start, as it would have been after an INSTR_HEAD. Where
 * the grammar could not take an instruction, it rejects INSTR_RUN as it
 * would INSTR_HEAD (the diagnostic re-parse, which never folds, reports
 * it). */
static int instr_run(parse_ctx *P, const pc_tok *o, HLO_YYLTYPE *l, hlo_token *tp) {
  P->run.n = 0;
  pc_run_line *ln = pc_vec_push_raw(&P->run, sizeof *ln);
  ln->root.kind = HT_EOF;
  ln->name = *o;
  ln->head = P->head;
  /* Records and tokens are written in place, field by field, not built
   * and copied (see tok_set); the closing token of the last line read
   * goes to TP at the end. */
  hlo_token tps[2];
  int cur = 0;
  bool more = false; /* a line was added after the first */
  for (;;) {
    if (P->run.n == RUN_MAX) break;
    const char *save_cur = P->lx.cur;
    int save_prev = P->prev_kind;
    size_t save_ops = P->operands.n, save_attrs = P->head_attrs.n;
    ln = pc_vec_push_raw(&P->run, sizeof *ln);
    ln->root.kind = HT_EOF;
    hlo_token t;
    const char *at;
    hlo_lex(&P->lx, &t);
    if (t.kind == HT_RBRACE && P->depth == 1 && top_ctx(P) == BK_BODY) { /* the computation's end */
      P->run.n--;
      close_bracket(P, '{');
      P->prev_kind = HT_RBRACE;
      *tp = t;
      l->last = t.off + 1;
      return RUN_END;
    }
    if (t.kind == HT_KW_ROOT) {
      tok_set(&ln->root, &t);
      hlo_lex(&P->lx, &t);
    }
    if (pc_name_like(t.kind) && hlo_lex_peek(&P->lx, &at) == '=') {
      hlo_lex_skip_to(&P->lx, at + 1);
      HLO_YYLTYPE l2 = {t.off, 0};
      hlo_token *tp2 = &tps[cur ^ 1];
      if (head_fold(P, &l2, tp2, &ln->head, &t)) {
        tok_set(&ln->name, &t);
        if (!comma_next(P)) {
          l->last = l2.last;
          cur ^= 1;
          more = true;
          continue;
        }
        if (ln->root.kind == HT_EOF) { /* the next token: INSTR_HEAD */
          P->run.n--;
          P->head = ln->head;
          P->stash = true;
          P->stash_name = ln->name;
          P->stash_loc = l2;
          P->stash_tok = *tp2;
          break;
        }
      }
    }
    /* not one of them: read again from there */
    P->run.n--;
    P->lx.cur = save_cur;
    P->prev_kind = save_prev;
    P->operands.n = save_ops;
    P->head_attrs.n = save_attrs;
    break;
  }
  if (more) *tp = tps[cur];
  return INSTR_RUN;
}

/* The name in *O (TP) was just read outside any bracket, where a name
 * that is not the module's or an attribute's value can only start a
 * computation, and AT is the next byte, '(' or '{'. When the usual
 * signature (signature_scan.c) or none comes before the '{' of the body,
 * all of it becomes one COMP_HEAD token: the name in *O, the signature's
 * result shape in O->shape (NULL: none); TP becomes the '{', whose bracket
 * it opens. Returns 0 (and moves nothing) otherwise. */
static int comp_head_fold(parse_ctx *P, pc_tok *o, HLO_YYLTYPE *l, hlo_token *tp, const char *at) {
  const hlo_shape *sig = NULL;
  if (*at == '(') {
    const char *end;
    if (!(sig = pc_signature_scan(P, at, &end))) return 0;
    hlo_lexer lx = PC_LEXER_AT(P, end);
    if (hlo_lex_peek(&lx, &at) != '{') return 0;
  }
  hlo_lex_skip_to(&P->lx, at + 1);
  tp->kind = HT_LBRACE;
  tp->ptr = at;
  tp->len = 1;
  tp->off = (size_t)(at - P->data);
  if (open_bracket(P, tp, BK_BODY) < 0) return HLO_YYerror; /* (not at depth 0) */
  o->shape = sig;
  l->last = tp->off + 1;
  P->prev_kind = HT_LBRACE;
  return COMP_HEAD;
}

int hlo_yylex(HLO_YYSTYPE *v, HLO_YYLTYPE *l, parse_ctx *P) {
  /* the new token goes where the one before the last was */
  hlo_token *tp = P->before_last;
  P->before_last = P->last;
  P->last = tp;
  if (P->stash) { /* the INSTR_HEAD that ended an INSTR_RUN */
    P->stash = false;
    *tp = P->stash_tok;
    v->PCT_NAME = P->stash_name;
    *l = P->stash_loc;
    return INSTR_HEAD;
  }
  bool after_opcode = P->after_opcode; /* set by the grammar's opcode rule */
  P->after_opcode = false;
  if (P->metadata_next) {
    P->metadata_next = false;
    const char *start, *end;
    if (pc_metadata_scan(&P->lx, &start, &end)) {
      P->lx.cur = end;
      v->PCT_NAME.ptr = start;
      v->PCT_NAME.len = (uint32_t)(end - start);
      v->PCT_NAME.off = (size_t)(start - P->data);
      v->PCT_NAME.kind = HT_RAW_DICT;
      l->first = (size_t)(start - P->data);
      l->last = (size_t)(end - P->data);
      P->prev_kind = HT_RBRACE;
      tp->kind = HT_RAW_DICT;
      tp->ptr = start;
      tp->len = (size_t)(end - start);
      tp->off = l->first;
      return METADATA_VALUE;
    }
  }
  if (P->raw_next) {
    P->raw_next = false;
    if (!hlo_lex_raw_dict(&P->lx, tp)) hlo_lex(&P->lx, tp);
  } else {
    hlo_lex(&P->lx, tp);
  }
  int prev = P->prev_kind;
  P->prev_kind = tp->kind;
  P->closed_now = false;
  pc_tok *o = &v->PCT_NAME;
  o->ptr = tp->ptr;
  o->len = tp->len;
  o->off = tp->off;
  /* (not copied together with off: one 16-byte load of the lexer's two
   * 8-byte stores cannot take them from the store buffer, and stalls) */
  o->u = tp->kind == HT_INT ? tp->u : 0;
  o->sub = tp->sub;
  o->neg = tp->neg;
  o->kind = tp->kind;
  l->first = tp->off;
  l->last = (size_t)(tp->ptr - P->data) + tp->len;
  if (tp->kind != HT_EOF && tp->kind != HT_SEP && tp->kind != HT_ERROR && !P->mod)
    pc_module_begin_if_needed(P, tp->off);
  bool fa_pending = P->fa_pending;
  P->fa_pending = false;
  /* the '(' of a program shape's parameter list */
  bool params_paren = P->layout_paren_in && --P->layout_paren_in == 0;
  /* '(' starts a tuple shape only where a shape may start, never right
   * after an opcode (that is the operand list) nor where a program shape's
   * parameter list starts (its text may be that of a tuple shape) */
  if (tp->kind == HT_PRIM_TYPE ||
      (tp->kind == HT_LPAREN && !params_paren &&
       (prev == HT_EQ || prev == HT_LPAREN || prev == HT_COMMA || prev == HT_NAME_COLON || prev == HT_COLON ||
        prev == HT_ARROW || prev == HT_ATTR_NAME || prev == HT_LBRACE))) {
    const char *end;
    const hlo_shape *s = pc_shape_cache_find(P, P->data + tp->off, tp->kind == HT_LPAREN, &end);
    if (s) {
      hlo_lex_skip_to(&P->lx, end);
      o->shape = s;
      l->last = (size_t)(end - P->data);
      P->prev_kind = closer_kind(end);
      return SHAPE_TOK;
    }
  }

  switch (tp->kind) {
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
      P->raw_next = true;
      return FA_KEY;
    }
    hlo_istr *is = pc_word(P, tp->ptr, tp->len);
    o->is = is;
    int cls = pc_attr_class(pc_attr_id(is));
    if (cls == PC_A_METADATA) P->metadata_next = true;
    if (cls == PC_A_BACKEND) P->raw_next = true;
    if (cls == PC_A_FRONTEND) P->fa_pending = true;
    if (cls == PC_A_HDR_LAYOUT) P->layout_paren_in = 2; /* '{' then '(' */
    return attr_class_token[cls];
  }
  case HT_LBRACE: {
    int tok = LBRACE, ctx = BK_OTHER;
    if (prev == HT_RBRACKET && layout_brace_follows(P)) {
      tok = LAYOUT_LBRACE;
      ctx = BK_LAYOUT;
      PC_PUSH(P->lay_track, pc_lay_track, ((pc_lay_track){false}));
    } else if (prev == HT_ATTR_NAME) {
      ctx = BK_ATTR;
    } else if (prev == HT_LPAREN || prev == HT_LBRACE || prev == HT_COMMA) {
      ctx = top_ctx(P);
      if (ctx != BK_LITERAL && ctx != BK_ATTR) ctx = BK_OTHER;
    } else if (prev == HT_RPAREN || prev == HT_IDENT || prev == HT_PCT_NAME || prev == HT_RBRACKET ||
               prev == HT_RBRACE) {
      ctx = BK_BODY;
    }
    if (fa_pending) P->fa_depth = 1;
    else if (P->fa_depth > 0) P->fa_depth++;
    if (open_bracket(P, tp, ctx) < 0) return HLO_YYerror;
    return tok;
  }
  case HT_RBRACE:
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT) P->lay_track.n--;
    if (P->fa_depth > 0) P->fa_depth--;
    close_bracket(P, '{');
    return RBRACE;
  case HT_LPAREN: {
    /* after a computation's name, the usual signature in one go
     * (signature_scan.c) */
    if (!P->token_by_token && P->depth == 0 && pc_name_like(prev)) {
      const char *end;
      const hlo_shape *result = pc_signature_scan(P, P->data + tp->off, &end);
      if (result) {
        o->shape = result;
        end_at_closer(P, l, tp, end, closer_kind(end));
        return SIGNATURE;
      }
    }
    /* Right after the opcode, the usual operand list is read in one go
     * (operand_scan.c). In a nested operand the opcode is reduced only after
     * its '(' was read, so after_opcode then comes with prev == HT_LPAREN. */
    if (after_opcode && prev == HT_IDENT && P->depth < HLO_MAX_NESTING) {
      const char *end;
      if (pc_operand_scan(P, P->data + tp->off, &end, &o->ops)) {
        end_at_closer(P, l, tp, end, HT_RPAREN);
        return OPERAND_LIST;
      }
    }
    int ctx = BK_OTHER;
    if (prev == HT_IDENT) ctx = BK_OPERANDS;
    else if (prev == HT_KW_CONSTANT) ctx = BK_LITERAL;
    else if (prev == HT_ATTR_NAME) ctx = BK_ATTR;
    else if (prev == HT_LPAREN || prev == HT_COMMA || prev == HT_EQ) {
      ctx = top_ctx(P);
      if (ctx == BK_OPERANDS || ctx == BK_TUPLE_SHAPE) ctx = BK_TUPLE_SHAPE;
      else if (ctx != BK_LITERAL) ctx = BK_OTHER;
    }
    if (open_bracket(P, tp, ctx) < 0) return HLO_YYerror;
    return LPAREN;
  }
  case HT_RPAREN:
    close_bracket(P, '(');
    return RPAREN;
  case HT_LBRACKET:
    if (open_bracket(P, tp, prev == HT_PRIM_TYPE ? BK_DIMS : BK_OTHER) < 0) return HLO_YYerror;
    return LBRACKET;
  case HT_RBRACKET:
    close_bracket(P, '[');
    return RBRACKET;
  case HT_COMMA:
    if (!P->token_by_token && P->fa_depth == 0 && top_ctx(P) == BK_BODY) {
      int tok = attr_fold(P, o, l);
      if (tok) return tok;
    } else if (!P->token_by_token && P->depth == 0 && P->comps.n == 0 && P->cstack.n == 0) {
      int tok = header_attr_fold(P, o, l);
      if (tok) return tok;
    }
    return COMMA;
  case HT_INT: {
    /* the entries of a stack-frame table, read in one go (value_scan.c) */
    const char *end;
    if (!P->token_by_token && (prev == HT_KW_FILELOCATIONS || prev == HT_KW_STACKFRAMES) &&
        pc_stack_entries_scan(P, &end)) {
      end_at_closer(P, l, tp, end, HT_RBRACE);
      return ST_ENTRIES;
    }
    if (!P->token_by_token && (prev == HT_KW_FILENAMES || prev == HT_KW_FUNCTIONNAMES) && st_strings_fold(P, l, tp))
      return ST_STRINGS;
    break;
  }
  case HT_COLON:
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT)
      PC_AT(P->lay_track, pc_lay_track, P->lay_track.n - 1).fields = true;
    return COLON;
  case HT_IDENT:
    if (P->lay_track.n && top_ctx(P) == BK_LAYOUT &&
        PC_AT(P->lay_track, pc_lay_track, P->lay_track.n - 1).fields) {
      int lf = layout_letter(tp);
      if (lf) return lf;
    }
    break;
  default:
    break;
  }
  if (pc_name_like(tp->kind)) {
    const char *at;
    char next = hlo_lex_peek(&P->lx, &at);
    if ((next == '(' || next == '{') && !P->token_by_token && P->depth == 0 && prev != HT_ATTR_NAME &&
        prev != HT_KW_HLOMODULE) {
      int tok = comp_head_fold(P, o, l, tp, at);
      if (tok) return tok;
    }
    if (next == '=') {
      hlo_lex_skip_to(&P->lx, at + 1);
      l->last = (size_t)(at + 1 - P->data);
      P->prev_kind = HT_EQ;
      if (!P->token_by_token && P->depth == 1 && top_ctx(P) == BK_BODY) {
        P->head_attrs.n = 0;
        hlo_token name = *tp;
        int tok = head_fold(P, l, tp, &P->head, &name);
        if (tok && prev != HT_KW_ROOT && !comma_next(P)) return instr_run(P, o, l, tp);
        if (tok) return tok;
      }
      return NAME_DEF;
    }
  }
  return lexer_to_grammar(tp->kind);
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
  case HT_RAW_DICT: snprintf(buf, cap, "'{...}'"); return;
  case HT_PCT_NAME: snprintf(buf, cap, "'%%%.*s%s'", (int)n, text, more); return;
  case HT_NAME_COLON: snprintf(buf, cap, "'%.*s%s:'", (int)n, text, more); return;
  case HT_ATTR_NAME: snprintf(buf, cap, "'%.*s%s='", (int)n, text, more); return;
  default:
    if (P->prev_kind == HT_EQ && pc_name_like(t->kind)) {
      snprintf(buf, cap, "'%.*s%s ='", (int)n, text, more);
      return;
    }
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
  return bk_names[PC_AT(P->brackets, pc_bracket, i).ctx];
}

bool pc_unclosed_bracket(parse_ctx *P, size_t *off, char *open) {
  if (!P->brackets.n) return false;
  const pc_bracket *b = &PC_AT(P->brackets, pc_bracket, P->brackets.n - 1);
  *off = b->off;
  *open = b->open;
  return true;
}
