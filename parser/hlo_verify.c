/* Semantic checks of a parsed module (§9.5 and per-opcode rules that the
 * analysis relies on): operand counts, shapes of the data-movement ops,
 * parameters, called computations, conditionals, async chains, ...
 * Each problem is reported at the offending instruction. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checked.h"
#include "hlo_ir.h"
#include "base/oom.h"

typedef struct vctx {
  const hlo_module *m;
  hlo_error *err;
  /* hlo_verify_module_lenient: the shape checks XLA's unverified parse
   * skips go here instead of failing */
  void (*warn)(void *ctx, size_t off, const char *message);
  void *wctx;
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

/* A result or operand shape that disagrees with what the op gives, when
 * the ranks agree (the analysis indexes dimensions by rank: other
 * mismatches stay errors): a failure, or a warning under --no-verify. */
static int shape_mismatch(vctx *V, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int shape_mismatch(vctx *V, size_t off, const char *fmt, ...) {
  char buf[HLO_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (!V->warn) return fail(V, off, "%s", buf);
  char w[HLO_ERROR_MESSAGE_MAX + 40];
  snprintf(w, sizeof w, "%s (not checked: --no-verify)", buf);
  V->warn(V->wctx, off, w);
  return 0;
}

static const char *fmt_shape(const hlo_shape *s, char *buf, size_t cap) {
  hlo_shape_format(s, buf, cap);
  return buf;
}

/* "{1,2,3}", shortened to "{1,2,...}" when it does not fit (cap >= 16). */
static const char *fmt_ints(const hlo_ints *l, char *buf, size_t cap) {
  size_t w = (size_t)snprintf(buf, cap, "{");
  for (int i = 0; i < l->n; i++) {
    char num[32];
    int k = snprintf(num, sizeof num, "%s%lld", i ? "," : "", (long long)l->v[i]);
    if (w + (size_t)k + 6 > cap) {
      snprintf(buf + w, cap - w, ",...}");
      return buf;
    }
    memcpy(buf + w, num, (size_t)k + 1);
    w += (size_t)k;
  }
  snprintf(buf + w, cap - w, "}");
  return buf;
}

static bool is_array(const hlo_shape *s) { return hlo_elem_type_is_array(s->type); }

/* dims equal, treating unbounded dims as wildcards */
static bool same_dim(const hlo_shape *a, int i, const hlo_shape *b, int j) {
  if (a->unbounded[i] || b->unbounded[j]) return true;
  return a->dims[i] == b->dims[j];
}

static bool same_dims(const hlo_shape *a, const hlo_shape *b) {
  if (a == b) return true; /* (the usual case: equal shape texts share their shape) */
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
    return fail(V, in->offset, "%s '%s' expects %d operand%s, but has %d", hlo_instr_opcode_text(in), in->name, lo,
                lo == 1 ? "" : "s", n);
  if (hi < 0)
    return fail(V, in->offset, "%s '%s' expects at least %d operands, but has %d", hlo_instr_opcode_text(in), in->name,
                lo, n);
  return fail(V, in->offset, "%s '%s' expects %d to %d operands, but has %d", hlo_instr_opcode_text(in), in->name, lo,
              hi, n);
}

static int need_arrays(vctx *V, const hlo_instr *in) {
  char sa[200];
  if (!is_array(in->shape) || in->shape->type == HLO_TOKEN || in->shape->type == HLO_OPAQUE)
    return fail(V, in->offset, "%s '%s' must have an array shape, not %s", hlo_instr_opcode_text(in), in->name,
                SH(in->shape));
  for (int i = 0; i < in->n_operands; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    if (!is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE)
      return fail(V, in->offset, "operand %d of %s '%s' must be an array, not %s", i, hlo_instr_opcode_text(in),
                  in->name, SH(s));
  }
  return 0;
}

static int check_dims_list(vctx *V, const hlo_instr *in, const hlo_ints *l, int rank, const char *what, bool unique) {
  char b[128];
  if (unique && l->n > rank)
    return fail(V, in->offset, "%s '%s': %s=%s has %d entries, but the rank is %d", hlo_instr_opcode_text(in), in->name,
                what, fmt_ints(l, b, sizeof b), l->n, rank);
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= rank)
      return fail(V, in->offset, "%s '%s': %s=%s has dimension %lld, but the rank is %d", hlo_instr_opcode_text(in),
                  in->name, what, fmt_ints(l, b, sizeof b), (long long)l->v[i], rank);
    if (unique)
      for (int j = 0; j < i; j++)
        if (l->v[j] == l->v[i])
          return fail(V, in->offset, "%s '%s': %s=%s repeats dimension %lld", hlo_instr_opcode_text(in), in->name, what,
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
  return (r->rank == rank ? shape_mismatch : fail)(V, in->offset,
                                                   "%s '%s' has shape %s, but its operands and attributes give dimensions %s",
                                                   hlo_instr_opcode_text(in), in->name, SH(r), buf);
}

static int elementwise(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  if (need_arrays(V, in) < 0) return -1;
  const hlo_shape *r = in->shape;
  for (int i = 0; i < in->n_operands; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    bool scalar_ok = (in->op == HLO_OP_CLAMP && i != 1) || (in->op == HLO_OP_SELECT && i == 0);
    if (scalar_ok && s->rank == 0) continue;
    if (!same_dims(s, r) &&
        (s->rank == r->rank ? shape_mismatch : fail)(V, in->offset,
                                                     "%s '%s': operand %d has shape %s, incompatible with the result shape %s",
                                                     hlo_instr_opcode_text(in), in->name, i, SH(s), SH2(r)) < 0)
      return -1;
  }
  return 0;
}

static int check_broadcast(vctx *V, const hlo_instr *in) {
  char sa[200], b[128];
  const hlo_shape *o = in->operands[0]->shape, *r = in->shape;
  static const int64_t none[1] = {0};
  hlo_ints dims = in->cold->has_dimensions ? in->cold->dimensions : (hlo_ints){0, none};
  if (dims.n != o->rank) {
    if (!in->cold->has_dimensions)
      return fail(V, in->offset, "broadcast '%s' of an operand of shape %s requires dimensions= with %d entries",
                  in->name, SH(o), o->rank);
    return fail(V, in->offset, "broadcast '%s': dimensions=%s has %d entries, but the operand %s has rank %d", in->name,
                fmt_ints(&dims, b, sizeof b), dims.n, SH(o), o->rank);
  }
  if (check_dims_list(V, in, &dims, r->rank, "dimensions", true) < 0) return -1;
  for (int i = 0; i < dims.n; i++)
    if (!same_dim(o, i, r, (int)dims.v[i]))
      return shape_mismatch(V, in->offset,
                            "broadcast '%s': operand dimension %d (size %lld) does not match result dimension %lld (size %lld)",
                            in->name, i, (long long)o->dims[i], (long long)dims.v[i], (long long)r->dims[dims.v[i]]);
  return 0;
}

static int check_transpose(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char b[128];
  if (in->cold->dimensions.n != o->rank)
    return fail(V, in->offset, "transpose '%s': dimensions=%s must be a permutation of the operand's %d dimensions",
                in->name, fmt_ints(&in->cold->dimensions, b, sizeof b), o->rank);
  if (check_dims_list(V, in, &in->cold->dimensions, o->rank, "dimensions", true) < 0) return -1;
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++)
    want[i] = o->unbounded[in->cold->dimensions.v[i]] ? -1 : o->dims[in->cold->dimensions.v[i]];
  return result_dims(V, in, want, o->rank);
}

static int check_slice(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  if (in->cold->ext->n_slice != o->rank)
    return fail(V, in->offset, "slice '%s' has %d ranges, but the operand has rank %d", in->name,
                in->cold->ext->n_slice, o->rank);
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) {
    const hlo_slice_dim *d = &in->cold->ext->slice[i];
    if (d->start > d->limit || (!o->unbounded[i] && d->limit > o->dims[i]))
      return fail(V, in->offset, "slice '%s': range [%lld:%lld] is out of bounds for dimension %d of size %lld",
                  in->name, (long long)d->start, (long long)d->limit, i, (long long)o->dims[i]);
    want[i] = d->limit == d->start ? 0 : (d->limit - d->start - 1) / d->stride + 1;
  }
  return result_dims(V, in, want, o->rank);
}

