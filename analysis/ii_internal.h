/* Shared internals of the instruction-indexing analysis. Not part of the
 * public API. The layers, each using only the ones above it:
 *
 *   ii_build.c      helpers every rule shares (maps over shapes, sets, composition of operand indexings)
 *   op_window.c     the pad and window maps several families share
 *   op_*.c          the rules, one family or a few per file
 *   fusion.c        fusion composition (asks ii_dispatch.c for the rules of the fused ops)
 *   ii_dispatch.c   opcode -> family (the HLO_OPCODES table) -> rule, and the checks before a rule runs
 *   instr_indexing.c  the context, the public queries, the printers
 *   physical.c, tiled_indexing.c  layouts composed into a query's result */
#ifndef HLOIDX_II_INTERNAL_H
#define HLOIDX_II_INTERNAL_H

#include <stdarg.h>

#include "instr_indexing.h"
#include "../parser/base/ptrmap.h"
#include "simplify.h"

/* Limits. */
#define II_MAX_COMPOSE 65536              /* map compositions per top-level query (fusions) */
#define II_MAX_SET 20000                 /* members of one operand set */
#define II_MAX_NESTING 200                /* nested fusions (also catches call cycles) */
#define II_FUSION_CACHE_MANY 64           /* outputs (or operands) past which a fusion's cheap results are not cached */
#define II_MAX_DIM ((int64_t)1 << 40)     /* largest dimension size and |attribute value| accepted */
#define II_STR_(x) #x
#define II_STR(x) II_STR_(x) /* a limit as text, for messages */

struct ii_ctx {
  ae_ctx *ae;
  hb_arena *scratch;     /* results and memos of the current queries */
  hb_arena *keep;        /* long-lived: per-computation post-orders */
  hb_arena *step;        /* one composition step's intermediate maps (fusion.c's compose_into) */
  hb_ptrmap postorders;  /* hlo_computation* -> ii_postorder* (in keep) */
  hb_ptrmap checked;     /* hlo_instr* whose shapes and attributes passed the checks of ii_dispatch.c */
  hb_ptrmap params_used;  /* op_rows.c: hlo_computation* -> which of its parameters it reads (bool*, in keep) */
  hb_ptrmap reduce_deps;  /* op_reduce.c: reducer computation* -> its outputs' dependencies (in keep) */
  hb_ptrmap memo_o2i;    /* hlo_instr* -> its outputs' o2i results (fusion.c's memo_slot; in scratch) */
  int no_memo;           /* > 0: scratch is a composition's short-lived arena, ii_o2i_memo keeps nothing */
  int depth;          /* nesting of queries (0 = top level) */
  int nest;           /* nesting of fusion traversals */
  bool over;          /* a simplification stopped on its limits during this query */
  uint64_t composed;  /* map compositions during this query (fusion.c) */
  uint64_t text_limit; /* ii_ctx_set_text_limit */
  /* fusion_cache.c: results of top-level fusion queries by fused-computation
   * structure (in keep; dropped by ii_ctx_end_module) */
  bool fusion_cache;                 /* enabled (default) */
  hb_ptrmap fusion_hashes;              /* hlo_computation* -> structural hash */
  struct fc_entry **fusion_buckets;  /* NULL until the first entry */
  uint64_t fusion_hits;
  size_t fusion_cache_bytes;         /* what the results kept take (at most about FUSION_CACHE_MAX_BYTES) */
  size_t node_budget;  /* ii_ctx_set_node_budget */
  bool xla_compat;     /* ii_ctx_set_xla_compat: XLA's exact semantics */
  /* ii_invert.c: the out2in results of every output of the instruction the
   * in2out queries are about, kept in their own arena while the queries
   * stay on it */
  hb_arena *inst;
  struct ii_inst_memo *inst_memo;
  const hlo_instr *inst_whole; /* the last fusion found not to compose in parts (ii_invert.c) */
  hb_ptrmap concat_offsets; /* op_shape.c: hlo_instr* -> the offsets of a concatenate's operands (in keep) */
  hb_ptrmap fusion_args;    /* fusion.c: hlo_instr* -> its operand positions by instruction (in keep) */
  hb_ptrmap fusion_alias;   /* fusion_cache.c: fusion -> a fusion with a cached result whose operands match */
  hb_ptrmap fusion_parts;   /* fusion.c: fusion -> whether it is in parts and reads every operand (bits) */
  struct vf_memo *vf_memo; /* verify.c: whole-fusion references of the instruction being checked */
};

