/* Custom-calls whose semantics are public and fixed (hloidx's semantics;
 * XLA has no rule for any). By custom_call_target:
 *
 *   Sharding, SPMDFullToShardShape, SPMDShardToFullShape: the sharding
 *     markers. Where the result has the operand's dims, the identity. A
 *     shard of the full value (SPMDFullToShardShape) reads element
 *     d + s * shard along each dimension the shard is smaller in, s this
 *     device's shard (a range variable); the full value rebuilt from shards
 *     (SPMDShardToFullShape) reads element d mod shard of the shard of
 *     device d floordiv shard (the replica-id map, when one dimension is
 *     split);
 *   __cublas$gemm, __cublas$lt$matmul: a dot with backend_config's
 *     dot_dimension_numbers (the result, or output 0 of a (result,
 *     workspace) tuple; the workspace reads nothing); a third operand is
 *     the addend C (beta != 0), read element for element;
 *   __cudnn$convForward, __cudnn$convBiasActivationForward: a convolution
 *     with the call's window, dim_labels and feature_group_count (output 0
 *     of (result, scratch)); the bias (operand 2) is read at the output
 *     feature, the side input (operand 3) element for element.
 *
 * Any other target is unknown, its name in the reason. */
#include <string.h>

#include "ii_internal.h"

static bool target_is(const hlo_instr *in, const char *t) {
  return in->cold->ext->custom_call_target && strcmp(in->cold->ext->custom_call_target, t) == 0;
}

static void all_unknown(ii_ctx *c, const hlo_instr *in, ii_indexing *out, const char *why) {
  for (int k = 0; k < in->n_operands; k++) ii_add_unknown(c, out, (uint32_t)k, why);
}

/* The call as another op: same operands (the first N) and attributes,
 * output O. In the scratch arena, so that an error may point to it. */
static hlo_instr *as_op(ii_ctx *c, const hlo_instr *in, hlo_opcode op, const hlo_shape *o, int n) {
  hlo_instr *w = hb_arena_alloc(c->scratch, sizeof *w);
  hlo_instr_cold *wc = hb_arena_dup(c->scratch, in->cold, sizeof *wc);
  wc->opcode_text = NULL; /* (OP's name) */
  *w = *in;
  w->op = op;
  w->cold = wc;
  w->shape = o;
  w->n_operands = n;
  return w;
}

static ii_status sharding(ii_ctx *c, const hlo_instr *in, ii_indexing *out) {
  if (in->n_operands != 1) {
    all_unknown(c, in, out, ii_why(c, "custom-call %s with %d operands, not one", in->cold->ext->custom_call_target,
                                   in->n_operands));
    return II_OK;
  }
  const hlo_shape *x = in->operands[0]->shape, *o = in->shape;
  if (!ii_is_array(x) || !ii_is_array(o) || x->rank != o->rank) {
    all_unknown(c, in, out, ii_why(c, "custom-call %s whose operand and result differ in rank",
                                   in->cold->ext->custom_call_target));
    return II_OK;
  }
  bool to_shard = target_is(in, "SPMDFullToShardShape");
  uint32_t r = ii_rank(o), nsplit = 0, nr = 0;
  int64_t *sizes = hb_arena_array(c->scratch, r ? r : 1, sizeof *sizes);
  const ae **res = ii_exprs(c, r), *rep = NULL;
  for (uint32_t i = 0; i < r; i++) {
    int64_t full = to_shard ? x->dims[i] : o->dims[i], shard = to_shard ? o->dims[i] : x->dims[i];
    res[i] = D(c, i);
    if (full == shard) continue;
    if (shard == 0 || full % shard || target_is(in, "Sharding")) {
      all_unknown(c, in, out,
                  ii_why(c, "custom-call %s whose sizes are not whole shards", in->cold->ext->custom_call_target));
      return II_OK;
    }
    nsplit++;
    if (to_shard) {
      sizes[nr] = full / shard;
      res[i] = ae_add(c->ae, D(c, i), ae_mul_const(c->ae, S(c, nr++), shard));
    } else {
      res[i] = ae_mod_const(c->ae, D(c, i), shard);
      rep = ae_floordiv_const(c->ae, D(c, i), shard);
    }
  }
  ii_operand *m = ii_wrap(c, ii_map(c, r, ii_dims(o), nr, sizes, r, res));
  if (rep && nsplit == 1) m->replica = ii_map(c, r, ii_dims(o), 0, NULL, 1, &rep);
  ii_set_insert(c, &out->sets[0], m);
  return II_OK;
}

/* Output 0 of a (result, scratch) tuple, or the result. */
static const hlo_shape *result_of(const hlo_instr *in) {
  return in->shape->type == HLO_TUPLE ? (in->shape->n_elems ? in->shape->elems[0] : NULL) : in->shape;
}

