/* Internal state of one hlo_parse_file call, shared by the Bison grammar
 * (hlo_parser.y) and the C helpers that build the IR (hlo_build.c,
 * hlo_attrs.c, hlo_literal.c, hlo_infer.c). Not part of the IR contract. */
#ifndef HLOIDX_PARSE_CTX_H
#define HLOIDX_PARSE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/ptrmap.h"
#include "base/vec.h"
#include "hlo_ir.h"
#include "hlo_token.h"
#include "intern.h"

/* the lexer's blanks: ' ' and \t \n \v \f \r (9 to 13) */
static inline bool pc_blank(char c) { return c == ' ' || (unsigned char)(c - '\t') < 5; }
/* (Most calls meet no blank or one space: those are decided first, with
 * one comparison per byte instead of pc_blank's two.) */
static inline const char *pc_skip_blanks(const char *p) {
  if ((unsigned char)*p > ' ') return p;
  if (*p == ' ' && (unsigned char)p[1] > ' ') return p + 1;
  while (pc_blank(*p)) p++;
  return p;
}

/* 1 to 18 decimal digits at P (no overflow), their value in *U: the
 * position after them, or NULL (no digit, or more than 18). */
static inline const char *pc_plain_uint(const char *p, uint64_t *u) {
  const char *d = p;
  uint64_t v = 0;
  while (*p >= '0' && *p <= '9' && p - d < 18) v = v * 10 + (uint64_t)(*p++ - '0');
  if (p == d || (*p >= '0' && *p <= '9')) return NULL;
  *u = v;
  return p;
}

/* "{1,0}", "{}": a list of plain integers (pc_plain_uint) in braces,
 * without blanks, at P; the position after its '}', or NULL. Each value
 * goes to OUT (when not NULL). Its tokens are the lexer's LBRACE, INTs,
 * COMMAs, RBRACE (hlo_lex reads digits followed by ',' or '}' as an INT),
 * so a value of that text reads as the attribute reader would read it. */
static inline const char *pc_plain_int_list(const char *p, hb_vec *out) {
  if (*p != '{') return NULL;
  p++;
  if (*p == '}') return p + 1;
  for (;;) {
    uint64_t u;
    if (!(p = pc_plain_uint(p, &u))) return NULL;
    if (out) HB_PUSH(*out, int64_t, (int64_t)u);
    if (*p == '}') return p + 1;
    if (*p != ',') return NULL;
    p++;
  }
}

/* ---- semantic values ------------------------------------------------- */

typedef struct pc_range {
  uint32_t b, e; /* [b, e) of a scratch vector */
} pc_range;

/* A lexer token with what the token source adds (the layout of
 * hlo_token, which is copied into it whole). */
typedef struct pc_tok {
  const char *ptr; /* token value (see hlo_token) */
  uint32_t len;
  uint8_t kind;    /* hlo_tok_kind of the lexer token */
  uint8_t sub;     /* HT_PRIM_TYPE element type */
  bool neg;        /* HT_INT sign */
  size_t off;      /* byte offset of the token */
  union {
    uint64_t u;               /* HT_INT magnitude */
    hlo_istr *is;             /* attribute tokens: the interned name */
    const hlo_shape *shape;   /* SHAPE_TOK: the cached shape */
  };
} pc_tok;
_Static_assert(sizeof(pc_tok) == sizeof(hlo_token) && offsetof(pc_tok, len) == offsetof(hlo_token, len) &&
                   offsetof(pc_tok, kind) == offsetof(hlo_token, kind) &&
                   offsetof(pc_tok, sub) == offsetof(hlo_token, sub) &&
                   offsetof(pc_tok, neg) == offsetof(hlo_token, neg) &&
                   offsetof(pc_tok, off) == offsetof(hlo_token, off) && offsetof(pc_tok, u) == offsetof(hlo_token, u),
               "pc_tok takes an hlo_token in one copy");

/* An instruction's 'name =' (ROOT or not) and declared shape: the
 * grammar's instr_head. */
typedef struct pc_def {
  const char *name;       /* the name's bytes */
  uint32_t len;
  uint32_t root_off;      /* the offset of 'ROOT' + 1, or 0 without it (inputs are under 2 GiB) */
  size_t off;             /* the name's offset */
  const hlo_shape *shape; /* declared, or NULL */
} pc_def;

