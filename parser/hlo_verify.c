/* Semantic checks of a parsed module (§9.5 and per-opcode rules that the
 * analysis relies on): operand counts, shapes of the data-movement ops,
 * parameters, called computations, conditionals, async chains, ...
 * Each problem is reported at the offending instruction. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hlo_ir.h"

typedef struct vctx {
  const hlo_module *m;
  hlo_error *err;
} vctx;

static int fail(vctx *V, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(vctx *V, size_t off, const char *fmt, ...) {
  V->err->offset = off;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(V->err->message, sizeof V->err->message, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *fmt_shape(const hlo_shape *s, char *buf, size_t cap) {
  hlo_shape_format(s, buf, cap);
  return buf;
}

static const char *fmt_ints(const hlo_ints *l, char *buf, size_t cap) {
  size_t w = (size_t)snprintf(buf, cap, "{");
  for (int i = 0; i < l->n && w < cap; i++)
    w += (size_t)snprintf(buf + w, cap - w, "%s%lld", i ? "," : "", (long long)l->v[i]);
  if (w < cap) snprintf(buf + w, cap - w, "}");
  return buf;
}

static bool is_array(const hlo_shape *s) { return hlo_elem_type_is_array(s->type); }

/* dims equal, treating unbounded dims as wildcards */
static bool same_dim(const hlo_shape *a, int i, const hlo_shape *b, int j) {
  if (a->unbounded[i] || b->unbounded[j]) return true;
  return a->dims[i] == b->dims[j];
}

static bool same_dims(const hlo_shape *a, const hlo_shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (!same_dim(a, i, b, i)) return false;
  return true;
}

#define SH(s) fmt_shape((s), sa, sizeof sa)
#define SH2(s) fmt_shape((s), sb, sizeof sb)

static int arity(vctx *V, const hlo_instr *in, int lo, int hi) {
  int n = in->n_operands;
  if (n >= lo && (hi < 0 || n <= hi)) return 0;
  if (lo == hi)
    return fail(V, in->offset, "%s '%s' expects %d operand%s, but has %d", in->opcode_text, in->name, lo,
                lo == 1 ? "" : "s", n);
  if (hi < 0)
    return fail(V, in->offset, "%s '%s' expects at least %d operands, but has %d", in->opcode_text, in->name, lo, n);
  return fail(V, in->offset, "%s '%s' expects %d to %d operands, but has %d", in->opcode_text, in->name, lo, hi, n);
}

static int need_arrays(vctx *V, const hlo_instr *in) {
  char sa[200];
  if (!is_array(in->shape) || in->shape->type == HLO_TOKEN || in->shape->type == HLO_OPAQUE)
    return fail(V, in->offset, "%s '%s' must have an array shape, not %s", in->opcode_text, in->name, SH(in->shape));
  for (int i = 0; i < in->n_operands; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    if (!is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE)
      return fail(V, in->offset, "operand %d of %s '%s' must be an array, not %s", i, in->opcode_text, in->name, SH(s));
  }
  return 0;
}

static int check_dims_list(vctx *V, const hlo_instr *in, const hlo_ints *l, int rank, const char *what, bool unique) {
  char b[128];
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= rank)
      return fail(V, in->offset, "%s '%s': %s=%s has dimension %lld, but the rank is %d", in->opcode_text, in->name,
                  what, fmt_ints(l, b, sizeof b), (long long)l->v[i], rank);
    if (unique)
      for (int j = 0; j < i; j++)
        if (l->v[j] == l->v[i])
          return fail(V, in->offset, "%s '%s': %s=%s repeats dimension %lld", in->opcode_text, in->name, what,
                      fmt_ints(l, b, sizeof b), (long long)l->v[i]);
  }
  return 0;
}

static int result_dims(vctx *V, const hlo_instr *in, const int64_t *want, int rank) {
  const hlo_shape *r = in->shape;
  char sa[200];
  bool ok = r->rank == rank;
  for (int i = 0; ok && i < rank; i++) ok = r->unbounded[i] || want[i] < 0 || r->dims[i] == want[i];
  if (ok) return 0;
  char buf[200];
  size_t w = (size_t)snprintf(buf, sizeof buf, "[");
  for (int i = 0; i < rank && w < sizeof buf; i++)
    w += (size_t)snprintf(buf + w, sizeof buf - w, "%s%lld", i ? "," : "", (long long)want[i]);
  if (w < sizeof buf) snprintf(buf + w, sizeof buf - w, "]");
  return fail(V, in->offset, "%s '%s' has shape %s, but its operands and attributes give dimensions %s",
              in->opcode_text, in->name, SH(r), buf);
}