static int check_pad(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape;
  char sa[200];
  if (in->operands[1]->shape->rank != 0)
    return fail(V, in->offset, "pad '%s': the padding value must be a scalar, not %s", in->name,
                SH(in->operands[1]->shape));
  if (in->cold->ext->n_padding != o->rank)
    return fail(V, in->offset, "pad '%s' has padding for %d dimensions, but the operand has rank %d", in->name,
                in->cold->ext->n_padding, o->rank);
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < o->rank; i++) {
    const hlo_pad_dim *p = &in->cold->ext->padding[i];
    want[i] = -1;
    if (!o->unbounded[i] && !hb_ck_pad_size(o->dims[i], p->lo, p->hi, p->interior, &want[i]))
      return fail(V, in->offset, "pad '%s': the size of dimension %d overflows", in->name, i);
    if (!o->unbounded[i] && want[i] < 0)
      return fail(V, in->offset, "pad '%s': dimension %d would have negative size %lld", in->name, i,
                  (long long)want[i]);
  }
  return result_dims(V, in, want, o->rank);
}

static int check_concatenate(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200], b[64];
  if (in->cold->dimensions.n != 1)
    return fail(V, in->offset, "concatenate '%s' needs exactly one dimension, found dimensions=%s", in->name,
                fmt_ints(&in->cold->dimensions, b, sizeof b));
  const hlo_shape *o = in->operands[0]->shape;
  int64_t d = in->cold->dimensions.v[0];
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
    if (!hb_ck_add(want[d], s->dims[d], &want[d]))
      return fail(V, in->offset, "concatenate '%s': the size of dimension %lld overflows", in->name, (long long)d);
  }
  return result_dims(V, in, want, o->rank);
}

static int check_window_dims(vctx *V, const hlo_instr *in, const hlo_shape *o, int64_t *out);

static int check_reduce(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  int n = in->n_operands;
  if (n % 2 != 0)
    return fail(V, in->offset, "%s '%s' needs an even number of operands (inputs, then init values), but has %d",
                hlo_instr_opcode_text(in), in->name, n);
  int k = n / 2;
  const hlo_shape *o = in->operands[0]->shape;
  for (int i = 0; i < k; i++) {
    const hlo_shape *s = in->operands[i]->shape;
    if (!is_array(s))
      return fail(V, in->offset, "%s '%s': input %d must be an array", hlo_instr_opcode_text(in), in->name, i);
    if (!same_dims(s, o))
      return fail(V, in->offset, "%s '%s': input %d has shape %s, but input 0 has %s", hlo_instr_opcode_text(in),
                  in->name, i, SH(s), SH2(o));
    const hlo_shape *init = in->operands[k + i]->shape;
    if (!is_array(init) || init->rank != 0)
      return fail(V, in->offset, "%s '%s': init value %d must be a scalar, not %s", hlo_instr_opcode_text(in), in->name,
                  i, SH(init));
  }
  if (in->op == HLO_OP_REDUCE_WINDOW) {
    if (in->cold->ext->has_window && in->cold->ext->n_window != o->rank)
      return fail(V, in->offset, "reduce-window '%s': the window has %d dimensions, but the operand has rank %d",
                  in->name, in->cold->ext->n_window, o->rank);
    if (!in->cold->ext->has_window && o->rank != 0)
      return fail(V, in->offset, "reduce-window '%s' of a rank-%d operand needs window=", in->name, o->rank);
    int64_t want[HLO_MAX_RANK];
    if (check_window_dims(V, in, o, want) < 0) return -1;
    if (k == 1) return is_array(in->shape) ? result_dims(V, in, want, o->rank) : 0;
    return 0;
  }
  if (check_dims_list(V, in, &in->cold->dimensions, o->rank, "dimensions", true) < 0) return -1;
  int64_t want[HLO_MAX_RANK];
  int r = 0;
  for (int i = 0; i < o->rank; i++) {
    bool red = false;
    for (int j = 0; j < in->cold->dimensions.n; j++) red |= in->cold->dimensions.v[j] == i;
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
  const hlo_dot_dims *d = in->cold->ext->dot;
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
  /* old structured-sparsity dots store a compressed operand: sizes differ */
  if (hlo_instr_find_attr(in, "sparsity")) return 0;
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
  if (in->cold->ext->dynamic_slice_sizes.n != o->rank)
    return fail(V, in->offset, "dynamic-slice '%s' has %d slice sizes, but the operand has rank %d", in->name,
                in->cold->ext->dynamic_slice_sizes.n, o->rank);
  for (int i = 0; i < o->rank; i++)
    if (!o->unbounded[i] && in->cold->ext->dynamic_slice_sizes.v[i] > o->dims[i])
      return fail(V, in->offset, "dynamic-slice '%s': slice size %lld exceeds dimension %d of size %lld", in->name,
                  (long long)in->cold->ext->dynamic_slice_sizes.v[i], i, (long long)o->dims[i]);
  return result_dims(V, in, in->cold->ext->dynamic_slice_sizes.v, o->rank);
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
  if (in->cold->tuple_index >= o->n_elems)
    return fail(V, in->offset, "get-tuple-element '%s': index %lld is out of range for a tuple of %d elements",
                in->name, (long long)in->cold->tuple_index, o->n_elems);
  if (!hlo_shape_compatible(in->shape, o->elems[in->cold->tuple_index]))
    return fail(V, in->offset, "get-tuple-element '%s' has shape %s, but element %lld of the operand is %s", in->name,
                SH(in->shape), (long long)in->cold->tuple_index, SH2(o->elems[in->cold->tuple_index]));
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

/* Output size of a window over a dimension of size N (as in reduce-window);
 * -2 when the arithmetic overflows int64. */
static int64_t window_out(int64_t n, const hlo_window_dim *w) {
  int64_t dilated = 0, padded, wsize = 0;
  if (n > 0 && !(hb_ck_mul(n - 1, w->lhs_dilate, &dilated) && hb_ck_add(dilated, 1, &dilated))) return -2;
  if (!(hb_ck_add(dilated, w->pad_lo, &padded) && hb_ck_add(padded, w->pad_hi, &padded))) return -2;
  if (w->size > 0 && !(hb_ck_mul(w->size - 1, w->rhs_dilate, &wsize) && hb_ck_add(wsize, 1, &wsize))) return -2;
  if (padded < wsize || padded < 0) return 0;
  return (padded - wsize) / w->stride + 1;
}

static int check_window_dims(vctx *V, const hlo_instr *in, const hlo_shape *o, int64_t *out) {
  for (int i = 0; i < in->cold->ext->n_window; i++) {
    out[i] = o->unbounded[i] ? -1 : window_out(o->dims[i], &in->cold->ext->window[i]);
    if (out[i] == -2)
      return fail(V, in->offset, "%s '%s': the window arithmetic of dimension %d overflows int64",
                  hlo_instr_opcode_text(in), in->name, i);
  }
  return 0;
}

static int check_sorted_unique(vctx *V, const hlo_instr *in, const hlo_ints *l, int bound, const char *what,
                               bool sorted) {
  char b[128];
  if (l->n > bound)
    return fail(V, in->offset, "%s '%s': %s=%s has %d entries, more than %d", hlo_instr_opcode_text(in), in->name, what,
                fmt_ints(l, b, sizeof b), l->n, bound);
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= bound)
      return fail(V, in->offset, "%s '%s': %s=%s has %lld, out of range [0, %d)", hlo_instr_opcode_text(in), in->name,
                  what, fmt_ints(l, b, sizeof b), (long long)l->v[i], bound);
    for (int j = 0; j < i; j++)
      if (l->v[j] == l->v[i] || (sorted && l->v[j] > l->v[i]))
        return fail(V, in->offset, "%s '%s': %s=%s must be %s", hlo_instr_opcode_text(in), in->name, what,
                    fmt_ints(l, b, sizeof b), sorted ? "sorted and without repeats" : "without repeats");
  }
  return 0;
}

