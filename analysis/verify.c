/* Enumeration check of indexing maps (verify.h): the reference relation of
 * each op from its definition, the relation denoted by the maps, and their
 * comparison. */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"
#include "oom.h"
#include "simplify.h"
#include "tiled_layout.h"

#define MAXR 16       /* largest rank handled */
#define OOB INT64_MIN /* "to" of a result outside the tensor */

/* ---- shapes and indices ------------------------------------------------------------------------------ */

static bool is_array(const hlo_shape *s) { return s->type != HLO_TUPLE && s->type != HLO_BUFFER; }

static const hlo_shape *elem_shape(const hlo_shape *s, int64_t k) {
  return s->type == HLO_TUPLE && k >= 0 && k < s->n_elems ? s->elems[k] : s;
}

static int64_t nelems(const hlo_shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

static int64_t lin(const hlo_shape *s, const int64_t *idx) {
  int64_t l = 0;
  for (int i = 0; i < s->rank; i++) l = l * s->dims[i] + idx[i];
  return l;
}

static void delin(const hlo_shape *s, int64_t l, int64_t *idx) {
  for (int i = s->rank; i-- > 0;) {
    idx[i] = s->dims[i] ? l % s->dims[i] : 0;
    l = s->dims[i] ? l / s->dims[i] : 0;
  }
}

static bool in_bounds(const hlo_shape *s, const int64_t *idx) {
  for (int i = 0; i < s->rank; i++)
    if (idx[i] < 0 || idx[i] >= s->dims[i]) return false;
  return true;
}

/* Odometer over [lo_i, hi_i]. */
static bool first_point(int n, int64_t *v, const int64_t *lo, const int64_t *hi) {
  for (int i = 0; i < n; i++) {
    if (lo[i] > hi[i]) return false;
    v[i] = lo[i];
  }
  return true;
}

static bool next_point(int n, int64_t *v, const int64_t *lo, const int64_t *hi) {
  for (int i = n; i-- > 0;) {
    if (v[i] < hi[i]) {
      v[i]++;
      return true;
    }
    v[i] = lo[i];
  }
  return false;
}

static void put_index(char *buf, size_t cap, const hlo_shape *s, int64_t l) {
  int64_t idx[MAXR];
  size_t n = 0;
  if (l == OOB) {
    snprintf(buf, cap, "(outside)");
    return;
  }
  delin(s, l, idx);
  n += (size_t)snprintf(buf + n, cap - n, "[");
  for (int i = 0; i < s->rank && n < cap; i++) n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? "," : "", (long long)idx[i]);
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

/* ---- relations: sorted arrays of (from, to) pairs ------------------------------------------------------ */

typedef struct {
  int64_t *v;
  size_t n, cap; /* n counts int64 slots (2 per pair) */
} rel;

static void rel_add(rel *r, int64_t from, int64_t to) {
  if (r->n + 2 > r->cap) {
    r->cap = r->cap ? r->cap * 2 : 256;
    r->v = xrealloc(r->v, r->cap * sizeof *r->v);
  }
  r->v[r->n++] = from;
  r->v[r->n++] = to;
}

static int cmp_pair(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void rel_norm(rel *r) {
  size_t np = r->n / 2, w = 0;
  if (np == 0) return;
  qsort(r->v, np, 2 * sizeof *r->v, cmp_pair);
  for (size_t i = 0; i < np; i++) {
    if (w && r->v[2 * w - 2] == r->v[2 * i] && r->v[2 * w - 1] == r->v[2 * i + 1]) continue;
    r->v[2 * w] = r->v[2 * i];
    r->v[2 * w + 1] = r->v[2 * i + 1];
    w++;
  }
  r->n = 2 * w;
}

static bool rel_has(const rel *r, int64_t from, int64_t to) {
  int64_t key[2] = {from, to};
  if (r->n == 0) return false;
  return bsearch(key, r->v, r->n / 2, 2 * sizeof *r->v, cmp_pair) != NULL;
}

static void rel_free(rel *r) {
  free(r->v);
  memset(r, 0, sizeof *r);
}

/* ---- the reference ------------------------------------------------------------------------------------ */

typedef void (*emit_fn)(void *cl, const int64_t *idx);

/* Per-computation state of the fusion propagation, reused across output
 * elements (only touched entries are cleared). */
typedef struct fctx fctx;
struct fctx {
  const hlo_computation *comp;
  uint8_t **seen;       /* per instruction: a flag per element */
  int64_t **touched;    /* per instruction: the elements flagged, in order */
  size_t *ntouched, *cap;
  const hlo_instr **order; /* post-order of the instructions reachable from the target */
  int norder;
  const hlo_instr *target;
  fctx *next;           /* the cache list */
};

typedef struct {
  uint64_t work, max_work;
  bool over;
  fctx *fctxs;
} ref;

static void ref_reads(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl);

static bool work(ref *R, uint64_t n) {
  R->work += n;
  if (R->work > R->max_work) R->over = true;
  return !R->over;
}

/* The op's semantics: the family of its out2in rule in hloidx's semantics
 * (the HLO_OPCODES table); the elementwise ops XLA leaves without a rule
 * read elementwise all the same. */
static ii_family family(hlo_opcode op) {
  if (hlo_opcode_is_elementwise_unary(op) || hlo_opcode_is_elementwise_binary(op)) return II_FAM_EW;
  return ii_o2i_family(op, false);
}

static bool in_ints(const hlo_ints *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static bool const_offset(const hlo_instr *idx, int64_t *v) {
  return idx->op == HLO_OP_CONSTANT && idx->shape->type != HLO_TUPLE && idx->shape->rank == 0 &&
         hlo_constant_scalar_int(idx, v);
}

/* The values a start-index operand can take, clamped to [0, hi]: a scalar
 * constant's clamped value, else the whole range. */
static void offset_range(const hlo_instr *idx, int64_t hi, int64_t *lo_out, int64_t *hi_out) {
  int64_t v;
  if (const_offset(idx, &v)) {
    *lo_out = *hi_out = clamp64(v, 0, hi);
  } else {
    *lo_out = 0;
    *hi_out = hi;
  }
}

/* A computation the op runs on its operands, for output OUTPUT_ID and
 * operand K: a fusion's fused computation, a call's callee, the branch of
 * a conditional that operand K is passed to, an async-start's wrapped
 * computation (output 1). ARGS[q] is the instruction bound to parameter q;
 * TARGET the root (or root tuple element) the output is. */
typedef struct {
  const hlo_computation *comp;
  const hlo_instr *const *args;
  int nargs;
  const hlo_instr *target;
} callee;

static const hlo_computation *called(const hlo_instr *in, hlo_call_role role) {
  for (int i = 0; i < in->n_called; i++)
    if (in->called_role[i] == role) return in->called[i];
  return NULL;
}

static bool callee_of(const hlo_instr *in, int64_t output_id, int k, callee *ce) {
  memset(ce, 0, sizeof *ce);
  ce->args = (const hlo_instr *const *)in->operands;
  ce->nargs = in->n_operands;
  int64_t root_out = output_id;
  switch (in->op) {
  case HLO_OP_FUSION: ce->comp = called(in, HLO_CALL_CALLS); break;
  case HLO_OP_CALL: ce->comp = called(in, HLO_CALL_TO_APPLY); break;
  case HLO_OP_ASYNC_START:
    ce->comp = output_id == 1 ? called(in, HLO_CALL_CALLS) : NULL;
    root_out = 0;
    break;
  case HLO_OP_CONDITIONAL: {
    const hlo_computation *t = called(in, HLO_CALL_TRUE_COMPUTATION), *f = called(in, HLO_CALL_FALSE_COMPUTATION);
    int b = 0;
    for (int i = 0; !t && i < in->n_called; i++)
      if (in->called_role[i] == HLO_CALL_BRANCH_COMPUTATIONS && ++b == k) ce->comp = in->called[i];
    if (t && f && (k == 1 || k == 2)) ce->comp = k == 1 ? t : f;
    if (k >= 1 && k < in->n_operands) ce->args = (const hlo_instr *const *)&in->operands[k], ce->nargs = 1;
    break;
  }
  default: break;
  }
  if (!ce->comp || !ce->comp->root) return false;
  const hlo_instr *root = ce->comp->root;
  if (root->op == HLO_OP_TUPLE) ce->target = root_out >= 0 && root_out < root->n_operands ? root->operands[root_out] : NULL;
  else ce->target = root_out == 0 ? root : NULL;
  return ce->target != NULL;
}

/* ---- which ops have a reference, and where XLA's map only covers the reads ---- */

typedef struct {
  const char *no_ref; /* why there is no reference (NULL: there is one) */
  bool covering;      /* XLA's map over-approximates: check coverage only */
  bool clip;          /* results outside the operand are dropped (dynamic-update-slice update) */
} edge;

static edge edge_of(const hlo_instr *in, int64_t output_id, int k, int depth);

static bool rank_ok(const hlo_shape *s) { return is_array(s) && s->rank <= MAXR; }

/* Fusion: the edges from the target to parameter k, combined over every
 * path (instructions visited users before operands). */
static edge fusion_edge(const hlo_instr *in, int64_t output_id, int k, int depth) {
  edge e = {NULL, false, false};
  callee ce;
  if (in->op == HLO_OP_CONDITIONAL && k == 0) return e; /* the branch index, read by every element */
  if (!callee_of(in, output_id, k, &ce)) return (edge){"a fusion whose output is not an array root", false, false};
  const hlo_computation *comp = ce.comp;
  const hlo_instr *target = ce.target;
  if (depth > 50) return (edge){"fusions nested too deeply", false, false};
  if (comp->n_params != ce.nargs) return (edge){"a fusion with mismatched parameters", false, false};
  int n = comp->n_instrs;
  uint8_t *reach = xcalloc((size_t)n + 1, 1), *cov = xcalloc((size_t)n + 1, 1), *clip = xcalloc((size_t)n + 1, 1);
  reach[target->index] = 1;
  /* textual order has operands before users except for forward references;
   * iterate to a fixed point (cheap: fused computations are small) */
  for (bool changed = true; changed && !e.no_ref;) {
    changed = false;
    for (int i = n; i-- > 0 && !e.no_ref;) {
      const hlo_instr *x = comp->instrs[i];
      if (!reach[i] || x->op == HLO_OP_PARAMETER) continue;
      if (!rank_ok(x->shape)) {
        e.no_ref = "a fusion with a tuple-shaped or very high-rank value inside";
        break;
      }
      for (int j = 0; j < x->n_operands; j++) {
        const hlo_instr *op = x->operands[j];
        if (op->parent != comp) continue;
        edge xe = edge_of(x, 0, j, depth + 1);
        if (xe.no_ref) {
          e.no_ref = xe.no_ref;
          break;
        }
        uint8_t c2 = (uint8_t)(cov[i] | xe.covering | xe.clip), l2 = (uint8_t)(clip[i] | xe.clip);
        if (!reach[op->index] || (cov[op->index] | c2) != cov[op->index] || (clip[op->index] | l2) != clip[op->index]) {
          changed = true;
          reach[op->index] = 1;
          cov[op->index] |= c2;
          clip[op->index] |= l2;
        }
      }
    }
  }
  if (!e.no_ref)
    for (int q = 0; q < comp->n_params; q++) { /* every parameter bound to operand k */
      if (ce.args[q] != in->operands[k]) continue;
      e.covering |= cov[comp->params[q]->index];
      e.clip |= clip[comp->params[q]->index];
    }
  free(reach);
  free(cov);
  free(clip);
  return e;
}

static edge edge_ew(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)depth;
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  bool same = xs->rank == 0 || xs->rank == os->rank;
  for (int i = 0; same && xs->rank && i < xs->rank; i++) same = xs->dims[i] == os->dims[i];
  if (!same) return (edge){"an elementwise op whose operand has another shape (XLA maps it as the identity)", false, false};
  return (edge){NULL, false, false};
}

static edge edge_bitcast(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)depth;
  if (nelems(in->operands[k]->shape) != nelems(elem_shape(in->shape, output_id)))
    return (edge){"a bitcast that changes the element count", false, false};
  return (edge){NULL, false, false};
}

static edge edge_pad(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)in, (void)output_id, (void)depth;
  return (edge){NULL, k == 1, false};
}

