/* Which values of a module are buffers of their own (hloidx --layout's
 * byte totals).
 *
 * A value is an array leaf of an instruction's result (a tuple is not a
 * value; its leaves are). Counted as buffers: the values of the
 * instructions of ENTRY and of the computations ENTRY reaches through
 * control flow (the caller picks those computations), except the values
 * an instruction shares with another value rather than defining:
 *  - every leaf of tuple, get-tuple-element, bitcast, opt-barrier, domain,
 *    add-dependency (their operands' buffers), while, conditional, call
 *    (the called computations' values), and of the *-done / async-update
 *    halves of asynchronous pairs (async, copy, send, recv, all-reduce,
 *    all-gather, collective-permute: the buffers of their *-start);
 *  - the leaves under index {0} of async-start, all-gather-start,
 *    collective-permute-start and send (their operands), and under {1} of
 *    copy-start (its source);
 *  - the parameters of any computation but ENTRY (the caller's operands).
 * Values inside fused and to_apply computations are never buffers (the
 * caller does not walk them). Attributes that make a result share an
 * operand's buffer (output_to_operand_aliasing, in-place updates decided by
 * buffer assignment) are not read: such a result counts as its own buffer. */
#ifndef HLOIDX_BUFFERS_H
#define HLOIDX_BUFFERS_H

#include <stdbool.h>

#include "hlo_ir.h"

/* Whether the leaf at index path PATH (DEPTH indices; depth 0 for an array
 * result) of IN's result is a buffer IN defines, IN being in a computation
 * whose values count. */
bool buf_defines(const hlo_instr *in, const int *path, int depth);

#endif
