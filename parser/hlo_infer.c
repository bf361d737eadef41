/* Result shapes of instructions written without one (§5.3). XLA infers
 * them for a list of opcodes; this covers the ones whose result follows
 * from the operands and attributes alone, and reports the others. */
#include <stdio.h>
#include <string.h>

#include "base/checked.h"
#include "parse_ctx.h"

static hlo_shape *new_array(parse_ctx *P, hlo_elem_type t, int rank, const int64_t *dims) {
  hlo_shape *s = hb_arena_zalloc(P->a, sizeof *s);
  s->type = t;
  s->rank = rank;
  int64_t *d = hb_arena_array(P->a, (size_t)rank, sizeof *d);
  if (rank) memcpy(d, dims, (size_t)rank * sizeof *d);
  s->dims = d;
  bool *z = hb_arena_zalloc(P->a, (size_t)(rank ? rank : 1));
  s->dynamic = z;
  s->unbounded = z;
  pc_default_layout(P, s);
  return s;
}

static hlo_shape *new_tuple(parse_ctx *P, int n) {
  hlo_shape *s = hb_arena_zalloc(P->a, sizeof *s);
  s->type = HLO_TUPLE;
  s->n_elems = n;
  s->elems = hb_arena_array(P->a, (size_t)n, sizeof *s->elems);
  static const bool z[1];
  s->dynamic = z;
  s->unbounded = z;
  return s;
}

static bool is_array(const hlo_shape *s) { return s && hlo_elem_type_is_array(s->type); }

static int cannot(parse_ctx *P, const hlo_instr *in, const char *why) {
  return pc_error(P, in->offset, "cannot infer the result shape of '%s' (%s)%s%s; write the shape", in->name,
                  hlo_instr_opcode_text(in), why ? ": " : "", why ? why : "");
}

