/* Dispatch (indexing-semantics.md §3.0): opcode -> rule family (the
 * HLO_OPCODES table of parser/hlo_ir.h, one column per direction and
 * semantics) -> rule (the tables below), and the checks every rule relies
 * on (operand count, shapes, attribute sizes). */
#include <string.h>

#include "../parser/base/checked.h"
#include "ii_internal.h"

/* ---- the HLO_OPCODES columns ------------------------------------------------------------------- */

#define COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, col) [HLO_OP_##e] = col,
#define O2I_(e, s, kind, n, o2i, i2o, xo2i, xi2o) COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, II_FAM_##o2i)
#define I2O_(e, s, kind, n, o2i, i2o, xo2i, xi2o) COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, II_FAM_##i2o)
#define XO2I_(e, s, kind, n, o2i, i2o, xo2i, xi2o) COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, II_FAM_##xo2i)
#define XI2O_(e, s, kind, n, o2i, i2o, xo2i, xi2o) COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, II_FAM_##xi2o)
#define NOPS_(e, s, kind, n, o2i, i2o, xo2i, xi2o) COL_(e, s, kind, n, o2i, i2o, xo2i, xi2o, n)

/* HLO_OP_UNKNOWN (index 0) is II_FAM_NONE in every column. */
static const unsigned char o2i_fam[HLO_OP_COUNT] = {HLO_OPCODES(O2I_)};
static const unsigned char i2o_fam[HLO_OP_COUNT] = {HLO_OPCODES(I2O_)};
static const unsigned char xla_o2i_fam[HLO_OP_COUNT] = {HLO_OPCODES(XO2I_)};
static const unsigned char xla_i2o_fam[HLO_OP_COUNT] = {HLO_OPCODES(XI2O_)};
static const unsigned char nops[HLO_OP_COUNT] = {HLO_OPCODES(NOPS_)};
_Static_assert(II_FAM_NONE == 0, "an opcode without a row has no rule");

ii_family ii_o2i_family(hlo_opcode op, bool xla_compat) {
  if ((unsigned)op >= HLO_OP_COUNT) return II_FAM_NONE;
  return (ii_family)(xla_compat ? xla_o2i_fam[op] : o2i_fam[op]);
}

ii_family ii_i2o_family(hlo_opcode op, bool xla_compat) {
  if ((unsigned)op >= HLO_OP_COUNT) return II_FAM_NONE;
  return (ii_family)(xla_compat ? xla_i2o_fam[op] : i2o_fam[op]);
}

/* ---- family -> rule ------------------------------------------------------------------------------ */

/* No operands to index (constant, iota, parameter): no entries. */
static ii_status no_entries(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)in, (void)id, (void)err;
  ii_indexing_init(c, out, 0);
  return II_OK;
}

static const ii_rule o2i_rule[II_FAM_COUNT] = {
    [II_FAM_NOOP] = no_entries,           [II_FAM_EW] = ii_elementwise_o2i,   [II_FAM_BITCAST] = ii_bitcast_o2i,
    [II_FAM_BCAST] = ii_broadcast_o2i,    [II_FAM_CONCAT] = ii_concat_o2i,    [II_FAM_CONV] = ii_conv_o2i,
    [II_FAM_DOT] = ii_dot_o2i,            [II_FAM_SDOT] = ii_scaled_dot_o2i,  [II_FAM_DS] = ii_dynamic_slice_o2i,
    [II_FAM_DUS] = ii_dus_o2i,            [II_FAM_FUSION] = ii_fusion_o2i,    [II_FAM_GATHER] = ii_gather_o2i,
    [II_FAM_GTE] = ii_gte_o2i,            [II_FAM_PAD] = ii_pad_o2i,          [II_FAM_REDUCE] = ii_reduce_o2i,
    [II_FAM_RWIN] = ii_reduce_window_o2i, [II_FAM_RESHAPE] = ii_reshape_o2i,  [II_FAM_REVERSE] = ii_reverse_o2i,
    [II_FAM_SCAN] = ii_scan_o2i,          [II_FAM_SLICE] = ii_slice_o2i,      [II_FAM_TRANSP] = ii_transpose_o2i,
    [II_FAM_AGATHER] = ii_all_gather_o2i, [II_FAM_TUPLE] = ii_tuple_o2i,      [II_FAM_ELEM] = ii_elem_o2i,
    [II_FAM_FIRST] = ii_first_o2i,        [II_FAM_START] = ii_start_o2i,      [II_FAM_DONE0] = ii_done0_o2i,
    [II_FAM_DONE1] = ii_done1_o2i,        [II_FAM_NOREAD] = ii_noread_o2i,    [II_FAM_PAIRED] = ii_paired_o2i,
    [II_FAM_ALLGATHER] = ii_allgather_o2i, [II_FAM_RSCATTER] = ii_rscatter_o2i, [II_FAM_ALLTOALL] = ii_alltoall_o2i,
    [II_FAM_RAGGED] = ii_ragged_o2i,      [II_FAM_CALL] = ii_call_o2i,        [II_FAM_COND] = ii_cond_o2i,
    [II_FAM_WHILE] = ii_while_o2i,        [II_FAM_ASYNC] = ii_async_start_o2i, [II_FAM_SORT] = ii_sort_o2i,
    [II_FAM_TOPK] = ii_topk_o2i,          [II_FAM_FFT] = ii_fft_o2i,          [II_FAM_RNGBIT] = ii_rngbit_o2i,
    [II_FAM_CHOLESKY] = ii_cholesky_o2i,  [II_FAM_TRISOLVE] = ii_trisolve_o2i, [II_FAM_CUSTOM] = ii_custom_o2i,
    [II_FAM_SELSCAT] = ii_select_scatter_o2i, [II_FAM_SCATTER] = ii_scatter_o2i,
    [II_FAM_BCONV] = ii_bitcast_convert_o2i,
};

