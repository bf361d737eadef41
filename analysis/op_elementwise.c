/* Elementwise ops and `map` (indexing-semantics.md §3.1, §3.9). */
#include "ii_internal.h"

bool ii_is_elementwise(hlo_opcode op) {
  switch (op) {
  /* unary (XLA's HloInstruction::IsOpElementwise) */
  case HLO_OP_ABS:
  case HLO_OP_ROUND_NEAREST_AFZ:
  case HLO_OP_ROUND_NEAREST_EVEN:
  case HLO_OP_CEIL:
  case HLO_OP_COUNT_LEADING_ZEROS:
  case HLO_OP_CONVERT:
  case HLO_OP_BITCAST_CONVERT:
  case HLO_OP_COPY:
  case HLO_OP_COSINE:
  case HLO_OP_ERF:
  case HLO_OP_EXPONENTIAL:
  case HLO_OP_EXPONENTIAL_MINUS_ONE:
  case HLO_OP_FLOOR:
  case HLO_OP_IMAG:
  case HLO_OP_IS_FINITE:
  case HLO_OP_LOG:
  case HLO_OP_LOG_PLUS_ONE:
  case HLO_OP_NOT:
  case HLO_OP_NEGATE:
  case HLO_OP_POPCNT:
  case HLO_OP_REAL:
  case HLO_OP_REDUCE_PRECISION:
  case HLO_OP_RSQRT:
  case HLO_OP_LOGISTIC:
  case HLO_OP_SIGN:
  case HLO_OP_SINE:
  case HLO_OP_SQRT:
  case HLO_OP_CBRT:
  case HLO_OP_TAN:
  case HLO_OP_TANH:
  /* binary */
  case HLO_OP_ADD:
  case HLO_OP_ATAN2:
  case HLO_OP_COMPARE:
  case HLO_OP_COMPLEX:
  case HLO_OP_DIVIDE:
  case HLO_OP_MAXIMUM:
  case HLO_OP_MINIMUM:
  case HLO_OP_MULTIPLY:
  case HLO_OP_POWER:
  case HLO_OP_REMAINDER:
  case HLO_OP_SUBTRACT:
  case HLO_OP_AND:
  case HLO_OP_OR:
  case HLO_OP_XOR:
  case HLO_OP_SHIFT_LEFT:
  case HLO_OP_SHIFT_RIGHT_ARITHMETIC:
  case HLO_OP_SHIFT_RIGHT_LOGICAL:
  case HLO_OP_STOCHASTIC_CONVERT:
  /* ternary */
  case HLO_OP_SELECT:
  case HLO_OP_CLAMP:
  /* map; [V2] the asynchronous all-reduce pair */
  case HLO_OP_MAP:
  case HLO_OP_ALL_REDUCE_START:
  case HLO_OP_ALL_REDUCE_DONE: return true;
  default: return false;
  }
}

/* o2i: identity over the output for every operand, except a scalar operand
 * of a non-scalar output, which gets the scalar map `(d...) -> ()`. A tuple
 * result (variadic all-reduce-start) stands for its first element, as in
 * XLA's CreateIdentityMap. */
ii_status ii_elementwise_o2i(ii_ctx *c, const hlo_instr *in, ii_indexing *out, ii_error *err) {
  (void)err;
  const hlo_shape *o = ii_array_shape(in->shape);
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  for (int k = 0; k < in->n_operands; k++) {
    const hlo_shape *s = in->operands[k]->shape;
    bool scalar = ii_is_array(s) && s->rank == 0 && ii_rank(o) > 0;
    ii_add(c, out, (uint32_t)k, scalar ? ii_scalar_map(c, o) : ii_identity(c, o));
  }
  return II_OK;
}

/* i2o: one entry, the identity over the output, whatever the input (XLA
 * returns it even for a scalar input, §3.1). */
ii_status ii_elementwise_i2o(ii_ctx *c, const hlo_instr *in, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, 1);
  ii_add(c, out, 0, ii_identity(c, in->shape));
  return II_OK;
}
