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
 * elements. Runtime offsets take
 * every value of their clamped range (a scalar constant offset: its
 * clamped value), independently per op. An in2out entry is checked
 * against the transposed relation.
 *
 * Layouts. Maps between physical coordinates (--physical: minor_to_major
 * permutations; --physical=tiled: tiled coordinates) are converted back to
 * logical indices on both sides before the comparison (a side the map
 * keeps logical, see tiled_indexing.c, is not converted); a tiled position
 * that is padding counts as outside the tensor.
 *
 * Exact or covering. Where XLA's map deliberately over-approximates what
 * the op reads, only coverage is checked (every pair the op reads must be
 * in the maps): dynamic-update-slice operand 0 (the identity, including
 * the overwritten window); pad operand 1 (the padding value, mapped from
 * every output element); convolution with batch_group_count > 1 (every
 * batch group); a constant dynamic-slice / dynamic-update-slice offset
 * outside its feasible range (kept as a runtime variable); and any fusion
 * path through one of those. Dynamic-update-slice operand 1 (d - rt over
 * the whole output) is exact once results outside the update are dropped;
 * inside a fusion only coverage is checked. Everywhere else the relations
 * must be equal, and a result outside the indexed tensor is a mismatch.
 *
 * Not checked (VF_SKIP_*): unknown maps; a domain of more than
 * VF_MAX_POINTS points (the product of the sizes of all variable
 * intervals of a member map) or a reference needing more than VF_MAX_WORK
 * steps; ops without a definition here (scatter, scan, custom-calls of
 * unknown semantics, ... and fusions containing one, or a tuple-shaped
 * value other than the root tuple; a matrix op beyond 32 x 32); XLA's own
 * inexact cases (a gather whose iota
 * indices can exceed the clamped range: XLA folds them without clamping;
 * the in2out map of a scalar operand of an elementwise op, which has the
 * output's dimensions; a bitcast or bitcast-convert whose element count or
 * rank differs from its operand's).
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
  bool covering;      /* VF_OK by coverage only (XLA over-approximates on this path) */
  uint64_t points;    /* domain points enumerated */
  uint64_t pairs;     /* pairs of the reference relation */
  char message[400];  /* VF_MISMATCH: the difference; VF_SKIP_*: why */
} vf_result;

/* Entry K of IN's out2in block for output OUTPUT_ID: relation from output
 * elements to operand-K elements. */
void vf_check_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t k, const ii_set *set, vf_layout l,
                  vf_result *res);
/* Entry K of IN's in2out block for operand INPUT_ID: relation from
 * operand elements to output-K elements. */
void vf_check_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, uint32_t k, const ii_set *set, vf_layout l,
                  vf_result *res);

#endif