static edge edge_conv(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)depth;
  if (!in->ext->conv_dims || in->ext->conv_dims->n_spatial > MAXR)
    return (edge){"a convolution without dim_labels", false, false};
  return (edge){NULL, k == 0 && in->ext->batch_group_count > 1, false};
}

static edge edge_dynamic(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)depth;
  edge e = {NULL, false, false};
  const hlo_shape *os = elem_shape(in->shape, output_id);
  bool ds = in->op == HLO_OP_DYNAMIC_SLICE;
  int first = ds ? 1 : 2;
  const hlo_shape *inner = ds ? in->operands[0]->shape : in->operands[1 < in->n_operands ? 1 : 0]->shape;
  if (in->n_operands - first != os->rank) return (edge){"start indices that are not one scalar per dimension", false, false};
  if (!ds && k == 0) e.covering = true;
  if (!ds && k == 1) e.clip = true;
  if (k == 0 || (!ds && k == 1))
    for (int i = 0; i < os->rank; i++) {
      int64_t v, hi = ds ? inner->dims[i] - os->dims[i] : os->dims[i] - inner->dims[i];
      if (const_offset(in->operands[first + i], &v) && (v < 0 || v > hi)) e.covering = true;
    }
  return e;
}

static edge edge_gather(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)depth;
  const hlo_gather_dims *g = in->ext->gather;
  const hlo_instr *ind = in->operands[1];
  if (!g || ind->shape->rank != 2 || g->index_vector_dim != 1 || g->collapsed_slice_dims.n ||
      g->operand_batching_dims.n || g->offset_dims.n != in->operands[0]->shape->rank)
    return (edge){"a gather not in the simplified form", false, false};
  if (k == 0 && ind->op == HLO_OP_IOTA)
    for (int t = 0; t < g->start_index_map.n; t++) {
      int64_t i = g->start_index_map.v[t], mx = in->operands[0]->shape->dims[i] - g->slice_sizes.v[i];
      int64_t top = ind->ext->iota_dimension == 0 ? ind->shape->dims[0] - 1 : t;
      if (top > mx) return (edge){"a gather of iota indices beyond the clamped range (XLA folds them unclamped)", false, false};
    }
  return (edge){NULL, false, false};
}

static edge edge_all_gather(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)k, (void)depth;
  if (in->op != HLO_OP_ALL_GATHER) return (edge){in->opcode_text, false, false};
  if (in->dimensions.n != 1) return (edge){"an all-gather without one dimension", false, false};
  return (edge){NULL, false, false};
}

/* The reference of each rule family: EDGE says whether and how the maps
 * are compared (NULL: exactly, always), READS what an output element reads;
 * TUPLE_OK: the reference handles tuple-shaped results. A family without
 * READS has no reference. */
typedef void (*reads_fn)(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl);
typedef struct {
  edge (*edge)(const hlo_instr *in, int64_t output_id, int k, int depth);
  reads_fn reads;
  bool tuple_ok;
  /* the tuple element of operand K that output OUTPUT_ID reads; NULL or
   * -1: the operand itself */
  int64_t (*part)(const hlo_instr *in, int64_t output_id, int k);
} vf_ref;

static const vf_ref refs[II_FAM_COUNT];

static int64_t part_of(const hlo_instr *in, int64_t output_id, int k) {
  const vf_ref *f = &refs[family(in->op)];
  return f->part ? f->part(in, output_id, k) : -1;
}

/* What output OUTPUT_ID reads of operand K: the operand or its element. */
static const hlo_shape *read_shape(const hlo_instr *in, int64_t output_id, int k) {
  const hlo_shape *x = in->operands[k]->shape;
  int64_t e = part_of(in, output_id, k);
  return e >= 0 && x->type == HLO_TUPLE && e < x->n_elems ? x->elems[e] : x;
}

static edge edge_of(const hlo_instr *in, int64_t output_id, int k, int depth) {
  const hlo_shape *os = elem_shape(in->shape, output_id);
  if (k < 0 || k >= in->n_operands) return (edge){"no such operand", false, false};
  const hlo_shape *xs = read_shape(in, output_id, k);
  const vf_ref *f = &refs[family(in->op)];
  if (in->op != HLO_OP_FUSION && (!rank_ok(os) || !rank_ok(xs)))
    return (edge){"a tuple-shaped or very high-rank value", false, false};
  if (in->shape->type == HLO_TUPLE && !f->tuple_ok) return (edge){"a tuple-shaped op", false, false};
  if (!f->reads) return (edge){in->opcode_text, false, false};
  return f->edge ? f->edge(in, output_id, k, depth) : (edge){NULL, false, false};
}

/* ---- per-op reads (what output element o of output output_id reads of operand k) ---- */