/* Instructions of a computation in post-order (operands first). */
typedef struct {
  uint32_t n;
  const hlo_instr **order;
  uint32_t *pos;  /* per instruction index: its place in order */
  bool cyclic; /* the operand graph has a cycle (order is then partial) */
  const hlo_instr *cycle_at;
  /* the roots: the root, or the operands of a root tuple (nested tuples
   * flattened); NULL until a composition asks */
  const hlo_instr **roots;
  uint32_t nroots;
  /* fusion.c: the group slots of a composition by instruction position,
   * kept zero between compositions (each clears the ones it set: a
   * fusion of N outputs composed N times, each reaching a few
   * instructions, must not clear the whole array N times); NULL until a
   * composition of a large computation asks; busy while one uses it */
  uint32_t *slots;
  bool slots_busy;
  /* fusion.c: a composition of some of a fusion's operands
   * (ii_fusion_o2i_range) walks only the instructions that reach them,
   * marked from the parameters through their users: users of instruction
   * i are users[ustart[i], ustart[i + 1]), at operand positions upos; an
   * instruction marked for the current part has mark == epoch, and the
   * operand positions marked of it in [pmin, pmax]. NULL until asked. */
  uint32_t *ustart, *users, *upos;
  uint32_t *mark, *pmin, *pmax, epoch;
} ii_postorder;

/* ---- helpers every rule shares (ii_build.c) ---------------------------------------------------- */
__attribute__((format(printf, 3, 4))) ii_status ii_fail(ii_error *err, const hlo_instr *in, const char *fmt, ...);

/* The array shape XLA's CreateIdentityMap would use: a tuple stands for its
 * first element (recursively); an empty tuple for a scalar. */
const hlo_shape *ii_array_shape(const hlo_shape *s);
/* Output `output_id` of the instruction: the tuple element, else the shape. */
const hlo_shape *ii_output_shape(const hlo_instr *in, int64_t output_id);
/* The shape the maps of set S of operand K index (out2in) or start from
 * (in2out): the operand's, or its tuple element S->elem. */
const hlo_shape *ii_set_operand_shape(const hlo_instr *in, int64_t k, const ii_set *s);
static inline bool ii_is_array(const hlo_shape *s) { return s->type != HLO_TUPLE && s->type != HLO_BUFFER; }
/* Rank and sizes of an array shape (0 / NULL-safe for tuples). */
static inline uint32_t ii_rank(const hlo_shape *s) { return ii_is_array(s) ? (uint32_t)s->rank : 0; }
static inline const int64_t *ii_dims(const hlo_shape *s) { return s->dims; }

/* The first computation IN calls in ROLE (calls=, to_apply=, ...), or NULL. */
const hlo_computation *ii_called(const hlo_instr *in, hlo_call_role role);
/* Two arrays of the same dims (element types aside). */
bool ii_same_dims(const hlo_shape *a, const hlo_shape *b);
/* n empty sets, in the scratch arena. */
void ii_indexing_init(ii_ctx *c, ii_indexing *x, uint32_t n);
/* A copy of X in arena A (sets, maps, descriptions); runtime-variable
 * instructions of FROM become the instructions at the same positions of TO
 * (FROM NULL: kept). */
void ii_indexing_copy(hb_arena *a, const ii_indexing *x, ii_indexing *out, const hlo_computation *from,
                      const hlo_computation *to);
/* A copy of set S into D, its members in A (as ii_indexing_copy). */
void ii_set_copy(hb_arena *a, const ii_set *s, ii_set *d, const hlo_computation *from, const hlo_computation *to);
/* A copy of O in A (its runtime variables of FROM as those of TO, when FROM). */
ii_operand *ii_operand_copy(hb_arena *a, const ii_operand *o, const hlo_computation *from, const hlo_computation *to);
/* Whether IN is an instruction of its module, not one made up in the
 * scratch arena (the op an async-start wraps), whose address a later one
 * may take after ii_ctx_reset: only real ones are memoised by pointer. */
