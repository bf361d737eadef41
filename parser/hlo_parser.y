/* GNU Bison grammar of the HLO text format (shared/docs/hlo-text-format.md,
 * Appendix A): modules and their headers, stack-frame tables,
 * computations and their signatures, instruction lines, operand lists,
 * attribute lists and values, shapes, layouts and literals. Pure parser
 * without Bison's locations: a token's value holds its offset and text
 * (pc_tok), and the values of the symbols whose text the builders keep
 * (attribute values, literals, shapes) hold its span (pc_loc); a syntax
 * error is at the lookahead, the last token read. The actions call the
 * builders of hlo_build.c. Tokens come from the re2c lexer through hlo_yylex
 * (hlo_yylex.c), which classifies a few of them by their context:
 * LAYOUT_LBRACE (§9.3), the layout field letters, the attribute-name
 * classes (A_GENERIC, A_COMP, ..., §9.1), FA_KEY and RAW_DICT (§9.2).
 * NAME_DEF ("name =", an instruction's start) is the lexer's.
 *
 * Coarse tokens. A token that stands for several grammar symbols is
 * allowed only where its text is a lexical unit or opaque to hloidx:
 *   - RAW_DICT: a backend_config or frontend-attribute value in braces,
 *     text of another language (JSON; MLIR attributes such as
 *     '{mesh = #sdy.mesh<["x"=2]>}'), taken whole as XLA's lexer takes it
 *     (always: the HLO lexer cannot even read all of it);
 *   - SHAPE_TOK: a shape text met before in this parse, the shape cache's
 *     lexical memo (shape_cache.c): the same bytes give the same shape;
 *   - METADATA_VALUE: a metadata={...} payload of the usual spelling
 *     (hlo_lex_metadata), which hloidx keeps as text;
 *   - INT_LIST: '{1,0}', '{}', plain integers in braces without blanks,
 *     where a generic value or a literal may hold such braces, and
 *     SLICES: slice ranges '{[0:8], [0:4:2]}', a word of a generic value
 *     (hlo_lex_int_brace): regular texts, read again by the value's reader.
 * The last four are on when parse_ctx.coarse is set (every parse but the
 * diagnostic one below and hlo_parse_file_grammar_only); the grammar
 * accepts the same texts without them, and parser/grammar_only holds the
 * two parses to the same IR.
 *
 * Two parsers are generated from this file (parser/CMakeLists.txt): the one
 * every input goes through, and hlo_yyparse_lac, built with -Dparse.lac=full,
 * which detects a syntax error before any default reduction, so that its
 * "expected ..." lists are exact. When the first parser fails, the driver
 * (hlo_build.c) parses the failing module again with the LAC parser, and
 * that diagnostic is the one reported. */

%require "3.8"
%define api.pure full
%define api.prefix {hlo_yy}
%define api.value.type union
%define api.token.raw
%define parse.error custom
%param {parse_ctx *P}

%code requires {
#include "parse_ctx.h"
}

%code provides {
int hlo_yyparse(parse_ctx *P);
/* The token source (hlo_yylex.c). */
int hlo_yylex(HLO_YYSTYPE *v, parse_ctx *P);
/* Describes the last token read (for "found ..."). */
void pc_describe_last(parse_ctx *P, char *buf, size_t cap);
/* What the innermost open bracket belongs to ("in dimensions"), or NULL. */
const char *pc_bracket_context(parse_ctx *P);
/* The innermost bracket open before the last token, if any; *BODY: it
 * opens a computation's body. */
bool pc_unclosed_bracket(parse_ctx *P, size_t *off, char *open, bool *body);
}

%code {
#include <stdio.h>
#include <string.h>

static void hlo_yyerror(parse_ctx *P, const char *msg);

/* Nesting is limited by the token source (HLO_MAX_NESTING); the stack
 * never needs more than a few states per level. */
#define YYMAXDEPTH (HLO_MAX_NESTING * 8 + 1000)
#define YYINITDEPTH 256

#define CHECK(x) do { if ((x) < 0) YYABORT; } while (0)
#define NN(x) do { if (!(x)) YYABORT; } while (0)
/* The instruction 'NAME = SHAPE IN ATTRS' (SHAPE a SHAPE_TOK). */
static int instr_named(parse_ctx *P, const pc_tok *name, const pc_tok *shape, hlo_instr *in, pc_range attrs) {
  pc_def d = pc_def_of(name, shape->shape, NULL);
  return pc_instruction(P, &d, in, attrs);
}
static const pc_range no_range = {0, 0};
/* An empty attribute list, where the next one would start. */
static pc_range no_attrs(const parse_ctx *P) { return (pc_range){(uint32_t)P->attrs.n, (uint32_t)P->attrs.n}; }
/* The text of token A, and from token A to token B. */
static pc_loc tok_span(const parse_ctx *P, const pc_tok *a, const pc_tok *b) {
  return (pc_loc){a->off, (size_t)(b->ptr - P->data) + b->len};
}
static pc_loc tok_loc(const parse_ctx *P, const pc_tok *a) { return tok_span(P, a, a); }
/* The computation reference pushed last. */
static pc_range last_compref(const parse_ctx *P) {
  return (pc_range){(uint32_t)P->comprefs.n - 1, (uint32_t)P->comprefs.n};
}
}