static void ref_conv(ref *R, const hlo_instr *in, int k, const int64_t *o, emit_fn emit, void *cl) {
  const hlo_conv_dims *cd = in->ext->conv_dims;
  const hlo_shape *xs = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  int sp = cd->n_spatial;
  int64_t b = o[cd->output_batch], f = o[cd->output_feature];
  int64_t gin = ks->dims[cd->kernel_input_feature], fout = os->dims[cd->output_feature];
  int64_t fg = in->ext->feature_group_count > 0 && fout >= in->ext->feature_group_count ? f / (fout / in->ext->feature_group_count) : 0;
  int64_t bg = in->ext->batch_group_count > 0 && fout >= in->ext->batch_group_count ? f / (fout / in->ext->batch_group_count) : 0;
  int64_t w[MAXR], wlo[MAXR], whi[MAXR], idx[MAXR];
  for (int i = 0; i < sp; i++) {
    wlo[i] = 0;
    whi[i] = in->ext->window[i].size - 1;
  }
  if (!first_point(sp, w, wlo, whi)) return;
  do {
    for (int64_t c = 0; c < gin && work(R, 1); c++) {
      if (k == 1) {
        for (int i = 0; i < sp; i++) idx[cd->kernel_spatial[i]] = w[i];
        idx[cd->kernel_output_feature] = f;
        idx[cd->kernel_input_feature] = c;
        emit(cl, idx);
        continue;
      }
      bool pad = false;
      for (int i = 0; i < sp; i++) {
        const hlo_window_dim *wd = &in->ext->window[i];
        int64_t p = o[cd->output_spatial[i]] * wd->stride + w[i] * wd->rhs_dilate - wd->pad_lo;
        if (p < 0 || p % wd->lhs_dilate) {
          pad = true;
          break;
        }
        int64_t q = p / wd->lhs_dilate;
        if (q >= xs->dims[cd->input_spatial[i]]) {
          pad = true;
          break;
        }
        idx[cd->input_spatial[i]] = q;
      }
      if (pad) continue;
      idx[cd->input_feature] = fg * gin + c;
      idx[cd->input_batch] = in->ext->batch_group_count > 1 ? bg * os->dims[cd->output_batch] + b : b;
      emit(cl, idx);
    }
  } while (!R->over && next_point(sp, w, wlo, whi));
}

/* Fusion: the elements of every instruction reachable from the target,
 * propagated from output element o (users before operands). */
static void postorder(const hlo_computation *c, const hlo_instr *root, fctx *f) {
  uint8_t *state = xcalloc((size_t)c->n_instrs + 1, 1);
  int *next = xcalloc((size_t)c->n_instrs + 1, sizeof *next);
  const hlo_instr **stack = xcalloc((size_t)c->n_instrs + 1, sizeof *stack);
  int sp = 0;
  stack[sp++] = root;
  state[root->index] = 1;
  while (sp) {
    const hlo_instr *x = stack[sp - 1];
    if (next[x->index] < x->n_operands) {
      const hlo_instr *op = x->operands[next[x->index]++];
      if (op->parent == c && !state[op->index]) {
        state[op->index] = 1;
        stack[sp++] = op;
      }
      continue;
    }
    f->order[f->norder++] = x;
    sp--;
  }
  free(state);
  free(next);
  free(stack);
}

static fctx *fusion_ctx(ref *R, const hlo_computation *comp, const hlo_instr *target) {
  for (fctx *f = R->fctxs; f; f = f->next)
    if (f->comp == comp && f->target == target) return f;
  fctx *f = xcalloc(1, sizeof *f);
  int n = comp->n_instrs;
  f->comp = comp;
  f->target = target;
  f->seen = xcalloc((size_t)n + 1, sizeof *f->seen);
  f->touched = xcalloc((size_t)n + 1, sizeof *f->touched);
  f->ntouched = xcalloc((size_t)n + 1, sizeof *f->ntouched);
  f->cap = xcalloc((size_t)n + 1, sizeof *f->cap);
  f->order = xcalloc((size_t)n + 1, sizeof *f->order);
  for (int i = 0; i < n; i++) f->seen[i] = xcalloc((size_t)nelems(comp->instrs[i]->shape) + 1, 1);
  postorder(comp, target, f);
  f->next = R->fctxs;
  R->fctxs = f;
  return f;
}

static void fctx_free(fctx *f) {
  for (int i = 0; i < f->comp->n_instrs; i++) {
    free(f->seen[i]);
    free(f->touched[i]);
  }
  free(f->seen);
  free(f->touched);
  free(f->ntouched);
  free(f->cap);
  free(f->order);
  free(f);
}

typedef struct {
  ref *R;
  fctx *f;
  const hlo_instr *target;
} femit;

static void mark(fctx *f, const hlo_instr *x, int64_t l) {
  int i = x->index;
  if (f->seen[i][l]) return;
  f->seen[i][l] = 1;
  if (f->ntouched[i] == f->cap[i]) {
    f->cap[i] = f->cap[i] ? f->cap[i] * 2 : 16;
    f->touched[i] = xrealloc(f->touched[i], f->cap[i] * sizeof **f->touched);
  }
  f->touched[i][f->ntouched[i]++] = l;
}

static void fusion_mark(void *cl, const int64_t *idx) {
  femit *e = cl;
  if (!work(e->R, 1)) return;
  mark(e->f, e->target, e->target->shape->rank ? lin(e->target->shape, idx) : 0);
}

static void ref_fusion(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                       void *cl) {
  callee ce;
  if (in->op == HLO_OP_CONDITIONAL && k == 0) { /* the branch index */
    emit(cl, o);
    return;
  }
  if (!callee_of(in, output_id, k, &ce)) return;
  const hlo_computation *comp = ce.comp;
  const hlo_instr *target = ce.target;
  fctx *f = fusion_ctx(R, comp, target);
  mark(f, target, target->shape->rank ? lin(target->shape, o) : 0);
  int64_t idx[MAXR];
  for (int i = f->norder; i-- > 0 && !R->over;) {
    const hlo_instr *x = f->order[i];
    if (x->op == HLO_OP_PARAMETER) continue;
    int xi = x->index;
    for (size_t t = 0; t < f->ntouched[xi] && !R->over; t++) {
      delin(x->shape, f->touched[xi][t], idx);
      for (int j = 0; j < x->n_operands && !R->over; j++) {
        if (x->operands[j]->parent != comp) continue;
        femit e = {R, f, x->operands[j]};
        ref_reads(R, x, 0, j, idx, fusion_mark, &e);
      }
    }
  }
  /* the fusion's operand k: every parameter bound to that instruction
   * (XLA groups the reads by fusion operand, §5.4) */
  for (int q = 0; q < comp->n_params && q < ce.nargs; q++) {
    if (ce.args[q] != in->operands[k]) continue;
    const hlo_instr *p = comp->params[q];
    for (size_t t = 0; t < f->ntouched[p->index] && !R->over; t++) {
      delin(p->shape, f->touched[p->index][t], idx);
      emit(cl, idx);
    }
  }
  for (int i = 0; i < comp->n_instrs; i++) {
    for (size_t t = 0; t < f->ntouched[i]; t++) f->seen[i][f->touched[i][t]] = 0;
    f->ntouched[i] = 0;
  }
}

static void reads_ew(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit, void *cl) {
  (void)R, (void)in, (void)output_id, (void)k;
  emit(cl, o); /* a scalar operand: the index is not used */
}

static void reads_broadcast(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                            void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int j = 0; j < r; j++) idx[j] = o[in->dimensions.v[j]];
  emit(cl, idx);
}

static void reads_transpose(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                            void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[in->dimensions.v[i]] = o[i];
  emit(cl, idx);
}

static void reads_reverse(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[i] = in_ints(&in->dimensions, i) ? xs->dims[i] - 1 - o[i] : o[i];
  emit(cl, idx);
}

static void reads_slice(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[i] = in->ext->slice[i].start + o[i] * in->ext->slice[i].stride;
  emit(cl, idx);
}

static void reads_concat(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  int64_t c = in->dimensions.v[0], off = 0;
  for (int j = 0; j < k; j++) off += in->operands[j]->shape->dims[c];
  if (o[c] < off || o[c] >= off + xs->dims[c]) return;
  for (int i = 0; i < r; i++) idx[i] = o[i];
  idx[c] -= off;
  emit(cl, idx);
}

static void reads_pad(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl) {
  (void)R, (void)output_id;
  int64_t idx[MAXR] = {0};
  const hlo_shape *x = in->operands[0]->shape;
  bool padding = false;
  for (int i = 0; i < x->rank; i++) {
    const hlo_pad_dim *p = &in->ext->padding[i];
    int64_t q = o[i] - p->lo;
    if (q < 0 || q % (p->interior + 1)) {
      padding = true;
      continue;
    }
    idx[i] = q / (p->interior + 1);
    if (idx[i] >= x->dims[i]) padding = true;
  }
  if ((k == 0) != padding) emit(cl, idx);
}

static void reads_reshape(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)R;
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  delin(xs, lin(os, o), idx);
  emit(cl, idx);
}

