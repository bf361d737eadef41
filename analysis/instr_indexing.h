/* Indexing maps of HLO instructions: XLA's ComputeOutputToInputIndexing /
 * ComputeInputToOutputIndexing (indexing-semantics.md §3 per opcode, §5
 * fusions, §4 physical layouts), in the [V2] form.
 *
 * Vocabulary (§1.7, §2.5):
 *  - an *operand indexing* (ii_operand) is one indexing map plus, for each
 *    of its runtime variables, a description (the HLO instruction that
 *    produces the value and a map from the same "from" space into that
 *    instruction's output), plus an optional replica-id map (all-gather);
 *  - an *operand set* (ii_set) is a set of operand indexings without
 *    duplicates (equality of §1.7: imap_equal on the maps, same description
 *    instructions and maps, equal replica maps);
 *  - an *instruction indexing* (ii_indexing) is one set per operand
 *    (output-to-input) or one set per output (input-to-output).
 *
 * Memory. Everything a query returns lives in the context's scratch hb_arena
 * and stays valid until ii_ctx_reset (call it between analysed
 * instructions so that a run over a big module stays bounded). Expressions
 * live in the context's ae_ctx, which lives as long as the context. The
 * analysis never prints to stdout and never exits; problems are returned as
 * ii_error values naming the instruction at fault.
 *
 * Determinism. Sets keep insertion order internally; ii_set_print_order and
 * the printers give the order of their single-line texts (map_text_order,
 * then strcmp), which does not depend on pointers or hashing. */
#ifndef HLOIDX_INSTR_INDEXING_H
#define HLOIDX_INSTR_INDEXING_H

#include <stdbool.h>
#include <stdint.h>

#include "hlo_ir.h"
#include "indexing_map.h"
#include "map_print.h"
#include "../parser/base/strbuf.h"

/* A runtime variable: the instruction whose value it is and which element
 * of it is read (a map from the indexed space into that instruction).
 * clamped: the op clamps the value read into `clamp` before using it
 * (dynamic-slice, dynamic-update-slice and gather start indices), and the
 * variable is the clamped value; otherwise the variable is the value read
 * as is (scatter: a window out of range is dropped, which the map's domain
 * says). Not printed; --verify binds the variables through it. */
typedef struct {
  const hlo_instr *instr;
  imap *map;
  bool clamped;
  interval clamp;
} ii_rtvar;

/* One operand indexing. nrt descriptions (nrt == map->nrt for defined
 * maps; 0 for undefined ones). Description j prints as `rt<j>`.
 * hloidx's semantics (rt_bind.c): description j is the map's symbol
 * rt<j>, and its map has the operand map's dimensions and either no
 * symbols or all the map's symbols (the same positions, so `s0` or `rt1`
 * in it is the map's), and no constraints. Under --xla-compat it is XLA's:
 * after fusion composition description j is not necessarily the map's
 * symbol rt<j> (XLA's list-order quirk, §2.6), and its map has the
 * symbols and constraints of the consumer's map it was composed with. */
typedef struct {
  imap *map;
  uint32_t nrt;
  ii_rtvar *rt;
  imap *replica;   /* replica-id map (all-gather), or NULL */
  const char *why; /* an undefined map: why it is unknown (hloidx's semantics only), or NULL */
} ii_operand;

/* A set of operand indexings, in insertion order, without duplicates.
 * When the operand is a tuple (get-tuple-element, while, ...), the maps of
 * an entry index (out2in) or start from (in2out) one element of it:
 * in_elem is set and elem is its index. */
typedef struct {
  uint32_t n, cap;
  ii_operand **items;
  uint64_t *hash;   /* per member, to skip most equality tests */
  uint32_t nhashed; /* hash[0..nhashed) are set (computed once a second member comes) */
  bool in_elem;     /* the maps index / start from tuple element `elem` of the operand */
  int64_t elem;
} ii_set;

/* One set per operand (out2in) or per output (in2out): n entries. Only
 * the entries that can have maps need be stored (an output of a tuple of
 * thousands reads one operand): with ids NULL every entry is (sets[k] is
 * entry k); else nlive sets, sets[i] for entry ids[i] (increasing), and an
 * entry not stored has no maps (not read, not reached). Read entries
 * through ii_entry, or go over the stored ones with ii_nstored and
 * ii_stored_id. */
typedef struct {
  uint32_t n;
  ii_set *sets;
  uint32_t nlive;
  const uint32_t *ids;
} ii_indexing;