%token <pc_tok> PCT_NAME "name" NAME_COLON "'name:'" IDENT "identifier" PRIM_TYPE "element type"
%token <pc_tok> INT "integer" FLOAT "floating-point number" NEG_INF "'-inf'"
%token <pc_tok> DIM_LABELS "dimension labels" DXD "window dimensions" PAD "padding"
%token <pc_tok> STRING "string" RAW_DICT "raw dictionary"
%token <pc_tok> NAME_DEF "instruction name"
%token <pc_tok> KW_TRUE "'true'" KW_FALSE "'false'" KW_INF "'inf'" KW_HLOMODULE "'HloModule'"
%token <pc_tok> KW_ENTRY "'ENTRY'" KW_ROOT "'ROOT'"
%token <pc_tok> KW_FILENAMES "'FileNames'" KW_FUNCTIONNAMES "'FunctionNames'"
%token <pc_tok> KW_FILELOCATIONS "'FileLocations'" KW_STACKFRAMES "'StackFrames'"
%token <pc_tok> KW_MAXIMAL "'maximal'" KW_REPLICATED "'replicated'" KW_MANUAL "'manual'"
%token <pc_tok> KW_UNKNOWN "'unknown'" KW_UNREDUCED "'unreduced'"
%token <pc_tok> KW_LAST_TILE "'last_tile_dim_replicate'" KW_SHARD_AS "'shard_as'" KW_SHARD_LIKE "'shard_like'"
%token <pc_tok> KW_CONSTANT "'constant'" KW_PARAMETER "'parameter'"
%token <pc_tok> B_PAREN "'b('" LAYOUT_LBRACE "layout '{'"
%token <pc_tok> LF_T "'T'" LF_L "'L'" LF_E "'E'" LF_S "'S'" LF_SC "'SC'" LF_P "'P'" LF_M "'M'" LF_D "'D'"
%token <pc_tok> ARROW "'->'" LEQ "'<='" DOTS "'...'" SEP "'// -----'"
%token <pc_tok> EQ "'='" COMMA "','" COLON "':'" STAR "'*'" QUESTION "'?'" HASH "'#'" PLUS "'+'" TILDE "'~'"
%token <pc_tok> LBRACKET "'['" RBRACKET "']'" LBRACE "'{'" RBRACE "'}'" LPAREN "'('" RPAREN "')'"
%token <pc_tok> A_GENERIC "attribute" A_COMP "computation attribute" A_COMP_LIST "computation-list attribute"
%token <pc_tok> A_SHARDING "sharding attribute" A_METADATA "metadata attribute"
%token <pc_tok> A_FRONTEND "frontend_attributes attribute" A_BACKEND "backend_config attribute"
%token <pc_tok> A_SHAPE "shape attribute" A_SHAPE_LIST "shape-list attribute" A_LITERAL "literal attribute"
%token <pc_tok> A_HDR_LAYOUT "entry_computation_layout attribute" FA_KEY "frontend attribute"
%token <pc_tok> SHAPE_TOK "shape" METADATA_VALUE "metadata value" INT_LIST "integer list" SLICES "slice ranges"

%type <pc_tok> name name_kw comp_name module_name entry_opt attr_plain attr_any gv_word inline_open
%type <pc_shape_v> shape shape_read array_shape
%type <hlo_shape *> signature_opt
%type <pc_def> instr_head
%type <pc_range> dims_opt dims m2m_opt m2m tiles tdims tdims_opt splits ints dlts_opt dlts
%type <pc_range> shape_list_opt shape_list attrs1 comp_refs_opt comp_refs
%type <pc_loc> gv_top gv_unit gv_brackets comp_ref fa_value backend_value metadata sharding literal lit shaped_literal
%type <uint32_t> operands
%type <hlo_instr *> rhs
%type <int> dlt_mods

%%

file
  : chunk
  | file SEP                            { P->chunk_start = tok_loc(P, &$2).last; } /* where a re-parse starts */
    chunk
  ;

chunk
  : %empty
  | module                              { CHECK(pc_module_finish(P)); }
  ;

module
  : header stack_tables_opt computations
  | stack_tables computations
  | computations
  | bare_open instr_list                { CHECK(pc_bare_end(P)); }
  ;

/* Instruction lines without a computation around them (pasted from a
 * dump): the body of an ENTRY computation (pc_bare_begin). */
bare_open
  : %empty                              { CHECK(pc_bare_begin(P)); }
  ;

/* ---- module header (§3.2) ---------------------------------------------- */

header
  : KW_HLOMODULE module_name            { pc_module_name(P, &$2); }
    header_attrs                        { CHECK(pc_header_done(P)); }
  ;

module_name
  : name | NAME_COLON | DIM_LABELS | INT
  ;

header_attrs
  : %empty
  | header_attrs COMMA header_attr
  ;