static int elementwise(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  if (need_arrays(V, in) < 0) return -1;
  const hlo_shape *r = in->shape;
  for (int i = 0; i < in->n_operands; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    bool scalar_ok = (in->op == HLO_OP_CLAMP && i != 1) || (in->op == HLO_OP_SELECT && i == 0);
    if (scalar_ok && s->rank == 0) continue;
    if (!same_dims(s, r))
      return fail(V, in->offset, "%s '%s': operand %d has shape %s, incompatible with the result shape %s",
                  in->opcode_text, in->name, i, SH(s), SH2(r));
  }
  return 0;
}

static int check_broadcast(vctx *V, const hlo_instr *in) {
  char sa[200], b[128];
  const hlo_shape *o = in->operands[0]->shape, *r = in->shape;
  static const int64_t none[1] = {0};
  hlo_ints dims = in->has_dimensions ? in->dimensions : (hlo_ints){0, none};
  if (dims.n != o->rank) {
    if (!in->has_dimensions)
      return fail(V, in->offset, "broadcast '%s' of an operand of shape %s requires dimensions= with %d entries",
                  in->name, SH(o), o->rank);
    return fail(V, in->offset, "broadcast '%s': dimensions=%s has %d entries, but the operand %s has rank %d", in->name,
                fmt_ints(&dims, b, sizeof b), dims.n, SH(o), o->rank);
  }
  if (check_dims_list(V, in, &dims, r->rank, "dimensions", true) < 0) return -1;
  for (int i = 0; i < dims.n; i++)
    if (!same_dim(o, i, r, (int)dims.v[i]))
      return fail(V, in->offset, "broadcast '%s': operand dimension %d (size %lld) does not match result dimension %lld (size %lld)",
                  in->name, i, (long long)o->dims[i], (long long)dims.v[i], (long long)r->dims[dims.v[i]]);
  return 0;
}

static int check_transpose(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char b[128];
  if (in->dimensions.n != o->rank)
    return fail(V, in->offset, "transpose '%s': dimensions=%s must be a permutation of the operand's %d dimensions",
                in->name, fmt_ints(&in->dimensions, b, sizeof b), o->rank);
  if (check_dims_list(V, in, &in->dimensions, o->rank, "dimensions", true) < 0) return -1;
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) want[i] = o->unbounded[in->dimensions.v[i]] ? -1 : o->dims[in->dimensions.v[i]];
  return result_dims(V, in, want, o->rank);
}

static int check_slice(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  if (in->n_slice != o->rank)
    return fail(V, in->offset, "slice '%s' has %d ranges, but the operand has rank %d", in->name, in->n_slice, o->rank);
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) {
    const hlo_slice_dim *d = &in->slice[i];
    if (d->start > d->limit || (!o->unbounded[i] && d->limit > o->dims[i]))
      return fail(V, in->offset, "slice '%s': range [%lld:%lld] is out of bounds for dimension %d of size %lld",
                  in->name, (long long)d->start, (long long)d->limit, i, (long long)o->dims[i]);
    want[i] = (d->limit - d->start + d->stride - 1) / d->stride;
  }
  return result_dims(V, in, want, o->rank);
}

static int check_pad(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char sa[200];
  if (in->operands[1]->shape->rank != 0)
    return fail(V, in->offset, "pad '%s': the padding value must be a scalar, not %s", in->name,
                SH(in->operands[1]->shape));
  if (in->n_padding != o->rank)
    return fail(V, in->offset, "pad '%s' has padding for %d dimensions, but the operand has rank %d", in->name,
                in->n_padding, o->rank);
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) {
    const hlo_pad_dim *p = &in->padding[i];
    int64_t n = o->dims[i];
    want[i] = o->unbounded[i] ? -1 : p->lo + p->hi + n + (n > 0 ? (n - 1) * p->interior : 0);
    if (!o->unbounded[i] && want[i] < 0)
      return fail(V, in->offset, "pad '%s': dimension %d would have negative size %lld", in->name, i,
                  (long long)want[i]);
  }
  return result_dims(V, in, want, o->rank);
}