static inline pc_def pc_def_of(const pc_tok *name, const hlo_shape *shape, const pc_tok *root) {
  return (pc_def){name->ptr, name->len, root ? (uint32_t)root->off + 1 : 0, name->off, shape};
}

typedef struct pc_loc {
  size_t first; /* byte offset of the first byte */
  size_t last;  /* byte offset just past the last byte */
} pc_loc;

/* A shape and its text. */
typedef struct pc_shape_v {
  hlo_shape *s;
  pc_loc loc;
} pc_shape_v;

/* ---- scratch records -------------------------------------------------- */

typedef struct pc_dim {
  int64_t v;
  uint8_t flags; /* 1 = dynamic (<=N or ?), 2 = unbounded (?) */
} pc_dim;

typedef struct pc_compref {
  hlo_istr *name;               /* referenced computation name, or NULL */
  hlo_computation *inline_comp; /* an inline { ... } body */
  size_t off;
} pc_compref;

/* One attribute of the instruction (or header) being parsed. */
typedef struct pc_attr {
  hlo_istr *name;   /* interned attribute name */
  int id;           /* attribute catalogue index (hlo_attrs.c), or -1 */
  size_t off;       /* offset of the attribute name */
  size_t vstart;    /* value text [vstart, vend) */
  size_t vend;
  int n;            /* payload count */
  const void *ptr;  /* payload: hlo_shape* (A_SHAPE), hlo_shape** (A_SHAPE_LIST,
                       A_HDR_LAYOUT params) */
  uint32_t cref;    /* A_COMP, A_COMP_LIST: the first of its n pc_compref in
                       P->comprefs (kept there until the attributes are applied:
                       no copy in the module for a line's few names); else UINT32_MAX */
  const hlo_shape *shape2; /* A_HDR_LAYOUT: result shape */
} pc_attr;

/* A name use to resolve when its scope is complete. */
typedef struct pc_pending {
  hlo_instr *in;               /* the user */
  int kind;                    /* 0 operand, 1 control predecessor, 2 called computation */
  int index;                   /* operand / predecessor / called index */
  hlo_istr *name;
  size_t off;
  const hlo_shape *decl_shape; /* operands: shape written before the name */
} pc_pending;

typedef struct pc_restore {
  hlo_istr *name;
  uint32_t gen;
  hlo_instr *def;
} pc_restore;

/* A computation being parsed (inline bodies nest). */
typedef struct pc_comp {
  hlo_computation *comp;
  uint32_t gen;         /* scope generation of its names */
  size_t instr_base;    /* its instructions start here in pc.instrs */
  size_t pend_base;     /* its pending operand/predecessor uses start here */
  size_t restore_base;  /* names it shadows (inline bodies) start here */
  hlo_instr *root;      /* ROOT-marked instruction */
} pc_comp;

/* A layout being parsed. */
typedef struct pc_layout {
  hlo_layout lay;
  size_t off;        /* offset of its '{' */
  unsigned seen;     /* fields already given (bit per field) */
} pc_layout;

/* An open bracket (for nesting limits and messages). */
typedef struct pc_bracket {
  unsigned char ctx; /* what it belongs to (hlo_yylex.c) */
  char open;         /* '(', '[' or '{' */
  size_t off;        /* where it is */
} pc_bracket;

/* A shape cache entry (shape_cache.c): one cache line. */
#define PC_SHAPE_HEAD 24
typedef struct pc_shape_ent {
  const char *text; /* the shape's text in the input (where it was found last) */
  uint32_t len;
  uint32_t hash;
  uint32_t gen;     /* shape is valid iff gen == parse_ctx.scache_gen */
  uint32_t depth;   /* brackets nested in the text: a hit must keep within HLO_MAX_NESTING */
  const hlo_shape *shape; /* in the module's arena */
  const hlo_shape *kept;  /* a copy in parse_ctx.scache_arena, for later modules */
  char head[PC_SHAPE_HEAD]; /* the text's first bytes: all of the usual array shape's */
} pc_shape_ent;

