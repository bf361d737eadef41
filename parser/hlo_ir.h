/* The in-memory form of an HLO module: the contract between the parser and
 * the analysis.
 *
 * Ownership. Everything reachable from an hlo_module lives in the module's
 * arena and is released by hlo_module_free (or hlo_parse_result_free),
 * except, for a module handed to hlo_parse_file_each's EACH, shapes the
 * parser kept from earlier modules (valid until EACH returns). Raw text
 * fields (hlo_attr.value, hlo_literal.text, ...) are slices of the input
 * buffer given to hlo_parse_file: keep that buffer alive as long as the
 * module is used.
 *
 * Strings. Names (instructions, computations, the module), opcode texts and
 * attribute names are interned per module: NUL-terminated, and two of them
 * in one module are equal iff the pointers are equal.
 *
 * Shapes are immutable and may be shared: instructions whose shapes have the
 * same text can point to the same hlo_shape.
 *
 * Defaults. Shapes written without a layout get the default layout
 * (minor_to_major = {rank-1, ..., 1, 0}, explicit_layout = false); every
 * optional attribute has its documented default when absent; a "has_"
 * flag (or a NULL pointer) tells whether it was written.
 *
 * Integers taken from the text are int64_t; counts are int. */
#ifndef HLOIDX_HLO_IR_H
#define HLOIDX_HLO_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elem_types.h"

typedef struct hb_arena hb_arena;
typedef struct hlo_shape hlo_shape;
typedef struct hlo_instr hlo_instr;
typedef struct hlo_computation hlo_computation;
typedef struct hlo_module hlo_module;

/* Limits checked by the parser (input beyond them is an error, not a crash). */
#define HLO_MAX_NESTING 1000 /* nested (), {}, [] in the text (operands, tuples, literals, ...) */
#define HLO_MAX_RANK 1024    /* dimensions of one array shape */

/* ------------------------------------------------------------------ */
/* Element types (§4.1)                                                 */

/* HLO_ELEM_TYPES and enum hlo_elem_type: lexer/elem_types.h */


const char *hlo_elem_type_name(hlo_elem_type t); /* "f32"; "tuple", "buffer", "invalid" */
int hlo_elem_type_bits(hlo_elem_type t);          /* natural storage bits: pred 8, s4 4, c64 64, token 0 */
bool hlo_elem_type_is_integral(hlo_elem_type t);  /* s* and u* (not pred) */
bool hlo_elem_type_is_signed_int(hlo_elem_type t);   /* s1 ... s64 */
bool hlo_elem_type_is_unsigned_int(hlo_elem_type t); /* u1 ... u64 */
bool hlo_elem_type_is_float(hlo_elem_type t);     /* f*, bf16 (real floating point) */
bool hlo_elem_type_is_complex(hlo_elem_type t);   /* c64, c128 */
/* data types incl. token/opaque (not tuple/buffer); inline: the verifier asks for every operand */
static inline bool hlo_elem_type_is_array(hlo_elem_type t) { return t >= HLO_PRED && t <= HLO_OPAQUE; }

/* ------------------------------------------------------------------ */
/* Layouts (§4.3)                                                       */

#define HLO_TILE_COMBINE ((int64_t)-1) /* a '*' entry of a tile */

typedef struct hlo_ints {
  int n;            /* number of entries */
  const int64_t *v; /* n entries (never NULL, possibly pointing to nothing) */
} hlo_ints;

typedef struct hlo_tile {
  int n_dims;          /* entries of this tile (it covers the n_dims most-minor dims) */
  const int64_t *dims; /* tile sizes, major to minor; HLO_TILE_COMBINE for '*' */
} hlo_tile;

typedef struct hlo_split_config {
  int64_t dimension; /* the split dimension */
  hlo_ints offsets;  /* element offsets of the splits */
} hlo_split_config;

typedef enum hlo_dim_level_kind {
  HLO_DLT_DENSE,            /* D */
  HLO_DLT_COMPRESSED,       /* C */
  HLO_DLT_SINGLETON,        /* S */
  HLO_DLT_LOOSE_COMPRESSED, /* H */
} hlo_dim_level_kind;

typedef struct hlo_dim_level {
  hlo_dim_level_kind kind; /* storage kind of the dimension */
  bool not_unique;         /* written with '+' */
  bool not_ordered;        /* written with '~' */
} hlo_dim_level;

/* (A new pointer field of hlo_layout or hlo_shape must also be copied by
 * shape_copy in parser/shape_cache.c, which copies shapes between arenas.) */
typedef struct hlo_layout {
  bool explicit_layout;                         /* a {...} layout was written in the text */
  int n_minor_to_major;                         /* == rank of the shape */
  const int64_t *minor_to_major;                /* always filled: a permutation of 0..rank-1, most minor first */
  int n_tiles;                                  /* tiling levels, T(..)(..): 0 = untiled */
  const hlo_tile *tiles;                        /* first tile applies to the array, the next to the result, ... */
  int64_t tail_padding_alignment;               /* L(n); default 1 */
  hlo_elem_type index_primitive_type;           /* #(type); HLO_ELEM_INVALID when absent */
  hlo_elem_type pointer_primitive_type;         /* *(type); HLO_ELEM_INVALID when absent */
  int64_t element_size_bits;                    /* E(n); default 0 = natural size */
  int64_t memory_space;                         /* S(n); default 0 */
  int n_split_configs;                          /* SC(d:o,...)...; 0 when absent */
  const hlo_split_config *split_configs;        /* n_split_configs entries */
  const hlo_shape *physical_shape;              /* P(shape); NULL when absent */
  int64_t dynamic_shape_metadata_prefix_bytes;  /* M(n); default 0 */
  int n_dim_levels;                             /* D(...) legacy entries; 0 when absent */
  const hlo_dim_level *dim_levels;              /* n_dim_levels entries */
} hlo_layout;

/* ------------------------------------------------------------------ */
/* Shapes (§4.2)                                                        */