static int check_concatenate(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200], b[64];
  if (in->dimensions.n != 1)
    return fail(V, in->offset, "concatenate '%s' needs exactly one dimension, found dimensions=%s", in->name,
                fmt_ints(&in->dimensions, b, sizeof b));
  const hlo_shape *o = in->operands[0]->shape;
  int64_t d = in->dimensions.v[0];
  if (d < 0 || d >= o->rank)
    return fail(V, in->offset, "concatenate '%s': dimension %lld is out of range for rank %d", in->name, (long long)d,
                o->rank);
  int64_t want[HLO_MAX_RANK];
  memcpy(want, o->dims, (size_t)o->rank * sizeof *want);
  for (int i = 1; i < in->n_operands; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    bool ok = s->rank == o->rank;
    for (int j = 0; ok && j < o->rank; j++) ok = j == d || same_dim(s, j, o, j);
    if (!ok)
      return fail(V, in->offset, "concatenate '%s': operand %d has shape %s, incompatible with operand 0 %s along dimension %lld",
                  in->name, i, SH(s), SH2(o), (long long)d);
    want[d] += s->dims[d];
  }
  return result_dims(V, in, want, o->rank);
}

static int check_reduce(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  int n = in->n_operands;
  if (n % 2 != 0)
    return fail(V, in->offset, "%s '%s' needs an even number of operands (inputs, then init values), but has %d",
                in->opcode_text, in->name, n);
  int k = n / 2;
  const hlo_shape *o = in->operands[0]->shape;
  for (int i = 0; i < k; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    if (!is_array(s)) return fail(V, in->offset, "%s '%s': input %d must be an array", in->opcode_text, in->name, i);
    if (!same_dims(s, o))
      return fail(V, in->offset, "%s '%s': input %d has shape %s, but input 0 has %s", in->opcode_text, in->name, i,
                  SH(s), SH2(o));
    const hlo_shape *init = in->operands[k + i]->shape;
    if (!is_array(init) || init->rank != 0)
      return fail(V, in->offset, "%s '%s': init value %d must be a scalar, not %s", in->opcode_text, in->name, i,
                  SH(init));
  }
  if (in->op == HLO_OP_REDUCE_WINDOW) {
    if (in->has_window && in->n_window != o->rank)
      return fail(V, in->offset, "reduce-window '%s': the window has %d dimensions, but the operand has rank %d",
                  in->name, in->n_window, o->rank);
    return 0;
  }
  if (check_dims_list(V, in, &in->dimensions, o->rank, "dimensions", true) < 0) return -1;
  int64_t want[HLO_MAX_RANK];
  int r = 0;
  for (int i = 0; i < o->rank; i++) {
    bool red = false;
    for (int j = 0; j < in->dimensions.n; j++) red |= in->dimensions.v[j] == i;
    if (!red) want[r++] = o->unbounded[i] ? -1 : o->dims[i];
  }
  if (k == 1) {
    if (!is_array(in->shape))
      return fail(V, in->offset, "reduce '%s' of one input must have an array shape, not %s", in->name, SH(in->shape));
    return result_dims(V, in, want, r);
  }
  if (in->shape->type != HLO_TUPLE || in->shape->n_elems != k)
    return fail(V, in->offset, "reduce '%s' of %d inputs must have a tuple shape of %d arrays, not %s", in->name, k, k,
                SH(in->shape));
  for (int i = 0; i < k; i++) {
    const hlo_shape *e = in->shape->elems[i];
    bool ok = is_array(e) && e->rank == r;
    for (int j = 0; ok && j < r; j++) ok = e->unbounded[j] || want[j] < 0 || e->dims[j] == want[j];
    if (!ok)
      return fail(V, in->offset, "reduce '%s': result element %d has shape %s, which does not match the reduced input",
                  in->name, i, SH(e));
  }
  return 0;
}

