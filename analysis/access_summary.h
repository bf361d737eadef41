/* Access summary of an operand, computed from its out2in maps (hloidx
 * --summary): what kind of access the maps describe, how much of the
 * operand the instruction reads, how often it reads each element, and,
 * from physical maps, whether neighbouring output elements read
 * neighbouring operand elements.
 *
 * Definitions. For operand K of an instruction with outputs O_1..O_m, the
 * relation R is the set of pairs (output element, operand element) denoted
 * by the out2in maps of all outputs (a pair of output i is distinct from a
 * pair of output j). E = the operand's element count.
 *  - reads        |R|: element reads needed to compute every output
 *                 element once (an element read by two output elements
 *                 counts twice; a map with range variables reads one
 *                 element per value of them);
 *  - distinct     |{x : (o, x) in R}|: operand elements read at all;
 *  - utilization  distinct / E (1: every element is needed; 0.5: half of
 *                 the operand is never read);
 *  - amplification reads / distinct (1: each element read once; 16: each
 *                 read by 16 output elements on average).
 *  - coalescing   (physical maps only) with L the operand's linear
 *                 physical offset (row-major over the map's result
 *                 coordinates: the physical dims under --physical, the
 *                 tiled shape under --physical=tiled), the step
 *                 L(d + e_last) - L(d) along the output's most-minor
 *                 physical coordinate d_last that takes more than one
 *                 value (bf16 T(8,128)(2,1) ends in coordinates of
 *                 size 1, which are skipped), simplified over the map's
 *                 domain: 1 = coalesced; another constant = not coalesced
 *                 with that stride (0: every output element of the row
 *                 reads the same element); not a constant = irregular;
 *                 several maps: coalesced only if each is, else their
 *                 common stride, or "maps differ".
 *
 * Exact or estimate. The counts are exact when computed by one of:
 *  - components: variables that share no result or constraint are
 *    independent, so the map's relation is a product over groups of
 *    variables; per group with no constraint whose operand coordinates,
 *    linearised and simplified, are an affine form sum(a_v * v) + c, the
 *    number of values of a sum of arithmetic progressions (sorted by
 *    step: contiguous while each step is at most the span so far + 1,
 *    disjoint translates while it exceeds it) and reads = the group's
 *    output elements x the values of its range-variable part;
 *  - enumeration: a group (or, for several maps, the whole relation) of at
 *    most AS_ENUM_POINTS points is enumerated and its pairs counted;
 *  - containment: of two maps of one output, A is contained in B when each
 *    result of A equals B's or is a range variable of B used nowhere else
 *    whose interval covers A's values (softmax: (d0, d1) and
 *    (d0, d1)[s0] -> (d0, s0)); the union is then B;
 *  - disjointness: maps one of whose results takes values in disjoint
 *    intervals read disjoint elements; their counts add up (the two
 *    halves of a concatenate read from one operand);
 *  - one map per output whose images are equal, contained in one another
 *    or the whole operand: reads add up, the distinct elements are the
 *    largest image.
 * Otherwise they are estimates (marked, with the reason): a group too
 * large to enumerate (its values bounded by the operand's and the
 * domain's sizes), maps whose union is not computable (reads added,
 * distinct elements bounded), runtime variables (taken at one fixed value:
 * exact for dynamic-slice, a lower bound on the distinct elements of a
 * gather), the replica id of all-gather (ignored).
 *
 * Access pattern classes, per map, from its form (several maps: the first
 * in the order unknown, gathered/dynamic, reduction, padded, reshaped,
 * strided/sliced, broadcast, permutation, identity):
 *  - unknown: an undefined map;
 *  - gathered/dynamic: runtime variables or a replica id;
 *  - reduction: a range variable in a result (reduce, dot, windows);
 *  - padded: the domain excludes output elements (narrowed dimension
 *    intervals, constraints: pad, concatenate, a known-empty map);
 *  - identity: results (d0, ..., dn-1) over equal shapes;
 *  - permutation: each result +-d_j + c, every dimension once, sizes equal
 *    (transpose, reverse);
 *  - broadcast: results of single dimensions, a dimension of size > 1
 *    unused;
 *  - strided/sliced: results c * d_j + b otherwise (slice, stride, offset);
 *  - reshaped: anything else (floordiv / mod / linear combinations). */
#ifndef HLOIDX_ACCESS_SUMMARY_H
#define HLOIDX_ACCESS_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "hlo_ir.h"
#include "instr_indexing.h"

#define AS_ENUM_POINTS ((uint64_t)1 << 20)

typedef enum {
  AS_IDENTITY,
  AS_PERMUTATION,
  AS_BROADCAST,
  AS_SLICED,
  AS_RESHAPED,
  AS_PADDED,
  AS_REDUCTION,
  AS_DYNAMIC,
  AS_UNKNOWN,
} as_class;

/* "identity", "permutation", "broadcast", "strided/sliced", "reshaped",
 * "padded", "reduction", "gathered/dynamic", "unknown". */
const char *as_class_name(as_class c);

__extension__ typedef unsigned __int128 as_count;

typedef struct {
  as_class cls;
  bool counted;       /* false for unknown maps: no counts */
  bool exact;         /* the counts are exact */
  char why[160];      /* when an estimate: why */
  as_count elements;  /* E */
  as_count distinct;  /* operand elements read */
  as_count reads;     /* |R| */
} as_summary;

/* Operand K of IN, from the out2in sets SETS[0..nsets-1] of outputs
 * FIRST_OUTPUT, FIRST_OUTPUT + 1, ... (logical maps; entry K of each). */
void as_summarize(ii_ctx *c, const hlo_instr *in, uint32_t k, int64_t first_output, const ii_set *const *sets,
                  int nsets, as_summary *out);

typedef enum {
  AS_COAL_NA,        /* unknown maps, a scalar output or operand */
  AS_COAL_YES,       /* step 1 */
  AS_COAL_STRIDE,    /* another constant step (stride) */
  AS_COAL_IRREGULAR, /* the step is not a constant */
  AS_COAL_MIXED,     /* several maps with different steps */
} as_coal_kind;

typedef struct {
  as_coal_kind kind;
  int64_t stride;
} as_coalescing;

/* Coalescing of operand K from its physical maps (one set per output).
 * TILED: the maps are between tiled coordinates (--physical=tiled), else
 * minor_to_major permutations (--physical). */
void as_coalescing_of(ii_ctx *c, const hlo_instr *in, uint32_t k, const ii_set *const *sets, int nsets, bool tiled,
                      as_coalescing *out);

#endif