static void reads_bitcast(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)R;
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  /* physical offset of o in the result (minor_to_major), then the operand index at it */
  int64_t off = 0, scale = 1;
  for (int j = 0; j < os->rank; j++) {
    int64_t d = os->layout.minor_to_major[j];
    off += scale * o[d];
    scale *= os->dims[d];
  }
  for (int j = 0; j < r; j++) {
    int64_t d = xs->layout.minor_to_major[j];
    idx[d] = off % xs->dims[d];
    off /= xs->dims[d];
  }
  emit(cl, idx);
}

static void reads_reduce(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  int r = xs->rank;
  int n = in->n_operands / 2;
  if (k >= n) {
    emit(cl, idx);
    return;
  }
  int oi = 0;
  for (int i = 0; i < r; i++) {
    bool red = in_ints(&in->dimensions, i);
    lo[i] = red ? 0 : o[oi];
    hi[i] = red ? xs->dims[i] - 1 : o[oi];
    if (!red) oi++;
  }
  if (!first_point(r, v, lo, hi)) return;
  do emit(cl, v);
  while (work(R, 1) && next_point(r, v, lo, hi));
}

static void reads_reduce_window(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                                void *cl) {
  (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  int r = xs->rank;
  int n = in->n_operands / 2;
  if (k >= n) {
    emit(cl, idx);
    return;
  }
  for (int i = 0; i < r; i++) {
    lo[i] = 0;
    hi[i] = in->ext->window[i].size - 1;
  }
  if (!first_point(r, v, lo, hi)) return;
  do {
    bool ok = true;
    for (int i = 0; i < r && ok; i++) {
      const hlo_window_dim *w = &in->ext->window[i];
      /* position in the padded, dilated operand; then in the operand */
      int64_t pp = o[i] * w->stride + v[i] * w->rhs_dilate;
      int64_t padded = w->pad_lo + (xs->dims[i] - 1) * w->lhs_dilate + 1 + w->pad_hi;
      int64_t p = pp - w->pad_lo;
      ok = pp < padded && p >= 0 && p % w->lhs_dilate == 0 && p / w->lhs_dilate < xs->dims[i];
      idx[i] = ok ? p / w->lhs_dilate : 0;
    }
    if (ok) emit(cl, idx);
  } while (work(R, 1) && next_point(r, v, lo, hi));
}

static void reads_dot(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl) {
  (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  const hlo_dot_dims *dd = in->ext->dot;
  int side = k % 2; /* scaled-dot: 2 = lhs scale, 3 = rhs scale */
  const hlo_shape *a = in->operands[side]->shape;
  const hlo_ints *bt = side ? &dd->rhs_batch : &dd->lhs_batch, *ct = side ? &dd->rhs_contracting : &dd->lhs_contracting;
  int nb = dd->lhs_batch.n, oi = nb;
  if (side) /* skip the lhs free dims */
    for (int i = 0; i < in->operands[0]->shape->rank; i++)
      if (!in_ints(&dd->lhs_batch, i) && !in_ints(&dd->lhs_contracting, i)) oi++;
  int nc = ct->n;
  for (int t = 0; t < nc; t++) {
    lo[t] = 0;
    hi[t] = a->dims[ct->v[t]] - 1;
  }
  int64_t base[MAXR];
  for (int t = 0; t < nb; t++) base[bt->v[t]] = o[t];
  for (int i = 0; i < a->rank; i++)
    if (!in_ints(bt, i) && !in_ints(ct, i)) base[i] = o[oi++];
  if (!first_point(nc, v, lo, hi)) return;
  do {
    for (int i = 0; i < a->rank; i++) idx[i] = base[i];
    for (int t = 0; t < nc; t++) idx[ct->v[t]] = v[t];
    if (k >= 2)
      for (int i = 0; i < a->rank; i++)
        if (xs->dims[i] != a->dims[i] && xs->dims[i]) idx[i] /= a->dims[i] / xs->dims[i];
    emit(cl, idx);
  } while (work(R, 1) && next_point(nc, v, lo, hi));
}

static void reads_dynamic_slice(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                                void *cl) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  int r = xs->rank;
  if (k > 0) {
    emit(cl, idx);
    return;
  }
  for (int i = 0; i < r; i++) offset_range(in->operands[i + 1], xs->dims[i] - os->dims[i], &lo[i], &hi[i]);
  if (!first_point(r, v, lo, hi)) return;
  do {
    for (int i = 0; i < r; i++) idx[i] = o[i] + v[i];
    emit(cl, idx);
  } while (work(R, 1) && next_point(r, v, lo, hi));
}

static void reads_dus(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl) {
  const hlo_shape *os = elem_shape(in->shape, output_id);
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  if (k > 1) {
    emit(cl, idx);
    return;
  }
  const hlo_shape *u = in->operands[1]->shape;
  int ro = os->rank;
  for (int i = 0; i < ro; i++) offset_range(in->operands[i + 2], os->dims[i] - u->dims[i], &lo[i], &hi[i]);
  if (!first_point(ro, v, lo, hi)) return;
  bool outside_once = false;
  do {
    bool inside = true;
    for (int i = 0; i < ro; i++) inside &= o[i] >= v[i] && o[i] < v[i] + u->dims[i];
    if (k == 1 && inside) {
      for (int i = 0; i < ro; i++) idx[i] = o[i] - v[i];
      emit(cl, idx);
    }
    outside_once |= !inside;
  } while (work(R, 1) && next_point(ro, v, lo, hi));
  if (k == 0 && outside_once) emit(cl, o);
}

static void reads_gather(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)output_id;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  const hlo_gather_dims *g = in->ext->gather;
  const hlo_instr *ind = in->operands[1];
  if (k == 1) {
    for (int64_t t = 0; t < ind->shape->dims[1] && work(R, 1); t++) {
      idx[0] = o[0];
      idx[1] = t;
      emit(cl, idx);
    }
    return;
  }
  const hlo_shape *x = in->operands[0]->shape;
  for (int i = 0; i < x->rank; i++) lo[i] = hi[i] = 0;
  for (int t = 0; t < g->start_index_map.n; t++) {
    int64_t i = g->start_index_map.v[t], mx = x->dims[i] - g->slice_sizes.v[i];
    if (ind->op == HLO_OP_IOTA) {
      lo[i] = hi[i] = clamp64(ind->ext->iota_dimension == 0 ? o[0] : t, 0, mx);
    } else {
      lo[i] = 0;
      hi[i] = mx;
    }
  }
  if (!first_point(x->rank, v, lo, hi)) return;
  do {
    for (int i = 0; i < x->rank; i++) idx[i] = v[i] + o[g->offset_dims.v[i]];
    emit(cl, idx);
  } while (work(R, 1) && next_point(x->rank, v, lo, hi));
}

static void reads_all_gather(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                             void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  int64_t gd = in->dimensions.v[0];
  for (int i = 0; i < r; i++) idx[i] = o[i];
  idx[gd] = xs->dims[gd] ? o[gd] % xs->dims[gd] : 0;
  emit(cl, idx);
}

static void reads_conv(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                       void *cl) {
  (void)output_id;
  ref_conv(R, in, k, o, emit, cl);
}

/* ---- ops that pass whole values along (op_tuple.c, op_collective.c) ---- */

/* Element OUTPUT_ID of a tuple operand (ELEM), element 0 / 1 of a start
 * (DONE0 / DONE1), element `index` (get-tuple-element). */
static int64_t part_elem(const hlo_instr *in, int64_t output_id, int k) {
  return in->operands[k]->shape->type == HLO_TUPLE ? output_id : -1;
}
static int64_t part_done0(const hlo_instr *in, int64_t output_id, int k) {
  (void)output_id;
  return in->operands[k]->shape->type == HLO_TUPLE ? 0 : -1;
}
static int64_t part_done1(const hlo_instr *in, int64_t output_id, int k) {
  (void)output_id;
  return in->operands[k]->shape->type == HLO_TUPLE ? 1 : -1;
}
static int64_t part_gte(const hlo_instr *in, int64_t output_id, int k) {
  (void)output_id;
  return in->operands[k]->shape->type == HLO_TUPLE ? in->tuple_index : -1;
}

/* The same element of what is passed along, when this output passes it. */
static void reads_same_if(bool passes, const int64_t *o, emit_fn emit, void *cl) {
  if (passes) emit(cl, o);
}

static void reads_whole(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)in, (void)output_id, (void)k;
  emit(cl, o); /* ELEM, DONE*, get-tuple-element: the part read is the whole output */
}

static void reads_paired(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)R, (void)in;
  reads_same_if(k == output_id, o, emit, cl); /* tuple, all-reduce, collective-permute, ... */
}

static void reads_first(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)in;
  reads_same_if(k == 0 && output_id == 0, o, emit, cl);
}

static void reads_start(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)in;
  reads_same_if(k == 0 && output_id <= 1, o, emit, cl);
}

static void reads_done(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                       void *cl) {
  (void)R, (void)in, (void)k;
  reads_same_if(output_id == 0, o, emit, cl);
}

