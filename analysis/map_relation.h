/* Equality of indexing maps as relations (hloidx --compare).
 *
 * What a map means here. A map (d)[s]{rt} -> (f) with its domain denotes
 * the relation { (d, f(d, s, rt)) : every variable in its interval and
 * every constraint met } -- the elements the access may touch. Range and
 * runtime variables are both existential (a runtime value is one point
 * of its interval, unknown in advance), so a runtime variable printed as
 * {rt0} (V2), as a range variable of the 2024 formats, or named rt or s
 * in any order, means the same. The relation of an entry (several maps of
 * one operand) is the union of its members'; `unknown indexing`
 * (UNDEFINED) is "any element" and absorbs the union; KNOWN EMPTY adds
 * nothing.
 *
 * How two entries A and B are compared, first answer wins:
 *  1. equal text: the same multiset of map texts once all whitespace is
 *     removed (the texts as XLA's tests compare them);
 *  2. equal by canonical simplification: each map read (map_read.h), its
 *     runtime variables made range variables, simplified as XLA's
 *     IndexingMap::Simplify() does (simplify.h) and stripped of unused
 *     symbols; equal when both sides give the same set of maps (identical
 *     expressions, intervals and constraints). This proves equality; it
 *     does not prove a difference (two spellings of one relation may
 *     simplify apart);
 *  3. enumeration, when it takes at most MREL_ENUM_MAX_EVALS evaluations
 *     (the points of the hull of the dimension boxes times the symbol
 *     points of every map): for each dimension point d in odometer order,
 *     the results of A at d and of B at d are listed and compared; equal,
 *     or different with a witness (at the first d where they differ, a
 *     result A has and B lacks, else one B has and A lacks);
 *  4. otherwise sampling: points of each side (the box's corners, then
 *     pseudo-random points, a fixed seed) are tested for membership in the
 *     other side, which enumerates its symbols for the point's d; a point
 *     missing there is a witness. At most the enumeration budget in steps
 *     (a map tried, a point evaluated), both sides together. Finding none
 *     leaves the answer undecided: nothing is claimed equal without a
 *     proof.
 * Structural differences are reported without a point: unknown indexing
 * on one side only, or maps of different dimension or result counts.
 *
 * Nothing here prints or exits; errors (a map text that cannot be read)
 * come back in the result. */
#ifndef HLOIDX_MAP_RELATION_H
#define HLOIDX_MAP_RELATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most evaluations (a map at one point) spent to prove equality by
 * enumeration; and the largest symbol box enumerated for one membership
 * test. */
#define MREL_ENUM_MAX_EVALS ((uint64_t)1 << 24)
#define MREL_MEMBER_MAX_POINTS ((uint64_t)1 << 16)
/* Points sampled per side when the domain is too large to enumerate. */
#define MREL_SAMPLES 2048

/* One map as text: BASE[START, END). Accepted: XLA's map text in any
 * layout and version map_read reads, `UNDEFINED` or `unknown indexing`,
 * `KNOWN EMPTY`. Error offsets are offsets in BASE. */
typedef struct { /* (16 bytes: a golden can hold millions; every input is under 2 GiB) */
  const char *base;
  uint32_t start, end;
} mrel_text;

typedef enum {
  MREL_EQUAL_TEXT,       /* the same text, whitespace aside */
  MREL_EQUAL_CANONICAL,  /* equal after canonical simplification */
  MREL_EQUAL_ENUMERATED, /* equal, every point enumerated */
  MREL_DIFFERENT,        /* a witness point, or a structural difference (why) */
  MREL_UNDECIDED,        /* too large to enumerate, and no witness found (why) */
  MREL_ERROR,            /* a map cannot be read (side, offset, why) */
} mrel_verdict;

typedef struct {
  mrel_verdict verdict;
  uint64_t points;   /* EQUAL_ENUMERATED: the pairs (d, f) in each relation */
  int side;          /* DIFFERENT with a witness: 0 = the pair is only in A, 1 = only in B;
                        DIFFERENT without one: the side WHY is true of only (unknown
                        indexing, mixed ranks), or -1 (A's counts against B's);
                        ERROR: the side of the map; otherwise -1 */
  uint32_t ndims, nresults;
  int64_t *witness;  /* DIFFERENT with a witness: ndims indices, then nresults (malloc'ed) */
  size_t offset;     /* ERROR: offset of the problem in the map's base */
  char why[256];     /* DIFFERENT without witness, UNDECIDED, ERROR */
} mrel_result;

typedef struct mrel_ctx mrel_ctx;
mrel_ctx *mrel_ctx_new(void);
void mrel_ctx_free(mrel_ctx *c);
/* Lowers the enumeration budget, which is also sampling's (default
 * MREL_ENUM_MAX_EVALS): the fuzzer keeps each input fast with it. */
void mrel_ctx_set_enum_limit(mrel_ctx *c, uint64_t evals);

/* Compares the entry A (NA maps) with the entry B (NB maps). */
void mrel_compare(mrel_ctx *c, const mrel_text *a, size_t na, const mrel_text *b, size_t nb, mrel_result *out);
void mrel_result_free(mrel_result *r);

/* Whether TEXT[START, END) equals OTHER[OSTART, OEND) with all whitespace
 * removed from both. */
bool mrel_text_equal(const char *text, size_t start, size_t end, const char *other, size_t ostart, size_t oend);

#endif
