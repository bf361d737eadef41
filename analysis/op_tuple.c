/* Ops that pass whole values along or read nothing (hloidx's semantics;
 * XLA has no rule for them but get-tuple-element):
 *
 *   TUPLE  tuple: output n (element n) is operand n;
 *   GTE    get-tuple-element: its element of operand 0 (in ii_gte_o2i);
 *   ELEM   opt-barrier, async-update, all-reduce-done: output n is element
 *          n of operand 0 (operand 0 itself when it is an array);
 *   FIRST  add-dependency, domain, send: output 0 is operand 0; the other
 *          operands (tokens) and outputs (contexts, tokens) not read;
 *   START  copy-start, collective-permute-start: outputs 0 and 1 (the
 *          destination and the source, or the operand and its permuted
 *          copy) are operand 0; the context outputs read nothing;
 *   DONE0  copy-done, recv-done: output 0 is element 0 of the start;
 *   DONE1  collective-permute-done, all-gather-done, async-done: the output
 *          is element 1 of the start (the result);
 *   NOREAD after-all, infeed, outfeed, recv, send-done, get-dimension-size:
 *          no output reads an element of an operand (tokens; data from the
 *          host or another device; a size, not an element).
 *
 * "Is operand k" is the identity over the output's dims into operand k, or
 * into its tuple element (ii_set.elem); an entry that reads nothing has no
 * map (the `not read` of the text output). A value whose dims differ from
 * what it should pass along is unknown, with the reason. */
#include "ii_internal.h"

/* Set K of OUT: output O (an array) is operand K, or its tuple element
 * ELEM (ELEM >= 0). */
static void pass(ii_ctx *c, const hlo_instr *in, ii_indexing *out, uint32_t k, int64_t elem, const hlo_shape *o) {
  const hlo_shape *x = in->operands[k]->shape;
  if (elem >= 0) {
    if (x->type != HLO_TUPLE || elem >= x->n_elems) {
      ii_add_unknown(c, out, k, ii_why(c, "operand %u has no tuple element %lld", k, (long long)elem));
      return;
    }
    x = x->elems[elem];
    ii_set *s = ii_entry_mut(out, k);
    s->in_elem = true;
    s->elem = elem;
  }
  if (!ii_same_dims(o, x)) {
    ii_add_unknown(c, out, k, ii_why(c, "an output that is not an array of the dims of what it passes along"));
    return;
  }
  ii_add(c, out, k, ii_identity(c, o));
}

/* Only entry ID is stored: a tuple of N operands has N maps, not N * N
 * entries. */
ii_status ii_tuple_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  uint32_t k = (uint32_t)id;
  ii_indexing_init_sparse(c, out, (uint32_t)in->n_operands, id < in->n_operands, &k);
  if (id < in->n_operands) pass(c, in, out, k, -1, ii_output_shape(in, id));
  return II_OK;
}

ii_status ii_elem_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  bool whole = in->shape->type != HLO_TUPLE && in->operands[0]->shape->type != HLO_TUPLE;
  pass(c, in, out, 0, whole ? -1 : id, ii_output_shape(in, id));
  return II_OK;
}

ii_status ii_first_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (id == 0 && in->n_operands > 0) pass(c, in, out, 0, -1, ii_output_shape(in, 0));
  return II_OK;
}

ii_status ii_start_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (in->n_operands != 1) {
    for (int k = 0; k < in->n_operands; k++)
      ii_add_unknown(c, out, (uint32_t)k, ii_why(c, "%s with %d operands", hlo_instr_opcode_text(in), in->n_operands));
    return II_OK;
  }
  if (id <= 1) pass(c, in, out, 0, -1, ii_output_shape(in, id));
  return II_OK;
}

/* The result of a done op is element ELEM of its start (operand 0); a
 * tuple-shaped result would be an element of that element. recv-done's
 * (data, token): output 0 is the start's element 0, the token reads
 * nothing. */
static ii_status done(ii_ctx *c, const hlo_instr *in, int64_t id, int64_t elem, ii_indexing *out) {
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (in->shape->type != HLO_TUPLE || elem == 0) {
    if (id == 0) pass(c, in, out, 0, elem, ii_output_shape(in, 0));
  } else {
    ii_add_unknown(c, out, 0, ii_why(c, "a tuple-shaped result of an asynchronous op (a nested tuple element)"));
  }
  return II_OK;
}

ii_status ii_done0_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  return done(c, in, id, 0, out);
}

ii_status ii_done1_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  return done(c, in, id, 1, out);
}

ii_status ii_noread_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  return II_OK;
}