#define HLO_DIM_UNBOUNDED ((int64_t)-1) /* dims[i] of an unbounded dynamic dimension '?' */

struct hlo_shape {
  hlo_elem_type type;               /* element type; HLO_TUPLE / HLO_BUFFER for those shapes */
  int rank;                         /* array dimensions (0 for scalars, tuples, buffers) */
  const int64_t *dims;              /* rank sizes; a '<=N' dim holds N, a '?' dim HLO_DIM_UNBOUNDED; NULL for tuples */
  const bool *dynamic;              /* rank flags: true for '<=N' and '?' dims */
  const bool *unbounded;            /* rank flags: true for '?' dims only */
  int n_elems;                      /* tuple elements (0 for '()'); 1 for a buffer; 0 for arrays */
  const hlo_shape *const *elems;    /* n_elems element shapes */
  hlo_layout layout;                /* arrays only (tuples/buffers: zeroed, no minor_to_major) */
};

/* Number of elements of an array shape (dims at their bounds); -1 when it
 * has an unbounded dimension. Tuples: -1. */
int64_t hlo_shape_elements(const hlo_shape *s);
/* Same element type and dims (tuples: recursively), ignoring layouts and
 * dynamic flags (XLA's ShapeUtil::Compatible). */
bool hlo_shape_compatible(const hlo_shape *a, const hlo_shape *b);
/* Compatible, and equal layouts (minor_to_major, tiles and all fields). */
bool hlo_shape_equal(const hlo_shape *a, const hlo_shape *b);
bool hlo_layout_equal(const hlo_layout *a, const hlo_layout *b);
/* Prints the shape as XLA does ("f32[2,<=3]{1,0:T(8,128)}"); the layout is
 * printed when explicit_layout is set. Returns the length it needs (like
 * snprintf); the output is always NUL-terminated when cap > 0. */
size_t hlo_shape_format(const hlo_shape *s, char *buf, size_t cap);
size_t hlo_layout_format(const hlo_shape *s, char *buf, size_t cap); /* "{1,0:T(8,128)}" */

/* ------------------------------------------------------------------ */
/* Opcodes (§6.1)                                                       */

/* One row per opcode, each opcode's facts in one place:
 *
 *   X(ENUM, "text", SHAPE, NOPS, O2I, I2O, XLA_O2I, XLA_I2O)
 *
 * SHAPE: EW1 / EW2 for the unary / binary elementwise ops whose result has
 * the operand's dimensions (shape inference and checks), NA otherwise.
 * NOPS: the operands an indexing rule reads by position (at least).
 * O2I / I2O: the family of the op's output-to-input / input-to-output
 * indexing rule in hloidx's own semantics; XLA_O2I / XLA_I2O: the family
 * XLA's analysis uses (--xla-compat). NONE: no rule (`unknown indexing`).
 * The families are plain tags here: the analysis turns each into its rule
 * (analysis/ii_dispatch.c); the parser only reads SHAPE. */