static bool in_list(const hlo_ints *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

static int check_gather(vctx *V, const hlo_instr *in) {
  const hlo_shape *o = in->operands[0]->shape, *ix = in->operands[1]->shape, *r = in->shape;
  const hlo_gather_dims *g = in->cold->ext->gather;
  int R = o->rank, I = ix->rank;
  if (!hlo_elem_type_is_integral(ix->type))
    return fail(V, in->offset, "gather '%s': the start indices must have an integer type", in->name);
  if (g->index_vector_dim > I)
    return fail(V, in->offset, "gather '%s': index_vector_dim=%lld is out of range for start indices of rank %d",
                in->name, (long long)g->index_vector_dim, I);
  int64_t vec = g->index_vector_dim == I ? 1 : ix->dims[g->index_vector_dim];
  if (check_sorted_unique(V, in, &g->offset_dims, r->rank, "offset_dims", true) < 0 ||
      check_sorted_unique(V, in, &g->collapsed_slice_dims, R, "collapsed_slice_dims", true) < 0 ||
      check_sorted_unique(V, in, &g->start_index_map, R, "start_index_map", false) < 0 ||
      check_sorted_unique(V, in, &g->operand_batching_dims, R, "operand_batching_dims", true) < 0 ||
      check_sorted_unique(V, in, &g->start_indices_batching_dims, I, "start_indices_batching_dims", false) < 0)
    return -1;
  bool vec_unbounded = g->index_vector_dim < I && ix->unbounded[g->index_vector_dim];
  if (!vec_unbounded && g->start_index_map.n != vec)
    return fail(V, in->offset, "gather '%s': start_index_map has %d entries, but the index vector has %lld", in->name,
                g->start_index_map.n, (long long)vec);
  if (g->operand_batching_dims.n != g->start_indices_batching_dims.n)
    return fail(V, in->offset, "gather '%s': operand_batching_dims and start_indices_batching_dims differ in length",
                in->name);
  if (in_list(&g->start_indices_batching_dims, g->index_vector_dim))
    return fail(V, in->offset, "gather '%s': start_indices_batching_dims contains index_vector_dim", in->name);
  if (g->slice_sizes.n != R)
    return fail(V, in->offset, "gather '%s' has %d slice_sizes, but the operand has rank %d", in->name,
                g->slice_sizes.n, R);
  for (int i = 0; i < R; i++) {
    if (!o->unbounded[i] && g->slice_sizes.v[i] > o->dims[i])
      return fail(V, in->offset, "gather '%s': slice size %lld exceeds operand dimension %d of size %lld", in->name,
                  (long long)g->slice_sizes.v[i], i, (long long)o->dims[i]);
    if ((in_list(&g->collapsed_slice_dims, i) || in_list(&g->operand_batching_dims, i)) && g->slice_sizes.v[i] > 1)
      return fail(V, in->offset, "gather '%s': collapsed or batching dimension %d must have slice size 1", in->name,
                  i);
    if (in_list(&g->collapsed_slice_dims, i) && in_list(&g->operand_batching_dims, i))
      return fail(V, in->offset, "gather '%s': dimension %d is both collapsed and a batching dimension", in->name, i);
  }
  int batch = I - (g->index_vector_dim < I ? 1 : 0);
  if (g->offset_dims.n != R - g->collapsed_slice_dims.n - g->operand_batching_dims.n)
    return fail(V, in->offset, "gather '%s': offset_dims has %d entries, but the operand keeps %d dimensions", in->name,
                g->offset_dims.n, R - g->collapsed_slice_dims.n - g->operand_batching_dims.n);
  int64_t want[HLO_MAX_RANK];
  int rr = g->offset_dims.n + batch;
  if (rr > HLO_MAX_RANK) return fail(V, in->offset, "gather '%s': result rank too large", in->name);
  int oi = 0, bi = 0;
  for (int d = 0; d < rr; d++) {
    if (in_list(&g->offset_dims, d)) {
      while (oi < R && (in_list(&g->collapsed_slice_dims, oi) || in_list(&g->operand_batching_dims, oi))) oi++;
      want[d] = oi < R ? g->slice_sizes.v[oi] : -1;
      oi++;
    } else {
      if (bi == g->index_vector_dim) bi++;
      want[d] = bi < I && !ix->unbounded[bi] ? ix->dims[bi] : -1;
      bi++;
    }
  }
  return result_dims(V, in, want, rr);
}

static int check_scatter(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  int n = (in->n_operands - 1) / 2;
  const hlo_shape *o = in->operands[0]->shape, *ix = in->operands[n]->shape, *u = in->operands[n + 1]->shape;
  const hlo_scatter_dims *s = in->cold->ext->scatter;
  int R = o->rank, I = ix->rank;
  for (int k = 0; k < n; k++) {
    const hlo_shape *ok = in->operands[k]->shape, *uk = in->operands[n + 1 + k]->shape;
    if (!is_array(ok) || !same_dims(ok, o))
      return fail(V, in->offset, "scatter '%s': input %d has shape %s, but input 0 has %s", in->name, k, SH(ok),
                  SH2(o));
    if (!is_array(uk) || !same_dims(uk, u))
      return fail(V, in->offset, "scatter '%s': update %d has shape %s, but update 0 has %s", in->name, k, SH(uk),
                  SH2(u));
  }
  if (!hlo_elem_type_is_integral(ix->type))
    return fail(V, in->offset, "scatter '%s': the scatter indices must have an integer type", in->name);
  if (s->index_vector_dim > I)
    return fail(V, in->offset, "scatter '%s': index_vector_dim=%lld is out of range for indices of rank %d", in->name,
                (long long)s->index_vector_dim, I);
  if (check_sorted_unique(V, in, &s->update_window_dims, u->rank, "update_window_dims", true) < 0 ||
      check_sorted_unique(V, in, &s->inserted_window_dims, R, "inserted_window_dims", true) < 0 ||
      check_sorted_unique(V, in, &s->scatter_dims_to_operand_dims, R, "scatter_dims_to_operand_dims", false) < 0 ||
      check_sorted_unique(V, in, &s->input_batching_dims, R, "input_batching_dims", true) < 0 ||
      check_sorted_unique(V, in, &s->scatter_indices_batching_dims, I, "scatter_indices_batching_dims", false) < 0)
    return -1;
  int64_t vec = s->index_vector_dim == I ? 1 : ix->dims[s->index_vector_dim];
  if (s->scatter_dims_to_operand_dims.n != vec)
    return fail(V, in->offset, "scatter '%s': scatter_dims_to_operand_dims has %d entries, but the index vector has %lld",
                in->name, s->scatter_dims_to_operand_dims.n, (long long)vec);
  if (s->update_window_dims.n + s->inserted_window_dims.n + s->input_batching_dims.n != R)
    return fail(V, in->offset, "scatter '%s': update_window_dims, inserted_window_dims and input_batching_dims must cover the operand's %d dimensions",
                in->name, R);
  if (s->input_batching_dims.n != s->scatter_indices_batching_dims.n)
    return fail(V, in->offset, "scatter '%s': input_batching_dims and scatter_indices_batching_dims differ in length",
                in->name);
  int batch = I - (s->index_vector_dim < I ? 1 : 0);
  if (u->rank != s->update_window_dims.n + batch)
    return fail(V, in->offset, "scatter '%s': updates %s should have rank %d", in->name, SH(u),
                s->update_window_dims.n + batch);
  if (n == 1) {
    if (!hlo_shape_compatible(in->shape, o) && !(is_array(in->shape) && same_dims(in->shape, o)))
      return fail(V, in->offset, "scatter '%s' has shape %s, but its input is %s", in->name, SH(in->shape), SH2(o));
  } else if (in->shape->type != HLO_TUPLE || in->shape->n_elems != n) {
    return fail(V, in->offset, "scatter '%s' of %d inputs must have a tuple shape of %d arrays", in->name, n, n);
  }
  return 0;
}

static int check_convolution(vctx *V, const hlo_instr *in) {
  const hlo_conv_dims *cd = in->cold->ext->conv_dims;
  const hlo_shape *a = in->operands[0]->shape, *k = in->operands[1]->shape, *r = in->shape;
  char sa[200], sb[200];
  if (!cd) return 0;
  if (cd->input_rank != a->rank || cd->kernel_rank != k->rank || cd->output_rank != r->rank)
    return fail(V, in->offset, "convolution '%s': dim_labels=%s do not match the ranks of input %s, kernel %s and result",
                in->name, cd->labels, SH(a), SH2(k));
  if (cd->input_batch < 0 || cd->input_feature < 0 || cd->kernel_input_feature < 0 || cd->kernel_output_feature < 0 ||
      cd->output_batch < 0 || cd->output_feature < 0) {
    if (!V->warn)
      return fail(V, in->offset, "convolution '%s': dim_labels=%s leave a batch or feature dimension unknown ('?')",
                  in->name, cd->labels);
    char w[HLO_ERROR_MESSAGE_MAX];
    snprintf(w, sizeof w, "convolution '%s': dim_labels=%s leave a batch or feature dimension unknown ('?'): its shapes "
                          "are not checked (--no-verify)", in->name, cd->labels);
    V->warn(V->wctx, in->offset, w);
    return 0;
  }
  if (!in->cold->ext->has_window && cd->n_spatial > 0)
    return fail(V, in->offset, "convolution '%s' with %d spatial dimensions needs window=", in->name, cd->n_spatial);
  if (in->cold->ext->has_window && in->cold->ext->n_window != cd->n_spatial)
    return fail(V, in->offset, "convolution '%s': the window has %d dimensions, but dim_labels=%s has %d spatial dimensions",
                in->name, in->cold->ext->n_window, cd->labels, cd->n_spatial);
  for (int i = 0; i < a->rank; i++)
    if (a->unbounded[i]) return 0;
  for (int i = 0; i < k->rank; i++)
    if (k->unbounded[i]) return 0;
  int64_t in_feat = a->dims[cd->input_feature], in_batch = a->dims[cd->input_batch];
  int64_t k_in = k->dims[cd->kernel_input_feature], k_out = k->dims[cd->kernel_output_feature];
  int64_t fgc = in->cold->ext->feature_group_count, bgc = in->cold->ext->batch_group_count;
  if (in_feat % fgc != 0 || in_feat / fgc != k_in)
    return fail(V, in->offset,
                "convolution '%s': input features (%lld) must equal kernel input features (%lld) times feature_group_count (%lld)",
                in->name, (long long)in_feat, (long long)k_in, (long long)fgc);
  if (k_out % fgc != 0 || k_out % bgc != 0 || in_batch % bgc != 0)
    return fail(V, in->offset,
                "convolution '%s': kernel output features (%lld) and batch (%lld) must be divisible by the group counts",
                in->name, (long long)k_out, (long long)in_batch);
  int64_t want[HLO_MAX_RANK];
  for (int i = 0; i < r->rank; i++) want[i] = -1;
  want[cd->output_batch] = in_batch / bgc;
  want[cd->output_feature] = k_out;
  for (int s = 0; s < cd->n_spatial; s++) {
    const hlo_window_dim *w = &in->cold->ext->window[s];
    int64_t kd = k->dims[cd->kernel_spatial[s]];
    if (w->size != kd)
      return fail(V, in->offset, "convolution '%s': window size %lld of spatial dimension %d differs from the kernel's %lld",
                  in->name, (long long)w->size, s, (long long)kd);
    want[cd->output_spatial[s]] = window_out(a->dims[cd->input_spatial[s]], w);
    if (want[cd->output_spatial[s]] == -2)
      return fail(V, in->offset, "convolution '%s': the window arithmetic of spatial dimension %d overflows int64",
                  in->name, s);
  }
  return result_dims(V, in, want, r->rank);
}

static int leaf_count(const hlo_shape *s, int depth) {
  if (s->type != HLO_TUPLE) return 1;
  if (depth > HLO_MAX_NESTING) return 0;
  int n = 0;
  for (int i = 0; i < s->n_elems; i++) n += leaf_count(s->elems[i], depth + 1);
  return n;
}

/* The computation called through ROLE must take N parameters. */
static int check_called_arity(vctx *V, const hlo_instr *in, hlo_call_role role, int n) {
  for (int i = 0; i < in->cold->n_called; i++) {
    const hlo_computation *c = in->cold->called[i];
    if (in->cold->called_role[i] == role && c->n_params != n)
      return fail(V, in->offset, "%s '%s': the computation '%s' must take %d parameter%s, it takes %d",
                  hlo_instr_opcode_text(in), in->name, c->name, n, n == 1 ? "" : "s", c->n_params);
  }
  return 0;
}

static int check_combiner(vctx *V, const hlo_instr *in, int n) {
  return check_called_arity(V, in, HLO_CALL_TO_APPLY, n);
}

/* fusion / call: the operands are the parameters of the called computation,
 * and its root gives the result (the analysis composes maps through them). */
static int check_called_params(vctx *V, const hlo_instr *in, const hlo_computation *c) {
  char sa[200], sb[200];
  if (c->n_params != in->n_operands)
    return fail(V, in->offset, "%s '%s' has %d operands, but the called computation '%s' has %d parameters",
                hlo_instr_opcode_text(in), in->name, in->n_operands, c->name, c->n_params);
  for (int k = 0; k < c->n_params; k++)
    if (c->params[k] && !hlo_shape_compatible(in->operands[k]->shape, c->params[k]->shape))
      return fail(V, in->offset, "%s '%s': operand %d has shape %s, but parameter %d of '%s' has shape %s",
                  hlo_instr_opcode_text(in), in->name, k, SH(in->operands[k]->shape), k, c->name,
                  SH2(c->params[k]->shape));
  if (c->root && !hlo_shape_compatible(in->shape, c->root->shape))
    return fail(V, in->offset, "%s '%s' has shape %s, but the root '%s' of '%s' has shape %s",
                hlo_instr_opcode_text(in), in->name, SH(in->shape), c->root->name, c->name, SH2(c->root->shape));
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
  for (int i = 0; i < in->cold->n_called; i++) {
    hlo_call_role r = in->cold->called_role[i];
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
  for (int i = 0; i < in->cold->n_called; i++)
    if (in->cold->called[i]->n_params != 1)
      return fail(V, in->offset, "conditional '%s': the branch computation '%s' must take 1 parameter, it takes %d",
                  in->name, in->cold->called[i]->name, in->cold->called[i]->n_params);
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
  for (int i = 0; i < in->cold->n_called; i++)
    if (in->cold->called_role[i] == HLO_CALL_CALLS) return in->cold->called[i];
  return NULL;
}

static int check_async(vctx *V, const hlo_instr *in) {
  char sa[200];
  if (in->op == HLO_OP_ASYNC_START || in->op == HLO_OP_ASYNC_UPDATE) {
    const hlo_shape *s = in->shape;
    if (s->type != HLO_TUPLE || s->n_elems < 2 || s->elems[0]->type != HLO_TUPLE)
      return fail(V, in->offset,
                  "%s '%s' expects the shape to be ((async-operands), async-outputs, state...), found %s",
                  hlo_instr_opcode_text(in), in->name, SH(s));
  }
  if (in->op == HLO_OP_ASYNC_START) {
    const hlo_computation *c = calls_of(in);
    if (in->cold->async_wrapped == HLO_OP_UNKNOWN && !c)
      return fail(V, in->offset, "async-start '%s' requires calls=", in->name);
    if (c && c->n_params != in->n_operands)
      return fail(V, in->offset, "async-start '%s' has %d operands, but the called computation '%s' has %d parameters",
                  in->name, in->n_operands, c->name, c->n_params);
    return 0;
  }
  if (in->n_operands != 1) return arity(V, in, 1, 1);
  const hlo_instr *prev = in->operands[0];
  if (prev->op != HLO_OP_ASYNC_START && prev->op != HLO_OP_ASYNC_UPDATE)
    return fail(V, in->offset, "%s '%s' must take an async-start or async-update, not %s '%s'",
                hlo_instr_opcode_text(in), in->name, hlo_instr_opcode_text(prev), prev->name);
  const hlo_instr *start = async_start_of(prev);
  if (!start) return 0;
  hlo_opcode start_op = start->cold->async_wrapped;
  const hlo_computation *sc = calls_of(start);
  if (start_op == HLO_OP_UNKNOWN && sc && sc->root) start_op = sc->root->op;
  if (in->cold->async_wrapped != HLO_OP_UNKNOWN && start_op != HLO_OP_UNKNOWN && start_op != in->cold->async_wrapped)
    return fail(V, in->offset, "expect async wrapped opcode to be %s, but got %s", hlo_opcode_name(start_op),
                hlo_opcode_name(in->cold->async_wrapped));
  const hlo_computation *mine = calls_of(in), *theirs = calls_of(start);
  if (mine && theirs && mine != theirs)
    return fail(V, in->offset, "expect async_wrapped_computation to be %s, but got %s", theirs->name, mine->name);
  if (strcmp(in->cold->ext->async_execution_thread, start->cold->ext->async_execution_thread) != 0)
    return fail(V, in->offset, "expect async_execution_thread to be %s, but got %s",
                start->cold->ext->async_execution_thread, in->cold->ext->async_execution_thread);
  return 0;
}

static int check_instr(vctx *V, const hlo_instr *in) {
  char sa[200], sb[200];
  hlo_opcode op = in->op;
  if (op == HLO_OP_UNKNOWN || op == HLO_OP_CONSTANT) return 0;
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
    if (check_dims_list(V, in, &in->cold->dimensions, in->operands[0]->shape->rank, "dimensions", true) < 0) return -1;
    if (!same_dims(in->shape, in->operands[0]->shape))
      return (in->shape->rank == in->operands[0]->shape->rank ? shape_mismatch : fail)(
          V, in->offset, "reverse '%s' has shape %s, but its operand is %s", in->name, SH(in->shape),
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
    if (check_reduce(V, in) < 0) return -1;
    return check_combiner(V, in, in->n_operands);
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
    if (in->cold->ext->iota_dimension >= in->shape->rank)
      return fail(V, in->offset, "iota '%s': iota_dimension=%lld is out of range for %s", in->name,
                  (long long)in->cold->ext->iota_dimension, SH(in->shape));
    return 0;
  case HLO_OP_GATHER:
    if (arity(V, in, 2, 2) < 0 || need_arrays(V, in) < 0) return -1;
    return check_gather(V, in);
  case HLO_OP_SCATTER:
    if (arity(V, in, 3, -1) < 0) return -1;
    if (in->n_operands % 2 != 1)
      return fail(V, in->offset, "scatter '%s' needs an odd number of operands (inputs, indices, updates), but has %d",
                  in->name, in->n_operands);
    for (int i = 0; i < in->n_operands; i++)
      if (!is_array(in->operands[i]->shape))
        return fail(V, in->offset, "operand %d of scatter '%s' must be an array", i, in->name);
    if (check_scatter(V, in) < 0) return -1;
    return check_combiner(V, in, in->n_operands - 1);
  case HLO_OP_CONVOLUTION:
    if (arity(V, in, 2, 2) < 0 || need_arrays(V, in) < 0) return -1;
    return check_convolution(V, in);
  case HLO_OP_SELECT_AND_SCATTER: {
    if (arity(V, in, 3, 3) < 0 || need_arrays(V, in) < 0) return -1;
    const hlo_shape *o = in->operands[0]->shape, *src = in->operands[1]->shape;
    if (in->cold->ext->has_window && in->cold->ext->n_window != o->rank)
      return fail(V, in->offset, "select-and-scatter '%s': the window has %d dimensions, but the operand has rank %d",
                  in->name, in->cold->ext->n_window, o->rank);
    if (in->cold->ext->has_window) {
      int64_t want[HLO_MAX_RANK];
      if (check_window_dims(V, in, o, want) < 0) return -1;
      bool ok = src->rank == o->rank;
      for (int i = 0; ok && i < o->rank; i++) ok = want[i] < 0 || src->unbounded[i] || src->dims[i] == want[i];
      if (!ok)
        return fail(V, in->offset, "select-and-scatter '%s': the source %s does not match the windowed operand %s",
                    in->name, SH(src), SH2(o));
    }
    if (!same_dims(in->shape, o))
      return fail(V, in->offset, "select-and-scatter '%s' has shape %s, but its operand is %s", in->name,
                  SH(in->shape), SH2(o));
    if (check_called_arity(V, in, HLO_CALL_SELECT, 2) < 0) return -1;
    return check_called_arity(V, in, HLO_CALL_SCATTER, 2);
  }
  case HLO_OP_PARAMETER:
    if (in->cold->ext->n_parameter_replication > 0 &&
        in->cold->ext->n_parameter_replication != leaf_count(in->shape, 0))
      return fail(V, in->offset, "parameter '%s' has %d leaf buffers, but parameter_replication has %d elements",
                  in->name, leaf_count(in->shape, 0), in->cold->ext->n_parameter_replication);
    return 0;
  case HLO_OP_FUSION: case HLO_OP_CALL:
    for (int i = 0; i < in->cold->n_called; i++)
      if ((in->cold->called_role[i] == HLO_CALL_CALLS || in->cold->called_role[i] == HLO_CALL_TO_APPLY) &&
          check_called_params(V, in, in->cold->called[i]) < 0)
        return -1;
    return 0;
  case HLO_OP_WHILE:
    if (arity(V, in, 1, 1) < 0) return -1;
    for (int i = 0; i < in->cold->n_called; i++)
      if (in->cold->called[i]->n_params != 1)
        return fail(V, in->offset, "while '%s': the %s computation '%s' must have exactly one parameter, it has %d",
                    in->name, in->cold->called_role[i] == HLO_CALL_CONDITION ? "condition" : "body",
                    in->cold->called[i]->name, in->cold->called[i]->n_params);
    return 0;
  case HLO_OP_CONDITIONAL:
    return check_conditional(V, in);
  /* (XLA's builders: cholesky(a), triangular-solve(a, b), rng-bit-generator(state),
   * ragged-all-to-all(input, output, input_offsets, send_sizes, output_offsets, recv_sizes);
   * bitcast, opt-barrier, copy-start and each *-done take one) */
  case HLO_OP_CHOLESKY: case HLO_OP_RNG_BIT_GENERATOR: case HLO_OP_BITCAST: case HLO_OP_OPT_BARRIER:
  case HLO_OP_COPY_START: case HLO_OP_COPY_DONE: case HLO_OP_RECV_DONE: case HLO_OP_SEND_DONE:
  case HLO_OP_ALL_GATHER_DONE: case HLO_OP_ALL_REDUCE_DONE: case HLO_OP_COLLECTIVE_PERMUTE_DONE:
    return arity(V, in, 1, 1);
  case HLO_OP_TRIANGULAR_SOLVE:
    return arity(V, in, 2, 2);
  case HLO_OP_RAGGED_ALL_TO_ALL:
    return arity(V, in, 6, 6);
  case HLO_OP_INFEED:
    if (in->shape->type != HLO_TUPLE || in->shape->n_elems == 0)
      return fail(V, in->offset, "infeed '%s' must have a non-empty tuple shape (data, token[]), not %s", in->name,
                  SH(in->shape));
    return 0;
  case HLO_OP_OUTFEED:
    if (in->cold->ext->outfeed_shape && in->n_operands >= 1 &&
        !hlo_shape_compatible(in->cold->ext->outfeed_shape, in->operands[0]->shape))
      return fail(V, in->offset, "outfeed '%s': outfeed_shape %s is not compatible with the operand shape %s",
                  in->name, SH(in->cold->ext->outfeed_shape), SH2(in->operands[0]->shape));
    return 0;
  case HLO_OP_GET_DIMENSION_SIZE: case HLO_OP_SET_DIMENSION_SIZE:
    if (arity(V, in, op == HLO_OP_GET_DIMENSION_SIZE ? 1 : 2, op == HLO_OP_GET_DIMENSION_SIZE ? 1 : 2) < 0) return -1;
    if (in->cold->has_dimensions && (in->cold->dimensions.n != 1 || !is_array(in->operands[0]->shape) ||
                               in->cold->dimensions.v[0] >= in->operands[0]->shape->rank))
      return fail(V, in->offset, "%s '%s' needs dimensions={d} with d below the operand's rank",
                  hlo_instr_opcode_text(in), in->name);
    return 0;
  case HLO_OP_ALL_GATHER: case HLO_OP_REDUCE_SCATTER: case HLO_OP_ALL_GATHER_START:
    for (int i = 0; i < in->n_operands; i++) {
      const hlo_shape *s = in->operands[i]->shape;
      if (is_array(s) && in->cold->has_dimensions &&
          (in->cold->dimensions.n != 1 || in->cold->dimensions.v[0] >= s->rank))
        return fail(V, in->offset, "%s '%s' needs dimensions={d} with d below the operands' rank",
                    hlo_instr_opcode_text(in), in->name);
    }
    return check_combiner(V, in, 2);
  case HLO_OP_ALL_REDUCE: case HLO_OP_ALL_REDUCE_START:
    return check_combiner(V, in, 2);
  case HLO_OP_MAP:
    return check_combiner(V, in, in->n_operands);
  case HLO_OP_SORT:
    if (arity(V, in, 1, -1) < 0) return -1;
    return check_combiner(V, in, 2 * in->n_operands);
  case HLO_OP_ASYNC_START: case HLO_OP_ASYNC_UPDATE: case HLO_OP_ASYNC_DONE:
    return check_async(V, in);
  case HLO_OP_CUSTOM_CALL:
    if (in->cold->ext->operand_layout_constraints) {
      int n = in->cold->ext->n_operand_layout_constraints;
      if (n != in->n_operands)
        return fail(V, in->offset, "custom-call '%s' has %d operand layout constraints, but %d operands", in->name, n,
                    in->n_operands);
      for (int i = 0; i < n; i++)
        if (!hlo_shape_compatible(in->cold->ext->operand_layout_constraints[i], in->operands[i]->shape))
          return fail(V, in->offset,
                      "custom-call '%s': operand %d is not compatible with operand shape %s (layout constraint %s)",
                      in->name, i, SH(in->operands[i]->shape), SH2(in->cold->ext->operand_layout_constraints[i]));
    }
    return 0;
  default:
    return 0;
  }
}

typedef struct callee_use {
  const hlo_computation *callee;
  const hlo_instr *user;
} callee_use;

static int cmp_use(const void *a, const void *b) {
  const callee_use *x = a, *y = b;
  if (x->callee != y->callee) return x->callee->index < y->callee->index ? -1 : 1;
  return x->user->offset < y->user->offset ? -1 : x->user->offset > y->user->offset;
}

/* USES: the async-start instructions of the module with the computation
 * each calls (collected by verify_computations' pass over the instructions). */
static int check_async_callees(vctx *V, callee_use *uses, size_t n) {
  if (n > 1) qsort(uses, n, sizeof *uses, cmp_use);
  for (size_t i = 1; i < n; i++)
    if (uses[i].callee == uses[i - 1].callee)
      return fail(V, uses[i].user->offset, "computation %s is called by more than one async op ('%s' and '%s')",
                  uses[i].callee->name, uses[i - 1].user->name, uses[i].user->name);
  return 0;
}

/* ---- cycles ------------------------------------------------------------------
 * The operand graph of a computation (operands and control predecessors) and
 * the call graph of the module must be acyclic: an instruction that is its
 * own operand, or a computation that calls itself through calls=, to_apply=,
 * body=, ..., has no meaning (XLA rejects both). Both walks are iterative,
 * so that a chain of 50,000 instructions or computations needs no deep C
 * stack. */

typedef struct walk_frame {
  int node;  /* instruction index in the computation / computation index in the module */
  int edge;  /* next edge to follow */
  int edge2; /* call graph: next called computation of instruction `edge` */
} walk_frame;

/* Appends " -> NAME" (or the first NAME) to buf while it fits; "..." once. */
static void path_add(char *buf, size_t cap, const char *name, bool *full) {
  size_t w = strlen(buf);
  if (*full) return;
  if (w + strlen(name) + 12 > cap) {
    snprintf(buf + w, cap - w, " -> ...");
    *full = true;
    return;
  }
  snprintf(buf + w, cap - w, "%s%s", w ? " -> " : "", name);
}

static const hlo_instr *operand_edge(const hlo_instr *in, int k) {
  if (k < in->n_operands) return in->operands[k];
  k -= in->n_operands;
  return k < in->cold->ext->n_control_predecessors ? in->cold->ext->control_predecessors[k] : NULL;
}

/* The one depth-first search both checks use; a graph is given by two
 * callbacks. next(g, f, &site, &target_name): the next edge out of node
 * f->node (advancing f->edge / f->edge2) as its target's index,
 * WALK_SKIP for an edge that leaves the graph, WALK_DONE when the node has
 * no edges left; *site is the instruction the edge belongs to.
 * name(g, node): the node's name for the path. */
enum { WALK_DONE = -1, WALK_SKIP = -2 };
typedef int (*walk_next_fn)(const void *g, walk_frame *f, const hlo_instr **site, const char **target_name);
typedef const char *(*walk_name_fn)(const void *g, int node);

typedef struct {
  const hlo_instr *site;                  /* the instruction whose edge closes the cycle */
  const char *target;                     /* the node it goes back to */
  char path[HLO_ERROR_MESSAGE_MAX - 120]; /* "a -> b -> ... -> a" */
} walk_cycle;

/* True, with *cyc filled, at the first cycle found (nodes are visited in
 * index order, edges in the order next gives them). */
static bool find_cycle(const void *g, int n, walk_next_fn next, walk_name_fn name, walk_cycle *cyc) {
  unsigned char *state = hb_calloc((size_t)n, 1); /* 0 new, 1 on the path, 2 done */
  walk_frame *st = hb_calloc((size_t)n, sizeof *st);
  bool found = false;
  for (int r = 0; r < n && !found; r++) {
    if (state[r]) continue;
    int top = 0;
    st[0] = (walk_frame){r, 0, 0};
    state[r] = 1;
    while (top >= 0 && !found) {
      walk_frame *f = &st[top];
      const hlo_instr *site = NULL;
      const char *target = NULL;
      int j = next(g, f, &site, &target);
      if (j == WALK_DONE) {
        state[f->node] = 2;
        top--;
        continue;
      }
      if (j == WALK_SKIP || state[j] == 2) continue;
      if (state[j] == 0) {
        state[j] = 1;
        st[++top] = (walk_frame){j, 0, 0};
        continue;
      }
      /* a cycle: from j on the path down to the current node, then back to j */
      cyc->site = site;
      cyc->target = target;
      cyc->path[0] = '\0';
      bool full = false;
      int from = top;
      while (from > 0 && st[from].node != j) from--;
      for (int k = from; k <= top; k++) path_add(cyc->path, sizeof cyc->path, name(g, st[k].node), &full);
      path_add(cyc->path, sizeof cyc->path, target, &full);
      found = true;
    }
  }
  free(st);
  free(state);
  return found;
}

/* Operand graph of a computation: edges are operands, then control predecessors. */
static int operand_next(const void *g, walk_frame *f, const hlo_instr **site, const char **target_name) {
  const hlo_computation *comp = g;
  const hlo_instr *in = comp->instrs[f->node];
  const hlo_instr *next = operand_edge(in, f->edge);
  if (!next) return WALK_DONE;
  f->edge++;
  if (next->parent != comp) return WALK_SKIP; /* (the parser resolves operands within the computation) */
  *site = in;
  *target_name = next->name;
  return next->index;
}

static const char *operand_name(const void *g, int node) {
  return ((const hlo_computation *)g)->instrs[node]->name;
}

static int check_operand_cycles(vctx *V, const hlo_computation *comp) {
  walk_cycle cyc;
  if (!find_cycle(comp, comp->n_instrs, operand_next, operand_name, &cyc)) return 0;
  return fail(V, cyc.site->offset, "'%s' depends on itself: the operands of computation '%s' form a cycle (%s)",
              cyc.target, comp->name, cyc.path);
}

/* Call graph of a module: edges are the called computations of each
 * instruction, in instruction order. */
static int call_next(const void *g, walk_frame *f, const hlo_instr **site, const char **target_name) {
  const hlo_module *m = g;
  const hlo_computation *c = m->computations[f->node];
  for (;;) {
    if (f->edge >= c->n_instrs) return WALK_DONE;
    const hlo_instr *in = c->instrs[f->edge];
    if (f->edge2 < in->cold->n_called) {
      const hlo_computation *callee = in->cold->called[f->edge2++];
      if (!callee || callee->module != m) return WALK_SKIP;
      *site = in;
      *target_name = callee->name;
      return callee->index;
    }
    f->edge++;
    f->edge2 = 0;
  }
}

static const char *call_name(const void *g, int node) { return ((const hlo_module *)g)->computations[node]->name; }

static int check_call_cycles(vctx *V, const hlo_module *m) {
  walk_cycle cyc;
  if (!find_cycle(m, m->n_computations, call_next, call_name, &cyc)) return 0;
  return fail(V, cyc.site->offset, "computation '%s' calls itself: '%s' closes a cycle of called computations (%s)",
              cyc.target, cyc.site->name, cyc.path);
}

/* Whether every computation IN (in computation C of M) calls comes before C. */
static bool callees_come_first(const hlo_module *m, int c, const hlo_instr *in) {
  for (int k = 0; k < in->cold->n_called; k++)
    if (in->cold->called[k] && in->cold->called[k]->module == m && in->cold->called[k]->index >= c) return false;
  return true;
}

/* One pass over the instructions checks each of them and gathers what the
 * module-wide checks need. The cycle searches run only where an edge may go
 * forward: when every edge goes to a node of lower index, the index order
 * is a topological order and there is no cycle. That is the usual case
 * (dumps define operands before their users, and callees before their
 * callers): the parser says so for operands (operands_first, which it
 * knows as it resolves them), and the calls are looked at here. */
static int verify_computations(vctx *V, const hlo_module *m, callee_use **uses, size_t *n_uses) {
  char sa[200], sb[200];
  size_t cap = 0;
  bool calls_back = true;
  for (int c = 0; c < m->n_computations; c++) {
    const hlo_computation *comp = m->computations[c];
    if (comp->signature_result && !hlo_shape_compatible(comp->signature_result, comp->root->shape))
      return fail(V, comp->offset,
                  "the result shape %s of computation '%s' is not compatible with the shape %s of its root '%s'",
                  SH(comp->signature_result), comp->name, SH2(comp->root->shape), comp->root->name);
    for (int i = 0; i < comp->n_instrs; i++) {
      const hlo_instr *in = comp->instrs[i];
      if (check_instr(V, in) < 0) return -1;
      if (in->cold->n_called && calls_back) calls_back = callees_come_first(m, c, in);
      const hlo_computation *w = in->op == HLO_OP_ASYNC_START ? calls_of(in) : NULL;
      if (!w) continue;
      if (*n_uses == cap) {
        cap = cap ? cap * 2 : 16;
        *uses = hb_realloc(*uses, cap * sizeof **uses);
      }
      (*uses)[(*n_uses)++] = (callee_use){w, in};
    }
    if (!comp->operands_first && check_operand_cycles(V, comp) < 0) return -1;
  }
  if (!calls_back && check_call_cycles(V, m) < 0) return -1;
  /* an async computation belongs to one async chain */
  return check_async_callees(V, *uses, *n_uses);
}

static int verify(vctx *Vp);

int hlo_verify_module(const hlo_module *m, hlo_error *err) {
  vctx V = {m, err, NULL, NULL};
  return verify(&V);
}

int hlo_verify_module_lenient(const hlo_module *m, hlo_error *err, void (*warn)(void *ctx, size_t off, const char *msg),
                              void *ctx) {
  vctx V = {m, err, warn, ctx};
  return verify(&V);
}

static int verify(vctx *Vp) {
  vctx V = *Vp;
  const hlo_module *m = V.m;
  char sa[200], sb[200];
  callee_use *uses = NULL;
  size_t n_uses = 0;
  int rc = verify_computations(&V, m, &uses, &n_uses);
  free(uses);
  if (rc < 0) return 1;
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