static void reads_nothing(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)R, (void)in, (void)output_id, (void)k, (void)o, (void)emit, (void)cl;
}

/* ---- collectives (op_collective.c): the union over this device's position ---- */

/* Output element O with index J along dimension G instead. */
static void emit_along(const int64_t *o, int rank, int64_t g, int64_t j, emit_fn emit, void *cl) {
  int64_t idx[MAXR];
  for (int i = 0; i < rank; i++) idx[i] = o[i];
  idx[g] = j;
  emit(cl, idx);
}

static void reads_allgather(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                            void *cl) {
  (void)R;
  const hlo_shape *xs = in->operands[k]->shape;
  bool start = in->op == HLO_OP_ALL_GATHER_START;
  if (start ? k != 0 : k != output_id) return;
  if (start && output_id == 0) {
    emit(cl, o);
    return;
  }
  int64_t g = in->dimensions.v[0];
  emit_along(o, xs->rank, g, o[g] % xs->dims[g], emit, cl);
}

static void reads_rscatter(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                           void *cl) {
  const hlo_shape *xs = in->operands[k]->shape, *os = elem_shape(in->shape, output_id);
  if (k != output_id) return;
  int64_t g = in->dimensions.v[0], m = os->dims[g];
  for (int64_t s = 0; s < xs->dims[g] / m && work(R, 1); s++) emit_along(o, xs->rank, g, o[g] + s * m, emit, cl);
}

static int64_t group_of(const hlo_instr *in) {
  const hlo_replica_groups *g = in->ext->replica_groups;
  if (!g) return -1;
  if (g->iota) return g->iota_group_size;
  if (g->n_groups == 0) return -1;
  for (int i = 1; i < g->n_groups; i++)
    if (g->groups[i].n != g->groups[0].n) return -1;
  return g->groups[0].n;
}

static void reads_alltoall(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                           void *cl) {
  const hlo_shape *xs = in->operands[k]->shape;
  if (!in->has_dimensions) { /* tuple form: any operand, element for element */
    emit(cl, o);
    return;
  }
  if (k != output_id) return;
  int64_t g = in->dimensions.v[0], n = xs->dims[g], groups = group_of(in);
  if (groups <= 0 || n % groups) {
    for (int64_t j = 0; j < n && work(R, 1); j++) emit_along(o, xs->rank, g, j, emit, cl);
    return;
  }
  int64_t m = n / groups;
  for (int64_t s = 0; s < groups && work(R, 1); s++) emit_along(o, xs->rank, g, o[g] % m + s * m, emit, cl);
}

static void reads_ragged(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  if (k == 1) {
    emit(cl, o);
    return;
  }
  /* the input: any row of some peer's input; the offsets and sizes: all */
  for (int64_t j = 0; j < xs->dims[0] && work(R, 1); j++) {
    if (k == 0) emit_along(o, xs->rank, 0, j, emit, cl);
    else emit(cl, &j);
  }
}

static edge edge_collective(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)k, (void)depth;
  if (in->op == HLO_OP_ALL_TO_ALL && !in->has_dimensions) return (edge){NULL, false, false};
  if (in->op != HLO_OP_RAGGED_ALL_TO_ALL && in->dimensions.n != 1)
    return (edge){"a collective without one dimension", false, false};
  return (edge){NULL, false, false};
}

/* ---- whole rows (op_rows.c) ---- */

/* Every operand element that agrees with O outside the dims flagged in
 * READ (any index there). */
static void emit_rows(ref *R, const hlo_shape *xs, const int64_t *o, const bool *read, emit_fn emit, void *cl) {
  int64_t v[MAXR], lo[MAXR], hi[MAXR];
  for (int i = 0; i < xs->rank; i++) {
    lo[i] = read[i] ? 0 : o[i];
    hi[i] = read[i] ? xs->dims[i] - 1 : o[i];
  }
  if (!first_point(xs->rank, v, lo, hi)) return;
  do emit(cl, v);
  while (work(R, 1) && next_point(xs->rank, v, lo, hi));
}

static bool param_read(const hlo_computation *comp, int64_t p) {
  if (p >= comp->n_params) return false;
  for (int i = 0; i < comp->n_instrs; i++)
    for (int j = 0; j < comp->instrs[i]->n_operands; j++)
      if (comp->instrs[i]->operands[j] == comp->params[p]) return true;
  return comp->root == comp->params[p];
}

static void reads_rows(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                       void *cl) {
  const hlo_shape *xs = in->operands[k]->shape;
  bool read[MAXR] = {false};
  int64_t len[8];
  int n;
  switch (in->op) {
  case HLO_OP_SORT: {
    const hlo_computation *cmp = called(in, HLO_CALL_TO_APPLY);
    if (k != output_id && cmp && !param_read(cmp, 2 * k) && !param_read(cmp, 2 * k + 1)) return;
    read[in->dimensions.v[0]] = true;
    break;
  }
  case HLO_OP_TOPK: read[xs->rank - 1] = true; break;
  case HLO_OP_FFT:
    n = ii_attr_ints(in, "fft_length", len, 8);
    for (int i = xs->rank - n; i < xs->rank; i++) read[i] = true;
    break;
  default: /* rng-bit-generator: the whole state */
    for (int i = 0; i < xs->rank; i++) read[i] = true;
    break;
  }
  emit_rows(R, xs, o, read, emit, cl);
}

static edge edge_rows(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)k, (void)depth;
  int64_t len[8];
  if (in->op == HLO_OP_SORT && in->dimensions.n != 1) return (edge){"a sort without one dimension", false, false};
  if (in->op == HLO_OP_FFT && ii_attr_ints(in, "fft_length", len, 8) < 1) return (edge){"an fft without fft_length", false, false};
  return (edge){NULL, false, false};
}

/* ---- cholesky, triangular-solve (op_linalg.c): dependencies by running the
 * recurrences on sets of matrix elements ---- */

#define MAXM 32 /* matrices up to 32 x 32 (sets of 1024 elements) */
typedef struct {
  uint64_t w[MAXM * MAXM / 64];
} mset;

static void mset_or(mset *a, const mset *b) {
  for (int i = 0; i < MAXM * MAXM / 64; i++) a->w[i] |= b->w[i];
}
static void mset_add(mset *a, int64_t p, int64_t q) { a->w[(p * MAXM + q) / 64] |= (uint64_t)1 << ((p * MAXM + q) % 64); }
static bool mset_has(const mset *a, int64_t p, int64_t q) { return a->w[(p * MAXM + q) / 64] >> ((p * MAXM + q) % 64) & 1; }

/* Emits the matrix elements of S at O's batch index (a's coordinates). */
static void emit_mset(ref *R, const hlo_shape *xs, const int64_t *o, const mset *m, bool transpose, emit_fn emit,
                      void *cl) {
  int64_t idx[MAXR], n = xs->dims[xs->rank - 1];
  for (int i = 0; i + 2 < xs->rank; i++) idx[i] = o[i];
  for (int64_t p = 0; p < n && work(R, 1); p++)
    for (int64_t q = 0; q < n; q++)
      if (mset_has(m, p, q)) {
        idx[xs->rank - 2] = transpose ? q : p;
        idx[xs->rank - 1] = transpose ? p : q;
        emit(cl, idx);
      }
}

/* l_ij (lower factor): a_ij, l_jj, and l_ik, l_jk for k < j; l_jj: a_jj and
 * l_jk for k < j. */
static void cholesky_deps(int64_t n, mset *dep /* n*n, row-major */) {
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j; i < n; i++) {
      mset *d = &dep[i * n + j];
      memset(d, 0, sizeof *d);
      mset_add(d, i, j);
      if (i != j) mset_or(d, &dep[j * n + j]);
      for (int64_t k = 0; k < j; k++) {
        mset_or(d, &dep[i * n + k]);
        mset_or(d, &dep[j * n + k]);
      }
    }
}

static void reads_cholesky(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                           void *cl) {
  (void)output_id, (void)k;
  const hlo_shape *xs = in->operands[0]->shape;
  int64_t n = xs->dims[xs->rank - 1], i = o[xs->rank - 2], j = o[xs->rank - 1];
  bool lower = ii_attr_bool(in, "lower", false);
  if (!lower) { /* the upper factor is the transpose of the lower one of a^T */
    int64_t t = i;
    i = j;
    j = t;
  }
  if (!work(R, (uint64_t)(n * n * n))) return;
  if (i < j) { /* implementation-defined: any element */
    mset all;
    memset(&all, 0, sizeof all);
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = 0; q < n; q++) mset_add(&all, p, q);
    emit_mset(R, xs, o, &all, false, emit, cl);
    return;
  }
  mset *dep = xcalloc((size_t)(n * n), sizeof *dep);
  cholesky_deps(n, dep);
  emit_mset(R, xs, o, &dep[i * n + j], !lower, emit, cl);
  free(dep);
}