static int check_dot(vctx *V, const hlo_instr *in) {
  const hlo_shape *a = in->operands[0]->shape, *b = in->operands[1]->shape;
  const hlo_dot_dims *d = in->dot;
  char l1[96], l2[96];
  if (check_dims_list(V, in, &d->lhs_batch, a->rank, "lhs_batch_dims", true) < 0 ||
      check_dims_list(V, in, &d->rhs_batch, b->rank, "rhs_batch_dims", true) < 0 ||
      check_dims_list(V, in, &d->lhs_contracting, a->rank, "lhs_contracting_dims", true) < 0 ||
      check_dims_list(V, in, &d->rhs_contracting, b->rank, "rhs_contracting_dims", true) < 0)
    return -1;
  if (d->lhs_batch.n != d->rhs_batch.n)
    return fail(V, in->offset, "dot '%s': lhs_batch_dims=%s and rhs_batch_dims=%s differ in length", in->name,
                fmt_ints(&d->lhs_batch, l1, sizeof l1), fmt_ints(&d->rhs_batch, l2, sizeof l2));
  if (d->lhs_contracting.n != d->rhs_contracting.n)
    return fail(V, in->offset, "dot '%s': lhs_contracting_dims=%s and rhs_contracting_dims=%s differ in length",
                in->name, fmt_ints(&d->lhs_contracting, l1, sizeof l1), fmt_ints(&d->rhs_contracting, l2, sizeof l2));
  for (int i = 0; i < d->lhs_batch.n; i++)
    if (!same_dim(a, (int)d->lhs_batch.v[i], b, (int)d->rhs_batch.v[i]))
      return fail(V, in->offset, "dot '%s': batch dimension %lld of lhs (size %lld) and %lld of rhs (size %lld) differ",
                  in->name, (long long)d->lhs_batch.v[i], (long long)a->dims[d->lhs_batch.v[i]],
                  (long long)d->rhs_batch.v[i], (long long)b->dims[d->rhs_batch.v[i]]);
  for (int i = 0; i < d->lhs_contracting.n; i++)
    if (!same_dim(a, (int)d->lhs_contracting.v[i], b, (int)d->rhs_contracting.v[i]))
      return fail(V, in->offset,
                  "dot '%s': contracting dimension %lld of lhs (size %lld) and %lld of rhs (size %lld) differ",
                  in->name, (long long)d->lhs_contracting.v[i], (long long)a->dims[d->lhs_contracting.v[i]],
                  (long long)d->rhs_contracting.v[i], (long long)b->dims[d->rhs_contracting.v[i]]);
  for (int i = 0; i < d->lhs_batch.n; i++)
    for (int j = 0; j < d->lhs_contracting.n; j++)
      if (d->lhs_batch.v[i] == d->lhs_contracting.v[j])
        return fail(V, in->offset, "dot '%s': lhs dimension %lld is both a batch and a contracting dimension",
                    in->name, (long long)d->lhs_batch.v[i]);
  int64_t want[2 * HLO_MAX_RANK];
  int r = 0;
  for (int i = 0; i < d->lhs_batch.n; i++) want[r++] = a->unbounded[d->lhs_batch.v[i]] ? -1 : a->dims[d->lhs_batch.v[i]];
  for (int pass = 0; pass < 2; pass++) {
    const hlo_shape *s = pass ? b : a;
    hlo_ints bt = pass ? d->rhs_batch : d->lhs_batch, ct = pass ? d->rhs_contracting : d->lhs_contracting;
    for (int i = 0; i < s->rank; i++) {
      bool skip = false;
      for (int j = 0; j < bt.n; j++) skip |= bt.v[j] == i;
      for (int j = 0; j < ct.n; j++) skip |= ct.v[j] == i;
      if (!skip) want[r++] = s->unbounded[i] ? -1 : s->dims[i];
    }
  }
  return result_dims(V, in, want, r);
}

static int check_dynamic_slice(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char sa[200];
  int n = in->n_operands;
  bool legacy = n == 2 && in->operands[1]->shape->rank == 1 && o->rank != 1;
  if (!legacy && n != 1 + o->rank)
    return fail(V, in->offset, "dynamic-slice '%s' of a rank-%d operand needs %d start indices, but has %d", in->name,
                o->rank, o->rank, n - 1);
  for (int i = 1; i < n && !legacy; i++)
    if (in->operands[i]->shape->rank != 0)
      return fail(V, in->offset, "dynamic-slice '%s': start index %d must be a scalar, not %s", in->name, i - 1,
                  SH(in->operands[i]->shape));
  if (in->dynamic_slice_sizes.n != o->rank)
    return fail(V, in->offset, "dynamic-slice '%s' has %d slice sizes, but the operand has rank %d", in->name,
                in->dynamic_slice_sizes.n, o->rank);
  for (int i = 0; i < o->rank; i++)
    if (!o->unbounded[i] && in->dynamic_slice_sizes.v[i] > o->dims[i])
      return fail(V, in->offset, "dynamic-slice '%s': slice size %lld exceeds dimension %d of size %lld", in->name,
                  (long long)in->dynamic_slice_sizes.v[i], i, (long long)o->dims[i]);
  return result_dims(V, in, in->dynamic_slice_sizes.v, o->rank);
}