static inline bool ii_in_module(const hlo_instr *in) {
  return in->parent && in->index >= 0 && in->index < in->parent->n_instrs && in->parent->instrs[in->index] == in;
}
/* A concatenate's dimension (*CD) and its operands' offsets along it
 * (N + 1 of them, the last the result's size), checked and computed once
 * per instruction; NULL with *ERR when it is malformed. */
const int64_t *ii_concat_offsets(ii_ctx *c, const hlo_instr *in, uint32_t *cd, ii_error *err);
/* Frees verify.c's memo (c->vf_memo). */
void vf_memo_free(ii_ctx *c);
/* Forgets ii_invert.c's memo (c->inst). */
void ii_inst_memo_clear(ii_ctx *c);
/* N entries of which only the NLIVE entries IDS (increasing) are stored. */
void ii_indexing_init_sparse(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t nlive, const uint32_t *ids);
/* The same with the entries [LO, HI) stored. */
void ii_indexing_init_range(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t lo, uint32_t hi);
/* qsort's comparison of uint32_t. */
int ii_cmp_u32(const void *a, const void *b);
/* The stored set of entry K, or NULL when it is not stored. */
ii_set *ii_entry_mut(ii_indexing *x, uint32_t k);
/* An operand indexing without runtime variables. */
ii_operand *ii_wrap(ii_ctx *c, imap *m);
/* Inserts wrap(m) into set k. */
void ii_add(ii_ctx *c, ii_indexing *x, uint32_t k, imap *m);
/* n sets holding one undefined map each (`unknown indexing`). */
void ii_unknown(ii_ctx *c, ii_indexing *x, uint32_t n);
/* The same with a reason (ii_operand.why) for each. */
void ii_unknown_why(ii_ctx *c, ii_indexing *x, uint32_t n, const char *why);
/* Inserts an undefined map with reason WHY into set k. */
void ii_add_unknown(ii_ctx *c, ii_indexing *x, uint32_t k, const char *why);
/* A reason, formatted into the scratch arena; NULL under --xla-compat
 * (XLA gives none). */
__attribute__((format(printf, 2, 3))) const char *ii_why(ii_ctx *c, const char *fmt, ...);
/* Maps over a shape's dims. */
imap *ii_identity(ii_ctx *c, const hlo_shape *s);
imap *ii_scalar_map(ii_ctx *c, const hlo_shape *s);
/* A map over `ndims` dims (intervals [0, size-1]) with range variables of
 * the given sizes and the given results (not simplified). */
imap *ii_map(ii_ctx *c, uint32_t ndims, const int64_t *dim_sizes, uint32_t nrange, const int64_t *range_sizes,
             uint32_t nresults, const ae *const *results);
/* Expression helpers. */
static inline const ae *D(ii_ctx *c, uint32_t i) { return ae_dim(c->ae, i); }
static inline const ae *S(ii_ctx *c, uint32_t i) { return ae_sym(c->ae, i); }
static inline const ae *K(ii_ctx *c, int64_t v) { return ae_const(c->ae, v); }
/* Scratch array of n const ae* (at least one slot). */
const ae **ii_exprs(ii_ctx *c, size_t n);
/* Runs the simplifier; a stop on its limits is remembered (c->over) and
 * reported as II_TOO_LARGE. */
ii_status ii_simplify_map(ii_ctx *c, imap *m, simplify_mode mode);
/* The text size of one operand indexing (see ii_indexing_text_nodes). */
uint64_t ii_operand_text_nodes(const ii_operand *o);
/* Checks the ae_ctx budget. */
ii_status ii_budget_status(ii_ctx *c);