static ii_status gemm(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *o = result_of(in);
  int64_t v[4][16];
  int n[4];
  static const char *const keys[4] = {"lhs_batch_dimensions", "rhs_batch_dimensions", "lhs_contracting_dimensions",
                                      "rhs_contracting_dimensions"};
  for (int t = 0; t < 4; t++) n[t] = ii_backend_ints(in, keys[t], v[t], 16);
  if (!o || in->n_operands < 2 || in->n_operands > 3 || n[0] < 0 || n[1] < 0 || n[2] < 0 || n[3] < 0) {
    all_unknown(c, in, out, ii_why(c, "custom-call %s without two or three operands and dot_dimension_numbers in "
                                      "its backend_config", in->cold->ext->custom_call_target));
    return II_OK;
  }
  if (id != 0) return II_OK; /* the workspace */
  hlo_dot_dims *dd = hb_arena_zalloc(c->scratch, sizeof *dd);
  hlo_ints *lists[4] = {&dd->lhs_batch, &dd->rhs_batch, &dd->lhs_contracting, &dd->rhs_contracting};
  for (int t = 0; t < 4; t++) {
    lists[t]->n = n[t];
    lists[t]->v = hb_arena_dup(c->scratch, v[t], (size_t)(n[t] ? n[t] : 1) * sizeof *v[t]);
  }
  hlo_instr_ext *ext = hb_arena_dup(c->scratch, in->cold->ext, sizeof *ext);
  ext->dot = dd;
  hlo_instr *w = as_op(c, in, HLO_OP_DOT, o, 2);
  ((hlo_instr_cold *)w->cold)->ext = ext; /* (as_op's own copy) */
  ii_indexing dot;
  ii_status st = ii_dot_o2i(c, w, 0, &dot, err);
  if (st != II_OK) return st;
  out->sets[0] = *ii_entry(&dot, 0);
  out->sets[1] = *ii_entry(&dot, 1);
  double beta = 0;
  if (in->n_operands == 3) {
    if (ii_backend_number(in, "beta", &beta) && beta == 0) return II_OK; /* C is not read */
    if (ii_same_dims(in->operands[2]->shape, o)) ii_add(c, out, 2, ii_identity(c, o));
    else ii_add_unknown(c, out, 2, ii_why(c, "a gemm addend of another shape than the result"));
  }
  return II_OK;
}

static ii_status conv(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *o = result_of(in);
  bool bias = target_is(in, "__cudnn$convBiasActivationForward");
  const hlo_conv_dims *cd = in->cold->ext->conv_dims;
  if (!o || !cd || in->n_operands < 2 || in->n_operands > (bias ? 4 : 2)) {
    all_unknown(c, in, out, ii_why(c, "custom-call %s without dim_labels or with unexpected operands",
                                   in->cold->ext->custom_call_target));
    return II_OK;
  }
  if (id != 0) return II_OK; /* the scratch buffer */
  ii_indexing cv;
  ii_status st = ii_conv_o2i(c, as_op(c, in, HLO_OP_CONVOLUTION, o, 2), 0, &cv, err);
  if (st != II_OK) return st;
  out->sets[0] = *ii_entry(&cv, 0);
  out->sets[1] = *ii_entry(&cv, 1);
  uint32_t r = ii_rank(o);
  if (in->n_operands > 2) {
    const hlo_shape *b = in->operands[2]->shape;
    if (ii_rank(b) == 1 && b->dims[0] == o->dims[cd->output_feature]) {
      const ae *f = D(c, (uint32_t)cd->output_feature);
      ii_add(c, out, 2, ii_map(c, r, ii_dims(o), 0, NULL, 1, &f));
    } else {
      ii_add_unknown(c, out, 2, ii_why(c, "a convolution bias that is not one value per output feature"));
    }
  }
  if (in->n_operands > 3) {
    if (ii_same_dims(in->operands[3]->shape, o)) ii_add(c, out, 3, ii_identity(c, o));
    else ii_add_unknown(c, out, 3, ii_why(c, "a convolution side input of another shape than the result"));
  }
  return II_OK;
}

ii_status ii_custom_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  const char *t = in->cold->ext->custom_call_target;
  if (!t) {
    all_unknown(c, in, out, ii_why(c, "a custom-call without custom_call_target"));
    return II_OK;
  }
  if (!strcmp(t, "Sharding") || !strcmp(t, "SPMDFullToShardShape") || !strcmp(t, "SPMDShardToFullShape"))
    return sharding(c, in, out);
  if (!strcmp(t, "__cublas$gemm") || !strcmp(t, "__cublas$lt$matmul")) return gemm(c, in, id, out, err);
  if (!strcmp(t, "__cudnn$convForward") || !strcmp(t, "__cudnn$convBiasActivationForward"))
    return conv(c, in, id, out, err);
  /* the target quoted as printable ASCII: its bytes come from the input
   * as they are (a truncated UTF-8 sequence would make the output invalid
   * text), and targets are ASCII names */
  char name[128];
  size_t n = 0;
  for (; t[n] && n < sizeof name - 1; n++) name[n] = t[n] >= 0x20 && t[n] < 0x7f ? t[n] : '?';
  name[n] = '\0';
  all_unknown(c, in, out, ii_why(c, "custom-call target '%s%s' has no known semantics", name, t[n] ? "..." : ""));
  return II_OK;
}