/* What the list of shapes found last keeps of an entry. */
typedef struct pc_recent_shape {
  const char *text;
  uint32_t len;
  uint32_t gen;
  uint32_t depth;
  const hlo_shape *shape;
} pc_recent_shape;

/* (most hits are on the last one or two, and a text that misses them all
 * is compared fewer times) */
#define PC_RECENT_SHAPES 2

/* Layout brace tracking in the token source (field letters T, L, ...). */
typedef struct pc_lay_track {
  bool fields; /* after the layout's ':' */
} pc_lay_track;

/* Deferred semantic checks of declared operand shapes. */
typedef struct pc_declcheck {
  hlo_instr *in;
  int index;
  const hlo_shape *decl;
  size_t off;
} pc_declcheck;

/* parse_ctx.lex_pending (hlo_yylex.c). */
enum {
  PC_PEND_METADATA = 1,     /* after metadata=: a METADATA_VALUE may come */
  PC_PEND_RAW = 2,          /* after backend_config= or a frontend attribute's key: a RAW_DICT may come */
  PC_PEND_FA = 4,           /* after frontend_attributes=: its '{' opens the keys */
  PC_PEND_LAYOUT_FIELD = 8, /* after a layout field letter: its '(' is the layout's */
  PC_PEND_HDR_LAYOUT = 16,  /* after entry_computation_layout=: parse_ctx.layout_paren_in counts */
  PC_PEND_NEXT = 31,        /* (the flags above: for the next token only) */
  PC_PEND_MODULE = 32,      /* no module is open: the next token but the end of a span begins one */
  PC_PEND_MESSAGES = 64,    /* the diagnostic parse: what its messages read (the token before the last, closed_now) */
};

typedef struct parse_ctx {
  const char *data;
  size_t len;
  hlo_lexer lx;
  hlo_error *err;
  bool failed;

  /* token source state (hlo_yylex.c) */
  int depth;                 /* open brackets */
  int prev_kind;             /* lexer kind of the previous token */
  bool coarse;               /* the coarse tokens (SHAPE_TOK, METADATA_VALUE) are on (hlo_parser.y's header) */
  uint8_t lex_pending;       /* PC_PEND_*: what the next token needs beyond the usual */
  uint8_t layout_paren_in;   /* tokens to go to the '(' of "entry_computation_layout={(" */
  bool borrow_kept;          /* modules go to EACH, which frees them: they may use the shape cache's kept shapes */
  hlo_istr *words[64];       /* pc_word's cache (the module's strings) */
  hlo_istr *last_def;        /* the name defined last in this module (pc_operand_name), or NULL */
  int fa_depth;              /* brace depth inside frontend_attributes (0 = outside) */
  hb_vec lay_track;          /* pc_lay_track stack */
  hlo_token *last;           /* last token returned (for error messages) */
  hlo_token *before_last;    /* the one before it */
  hlo_token tokbuf[2];       /* where they are (swapped, not copied) */
  /* shape cache: shape text -> shape (shape_cache.c) */
  pc_shape_ent *scache;
  size_t scache_mask;        /* slots - 1 (0 = not allocated) */
  size_t scache_n;           /* entries (texts seen in this parse) */
  uint32_t scache_gen;       /* generation of the current module */
  hb_arena *scache_arena;       /* the kept copies, for the whole parse */
  pc_recent_shape scache_recent[2][PC_RECENT_SHAPES]; /* arrays [0] and tuples [1] found last */
  hb_arena *stmp;            /* an array shape being read, until pc_shape_read */
  hlo_layout lay_done;       /* the layout pc_layout_end finished, for the pc_array_shape after it */
  hb_vec brackets;           /* pc_bracket per open bracket (for messages) */
  bool closed_now;           /* the last token closed a bracket ... */
  unsigned char closed_ctx;  /* ... of this context */

  /* the module being built */
  hlo_module *mod;
  hb_arena *a;
  hlo_intern *in;
  hb_ptrmap comp_names;      /* hlo_istr* -> the module's hlo_computation of that name */
  hb_ptrmap anon_next;       /* "<op>.anon" hlo_istr* -> the last numeric suffix handed out */
  hb_ptrmap hints;           /* pc_closest_name: unknown word hlo_istr* -> {its closest name, what} */
  hb_ptrmap cold_shared;     /* cold_share.c: hash -> {a cold record of the module, its opcode} */
  hb_vec comps;              /* hlo_computation* of the module */
  hb_vec called_pending;     /* pc_pending (kind 2) for the module */
  hb_vec async_checks;       /* hlo_instr *: the module's async-update/-done (async_thread) */
  size_t n_shapeless;        /* the module's instructions without a written shape */
  size_t preds_base;         /* pending.n where the control-predecessors list being read began */
  hb_vec declchecks;         /* pc_declcheck */
  uint32_t gen;              /* last scope generation handed out */
  uint32_t attr_gen;         /* attribute-list generation (duplicate check) */
  hlo_computation *entry_marked;
  hb_vec modules;            /* finished hlo_module* (when each == NULL) */
  hb_vec warnings;           /* hlo_warning of the module being read */
  int (*each)(hlo_module *, void *); /* per-module callback (hlo_parse_file_each) */
  void *each_ctx;
  int stopped;               /* non-zero value returned by each */
  int n_done;                /* modules finished */
  size_t stop_at;            /* a separator token at or after this offset ends the input (SIZE_MAX: none) */
  size_t chunk_start;        /* where the module being read began: after the last separator shifted */
  size_t end_off;            /* offset of the token that ended the input */

  /* scratch stacks */
  hb_vec dims, ints, tiles, splits, dlts, shapes, attrs, comprefs;
  /* The operands of the lists being read, as hlo_instr * (NULL where the
   * name is not defined yet, or its declared shape differs: those are in
   * op_pending, whose index is the position in operands, until their
   * instruction takes them to pending). 8 bytes an operand: a list of
   * 100,000 operands is read in one piece. */
  hb_vec operands, op_pending;
  hb_vec instrs;             /* hlo_instr* of open computations */
  hb_vec pending;            /* pc_pending (kinds 0, 1) of open computations */
  hb_vec restore;            /* pc_restore */
  hb_vec cstack;             /* pc_comp */
  hb_vec lstack;             /* pc_layout */
} parse_ctx;

