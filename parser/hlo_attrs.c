/* The attribute catalogue (§5.6-5.7, §3.2) and the interpretation of
 * attribute values into the IR.
 *
 * The grammar validates each value's bracket structure (and the dedicated
 * syntaxes of sharding, metadata, frontend_attributes, shapes and literals);
 * the values the IR stores structurally are read here from their text with
 * a small recursive-descent reader over the re2c lexer. Unknown attributes
 * are kept as written. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "name_table.h"
#include "parse_ctx.h"
#include "pc_reader.h"

/* X(enum, "name", grammar class) */
#define ATTRS(X)                                                                     \
  X(SHARDING, "sharding", SHARDING) X(ENTRY_SH, "entry", SHARDING)                   \
  X(EXIT_SH, "exit", SHARDING) X(METADATA, "metadata", METADATA)                     \
  X(BACKEND_CONFIG, "backend_config", BACKEND)                                       \
  X(FRONTEND_ATTRIBUTES, "frontend_attributes", FRONTEND)                            \
  X(TO_APPLY, "to_apply", COMP) X(CALLS, "calls", COMP)                              \
  X(CONDITION, "condition", COMP) X(BODY, "body", COMP) X(SELECT, "select", COMP)    \
  X(SCATTER, "scatter", COMP) X(TRUE_COMPUTATION, "true_computation", COMP)          \
  X(FALSE_COMPUTATION, "false_computation", COMP)                                    \
  X(BRANCH_COMPUTATIONS, "branch_computations", COMP_LIST)                           \
  X(CALLED_COMPUTATIONS, "called_computations", COMP_LIST)                           \
  X(OUTFEED_SHAPE, "outfeed_shape", SHAPE)                                           \
  X(OPERAND_LAYOUT_CONSTRAINTS, "operand_layout_constraints", SHAPE_LIST)            \
  X(LITERAL, "literal", LITERAL)                                                     \
  X(ENTRY_COMPUTATION_LAYOUT, "entry_computation_layout", HDR_LAYOUT)                \
  X(DIMENSIONS, "dimensions", GENERIC) X(SLICE, "slice", GENERIC)                    \
  X(PADDING, "padding", GENERIC) X(WINDOW, "window", GENERIC)                        \
  X(DIM_LABELS, "dim_labels", GENERIC)                                               \
  X(FEATURE_GROUP_COUNT, "feature_group_count", GENERIC)                             \
  X(BATCH_GROUP_COUNT, "batch_group_count", GENERIC)                                 \
  X(OPERAND_PRECISION, "operand_precision", GENERIC)                                 \
  X(LHS_BATCH_DIMS, "lhs_batch_dims", GENERIC)                                       \
  X(RHS_BATCH_DIMS, "rhs_batch_dims", GENERIC)                                       \
  X(LHS_CONTRACTING_DIMS, "lhs_contracting_dims", GENERIC)                           \
  X(RHS_CONTRACTING_DIMS, "rhs_contracting_dims", GENERIC)                           \
  X(LHS_RAGGED_DIMS, "lhs_ragged_dims", GENERIC)                                     \
  X(RHS_GROUP_DIMS, "rhs_group_dims", GENERIC)                                       \
  X(OFFSET_DIMS, "offset_dims", GENERIC)                                             \
  X(COLLAPSED_SLICE_DIMS, "collapsed_slice_dims", GENERIC)                           \
  X(START_INDEX_MAP, "start_index_map", GENERIC)                                     \
  X(OPERAND_BATCHING_DIMS, "operand_batching_dims", GENERIC)                         \
  X(START_INDICES_BATCHING_DIMS, "start_indices_batching_dims", GENERIC)             \
  X(INDEX_VECTOR_DIM, "index_vector_dim", GENERIC)                                   \
  X(SLICE_SIZES, "slice_sizes", GENERIC)                                             \
  X(INDICES_ARE_SORTED, "indices_are_sorted", GENERIC)                               \
  X(UPDATE_WINDOW_DIMS, "update_window_dims", GENERIC)                               \
  X(INSERTED_WINDOW_DIMS, "inserted_window_dims", GENERIC)                           \
  X(SCATTER_DIMS_TO_OPERAND_DIMS, "scatter_dims_to_operand_dims", GENERIC)           \
  X(INPUT_BATCHING_DIMS, "input_batching_dims", GENERIC)                             \
  X(SCATTER_INDICES_BATCHING_DIMS, "scatter_indices_batching_dims", GENERIC)         \
  X(UNIQUE_INDICES, "unique_indices", GENERIC)                                       \
  X(DYNAMIC_SLICE_SIZES, "dynamic_slice_sizes", GENERIC)                             \
  X(INDEX, "index", GENERIC) X(IOTA_DIMENSION, "iota_dimension", GENERIC)            \
  X(KIND, "kind", GENERIC) X(CUSTOM_CALL_TARGET, "custom_call_target", GENERIC)      \
  X(REPLICA_GROUPS, "replica_groups", GENERIC) X(CHANNEL_ID, "channel_id", GENERIC)  \
  X(SOURCE_TARGET_PAIRS, "source_target_pairs", GENERIC)                             \
  X(NUM_CARRIES, "num_carries", GENERIC) X(IS_REVERSE, "is_reverse", GENERIC)        \
  X(IS_ASSOCIATIVE, "is_associative", GENERIC)                                       \
  X(CONTROL_PREDECESSORS, "control-predecessors", GENERIC)                           \
  X(RESULT_ACCURACY, "result_accuracy", GENERIC)                                     \
  X(ASYNC_EXECUTION_THREAD, "async_execution_thread", GENERIC)                       \
  X(DIRECTION, "direction", GENERIC) X(FFT_TYPE, "fft_type", GENERIC)                \
  X(FFT_LENGTH, "fft_length", GENERIC) X(DISTRIBUTION, "distribution", GENERIC)      \
  X(EPSILON, "epsilon", GENERIC) X(FEATURE_INDEX, "feature_index", GENERIC)          \
  X(EXPONENT_BITS, "exponent_bits", GENERIC) X(MANTISSA_BITS, "mantissa_bits", GENERIC) \
  X(PARAMETER_REPLICATION, "parameter_replication", GENERIC)                         \
  X(OUTPUT_TO_OPERAND_ALIASING, "output_to_operand_aliasing", GENERIC)               \
  X(K, "k", GENERIC) X(LARGEST, "largest", GENERIC) X(IS_STABLE, "is_stable", GENERIC) \
  X(CONSTRAIN_LAYOUT, "constrain_layout", GENERIC)                                   \
  X(USE_GLOBAL_DEVICE_IDS, "use_global_device_ids", GENERIC)                         \
  X(IS_HOST_TRANSFER, "is_host_transfer", GENERIC)                                   \
  X(CUSTOM_CALL_HAS_SIDE_EFFECT, "custom_call_has_side_effect", GENERIC)             \
  X(LOWER, "lower", GENERIC) X(LEFT_SIDE, "left_side", GENERIC)                      \
  X(UNIT_DIAGONAL, "unit_diagonal", GENERIC) X(IS_COMPOSITE, "is_composite", GENERIC) \
  X(STATISTICS, "statistics", GENERIC)                                               \
  X(IS_SCHEDULED, "is_scheduled", GENERIC)                                           \
  X(INPUT_OUTPUT_ALIAS, "input_output_alias", GENERIC)                               \
  X(BUFFER_DONOR, "buffer_donor", GENERIC)                                           \
  X(ALIAS_PASSTHROUGH_PARAMS, "alias_passthrough_params", GENERIC)                   \
  X(REPLICA_COUNT, "replica_count", GENERIC) X(NUM_PARTITIONS, "num_partitions", GENERIC) \
  X(ALLOW_SPMD_PARAMS, "allow_spmd_sharding_propagation_to_parameters", GENERIC)     \
  X(ALLOW_SPMD_OUTPUT, "allow_spmd_sharding_propagation_to_output", GENERIC)          \
  X(INFEED_CONFIG, "infeed_config", GENERIC) X(OUTFEED_CONFIG, "outfeed_config", GENERIC) \
  X(CROSS_PROGRAM_PREFETCH_INDEX, "cross_program_prefetch_index", GENERIC)           \
  X(INFERRED_DIMENSION, "inferred_dimension", GENERIC) X(DELTA, "delta", GENERIC)    \
  X(TRANSPOSE_A, "transpose_a", GENERIC) X(API_VERSION, "api_version", GENERIC)      \
  X(SCHEDULE, "schedule", GENERIC) X(PADDING_TYPE, "padding_type", GENERIC)          \
  X(DOMAIN, "domain", GENERIC) X(TYPE, "type", GENERIC) X(ALGORITHM, "algorithm", GENERIC)         \
  X(SPMD_OUTPUT_SHARDING, "spmd_output_sharding", SHARDING)                          \
  X(SPMD_PARAMETERS_SHARDINGS, "spmd_parameters_shardings", SHARDING)                \
  X(ORIGIN, "origin", GENERIC) X(SPARSITY, "sparsity", GENERIC)                      \
  X(MODE, "mode", GENERIC) X(ASYNC_GROUP_ID, "async_group_id", GENERIC)              \
  X(IS_CROSS_PROGRAM_PREFETCH, "is_cross_program_prefetch", GENERIC)                 \
  /* not in open-source XLA's parser, but in the dumps: older XLA's CPU    \
   * partitioning, TPU DMA priorities, a compare order (JAX on TPU) */    \
  X(OUTER_DIMENSION_PARTITIONS, "outer_dimension_partitions", GENERIC)               \
  X(DMA_PRIORITY, "dma_priority", GENERIC) X(ORDER, "order", GENERIC)

enum {
#define X_(e, s, c) AT_##e,
  ATTRS(X_)
#undef X_
  AT_COUNT
};

static const struct {
  const char *name;
  int cls;
} catalogue[] = {
#define X_(e, s, c) {s, PC_A_##c},
    ATTRS(X_)
#undef X_
};

/* Filled once, on first use (pthread_once: several threads may parse). */
_Static_assert(AT_COUNT < NAME_TABLE_SLOTS / 4, "the attribute catalogue outgrew name_table");
_Static_assert(AT_COUNT < INT16_MAX, "hlo_istr.attr is 16 bits");
static name_table attr_table;
static pthread_once_t attr_table_once = PTHREAD_ONCE_INIT;

static const char *attr_name(int id) { return catalogue[id].name; }

static void fill_attrs(void) { name_table_fill(&attr_table, AT_COUNT, attr_name); }

int pc_attr_id_search(hlo_istr *name) {
  pthread_once(&attr_table_once, fill_attrs);
  int id = name_table_find(&attr_table, hlo_istr_str(name), name->len, attr_name);
  name->attr = id < 0 ? PC_ATTR_NONE : id;
  return id;
}

int pc_attr_class(int id) { return id < 0 ? PC_A_GENERIC : catalogue[id].cls; }