/* ---- attributes the parser keeps as written (ii_attr.c) ------------------------------------------- */
/* name=true / name=false; DFLT when absent or anything else. */
bool ii_attr_bool(const hlo_instr *in, const char *name, bool dflt);
/* name=WORD exactly. */
bool ii_attr_is(const hlo_instr *in, const char *name, const char *word);
/* name={1,2,3}: the integers (at most cap); -1 when absent or too many. */
int ii_attr_ints(const hlo_instr *in, const char *name, int64_t *out, int cap);
/* backend_config's "key": [1, "2", ...] (quoted or escaped JSON alike). */
int ii_backend_ints(const hlo_instr *in, const char *key, int64_t *out, int cap);
/* backend_config's "key": number. */
bool ii_backend_number(const hlo_instr *in, const char *key, double *v);

/* ---- dispatch (ii_dispatch.c) ------------------------------------------------------------------ */
/* The rule families of the HLO_OPCODES table (parser/hlo_ir.h): each tag
 * names one rule of the op_*.c files (the tables in ii_dispatch.c) and one
 * reference of the verifier (verify.c). */
#define II_FAMILIES(X)                                                                                     \
  X(NONE) X(NOOP) X(EW) X(BITCAST) X(BCAST) X(CONCAT) X(CONV) X(DOT) X(SDOT) X(DS) X(DUS) X(FUSION) X(GATHER) \
  X(GTE) X(PAD) X(REDUCE) X(RWIN) X(RESHAPE) X(REVERSE) X(SCAN) X(SLICE) X(TRANSP) X(AGATHER) X(TUPLE) \
  X(INV) X(ELEM) X(FIRST) X(START) X(DONE0) X(DONE1) X(NOREAD) X(PAIRED) X(ALLGATHER) X(RSCATTER) X(ALLTOALL)  \
  X(RAGGED) X(CALL) X(COND) X(WHILE) X(ASYNC) X(SORT) X(TOPK) X(FFT) X(RNGBIT) X(CHOLESKY) X(TRISOLVE) X(CUSTOM) \
  X(SELSCAT) X(SCATTER) X(BCONV)

typedef enum {
#define II_X_(f) II_FAM_##f,
  II_FAMILIES(II_X_)
#undef II_X_
  II_FAM_COUNT
} ii_family;

/* The family of an opcode's rule in one direction and semantics. */
ii_family ii_o2i_family(hlo_opcode op, bool xla_compat);
ii_family ii_i2o_family(hlo_opcode op, bool xla_compat);

/* A rule fills *out (already zeroed) or returns an error. ID is the output
 * (out2in) or the operand (in2out) asked for. */
typedef ii_status (*ii_rule)(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
/* A rule that gives entries [lo, hi) of the out2in result alone. */
typedef ii_status (*ii_part_rule)(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi,
                                  ii_indexing *out, ii_error *err);
/* The part rule of IN's family, or NULL. */
ii_part_rule ii_o2i_part_rule(ii_ctx *c, const hlo_instr *in);
/* ii_o2i_logical of entries [LO, HI) through the part rule (the checks of
 * every rule first). */
ii_status ii_o2i_part_logical(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi,
                              ii_indexing *out, ii_error *err);
/* Entries [LO, HI) of a fusion's out2in result (ii_fusion_o2i_range) after
 * the checks of every rule, when the fusion composes in parts (*PARTED);
 * else nothing (or the checks' error), for the whole query to answer. */
ii_status ii_o2i_range_logical(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi,
                               ii_indexing *out, bool *parted, ii_error *err);
ii_status ii_o2i_logical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err);
ii_status ii_i2o_logical(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err);

/* ---- in2out by inversion (ii_invert.c) ------------------------------------------------------------ */
/* The inverse of out2in operand indexing X (a map from an output into an
 * operand of shape XS, which must be an array): a map from XS's elements
 * to the output elements that read them, exactly X's relation transposed.
 * Output dimensions an element feeds become range variables; runtime
 * variables stay, their descriptions (and a replica-id map) rewritten over
 * XS's dims. An undefined X gives an undefined result. Simplified, unused
 * symbols removed. */