/* ---- errors ------------------------------------------------------------- */

/* Records the first error (later ones are ignored) and returns -1. */
int pc_error(parse_ctx *P, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Adds a note to the error just recorded (at most one). */
void pc_note(parse_ctx *P, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Adds a warning to the module being read. */
void pc_warn(parse_ctx *P, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* name_table_closest (the "did you mean" of an unknown word) for WORD
 * among N names, remembered per word of the module and WHAT (the opcode
 * whose attributes, or -1 for opcodes): a file of unknown words asks for
 * every occurrence. */
int pc_closest_name(parse_ctx *P, hlo_istr *word, int64_t what, int n, const char *(*names)(int),
                    bool (*ok)(int, void *), void *ctx);

/* ---- building (hlo_build.c) ------------------------------------------- */

void pc_module_begin_if_needed(parse_ctx *P, size_t off);
int pc_module_finish(parse_ctx *P);
void pc_module_name(parse_ctx *P, const pc_tok *t);
int pc_header_done(parse_ctx *P);

hlo_shape *pc_array_shape(parse_ctx *P, const pc_tok *type, pc_range dims, hlo_layout *lay);
hlo_shape *pc_tuple_shape(parse_ctx *P, pc_range elems);
hlo_shape *pc_buffer_shape(parse_ctx *P, const hlo_shape *inner);
int pc_push_dim(parse_ctx *P, const pc_tok *t, int form, pc_range *r); /* form 0 N, 1 <=N, 2 ? */
void pc_layout_begin(parse_ctx *P, size_t off);
hlo_layout *pc_layout_end(parse_ctx *P, pc_range m2m);
/* OFF: the field's first token. */
int pc_layout_field(parse_ctx *P, int field, const pc_tok *t, size_t off, const void *arg, pc_range r);
int pc_push_int(parse_ctx *P, const pc_tok *t, pc_range *r, bool allow_neg);
int pc_push_tile_dim(parse_ctx *P, const pc_tok *t, bool star, pc_range *r);
int pc_push_tile(parse_ctx *P, pc_range dims, pc_range *tiles);
int pc_push_split(parse_ctx *P, const pc_tok *dim, pc_range offs, pc_range *splits);
int pc_push_dlt(parse_ctx *P, const pc_tok *letter, int mods, pc_range *r);
void pc_push_shape(parse_ctx *P, const hlo_shape *s, pc_range *r);

int pc_comp_begin(parse_ctx *P, const pc_tok *entry, const pc_tok *name, const hlo_shape *sig);
int pc_comp_end(parse_ctx *P);
int pc_comp_trailer(parse_ctx *P, const pc_tok *name, pc_loc val);
int pc_inline_begin(parse_ctx *P, size_t off);
/* Instructions without a computation: an ENTRY computation around them. */
int pc_bare_begin(parse_ctx *P);
int pc_bare_end(parse_ctx *P);
hlo_computation *pc_inline_end(parse_ctx *P);

/* The operands are P->operands from FIRST on. */
hlo_instr *pc_rhs_op(parse_ctx *P, const pc_tok *opcode, uint32_t first);
/* IN's own hlo_instr_ext, made on first use (a copy of the defaults). */
hlo_instr_cold *pc_instr_cold(parse_ctx *P, hlo_instr *in); /* the instruction's own, to write */
hlo_instr_ext *pc_instr_ext(parse_ctx *P, hlo_instr *in);
hlo_instr *pc_rhs_parameter(parse_ctx *P, const pc_tok *kw, const pc_tok *num);
hlo_instr *pc_rhs_constant(parse_ctx *P, const pc_tok *kw, pc_loc lit);
int pc_operand_name(parse_ctx *P, const hlo_shape *decl, const pc_tok *name);
int pc_operand_nested(parse_ctx *P, const hlo_shape *shape, hlo_instr *in);
int pc_instruction(parse_ctx *P, const pc_def *def, hlo_instr *in, pc_range attrs);

int pc_attr_push(parse_ctx *P, const pc_tok *name, pc_loc val, int n, const void *ptr,
                 const hlo_shape *shape2, pc_range *r);
int pc_compref_push(parse_ctx *P, const pc_tok *name, hlo_computation *inline_comp, size_t off,
                    pc_range *r);
/* An attribute naming the computations R of P->comprefs. */
int pc_attr_push_comps(parse_ctx *P, const pc_tok *name, pc_loc val, pc_range r);
/* The comprefs of ATTRS, applied, off P->comprefs. */
void pc_comprefs_drop(parse_ctx *P, const pc_attr *attrs, int n);
const hlo_shape **pc_shapes_take(parse_ctx *P, pc_range r);

/* ---- attributes (hlo_attrs.c) ----------------------------------------- */

/* Grammar token class of an attribute name (one of the A_* kinds below). */
enum {
  PC_A_GENERIC,
  PC_A_COMP,
  PC_A_COMP_LIST,
  PC_A_SHARDING,
  PC_A_METADATA,
  PC_A_FRONTEND,
  PC_A_BACKEND,
  PC_A_SHAPE,
  PC_A_SHAPE_LIST,
  PC_A_LITERAL,
  PC_A_HDR_LAYOUT,
};
/* The attribute-catalogue index of NAME, or -1 when the catalogue does not
 * know it. The answer is cached in NAME (hlo_istr.attr; PC_ATTR_NONE: not
 * an attribute), so after the first time this is one load. */
#define PC_ATTR_NONE INT16_MAX
/* The interned copy of an attribute name or an opcode: a few words, met
 * over and over. A small direct-mapped cache (P->words, cleared when a
 * module begins) answers most of them without the hash and the probe of
 * the intern table, whose slots and headers are often out of the cache. */
static inline hlo_istr *pc_word(parse_ctx *P, const char *s, size_t len) {
  if (len == 0) return hlo_intern_get(P->in, s, len);
  size_t i = ((unsigned char)s[0] + (unsigned char)s[len - 1] * 7u + len * 13u) & 63u;
  hlo_istr *w = P->words[i];
  if (w && w->len == len && hlo_same_bytes(hlo_istr_str(w), s, len)) return w;
  return P->words[i] = hlo_intern_get(P->in, s, len);
}
int pc_attr_id_search(hlo_istr *name); /* the catalogue search (hlo_attrs.c) */
static inline int pc_attr_id(hlo_istr *name) {
  int a = name->attr;
  return a < 0 ? pc_attr_id_search(name) : a == PC_ATTR_NONE ? -1 : a;
}
int pc_attr_class(int id);
/* Interprets the attributes of a finished instruction. */
int pc_attrs_apply(parse_ctx *P, hlo_instr *in, const pc_attr *attrs, int n);
/* Whether IN (its cold record not made yet: no constant, no opcode text)
 * may share the record its ATTRS make with an instruction written alike
 * (cold_share.c): no unknown attribute, no metadata, no control
 * predecessors, not an async op. */
bool pc_attrs_may_share(const hlo_instr *in, const pc_attr *attrs, int n);
/* Interprets the module header attributes. */
int pc_header_apply(parse_ctx *P, const pc_attr *attrs, int n);
/* Decodes a string token (with quotes) into the arena. */
char *pc_decode_string(parse_ctx *P, const char *ptr, size_t len, size_t off);

/* ---- shared cold records (cold_share.c) ------------------------------- */

/* What the arena, the warnings and the names were before an
 * instruction's attributes were applied. */
typedef struct {
  hb_arena_mark arena;
  size_t warnings, names;
} pc_cold_mark;
/* IN's attributes applied since M (pc_attrs_may_share said yes): IN takes
 * the cold record of an instruction of the module written alike, and the
 * arena gives back what the apply made; else IN's record is remembered. */
void pc_cold_share(parse_ctx *P, hlo_instr *in, pc_cold_mark m);

/* ---- literals (hlo_literal.c) ----------------------------------------- */

/* Checks the literal text starting at OFF against SHAPE; fills *lit. */
int pc_literal_check(parse_ctx *P, const hlo_shape *shape, size_t off, size_t end, hlo_literal *lit);

/* ---- shape inference (hlo_infer.c) ------------------------------------ */

int pc_infer_shapes(parse_ctx *P, hlo_module *m);

/* ---- shape cache (shape_cache.c) ---------------------------------------- */

/* Remembers the shape parsed from the text LOC (the coarse parse). */
void pc_shape_cache_put(parse_ctx *P, const hlo_shape *s, pc_loc loc);
/* Where an array shape being read and its arrays go: a scratch arena,
 * emptied by pc_shape_read. */
hb_arena *pc_shape_arena(parse_ctx *P);
/* The array shape S just read from the text LOC: the module's shape of
 * that text (S copied the first time, into the module's arena or, when the
 * module borrows them, as the kept copy). The diagnostic parse reads
 * every shape with the grammar: a module of a million instructions would
 * otherwise hold a million copies of a few shapes while its error is found
 * again. */
const hlo_shape *pc_shape_read(parse_ctx *P, const hlo_shape *s, pc_loc loc);
/* The shape whose text starts at START ('(' when TUPLE), if that exact text
 * was parsed before in this parse (in an earlier module: copied into this
 * module's arena); *end receives the end of the text. */
const hlo_shape *pc_shape_cache_find(parse_ctx *P, const char *start, bool tuple, const char **end);
/* A new module begins: the shapes of the last one are no longer valid. */
void pc_shape_cache_reset(parse_ctx *P);
void pc_shape_cache_free(parse_ctx *P);

/* ---- misc -------------------------------------------------------------- */

hlo_opcode pc_opcode_of(hlo_istr *s, hlo_opcode *wrapped);
/* The computation of the module named NAME so far, or NULL. */
hlo_computation *pc_comp_named(const parse_ctx *P, const hlo_istr *name);
const hlo_shape *pc_default_scalar(parse_ctx *P, hlo_elem_type t);
/* The dynamic/unbounded flags of shapes without dynamic dimensions. */
extern const bool pc_zero_flags[HLO_MAX_RANK];
hlo_shape *pc_shape_clone_with_type(parse_ctx *P, const hlo_shape *s, hlo_elem_type t);
void pc_default_layout(parse_ctx *P, hlo_shape *s);

#endif