static int rd_int(rd *r, int64_t *v, bool allow_neg) {
  if (r->t.kind != HT_INT) return rd_fail(r, allow_neg ? "an integer" : "a non-negative integer");
  if (r->t.neg && !allow_neg) return rd_fail(r, "a non-negative integer");
  if (!r->t.neg && r->t.u > (uint64_t)INT64_MAX)
    return pc_error(r->P, r->t.off, "integer %.*s is too large in '%s'", (int)r->t.len, r->t.ptr, r->what);
  *v = r->t.neg ? (r->t.u == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)r->t.u) : (int64_t)r->t.u;
  rd_next(r);
  return 0;
}

static int rd_bool(rd *r, bool *v) {
  if (r->t.kind == HT_KW_TRUE) *v = true;
  else if (r->t.kind == HT_KW_FALSE) *v = false;
  else return rd_fail(r, "'true' or 'false'");
  rd_next(r);
  return 0;
}

/* OPEN item (',' item)* CLOSE, or OPEN CLOSE: calls ITEM for each entry
 * (OPEN == HT_EOF: the opening token was already read). Returns the number
 * of entries, or -1. */
typedef int (*rd_item_fn)(rd *r, void *ctx);

static int rd_list(rd *r, hlo_tok_kind open, hlo_tok_kind close, const char *open_text, const char *more_text,
                   rd_item_fn item, void *ctx) {
  if (open != HT_EOF && rd_expect(r, open, open_text) < 0) return -1;
  int n = 0;
  if (r->t.kind != close) {
    for (;;) {
      if (item(r, ctx) < 0) return -1;
      n++;
      if (r->t.kind == HT_COMMA) {
        rd_next(r);
        continue;
      }
      if (r->t.kind != close) return rd_fail(r, more_text);
      break;
    }
  }
  rd_next(r);
  return n;
}

/* Moves the integers pushed on P->ints since BASE into the arena. */
static hlo_ints take_ints(parse_ctx *P, size_t base) {
  size_t n = P->ints.n - base;
  int64_t *v = hb_vec_take(P->a, &P->ints, sizeof *v, base, P->ints.n);
  return (hlo_ints){(int)n, v};
}

static int int_item(rd *r, void *allow_neg) {
  int64_t v = 0; /* (set by rd_int when it returns 0) */
  if (rd_int(r, &v, allow_neg != NULL) < 0) return -1;
  HB_PUSH(r->P->ints, int64_t, v);
  return 0;
}

/* OPEN (INT (',' INT)*)? CLOSE into the arena. */
static int rd_int_seq(rd *r, hlo_tok_kind open, hlo_tok_kind close, const char *open_text, const char *more_text,
                      bool allow_neg, hlo_ints *out) {
  size_t base = r->P->ints.n;
  if (rd_list(r, open, close, open_text, more_text, int_item, allow_neg ? (void *)1 : NULL) < 0) return -1;
  *out = take_ints(r->P, base);
  return 0;
}

/* '{' (INT (',' INT)*)? '}'. The usual "{1,0}" is read from its bytes
 * (pc_plain_int_list: the same tokens, and no integer out of range). */
static int rd_ints(rd *r, hlo_ints *out, bool allow_neg) {
  size_t base = r->P->ints.n;
  const char *close;
  if (r->t.kind == HT_LBRACE && (close = pc_plain_int_list(r->t.ptr, &r->P->ints)) &&
      (size_t)(close - r->P->data) <= r->end) {
    *out = take_ints(r->P, base);
    r->lx.cur = close;
    rd_next(r);
    return 0;
  }
  r->P->ints.n = base; /* (what a list that is not plain pushed) */
  return rd_int_seq(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", allow_neg, out);
}

/* A growable array in malloc'd memory, moved to the arena at the end. */
typedef struct grow_buf {
  hb_vec v;
  size_t elem;
} grow_buf;

static void *grow_buf_take(parse_ctx *P, grow_buf *g, int *n) {
  *n = (int)g->v.n;
  void *out = hb_vec_take(P->a, &g->v, g->elem, 0, g->v.n);
  hb_vec_free(&g->v);
  return out;
}

static int ints_item(rd *r, void *ctx) {
  hlo_ints l;
  if (rd_ints(r, &l, false) < 0) return -1;
  *(hlo_ints *)hb_vec_push_raw(&((grow_buf *)ctx)->v, sizeof l) = l;
  return 0;
}

/* '{' (ints (',' ints)*)? '}' */
static int rd_int_lists(rd *r, const hlo_ints **out, int *n_out) {
  grow_buf g = {{0}, sizeof(hlo_ints)};
  int rc = rd_list(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", ints_item, &g);
  *out = grow_buf_take(r->P, &g, n_out);
  return rc < 0 ? -1 : 0;
}

static bool tok_is(const hlo_token *t, const char *s) {
  size_t n = strlen(s);
  return t->len == n && memcmp(t->ptr, s, n) == 0;
}

static bool tok_is_ci(const hlo_token *t, const char *s) {
  size_t n = strlen(s);
  if (t->len != n) return false;
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)t->ptr[i]) != s[i]) return false;
  return true;
}

/* An identifier among WORDS (NULL-terminated), exact or case-insensitive. */
static int rd_enum(rd *r, const char *const *words, bool ci, const char *expected) {
  if (r->t.kind == HT_IDENT || r->t.kind == HT_PRIM_TYPE || (r->t.kind >= HT_KW_TRUE && r->t.kind <= HT_KW_PARAMETER)) {
    for (int i = 0; words[i]; i++)
      if (ci ? tok_is_ci(&r->t, words[i]) : tok_is(&r->t, words[i])) {
        rd_next(r);
        return i;
      }
  }
  return rd_fail(r, expected);
}

