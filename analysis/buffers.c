#include "buffers.h"

/* The result leaves an opcode shares with another value: all of them, or
 * those under one top-level tuple index. */
typedef enum { OWN, SHARES_ALL, SHARES_0, SHARES_1 } sharing;

static sharing sharing_of(hlo_opcode op) {
  switch (op) {
  case HLO_OP_TUPLE: case HLO_OP_GET_TUPLE_ELEMENT: case HLO_OP_BITCAST: case HLO_OP_OPT_BARRIER:
  case HLO_OP_DOMAIN: case HLO_OP_ADD_DEPENDENCY: case HLO_OP_WHILE: case HLO_OP_CONDITIONAL: case HLO_OP_CALL:
  case HLO_OP_ASYNC_UPDATE: case HLO_OP_ASYNC_DONE: case HLO_OP_COPY_DONE: case HLO_OP_SEND_DONE:
  case HLO_OP_RECV_DONE: case HLO_OP_ALL_REDUCE_DONE: case HLO_OP_ALL_GATHER_DONE:
  case HLO_OP_COLLECTIVE_PERMUTE_DONE:
    return SHARES_ALL;
  case HLO_OP_ASYNC_START: case HLO_OP_ALL_GATHER_START: case HLO_OP_COLLECTIVE_PERMUTE_START: case HLO_OP_SEND:
    return SHARES_0;
  case HLO_OP_COPY_START:
    return SHARES_1;
  default:
    return OWN;
  }
}

bool buf_defines(const hlo_instr *in, const int *path, int depth) {
  if (in->op == HLO_OP_PARAMETER) return in->parent->is_entry;
  switch (sharing_of(in->op)) {
  case OWN: return true;
  case SHARES_ALL: return false;
  case SHARES_0: return depth == 0 || path[0] != 0;
  case SHARES_1: return depth == 0 || path[0] != 1;
  }
  return true;
}