ii_status ii_invert(ii_ctx *c, const ii_operand *x, const hlo_shape *xs, ii_operand **out);
/* INV: for each output, the inverses of its out2in maps of operand ID. */
ii_status ii_invert_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* ---- the rules, by family (op_*.c) --------------------------------------------------------------- */
/* op_elementwise.c: EW (§3.1, §3.9) */
ii_status ii_elementwise_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_elementwise_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
/* BCONV: bitcast-convert, the element width changing or not */
ii_status ii_bitcast_convert_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_bitcast_convert_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_shape.c: BCAST, TRANSP, REVERSE, SLICE, CONCAT, PAD, TUPLE, GTE */
ii_status ii_broadcast_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_broadcast_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_transpose_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_transpose_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_reverse_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_reverse_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_slice_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_slice_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_concat_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
/* Operands [LO, HI) of its out2in result (sparse): ii_o2i_part. */
ii_status ii_concat_o2i_part(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi, ii_indexing *out,
                             ii_error *err);
ii_status ii_concat_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_pad_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_tuple_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_gte_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_tuple.c: TUPLE (out2in), ELEM, FIRST, START, DONE0, DONE1, NOREAD */
ii_status ii_tuple_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_elem_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_first_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_start_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_done0_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_done1_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_noread_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_rows.c: SORT, TOPK, FFT, RNGBIT */
ii_status ii_sort_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_topk_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_fft_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_rngbit_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_linalg.c: CHOLESKY, TRISOLVE */
ii_status ii_cholesky_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_trisolve_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_custom.c: CUSTOM */
ii_status ii_custom_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_call.c: CALL, COND, WHILE, ASYNC */
ii_status ii_call_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_cond_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_while_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_async_start_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_collective.c: PAIRED, ALLGATHER, RSCATTER, ALLTOALL, RAGGED */
ii_status ii_paired_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_allgather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_rscatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_alltoall_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_ragged_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_reshape.c: RESHAPE, BITCAST */
/* Reshape builder R(A, B) of §3.10: a map over B's dims indexing A,
 * simplified in point-preserving mode. */
imap *ii_reshape_map(ii_ctx *c, uint32_t ra, const int64_t *A, uint32_t rb, const int64_t *B);
ii_status ii_reshape_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_reshape_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_bitcast_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_bitcast_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_window.c: the pad and window maps that pad, reduce-window and
 * convolution share */
/* The pad o2i map of §3.7 for an output of sizes out[]. */
imap *ii_pad_map(ii_ctx *c, uint32_t rank, const int64_t *out, const int64_t *lo, const int64_t *hi,
                 const int64_t *interior);
/* Window map W(in, out, window) of §3.14 (simplified, unused symbols removed). */
ii_status ii_window_map(ii_ctx *c, uint32_t rank, const int64_t *in, const int64_t *out, const hlo_window_dim *w,
                        imap **res);

/* op_reduce.c: REDUCE, RWIN, SCAN, SELSCAT */
ii_status ii_reduce_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_reduce_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_reduce_window_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
/* Whether output OUTPUT_ID of reduce or reduce-window IN reads operand K
 * (an input or an init value): the rule of ii_reduce_o2i. */