static int check_dus(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape, *u = in->operands[1]->shape;
  char sa[200], sb[200];
  int n = in->n_operands;
  bool legacy = n == 3 && in->operands[2]->shape->rank == 1 && o->rank != 1;
  if (!legacy && n != 2 + o->rank)
    return fail(V, in->offset, "dynamic-update-slice '%s' of a rank-%d operand needs %d start indices, but has %d",
                in->name, o->rank, o->rank, n - 2);
  if (u->rank != o->rank)
    return fail(V, in->offset, "dynamic-update-slice '%s': the update %s and the operand %s differ in rank", in->name,
                SH(u), SH2(o));
  for (int i = 0; i < o->rank; i++)
    if (!o->unbounded[i] && !u->unbounded[i] && u->dims[i] > o->dims[i])
      return fail(V, in->offset, "dynamic-update-slice '%s': the update %s is larger than the operand %s", in->name,
                  SH(u), SH2(o));
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) want[i] = o->unbounded[i] ? -1 : o->dims[i];
  return result_dims(V, in, want, o->rank);
}

static int check_gte(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char sa[200], sb[200];
  if (o->type != HLO_TUPLE)
    return fail(V, in->offset, "get-tuple-element '%s': the operand must be a tuple, not %s", in->name, SH(o));
  if (in->tuple_index >= o->n_elems)
    return fail(V, in->offset, "get-tuple-element '%s': index %lld is out of range for a tuple of %d elements",
                in->name, (long long)in->tuple_index, o->n_elems);
  if (!hlo_shape_compatible(in->shape, o->elems[in->tuple_index]))
    return fail(V, in->offset, "get-tuple-element '%s' has shape %s, but element %lld of the operand is %s", in->name,
                SH(in->shape), (long long)in->tuple_index, SH2(o->elems[in->tuple_index]));
  return 0;
}

static int check_tuple(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  const hlo_shape *r = in->shape;
  if (r->type != HLO_TUPLE || r->n_elems != in->n_operands)
    return fail(V, in->offset, "tuple '%s' of %d operands has shape %s", in->name, in->n_operands, SH(r));
  for (int i = 0; i < in->n_operands; i++)
    if (!hlo_shape_compatible(r->elems[i], in->operands[i]->shape))
      return fail(V, in->offset, "tuple '%s': element %d has shape %s, but operand %d is %s", in->name, i,
                  SH(r->elems[i]), i, SH2(in->operands[i]->shape));
  return 0;
}

static int check_called_params(vctx *V, const hlo_instr *in, const hlo_computation *c) {
  if (c->n_params != in->n_operands)
    return fail(V, in->offset, "%s '%s' has %d operands, but the called computation '%s' has %d parameters",
                in->opcode_text, in->name, in->n_operands, c->name, c->n_params);
  return 0;
}

static int check_conditional(vctx *V, const hlo_instr *in) {
  char sa[200];
  if (in->n_operands < 1) return arity(V, in, 1, -1);
  const hlo_shape *b = in->operands[0]->shape;
  if (!is_array(b) || b->rank != 0)
    return fail(V, in->offset, "conditional '%s': the first operand must be a scalar of PRED or S32, not %s", in->name,
                SH(b));
  if (b->type != HLO_PRED && b->type != HLO_S32)
    return fail(V, in->offset, "conditional '%s': the first operand must be a scalar of PRED or S32, not %s", in->name,
                SH(b));
  int branches = 0;
  for (int i = 0; i < in->n_called; i++) {
    hlo_call_role r = in->called_role[i];
    if (b->type == HLO_PRED && r == HLO_CALL_BRANCH_COMPUTATIONS)
      return fail(V, in->offset, "unexpected attribute \"branch_computations\" for conditional '%s' with a PRED index",
                  in->name);
    if (b->type == HLO_S32 && (r == HLO_CALL_TRUE_COMPUTATION || r == HLO_CALL_FALSE_COMPUTATION))
      return fail(V, in->offset, "unexpected attribute \"%s\" for conditional '%s' with an S32 index",
                  r == HLO_CALL_TRUE_COMPUTATION ? "true_computation" : "false_computation", in->name);
    branches++;
  }
  if (b->type == HLO_PRED && branches != 2)
    return fail(V, in->offset, "conditional '%s' with a PRED index needs true_computation= and false_computation=",
                in->name);
  if (in->n_operands != 1 + branches)
    return fail(V, in->offset, "conditional '%s' has %d branches, so it needs %d operands, but has %d", in->name,
                branches, 1 + branches, in->n_operands);
  return 0;
}