/* ---- strings ----------------------------------------------------------------- */

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)(c | 32);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xe0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  o[0] = (char)(0xf0 | ((cp >> 18) & 7));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  o[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

char *pc_decode_string(parse_ctx *P, const char *ptr, size_t len, size_t off) {
  /* ptr[0] and ptr[len-1] are the quotes; the lexer validated the escapes */
  if (len < 2) {
    pc_error(P, off, "malformed string");
    return NULL;
  }
  char *o = hb_arena_alloc(P->a, len * 2 + 1), *w = o;
  const char *p = ptr + 1, *e = ptr + len - 1;
  while (p < e) {
    char c = *p++;
    if (c != '\\') {
      *w++ = c;
      continue;
    }
    char x = *p++;
    switch (x) {
    case 'n': *w++ = '\n'; break;
    case 't': *w++ = '\t'; break;
    case 'r': *w++ = '\r'; break;
    case 'a': *w++ = '\a'; break;
    case 'b': *w++ = '\b'; break;
    case 'f': *w++ = '\f'; break;
    case 'v': *w++ = '\v'; break;
    case 'x': {
      unsigned v = 0;
      while (p < e && hexval(*p) >= 0) v = (v << 4) | (unsigned)hexval(*p++);
      *w++ = (char)v;
      break;
    }
    case 'u': case 'U': {
      int nd = x == 'u' ? 4 : 8;
      uint32_t cp = 0;
      for (int i = 0; i < nd && p < e; i++) cp = (cp << 4) | (uint32_t)hexval(*p++);
      w += put_utf8(w, cp);
      break;
    }
    default:
      if (x >= '0' && x <= '7') {
        unsigned v = (unsigned)(x - '0');
        for (int i = 0; i < 2 && p < e && *p >= '0' && *p <= '7'; i++) v = v * 8 + (unsigned)(*p++ - '0');
        *w++ = (char)v;
      } else {
        *w++ = x; /* \\ \' \" \? */
      }
    }
  }
  *w = '\0';
  return o;
}

static int rd_string(rd *r, const char **out) {
  if (r->t.kind != HT_STRING) return rd_fail(r, "a string");
  char *s = pc_decode_string(r->P, r->t.ptr, r->t.len, r->t.off);
  if (!s) return -1;
  *out = s;
  rd_next(r);
  return 0;
}

/* ---- specific values ------------------------------------------------------------ */

static int slice_item(rd *r, void *ctx) {
  hlo_slice_dim d = {0, 0, 1};
  if (rd_expect(r, HT_LBRACKET, "'[' starting a slice range") < 0) return -1;
  if (rd_int(r, &d.start, false) < 0 || rd_expect(r, HT_COLON, "':'") < 0 || rd_int(r, &d.limit, false) < 0)
    return -1;
  if (r->t.kind == HT_COLON) {
    rd_next(r);
    size_t soff = r->t.off;
    if (rd_int(r, &d.stride, false) < 0) return -1;
    if (d.stride < 1) return pc_error(r->P, soff, "slice stride must be positive");
  }
  if (rd_expect(r, HT_RBRACKET, "']' or ':'") < 0) return -1;
  *(hlo_slice_dim *)hb_vec_push_raw(&((grow_buf *)ctx)->v, sizeof d) = d;
  return 0;
}

static int read_slice(rd *r, hlo_instr *in) {
  grow_buf g = {{0}, sizeof(hlo_slice_dim)};
  int rc = rd_list(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", slice_item, &g);
  hlo_instr_ext *x = pc_instr_ext(r->P, in);
  x->slice = grow_buf_take(r->P, &g, &x->n_slice);
  if (rc < 0) return -1;
  x->has_slice = true;
  return 0;
}

/* Parses "lo_hi[_interior]" groups joined by 'x' (a PAD or INT token). */
static int parse_pad_text(parse_ctx *P, const hlo_token *t, bool allow_interior, hlo_pad_dim **out, int *n_out,
                          const char *what) {
  if (t->kind != HT_PAD)
    return pc_error(P, t->off, "expected padding (low_high%s per dimension, joined by 'x') in '%s'",
                    allow_interior ? "[_interior]" : "", what);
  int n = 1;
  for (size_t i = 0; i < t->len; i++) n += t->ptr[i] == 'x';
  hlo_pad_dim *v = hb_arena_array(P->a, (size_t)n, sizeof *v);
  const char *p = t->ptr, *e = t->ptr + t->len;
  for (int k = 0; k < n; k++) {
    int64_t parts[3] = {0, 0, 0};
    int np = 0;
    for (;;) {
      bool neg = false;
      if (*p == '-') {
        neg = true;
        p++;
      }
      uint64_t u = 0;
      while (p < e && *p >= '0' && *p <= '9') {
        if (u > (uint64_t)INT64_MAX / 10) return pc_error(P, t->off, "padding value too large in '%s'", what);
        u = u * 10 + (uint64_t)(*p++ - '0');
      }
      if (u > (uint64_t)INT64_MAX) return pc_error(P, t->off, "padding value too large in '%s'", what);
      parts[np++] = neg ? -(int64_t)u : (int64_t)u;
      if (p < e && *p == '_' && np < 3) {
        p++;
        continue;
      }
      break;
    }
    if (np == 3 && !allow_interior)
      return pc_error(P, t->off, "window padding expects low_high per dimension (no interior padding), found '%.*s'",
                      (int)t->len, t->ptr);
    if (parts[2] < 0) return pc_error(P, t->off, "interior padding must be non-negative in '%s'", what);
    v[k] = (hlo_pad_dim){parts[0], parts[1], parts[2]};
    if (p < e && *p == 'x') p++;
  }
  *out = v;
  *n_out = n;
  return 0;
}

/* DXD / INT list "3x3" into an int array. */
static int parse_dxd(parse_ctx *P, const hlo_token *t, int64_t **out, int *n_out, const char *what) {
  if (t->kind == HT_INT) {
    if (t->neg || t->u > (uint64_t)INT64_MAX) return pc_error(P, t->off, "expected a non-negative size in '%s'", what);
    int64_t *v = hb_arena_alloc(P->a, sizeof *v);
    v[0] = (int64_t)t->u;
    *out = v;
    *n_out = 1;
    return 0;
  }
  if (t->kind != HT_DXD) return pc_error(P, t->off, "expected sizes like 3x3 in '%s'", what);
  int n = 1;
  for (size_t i = 0; i < t->len; i++) n += t->ptr[i] == 'x';
  int64_t *v = hb_arena_array(P->a, (size_t)n, sizeof *v);
  const char *p = t->ptr, *e = t->ptr + t->len;
  for (int k = 0; k < n; k++) {
    uint64_t u = 0;
    while (p < e && *p >= '0' && *p <= '9') {
      uint64_t d = (uint64_t)(*p++ - '0');
      if (u > ((uint64_t)INT64_MAX - d) / 10) return pc_error(P, t->off, "window value too large in '%s'", what);
      u = u * 10 + d;
    }
    v[k] = (int64_t)u;
    if (p < e && *p == 'x') p++;
  }
  *out = v;
  *n_out = n;
  return 0;
}

static int read_window(rd *r, hlo_instr *in) {
  if (rd_expect(r, HT_LBRACE, "'{'") < 0) return -1;
  static const char *const fields[] = {"size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal", NULL};
  int64_t *vals[6] = {0};
  hlo_pad_dim *pads = NULL;
  int counts[6] = {0};
  size_t offs[6] = {0};
  while (r->t.kind != HT_RBRACE) {
    if (r->t.kind == HT_COMMA) {
      rd_next(r);
      continue;
    }
    if (r->t.kind != HT_ATTR_NAME) return rd_fail(r, "a window field (size=, stride=, pad=, ...)");
    int f = -1;
    for (int i = 0; fields[i]; i++)
      if (tok_is(&r->t, fields[i])) f = i;
    if (f < 0)
      return pc_error(r->P, r->t.off, "unknown window field '%.*s' (expected size, stride, pad, lhs_dilate, rhs_dilate or rhs_reversal)",
                      (int)r->t.len, r->t.ptr);
    if (counts[f]) return pc_error(r->P, r->t.off, "window field '%s' given twice", fields[f]);
    offs[f] = r->t.off;
    rd_next(r);
    if (r->t.kind == HT_EOF || r->t.kind == HT_RBRACE) return rd_fail(r, "a value");
    if (f == 2) {
      if (parse_pad_text(r->P, &r->t, false, &pads, &counts[f], "window") < 0) return -1;
    } else {
      if (parse_dxd(r->P, &r->t, &vals[f], &counts[f], "window") < 0) return -1;
    }
    rd_next(r);
  }
  rd_next(r);
  int n = 0;
  for (int f = 0; f < 6; f++)
    if (counts[f]) {
      if (n && counts[f] != n)
        return pc_error(r->P, offs[f], "window field '%s' has %d entries, but other fields have %d", fields[f],
                        counts[f], n);
      n = counts[f];
    }
  if (n && !counts[0]) return pc_error(r->P, r->t.off, "window without size=");
  hlo_window_dim *w = hb_arena_array(r->P->a, (size_t)n, sizeof *w);
  for (int i = 0; i < n; i++) {
    w[i].size = vals[0][i];
    w[i].stride = counts[1] ? vals[1][i] : 1;
    w[i].pad_lo = counts[2] ? pads[i].lo : 0;
    w[i].pad_hi = counts[2] ? pads[i].hi : 0;
    w[i].lhs_dilate = counts[3] ? vals[3][i] : 1;
    w[i].rhs_dilate = counts[4] ? vals[4][i] : 1;
    w[i].rhs_reversal = counts[5] ? vals[5][i] != 0 : false;
    if (counts[5] && vals[5][i] > 1) return pc_error(r->P, offs[5], "window rhs_reversal entries must be 0 or 1");
    if (w[i].stride < 1) return pc_error(r->P, offs[1], "window strides must be positive");
    if (w[i].lhs_dilate < 1) return pc_error(r->P, offs[3], "window lhs_dilate entries must be positive");
    if (w[i].rhs_dilate < 1) return pc_error(r->P, offs[4], "window rhs_dilate entries must be positive");
  }
  hlo_instr_ext *x = pc_instr_ext(r->P, in);
  x->has_window = true;
  x->window = w;
  x->n_window = n;
  return 0;
}

static int read_dim_labels(rd *r, hlo_instr *in) {
  if (r->t.kind != HT_DIM_LABELS) return rd_fail(r, "dimension labels like b01f_01io->b01f");
  parse_ctx *P = r->P;
  const char *s = r->t.ptr;
  size_t len = r->t.len, off = r->t.off;
  const char *us = memchr(s, '_', len);
  const char *ar = memchr(s, '>', len);
  size_t l1 = (size_t)(us - s), l2 = (size_t)(ar - 1 - (us + 1)), l3 = (size_t)(s + len - (ar + 1));
  const char *parts[3] = {s, us + 1, ar + 1};
  size_t lens[3] = {l1, l2, l3};
  /* spatial dimension count: the digits of the input labels */
  int nsp[3] = {0, 0, 0};
  for (int p = 0; p < 3; p++)
    for (size_t i = 0; i < lens[p]; i++) nsp[p] += parts[p][i] >= '0' && parts[p][i] <= '9';
  if (nsp[0] != nsp[1] || nsp[0] != nsp[2])
    return pc_error(P, off, "dim_labels '%.*s': input, kernel and output must have the same number of spatial dimensions (%d, %d, %d)",
                    (int)len, s, nsp[0], nsp[1], nsp[2]);
  int ns = nsp[0];
  hlo_conv_dims *cd = hb_arena_zalloc(P->a, sizeof *cd);
  cd->labels = hb_arena_strndup(P->a, s, len);
  cd->n_spatial = ns;
  int64_t *sp[3];
  for (int p = 0; p < 3; p++) {
    sp[p] = hb_arena_array(P->a, (size_t)ns, sizeof(int64_t));
    for (int k = 0; k < ns; k++) sp[p][k] = -1;
  }
  int64_t role[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
  static const char letters[3][2] = {{'b', 'f'}, {'i', 'o'}, {'b', 'f'}};
  static const char *const names[3] = {"input", "kernel", "output"};
  for (int p = 0; p < 3; p++) {
    /* '?' (a dimension the labels leave unknown, as XLA prints them) may
     * stand for a role letter; like any label, once per part */
    const char *q = memchr(parts[p], '?', lens[p]);
    bool unknown = q != NULL;
    if (q && memchr(q + 1, '?', lens[p] - (size_t)(q + 1 - parts[p])))
      return pc_error(P, off, "dim_labels '%.*s': '?' appears twice in the %s labels", (int)len, s, names[p]);
    for (size_t i = 0; i < lens[p]; i++) {
      char c = parts[p][i];
      if (c == '?') continue;
      if (c >= '0' && c <= '9') {
        int k = c - '0';
        if (k >= ns)
          return pc_error(P, off, "dim_labels '%.*s': %s labels expect [0-%d%c%c?], found '%c'", (int)len, s,
                          names[p], ns - 1, letters[p][0], letters[p][1], c);
        if (sp[p][k] >= 0)
          return pc_error(P, off, "dim_labels '%.*s': spatial dimension %d appears twice in the %s labels", (int)len,
                          s, k, names[p]);
        sp[p][k] = (int64_t)i;
        continue;
      }
      int which = c == letters[p][0] ? 0 : c == letters[p][1] ? 1 : -1;
      if (which < 0)
        return pc_error(P, off, "dim_labels '%.*s': %s labels expect [0-9%c%c?], found '%c'", (int)len, s, names[p],
                        letters[p][0], letters[p][1], c);
      if (role[p][which] >= 0)
        return pc_error(P, off, "dim_labels '%.*s': '%c' appears twice in the %s labels", (int)len, s, c, names[p]);
      role[p][which] = (int64_t)i;
    }
    for (int w = 0; w < 2; w++)
      if (role[p][w] < 0 && !unknown)
        return pc_error(P, off, "dim_labels '%.*s': the %s labels have no '%c'", (int)len, s, names[p],
                        letters[p][w]);
  }
  cd->input_batch = role[0][0];
  cd->input_feature = role[0][1];
  cd->kernel_input_feature = role[1][0];
  cd->kernel_output_feature = role[1][1];
  cd->output_batch = role[2][0];
  cd->output_feature = role[2][1];
  cd->input_spatial = sp[0];
  cd->kernel_spatial = sp[1];
  cd->output_spatial = sp[2];
  cd->input_rank = (int)l1;
  cd->kernel_rank = (int)l2;
  cd->output_rank = (int)l3;
  pc_instr_ext(r->P, in)->conv_dims = cd;
  rd_next(r);
  return 0;
}

static int read_replica_groups(rd *r, hlo_instr *in) {
  hlo_replica_groups *g = hb_arena_zalloc(r->P->a, sizeof *g);
  static const int64_t none[1] = {0};
  g->iota_reshape.v = none;
  g->iota_transpose.v = none;
  if (r->t.kind == HT_LBRACE) {
    if (rd_int_lists(r, &g->groups, &g->n_groups) < 0) return -1;
  } else if (r->t.kind == HT_LBRACKET) {
    g->iota = true;
    rd_next(r);
    if (rd_int(r, &g->iota_n_groups, false) < 0 || rd_expect(r, HT_COMMA, "','") < 0 ||
        rd_int(r, &g->iota_group_size, false) < 0 || rd_expect(r, HT_RBRACKET, "']'") < 0 ||
        rd_expect(r, HT_LEQ, "'<='") < 0)
      return -1;
    /* [d0,d1,...] then an optional T(p0,p1,...) */
    if (rd_int_seq(r, HT_LBRACKET, HT_RBRACKET, "'['", "',' or ']'", false, &g->iota_reshape) < 0) return -1;
    size_t n = (size_t)g->iota_reshape.n;
    const int64_t *dv = g->iota_reshape.v;
    if (r->t.kind == HT_IDENT && tok_is(&r->t, "T")) {
      rd_next(r);
      if (rd_int_seq(r, HT_LPAREN, HT_RPAREN, "'('", "',' or ')'", false, &g->iota_transpose) < 0) return -1;
      if ((size_t)g->iota_transpose.n != n)
        return pc_error(r->P, r->t.off, "replica_groups: the transpose has %d entries, but the reshape has %d",
                        g->iota_transpose.n, (int)n);
    }
    int64_t prod = 1;
    for (size_t i = 0; i < n; i++) {
      if (dv[i] != 0 && prod > INT64_MAX / dv[i]) return pc_error(r->P, r->t.off, "replica_groups: iota too large");
      prod *= dv[i];
    }
    if (g->iota_group_size != 0 && g->iota_n_groups > INT64_MAX / g->iota_group_size)
      return pc_error(r->P, r->t.off, "replica_groups: too many devices");
    if (prod != g->iota_n_groups * g->iota_group_size)
      return pc_error(r->P, r->t.off, "replica_groups: %lld groups of %lld devices do not match an iota of %lld devices",
                      (long long)g->iota_n_groups, (long long)g->iota_group_size, (long long)prod);
  } else if (r->t.kind == HT_IDENT) {
    /* mesh-axis groups of the newest XLA: kept raw */
    return 0;
  } else {
    return rd_fail(r, "'{' or '['");
  }
  pc_instr_ext(r->P, in)->replica_groups = g;
  return rd_end(r);
}

/* A control predecessor: resolved with the operands, at the end of the
 * computation (pending kind 1). */
static int name_item(rd *r, void *ctx) {
  hlo_instr *in = ctx;
  if (!(r->t.kind == HT_PCT_NAME || r->t.kind == HT_IDENT || (r->t.kind >= HT_KW_MAXIMAL && r->t.kind <= HT_KW_PARAMETER)))
    return rd_fail(r, "an instruction name");
  int i = (int)(r->P->pending.n - r->P->preds_base);
  HB_PUSH(r->P->pending, pc_pending,
          ((pc_pending){in, 1, i, hlo_intern_get(r->P->in, r->t.ptr, r->t.len), r->t.off, NULL}));
  rd_next(r);
  return 0;
}

static int read_name_list(rd *r, hlo_instr *in) {
  r->P->preds_base = r->P->pending.n;
  int n = rd_list(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", name_item, in);
  if (n < 0) return -1;
  hlo_instr_ext *x = pc_instr_ext(r->P, in);
  x->n_control_predecessors = n;
  x->control_predecessors = hb_arena_zalloc(r->P->a, (size_t)(n ? n : 1) * sizeof *x->control_predecessors);
  return 0;
}

/* shape_index := '{' (INT (',' INT)*)? '}' */
static int rd_shape_index(rd *r) {
  if (r->t.kind != HT_LBRACE) return rd_fail(r, "'{' at the start of a shape index");
  rd_next(r);
  if (r->t.kind == HT_RBRACE) {
    rd_next(r);
    return 0;
  }
  for (;;) {
    int64_t v;
    if (rd_int(r, &v, false) < 0) return -1;
    if (r->t.kind == HT_COMMA) {
      rd_next(r);
      continue;
    }
    if (r->t.kind != HT_RBRACE) return rd_fail(r, "'}' at the end of the shape index");
    rd_next(r);
    return 0;
  }
}

/* Aliasing lists. FORM 0: output_to_operand_aliasing {idx: (n, idx)};
 * 1: input_output_alias {idx: (n, idx[, kind])}; 2: buffer_donor {(n, idx)}. */
static int read_aliasing(rd *r, int form) {
  if (rd_expect(r, HT_LBRACE, "'{'") < 0) return -1;
  if (r->t.kind == HT_RBRACE) {
    rd_next(r);
    return rd_end(r);
  }
  for (;;) {
    if (form != 2) {
      if (rd_shape_index(r) < 0) return -1;
      if (rd_expect(r, HT_COLON, "':' after the output shape index") < 0) return -1;
    }
    if (rd_expect(r, HT_LPAREN, "'('") < 0) return -1;
    int64_t v;
    if (rd_int(r, &v, false) < 0) return -1;
    if (rd_expect(r, HT_COMMA, "','") < 0) return -1;
    if (rd_shape_index(r) < 0) return -1;
    if (form == 1 && r->t.kind == HT_COMMA) {
      rd_next(r);
      static const char *const kinds[] = {"may-alias", "must-alias", NULL};
      if (rd_enum(r, kinds, false, "'may-alias' or 'must-alias'") < 0) return -1;
    }
    if (rd_expect(r, HT_RPAREN, "')'") < 0) return -1;
    if (r->t.kind == HT_COMMA) {
      rd_next(r);
      continue;
    }
    if (r->t.kind != HT_RBRACE) return rd_fail(r, "',' or '}' at the end of the aliasing description");
    rd_next(r);
    return rd_end(r);
  }
}

static int rd_number(rd *r) {
  if (r->t.kind == HT_INT || r->t.kind == HT_FLOAT || r->t.kind == HT_KW_INF || r->t.kind == HT_NEG_INF) {
    rd_next(r);
    return 0;
  }
  return rd_fail(r, "a number");
}

static int read_result_accuracy(rd *r) {
  if (rd_expect(r, HT_LBRACE, "'{'") < 0) return -1;
  if (r->t.kind != HT_ATTR_NAME) return rd_fail(r, "an attribute name (mode= or tolerance=)");
  if (tok_is(&r->t, "mode")) {
    rd_next(r);
    static const char *const modes[] = {"default", "highest", NULL};
    if (rd_enum(r, modes, true, "a result accuracy mode (default or highest)") < 0) return -1;
  } else if (tok_is(&r->t, "tolerance")) {
    rd_next(r);
    if (rd_expect(r, HT_LBRACE, "'{'") < 0) return -1;
    while (r->t.kind != HT_RBRACE) {
      if (r->t.kind == HT_COMMA) {
        rd_next(r);
        continue;
      }
      if (r->t.kind != HT_ATTR_NAME || !(tok_is(&r->t, "atol") || tok_is(&r->t, "rtol") || tok_is(&r->t, "ulps")))
        return rd_fail(r, "atol=, rtol= or ulps=");
      rd_next(r);
      if (rd_number(r) < 0) return -1;
    }
    rd_next(r);
  } else {
    return pc_error(r->P, r->t.off, "invalid attribute name '%.*s' in result_accuracy (expected mode or tolerance)",
                    (int)r->t.len, r->t.ptr);
  }
  if (rd_expect(r, HT_RBRACE, "'}'") < 0) return -1;
  return rd_end(r);
}

static int read_statistics(rd *r) {
  if (rd_expect(r, HT_LBRACE, "'{'") < 0) return -1;
  while (r->t.kind != HT_RBRACE) {
    if (r->t.kind == HT_COMMA) {
      rd_next(r);
      continue;
    }
    if (r->t.kind != HT_ATTR_NAME) return rd_fail(r, "a statistic name");
    rd_next(r);
    if (rd_number(r) < 0) return -1;
  }
  rd_next(r);
  return rd_end(r);
}

static int bool_item(rd *r, void *ctx) {
  (void)ctx;
  bool b;
  return rd_bool(r, &b);
}

/* A bool, or a list of bools; *n receives the number of entries (-1 for
 * a single bool). */
static int read_bool_list_or_bool(rd *r, int *n) {
  bool b = false;
  *n = -1;
  if (r->t.kind != HT_LBRACE) return rd_bool(r, &b) < 0 ? -1 : rd_end(r);
  *n = rd_list(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", bool_item, NULL);
  return *n < 0 ? -1 : rd_end(r);
}

static int precision_item(rd *r, void *ctx) {
  (void)ctx;
  static const char *const p[] = {"default", "high", "highest", "packed_nibble", NULL};
  return rd_enum(r, p, true, "a precision (default, high or highest)") < 0 ? -1 : 0;
}

static int read_precision(rd *r) {
  if (rd_list(r, HT_LBRACE, HT_RBRACE, "'{'", "',' or '}'", precision_item, NULL) < 0) return -1;
  return rd_end(r);
}

/* ---- per-opcode rules -------------------------------------------------------------- */

static bool is_reduce_like(hlo_opcode op) {
  switch (op) {
  case HLO_OP_CALL: case HLO_OP_MAP: case HLO_OP_REDUCE: case HLO_OP_REDUCE_WINDOW: case HLO_OP_ALL_REDUCE:
  case HLO_OP_ALL_REDUCE_START: case HLO_OP_REDUCE_SCATTER: case HLO_OP_SCATTER: case HLO_OP_SORT:
  case HLO_OP_CUSTOM_CALL: case HLO_OP_SCAN: case HLO_OP_COLLECTIVE_REDUCE:
    return true;
  default:
    return false;
  }
}

static bool is_async(hlo_opcode op) {
  return op == HLO_OP_ASYNC_START || op == HLO_OP_ASYNC_UPDATE || op == HLO_OP_ASYNC_DONE;
}

/* Is attribute ID allowed on opcode OP (XLA rejects these elsewhere)?
 * Attributes not listed are allowed everywhere. */
static bool attr_allowed(int id, hlo_opcode op) {
  switch (id) {
  case AT_TO_APPLY: return is_reduce_like(op);
  case AT_CALLS: return op == HLO_OP_FUSION || op == HLO_OP_ASYNC_START || op == HLO_OP_ASYNC_UPDATE || op == HLO_OP_ASYNC_DONE;
  case AT_CONDITION: case AT_BODY: return op == HLO_OP_WHILE;
  case AT_SELECT: case AT_SCATTER: return op == HLO_OP_SELECT_AND_SCATTER;
  case AT_TRUE_COMPUTATION: case AT_FALSE_COMPUTATION: case AT_BRANCH_COMPUTATIONS: return op == HLO_OP_CONDITIONAL;
  case AT_CALLED_COMPUTATIONS: return op == HLO_OP_CUSTOM_CALL;
  case AT_KIND: return op == HLO_OP_FUSION;
  case AT_SLICE: return op == HLO_OP_SLICE;
  case AT_PADDING: return op == HLO_OP_PAD;
  case AT_DYNAMIC_SLICE_SIZES: return op == HLO_OP_DYNAMIC_SLICE;
  case AT_IOTA_DIMENSION: return op == HLO_OP_IOTA;
  case AT_INDEX: return op == HLO_OP_GET_TUPLE_ELEMENT;
  case AT_CUSTOM_CALL_TARGET: return op == HLO_OP_CUSTOM_CALL;
  case AT_DIM_LABELS: case AT_FEATURE_GROUP_COUNT: case AT_BATCH_GROUP_COUNT:
    return op == HLO_OP_CONVOLUTION || op == HLO_OP_CUSTOM_CALL;
  case AT_WINDOW:
    return op == HLO_OP_CONVOLUTION || op == HLO_OP_REDUCE_WINDOW || op == HLO_OP_SELECT_AND_SCATTER ||
           op == HLO_OP_CUSTOM_CALL;
  case AT_OFFSET_DIMS: case AT_COLLAPSED_SLICE_DIMS: case AT_START_INDEX_MAP: case AT_OPERAND_BATCHING_DIMS:
  case AT_START_INDICES_BATCHING_DIMS:
    return op == HLO_OP_GATHER;
  case AT_INDEX_VECTOR_DIM: case AT_INDICES_ARE_SORTED: return op == HLO_OP_GATHER || op == HLO_OP_SCATTER;
  case AT_UPDATE_WINDOW_DIMS: case AT_INSERTED_WINDOW_DIMS: case AT_SCATTER_DIMS_TO_OPERAND_DIMS:
  case AT_INPUT_BATCHING_DIMS: case AT_SCATTER_INDICES_BATCHING_DIMS: case AT_UNIQUE_INDICES:
    return op == HLO_OP_SCATTER;
  case AT_LHS_BATCH_DIMS: case AT_RHS_BATCH_DIMS: case AT_LHS_CONTRACTING_DIMS: case AT_RHS_CONTRACTING_DIMS:
    return op == HLO_OP_DOT || op == HLO_OP_RAGGED_DOT || op == HLO_OP_SCALED_DOT;
  case AT_LHS_RAGGED_DIMS: case AT_RHS_GROUP_DIMS: return op == HLO_OP_RAGGED_DOT;
  case AT_FFT_TYPE: case AT_FFT_LENGTH: return op == HLO_OP_FFT;
  case AT_DIRECTION: return op == HLO_OP_COMPARE;
  case AT_DISTRIBUTION: return op == HLO_OP_RNG;
  case AT_EXPONENT_BITS: case AT_MANTISSA_BITS: return op == HLO_OP_REDUCE_PRECISION;
  case AT_EPSILON: case AT_FEATURE_INDEX:
    return op == HLO_OP_BATCH_NORM_GRAD || op == HLO_OP_BATCH_NORM_INFERENCE || op == HLO_OP_BATCH_NORM_TRAINING;
  case AT_SOURCE_TARGET_PAIRS: return op == HLO_OP_COLLECTIVE_PERMUTE || op == HLO_OP_COLLECTIVE_PERMUTE_START;
  case AT_CHANNEL_ID:
    switch (op) {
    case HLO_OP_ALL_GATHER: case HLO_OP_ALL_GATHER_START: case HLO_OP_ALL_REDUCE: case HLO_OP_ALL_REDUCE_START:
    case HLO_OP_ALL_TO_ALL: case HLO_OP_RAGGED_ALL_TO_ALL: case HLO_OP_REDUCE_SCATTER: case HLO_OP_COLLECTIVE_BROADCAST:
    case HLO_OP_COLLECTIVE_PERMUTE: case HLO_OP_COLLECTIVE_PERMUTE_START: case HLO_OP_COLLECTIVE_REDUCE:
    case HLO_OP_SEND: case HLO_OP_RECV: case HLO_OP_SEND_DONE: case HLO_OP_RECV_DONE:
      return true;
    default:
      return false;
    }
  case AT_NUM_CARRIES: case AT_IS_REVERSE: case AT_IS_ASSOCIATIVE: return op == HLO_OP_SCAN;
  case AT_OUTFEED_SHAPE: case AT_OUTFEED_CONFIG: return op == HLO_OP_OUTFEED;
  case AT_INFEED_CONFIG: return op == HLO_OP_INFEED;
  case AT_DIMENSIONS:
    switch (op) {
    case HLO_OP_BROADCAST: case HLO_OP_TRANSPOSE: case HLO_OP_REVERSE: case HLO_OP_CONCATENATE: case HLO_OP_REDUCE:
    case HLO_OP_SORT: case HLO_OP_MAP: case HLO_OP_ALL_GATHER: case HLO_OP_ALL_GATHER_START: case HLO_OP_REDUCE_SCATTER:
    case HLO_OP_ALL_TO_ALL: case HLO_OP_RAGGED_ALL_TO_ALL: case HLO_OP_GET_DIMENSION_SIZE:
    case HLO_OP_SET_DIMENSION_SIZE: case HLO_OP_SCAN: case HLO_OP_COLLECTIVE_REDUCE: case HLO_OP_TOPK:
      return true;
    default:
      return false;
    }
  case AT_REPLICA_GROUPS: case AT_CONSTRAIN_LAYOUT: case AT_USE_GLOBAL_DEVICE_IDS: case AT_MODE: /* the collectives */
    switch (op) {
    case HLO_OP_ALL_GATHER: case HLO_OP_ALL_GATHER_START: case HLO_OP_ALL_REDUCE: case HLO_OP_ALL_REDUCE_START:
    case HLO_OP_ALL_TO_ALL: case HLO_OP_RAGGED_ALL_TO_ALL: case HLO_OP_REDUCE_SCATTER:
    case HLO_OP_COLLECTIVE_BROADCAST: case HLO_OP_COLLECTIVE_REDUCE:
      return true;
    default:
      return false;
    }
  case AT_IS_HOST_TRANSFER:
    return op == HLO_OP_SEND || op == HLO_OP_RECV || op == HLO_OP_SEND_DONE || op == HLO_OP_RECV_DONE;
  case AT_IS_STABLE: return op == HLO_OP_SORT || op == HLO_OP_TOPK;
  case AT_K: case AT_LARGEST: return op == HLO_OP_TOPK;
  case AT_LOWER: return op == HLO_OP_CHOLESKY || op == HLO_OP_TRIANGULAR_SOLVE;
  case AT_LEFT_SIDE: case AT_UNIT_DIAGONAL: case AT_TRANSPOSE_A: return op == HLO_OP_TRIANGULAR_SOLVE;
  case AT_CROSS_PROGRAM_PREFETCH_INDEX: return op == HLO_OP_COPY_START;
  case AT_INFERRED_DIMENSION: return op == HLO_OP_RESHAPE;
  case AT_DELTA: return op == HLO_OP_RNG_GET_AND_UPDATE_STATE;
  case AT_IS_COMPOSITE: return op == HLO_OP_CALL;
  case AT_API_VERSION: case AT_SCHEDULE: case AT_PADDING_TYPE: return op == HLO_OP_CUSTOM_CALL;
  case AT_DOMAIN: return op == HLO_OP_DOMAIN;
  case AT_SPARSITY: return op == HLO_OP_DOT;
  case AT_ORDER: return op == HLO_OP_COMPARE;
  case AT_IS_CROSS_PROGRAM_PREFETCH: return op == HLO_OP_COPY_START;
  case AT_SPMD_OUTPUT_SHARDING: case AT_SPMD_PARAMETERS_SHARDINGS: case AT_IS_SCHEDULED:
  case AT_ENTRY_COMPUTATION_LAYOUT: case AT_INPUT_OUTPUT_ALIAS: case AT_BUFFER_DONOR:
  case AT_ALIAS_PASSTHROUGH_PARAMS: case AT_REPLICA_COUNT: case AT_NUM_PARTITIONS: case AT_ALLOW_SPMD_PARAMS:
  case AT_ALLOW_SPMD_OUTPUT:
    return false; /* module attributes */
  case AT_PARAMETER_REPLICATION: return op == HLO_OP_PARAMETER;
  case AT_ASYNC_EXECUTION_THREAD: case AT_ASYNC_GROUP_ID: return is_async(op);
  case AT_OPERAND_PRECISION:
    return op == HLO_OP_DOT || op == HLO_OP_CONVOLUTION || op == HLO_OP_CUSTOM_CALL || op == HLO_OP_RAGGED_DOT ||
           op == HLO_OP_SCALED_DOT;
  case AT_RESULT_ACCURACY:
    switch (op) {
    case HLO_OP_CBRT: case HLO_OP_COSINE: case HLO_OP_ERF: case HLO_OP_EXPONENTIAL: case HLO_OP_EXPONENTIAL_MINUS_ONE:
    case HLO_OP_LOG: case HLO_OP_LOG_PLUS_ONE: case HLO_OP_LOGISTIC: case HLO_OP_RSQRT: case HLO_OP_SINE:
    case HLO_OP_SQRT: case HLO_OP_TAN: case HLO_OP_TANH:
      return true;
    default:
      return false;
    }
  case AT_OPERAND_LAYOUT_CONSTRAINTS: case AT_LITERAL: case AT_CUSTOM_CALL_HAS_SIDE_EFFECT:
    return op == HLO_OP_CUSTOM_CALL;
  default:
    return true;
  }
}

/* Attributes an opcode must have. */
static const int *required_attrs(hlo_opcode op) {
  static const int fusion[] = {AT_KIND, AT_CALLS, -1};
  static const int reduce[] = {AT_DIMENSIONS, AT_TO_APPLY, -1};
  static const int gather[] = {AT_OFFSET_DIMS, AT_COLLAPSED_SLICE_DIMS, AT_START_INDEX_MAP, AT_INDEX_VECTOR_DIM,
                               AT_SLICE_SIZES, -1};
  static const int scatter[] = {AT_UPDATE_WINDOW_DIMS, AT_INSERTED_WINDOW_DIMS, AT_SCATTER_DIMS_TO_OPERAND_DIMS,
                                AT_INDEX_VECTOR_DIM, AT_TO_APPLY, -1};
  static const int gte[] = {AT_INDEX, -1};
  static const int iota[] = {AT_IOTA_DIMENSION, -1};
  static const int slice[] = {AT_SLICE, -1};
  static const int pad[] = {AT_PADDING, -1};
  static const int dims[] = {AT_DIMENSIONS, -1};
  static const int dslice[] = {AT_DYNAMIC_SLICE_SIZES, -1};
  static const int conv[] = {AT_DIM_LABELS, -1};
  static const int compare[] = {AT_DIRECTION, -1};
  static const int whil[] = {AT_CONDITION, AT_BODY, -1};
  static const int to_apply[] = {AT_TO_APPLY, -1};
  static const int sort[] = {AT_DIMENSIONS, AT_TO_APPLY, -1};
  static const int sas[] = {AT_SELECT, AT_SCATTER, -1};
  static const int cc[] = {AT_CUSTOM_CALL_TARGET, -1};
  static const int rs[] = {AT_DIMENSIONS, AT_TO_APPLY, -1};
  static const int rng[] = {AT_DISTRIBUTION, -1};
  static const int fft[] = {AT_FFT_TYPE, AT_FFT_LENGTH, -1};
  static const int bn[] = {AT_EPSILON, AT_FEATURE_INDEX, -1};
  static const int rp[] = {AT_EXPONENT_BITS, AT_MANTISSA_BITS, -1};
  static const int rbg[] = {AT_ALGORITHM, -1};
  static const int topk[] = {AT_K, -1};
  static const int delta[] = {AT_DELTA, -1};
  static const int domain[] = {AT_DOMAIN, -1};
  static const int cp[] = {AT_SOURCE_TARGET_PAIRS, -1};
  static const int none[] = {-1};
  switch (op) {
  case HLO_OP_FUSION: return fusion;
  case HLO_OP_REDUCE: return reduce;
  case HLO_OP_GATHER: return gather;
  case HLO_OP_SCATTER: return scatter;
  case HLO_OP_GET_TUPLE_ELEMENT: return gte;
  case HLO_OP_IOTA: return iota;
  case HLO_OP_SLICE: return slice;
  case HLO_OP_PAD: return pad;
  case HLO_OP_TRANSPOSE: case HLO_OP_REVERSE: case HLO_OP_CONCATENATE: case HLO_OP_ALL_GATHER:
  case HLO_OP_ALL_GATHER_START:
    return dims;
  case HLO_OP_DYNAMIC_SLICE: return dslice;
  case HLO_OP_CONVOLUTION: return conv;
  case HLO_OP_COMPARE: return compare;
  case HLO_OP_WHILE: return whil;
  case HLO_OP_CALL: case HLO_OP_MAP: case HLO_OP_REDUCE_WINDOW: case HLO_OP_ALL_REDUCE: case HLO_OP_ALL_REDUCE_START:
    return to_apply;
  case HLO_OP_SORT: return sort;
  case HLO_OP_SELECT_AND_SCATTER: return sas;
  case HLO_OP_CUSTOM_CALL: return cc;
  case HLO_OP_REDUCE_SCATTER: return rs;
  case HLO_OP_RNG: return rng;
  case HLO_OP_FFT: return fft;
  case HLO_OP_BATCH_NORM_GRAD: case HLO_OP_BATCH_NORM_INFERENCE: case HLO_OP_BATCH_NORM_TRAINING: return bn;
  case HLO_OP_REDUCE_PRECISION: return rp;
  case HLO_OP_RNG_BIT_GENERATOR: return rbg;
  case HLO_OP_TOPK: return topk;
  case HLO_OP_RNG_GET_AND_UPDATE_STATE: return delta;
  case HLO_OP_DOMAIN: return domain;
  case HLO_OP_COLLECTIVE_PERMUTE: case HLO_OP_COLLECTIVE_PERMUTE_START: return cp;
  default: return none;
  }
}


static hlo_dot_dims *dot_of(parse_ctx *P, hlo_instr *in) {
  if (!in->cold->ext->dot) {
    hlo_dot_dims *d = hb_arena_zalloc(P->a, sizeof *d);
    static const int64_t none[1] = {0};
    d->lhs_batch.v = d->rhs_batch.v = d->lhs_contracting.v = d->rhs_contracting.v = none;
    d->lhs_ragged.v = d->rhs_group.v = none;
    pc_instr_ext(P, in)->dot = d;
  }
  return (hlo_dot_dims *)in->cold->ext->dot;
}

static hlo_gather_dims *gather_of(parse_ctx *P, hlo_instr *in) {
  if (!in->cold->ext->gather) {
    hlo_gather_dims *g = hb_arena_zalloc(P->a, sizeof *g);
    static const int64_t none[1] = {0};
    g->offset_dims.v = g->collapsed_slice_dims.v = g->start_index_map.v = none;
    g->operand_batching_dims.v = g->start_indices_batching_dims.v = g->slice_sizes.v = none;
    pc_instr_ext(P, in)->gather = g;
  }
  return (hlo_gather_dims *)in->cold->ext->gather;
}

static hlo_scatter_dims *scatter_of(parse_ctx *P, hlo_instr *in) {
  if (!in->cold->ext->scatter) {
    hlo_scatter_dims *s = hb_arena_zalloc(P->a, sizeof *s);
    static const int64_t none[1] = {0};
    s->update_window_dims.v = s->inserted_window_dims.v = s->scatter_dims_to_operand_dims.v = none;
    s->input_batching_dims.v = s->scatter_indices_batching_dims.v = none;
    pc_instr_ext(P, in)->scatter = s;
  }
  return (hlo_scatter_dims *)in->cold->ext->scatter;
}

static int add_called(parse_ctx *P, hlo_instr *in, const pc_attr *a, hlo_call_role role, int *cap) {
  hlo_instr_cold *x = pc_instr_cold(P, in);
  if (a->n > *cap - x->n_called) { /* exactly what this attribute adds (few attributes call) */
    int nc = x->n_called + a->n;
    x->called = hb_arena_grow(P->a, x->called, (size_t)x->n_called, (size_t)nc, sizeof *x->called);
    x->called_role =
        hb_arena_grow(P->a, (void *)x->called_role, (size_t)x->n_called, (size_t)nc, sizeof *x->called_role);
    *cap = nc;
  }
  for (int i = 0; i < a->n; i++) {
    const pc_compref *c = &HB_AT(P->comprefs, pc_compref, a->cref + (uint32_t)i);
    ((hlo_call_role *)x->called_role)[x->n_called] = role;
    /* an inline body, or one defined before (or open): what the module's
     * end would find; else the module's end resolves it */
    x->called[x->n_called] = c->inline_comp ? c->inline_comp : pc_comp_named(P, c->name);
    if (!x->called[x->n_called])
      HB_PUSH(P->called_pending, pc_pending, ((pc_pending){in, 2, x->n_called, c->name, c->off, NULL}));
    x->n_called++;
  }
  return 0;
}

/* The usual values of the most frequent attributes, read from their bytes
 * without the reader: dimensions={1,0} (pc_plain_int_list), index=3
 * (pc_plain_uint), slice={[0:8], [0:4:2]}, kind=kLoop. The value's text
 * is what the grammar read as the value, so these bytes are the reader's
 * tokens and give its result; any other value is left to the reader (and
 * its messages). */
static bool plain_value(parse_ctx *P, hlo_instr *in, const pc_attr *a) {
  const char *v = P->data + a->vstart, *end = P->data + a->vend;
  uint64_t u = 0;
  switch (a->id) {
  case AT_DIMENSIONS: {
    size_t base = P->ints.n;
    if (pc_plain_int_list(v, &P->ints) != end) {
      P->ints.n = base;
      return false;
    }
    hlo_instr_cold *x = pc_instr_cold(P, in);
    x->dimensions = take_ints(P, base);
    x->has_dimensions = true;
    return true;
  }
  case AT_INDEX:
    if (pc_plain_uint(v, &u) != end) return false;
    pc_instr_cold(P, in)->tuple_index = (int64_t)u;
    pc_instr_cold(P, in)->has_tuple_index = true;
    return true;
  case AT_SLICE: { /* {[0:8], [2:10:2]}: up to 16 ranges, strides >= 1, no trailing ',' */
    hlo_slice_dim d[16];
    int n = 0;
    const char *p = v + 1;
    if (*v != '{') return false;
    if (*p != '}') {
      for (;;) {
        uint64_t lo, hi, st = 1;
        if (n == 16 || *p != '[' || !(p = pc_plain_uint(p + 1, &lo)) || *p != ':' ||
            !(p = pc_plain_uint(p + 1, &hi)))
          return false;
        if (*p == ':' && (!(p = pc_plain_uint(p + 1, &st)) || st < 1)) return false;
        if (*p != ']') return false;
        d[n++] = (hlo_slice_dim){(int64_t)lo, (int64_t)hi, (int64_t)st};
        if (*++p == '}') break;
        if (*p != ',') return false;
        p += 1 + (p[1] == ' ');
      }
    }
    if (p + 1 != end) return false;
    hlo_instr_ext *x = pc_instr_ext(P, in);
    x->slice = hb_arena_dup(P->a, d, (size_t)n * sizeof *d);
    x->n_slice = n;
    x->has_slice = true;
    return true;
  }
  case AT_KIND: {
    static const char kinds[][8] = {"kLoop", "kInput", "kOutput", "kCustom"};
    for (int k = 0; k < 4; k++)
      if ((size_t)(end - v) == strlen(kinds[k]) && memcmp(v, kinds[k], (size_t)(end - v)) == 0) {
        pc_instr_cold(P, in)->fusion_kind = (hlo_fusion_kind)(k + 1);
        return true;
      }
    return false;
  }
  default:
    return false;
  }
}

static int apply_one(parse_ctx *P, hlo_instr *in, const pc_attr *a, int *called_cap) {
  hlo_opcode op = in->op;
  rd r;
  const char *nm = hlo_istr_str(a->name);
  bool b = false;
  switch (a->id) {
  case AT_TO_APPLY: return add_called(P, in, a, HLO_CALL_TO_APPLY, called_cap);
  case AT_CALLS: return add_called(P, in, a, HLO_CALL_CALLS, called_cap);
  case AT_CONDITION: return add_called(P, in, a, HLO_CALL_CONDITION, called_cap);
  case AT_BODY: return add_called(P, in, a, HLO_CALL_BODY, called_cap);
  case AT_SELECT: return add_called(P, in, a, HLO_CALL_SELECT, called_cap);
  case AT_SCATTER: return add_called(P, in, a, HLO_CALL_SCATTER, called_cap);
  case AT_TRUE_COMPUTATION: return add_called(P, in, a, HLO_CALL_TRUE_COMPUTATION, called_cap);
  case AT_FALSE_COMPUTATION: return add_called(P, in, a, HLO_CALL_FALSE_COMPUTATION, called_cap);
  case AT_BRANCH_COMPUTATIONS: return add_called(P, in, a, HLO_CALL_BRANCH_COMPUTATIONS, called_cap);
  case AT_CALLED_COMPUTATIONS: return add_called(P, in, a, HLO_CALL_CALLED_COMPUTATIONS, called_cap);
  case AT_OUTFEED_SHAPE:
    pc_instr_ext(P, in)->outfeed_shape = (const hlo_shape *)a->ptr;
    return 0;
  case AT_OPERAND_LAYOUT_CONSTRAINTS: {
    hlo_instr_ext *x = pc_instr_ext(P, in);
    x->n_operand_layout_constraints = a->n;
    x->operand_layout_constraints = (const hlo_shape *const *)a->ptr;
    return 0;
  }
  case -1: case AT_SHARDING: case AT_ENTRY_SH: case AT_EXIT_SH: case AT_METADATA: case AT_BACKEND_CONFIG:
  case AT_FRONTEND_ATTRIBUTES: case AT_LITERAL:
  case AT_ENTRY_COMPUTATION_LAYOUT:
    return 0;
  default: break;
  }
  if (plain_value(P, in, a)) return 0;
  rd_init(&r, P, a->vstart, a->vend, nm);
  switch (a->id) {
  case AT_DIMENSIONS:
    if (rd_ints(&r, &pc_instr_cold(P, in)->dimensions, false) < 0) return -1;
    pc_instr_cold(P, in)->has_dimensions = true;
    break;
  case AT_SLICE:
    if (read_slice(&r, in) < 0) return -1;
    break;
  case AT_PADDING: {
    hlo_pad_dim *v;
    int n;
    if (parse_pad_text(P, &r.t, true, &v, &n, "padding") < 0) return -1;
    hlo_instr_ext *x = pc_instr_ext(P, in);
    x->has_padding = true;
    x->padding = v;
    x->n_padding = n;
    rd_next(&r);
    break;
  }
  case AT_WINDOW:
    if (read_window(&r, in) < 0) return -1;
    break;
  case AT_DIM_LABELS:
    if (read_dim_labels(&r, in) < 0) return -1;
    break;
  case AT_FEATURE_GROUP_COUNT: case AT_BATCH_GROUP_COUNT: {
    int64_t v;
    size_t off = r.t.off;
    if (rd_int(&r, &v, false) < 0) return -1;
    if (v < 1) return pc_error(P, off, "%s must be positive", nm);
    if (a->id == AT_FEATURE_GROUP_COUNT) pc_instr_ext(P, in)->feature_group_count = v;
    else pc_instr_ext(P, in)->batch_group_count = v;
    break;
  }
  case AT_LHS_BATCH_DIMS: if (rd_ints(&r, &dot_of(P, in)->lhs_batch, false) < 0) return -1; break;
  case AT_RHS_BATCH_DIMS: if (rd_ints(&r, &dot_of(P, in)->rhs_batch, false) < 0) return -1; break;
  case AT_LHS_CONTRACTING_DIMS: if (rd_ints(&r, &dot_of(P, in)->lhs_contracting, false) < 0) return -1; break;
  case AT_RHS_CONTRACTING_DIMS: if (rd_ints(&r, &dot_of(P, in)->rhs_contracting, false) < 0) return -1; break;
  case AT_LHS_RAGGED_DIMS: if (rd_ints(&r, &dot_of(P, in)->lhs_ragged, false) < 0) return -1; break;
  case AT_RHS_GROUP_DIMS: if (rd_ints(&r, &dot_of(P, in)->rhs_group, false) < 0) return -1; break;
  case AT_OFFSET_DIMS: if (rd_ints(&r, &gather_of(P, in)->offset_dims, false) < 0) return -1; break;
  case AT_COLLAPSED_SLICE_DIMS: if (rd_ints(&r, &gather_of(P, in)->collapsed_slice_dims, false) < 0) return -1; break;
  case AT_START_INDEX_MAP: if (rd_ints(&r, &gather_of(P, in)->start_index_map, false) < 0) return -1; break;
  case AT_OPERAND_BATCHING_DIMS: if (rd_ints(&r, &gather_of(P, in)->operand_batching_dims, false) < 0) return -1; break;
  case AT_START_INDICES_BATCHING_DIMS:
    if (rd_ints(&r, &gather_of(P, in)->start_indices_batching_dims, false) < 0) return -1;
    break;
  case AT_SLICE_SIZES:
    if (op == HLO_OP_GATHER) {
      if (rd_ints(&r, &gather_of(P, in)->slice_sizes, false) < 0) return -1;
    } else {
      const hlo_ints *l;
      int n;
      if (rd_int_lists(&r, &l, &n) < 0) return -1;
    }
    break;
  case AT_INDEX_VECTOR_DIM: {
    int64_t v;
    if (rd_int(&r, &v, false) < 0) return -1;
    if (op == HLO_OP_SCATTER) scatter_of(P, in)->index_vector_dim = v;
    else gather_of(P, in)->index_vector_dim = v;
    break;
  }
  case AT_INDICES_ARE_SORTED:
    if (rd_bool(&r, &b) < 0) return -1;
    if (op == HLO_OP_SCATTER) scatter_of(P, in)->indices_are_sorted = b;
    else gather_of(P, in)->indices_are_sorted = b;
    break;
  case AT_UPDATE_WINDOW_DIMS: if (rd_ints(&r, &scatter_of(P, in)->update_window_dims, false) < 0) return -1; break;
  case AT_INSERTED_WINDOW_DIMS: if (rd_ints(&r, &scatter_of(P, in)->inserted_window_dims, false) < 0) return -1; break;
  case AT_SCATTER_DIMS_TO_OPERAND_DIMS:
    if (rd_ints(&r, &scatter_of(P, in)->scatter_dims_to_operand_dims, false) < 0) return -1;
    break;
  case AT_INPUT_BATCHING_DIMS: if (rd_ints(&r, &scatter_of(P, in)->input_batching_dims, false) < 0) return -1; break;
  case AT_SCATTER_INDICES_BATCHING_DIMS:
    if (rd_ints(&r, &scatter_of(P, in)->scatter_indices_batching_dims, false) < 0) return -1;
    break;
  case AT_UNIQUE_INDICES:
    if (rd_bool(&r, &b) < 0) return -1;
    scatter_of(P, in)->unique_indices = b;
    break;
  case AT_DYNAMIC_SLICE_SIZES:
    if (rd_ints(&r, &pc_instr_ext(P, in)->dynamic_slice_sizes, false) < 0) return -1;
    pc_instr_ext(P, in)->has_dynamic_slice_sizes = true;
    break;
  case AT_INDEX:
    if (rd_int(&r, &pc_instr_cold(P, in)->tuple_index, false) < 0) return -1;
    pc_instr_cold(P, in)->has_tuple_index = true;
    break;
  case AT_IOTA_DIMENSION:
    if (rd_int(&r, &pc_instr_ext(P, in)->iota_dimension, false) < 0) return -1;
    pc_instr_ext(P, in)->has_iota_dimension = true;
    break;
  case AT_KIND: {
    static const char *const kinds[] = {"kLoop", "kInput", "kOutput", "kCustom", NULL};
    int k = rd_enum(&r, kinds, false, "a fusion kind (kLoop, kInput, kOutput or kCustom)");
    if (k < 0) return -1;
    pc_instr_cold(P, in)->fusion_kind = (hlo_fusion_kind)(k + 1);
    break;
  }
  case AT_CUSTOM_CALL_TARGET:
    if (rd_string(&r, &pc_instr_ext(P, in)->custom_call_target) < 0) return -1;
    break;
  case AT_REPLICA_GROUPS:
    return read_replica_groups(&r, in);
  case AT_CHANNEL_ID:
    if (rd_int(&r, &pc_instr_ext(P, in)->channel_id, false) < 0) return -1;
    pc_instr_ext(P, in)->has_channel_id = true;
    break;
  case AT_SOURCE_TARGET_PAIRS: {
    const hlo_ints *l;
    int n;
    if (rd_int_lists(&r, &l, &n) < 0) return -1;
    for (int i = 0; i < n; i++)
      if (l[i].n != 2) return pc_error(P, a->vstart, "source_target_pairs entries must be {source,target} pairs");
    break;
  }
  case AT_NUM_CARRIES:
    if (rd_int(&r, &pc_instr_ext(P, in)->num_carries, false) < 0) return -1;
    pc_instr_ext(P, in)->has_num_carries = true;
    break;
  case AT_IS_REVERSE:
    if (rd_bool(&r, &pc_instr_ext(P, in)->is_reverse) < 0) return -1;
    break;
  case AT_IS_ASSOCIATIVE:
    if (rd_bool(&r, &pc_instr_ext(P, in)->is_associative) < 0) return -1;
    break;
  case AT_CONTROL_PREDECESSORS:
    if (read_name_list(&r, in) < 0) return -1;
    break;
  case AT_RESULT_ACCURACY:
    return read_result_accuracy(&r);
  case AT_ASYNC_EXECUTION_THREAD:
    if (rd_string(&r, &pc_instr_ext(P, in)->async_execution_thread) < 0) return -1;
    break;
  case AT_DIRECTION: {
    static const char *const d[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
    if (rd_enum(&r, d, false, "a comparison direction (EQ, NE, GE, GT, LE or LT)") < 0) return -1;
    break;
  }
  case AT_FFT_TYPE: {
    static const char *const d[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
    if (rd_enum(&r, d, false, "an FFT type (FFT, IFFT, RFFT or IRFFT)") < 0) return -1;
    break;
  }
  case AT_FFT_LENGTH: {
    hlo_ints l;
    if (rd_ints(&r, &l, false) < 0) return -1;
    break;
  }
  case AT_DISTRIBUTION: {
    static const char *const d[] = {"rng_uniform", "rng_normal", NULL};
    if (rd_enum(&r, d, true, "a distribution (rng_uniform or rng_normal)") < 0) return -1;
    break;
  }
  case AT_EPSILON:
    if (rd_number(&r) < 0) return -1;
    break;
  case AT_FEATURE_INDEX: case AT_EXPONENT_BITS: case AT_MANTISSA_BITS: case AT_K: {
    int64_t v;
    if (rd_int(&r, &v, false) < 0) return -1;
    break;
  }
  case AT_PARAMETER_REPLICATION:
    return read_bool_list_or_bool(&r, &pc_instr_ext(P, in)->n_parameter_replication);
  case AT_ALLOW_SPMD_PARAMS: case AT_ALLOW_SPMD_OUTPUT: {
    int nb;
    return read_bool_list_or_bool(&r, &nb);
  }
  case AT_INFERRED_DIMENSION: case AT_DELTA: case AT_CROSS_PROGRAM_PREFETCH_INDEX: {
    int64_t v;
    if (rd_int(&r, &v, a->id == AT_INFERRED_DIMENSION) < 0) return -1;
    break;
  }
  case AT_INFEED_CONFIG: case AT_OUTFEED_CONFIG: {
    const char *str;
    if (rd_string(&r, &str) < 0) return -1;
    break;
  }
  case AT_TYPE:
    if (op == HLO_OP_COMPARE || in->cold->async_wrapped == HLO_OP_COMPARE) {
      static const char *const d[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
      if (rd_enum(&r, d, false, "a comparison type (FLOAT, TOTALORDER, SIGNED or UNSIGNED)") < 0) return -1;
      break;
    }
    return 0;
  case AT_ALGORITHM:
    if (op == HLO_OP_RNG_BIT_GENERATOR) {
      static const char *const d[] = {"rng_default", "rng_three_fry", "rng_philox", NULL};
      if (rd_enum(&r, d, true, "an RNG algorithm (rng_default, rng_three_fry or rng_philox)") < 0) return -1;
      break;
    }
    if (op == HLO_OP_DOT || op == HLO_OP_RAGGED_DOT || op == HLO_OP_SCALED_DOT) {
      static const char *const d[] = {"dot_any_f8_any_f8_f32", "dot_any_f8_any_f8_f32_fast_accum",
                                      "dot_any_f8_any_f8_any", "dot_any_f8_any_f8_any_fast_accum",
                                      "dot_f16_f16_f16", "dot_f16_f16_f32", "dot_bf16_bf16_bf16",
                                      "dot_bf16_bf16_f32", "dot_bf16_bf16_f32_x3", "dot_bf16_bf16_f32_x6",
                                      "dot_bf16_bf16_f32_x9", "dot_tf32_tf32_f32", "dot_tf32_tf32_f32_x3",
                                      "dot_f32_f32_f32", "dot_f64_f64_f64", "unset", NULL};
      if (rd_enum(&r, d, true, "a dot algorithm (dot_f32_f32_f32, dot_bf16_bf16_f32, ...)") < 0) return -1;
      break;
    }
    return 0;
  case AT_MODE: {
    static const char *const d[] = {"cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_id",
                                    NULL};
    if (rd_enum(&r, d, false, "a collective mode (cross_replica, cross_partition, cross_replica_and_partition or "
                              "flattened_id)") < 0)
      return -1;
    break;
  }
  case AT_SCHEDULE: {
    static const char *const d[] = {"schedule_none", "schedule_latest", "schedule_earliest", NULL};
    if (rd_enum(&r, d, true, "SCHEDULE_NONE, SCHEDULE_LATEST or SCHEDULE_EARLIEST") < 0) return -1;
    break;
  }
  case AT_API_VERSION: {
    static const char *const d[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                                    "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI", NULL};
    if (rd_enum(&r, d, false, "an API version (API_VERSION_ORIGINAL, ..., API_VERSION_TYPED_FFI)") < 0) return -1;
    break;
  }
  case AT_PADDING_TYPE: {
    static const char *const d[] = {"PADDING_VALID", "PADDING_SAME", NULL};
    if (rd_enum(&r, d, false, "PADDING_VALID or PADDING_SAME") < 0) return -1;
    break;
  }
  case AT_TRANSPOSE_A: {
    static const char *const d[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
    if (rd_enum(&r, d, false, "NO_TRANSPOSE, TRANSPOSE or ADJOINT") < 0) return -1;
    break;
  }
  case AT_OUTPUT_TO_OPERAND_ALIASING:
    return read_aliasing(&r, 0);
  case AT_INPUT_OUTPUT_ALIAS:
    return read_aliasing(&r, 1);
  case AT_BUFFER_DONOR:
    return read_aliasing(&r, 2);
  case AT_OPERAND_PRECISION:
    return read_precision(&r);
  case AT_STATISTICS:
    return read_statistics(&r);
  case AT_LARGEST: case AT_IS_STABLE: case AT_CONSTRAIN_LAYOUT: case AT_USE_GLOBAL_DEVICE_IDS:
  case AT_IS_HOST_TRANSFER: case AT_CUSTOM_CALL_HAS_SIDE_EFFECT: case AT_LOWER: case AT_LEFT_SIDE:
  case AT_UNIT_DIAGONAL: case AT_IS_COMPOSITE: case AT_IS_SCHEDULED: case AT_ALIAS_PASSTHROUGH_PARAMS:
    if (rd_bool(&r, &b) < 0) return -1;
    break;
  default:
    return 0;
  }
  return rd_end(&r);
}

/* An attribute name the catalogue does not know: an error, or with
 * allow_unknown a warning (the attribute is kept as written). The hint is
 * the closest name that OK allows (OP: an opcode for attr_allowed, or
 * HLO_OP_COUNT for a module attribute). */
typedef struct hint_ctx {
  hlo_opcode op;
} hint_ctx;

static bool module_attr(int id) {
  switch (id) {
  case AT_IS_SCHEDULED: case AT_ENTRY_COMPUTATION_LAYOUT: case AT_INPUT_OUTPUT_ALIAS: case AT_BUFFER_DONOR:
  case AT_ALIAS_PASSTHROUGH_PARAMS: case AT_REPLICA_COUNT: case AT_NUM_PARTITIONS: case AT_ALLOW_SPMD_PARAMS:
  case AT_ALLOW_SPMD_OUTPUT: case AT_FRONTEND_ATTRIBUTES: case AT_SPMD_OUTPUT_SHARDING:
  case AT_SPMD_PARAMETERS_SHARDINGS:
    return true;
  default:
    return false;
  }
}

static bool hint_ok(int id, void *ctx) {
  hlo_opcode op = ((hint_ctx *)ctx)->op;
  if (op == HLO_OP_COUNT) return module_attr(id);
  return !module_attr(id) || id == AT_FRONTEND_ATTRIBUTES ? attr_allowed(id, op) : false;
}

static int unknown_attr(parse_ctx *P, const pc_attr *a, hlo_opcode op) {
  const char *nm = hlo_istr_str(a->name);
  char hint[96] = "";
  hint_ctx h = {op};
  int i = pc_closest_name(P, a->name, op, AT_COUNT, attr_name, hint_ok, &h);
  if (i >= 0) snprintf(hint, sizeof hint, "; did you mean '%s'?", attr_name(i));
  const char *what = op == HLO_OP_COUNT ? "module attribute" : "attribute";
  if (!hlo_parse_get_options()->allow_unknown) return pc_error(P, a->off, "unknown %s '%.64s'%s", what, nm, hint);
  pc_warn(P, a->off, "unknown %s '%.64s'%s (kept as written)", what, nm, hint);
  return 0;
}

bool pc_attrs_may_share(const hlo_instr *in, const pc_attr *attrs, int n) {
  if (n == 0 || in->cold != &hlo_instr_cold_none || in->op == HLO_OP_UNKNOWN || is_async(in->op)) return false;
  for (int i = 0; i < n; i++)
    if (attrs[i].id < 0 || attrs[i].id == AT_METADATA || attrs[i].id == AT_CONTROL_PREDECESSORS) return false;
  return true;
}

int pc_attrs_apply(parse_ctx *P, hlo_instr *in, const pc_attr *attrs, int n) {
  uint32_t gen = ++P->attr_gen;
  static hlo_attr no_attrs[1]; /* (most instructions: never written) */
  hlo_attr *out = n ? hb_arena_array(P->a, (size_t)n, sizeof *out) : no_attrs;
  uint64_t present[(AT_COUNT + 63) / 64] = {0};
  hlo_opcode check_op = in->op;
  bool async = is_async(in->op);
  if (async && in->cold->async_wrapped != HLO_OP_UNKNOWN) check_op = in->cold->async_wrapped;
  int called_cap = 0;
  for (int i = 0; i < n; i++) {
    const pc_attr *a = &attrs[i];
    if (a->name->attr_gen == gen)
      return pc_error(P, a->off, "attribute '%s' is given twice", hlo_istr_str(a->name));
    a->name->attr_gen = gen;
    out[i].name = hlo_istr_str(a->name);
    out[i].value = P->data + a->vstart;
    out[i].value_len = (uint32_t)(a->vend - a->vstart);
    out[i].offset = (uint32_t)a->off;
    if (a->id < 0 && unknown_attr(P, a, in->op) < 0) return -1;
    if (a->id >= 0) {
      present[a->id / 64] |= (uint64_t)1 << (a->id % 64);
      bool ok;
      if (in->op == HLO_OP_UNKNOWN) ok = true;
      else if (async && (a->id == AT_CALLS || a->id == AT_ASYNC_EXECUTION_THREAD || a->id == AT_ASYNC_GROUP_ID ||
                         a->id == AT_OUTPUT_TO_OPERAND_ALIASING))
        ok = true;
      else if (async && in->cold->async_wrapped == HLO_OP_UNKNOWN)
        ok = !(a->id >= AT_TO_APPLY && a->id <= AT_CALLED_COMPUTATIONS);
      else if (async)
        ok = attr_allowed(a->id, check_op);
      else
        ok = attr_allowed(a->id, in->op);
      if (!ok)
        return pc_error(P, a->off, "unexpected attribute \"%s\" for %s", hlo_istr_str(a->name),
                        hlo_instr_opcode_text(in));
    }
    if (apply_one(P, in, a, &called_cap) < 0) return -1;
  }
  if (n) {
    pc_instr_cold(P, in)->attrs = out;
    pc_instr_cold(P, in)->n_attrs = n;
  }
  if (in->op == HLO_OP_DOT || in->op == HLO_OP_RAGGED_DOT || in->op == HLO_OP_SCALED_DOT) dot_of(P, in);
  if (in->op == HLO_OP_GATHER) gather_of(P, in);
  if (in->op == HLO_OP_SCATTER) scatter_of(P, in);
  if (in->op == HLO_OP_ASYNC_START && !in->cold->ext->async_execution_thread)
    pc_instr_ext(P, in)->async_execution_thread = "main";
  /* required attributes (the async shorthand requires its wrapped op's) */
  if (!(async && in->cold->async_wrapped == HLO_OP_UNKNOWN) && !(async && in->op != HLO_OP_ASYNC_START)) {
    const int *req = required_attrs(check_op);
    for (int i = 0; req[i] >= 0; i++)
      if (!(present[req[i] / 64] >> (req[i] % 64) & 1))
        return pc_error(P, in->offset, "%s '%s' requires the attribute %s=", hlo_instr_opcode_text(in), in->name,
                        catalogue[req[i]].name);
  }
  if (in->op == HLO_OP_CONDITIONAL) {
    bool tf = (present[AT_TRUE_COMPUTATION / 64] >> (AT_TRUE_COMPUTATION % 64) & 1) ||
              (present[AT_FALSE_COMPUTATION / 64] >> (AT_FALSE_COMPUTATION % 64) & 1);
    bool br = present[AT_BRANCH_COMPUTATIONS / 64] >> (AT_BRANCH_COMPUTATIONS % 64) & 1;
    if (!tf && !br)
      return pc_error(P, in->offset, "conditional '%s' requires true_computation= and false_computation=, or branch_computations=",
                      in->name);
    if (tf && br)
      return pc_error(P, in->offset, "conditional '%s' has both branch_computations= and true/false_computation=",
                      in->name);
  }
  return 0;
}

int pc_header_apply(parse_ctx *P, const pc_attr *attrs, int n) {
  hlo_module *m = P->mod;
  uint32_t gen = ++P->attr_gen;
  hlo_attr *out = hb_arena_array(P->a, (size_t)n, sizeof *out);
  for (int i = 0; i < n; i++) {
    const pc_attr *a = &attrs[i];
    const char *nm = hlo_istr_str(a->name);
    if (a->name->attr_gen == gen) return pc_error(P, a->off, "module attribute '%s' is given twice", nm);
    a->name->attr_gen = gen;
    out[i] = (hlo_attr){nm, P->data + a->vstart, (uint32_t)(a->vend - a->vstart), (uint32_t)a->off};
    if ((a->id < 0 || !module_attr(a->id)) && unknown_attr(P, a, HLO_OP_COUNT) < 0) return -1;
    rd r;
    bool b = false;
    int64_t v;
    switch (a->id) {
    case AT_ENTRY_COMPUTATION_LAYOUT:
      m->has_entry_layout = true;
      m->n_entry_params = a->n;
      m->entry_params = (const hlo_shape *const *)a->ptr;
      m->entry_result = a->shape2;
      break;
    case AT_IS_SCHEDULED:
      rd_init(&r, P, a->vstart, a->vend, nm);
      if (rd_bool(&r, &b) < 0 || rd_end(&r) < 0) return -1;
      m->is_scheduled = b;
      break;
    case AT_REPLICA_COUNT: case AT_NUM_PARTITIONS:
      rd_init(&r, P, a->vstart, a->vend, nm);
      if (rd_int(&r, &v, false) < 0 || rd_end(&r) < 0) return -1;
      if (a->id == AT_REPLICA_COUNT) m->replica_count = v;
      else m->num_partitions = v;
      break;
    case AT_INPUT_OUTPUT_ALIAS: case AT_BUFFER_DONOR: case AT_ALIAS_PASSTHROUGH_PARAMS: case AT_ALLOW_SPMD_PARAMS:
    case AT_ALLOW_SPMD_OUTPUT: {
      hlo_instr dummy;
      memset(&dummy, 0, sizeof dummy);
      dummy.op = HLO_OP_UNKNOWN;
      dummy.cold = &hlo_instr_cold_none;
      int cap = 0;
      if (apply_one(P, &dummy, a, &cap) < 0) return -1;
      break;
    }
    default:
      break;
    }
  }
  m->attrs = out;
  m->n_attrs = n;
  return 0;
}