static inline uint32_t ii_nstored(const ii_indexing *x) { return x->ids ? x->nlive : x->n; }
static inline uint32_t ii_stored_id(const ii_indexing *x, uint32_t i) { return x->ids ? x->ids[i] : i; }
/* The set of entry K (an empty set when K is not stored). */
const ii_set *ii_entry(const ii_indexing *x, uint32_t k);
/* The first entry of [K, n) that has maps, else n: a walk over the entries
 * that have maps costs those, not n, when the others are not stored. */
uint32_t ii_next_entry(const ii_indexing *x, uint32_t k);
/* The stored entries [FROM, TO) of X (ii_nstored's order) as an indexing
 * of X's n entries that stores only them, sharing X's sets; IDS holds
 * TO - FROM ids where X stores every entry. */
void ii_indexing_view(const ii_indexing *x, uint32_t from, uint32_t to, uint32_t *ids, ii_indexing *out);

typedef struct {
  const hlo_instr *instr; /* the instruction at fault (may be inside a fused computation) */
  char message[320];
} ii_error;

/* Status of a query. */
typedef enum {
  II_OK = 0,
  II_ERROR = 1,     /* input problem (invalid id, precondition XLA would CHECK, cyclic input) */
  II_TOO_LARGE = 2, /* size limits crossed (expression nodes, set members, nesting) */
} ii_status;

typedef struct ii_ctx ii_ctx;

/* ---- context --------------------------------------------------------------------------------- */
ii_ctx *ii_ctx_new(void);
void ii_ctx_free(ii_ctx *c);
/* Ends the life of every result of earlier queries: they must not be used
 * after the call. (Their memory, the scratch arena, is reclaimed once it
 * holds more than 1 MiB, so that small queries reuse it.) */
void ii_ctx_reset(ii_ctx *c);
/* Drops the per-computation caches (post-orders), which outlive
 * ii_ctx_reset; call it before freeing a module the context has analysed. */
void ii_ctx_end_module(ii_ctx *c);
/* Limit on the size of a query's result written out as text, counted in
 * expression nodes with shared sub-expressions counted once per use (the
 * text of a DAG is a tree); a larger result is reported as II_TOO_LARGE
 * instead of being returned. Default II_DEFAULT_TEXT_NODES; 0 = no limit. */
#define II_DEFAULT_TEXT_NODES ((uint64_t)1 << 20)
void ii_ctx_set_text_limit(ii_ctx *c, uint64_t nodes);
/* Memoisation of fusion results across the instructions of a module
 * (fusion_cache.c): a fusion whose fused computation is structurally equal
 * to one analysed before (same ops, shapes, operands and attributes; only
 * names differ) gets a copy of that result. On by default; off gives the
 * same results, computed again (for tests). Hits so far, for benchmarks. */
void ii_ctx_set_fusion_cache(ii_ctx *c, bool enabled);
/* Semantics. Default: hloidx's own (XLA's rules where they are right, sound
 * rules of hloidx's where XLA has none, corrected maps where XLA's are
 * wrong). With xla_compat set: exactly what XLA's analysis returns, its
 * unknowns and its quirks included (what the XLA conformance vectors judge). */
void ii_ctx_set_xla_compat(ii_ctx *c, bool xla_compat);
bool ii_ctx_xla_compat(const ii_ctx *c);
uint64_t ii_ctx_fusion_cache_hits(const ii_ctx *c);
/* Budget of new expression nodes per top-level query: a query that would
 * create more (a composition that blows up) stops early and is reported as
 * II_TOO_LARGE ("analysis too large for NAME: ..."). Default
 * II_DEFAULT_NODE_BUDGET; 0 = no limit. */
#define II_DEFAULT_NODE_BUDGET ((size_t)4 << 20)
void ii_ctx_set_node_budget(ii_ctx *c, size_t nodes);
/* The text size of an instruction indexing, in the same unit. */
uint64_t ii_indexing_text_nodes(const ii_indexing *x);
/* The expression context shared by every map of this context. */
ae_ctx *ii_ctx_ae(ii_ctx *c);
/* The arena holding the results of the current queries (reset by ii_ctx_reset). */
hb_arena *ii_ctx_arena(ii_ctx *c);

/* ---- queries ------------------------------------------------------------------------------------ */
/* Number of outputs: tuple elements of a tuple-shaped instruction, else 1. */
int64_t ii_num_outputs(const hlo_instr *in);
/* XLA's ComputeOutputToInputIndexing(in, output_id): one set per operand. */
ii_status ii_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err);
/* XLA's ComputeInputToOutputIndexing(in, input_id): one set per output. */
ii_status ii_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err);
/* Out2in in parts: an instruction whose out2in entries are computed
 * each alone (a concatenate's), or a fusion of II_PARTS_FROM operands or
 * more whose operands each reach a few of its instructions, can be asked
 * for entries [LO, HI) of an output at a time (a sparse result), so that
 * a block of 100,000 entries is never held whole. A fusion's parts are
 * [k * II_PART, (k + 1) * II_PART) (its in2out queries memoise the out2in
 * entries of one of them: asked in order, each part's composed once). */