static const hlo_instr *async_start_of(const hlo_instr *in) {
  const hlo_instr *p = in;
  for (int guard = 0; guard < 1 << 20 && p; guard++) {
    if (p->op == HLO_OP_ASYNC_START) return p;
    if ((p->op != HLO_OP_ASYNC_UPDATE && p->op != HLO_OP_ASYNC_DONE) || p->n_operands < 1) return NULL;
    p = p->operands[0];
  }
  return NULL;
}

static const hlo_computation *calls_of(const hlo_instr *in) {
  for (int i = 0; i < in->n_called; i++)
    if (in->called_role[i] == HLO_CALL_CALLS) return in->called[i];
  return NULL;
}

static int check_async(vctx *V, const hlo_instr *in) {
  char sa[200];
  if (in->op == HLO_OP_ASYNC_START || in->op == HLO_OP_ASYNC_UPDATE) {
    const hlo_shape *s = in->shape;
    if (s->type != HLO_TUPLE || s->n_elems < 2 || s->elems[0]->type != HLO_TUPLE)
      return fail(V, in->offset,
                  "%s '%s' expects the shape to be ((async-operands), async-outputs, state...), found %s",
                  in->opcode_text, in->name, SH(s));
  }
  if (in->op == HLO_OP_ASYNC_START) {
    if (in->async_wrapped == HLO_OP_UNKNOWN && !calls_of(in))
      return fail(V, in->offset, "async-start '%s' requires calls=", in->name);
    return 0;
  }
  if (in->n_operands != 1) return arity(V, in, 1, 1);
  const hlo_instr *prev = in->operands[0];
  if (prev->op != HLO_OP_ASYNC_START && prev->op != HLO_OP_ASYNC_UPDATE)
    return fail(V, in->offset, "%s '%s' must take an async-start or async-update, not %s '%s'", in->opcode_text,
                in->name, prev->opcode_text, prev->name);
  const hlo_instr *start = async_start_of(prev);
  if (!start) return 0;
  hlo_opcode start_op = start->async_wrapped;
  const hlo_computation *sc = calls_of(start);
  if (start_op == HLO_OP_UNKNOWN && sc && sc->root) start_op = sc->root->op;
  if (in->async_wrapped != HLO_OP_UNKNOWN && start_op != HLO_OP_UNKNOWN && start_op != in->async_wrapped)
    return fail(V, in->offset, "expect async wrapped opcode to be %s, but got %s", hlo_opcode_name(start_op),
                hlo_opcode_name(in->async_wrapped));
  const hlo_computation *mine = calls_of(in), *theirs = calls_of(start);
  if (mine && theirs && mine != theirs)
    return fail(V, in->offset, "expect async_wrapped_computation to be %s, but got %s", theirs->name, mine->name);
  if (strcmp(in->async_execution_thread, start->async_execution_thread) != 0)
    return fail(V, in->offset, "expect async_execution_thread to be %s, but got %s", start->async_execution_thread,
                in->async_execution_thread);
  return 0;
}