#define HLO_OPCODES(X) \
  X(ABS,                      "abs",                      EW1, 0, EW,        EW,      EW,      EW)       \
  X(ACOS,                     "acos",                     EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(ACOSH,                    "acosh",                    EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(ADD,                      "add",                      EW2, 0, EW,        EW,      EW,      EW)       \
  X(ADD_DEPENDENCY,           "add-dependency",           NA,  0, FIRST,     INV,     NONE,    NONE)     \
  X(AFTER_ALL,                "after-all",                NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(ALL_GATHER,               "all-gather",               NA,  1, ALLGATHER, INV,     AGATHER, NONE)     \
  X(ALL_GATHER_DONE,          "all-gather-done",          NA,  1, DONE1,     INV,     NONE,    NONE)     \
  X(ALL_GATHER_START,         "all-gather-start",         NA,  1, ALLGATHER, INV,     AGATHER, NONE)     \
  X(ALL_REDUCE,               "all-reduce",               NA,  0, PAIRED,    INV,     NONE,    NONE)     \
  X(ALL_REDUCE_DONE,          "all-reduce-done",          NA,  1, ELEM,      INV,     EW,      EW)       \
  X(ALL_REDUCE_START,         "all-reduce-start",         NA,  0, PAIRED,    INV,     EW,      EW)       \
  X(ALL_TO_ALL,               "all-to-all",               NA,  0, ALLTOALL,  INV,     NONE,    NONE)     \
  X(AND,                      "and",                      EW2, 0, EW,        EW,      EW,      EW)       \
  X(ASIN,                     "asin",                     EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(ASINH,                    "asinh",                    EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(ASYNC_DONE,               "async-done",               NA,  1, DONE1,     INV,     NONE,    NONE)     \
  X(ASYNC_START,              "async-start",              NA,  0, ASYNC,     INV,     NONE,    NONE)     \
  X(ASYNC_UPDATE,             "async-update",             NA,  1, ELEM,      INV,     NONE,    NONE)     \
  X(ATAN,                     "atan",                     EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(ATAN2,                    "atan2",                    EW2, 0, EW,        EW,      EW,      EW)       \
  X(ATANH,                    "atanh",                    EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(BATCH_NORM_GRAD,          "batch-norm-grad",          NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(BATCH_NORM_INFERENCE,     "batch-norm-inference",     NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(BATCH_NORM_TRAINING,      "batch-norm-training",      NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(BITCAST,                  "bitcast",                  NA,  1, BITCAST,   BITCAST, BITCAST, BITCAST)  \
  X(BITCAST_CONVERT,          "bitcast-convert",          NA,  1, BCONV,     BCONV,   EW,      EW)       \
  X(BROADCAST,                "broadcast",                NA,  1, BCAST,     BCAST,   BCAST,   BCAST)    \
  X(CALL,                     "call",                     NA,  0, CALL,      INV,     NONE,    NONE)     \
  X(CBRT,                     "cbrt",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(CEIL,                     "ceil",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(CHOLESKY,                 "cholesky",                 NA,  1, CHOLESKY,  INV,     NONE,    NONE)     \
  X(CLAMP,                    "clamp",                    NA,  0, EW,        EW,      EW,      EW)       \
  X(COLLECTIVE_BROADCAST,     "collective-broadcast",     NA,  0, PAIRED,    INV,     NONE,    NONE)     \
  X(COLLECTIVE_PERMUTE,       "collective-permute",       NA,  0, PAIRED,    INV,     NONE,    NONE)     \
  X(COLLECTIVE_PERMUTE_DONE,  "collective-permute-done",  NA,  1, DONE1,     INV,     NONE,    NONE)     \
  X(COLLECTIVE_PERMUTE_START, "collective-permute-start", NA,  0, START,     INV,     NONE,    NONE)     \
  X(COLLECTIVE_REDUCE,        "collective-reduce",        NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(COMPARE,                  "compare",                  EW2, 0, EW,        EW,      EW,      EW)       \
  X(COMPLEX,                  "complex",                  EW2, 0, EW,        EW,      EW,      EW)       \
  X(CONCATENATE,              "concatenate",              NA,  1, CONCAT,    CONCAT,  CONCAT,  CONCAT)   \
  X(CONDITIONAL,              "conditional",              NA,  0, COND,      INV,     NONE,    NONE)     \
  X(CONSTANT,                 "constant",                 NA,  0, NOOP,      NONE,    NOOP,    NONE)     \
  X(CONVERT,                  "convert",                  EW1, 0, EW,        EW,      EW,      EW)       \
  X(CONVOLUTION,              "convolution",              NA,  2, CONV,      INV,     CONV,    NONE)     \
  X(COPY,                     "copy",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(COPY_DONE,                "copy-done",                NA,  1, DONE0,     INV,     NONE,    NONE)     \
  X(COPY_START,               "copy-start",               NA,  0, START,     INV,     NONE,    NONE)     \
  X(COSH,                     "cosh",                     EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(COSINE,                   "cosine",                   EW1, 0, EW,        EW,      EW,      EW)       \
  X(COUNT_LEADING_ZEROS,      "count-leading-zeros",      EW1, 0, EW,        EW,      EW,      EW)       \
  X(CUSTOM_CALL,              "custom-call",              NA,  0, CUSTOM,    INV,     NONE,    NONE)     \
  X(DIVIDE,                   "divide",                   EW2, 0, EW,        EW,      EW,      EW)       \
  X(DOMAIN,                   "domain",                   NA,  0, FIRST,     INV,     NONE,    NONE)     \
  X(DOT,                      "dot",                      NA,  2, DOT,       INV,     DOT,     NONE)     \
  X(DYNAMIC_RESHAPE,          "dynamic-reshape",          NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(DYNAMIC_SLICE,            "dynamic-slice",            NA,  2, DS,        DS,      DS,      NONE)     \
  X(DYNAMIC_UPDATE_SLICE,     "dynamic-update-slice",     NA,  3, DUS,       DUS,     DUS,     NONE)     \
  X(ERF,                      "erf",                      EW1, 0, EW,        EW,      EW,      EW)       \
  X(EXPONENTIAL,              "exponential",              EW1, 0, EW,        EW,      EW,      EW)       \
  X(EXPONENTIAL_MINUS_ONE,    "exponential-minus-one",    EW1, 0, EW,        EW,      EW,      EW)       \
  X(FFT,                      "fft",                      NA,  0, FFT,       INV,     NONE,    NONE)     \
  X(FLOOR,                    "floor",                    EW1, 0, EW,        EW,      EW,      EW)       \
  X(FUSION,                   "fusion",                   NA,  0, FUSION,    INV,     FUSION,  NONE)     \
  X(GATHER,                   "gather",                   NA,  2, GATHER,    GATHER,  GATHER,  NONE)     \
  X(GET_DIMENSION_SIZE,       "get-dimension-size",       NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(GET_TUPLE_ELEMENT,        "get-tuple-element",        NA,  1, GTE,       INV,     GTE,     NONE)     \
  X(IMAG,                     "imag",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(INFEED,                   "infeed",                   NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(IOTA,                     "iota",                     NA,  0, NOOP,      NONE,    NOOP,    NONE)     \
  X(IS_FINITE,                "is-finite",                EW1, 0, EW,        EW,      EW,      EW)       \
  X(LOG,                      "log",                      EW1, 0, EW,        EW,      EW,      EW)       \
  X(LOG_PLUS_ONE,             "log-plus-one",             EW1, 0, EW,        EW,      EW,      EW)       \
  X(LOGISTIC,                 "logistic",                 EW1, 0, EW,        EW,      EW,      EW)       \
  X(MAP,                      "map",                      NA,  0, EW,        EW,      EW,      EW)       \
  X(MAXIMUM,                  "maximum",                  EW2, 0, EW,        EW,      EW,      EW)       \
  X(MINIMUM,                  "minimum",                  EW2, 0, EW,        EW,      EW,      EW)       \
  X(MULHI,                    "mulhi",                    EW2, 0, EW,        EW,      NONE,    NONE)     \
  X(MULTIPLY,                 "multiply",                 EW2, 0, EW,        EW,      EW,      EW)       \
  X(NEGATE,                   "negate",                   EW1, 0, EW,        EW,      EW,      EW)       \
  X(NOT,                      "not",                      EW1, 0, EW,        EW,      EW,      EW)       \
  X(OPT_BARRIER,              "opt-barrier",              NA,  1, ELEM,      INV,     NONE,    NONE)     \
  X(OR,                       "or",                       EW2, 0, EW,        EW,      EW,      EW)       \
  X(OUTFEED,                  "outfeed",                  NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(PAD,                      "pad",                      NA,  2, PAD,       INV,     PAD,     NONE)     \
  X(PARAMETER,                "parameter",                NA,  0, NOOP,      NONE,    NOOP,    NONE)     \
  X(PARTITION_ID,             "partition-id",             NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(POPCNT,                   "popcnt",                   EW1, 0, EW,        EW,      EW,      EW)       \
  X(POWER,                    "power",                    EW2, 0, EW,        EW,      EW,      EW)       \
  X(RAGGED_ALL_TO_ALL,        "ragged-all-to-all",        NA,  2, RAGGED,    INV,     NONE,    NONE)     \
  X(RAGGED_DOT,               "ragged-dot",               NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(REAL,                     "real",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(RECV,                     "recv",                     NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(RECV_DONE,                "recv-done",                NA,  1, DONE0,     INV,     NONE,    NONE)     \
  X(REDUCE,                   "reduce",                   NA,  2, REDUCE,    REDUCE,  REDUCE,  REDUCE)   \
  X(REDUCE_PRECISION,         "reduce-precision",         EW1, 0, EW,        EW,      EW,      EW)       \
  X(REDUCE_SCATTER,           "reduce-scatter",           NA,  0, RSCATTER,  INV,     NONE,    NONE)     \
  X(REDUCE_WINDOW,            "reduce-window",            NA,  2, RWIN,      INV,     RWIN,    NONE)     \
  X(REMAINDER,                "remainder",                EW2, 0, EW,        EW,      EW,      EW)       \
  X(REPLICA_ID,               "replica-id",               NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(RESHAPE,                  "reshape",                  NA,  1, RESHAPE,   RESHAPE, RESHAPE, RESHAPE)  \
  X(REVERSE,                  "reverse",                  NA,  1, REVERSE,   REVERSE, REVERSE, REVERSE)  \
  X(RNG,                      "rng",                      NA,  0, EW,        EW,      NONE,    NONE)     \
  X(RNG_BIT_GENERATOR,        "rng-bit-generator",        NA,  1, RNGBIT,    INV,     NONE,    NONE)     \
  X(RNG_GET_AND_UPDATE_STATE, "rng-get-and-update-state", NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(ROUND_NEAREST_AFZ,        "round-nearest-afz",        EW1, 0, EW,        EW,      EW,      EW)       \
  X(ROUND_NEAREST_EVEN,       "round-nearest-even",       EW1, 0, EW,        EW,      EW,      EW)       \
  X(RSQRT,                    "rsqrt",                    EW1, 0, EW,        EW,      EW,      EW)       \
  X(SCALED_DOT,               "scaled-dot",               NA,  4, SDOT,      INV,     SDOT,    NONE)     \
  X(SCAN,                     "scan",                     NA,  0, SCAN,      INV,     SCAN,    NONE)     \
  X(SCATTER,                  "scatter",                  NA,  3, SCATTER,   SCATTER, NONE,    NONE)     \
  X(SELECT,                   "select",                   NA,  0, EW,        EW,      EW,      EW)       \
  X(SELECT_AND_SCATTER,       "select-and-scatter",       NA,  2, SELSCAT,   INV,     NONE,    NONE)     \
  X(SEND,                     "send",                     NA,  0, FIRST,     INV,     NONE,    NONE)     \
  X(SEND_DONE,                "send-done",                NA,  0, NOREAD,    INV,     NONE,    NONE)     \
  X(SET_DIMENSION_SIZE,       "set-dimension-size",       NA,  0, EW,        EW,      NONE,    NONE)     \
  X(SHIFT_LEFT,               "shift-left",               EW2, 0, EW,        EW,      EW,      EW)       \
  X(SHIFT_RIGHT_ARITHMETIC,   "shift-right-arithmetic",   EW2, 0, EW,        EW,      EW,      EW)       \
  X(SHIFT_RIGHT_LOGICAL,      "shift-right-logical",      EW2, 0, EW,        EW,      EW,      EW)       \
  X(SHUFFLE,                  "shuffle",                  NA,  0, NONE,      NONE,    NONE,    NONE)     \
  X(SIGN,                     "sign",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(SINE,                     "sine",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(SINH,                     "sinh",                     EW1, 0, EW,        EW,      NONE,    NONE)     \
  X(SLICE,                    "slice",                    NA,  1, SLICE,     SLICE,   SLICE,   SLICE)    \
  X(SORT,                     "sort",                     NA,  0, SORT,      INV,     NONE,    NONE)     \
  X(SQRT,                     "sqrt",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(STOCHASTIC_CONVERT,       "stochastic-convert",       EW2, 0, EW,        EW,      EW,      EW)       \
  X(SUBTRACT,                 "subtract",                 EW2, 0, EW,        EW,      EW,      EW)       \
  X(TAN,                      "tan",                      EW1, 0, EW,        EW,      EW,      EW)       \
  X(TANH,                     "tanh",                     EW1, 0, EW,        EW,      EW,      EW)       \
  X(TOPK,                     "topk",                     NA,  0, TOPK,      INV,     NONE,    NONE)     \
  X(TRANSPOSE,                "transpose",                NA,  1, TRANSP,    TRANSP,  TRANSP,  TRANSP)   \
  X(TRIANGULAR_SOLVE,         "triangular-solve",         NA,  2, TRISOLVE,  INV,     NONE,    NONE)     \
  X(TUPLE,                    "tuple",                    NA,  0, TUPLE,     INV,     NONE,    TUPLE)    \
  X(WHILE,                    "while",                    NA,  0, WHILE,     INV,     NONE,    NONE)     \
  X(XOR,                      "xor",                      EW2, 0, EW,        EW,      EW,      EW)

typedef enum hlo_opcode {
  HLO_OP_UNKNOWN = 0, /* an opcode this parser does not know; see hlo_instr.opcode_text */
#define HLO_X_(e, s, ...) HLO_OP_##e,
  HLO_OPCODES(HLO_X_)
#undef HLO_X_
  HLO_OP_COUNT
} hlo_opcode;

const char *hlo_opcode_name(hlo_opcode op); /* "add"; "unknown" for HLO_OP_UNKNOWN */
hlo_opcode hlo_opcode_from_name(const char *s, size_t len); /* HLO_OP_UNKNOWN if none */
bool hlo_opcode_is_elementwise_unary(hlo_opcode op);  /* SHAPE EW1: abs ... tanh, copy, convert, reduce-precision (§6.1) */
bool hlo_opcode_is_elementwise_binary(hlo_opcode op); /* SHAPE EW2: add ... mulhi, compare, stochastic-convert */

/* ------------------------------------------------------------------ */
/* Attributes                                                           */

/* One attribute as written: every attribute of an instruction (structured
 * ones included) appears in hlo_instr.attrs in source order. */
typedef struct hlo_attr {
  const char *name;  /* interned, without the '=' */
  const char *value; /* raw value text (slice of the input buffer, not NUL-terminated) */
  uint32_t value_len; /* bytes of value (the input is under 2 GiB) */
  uint32_t offset;    /* byte offset of the attribute name in the input: for an instruction's, of the
                         first instruction written alike (they share one cold record, cold_share.c) */
} hlo_attr;

/* Which attribute a called computation came from. */
typedef enum hlo_call_role {
  HLO_CALL_TO_APPLY,            /* to_apply= */
  HLO_CALL_CALLS,               /* calls= */
  HLO_CALL_CONDITION,           /* condition= (while) */
  HLO_CALL_BODY,                /* body= (while) */
  HLO_CALL_SELECT,              /* select= (select-and-scatter) */
  HLO_CALL_SCATTER,             /* scatter= (select-and-scatter) */
  HLO_CALL_TRUE_COMPUTATION,    /* true_computation= (conditional) */
  HLO_CALL_FALSE_COMPUTATION,   /* false_computation= (conditional) */
  HLO_CALL_BRANCH_COMPUTATIONS, /* branch_computations={...} (conditional), in list order */
  HLO_CALL_CALLED_COMPUTATIONS, /* called_computations={...} (custom-call), in list order */
} hlo_call_role;

typedef struct hlo_slice_dim {
  int64_t start;  /* first index */
  int64_t limit;  /* exclusive end */
  int64_t stride; /* >= 1; default 1 */
} hlo_slice_dim;

typedef struct hlo_pad_dim {
  int64_t lo;       /* low edge padding (may be negative) */
  int64_t hi;       /* high edge padding (may be negative) */
  int64_t interior; /* padding between elements (>= 0); default 0 */
} hlo_pad_dim;

typedef struct hlo_window_dim {
  int64_t size;       /* window extent */
  int64_t stride;     /* default 1 */
  int64_t pad_lo;     /* default 0 */
  int64_t pad_hi;     /* default 0 */
  int64_t lhs_dilate; /* base dilation; default 1 */
  int64_t rhs_dilate; /* window dilation; default 1 */
  bool rhs_reversal;  /* default false */
} hlo_window_dim;

/* Decoded dim_labels (§5.7.9). Dimension numbers of the respective array;
 * spatial arrays are indexed by spatial dimension k (the digit). A role
 * the labels leave unknown ('?' in its place) is -1 (the verifier lets
 * that through only under --no-verify). */
typedef struct hlo_conv_dims {
  const char *labels;              /* the dim_labels text, NUL-terminated */
  int n_spatial;                   /* spatial dimensions (window rank) */
  int64_t input_batch;             /* lhs dim labelled 'b' */
  int64_t input_feature;           /* lhs dim labelled 'f' */
  const int64_t *input_spatial;    /* n_spatial: lhs dim labelled k */
  int64_t kernel_input_feature;    /* rhs dim labelled 'i' */
  int64_t kernel_output_feature;   /* rhs dim labelled 'o' */
  const int64_t *kernel_spatial;   /* n_spatial: rhs dim labelled k */
  int64_t output_batch;            /* result dim labelled 'b' */
  int64_t output_feature;          /* result dim labelled 'f' */
  const int64_t *output_spatial;   /* n_spatial: result dim labelled k */
  int input_rank, kernel_rank, output_rank; /* lengths of the three label strings */
} hlo_conv_dims;

typedef struct hlo_dot_dims {
  hlo_ints lhs_batch;       /* lhs_batch_dims (default empty) */
  hlo_ints rhs_batch;       /* rhs_batch_dims */
  hlo_ints lhs_contracting; /* lhs_contracting_dims */
  hlo_ints rhs_contracting; /* rhs_contracting_dims */
  hlo_ints lhs_ragged;      /* lhs_ragged_dims (ragged-dot) */
  hlo_ints rhs_group;       /* rhs_group_dims (ragged-dot) */
} hlo_dot_dims;

typedef struct hlo_gather_dims {
  hlo_ints offset_dims;                 /* result dims that are slice offsets */
  hlo_ints collapsed_slice_dims;        /* operand dims collapsed (size 1) */
  hlo_ints start_index_map;             /* index vector component k -> operand dim */
  hlo_ints operand_batching_dims;       /* default empty */
  hlo_ints start_indices_batching_dims; /* default empty */
  int64_t index_vector_dim;             /* dim of start_indices holding the vector */
  hlo_ints slice_sizes;                 /* one per operand dim */
  bool indices_are_sorted;              /* default false */
} hlo_gather_dims;

typedef struct hlo_scatter_dims {
  hlo_ints update_window_dims;            /* updates dims that are window dims */
  hlo_ints inserted_window_dims;          /* operand dims of size 1 absent from updates */
  hlo_ints scatter_dims_to_operand_dims;  /* index vector component k -> operand dim */
  hlo_ints input_batching_dims;           /* default empty */
  hlo_ints scatter_indices_batching_dims; /* default empty */
  int64_t index_vector_dim;               /* dim of scatter_indices holding the vector */
  bool indices_are_sorted;                /* default false */
  bool unique_indices;                    /* default false */
} hlo_scatter_dims;

typedef struct hlo_replica_groups {
  bool iota;              /* written in the iota form [G,S]<=[dims]T(perm) */
  int n_groups;           /* list form: number of groups ({} = 0: all in one group) */
  const hlo_ints *groups; /* list form: the groups */
  int64_t iota_n_groups;  /* iota form: G */
  int64_t iota_group_size;/* iota form: S */
  hlo_ints iota_reshape;  /* iota form: dims of the iota before the transpose */
  hlo_ints iota_transpose;/* iota form: permutation (empty when no T(...)) */
} hlo_replica_groups;

typedef enum hlo_fusion_kind {
  HLO_FUSION_NONE,   /* not a fusion (no kind=) */
  HLO_FUSION_LOOP,   /* kLoop */
  HLO_FUSION_INPUT,  /* kInput */
  HLO_FUSION_OUTPUT, /* kOutput */
  HLO_FUSION_CUSTOM, /* kCustom */
} hlo_fusion_kind;

/* The literal of a constant(...) instruction. */
typedef struct hlo_literal {
  const char *text;        /* the literal as written inside constant( ... ) (input slice) */
  size_t len;              /* bytes of text */
  bool elided;             /* written as {...}: the values are unknown */
  bool is_scalar;          /* rank-0 array literal: the fields below are set */
  const char *scalar_text; /* the scalar as written: "99", "-inf", "true", "(1, -2)" (input slice) */
  size_t scalar_len;       /* bytes of scalar_text */
  bool has_int;            /* integer or pred scalar: int_value is set */
  int64_t int_value;       /* its value (u64 values above INT64_MAX keep their bit pattern) */
  bool has_float;          /* floating-point scalar: float_value is set (NaN/inf included) */
  double float_value;      /* its value as a double */
  int64_t n_elements;      /* elements of an array literal (tuples: -1) */
} hlo_literal;

/* ------------------------------------------------------------------ */
/* Instructions                                                         */

/* The structured attributes that few instructions have (slices, windows,
 * dot/gather/scatter dimensions, collectives, custom calls, ...): kept out
 * of hlo_instr so that an instruction stays small (a dump has hundreds of
 * thousands). hlo_instr_cold.ext points to hlo_instr_ext_none, which holds the
 * defaults, when the instruction has none of them. */
typedef struct hlo_instr_ext {
  bool has_slice;               /* slice={...} */
  bool has_padding;             /* padding= (pad) */
  bool has_window;              /* window={...} */
  bool has_dynamic_slice_sizes; /* dynamic_slice_sizes={...} */
  bool has_iota_dimension;      /* iota_dimension= */
  bool has_channel_id;          /* channel_id= */
  bool has_num_carries;         /* scan: num_carries= */
  bool is_reverse;              /* scan: is_reverse=true */
  bool is_associative;          /* scan: is_associative=true */
  int n_slice;                  /* one per operand dim */
  const hlo_slice_dim *slice;   /* n_slice ranges */
  int n_padding;                /* one per operand dim */
  const hlo_pad_dim *padding;   /* n_padding configs */
  int n_window;                 /* window rank */
  const hlo_window_dim *window; /* n_window dims (defaults filled) */
  const hlo_conv_dims *conv_dims; /* dim_labels= decoded; NULL when absent */
  int64_t feature_group_count;  /* default 1 */
  int64_t batch_group_count;    /* default 1 */
  const hlo_dot_dims *dot;      /* dot/ragged-dot/scaled-dot, or any *_batch/contracting_dims attr; else NULL */
  const hlo_gather_dims *gather;   /* gather (or gather attrs present); else NULL */
  const hlo_scatter_dims *scatter; /* scatter (or scatter attrs present); else NULL */
  hlo_ints dynamic_slice_sizes; /* dynamic-slice sizes, one per operand dim */
  int64_t iota_dimension;       /* the dimension that counts */
  const char *custom_call_target; /* decoded string (arena, NUL-terminated); NULL when absent */
  const hlo_replica_groups *replica_groups; /* NULL when absent */
  int64_t channel_id;           /* channel_id='s value */
  int64_t num_carries;          /* num_carries='s value */
  const char *async_execution_thread; /* async ops: decoded, default "main"; NULL for others */
  int n_parameter_replication;        /* entries of parameter_replication={...}; 0 when absent */
  const hlo_shape *outfeed_shape;     /* outfeed: outfeed_shape=; NULL when absent */
  int n_operand_layout_constraints;   /* custom-call operand_layout_constraints={...} */
  const hlo_shape *const *operand_layout_constraints; /* NULL when absent */
  int n_control_predecessors;   /* control-predecessors={...} */
  hlo_instr **control_predecessors; /* resolved */
} hlo_instr_ext;

/* The defaults: no attribute, group counts 1, empty lists. */
extern const hlo_instr_ext hlo_instr_ext_none;

/* What fewer instructions need than every one: the attributes as written,
 * dimensions=, index=, called computations, a constant's literal, the
 * opcode text when it is not the opcode's name. hlo_instr.cold points to
 * hlo_instr_cold_none, which holds the defaults, when the instruction has
 * none of them: a parameter or an elementwise op without attributes (a
 * module of 100,000 of them) then costs only its hlo_instr. Instructions
 * of a module whose opcode and attributes are written alike share one
 * (cold_share.c; not those whose record is written after their line:
 * control predecessors, a computation named before it is defined, an
 * async op's thread). */
typedef struct hlo_instr_cold {
  const char *opcode_text; /* as written, when it is not hlo_opcode_name(op) (unknown, async shorthand); else NULL */
  hlo_computation **called;     /* resolved called computations */
  const hlo_call_role *called_role; /* n_called: which attribute each came from */
  const hlo_literal *literal;   /* constant: its literal; NULL otherwise */
  const hlo_attr *attrs;        /* n_attrs entries */
  const hlo_instr_ext *ext;     /* the rarer structured attributes (never NULL) */
  hlo_ints dimensions;          /* dimensions={...}: broadcast/transpose/reduce/reverse/concatenate/sort/... */
  int64_t tuple_index;          /* index= (get-tuple-element) */
  int n_called;                 /* called computations, in attribute order */
  int n_attrs;                  /* attributes as written, in source order */
  hlo_opcode async_wrapped;     /* async shorthand: the wrapped opcode; else HLO_OP_UNKNOWN */
  hlo_fusion_kind fusion_kind;  /* kind= of a fusion; HLO_FUSION_NONE when absent */
  bool has_dimensions;          /* dimensions={...} */
  bool has_tuple_index;         /* index= */
} hlo_instr_cold;

/* The defaults: no attribute, nothing called, no dimensions. */
extern const hlo_instr_cold hlo_instr_cold_none;

/* (64 bytes: every byte counts hundreds of thousands of times.) */
struct hlo_instr {
  const char *name;             /* interned; nested anonymous operands get "<opcode>.anon[.N]" */
  const hlo_shape *shape;       /* result shape (written, or inferred when omitted) */
  hlo_instr **operands;         /* resolved operand instructions (same computation) */
  hlo_computation *parent;      /* the computation holding this instruction */
  const hlo_instr_cold *cold;   /* the fields fewer instructions need (never NULL) */
  uint32_t offset;              /* byte offset of the name (or opcode, for nested ones) in the input (< 2 GiB) */
  int32_t parameter_number;     /* parameter(N) (N <= 2^30); -1 for other opcodes */
  int n_operands;               /* operand count */
  int index;                    /* position in parent->instrs */
  hlo_opcode op;                /* opcode; async shorthand (custom-call-start) gives async-start/-update/-done */
  bool is_root;                 /* the root of its computation (ROOT-marked, or the last) */
  bool root_marked;             /* written with ROOT */
};

/* The opcode as written ("custom-call-start", an unknown opcode's word). */
static inline const char *hlo_instr_opcode_text(const hlo_instr *in) {
  return in->cold->opcode_text ? in->cold->opcode_text : hlo_opcode_name(in->op);
}

/* The attribute NAME as written (first match), or NULL. */
const hlo_attr *hlo_instr_find_attr(const hlo_instr *in, const char *name);

/* Constants. For a rank-0 integer/pred constant: its value (true = 1). */
bool hlo_constant_scalar_int(const hlo_instr *in, int64_t *out);
/* For a rank-0 floating-point constant: its value. */
bool hlo_constant_scalar_double(const hlo_instr *in, double *out);
/* For any rank-0 constant: the value as written ("99", "0.5", "-inf",
 * "true", "(1, 2)"). */
bool hlo_constant_scalar_text(const hlo_instr *in, const char **text, size_t *len);

/* ------------------------------------------------------------------ */
/* Computations and modules                                             */

struct hlo_computation {
  const char *name;             /* interned */
  int n_instrs;                 /* instruction count */
  hlo_instr **instrs;           /* in textual order (nested anonymous operands before their user) */
  hlo_instr *root;              /* the ROOT-marked instruction, else the last one */
  int n_params;                 /* parameters, numbered 0..n_params-1 */
  hlo_instr **params;           /* params[k] = parameter(k) */
  bool is_entry;                /* the module's entry computation */
  bool entry_marked;            /* written with ENTRY */
  const char *execution_thread; /* decoded execution_thread="..." trailer; default "main" */
  const hlo_shape *signature_result; /* "-> shape" of the signature; NULL without signature */
  size_t offset;                /* byte offset of the computation's name */
  hlo_module *module;           /* parent module */
  int index;                    /* position in module->computations */
  bool operands_first;          /* every operand and control predecessor of an instruction comes before it
                                   in instrs (set by the parser; the verifier then needs no cycle search) */
};

struct hlo_module {
  const char *name;             /* interned; "module_<entry>" without a HloModule line */
  size_t offset;                /* byte offset of the module's first token */
  size_t end;                   /* bytes the parser had read when the module was complete: its text,
                                   what came before it, and at most the next token */
  int n_computations;           /* computation count */
  hlo_computation **computations; /* in textual order (inline { } bodies before their user's computation) */
  hlo_computation *entry;       /* the ENTRY computation, else the last one */
  int n_attrs;                  /* header attribute count */
  const hlo_attr *attrs;        /* header attributes as written, in source order */
  bool has_entry_layout;        /* entry_computation_layout= present */
  int n_entry_params;           /* its parameter shapes */
  const hlo_shape *const *entry_params; /* n_entry_params shapes (with layouts) */
  const hlo_shape *entry_result; /* its result shape */
  bool is_scheduled;            /* is_scheduled=true */
  int64_t replica_count;        /* default 1 */
  int64_t num_partitions;       /* default 1 */
  int n_warnings;               /* what the parser read leniently or guessed, in text order */
  const struct hlo_warning *warnings;
  hb_arena *arena;                 /* owns everything in the module */
};

/* The computation named NAME (any C string), or NULL. */
hlo_computation *hlo_module_find_computation(const hlo_module *m, const char *name);
/* The instruction named NAME in computation C (any C string), or NULL. */
hlo_instr *hlo_computation_find_instr(const hlo_computation *c, const char *name);
/* The module attribute NAME as written, or NULL. */
const hlo_attr *hlo_module_find_attr(const hlo_module *m, const char *name);

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

#define HLO_ERROR_MESSAGE_MAX 400

typedef struct hlo_error {
  size_t offset;                       /* byte offset of the offending text */
  char message[HLO_ERROR_MESSAGE_MAX]; /* "expected ']' after dimensions, found '}'" */
  size_t note_offset;                  /* where the note points, when there is one */
  char note[64];                       /* "" or a note on the error ("'{' opened here") */
} hlo_error;

/* A warning about a parsed module: what was read leniently (--allow-unknown,
 * --no-verify) or guessed (instructions without a computation). */
typedef struct hlo_warning {
  size_t offset;       /* byte offset of the text it is about */
  const char *message; /* in the module's arena */
} hlo_warning;

/* How the parser treats what XLA's parser rejects. Process-wide: set once
 * (hlo_parse_set_options) before any parse starts; the default is all
 * false, as strict as XLA's verified parse. */
typedef struct hlo_parse_options {
  /* An unknown opcode or attribute name is a warning (the module's
   * warnings), not an error: the instruction has HLO_OP_UNKNOWN, the
   * attribute is kept as written. For dumps of newer XLA versions. */
  bool allow_unknown;
  /* The shape checks XLA's unverified parse skips (a result shape that
   * disagrees with what its operands and attributes give) are warnings,
   * not errors. The checks the analysis relies on (operand counts,
   * dimension numbers in range) stay errors. */
  bool no_verify;
} hlo_parse_options;
void hlo_parse_set_options(const hlo_parse_options *o);
const hlo_parse_options *hlo_parse_get_options(void);

typedef struct hlo_parse_result {
  int n_modules;        /* modules in the file (separated by "// -----" lines) */
  hlo_module **modules; /* in file order */
} hlo_parse_result;

/* Parses and verifies every module of DATA (LEN bytes; DATA[LEN] must be
 * '\0'). The text is split into modules at lines that are exactly
 * "// -----"; offsets are relative to DATA. Returns 0 and fills *OUT, or
 * returns 1 with *OUT empty and the first error in *ERR. Blank chunks are
 * skipped; a text without any module is an error. */
int hlo_parse_file(const char *data, size_t len, hlo_parse_result *out, hlo_error *err);
void hlo_parse_result_free(hlo_parse_result *r);
/* The same without the coarse tokens (hlo_parser.y's header): every shape
 * and metadata value read by the grammar. Slower; the reference the tests
 * and the fuzzer hold hlo_parse_file to (same modules, same error). */
int hlo_parse_file_grammar_only(const char *data, size_t len, hlo_parse_result *out, hlo_error *err);
/* The same, handing each module to EACH as soon as it is verified (so a
 * large file never holds more than one module). EACH owns the module and
 * must hlo_module_free it before it returns: the module may point to the
 * parser's own copies of shapes (one per shape text, kept for the modules
 * after it), which live only until a later module begins (they are not
 * copied into it, which is faster and holds each shape once).
 * EACH returns 0 to continue; any other value stops the parse
 * and is returned. Returns 0, 1 on an input error (in *ERR), or EACH's
 * value. */
int hlo_parse_file_each(const char *data, size_t len, int (*each)(hlo_module *m, void *ctx), void *ctx,
                        hlo_error *err);
/* The EACH that only frees the module (--check). */
int hlo_module_drop(hlo_module *m, void *ctx);
/* What one span's parse leaves to the next on the same thread (the shape
 * cache: shapes seen before are not parsed again), so that a thread's
 * spans run as fast as one pass over them would. */
typedef struct hlo_parse_cache hlo_parse_cache;
hlo_parse_cache *hlo_parse_cache_new(void);
void hlo_parse_cache_free(hlo_parse_cache *c);
/* hlo_parse_file_each on a span of the modules of DATA: from START (0, or
 * the end of a separator line's text) up to the separator token at offset
 * STOP (STOP == LEN: the end of input). Succeeds only if the parse ends
 * exactly there; when the cut was not a separator token (a "// -----" line
 * inside a comment or string) it fails. Offsets stay relative to DATA.
 * CACHE: NULL, or one that only spans of this same DATA use. */
int hlo_parse_span(const char *data, size_t len, size_t start, size_t stop, int (*each)(hlo_module *m, void *ctx),
                   void *ctx, hlo_parse_cache *cache, hlo_error *err);
/* --check's parse: every module of DATA is parsed, verified and freed.
 * With JOBS > 1 and a large text of several modules, spans of modules are
 * parsed by up to JOBS threads (parse_parallel.c); if any span fails, the
 * whole text is parsed again in one pass, so that the error reported is the
 * same as with JOBS == 1. Returns 0, or 1 with the first error in *ERR. */
int hlo_check_text(const char *data, size_t len, int jobs, hlo_error *err);
/* The same, calling WARN(M, CTX) for every module M with warnings (before
 * it is freed), on the calling thread and in text order: a module with
 * warnings makes the spans give way to the one-pass parse. */
int hlo_check_text_warn(const char *data, size_t len, int jobs, void (*warn)(const hlo_module *m, void *ctx), void *ctx,
                        hlo_error *err);
/* The same with spans of at least MIN_BYTES (hlo_check_text: 256 KB, and
 * only for a text of 2 MB or more), cut even for JOBS == 1 or a small
 * text: for the tests and the fuzzer, which check that spans never accept
 * what the one-pass parse rejects. */
int hlo_check_text_spans(const char *data, size_t len, int jobs, size_t min_bytes, hlo_error *err);
/* How many times, in this process, a parse failed and the text was parsed
 * again for the diagnostic (with LAC and the grammar alone). A valid text
 * never needs it: parser/grammar_only checks that. */
unsigned long hlo_parse_retries(void);
/* How many times, in this process, the spans of a threaded check gave way
 * to the one-pass parse (a span failed, or a module had warnings). */
unsigned long hlo_check_span_fallbacks(void);
void hlo_module_free(hlo_module *m);

/* The semantic checks (§9.5 and per-opcode checks); hlo_parse_file runs
 * them. Returns 0, or 1 with the first problem in *ERR. */
int hlo_verify_module(const hlo_module *m, hlo_error *err);
/* The same, with the checks hlo_parse_options.no_verify skips turned into
 * calls of WARN(CTX, offset, message), one per check not passed. */
int hlo_verify_module_lenient(const hlo_module *m, hlo_error *err, void (*warn)(void *ctx, size_t off, const char *msg),
                              void *ctx);

#endif