static const hlo_shape *infer(parse_ctx *P, hlo_instr *in) {
  hlo_opcode op = in->op;
  int n = in->n_operands;
  for (int i = 0; i < n; i++)
    if (!in->operands[i]->shape) {
      cannot(P, in, "an operand has no known shape");
      return NULL;
    }
  const hlo_shape *s0 = n > 0 ? in->operands[0]->shape : NULL;
  if (hlo_opcode_is_elementwise_unary(op) && op != HLO_OP_CONVERT && n == 1) {
    if (op == HLO_OP_IS_FINITE) return pc_shape_clone_with_type(P, s0, HLO_PRED);
    if ((op == HLO_OP_REAL || op == HLO_OP_IMAG || op == HLO_OP_ABS) && hlo_elem_type_is_complex(s0->type))
      return pc_shape_clone_with_type(P, s0, s0->type == HLO_C64 ? HLO_F32 : HLO_F64);
    return s0;
  }
  if (hlo_opcode_is_elementwise_binary(op) && n == 2) {
    const hlo_shape *s = s0->rank >= in->operands[1]->shape->rank ? s0 : in->operands[1]->shape;
    if (op == HLO_OP_COMPARE) return pc_shape_clone_with_type(P, s, HLO_PRED);
    if (op == HLO_OP_COMPLEX) return pc_shape_clone_with_type(P, s, s->type == HLO_F64 ? HLO_C128 : HLO_C64);
    return s;
  }
  switch (op) {
  case HLO_OP_SELECT: case HLO_OP_CLAMP:
    if (n == 3) return in->operands[1]->shape;
    break;
  case HLO_OP_TUPLE: {
    hlo_shape *t = new_tuple(P, n);
    for (int i = 0; i < n; i++) ((const hlo_shape **)t->elems)[i] = in->operands[i]->shape;
    return t;
  }
  case HLO_OP_GET_TUPLE_ELEMENT:
    if (n == 1 && s0->type == HLO_TUPLE && in->cold->has_tuple_index && in->cold->tuple_index < s0->n_elems)
      return s0->elems[in->cold->tuple_index];
    break;
  case HLO_OP_WHILE: case HLO_OP_OPT_BARRIER: case HLO_OP_ADD_DEPENDENCY:
    if (n >= 1) return s0;
    break;
  case HLO_OP_AFTER_ALL: return pc_default_scalar(P, HLO_TOKEN);
  case HLO_OP_PARTITION_ID: case HLO_OP_REPLICA_ID: return pc_default_scalar(P, HLO_U32);
  case HLO_OP_GET_DIMENSION_SIZE: return pc_default_scalar(P, HLO_S32);
  case HLO_OP_CALL: case HLO_OP_CONDITIONAL:
    for (int i = 0; i < in->cold->n_called; i++)
      if (in->cold->called[i] && in->cold->called[i]->root->shape) return in->cold->called[i]->root->shape;
    break;
  case HLO_OP_SORT:
    if (n == 1) return s0;
    if (n > 1) {
      hlo_shape *t = new_tuple(P, n);
      for (int i = 0; i < n; i++) ((const hlo_shape **)t->elems)[i] = in->operands[i]->shape;
      return t;
    }
    break;
  case HLO_OP_MAP:
    if (n >= 1 && is_array(s0) && in->cold->n_called == 1 && in->cold->called[0] && in->cold->called[0]->root->shape &&
        is_array(in->cold->called[0]->root->shape))
      return pc_shape_clone_with_type(P, s0, in->cold->called[0]->root->shape->type);
    break;
  case HLO_OP_TRANSPOSE:
    if (n == 1 && is_array(s0) && in->cold->has_dimensions && in->cold->dimensions.n == s0->rank) {
      int64_t d[HLO_MAX_RANK];
      for (int i = 0; i < s0->rank; i++) {
        if (in->cold->dimensions.v[i] < 0 || in->cold->dimensions.v[i] >= s0->rank)
          return cannot(P, in, "bad dimensions"), NULL;
        d[i] = s0->dims[in->cold->dimensions.v[i]];
      }
      return new_array(P, s0->type, s0->rank, d);
    }
    break;
  case HLO_OP_REVERSE: case HLO_OP_COPY:
    if (n == 1) return s0;
    break;
  case HLO_OP_CONCATENATE:
    if (n >= 1 && is_array(s0) && in->cold->has_dimensions && in->cold->dimensions.n == 1 &&
        in->cold->dimensions.v[0] < s0->rank) {
      int64_t d[HLO_MAX_RANK];
      memcpy(d, s0->dims, (size_t)s0->rank * sizeof *d);
      int64_t k = in->cold->dimensions.v[0];
      for (int i = 1; i < n; i++) {
        const hlo_shape *s = in->operands[i]->shape;
        if (!is_array(s) || s->rank != s0->rank) return cannot(P, in, "operand ranks differ"), NULL;
        if (!hb_ck_add(d[k], s->dims[k], &d[k])) return cannot(P, in, "the size overflows"), NULL;
      }
      return new_array(P, s0->type, s0->rank, d);
    }
    break;
  case HLO_OP_PAD:
    if (n == 2 && is_array(s0) && in->cold->ext->has_padding && in->cold->ext->n_padding == s0->rank) {
      int64_t d[HLO_MAX_RANK];
      for (int i = 0; i < s0->rank; i++) {
        const hlo_pad_dim *pd = &in->cold->ext->padding[i];
        if (!hb_ck_pad_size(s0->dims[i], pd->lo, pd->hi, pd->interior, &d[i]))
          return cannot(P, in, "the size overflows"), NULL;
        if (d[i] < 0) return cannot(P, in, "negative padded size"), NULL;
      }
      return new_array(P, s0->type, s0->rank, d);
    }
    break;
  case HLO_OP_REDUCE:
    if (n == 2 && is_array(s0) && in->cold->has_dimensions && in->cold->dimensions.n <= s0->rank) {
      int64_t d[HLO_MAX_RANK];
      int r = 0;
      for (int i = 0; i < s0->rank; i++) {
        bool red = false;
        for (int j = 0; j < in->cold->dimensions.n; j++) red |= in->cold->dimensions.v[j] == i;
        if (!red) d[r++] = s0->dims[i];
      }
      return new_array(P, in->operands[1]->shape->type, r, d);
    }
    break;
  case HLO_OP_DOT:
    if (n == 2 && is_array(s0) && is_array(in->operands[1]->shape) && in->cold->ext->dot) {
      const hlo_shape *s1 = in->operands[1]->shape;
      const hlo_dot_dims *dd = in->cold->ext->dot;
      if (dd->lhs_batch.n > s0->rank || dd->lhs_contracting.n > s0->rank || dd->rhs_batch.n > s1->rank ||
          dd->rhs_contracting.n > s1->rank)
        return cannot(P, in, "bad dot dimensions"), NULL;
      int64_t d[2 * HLO_MAX_RANK];
      int r = 0;
      for (int i = 0; i < dd->lhs_batch.n; i++) {
        if (dd->lhs_batch.v[i] >= s0->rank) return cannot(P, in, "bad lhs_batch_dims"), NULL;
        d[r++] = s0->dims[dd->lhs_batch.v[i]];
      }
      for (int pass = 0; pass < 2; pass++) {
        const hlo_shape *s = pass ? s1 : s0;
        hlo_ints b = pass ? dd->rhs_batch : dd->lhs_batch, c = pass ? dd->rhs_contracting : dd->lhs_contracting;
        for (int i = 0; i < s->rank; i++) {
          bool skip = false;
          for (int j = 0; j < b.n; j++) skip |= b.v[j] == i;
          for (int j = 0; j < c.n; j++) skip |= c.v[j] == i;
          if (!skip) d[r++] = s->dims[i];
        }
      }
      return new_array(P, s0->type, r, d);
    }
    break;
  default:
    break;
  }
  cannot(P, in, NULL);
  return NULL;
}

int pc_infer_shapes(parse_ctx *P, hlo_module *m) {
  for (int c = 0; c < m->n_computations; c++) {
    hlo_computation *comp = m->computations[c];
    for (int i = 0; i < comp->n_instrs; i++) {
      hlo_instr *in = comp->instrs[i];
      if (in->shape) continue;
      in->shape = infer(P, in);
      if (!in->shape) return -1;
    }
  }
  return 0;
}