static int check_instr(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  hlo_opcode op = in->op;
  if (op == HLO_OP_UNKNOWN || op == HLO_OP_PARAMETER || op == HLO_OP_CONSTANT) return 0;
  if (hlo_opcode_is_elementwise_unary(op)) {
    if (arity(V, in, 1, 1) < 0) return -1;
    return elementwise(V, in);
  }
  if (op == HLO_OP_BITCAST_CONVERT) return arity(V, in, 1, 1);
  if (hlo_opcode_is_elementwise_binary(op)) {
    if (arity(V, in, 2, 2) < 0) return -1;
    return elementwise(V, in);
  }
  switch (op) {
  case HLO_OP_SELECT: case HLO_OP_CLAMP:
    if (arity(V, in, 3, 3) < 0) return -1;
    return elementwise(V, in);
  case HLO_OP_BROADCAST:
    if (arity(V, in, 1, 1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_broadcast(V, in);
  case HLO_OP_TRANSPOSE:
    if (arity(V, in, 1, 1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_transpose(V, in);
  case HLO_OP_RESHAPE: {
    if (arity(V, in, 1, 1) < 0 || need_arrays(V, in) < 0) return -1;
    int64_t a = hlo_shape_elements(in->operands[0]->shape), b = hlo_shape_elements(in->shape);
    bool dyn = false;
    for (int i = 0; i < in->shape->rank; i++) dyn |= in->shape->dynamic[i];
    for (int i = 0; i < in->operands[0]->shape->rank; i++) dyn |= in->operands[0]->shape->dynamic[i];
    if (!dyn && a >= 0 && b >= 0 && a != b)
      return fail(V, in->offset, "reshape '%s' changes the number of elements: %s has %lld, %s has %lld", in->name,
                  SH(in->operands[0]->shape), (long long)a, SH2(in->shape), (long long)b);
    return 0;
  }
  case HLO_OP_REVERSE:
    if (arity(V, in, 1, 1) < 0 || need_arrays(V, in) < 0) return -1;
    if (check_dims_list(V, in, &in->dimensions, in->operands[0]->shape->rank, "dimensions", true) < 0) return -1;
    if (!same_dims(in->shape, in->operands[0]->shape))
      return fail(V, in->offset, "reverse '%s' has shape %s, but its operand is %s", in->name, SH(in->shape),
                  SH2(in->operands[0]->shape));
    return 0;
  case HLO_OP_SLICE:
    if (arity(V, in, 1, 1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_slice(V, in);
  case HLO_OP_PAD:
    if (arity(V, in, 2, 2) < 0 || need_arrays(V, in) < 0) return -1;
    return check_pad(V, in);
  case HLO_OP_CONCATENATE:
    if (arity(V, in, 1, -1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_concatenate(V, in);
  case HLO_OP_REDUCE: case HLO_OP_REDUCE_WINDOW:
    if (arity(V, in, 2, -1) < 0) return -1;
    return check_reduce(V, in);
  case HLO_OP_DOT:
    if (arity(V, in, 2, hlo_instr_find_attr(in, "sparsity") ? 4 : 2) < 0 || need_arrays(V, in) < 0) return -1;
    return check_dot(V, in);
  case HLO_OP_DYNAMIC_SLICE:
    if (arity(V, in, 2, -1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_dynamic_slice(V, in);
  case HLO_OP_DYNAMIC_UPDATE_SLICE:
    if (arity(V, in, 3, -1) < 0 || need_arrays(V, in) < 0) return -1;
    return check_dus(V, in);
  case HLO_OP_GET_TUPLE_ELEMENT:
    if (arity(V, in, 1, 1) < 0) return -1;
    return check_gte(V, in);
  case HLO_OP_TUPLE:
    return check_tuple(V, in);
  case HLO_OP_IOTA:
    if (arity(V, in, 0, 0) < 0) return -1;
    if (!is_array(in->shape) || in->shape->rank == 0)
      return fail(V, in->offset, "iota '%s' must have an array shape of rank >= 1, not %s", in->name, SH(in->shape));
    if (in->iota_dimension >= in->shape->rank)
      return fail(V, in->offset, "iota '%s': iota_dimension=%lld is out of range for %s", in->name,
                  (long long)in->iota_dimension, SH(in->shape));
    return 0;
  case HLO_OP_GATHER:
    return arity(V, in, 2, 2);
  case HLO_OP_SCATTER:
    if (arity(V, in, 3, -1) < 0) return -1;
    if (in->n_operands % 2 != 1)
      return fail(V, in->offset, "scatter '%s' needs an odd number of operands (inputs, indices, updates), but has %d",
                  in->name, in->n_operands);
    return 0;
  case HLO_OP_CONVOLUTION: {
    if (arity(V, in, 2, 2) < 0 || need_arrays(V, in) < 0) return -1;
    const hlo_conv_dims *cd = in->conv_dims;
    if (cd) {
      if (cd->input_rank != in->operands[0]->shape->rank || cd->kernel_rank != in->operands[1]->shape->rank ||
          cd->output_rank != in->shape->rank)
        return fail(V, in->offset, "convolution '%s': dim_labels=%s do not match the ranks of input %s, kernel %s and result",
                    in->name, cd->labels, SH(in->operands[0]->shape), SH2(in->operands[1]->shape));
      if (in->has_window && in->n_window != cd->n_spatial)
        return fail(V, in->offset, "convolution '%s': the window has %d dimensions, but dim_labels=%s has %d spatial dimensions",
                    in->name, in->n_window, cd->labels, cd->n_spatial);
    }
    return 0;
  }
  case HLO_OP_SELECT_AND_SCATTER:
    return arity(V, in, 3, 3);
  case HLO_OP_FUSION: case HLO_OP_CALL:
    for (int i = 0; i < in->n_called; i++)
      if ((in->called_role[i] == HLO_CALL_CALLS || in->called_role[i] == HLO_CALL_TO_APPLY) &&
          check_called_params(V, in, in->called[i]) < 0)
        return -1;
    return 0;
  case HLO_OP_WHILE:
    if (arity(V, in, 1, 1) < 0) return -1;
    for (int i = 0; i < in->n_called; i++)
      if (in->called[i]->n_params != 1)
        return fail(V, in->offset, "while '%s': the %s computation '%s' must have exactly one parameter, it has %d",
                    in->name, in->called_role[i] == HLO_CALL_CONDITION ? "condition" : "body", in->called[i]->name,
                    in->called[i]->n_params);
    return 0;
  case HLO_OP_CONDITIONAL:
    return check_conditional(V, in);
  case HLO_OP_INFEED:
    if (in->shape->type != HLO_TUPLE || in->shape->n_elems != 2 || in->shape->elems[1]->type != HLO_TOKEN)
      return fail(V, in->offset, "infeed '%s' must have a tuple shape (data, token[]), not %s", in->name,
                  SH(in->shape));
    return 0;
  case HLO_OP_ASYNC_START: case HLO_OP_ASYNC_UPDATE: case HLO_OP_ASYNC_DONE:
    return check_async(V, in);
  case HLO_OP_CUSTOM_CALL:
    if (in->operand_layout_constraints) {
      int n = in->n_operand_layout_constraints;
      if (n != in->n_operands)
        return fail(V, in->offset, "custom-call '%s' has %d operand layout constraints, but %d operands", in->name, n,
                    in->n_operands);
      for (int i = 0; i < n; i++)
        if (!hlo_shape_compatible(in->operand_layout_constraints[i], in->operands[i]->shape))
          return fail(V, in->offset,
                      "custom-call '%s': operand %d is not compatible with operand shape %s (layout constraint %s)",
                      in->name, i, SH(in->operands[i]->shape), SH2(in->operand_layout_constraints[i]));
    }
    return 0;
  default:
    return 0;
  }
}

int hlo_verify_module(const hlo_module *m, hlo_error *err) {
  vctx V = {m, err};
  char sa[200], sb[200];
  for (int c = 0; c < m->n_computations; c++) {
    const hlo_computation *comp = m->computations[c];
    if (comp->signature_result && !hlo_shape_compatible(comp->signature_result, comp->root->shape))
      return -fail(&V, comp->offset,
                   "the result shape %s of computation '%s' is not compatible with the shape %s of its root '%s'",
                   SH(comp->signature_result), comp->name, SH2(comp->root->shape), comp->root->name);
    for (int i = 0; i < comp->n_instrs; i++)
      if (check_instr(&V, comp->instrs[i]) < 0) return 1;
  }
  /* an async computation belongs to one async chain */
  for (int c = 0; c < m->n_computations; c++) {
    const hlo_computation *comp = m->computations[c];
    for (int i = 0; i < comp->n_instrs; i++) {
      const hlo_instr *in = comp->instrs[i];
      if (in->op != HLO_OP_ASYNC_START) continue;
      const hlo_computation *w = calls_of(in);
      if (!w) continue;
      for (int c2 = c; c2 < m->n_computations; c2++) {
        const hlo_computation *comp2 = m->computations[c2];
        for (int j = c2 == c ? i + 1 : 0; j < comp2->n_instrs; j++) {
          const hlo_instr *o = comp2->instrs[j];
          if (o->op == HLO_OP_ASYNC_START && calls_of(o) == w)
            return -fail(&V, o->offset, "computation %s is called by more than one async op ('%s' and '%s')", w->name,
                         in->name, o->name);
        }
      }
    }
  }
  if (m->has_entry_layout) {
    const hlo_computation *e = m->entry;
    const hlo_attr *a = hlo_module_find_attr(m, "entry_computation_layout");
    size_t off = a ? a->offset : m->offset;
    if (m->n_entry_params != e->n_params)
      return -fail(&V, off, "entry_computation_layout has %d parameters, but the entry computation '%s' has %d",
                   m->n_entry_params, e->name, e->n_params);
    for (int i = 0; i < e->n_params; i++)
      if (!hlo_shape_compatible(m->entry_params[i], e->params[i]->shape))
        return -fail(&V, off, "entry_computation_layout parameter %d %s is not compatible with parameter '%s' %s", i,
                     SH(m->entry_params[i]), e->params[i]->name, SH2(e->params[i]->shape));
    if (!hlo_shape_compatible(m->entry_result, e->root->shape))
      return -fail(&V, off, "entry_computation_layout result %s is not compatible with the root '%s' %s",
                   SH(m->entry_result), e->root->name, SH2(e->root->shape));
  }
  return 0;
}