static const ii_rule i2o_rule[II_FAM_COUNT] = {
    [II_FAM_EW] = ii_elementwise_i2o,  [II_FAM_BITCAST] = ii_bitcast_i2o, [II_FAM_BCAST] = ii_broadcast_i2o,
    [II_FAM_CONCAT] = ii_concat_i2o,   [II_FAM_REDUCE] = ii_reduce_i2o,   [II_FAM_RESHAPE] = ii_reshape_i2o,
    [II_FAM_REVERSE] = ii_reverse_i2o, [II_FAM_SLICE] = ii_slice_i2o,     [II_FAM_TRANSP] = ii_transpose_i2o,
    [II_FAM_TUPLE] = ii_tuple_i2o,     [II_FAM_INV] = ii_invert_i2o,     [II_FAM_GATHER] = ii_gather_i2o,
    [II_FAM_DS] = ii_dynamic_slice_i2o, [II_FAM_DUS] = ii_dus_i2o,    [II_FAM_SCATTER] = ii_scatter_i2o,
    [II_FAM_BCONV] = ii_bitcast_convert_i2o,
};

/* ---- checks before a rule ------------------------------------------------------------------------ */

/* Shapes the analysis cannot index: unbounded dynamic dimensions ('?'),
 * sizes beyond II_MAX_DIM or element counts beyond int64 (checked once
 * here, so that the per-opcode rules can add and multiply sizes freely). */
static ii_status check_shape(const hlo_instr *in, const hlo_shape *s, const char *what, ii_error *err) {
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    for (int i = 0; i < s->n_elems; i++)
      if (check_shape(in, s->elems[i], what, err) != II_OK) return II_ERROR;
    return II_OK;
  }
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    if (s->unbounded && s->unbounded[i])
      return ii_fail(err, in, "'%s': %s has an unbounded dynamic dimension; indexing maps need static sizes",
                     in->name, what);
    if (s->dims[i] < 0 || s->dims[i] > II_MAX_DIM || !hb_ck_mul(n, s->dims[i] ? s->dims[i] : 1, &n))
      return ii_fail(err, in,
                     "analysis too large for '%s': %s has a dimension of %lld elements (the analysis takes up to "
                     "2^40 per dimension and 2^63-1 in all)",
                     in->name, what, (long long)s->dims[i]);
  }
  return II_OK;
}

static bool big(int64_t v) { return v > II_MAX_DIM || v < -II_MAX_DIM; }

static ii_status check_attrs(const hlo_instr *in, ii_error *err) {
  bool bad = big(in->cold->ext->feature_group_count) || big(in->cold->ext->batch_group_count);
  for (int i = 0; i < in->cold->ext->n_slice; i++)
    bad |=
        big(in->cold->ext->slice[i].start) || big(in->cold->ext->slice[i].limit) || big(in->cold->ext->slice[i].stride);
  for (int i = 0; i < in->cold->ext->n_padding; i++)
    bad |= big(in->cold->ext->padding[i].lo) || big(in->cold->ext->padding[i].hi) ||
           big(in->cold->ext->padding[i].interior);
  for (int i = 0; i < in->cold->ext->n_window; i++) {
    const hlo_window_dim *w = &in->cold->ext->window[i];
    bad |= big(w->size) || big(w->stride) || big(w->pad_lo) || big(w->pad_hi) || big(w->lhs_dilate) ||
           big(w->rhs_dilate);
  }
  for (int i = 0; i < in->cold->ext->dynamic_slice_sizes.n; i++) bad |= big(in->cold->ext->dynamic_slice_sizes.v[i]);
  if (in->cold->ext->gather)
    for (int i = 0; i < in->cold->ext->gather->slice_sizes.n; i++) bad |= big(in->cold->ext->gather->slice_sizes.v[i]);
  if (bad)
    return ii_fail(err, in, "analysis too large for '%s': an attribute value is beyond +-2^40", in->name);
  return II_OK;
}