/* Forward substitution with T lower, one column: x_i reads b_i, T_ii
 * (unless unit) and T_ik, x_k for k < i. BDEP[i]: rows of b; TDEP[i]:
 * elements of T. */
static void trisolve_deps(int64_t n, bool unit, uint64_t *bdep, mset *tdep) {
  for (int64_t i = 0; i < n; i++) {
    bdep[i] = (uint64_t)1 << i;
    memset(&tdep[i], 0, sizeof tdep[i]);
    if (!unit) mset_add(&tdep[i], i, i);
    for (int64_t k = 0; k < i; k++) {
      mset_add(&tdep[i], i, k);
      bdep[i] |= bdep[k];
      mset_or(&tdep[i], &tdep[k]);
    }
  }
}

static void reads_trisolve(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                           void *cl) {
  (void)output_id;
  const hlo_shape *a = in->operands[0]->shape;
  int r = a->rank;
  int64_t n = a->dims[r - 1];
  bool left = ii_attr_bool(in, "left_side", false), lower = ii_attr_bool(in, "lower", false);
  bool unit = ii_attr_bool(in, "unit_diagonal", false);
  bool trans = ii_attr_is(in, "transpose_a", "TRANSPOSE") || ii_attr_is(in, "transpose_a", "ADJOINT");
  /* solve M y = c with M lower, y one column: left: M = T (T lower) or T
   * reversed (T upper); right: M = T^T the same way, y a row of x */
  bool t_lower = lower != trans, m_t = !left; /* M holds T^T */
  bool rev = left ? !t_lower : t_lower;      /* indices run backwards */
  int64_t at = left ? o[r - 2] : o[r - 1];
  int64_t y = rev ? n - 1 - at : at;
  if (!work(R, (uint64_t)(n * n * n))) return;
  uint64_t *bdep = xcalloc((size_t)n, sizeof *bdep);
  mset *tdep = xcalloc((size_t)n, sizeof *tdep);
  trisolve_deps(n, unit, bdep, tdep);
  int64_t idx[MAXR];
  for (int i = 0; i + 2 < r; i++) idx[i] = o[i];
  if (k == 1) {
    for (int64_t t = 0; t < n; t++) {
      if (!(bdep[y] >> t & 1)) continue;
      int64_t row = rev ? n - 1 - t : t;
      idx[r - 2] = left ? row : o[r - 2];
      idx[r - 1] = left ? o[r - 1] : row;
      emit(cl, idx);
    }
  } else {
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = 0; q < n; q++) {
        if (!mset_has(&tdep[y], p, q)) continue;
        int64_t mp = rev ? n - 1 - p : p, mq = rev ? n - 1 - q : q; /* M's indices -> T's (or T^T's) */
        bool tr = m_t != trans;                                     /* a = T, T^T */
        idx[r - 2] = tr ? mq : mp;
        idx[r - 1] = tr ? mp : mq;
        emit(cl, idx);
      }
  }
  free(bdep);
  free(tdep);
}

static edge edge_linalg(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)k, (void)depth;
  const hlo_shape *a = in->operands[0]->shape;
  if (a->rank < 2 || a->dims[a->rank - 1] > MAXM) return (edge){"a matrix larger than 32 x 32", false, false};
  return (edge){NULL, false, false};
}

/* ---- custom-calls (op_custom.c) ---- */

static bool target_is(const hlo_instr *in, const char *t) {
  return in->ext->custom_call_target && strcmp(in->ext->custom_call_target, t) == 0;
}

static void reads_custom(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  const hlo_shape *res = elem_shape(in->shape, 0);
  hlo_instr w = *in;
  w.shape = res;
  w.n_operands = 2;
  if (target_is(in, "__cublas$gemm") || target_is(in, "__cublas$lt$matmul")) {
    if (output_id != 0) return; /* the workspace */
    double beta;
    if (k == 2) { /* the addend, unless beta is 0 */
      if (!ii_backend_number(in, "beta", &beta) || beta != 0) emit(cl, o);
      return;
    }
    static const char *const keys[4] = {"lhs_batch_dimensions", "rhs_batch_dimensions",
                                        "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
    int64_t v[4][16];
    hlo_dot_dims dd;
    memset(&dd, 0, sizeof dd);
    hlo_ints *l[4] = {&dd.lhs_batch, &dd.rhs_batch, &dd.lhs_contracting, &dd.rhs_contracting};
    for (int t = 0; t < 4; t++) {
      l[t]->n = ii_backend_ints(in, keys[t], v[t], 16);
      l[t]->v = v[t];
    }
    hlo_instr_ext ext = *in->ext;
    ext.dot = &dd;
    w.ext = &ext;
    reads_dot(R, &w, 0, k, o, emit, cl);
    return;
  }
  if (target_is(in, "__cudnn$convForward") || target_is(in, "__cudnn$convBiasActivationForward")) {
    if (output_id != 0) return; /* the scratch buffer */
    if (k < 2) ref_conv(R, &w, k, o, emit, cl);
    else if (k == 2) emit(cl, &o[in->ext->conv_dims->output_feature]); /* the bias */
    else emit(cl, o);                                                  /* the side input */
    return;
  }
  /* the sharding markers: a shard (d + s * shard) or the full value (d mod shard) */
  const hlo_shape *xs = in->operands[0]->shape;
  int64_t idx[MAXR], v[MAXR], lo[MAXR], hi[MAXR];
  for (int i = 0; i < xs->rank; i++) {
    lo[i] = 0;
    hi[i] = xs->dims[i] > res->dims[i] ? xs->dims[i] / res->dims[i] - 1 : 0;
  }
  if (!first_point(xs->rank, v, lo, hi)) return;
  do {
    for (int i = 0; i < xs->rank; i++)
      idx[i] = xs->dims[i] > res->dims[i] ? o[i] + v[i] * res->dims[i] : o[i] % xs->dims[i];
    emit(cl, idx);
  } while (work(R, 1) && next_point(xs->rank, v, lo, hi));
}

static edge edge_custom(const hlo_instr *in, int64_t output_id, int k, int depth) {
  (void)output_id, (void)k, (void)depth;
  static const char *const known[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "__cublas$gemm",
                                      "__cublas$lt$matmul", "__cudnn$convForward", "__cudnn$convBiasActivationForward"};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (target_is(in, known[i])) {
      if (i >= 5 && (!in->ext->conv_dims || in->ext->conv_dims->n_spatial > MAXR))
        return (edge){"a convolution without dim_labels", false, false};
      return (edge){NULL, false, false};
    }
  return (edge){"a custom-call of unknown semantics", false, false};
}

/* ---- while, async-start (op_call.c) ---- */

/* The body passes element OUTPUT_ID through unchanged: that element. */
static int64_t part_while(const hlo_instr *in, int64_t output_id, int k) {
  (void)k;
  return in->shape->type == HLO_TUPLE ? output_id : -1;
}

static void reads_while(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)k;
  const hlo_computation *body = called(in, HLO_CALL_BODY);
  const hlo_instr *root = body ? body->root : NULL, *e;
  bool same = root && root == body->params[0];
  if (!same && root && root->op == HLO_OP_TUPLE && output_id < root->n_operands) {
    e = root->operands[output_id];
    same = e->op == HLO_OP_GET_TUPLE_ELEMENT && e->operands[0] == body->params[0] && e->tuple_index == output_id;
  }
  if (same) emit(cl, o);
  /* otherwise the maps are unknown and never compared */
}

/* async-start: output 0 holds the operands (no array to compare), output 1
 * the wrapped computation's result (fusion_edge / ref_fusion), or the
 * wrapped op's when the start carries it; the context reads nothing. */
static hlo_instr wrapped_op(const hlo_instr *in) {
  hlo_instr w = *in;
  w.op = in->async_wrapped;
  w.shape = elem_shape(in->shape, 1);
  return w;
}

static edge edge_async(const hlo_instr *in, int64_t output_id, int k, int depth) {
  if (output_id != 1) return (edge){NULL, false, false}; /* the context: reads nothing */
  if (called(in, HLO_CALL_CALLS)) return fusion_edge(in, output_id, k, depth);
  hlo_instr w = wrapped_op(in);
  return edge_of(&w, 0, k, depth + 1);
}

static void reads_async(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  if (output_id != 1) return;
  if (called(in, HLO_CALL_CALLS)) {
    ref_fusion(R, in, output_id, k, o, emit, cl);
    return;
  }
  hlo_instr w = wrapped_op(in);
  ref_reads(R, &w, 0, k, o, emit, cl);
}

/* ---- select-and-scatter (op_reduce.c) ---- */

/* The operand position of window offset V of window W along dim i, or -1
 * (padding, or between base-dilated elements). */