header_attr
  : A_HDR_LAYOUT hdr_layout_value
  | A_FRONTEND fa_value                 { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_BACKEND backend_value             { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | attr_plain gv_unit                  { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  ;

hdr_layout_value
  : LBRACE LPAREN shape_list_opt RPAREN ARROW shape RBRACE
      { CHECK(pc_attr_push(P, &$<pc_tok>0, tok_span(P, &$1, &$7), (int)($3.e - $3.b), pc_shapes_take(P, $3), $6.s,
                           NULL)); }
  ;

/* Attribute names whose value needs no special lexing. */
attr_plain
  : A_GENERIC | A_COMP | A_COMP_LIST | A_SHARDING | A_METADATA
  | A_SHAPE | A_SHAPE_LIST | A_LITERAL
  ;

/* Any attribute name (inside metadata, where none has a special value). */
attr_any
  : attr_plain | A_FRONTEND | A_BACKEND | A_HDR_LAYOUT
  ;

/* ---- stack-frame tables (§3.3) ----------------------------------------- */

stack_tables_opt
  : %empty
  | stack_tables
  ;

stack_tables
  : st_section
  | stack_tables st_section
  ;

st_section
  : KW_FILENAMES st_strings
  | KW_FUNCTIONNAMES st_strings
  | KW_FILELOCATIONS st_braces
  | KW_STACKFRAMES st_braces
  ;

st_strings
  : %empty
  | st_strings INT STRING
  ;

st_braces
  : %empty
  | st_braces INT LBRACE gv_inner RBRACE
  ;

/* ---- computations (§3.1) ------------------------------------------------ */

computations
  : computation
  | computations computation
  ;

computation
  : entry_opt comp_name signature_opt   { CHECK(pc_comp_begin(P, $1.ptr ? &$1 : NULL, &$2, $3)); }
    LBRACE instr_list RBRACE comp_trailer { CHECK(pc_comp_end(P)); }
  ;

entry_opt
  : %empty                              { memset(&$$, 0, sizeof $$); }
  | KW_ENTRY
  ;

comp_name
  : name
  ;

signature_opt
  : %empty                              { $$ = NULL; }
  | LPAREN params_opt RPAREN ARROW SHAPE_TOK { $$ = (hlo_shape *)$5.shape; }
  | LPAREN params_opt RPAREN ARROW shape_read { $$ = $5.s; }
  ;

params_opt
  : %empty
  | params
  ;

params
  : param
  | params COMMA param
  ;

/* (the usual 'p: shape' spelled out: no reduction of the shape) */
param
  : NAME_COLON SHAPE_TOK
  | NAME_COLON shape_read
  | name COLON shape
  | name shape
  ;

comp_trailer
  : %empty
  | comp_trailer COMMA attr_plain gv_unit { CHECK(pc_comp_trailer(P, &$3, $4)); }
  ;

/* ---- instructions (§5) ------------------------------------------------- */

/* The instructions of a computation. The hot paths are spelled out: each
 * reduction costs as much as reading a token. */
instr_list
  : instr_head rhs                        { CHECK(pc_instruction(P, &$1, $2, no_attrs(P))); }
  | instr_head rhs attrs1                 { CHECK(pc_instruction(P, &$1, $2, $3)); }
  | NAME_DEF SHAPE_TOK rhs                { CHECK(instr_named(P, &$1, &$2, $3, no_attrs(P))); }
  | NAME_DEF SHAPE_TOK rhs attrs1         { CHECK(instr_named(P, &$1, &$2, $3, $4)); }
  | instr_list instr_head rhs             { CHECK(pc_instruction(P, &$2, $3, no_attrs(P))); }
  | instr_list instr_head rhs attrs1      { CHECK(pc_instruction(P, &$2, $3, $4)); }
  | instr_list NAME_DEF SHAPE_TOK rhs     { CHECK(instr_named(P, &$2, &$3, $4, no_attrs(P))); }
  | instr_list NAME_DEF SHAPE_TOK rhs attrs1 { CHECK(instr_named(P, &$2, &$3, $4, $5)); }
  ;

/* 'name =' and the shape, ROOT or not (but the usual 'name = shape',
 * instr_list's); the lenient 'name=' (without a blank) is an attribute
 * name to the lexer. */
instr_head
  : NAME_DEF                            { $$ = pc_def_of(&$1, NULL, NULL); }
  | NAME_DEF shape_read                 { $$ = pc_def_of(&$1, $2.s, NULL); }
  | KW_ROOT NAME_DEF                    { $$ = pc_def_of(&$2, NULL, &$1); }
  | KW_ROOT NAME_DEF SHAPE_TOK          { $$ = pc_def_of(&$2, $3.shape, &$1); }
  | KW_ROOT NAME_DEF shape_read         { $$ = pc_def_of(&$2, $3.s, &$1); }
  | A_GENERIC                           { $$ = pc_def_of(&$1, NULL, NULL); }
  | A_GENERIC SHAPE_TOK                 { $$ = pc_def_of(&$1, $2.shape, NULL); }
  | A_GENERIC shape_read                { $$ = pc_def_of(&$1, $2.s, NULL); }
  | KW_ROOT A_GENERIC                   { $$ = pc_def_of(&$2, NULL, &$1); }
  | KW_ROOT A_GENERIC SHAPE_TOK         { $$ = pc_def_of(&$2, $3.shape, &$1); }
  | KW_ROOT A_GENERIC shape_read        { $$ = pc_def_of(&$2, $3.s, &$1); }
  ;

rhs
  : KW_PARAMETER LPAREN INT RPAREN      { NN($$ = pc_rhs_parameter(P, &$1, &$3)); }
  | KW_CONSTANT LPAREN literal RPAREN   { NN($$ = pc_rhs_constant(P, &$1, $3)); }
  | IDENT LPAREN RPAREN                 { NN($$ = pc_rhs_op(P, &$1, (uint32_t)P->operands.n)); }
  | IDENT LPAREN operands RPAREN        { NN($$ = pc_rhs_op(P, &$1, $3)); }
  ;

/* The operands go to P->operands; the value is where the list starts
 * there. The usual forms are spelled out: no reduction of a name or a
 * shape first. */
operands
  : PCT_NAME                            { CHECK(pc_operand_name(P, NULL, &$1)); $$ = (uint32_t)P->operands.n - 1; }
  | IDENT                               { CHECK(pc_operand_name(P, NULL, &$1)); $$ = (uint32_t)P->operands.n - 1; }
  | SHAPE_TOK PCT_NAME                  { CHECK(pc_operand_name(P, $1.shape, &$2)); $$ = (uint32_t)P->operands.n - 1; }
  | SHAPE_TOK IDENT                     { CHECK(pc_operand_name(P, $1.shape, &$2)); $$ = (uint32_t)P->operands.n - 1; }
  | operand                             { $$ = (uint32_t)P->operands.n - 1; }
  | operands COMMA PCT_NAME             { CHECK(pc_operand_name(P, NULL, &$3)); }
  | operands COMMA IDENT                { CHECK(pc_operand_name(P, NULL, &$3)); }
  | operands COMMA SHAPE_TOK PCT_NAME   { CHECK(pc_operand_name(P, $3.shape, &$4)); }
  | operands COMMA SHAPE_TOK IDENT      { CHECK(pc_operand_name(P, $3.shape, &$4)); }
  | operands COMMA operand
  ;

/* The other forms of an operand. */
operand
  : shape_read name                     { CHECK(pc_operand_name(P, $1.s, &$2)); }
  | name_kw                             { CHECK(pc_operand_name(P, NULL, &$1)); }
  | SHAPE_TOK name_kw                   { CHECK(pc_operand_name(P, $1.shape, &$2)); }
  | rhs                                 { CHECK(pc_operand_nested(P, NULL, $1)); }
  | SHAPE_TOK rhs                       { CHECK(pc_operand_nested(P, $1.shape, $2)); }
  | shape_read rhs                      { CHECK(pc_operand_nested(P, $1.s, $2)); }
  ;

/* Names; the soft keywords are accepted as names (§2.9 lenient). */
name
  : PCT_NAME | IDENT | name_kw
  ;

name_kw
  : KW_CONSTANT | KW_PARAMETER
  | KW_MAXIMAL | KW_REPLICATED | KW_MANUAL | KW_UNKNOWN | KW_UNREDUCED
  | KW_LAST_TILE | KW_SHARD_AS | KW_SHARD_LIKE | KW_INF
  ;

/* ---- attributes (§5.6, §5.7) ------------------------------------------- */

/* ', name=value' pushed on P->attrs; the value is their range there. The
 * commonest attributes are spelled out. */
attrs1
  : COMMA A_METADATA METADATA_VALUE     { CHECK(pc_attr_push(P, &$2, tok_loc(P, &$3), 0, NULL, NULL, &$$)); }
  | COMMA A_GENERIC INT_LIST            { CHECK(pc_attr_push(P, &$2, tok_loc(P, &$3), 0, NULL, NULL, &$$)); }
  | COMMA A_GENERIC gv_word             { CHECK(pc_attr_push(P, &$2, tok_loc(P, &$3), 0, NULL, NULL, &$$)); }
  | COMMA A_GENERIC gv_top              { CHECK(pc_attr_push(P, &$2, $3, 0, NULL, NULL, &$$)); }
  | COMMA attribute                     { $$ = (pc_range){(uint32_t)P->attrs.n - 1, (uint32_t)P->attrs.n}; }
  | attrs1 COMMA A_METADATA METADATA_VALUE
      { CHECK(pc_attr_push(P, &$3, tok_loc(P, &$4), 0, NULL, NULL, NULL)); $$.e++; }
  | attrs1 COMMA A_GENERIC INT_LIST     { CHECK(pc_attr_push(P, &$3, tok_loc(P, &$4), 0, NULL, NULL, NULL)); $$.e++; }
  | attrs1 COMMA A_GENERIC gv_word      { CHECK(pc_attr_push(P, &$3, tok_loc(P, &$4), 0, NULL, NULL, NULL)); $$.e++; }
  | attrs1 COMMA A_GENERIC gv_top       { CHECK(pc_attr_push(P, &$3, $4, 0, NULL, NULL, NULL)); $$.e++; }
  | attrs1 COMMA attribute              { $$.e++; }
  ;

/* The other attributes (pushed on P->attrs). */
attribute
  : A_COMP comp_ref                     { CHECK(pc_attr_push_comps(P, &$1, $2, last_compref(P))); }
  | A_COMP_LIST LBRACE comp_refs_opt RBRACE
      { CHECK(pc_attr_push_comps(P, &$1, tok_span(P, &$2, &$4), $3)); }
  | A_SHARDING sharding                 { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_METADATA metadata                 { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_FRONTEND fa_value                 { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_BACKEND backend_value             { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_SHAPE shape                       { CHECK(pc_attr_push(P, &$1, $2.loc, 1, $2.s, NULL, NULL)); }
  | A_SHAPE_LIST LBRACE shape_list_opt RBRACE
      { CHECK(pc_attr_push(P, &$1, tok_span(P, &$2, &$4), (int)($3.e - $3.b), pc_shapes_take(P, $3), NULL, NULL)); }
  | A_LITERAL shaped_literal            { CHECK(pc_attr_push(P, &$1, $2, 0, NULL, NULL, NULL)); }
  | A_HDR_LAYOUT hdr_layout_value
  ;

/* (pushed on P->comprefs; the value is its text) */
comp_ref
  : name                                { CHECK(pc_compref_push(P, &$1, NULL, $1.off, NULL)); $$ = tok_loc(P, &$1); }
  | inline_open instr_list RBRACE
      { hlo_computation *c = pc_inline_end(P);
        NN(c);
        CHECK(pc_compref_push(P, NULL, c, $1.off, NULL));
        $$ = tok_span(P, &$1, &$3); }
  ;

inline_open
  : LBRACE                              { CHECK(pc_inline_begin(P, $1.off)); }
  ;

comp_refs_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->comprefs.n, (uint32_t)P->comprefs.n}; }
  | comp_refs
  ;

comp_refs
  : comp_ref                            { $$ = last_compref(P); }
  | comp_refs COMMA comp_ref            { $$.e = last_compref(P).e; }
  ;

backend_value
  : STRING                              { $$ = tok_loc(P, &$1); }
  | RAW_DICT                            { $$ = tok_loc(P, &$1); }
  ;

/* frontend_attributes={key="v",key={raw},...} */
fa_value
  : LBRACE fa_items_opt RBRACE          { $$ = tok_span(P, &$1, &$3); }
  ;

fa_items_opt
  : %empty
  | fa_items
  | fa_items COMMA
  ;

fa_items
  : fa_item
  | fa_items COMMA fa_item
  ;

fa_item
  : FA_KEY STRING
  | FA_KEY RAW_DICT
  ;

/* metadata={op_type="..." op_name="..." ...} or a list of those; fields
 * separated by blanks or a ',' before each (as XLA's sub-attributes). */
metadata
  : LBRACE md_items_opt RBRACE          { $$ = tok_span(P, &$1, &$3); }
  | LBRACE md_list RBRACE               { $$ = tok_span(P, &$1, &$3); }
  ;

md_list
  : md_brace
  | md_list COMMA md_brace
  ;

md_brace
  : LBRACE md_items_opt RBRACE
  ;

md_items_opt
  : %empty
  | md_items
  ;

md_items
  : md_item
  | COMMA md_item
  | md_items md_item
  | md_items COMMA md_item
  ;

md_item
  : attr_any gv_unit
  ;

/* ---- sharding (§5.7.11) ------------------------------------------------ */

sharding
  : LBRACE RBRACE                       { $$ = tok_span(P, &$1, &$2); }
  | LBRACE sh_body RBRACE               { $$ = tok_span(P, &$1, &$3); }
  | LBRACE sh_leaves RBRACE             { $$ = tok_span(P, &$1, &$3); }
  ;

sh_leaves
  : sh_leaf
  | sh_leaves COMMA sh_leaf
  ;

sh_leaf
  : LBRACE RBRACE
  | LBRACE sh_body RBRACE
  ;

sh_body
  : sh_items
  | IDENT gv_inner                      /* named (mesh) shardings: kept raw */
  ;

sh_items
  : sh_item
  | sh_items sh_item
  ;

sh_item
  : KW_REPLICATED | KW_MAXIMAL | KW_MANUAL | KW_UNKNOWN | KW_UNREDUCED | KW_LAST_TILE
  | KW_SHARD_AS INT
  | KW_SHARD_LIKE INT
  | A_GENERIC INT
  | A_GENERIC LBRACKET ints RBRACKET sh_devices
  | A_GENERIC LBRACE sg_list_opt RBRACE
  | A_METADATA METADATA_VALUE
  | A_METADATA metadata
  ;

sh_devices
  : ints
  | LEQ LBRACKET ints RBRACKET
  | LEQ LBRACKET ints RBRACKET IDENT LPAREN ints RPAREN
  ;

sg_list_opt
  : %empty
  | sg_list
  ;

sg_list
  : sg
  | sg_list COMMA sg
  ;

sg
  : KW_REPLICATED | KW_MANUAL | KW_MAXIMAL | KW_UNREDUCED
  ;

ints
  : INT                                 { $$ = (pc_range){0, 0}; }
  | ints COMMA INT
  ;

/* ---- literals (§5.8) ----------------------------------------------------- */

literal
  : lit
  ;

lit
  : INT                                 { $$ = tok_loc(P, &$1); }
  | FLOAT                               { $$ = tok_loc(P, &$1); }
  | KW_INF                              { $$ = tok_loc(P, &$1); }
  | NEG_INF                             { $$ = tok_loc(P, &$1); }
  | KW_TRUE                             { $$ = tok_loc(P, &$1); }
  | KW_FALSE                            { $$ = tok_loc(P, &$1); }
  | INT_LIST                            { $$ = tok_loc(P, &$1); }
  | LBRACE lit_list_opt RBRACE          { $$ = tok_span(P, &$1, &$3); }
  | LBRACE DOTS RBRACE                  { $$ = tok_span(P, &$1, &$3); }
  | LPAREN lit_list_opt RPAREN          { $$ = tok_span(P, &$1, &$3); }
  ;

lit_list_opt
  : %empty
  | lit_list
  ;

lit_list
  : lit
  | lit_list COMMA lit
  ;

shaped_literal
  : shape lit
      { CHECK(pc_literal_check(P, $1.s, $2.first, $2.last, NULL)); $$ = (pc_loc){$1.loc.first, $2.last}; }
  | LPAREN sl_list RPAREN               { $$ = tok_span(P, &$1, &$3); }
  ;

sl_list
  : shaped_literal
  | sl_list COMMA shaped_literal
  ;

/* ---- generic attribute values (§9.4) --------------------------------------
 * Values interpreted later from their text (hlo_attrs.c), or kept raw.
 * Inside brackets anything goes but what can only start an instruction or
 * a computation: a bracket a value leaves open is reported at the end of
 * its instruction, not pages later. */

/* (a word or an INT_LIST alone is attrs1's) */
gv_top
  : gv_brackets
  | gv_word gv_unit                     { $$ = (pc_loc){$1.off, $2.last}; }
  | INT_LIST gv_unit                    { $$ = (pc_loc){$1.off, $2.last}; }
  | gv_top gv_unit                      { $$.last = $2.last; }
  ;

/* One part of a value: a token, or a bracket and what it holds. */
gv_unit
  : gv_brackets
  | gv_word                             { $$ = tok_loc(P, &$1); }
  | INT_LIST                            { $$ = tok_loc(P, &$1); }
  ;

gv_brackets
  : LBRACE gv_inner RBRACE              { $$ = tok_span(P, &$1, &$3); }
  | LAYOUT_LBRACE gv_inner RBRACE       { $$ = tok_span(P, &$1, &$3); }
  | LPAREN gv_inner RPAREN              { $$ = tok_span(P, &$1, &$3); }
  | LBRACKET gv_inner RBRACKET          { $$ = tok_span(P, &$1, &$3); }
  ;

gv_word
  : INT | FLOAT | KW_INF | NEG_INF | KW_TRUE | KW_FALSE | STRING | IDENT | PCT_NAME
  | DXD | PAD | DIM_LABELS | RAW_DICT | PRIM_TYPE | SHAPE_TOK | KW_CONSTANT | KW_PARAMETER | B_PAREN
  | NAME_COLON | KW_MAXIMAL | KW_REPLICATED | KW_MANUAL | KW_UNKNOWN | KW_UNREDUCED
  | KW_LAST_TILE | KW_SHARD_AS | KW_SHARD_LIKE
  | METADATA_VALUE                      /* after a nested 'metadata=' */
  | SLICES
  | LEQ | COLON | ARROW | STAR | QUESTION | HASH | PLUS | TILDE | DOTS | EQ
  ;

/* Inside brackets: one reduction per token (the commonest, integers and
 * the keys of stack-frame entries, first). */
gv_inner
  : %empty
  | gv_inner INT
  | gv_inner A_GENERIC
  | gv_inner COMMA
  | gv_inner INT_LIST
  | gv_inner gv_inner_word
  | gv_inner LBRACE gv_inner RBRACE
  | gv_inner LAYOUT_LBRACE gv_inner RBRACE
  | gv_inner LPAREN gv_inner RPAREN
  | gv_inner LBRACKET gv_inner RBRACKET
  ;

gv_inner_word
  : FLOAT | KW_INF | NEG_INF | KW_TRUE | KW_FALSE | STRING | IDENT | PCT_NAME
  | DXD | PAD | DIM_LABELS | RAW_DICT | PRIM_TYPE | SHAPE_TOK | KW_CONSTANT | KW_PARAMETER | B_PAREN
  | NAME_COLON | KW_MAXIMAL | KW_REPLICATED | KW_MANUAL | KW_UNKNOWN | KW_UNREDUCED
  | KW_LAST_TILE | KW_SHARD_AS | KW_SHARD_LIKE | METADATA_VALUE
  | LEQ | COLON | ARROW | STAR | QUESTION | HASH | PLUS | TILDE | DOTS | EQ
  | A_COMP | A_COMP_LIST | A_SHARDING | A_METADATA | A_FRONTEND | A_BACKEND
  | A_SHAPE | A_SHAPE_LIST | A_LITERAL | A_HDR_LAYOUT | FA_KEY
  | LF_T | LF_L | LF_E | LF_S | LF_SC | LF_P | LF_M | LF_D
  ;

/* ---- shapes (§4) ---------------------------------------------------------- */

shape
  : SHAPE_TOK                           { $$ = (pc_shape_v){(hlo_shape *)$1.shape, tok_loc(P, &$1)}; }
  | shape_read
  ;

/* A shape read token by token (the first time it is seen). */
shape_read
  : array_shape                         { $$.s = (hlo_shape *)pc_shape_read(P, $1.s, $1.loc); $$.loc = $1.loc; }
  | LPAREN shape_list_opt RPAREN
      { NN($$.s = pc_tuple_shape(P, $2));
        $$.loc = tok_span(P, &$1, &$3);
        pc_shape_cache_put(P, $$.s, $$.loc); }
  | B_PAREN LPAREN shape RPAREN
      { NN($$.s = pc_buffer_shape(P, $3.s)); $$.loc = tok_span(P, &$1, &$4); }
  ;

shape_list_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->shapes.n, (uint32_t)P->shapes.n}; }
  | shape_list
  ;

shape_list
  : shape                               { pc_push_shape(P, $1.s, &$$); }
  | shape_list COMMA shape              { pc_push_shape(P, $3.s, NULL); $$ = (pc_range){$1.b, (uint32_t)P->shapes.n}; }
  ;

/* (the layout written out: the shape's text ends at its '}') */
array_shape
  : PRIM_TYPE LBRACKET dims_opt RBRACKET
      { NN($$.s = pc_array_shape(P, &$1, $3, NULL)); $$.loc = tok_span(P, &$1, &$4); }
  | PRIM_TYPE LBRACKET dims_opt RBRACKET lay_open m2m_opt lay_fields_opt RBRACE
      { hlo_layout *l = pc_layout_end(P, $6);
        NN(l);
        NN($$.s = pc_array_shape(P, &$1, $3, l));
        $$.loc = tok_span(P, &$1, &$8); }
  ;

dims_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->dims.n, (uint32_t)P->dims.n}; }
  | dims
  ;

dims
  : INT                                 { CHECK(pc_push_dim(P, &$1, 0, &$$)); }
  | LEQ INT                             { CHECK(pc_push_dim(P, &$2, 1, &$$)); }
  | QUESTION                            { CHECK(pc_push_dim(P, &$1, 2, &$$)); }
  | dims COMMA INT                      { CHECK(pc_push_dim(P, &$3, 0, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->dims.n}; }
  | dims COMMA LEQ INT                  { CHECK(pc_push_dim(P, &$4, 1, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->dims.n}; }
  | dims COMMA QUESTION                 { CHECK(pc_push_dim(P, &$3, 2, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->dims.n}; }
  ;

lay_open
  : LAYOUT_LBRACE                       { pc_layout_begin(P, $1.off); }
  ;

m2m_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->ints.n, (uint32_t)P->ints.n}; }
  | m2m
  ;

m2m
  : INT                                 { CHECK(pc_push_int(P, &$1, &$$, false)); }
  | m2m COMMA INT                       { CHECK(pc_push_int(P, &$3, NULL, false)); $$ = (pc_range){$1.b, (uint32_t)P->ints.n}; }
  ;

lay_fields_opt
  : %empty
  | COLON lay_fields
  ;

lay_fields
  : %empty
  | lay_fields lay_field
  ;

lay_field
  : LF_T tiles                          { CHECK(pc_layout_field(P, 'T', &$1, $1.off, NULL, $2)); }
  | LF_L LPAREN INT RPAREN              { CHECK(pc_layout_field(P, 'L', &$3, $1.off, NULL, no_range)); }
  | LF_E LPAREN INT RPAREN              { CHECK(pc_layout_field(P, 'E', &$3, $1.off, NULL, no_range)); }
  | LF_S LPAREN INT RPAREN              { CHECK(pc_layout_field(P, 'S', &$3, $1.off, NULL, no_range)); }
  | LF_M LPAREN INT RPAREN              { CHECK(pc_layout_field(P, 'M', &$3, $1.off, NULL, no_range)); }
  | HASH LPAREN PRIM_TYPE RPAREN        { CHECK(pc_layout_field(P, '#', &$3, $1.off, NULL, no_range)); }
  | STAR LPAREN PRIM_TYPE RPAREN        { CHECK(pc_layout_field(P, '*', &$3, $1.off, NULL, no_range)); }
  | LF_SC splits                        { CHECK(pc_layout_field(P, 'C', &$1, $1.off, NULL, $2)); }
  | LF_P LPAREN shape RPAREN            { CHECK(pc_layout_field(P, 'P', &$1, $1.off, $3.s, no_range)); }
  | LF_D LPAREN dlts_opt RPAREN         { CHECK(pc_layout_field(P, 'D', &$1, $1.off, NULL, $3)); }
  ;

tiles
  : LPAREN tdims_opt RPAREN             { CHECK(pc_push_tile(P, $2, &$$)); }
  | tiles LPAREN tdims_opt RPAREN       { CHECK(pc_push_tile(P, $3, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->tiles.n}; }
  ;

tdims_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->ints.n, (uint32_t)P->ints.n}; }
  | tdims
  ;

tdims
  : INT                                 { CHECK(pc_push_tile_dim(P, &$1, false, &$$)); }
  | STAR                                { CHECK(pc_push_tile_dim(P, &$1, true, &$$)); }
  | tdims COMMA INT                     { CHECK(pc_push_tile_dim(P, &$3, false, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->ints.n}; }
  | tdims COMMA STAR                    { CHECK(pc_push_tile_dim(P, &$3, true, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->ints.n}; }
  ;

splits
  : LPAREN INT COLON m2m RPAREN         { CHECK(pc_push_split(P, &$2, $4, &$$)); }
  | splits LPAREN INT COLON m2m RPAREN  { CHECK(pc_push_split(P, &$3, $5, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->splits.n}; }
  ;

dlts_opt
  : %empty                              { $$ = (pc_range){(uint32_t)P->dlts.n, (uint32_t)P->dlts.n}; }
  | dlts
  ;

dlts
  : IDENT dlt_mods                      { CHECK(pc_push_dlt(P, &$1, $2, &$$)); }
  | dlts COMMA IDENT dlt_mods           { CHECK(pc_push_dlt(P, &$3, $4, NULL)); $$ = (pc_range){$1.b, (uint32_t)P->dlts.n}; }
  ;

dlt_mods
  : %empty                              { $$ = 0; }
  | PLUS                                { $$ = 1; }
  | TILDE                               { $$ = 2; }
  | PLUS TILDE                          { $$ = 3; }
  ;

%%

static void hlo_yyerror(parse_ctx *P, const char *msg) {
  /* Only reached for "memory exhausted" (syntax errors go through
   * yyreport_syntax_error); nesting is limited long before that. */
  if (strcmp(msg, "memory exhausted") == 0)
    pc_error(P, P->last->off, "input nested too deeply (parser stack exhausted)");
  else
    pc_error(P, P->last->off, "%s", msg);
}

static const char *sym_display(yysymbol_kind_t k) {
  switch (k) {
  case YYSYMBOL_YYEOF: return "end of input";
  case YYSYMBOL_A_GENERIC: case YYSYMBOL_A_COMP: case YYSYMBOL_A_COMP_LIST:
  case YYSYMBOL_A_SHARDING: case YYSYMBOL_A_METADATA: case YYSYMBOL_A_FRONTEND:
  case YYSYMBOL_A_BACKEND: case YYSYMBOL_A_SHAPE: case YYSYMBOL_A_SHAPE_LIST:
  case YYSYMBOL_A_LITERAL: case YYSYMBOL_A_HDR_LAYOUT:
    return "attribute";
  case YYSYMBOL_LAYOUT_LBRACE: return "'{'";
  case YYSYMBOL_NAME_DEF: return "'name ='";
  case YYSYMBOL_KW_MAXIMAL: case YYSYMBOL_KW_REPLICATED: case YYSYMBOL_KW_MANUAL:
  case YYSYMBOL_KW_UNKNOWN: case YYSYMBOL_KW_UNREDUCED: case YYSYMBOL_KW_LAST_TILE:
  case YYSYMBOL_KW_SHARD_AS: case YYSYMBOL_KW_SHARD_LIKE: case YYSYMBOL_KW_INF:
  case YYSYMBOL_KW_CONSTANT: case YYSYMBOL_KW_PARAMETER: case YYSYMBOL_IDENT: case YYSYMBOL_PCT_NAME:
    return "name";
  case YYSYMBOL_SHAPE_TOK: return "shape";
  case YYSYMBOL_METADATA_VALUE: case YYSYMBOL_INT_LIST: case YYSYMBOL_SLICES: return "'{'";
  default: return yysymbol_name(k);
  }
}

/* Whether a line ends in [P, E). */
static bool spans_lines(const char *p, const char *e) {
  for (; p < e; p++)
    if (*p == '\n' || *p == '\r') return true;
  return false;
}

static bool has_sym(const yysymbol_kind_t *v, int n, yysymbol_kind_t k) {
  for (int i = 0; i < n; i++)
    if (v[i] == k) return true;
  return false;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, parse_ctx *P) {
  enum { MAXSHOW = 5 };
  yysymbol_kind_t exp[YYNTOKENS];
  int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
  size_t at = P->last->off; /* the lookahead */
  const hlo_token *last = P->last, *prev = P->before_last;
  /* "g32[...]": an identifier where an element type belongs */
  if (last->kind == HT_LBRACKET && prev->kind == HT_IDENT && prev->off + prev->len == last->off)
    return pc_error(P, prev->off, "unknown element type '%.*s'", (int)(prev->len > 40 ? 40 : prev->len), prev->ptr), 0;
  if (last->kind == HT_IDENT && has_sym(exp, n, YYSYMBOL_PRIM_TYPE) && P->data[last->off + last->len] == '[')
    return pc_error(P, last->off, "unknown element type '%.*s'", (int)(last->len > 40 ? 40 : last->len), last->ptr), 0;
  size_t boff;
  char bopen;
  const char *names[YYNTOKENS];
  int m = 0;
  bool has_def = has_sym(exp, n, YYSYMBOL_NAME_DEF);
  for (int i = 0; i < n; i++) {
    if (has_def && exp[i] == YYSYMBOL_A_GENERIC) continue; /* the lenient 'name=' form */
    const char *d = sym_display(exp[i]);
    int dup = 0;
    for (int j = 0; j < m; j++) dup |= strcmp(names[j], d) == 0;
    if (!dup) names[m++] = d;
  }
  char want[256];
  size_t w = 0;
  want[0] = '\0';
  /* the closer of the innermost open bracket, when it may come here */
  bool body = false, inside = pc_unclosed_bracket(P, &boff, &bopen, &body);
  char closer = !inside ? 0 : bopen == '{' ? '}' : bopen == '(' ? ')' : ']';
  yysymbol_kind_t closer_sym = closer == '}' ? YYSYMBOL_RBRACE : closer == ')' ? YYSYMBOL_RPAREN : YYSYMBOL_RBRACKET;
  if (closer && !has_sym(exp, n, closer_sym)) closer = 0;
  if (has_sym(exp, n, YYSYMBOL_KW_ENTRY) && !inside) {
    /* (inside brackets, ENTRY is only one of the words a raw value may hold) */
    snprintf(want, sizeof want, "a computation");
  } else if (has_sym(exp, n, YYSYMBOL_INT) && has_sym(exp, n, YYSYMBOL_FLOAT) && m > 3) {
    if (closer) snprintf(want, sizeof want, "a value or '%c'", closer);
    else snprintf(want, sizeof want, "a value");
  } else {
    int show = m > MAXSHOW ? MAXSHOW : m;
    for (int i = 0; i < show && w < sizeof want; i++) {
      const char *sep = i == 0 ? "" : (i == show - 1 && show == m) ? " or " : ", ";
      w += (size_t)snprintf(want + w, sizeof want - w, "%s%s", sep, names[i]);
    }
    if (show < m && w < sizeof want) snprintf(want + w, sizeof want - w, ", ...");
  }
  char found[160];
  pc_describe_last(P, found, sizeof found);
  const char *ctxt = pc_bracket_context(P);
  char after[96] = "";
  if (prev->kind == HT_ATTR_NAME)
    snprintf(after, sizeof after, " after '%.*s='", (int)(prev->len > 40 ? 40 : prev->len), prev->ptr);
  if (m == 0)
    pc_error(P, at, "unexpected %s", found);
  else
    pc_error(P, at, "expected %s%s%s%s, found %s", want, after, ctxt && !*after ? " " : "",
             ctxt && !*after ? ctxt : "", found);
  /* The end of the input or of the module inside a bracket, or a closer
   * that may come here missing before a later line of an instruction: the
   * bracket (Clang's note). */
  if ((inside && (last->kind == HT_EOF || last->kind == HT_SEP)) ||
      (closer && !body && spans_lines(P->data + boff, P->data + at)))
    pc_note(P, boff, "'%c' opened here", bopen);
  return 0;
}