bool ii_reduce_reads(ii_ctx *c, const hlo_instr *in, int64_t output_id, int k);
ii_status ii_scan_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_select_scatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_contract.c: DOT, SDOT, CONV */
ii_status ii_dot_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_scaled_dot_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_conv_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_dynamic.c: DS, DUS (both directions), XLA's simplified GATHER (--xla-compat), AGATHER */
ii_status ii_dynamic_slice_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_dynamic_slice_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_dus_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_dus_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_gather_o2i_xla(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_all_gather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* op_gather.c: GATHER (general form; XLA's under --xla-compat), SCATTER */
ii_status ii_gather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_gather_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_scatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);
ii_status ii_scatter_i2o(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err);

/* rt_bind.c: runtime-variable descriptions in hloidx's semantics (not under --xla-compat) */
/* A description map of d of an operand map m with symbols of its own (not m's): carried as XLA does. */
bool ii_desc_opaque(const imap *d, const imap *m);
/* A description map of m with these results (over m's dims, and m's symbols if they use any). */
imap *ii_desc_map(ii_ctx *c, const imap *m, uint32_t nres, const ae *const *res);
/* x->map = compose(first->map, second->map): x's descriptions. */
void ii_rt_compose(ii_ctx *c, const ii_operand *first, const ii_operand *second, ii_operand *x);
/* RemoveUnusedSymbols on x->map, keeping what its descriptions read; descriptions follow. */
ii_status ii_rt_remove_unused(ii_ctx *c, ii_operand *x);

/* fusion.c */
/* The maps from output OUTPUT_ID of computation COMP (its root, or an
 * element of a root tuple) into every instruction it reaches, composed
 * through the instructions' own rules (§5.4); parameter p stands for
 * ARGS[p], an instruction outside (the maps of several parameters bound to
 * one instruction are one set). AT names the caller in errors. The groups
 * of ARGS live in the scratch arena; those of COMP's own instructions too
 * when KEEP_INNER, else they may be dropped once composed further (a large
 * computation's); ii_groups_free releases the rest. */
typedef struct ii_groups ii_groups;
ii_status ii_compose_computation(ii_ctx *c, const hlo_instr *at, const hlo_computation *comp,
                                 const hlo_instr *const *args, int nargs, int64_t output_id, bool keep_inner,
                                 ii_groups **res, ii_error *err);
/* ii_o2i_logical(X, OUT), memoised for the lifetime of the scratch hb_arena
 * (the instructions of a computation composed for several outputs, the
 * out2in results an in2out rule inverts for every operand). */
ii_status ii_o2i_memo(ii_ctx *c, const hlo_instr *x, int64_t out, const ii_indexing **res, ii_error *err);
/* The memoised result of ii_o2i_memo(X, OUT), or NULL (nothing computed). */
const ii_indexing *ii_o2i_memo_peek(ii_ctx *c, const hlo_instr *x, int64_t out);
/* ii_o2i_grouped without the query's budget. */
ii_status ii_grouped_logical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_grouped *out, ii_error *err);
/* The set of maps into KEY (an element of a tuple-shaped KEY: in_elem). */
void ii_groups_entry(ii_ctx *c, const ii_groups *g, const hlo_instr *key, ii_set *out);
void ii_groups_free(ii_groups *g);

/* FUSION */
ii_status ii_fusion_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err);
/* Fusions of II_PARTS_FROM operands or more, and at most II_PARTS_OUTPUTS
 * outputs (each composed again per part), whose operands in every part of
 * II_PART (from 0) reach only a few instructions of the fused computation
 * each (not a sum of them all): their out2in entries come a part at a time
 * (ii_o2i_part, ii_fusion_o2i_range). */
#define II_PARTS_OUTPUTS 16
bool ii_fusion_in_parts(ii_ctx *c, const hlo_instr *in);
/* Whether every output of fusion IN in parts reads every operand (then a
 * block in parts lists them all before its first part; the first call
 * composes every part once). */
bool ii_fusion_reads_all(ii_ctx *c, const hlo_instr *in);
/* Entries [LO, HI) of fusion IN's out2in result for OUTPUT_ID (the others
 * empty), composed only through the instructions that reach those
 * operands: *PARTED false (and nothing done) when the fusion is not in
 * parts (ii_fusion_in_parts) or [LO, HI) is not one of its parts. Not the
 * fusion cache's. */
ii_status ii_fusion_o2i_range(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t lo, uint32_t hi,
                              ii_indexing *out, bool *parted, ii_error *err);
/* Post-order of a computation (cached for the context's lifetime). */
const ii_postorder *ii_computation_postorder(ii_ctx *c, const hlo_computation *comp);

/* fusion_cache.c: a structurally equal fused computation's result for
 * OUTPUT_ID (out2in; in2out of operand k: -1 - k), copied into the
 * scratch arena (true on a hit); store one. */
bool ii_fusion_cache_get(ii_ctx *c, const hlo_instr *in, const hlo_computation *comp, int64_t output_id,
                         ii_indexing *out);
void ii_fusion_cache_put(ii_ctx *c, const hlo_instr *in, const hlo_computation *comp, int64_t output_id,
                         const ii_indexing *x);

/* physical.c */
ii_status ii_physical_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *x, ii_error *err);
ii_status ii_physical_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *x, ii_error *err);

/* tiled_indexing.c */
ii_status ii_tiled_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *x, ii_error *err);
ii_status ii_tiled_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *x, ii_error *err);

#endif
