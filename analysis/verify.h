/* Enumeration check of indexing maps against the ops' direct definitions
 * (hloidx --verify; the enumeration unit test uses the same reference).
 *
 * What is compared. An out2in entry K of instruction IN for output N (the
 * maps of one ii_set) denotes a relation between output elements and
 * operand-K elements: every member map enumerated over its dimension,
 * range and runtime variables (their intervals and the constraints). The
 * reference relation is what the op reads according to its definition
 * (hlo-text-format.md §6.3): for each output element, the operand elements
 * the op reads to compute it, from the op's attributes alone (it never
 * looks at a map; one reference per rule family of the HLO_OPCODES table,
 * the family naming what the op is). Fusions (and calls, conditional
 * branches, async-start's wrapped computation) propagate element sets from
 * the root to the parameters through the same per-op definitions;
 * cholesky and triangular-solve run their recurrences on sets of matrix
 * elements. Runtime offsets take every value of their range (clamped:
 * dynamic-slice, dynamic-update-slice and gather start indices; dropped
 * when outside: scatter windows), independently per op; a scalar constant
 * offset and an iota of indices take their own values. An in2out entry is
 * checked against the transposed relation.
 *
 * Runtime bindings. That union does not see a runtime variable bound to
 * the wrong operand element (the class of openxla/xla#49119). So entries
 * whose maps have runtime variables are checked again in VF_WORLDS
 * worlds: a world gives every element of every index operand a value
 * (pseudo-random from the seed, the world and the instruction; a scalar
 * constant its literal, an iota its index), the reference reads with
 * those values, and each runtime variable of a map takes the value of the
 * element its description names, at each point (clamped as its op
 * clamps); the relations must agree in every world. Under --xla-compat the
 * descriptions follow XLA's list order, which is not the map's, and only
 * the union is checked.
 *
 * Sampling. A domain too large to enumerate (more than VF_MAX_POINTS
 * points in a member map, the product of all its variable intervals, or
 * 4 * VF_MAX_POINTS together, or a reference of more than VF_MAX_WORK
 * steps) is checked on up to VF_SAMPLES points of the "from" side (as
 * many as a reference of VF_SAMPLE_WORK steps allows) drawn from the
 * seed (deterministic: the same seed gives the same points); at each point
 * the maps' symbols are enumerated and compared with the reference's reads
 * of that element. Out2in references are taken point by point, and the
 * points left when their budget runs out are dropped (at least one is
 * checked). In2out: output elements are drawn and the operand elements
 * they read become points (a pair the maps miss shows there), as many
 * operand elements are drawn at random, and for each point the reference
 * of VF_OUTPUTS of the output elements its maps name is taken (a pair the
 * op does not read shows there). Where the runtime values of one point
 * are so many that the union allows fewer than VF_SAMPLES / 16 points (an
 * index into a large table), the points are checked in the worlds only,
 * as many as their range variables allow.
 *
 * Layouts. Maps between physical coordinates (--physical: minor_to_major
 * permutations; --physical=tiled: tiled coordinates) are converted back to
 * logical indices on both sides before the comparison (a side the map
 * keeps logical, see tiled_indexing.c, is not converted); a tiled position
 * that is padding counts as outside the tensor.
 *
 * Exact or covering. Where the map deliberately over-approximates what
 * the op reads, only coverage is checked (every pair the op reads must be
 * in the maps): dynamic-update-slice operand 0 (the identity, including
 * the overwritten window); pad operand 1 (the padding value, mapped from
 * every output element); under --xla-compat a convolution with
 * batch_group_count > 1 (every batch group); a constant dynamic-slice /
 * dynamic-update-slice offset
 * outside its feasible range (kept as a runtime variable); and any fusion
 * path through one of those. Dynamic-update-slice operand 1 (d - rt over
 * the whole output) is exact once results outside the update are dropped;
 * inside a fusion only coverage is checked. Everywhere else the relations
 * must be equal, and a result outside the indexed tensor is a mismatch.
 *
 * Not checked (VF_SKIP_*): unknown maps; a point whose symbols alone are
 * more than VF_MAX_POINTS, or a reference of more than VF_MAX_WORK steps
 * for one element (out2in) or in all (in2out); ops without a definition
 * here (scan, custom-calls of unknown semantics, ... and fusions
 * containing one, or a tuple-shaped value other than the root tuple; a
 * matrix op beyond 32 x 32); gathers and scatters whose dimension numbers
 * do not fit their shapes; XLA's own inexact cases under --xla-compat (a
 * gather whose iota indices can exceed the clamped range, which XLA folds
 * without clamping; the in2out map of a scalar operand of an elementwise
 * op, which has the output's dimensions; a bitcast-convert that changes
 * the element width, mapped as the identity); a bitcast whose element
 * count differs from its operand's.
 *
 * Nothing here prints or exits; memory is malloc'ed and freed per call
 * (maps for the layout conversions go to the context's scratch arena). */
#ifndef HLOIDX_VERIFY_H
#define HLOIDX_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "hlo_ir.h"
#include "instr_indexing.h"

#define VF_MAX_POINTS ((uint64_t)1 << 16) /* points of one member map's domain */
#define VF_MAX_WORK ((uint64_t)1 << 22)   /* steps of the reference (elements visited, pairs emitted) */
#define VF_SAMPLES 1024u                  /* "from" points of a sampled check */
#define VF_SAMPLE_WORK ((uint64_t)1 << 20) /* steps of the reference of a sampled check */
#define VF_WORLDS 3u                      /* worlds of a runtime-binding check */
#define VF_OUTPUTS 16u                    /* sampled in2out: outputs checked per operand element */

typedef enum {
  VF_LOGICAL,  /* maps between logical indices */
  VF_PHYSICAL, /* --physical: minor_to_major permutations composed in */
  VF_TILED,    /* --physical=tiled */
} vf_layout;

typedef enum {
  VF_OK = 0,             /* the maps denote the op's reads (cover them, where XLA over-approximates) */
  VF_MISMATCH,           /* they do not; message says how, with an example */
  VF_SKIP_UNKNOWN,       /* an undefined map (`unknown indexing`): nothing to compare */
  VF_SKIP_TOO_LARGE,     /* beyond VF_MAX_POINTS / VF_MAX_WORK */
  VF_SKIP_NO_REFERENCE,  /* no direct definition for this op (or a known XLA inexactness) */
} vf_status;

typedef struct {
  vf_status status;
  bool covering;       /* VF_OK by coverage only (XLA over-approximates on this path) */
  bool sampled;        /* compared on `samples` of the `population` "from" points only */
  uint64_t samples, population, seed;
  uint32_t worlds;     /* runtime bindings checked in this many worlds (0: none) */
  bool worlds_only;    /* ... and not the union of all runtime values (too many) */
  uint64_t points;     /* domain points enumerated (union check) */
  uint64_t pairs;      /* pairs of the reference relation (union check) */
  char message[400];   /* VF_MISMATCH: the difference; VF_SKIP_*: why */
} vf_result;

/* Entry K of IN's out2in block for output OUTPUT_ID: relation from output
 * elements to operand-K elements. SEED draws the sampled points and the
 * worlds' values. */
void vf_check_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t k, const ii_set *set, vf_layout l,
                  uint64_t seed, vf_result *res);
/* Entry K of IN's in2out block for operand INPUT_ID: relation from
 * operand elements to output-K elements. */
void vf_check_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, uint32_t k, const ii_set *set, vf_layout l,
                  uint64_t seed, vf_result *res);

#endif