static int64_t window_pos(const hlo_window_dim *wd, int64_t w, int64_t v, int64_t size) {
  int64_t p = w * wd->stride + v * wd->rhs_dilate - wd->pad_lo;
  if (p < 0 || p % wd->lhs_dilate) return -1;
  return p / wd->lhs_dilate < size ? p / wd->lhs_dilate : -1;
}

/* Output element O sums the source elements of the windows that selected
 * it; which one a window selects depends on all of it: O reads every
 * window holding it, source element and operand elements, and the init. */
static void reads_selscat(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)output_id;
  const hlo_shape *x = in->operands[0]->shape, *src = in->operands[1]->shape;
  int r = x->rank;
  int64_t w[MAXR], wlo[MAXR], whi[MAXR], v[MAXR], vlo[MAXR], vhi[MAXR], idx[MAXR] = {0};
  if (k == 2) {
    emit(cl, idx);
    return;
  }
  for (int i = 0; i < r; i++) {
    wlo[i] = vlo[i] = 0;
    whi[i] = src->dims[i] - 1;
    vhi[i] = in->ext->window[i].size - 1;
  }
  if (!first_point(r, w, wlo, whi)) return;
  do {
    bool holds = true;
    for (int i = 0; holds && i < r; i++) {
      holds = false;
      for (int64_t t = 0; t <= vhi[i] && !holds; t++) holds = window_pos(&in->ext->window[i], w[i], t, x->dims[i]) == o[i];
    }
    if (!holds) continue;
    if (k == 1) {
      emit(cl, w);
      continue;
    }
    if (!first_point(r, v, vlo, vhi)) continue;
    do {
      bool ok = true;
      for (int i = 0; ok && i < r; i++) ok = (idx[i] = window_pos(&in->ext->window[i], w[i], v[i], x->dims[i])) >= 0;
      if (ok) emit(cl, idx);
    } while (work(R, 1) && next_point(r, v, vlo, vhi));
  } while (work(R, 1) && next_point(r, w, wlo, whi));
}

static const vf_ref refs[II_FAM_COUNT] = {
    [II_FAM_EW] = {edge_ew, reads_ew, false},
    [II_FAM_BCAST] = {NULL, reads_broadcast, false},
    [II_FAM_TRANSP] = {NULL, reads_transpose, false},
    [II_FAM_REVERSE] = {NULL, reads_reverse, false},
    [II_FAM_SLICE] = {NULL, reads_slice, false},
    [II_FAM_CONCAT] = {NULL, reads_concat, false},
    [II_FAM_PAD] = {edge_pad, reads_pad, false},
    [II_FAM_RESHAPE] = {NULL, reads_reshape, false},
    [II_FAM_BITCAST] = {edge_bitcast, reads_bitcast, false},
    [II_FAM_REDUCE] = {NULL, reads_reduce, true},
    [II_FAM_RWIN] = {NULL, reads_reduce_window, true},
    [II_FAM_DOT] = {NULL, reads_dot, false},
    [II_FAM_SDOT] = {NULL, reads_dot, false},
    [II_FAM_CONV] = {edge_conv, reads_conv, false},
    [II_FAM_DS] = {edge_dynamic, reads_dynamic_slice, false},
    [II_FAM_DUS] = {edge_dynamic, reads_dus, false},
    [II_FAM_GATHER] = {edge_gather, reads_gather, false},
    [II_FAM_AGATHER] = {edge_all_gather, reads_all_gather, false},
    [II_FAM_FUSION] = {fusion_edge, ref_fusion, true},
    [II_FAM_GTE] = {NULL, reads_whole, false, part_gte},
    [II_FAM_TUPLE] = {NULL, reads_paired, true},
    [II_FAM_PAIRED] = {NULL, reads_paired, true},
    [II_FAM_ELEM] = {NULL, reads_whole, true, part_elem},
    [II_FAM_FIRST] = {NULL, reads_first, true},
    [II_FAM_START] = {NULL, reads_start, true},
    [II_FAM_DONE0] = {NULL, reads_done, true, part_done0},
    [II_FAM_DONE1] = {NULL, reads_done, true, part_done1},
    [II_FAM_NOREAD] = {NULL, reads_nothing, true},
    [II_FAM_ALLGATHER] = {edge_collective, reads_allgather, true},
    [II_FAM_RSCATTER] = {edge_collective, reads_rscatter, true},
    [II_FAM_ALLTOALL] = {edge_collective, reads_alltoall, true},
    [II_FAM_RAGGED] = {edge_collective, reads_ragged, false},
    [II_FAM_SORT] = {edge_rows, reads_rows, true},
    [II_FAM_TOPK] = {edge_rows, reads_rows, true},
    [II_FAM_FFT] = {edge_rows, reads_rows, false},
    [II_FAM_RNGBIT] = {edge_rows, reads_rows, true},
    [II_FAM_CHOLESKY] = {edge_linalg, reads_cholesky, false},
    [II_FAM_TRISOLVE] = {edge_linalg, reads_trisolve, false},
    [II_FAM_CUSTOM] = {edge_custom, reads_custom, true},
    [II_FAM_CALL] = {fusion_edge, ref_fusion, true},
    [II_FAM_COND] = {fusion_edge, ref_fusion, true},
    [II_FAM_WHILE] = {NULL, reads_while, true, part_while},
    [II_FAM_ASYNC] = {edge_async, reads_async, true},
    [II_FAM_SELSCAT] = {NULL, reads_selscat, false},
};

/* What element O of output OUTPUT_ID reads of operand K, handed to EMIT. */
static void ref_reads(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl) {
  if (!work(R, 1)) return;
  refs[family(in->op)].reads(R, in, output_id, k, o, emit, cl);
}

typedef struct {
  ref *R;
  rel *r;
  int64_t from;
  const hlo_shape *to;
  bool swap;
} remit;

static void rel_emit(void *cl, const int64_t *idx) {
  remit *e = cl;
  if (!work(e->R, 1)) return;
  int64_t t = e->to->rank == 0 ? 0 : lin(e->to, idx);
  if (e->swap) rel_add(e->r, t, e->from);
  else rel_add(e->r, e->from, t);
}

/* The reference relation between output output_id and operand k (swap:
 * operand -> output). False when the work limit was reached. */
static bool reference(ref *R, const hlo_instr *in, int64_t output_id, int k, bool swap, rel *out) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = read_shape(in, output_id, k);
  int64_t o[MAXR];
  int64_t ne = nelems(os);
  for (int64_t l = 0; l < ne && !R->over; l++) {
    delin(os, l, o);
    remit e = {R, out, l, xs, swap};
    ref_reads(R, in, output_id, k, o, rel_emit, &e);
  }
  rel_norm(out);
  return !R->over;
}

/* ---- the maps' relation ---------------------------------------------------------------------------------- */

/* Physical (or tiled) coordinates of a side -> its logical index; NULL
 * when the side is logical. */
static const imap *to_logical(ii_ctx *c, const hlo_shape *s, vf_layout l) {
  if (l == VF_LOGICAL || !is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE) return NULL;
  arena *a = ii_ctx_arena(c);
  ae_ctx *ctx = ii_ctx_ae(c);
  if (l == VF_PHYSICAL) {
    if (s->rank == 0) return NULL;
    uint32_t r = (uint32_t)s->rank;
    uint32_t *inv = arena_array(a, r, sizeof *inv);
    int64_t *pdims = arena_array(a, r, sizeof *pdims);
    for (uint32_t k = 0; k < r; k++) {
      uint32_t d = (uint32_t)s->layout.minor_to_major[r - 1 - k];
      pdims[k] = s->dims[d];
      inv[d] = k;
    }
    return imap_permutation(a, ctx, r, pdims, inv);
  }
  tl_layout *lay = arena_zalloc(a, sizeof *lay);
  tl_error err;
  if (!tl_analyze(a, s, lay, &err)) return NULL;
  return tl_tiled_to_logical(a, ctx, lay, &err);
}

/* Evaluates conv at point p (its dims): false when p is outside its domain
 * (a padding position). */
static bool convert(const imap *conv, const int64_t *p, int64_t *out) {
  for (uint32_t i = 0; i < conv->ndims; i++)
    if (!iv_contains(conv->dim_iv[i], p[i])) return false;
  for (uint32_t k = 0; k < conv->ncons; k++) {
    int64_t v;
    if (!ae_eval_point(conv->cons[k].expr, p, conv->ndims, NULL, 0, &v) || !iv_contains(conv->cons[k].iv, v))
      return false;
  }
  for (uint32_t i = 0; i < conv->nresults; i++)
    if (!ae_eval_point(conv->results[i], p, conv->ndims, NULL, 0, &out[i])) return false;
  return true;
}

typedef struct {
  const hlo_shape *from, *to;
  const imap *from_conv, *to_conv;
  bool clip;
  uint64_t points;
  vf_result *res;
} enum_ctx;