static ii_status check_shapes(const hlo_instr *in, ii_error *err) {
  int need = nops[in->op];
  if (in->n_operands < need)
    return ii_fail(err, in, "%s '%s' needs at least %d operand%s, it has %d", hlo_instr_opcode_text(in), in->name, need,
                   need == 1 ? "" : "s", in->n_operands);
  if (check_shape(in, in->shape, "its result", err) != II_OK) return II_ERROR;
  for (int k = 0; k < in->n_operands; k++)
    if (check_shape(in, in->operands[k]->shape, "an operand", err) != II_OK) return II_ERROR;
  return check_attrs(in, err);
}

/* ---- dispatch ------------------------------------------------------------------------------------ */

/* At most this many operands and no tuple: checking the instruction
 * again costs no more than looking it up (a memo entry for each of the
 * 20,000 instructions of a fusion took 0.8 MB). */
#define CHECK_AGAIN_MAX_OPERANDS 8

static bool cheap_to_check(const hlo_instr *in) {
  if (in->n_operands > CHECK_AGAIN_MAX_OPERANDS || !ii_is_array(in->shape)) return false;
  for (int k = 0; k < in->n_operands; k++)
    if (!ii_is_array(in->operands[k]->shape)) return false;
  return true;
}

/* The checks every rule relies on, once per instruction that is not
 * cheap_to_check (a tuple of N elements checked for each of its N outputs
 * would be quadratic). */
static ii_status checked(ii_ctx *c, const hlo_instr *in, ii_error *err) {
  if (cheap_to_check(in)) return check_shapes(in, err);
  if (hb_ptrmap_get(&c->checked, in)) return II_OK;
  if (check_shapes(in, err) != II_OK) return II_ERROR;
  if (ii_in_module(in)) hb_ptrmap_put(&c->checked, in, (hb_ptrmap_val){1, 0});
  return II_OK;
}

/* An opcode without a rule gets `unknown indexing` for every entry,
 * whatever its shapes (as XLA). */
static ii_status run(ii_ctx *c, ii_rule rule, const hlo_instr *in, int64_t id, uint32_t nunknown, ii_indexing *out,
                     ii_error *err) {
  memset(out, 0, sizeof *out);
  if (!rule) {
    ii_unknown_why(c, out, nunknown, ii_why(c, "no indexing rule for %s", hlo_instr_opcode_text(in)));
    return II_OK;
  }
  if (checked(c, in, err) != II_OK) return II_ERROR;
  return rule(c, in, id, out, err);
}

/* The families whose out2in entries are computed alone (ii_o2i_part). */
static const ii_part_rule o2i_part_rule[II_FAM_COUNT] = {[II_FAM_CONCAT] = ii_concat_o2i_part};

ii_part_rule ii_o2i_part_rule(ii_ctx *c, const hlo_instr *in) {
  return o2i_part_rule[ii_o2i_family(in->op, c->xla_compat)];
}

ii_status ii_o2i_part_logical(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi,
                              ii_indexing *out, ii_error *err) {
  memset(out, 0, sizeof *out);
  ii_part_rule rule = ii_o2i_part_rule(c, in);
  if (!rule) { /* a fusion in parts (ii_fusion_in_parts) */
    bool parted;
    ii_status st = ii_o2i_range_logical(c, in, id, lo, hi, out, &parted, err);
    if (parted || st != II_OK) return st;
  }
  if (!rule || lo > hi || hi > (uint32_t)in->n_operands)
    return ii_fail(err, in, "internal error: '%s' has no out2in entries [%u, %u) of their own", in->name, lo, hi);
  if (checked(c, in, err) != II_OK) return II_ERROR;
  return rule(c, in, id, lo, hi, out, err);
}

ii_status ii_o2i_range_logical(ii_ctx *c, const hlo_instr *in, int64_t id, uint32_t lo, uint32_t hi,
                               ii_indexing *out, bool *parted, ii_error *err) {
  memset(out, 0, sizeof *out);
  *parted = false;
  if (ii_o2i_family(in->op, c->xla_compat) != II_FAM_FUSION) return II_OK;
  if (checked(c, in, err) != II_OK) return II_ERROR;
  return ii_fusion_o2i_range(c, in, id, lo, hi, out, parted, err);
}

ii_status ii_o2i_logical(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  ii_rule rule = o2i_rule[ii_o2i_family(in->op, c->xla_compat)];
  return run(c, rule, in, output_id, (uint32_t)in->n_operands, out, err);
}

ii_status ii_i2o_logical(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  ii_rule rule = i2o_rule[ii_i2o_family(in->op, c->xla_compat)];
  return run(c, rule, in, input_id, (uint32_t)ii_num_outputs(in), out, err);
}