#define II_PARTS_FROM 4096 /* operands */
#define II_PART 256
bool ii_o2i_in_parts(ii_ctx *c, const hlo_instr *in);
ii_status ii_o2i_part(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t lo, uint32_t hi, ii_indexing *out,
                      ii_error *err);
/* Entries [LO, HI) of N, each unknown indexing for reason WHY (a part
 * that failed). */
void ii_unknown_range(ii_ctx *c, ii_indexing *x, uint32_t n, uint32_t lo, uint32_t hi, const char *why);
/* A block whose results nothing keeps past it: the expression nodes made
 * from begin to end are dropped at the end (the memos, which could hold
 * them, emptied). Only for instructions whose queries memoise nothing
 * else (those of ii_o2i_in_parts). */
void ii_ctx_block_begin(ii_ctx *c);
void ii_ctx_block_end(ii_ctx *c);
/* The same with physical (minor_to_major) layouts composed in (§4). */
ii_status ii_o2i_physical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err);
ii_status ii_i2o_physical(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err);
/* The same between tiled physical coordinates (--physical=tiled, not an
 * XLA mode): each map composed with the tiled layouts of both sides through
 * tl_compose_tiled (tiled_layout.h); runtime-variable and replica-id maps
 * get the "from" side only (tiled_indexing.c says why and which sides stay
 * logical). */
ii_status ii_o2i_tiled(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err);
ii_status ii_i2o_tiled(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err);

/* A computation as an instruction: a fusion of it (`--computation`),
 * whose operands are the computation's own parameters and whose output is
 * its root (or the root tuple's elements), so that every query above maps
 * the root to the parameters through the computation's instructions. Its
 * name is the computation's, its opcode text "computation". Lives until
 * ii_ctx_end_module. */
const hlo_instr *ii_computation_instr(ii_ctx *c, const hlo_computation *comp);

/* XLA's grouped indexing (ComputeGroupedOutputToInputIndexing): the maps
 * from output OUTPUT_ID of fusion IN (or of ii_computation_instr) to every
 * instruction of its computation that the output reaches, parameters
 * included: one group per instruction, or per tuple element of a
 * tuple-shaped one (elem >= 0), in the computation's order. */
typedef struct {
  const hlo_instr *instr;
  int64_t elem; /* the tuple element of instr the maps index, or -1 */
  ii_set set;
} ii_group;
typedef struct {
  uint32_t n;
  ii_group *groups;
} ii_grouped;
ii_status ii_o2i_grouped(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_grouped *out, ii_error *err);

/* ---- operand indexings and sets ----------------------------------------------------------------- */
/* §1.7 equality. */
bool ii_operand_equal(const ii_operand *a, const ii_operand *b);
uint64_t ii_operand_hash(const ii_operand *x);
/* Inserts x unless an equal member exists; true if inserted. */
bool ii_set_insert(ii_ctx *c, ii_set *s, ii_operand *x);
/* compose_operand(first, second) of §5.3 (not simplified). */
ii_operand *ii_operand_compose(ii_ctx *c, const ii_operand *first, const ii_operand *second);
/* Simplify(mode) on the map, then RemoveUnusedSymbols, dropping the
 * descriptions of removed runtime symbols (§6.6 step 5). Returns II_TOO_LARGE
 * when the simplifier stopped on its limits. */
ii_status ii_operand_simplify(ii_ctx *c, ii_operand *x, bool simplify, bool remove_unused);

/* ---- text ------------------------------------------------------------------------------------------ */
/* The [V2] runtime-variable text (§2.6): `parameter(N)`, `constant(<value as
 * written>)` for a scalar constant, `constant` otherwise, else the name. */
void ii_rt_text(hb_strbuf *b, const hlo_instr *in);
/* Member indices of s in print order (single-line texts in map_text_order); the
 * array lives in the scratch arena (the _in variant: in A). */
const uint32_t *ii_set_print_order(ii_ctx *c, const ii_set *s);
const uint32_t *ii_set_print_order_in(hb_arena *a, const ii_set *s);
/* One member (map, runtime variables, replica id), ending with a newline;
 * an unknown map with a reason prints `unknown indexing (REASON)`. */
void ii_print_operand(hb_strbuf *b, const ii_operand *x, const map_print_opts *o);
/* `operand id = N` blocks for every set, members in print order (§2.5). With
 * the single-line options the text is exactly XLA's. */
void ii_print_indexing(ii_ctx *c, hb_strbuf *b, const ii_indexing *x, const map_print_opts *o);

#endif