__attribute__((format(printf, 2, 3))) static void say(vf_result *res, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->message, sizeof res->message, fmt, ap);
  va_end(ap);
}

static uint64_t size_of(interval iv) { return iv.hi < iv.lo ? 0 : (uint64_t)iv.hi - (uint64_t)iv.lo + 1; }

/* Adds the pairs of map m. Returns false with res filled on a mismatch or
 * a skip. */
static bool enum_map(enum_ctx *E, const imap *m, rel *out) {
  if (m->known_empty) return true;
  uint32_t nd = m->ndims, ns = imap_nsyms(m);
  uint32_t from_rank = E->from_conv ? E->from_conv->ndims : (uint32_t)E->from->rank;
  uint32_t to_rank = E->to_conv ? E->to_conv->ndims : (uint32_t)E->to->rank;
  if (nd != from_rank || m->nresults != to_rank) {
    E->res->status = VF_MISMATCH;
    say(E->res, "the map goes from %u to %u coordinates, the tensors have %u and %u", nd, m->nresults, from_rank,
        to_rank);
    return false;
  }
  if (nd > MAXR || ns > MAXR) {
    E->res->status = VF_SKIP_TOO_LARGE;
    say(E->res, "more than %d variables", MAXR);
    return false;
  }
  uint64_t pts = 1;
  for (uint32_t i = 0; i < nd + ns; i++) {
    uint64_t n = size_of(i < nd ? m->dim_iv[i] : m->sym_iv[i - nd]);
    if (n == 0) return true;
    if (pts > VF_MAX_POINTS / n) {
      E->res->status = VF_SKIP_TOO_LARGE;
      say(E->res, "a domain of more than %llu points", (unsigned long long)VF_MAX_POINTS);
      return false;
    }
    pts *= n;
  }
  if (E->points + pts > 4 * VF_MAX_POINTS) {
    E->res->status = VF_SKIP_TOO_LARGE;
    say(E->res, "domains of more than %llu points together", (unsigned long long)(4 * VF_MAX_POINTS));
    return false;
  }
  E->points += pts;
  int64_t d[MAXR], dlo[MAXR], dhi[MAXR], s[MAXR], slo[MAXR], shi[MAXR], r[MAXR], lf[MAXR], lt[MAXR];
  for (uint32_t i = 0; i < nd; i++) dlo[i] = m->dim_iv[i].lo, dhi[i] = m->dim_iv[i].hi;
  for (uint32_t j = 0; j < ns; j++) slo[j] = m->sym_iv[j].lo, shi[j] = m->sym_iv[j].hi;
  char a[160];
  if (!first_point((int)nd, d, dlo, dhi)) return true;
  do {
    bool from_ok = E->from_conv ? convert(E->from_conv, d, lf) : true;
    if (!E->from_conv) memcpy(lf, d, nd * sizeof *d);
    if (!first_point((int)ns, s, slo, shi)) continue;
    do {
      bool sat = true;
      for (uint32_t k = 0; sat && k < m->ncons; k++) {
        int64_t v;
        sat = ae_eval_point(m->cons[k].expr, d, nd, s, ns, &v) && iv_contains(m->cons[k].iv, v);
      }
      if (!sat) continue;
      if (!from_ok || !in_bounds(E->from, lf)) {
        E->res->status = VF_MISMATCH;
        say(E->res, "the map's domain holds a point that is not an element of the indexed-from tensor");
        return false;
      }
      for (uint32_t i = 0; i < m->nresults; i++)
        if (!ae_eval_point(m->results[i], d, nd, s, ns, &r[i])) {
          E->res->status = VF_MISMATCH;
          say(E->res, "a result does not evaluate (overflow)");
          return false;
        }
      bool to_ok = E->to_conv ? convert(E->to_conv, r, lt) : true;
      if (!E->to_conv) memcpy(lt, r, m->nresults * sizeof *r);
      int64_t fl = lin(E->from, lf);
      if (to_ok && in_bounds(E->to, lt)) {
        rel_add(out, fl, lin(E->to, lt));
      } else if (!E->clip) {
        put_index(a, sizeof a, E->from, fl);
        E->res->status = VF_MISMATCH;
        say(E->res, "the map indexes outside the tensor: element %s -> a position that is not an element", a);
        return false;
      }
    } while (next_point((int)ns, s, slo, shi));
  } while (next_point((int)nd, d, dlo, dhi));
  return true;
}

/* ---- the check ------------------------------------------------------------------------------------------- */

static void check(ii_ctx *c, const hlo_instr *in, int64_t output_id, int k, bool i2o, const ii_set *set, vf_layout l,
                  vf_result *res) {
  memset(res, 0, sizeof *res);
  /* an empty set says the entry reads nothing: compared like any other */
  for (uint32_t i = 0; i < set->n; i++)
    if (set->items[i]->map->undefined) {
      res->status = VF_SKIP_UNKNOWN;
      say(res, "unknown indexing");
      return;
    }
  edge e = edge_of(in, output_id, k, 0);
  if (!e.no_ref && i2o && (e.covering || e.clip)) e.no_ref = "an in2out map of an over-approximated read";
  if (!e.no_ref && i2o && ii_ctx_xla_compat(c) && family(in->op) == II_FAM_EW && in->operands[k]->shape->rank == 0)
    e.no_ref = "the in2out map of a scalar operand of an elementwise op (XLA gives it the output's dimensions)";
  if (e.no_ref) {
    res->status = VF_SKIP_NO_REFERENCE;
    say(res, "no reference for %s", e.no_ref);
    return;
  }
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = read_shape(in, output_id, k);
  if (!rank_ok(os) || !rank_ok(xs)) {
    res->status = VF_SKIP_NO_REFERENCE;
    say(res, "no reference for a tuple-shaped or very high-rank value");
    return;
  }
  int64_t part = part_of(in, output_id, k), got_part = set->in_elem ? set->elem : -1;
  if (set->n && part != got_part) {
    res->status = VF_MISMATCH;
    say(res, "the maps index tuple element %lld of the operand, the op reads element %lld", (long long)got_part,
        (long long)part);
    return;
  }
  const hlo_shape *from = i2o ? xs : os, *to = i2o ? os : xs;
  enum_ctx E = {from, to, to_logical(c, from, l), to_logical(c, to, l), e.clip, 0, res};

  rel got = {0}, want = {0};
  bool ok = true;
  for (uint32_t i = 0; ok && i < set->n; i++) ok = enum_map(&E, set->items[i]->map, &got);
  res->points = E.points;
  if (ok) {
    ref R = {0, VF_MAX_WORK, false, NULL};
    if (!reference(&R, in, output_id, k, i2o, &want)) {
      res->status = VF_SKIP_TOO_LARGE;
      say(res, "a reference of more than %llu steps", (unsigned long long)VF_MAX_WORK);
      ok = false;
    }
    while (R.fctxs) {
      fctx *f = R.fctxs;
      R.fctxs = f->next;
      fctx_free(f);
    }
  }
  if (ok) {
    rel_norm(&got);
    res->pairs = want.n / 2;
    res->covering = e.covering;
    size_t missing = 0, extra = 0, mi = 0, ei = 0;
    for (size_t i = 0; i < want.n; i += 2)
      if (!rel_has(&got, want.v[i], want.v[i + 1]) && missing++ == 0) mi = i;
    if (!e.covering)
      for (size_t i = 0; i < got.n; i += 2)
        if (!rel_has(&want, got.v[i], got.v[i + 1]) && extra++ == 0) ei = i;
    const hlo_shape *fs = i2o ? xs : os, *ts = i2o ? os : xs;
    char a[160], b[160];
    if (missing) {
      put_index(a, sizeof a, fs, want.v[mi]);
      put_index(b, sizeof b, ts, want.v[mi + 1]);
      res->status = VF_MISMATCH;
      say(res, "%zu of the %zu pairs the op reads are not in the maps, e.g. %s -> %s", missing, want.n / 2, a, b);
    } else if (extra) {
      put_index(a, sizeof a, fs, got.v[ei]);
      put_index(b, sizeof b, ts, got.v[ei + 1]);
      res->status = VF_MISMATCH;
      say(res, "%zu of the %zu pairs of the maps are not read by the op, e.g. %s -> %s", extra, got.n / 2, a, b);
    } else {
      res->status = VF_OK;
    }
  }
  rel_free(&got);
  rel_free(&want);
}

void vf_check_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t k, const ii_set *set, vf_layout l,
                  vf_result *res) {
  check(c, in, output_id, (int)k, false, set, l, res);
}

void vf_check_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, uint32_t k, const ii_set *set, vf_layout l,
                  vf_result *res) {
  check(c, in, (int64_t)k, (int)input_id, true, set, l, res);
}
