/* Enumeration check of the instruction indexing (instr_indexing.h).
 *
 * For small shapes of every opcode family, the relation printed by the
 * analysis -- every member map of an operand's set, enumerated over its
 * dimension, range and runtime variables, their intervals and the
 * constraints -- is compared, element by element, with what the op reads
 * according to its definition (hlo-text-format.md §6.3, "Index semantics of
 * the data-movement ops"). The reference below is a tiny independent
 * implementation of those semantics: it reads the op's attributes from the
 * IR and never looks at a map. Runtime offsets are taken as any value of
 * their clamped range (a scalar constant offset as its clamped value).
 *
 * Input-to-output maps are checked against the transposed reference.
 *
 * Deliberate over-approximations of XLA, checked as "superset" (the map
 * covers every element read, and more):
 *  - dynamic-update-slice operand 0: XLA gives the identity, including the
 *    positions the update overwrites;
 *  - dynamic-update-slice operand 1: XLA's map d - rt ranges over the whole
 *    output, so it also yields indices outside the update; compared after
 *    dropping out-of-bounds indices ("clipped"), where it is exact;
 *  - pad operand 1 (the padding value): XLA maps every output element to it,
 *    the op reads it only at padding positions;
 *  - convolution with batch_group_count > 1: XLA lets every output element
 *    read every batch group, the op reads the group of its output feature;
 *  - a constant dynamic-slice offset outside its clamped range stays a
 *    runtime variable over the whole range (XLA does not clamp it).
 * And one XLA inexactness not enumerated here: gather indices that are an
 * iota are folded without clamping (FusionWithRTVarsSimplification_Iota),
 * so batch rows beyond the clamped range index past the operand; the cases
 * below keep iota values inside the range, where the fold is exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "test_util.h"

/* ---- shapes and indices -------------------------------------------------------------------------- */

static const hlo_shape *elem_shape(const hlo_shape *s, int64_t k) {
  return s->type == HLO_TUPLE ? s->elems[k] : s;
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
    idx[i] = l % s->dims[i];
    l /= s->dims[i];
  }
}

static bool in_bounds(const hlo_shape *s, const int64_t *idx) {
  for (int i = 0; i < s->rank; i++)
    if (idx[i] < 0 || idx[i] >= s->dims[i]) return false;
  return true;
}

/* Odometer over [lo_i, hi_i]; false when done (or empty). */
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

static bool first_point(int n, int64_t *v, const int64_t *lo, const int64_t *hi) {
  for (int i = 0; i < n; i++) {
    if (lo[i] > hi[i]) return false;
    v[i] = lo[i];
  }
  return true;
}

/* ---- relations: sorted arrays of (from, to) pairs ---------------------------------------------------- */

typedef struct {
  int64_t *v;
  size_t n, cap;
} rel;

#define OOB ((int64_t)1 << 40) /* "to" index of an out-of-bounds result */

static void rel_add(rel *r, int64_t from, int64_t to) {
  if (r->n + 2 > r->cap) {
    r->cap = r->cap ? r->cap * 2 : 256;
    r->v = realloc(r->v, r->cap * sizeof *r->v);
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

/* ---- enumerating a map ----------------------------------------------------------------------------------- */

/* Adds every (from, to) pair of the map: from-points over the from shape
 * inside the dim intervals, symbol values over their intervals, constraints
 * satisfied. Out-of-bounds results are dropped when clip, else recorded as
 * OOB. Returns false (and reports) when the map does not fit the shapes. */
static bool enum_map(const char *what, const imap *m, const hlo_shape *from, const hlo_shape *to, bool clip, rel *out) {
  if (m->undefined) {
    CHECK(false, "%s: undefined map", what);
    return false;
  }
  if (m->known_empty) return true;
  if ((int)m->ndims != from->rank || (int)m->nresults != to->rank) {
    CHECK(false, "%s: map has %u dims / %u results for shapes of rank %d / %d", what, m->ndims, m->nresults,
          from->rank, to->rank);
    return false;
  }
  int nd = from->rank, ns = (int)imap_nsyms(m);
  int64_t d[16], dlo[16], dhi[16], s[16], slo[16], shi[16], r[16];
  for (int i = 0; i < nd; i++) {
    dlo[i] = 0;
    dhi[i] = from->dims[i] - 1;
  }
  for (int j = 0; j < ns; j++) {
    slo[j] = m->sym_iv[j].lo;
    shi[j] = m->sym_iv[j].hi;
  }
  if (!first_point(nd, d, dlo, dhi)) return true;
  do {
    bool ok = true;
    for (int i = 0; i < nd; i++) ok &= iv_contains(m->dim_iv[i], d[i]);
    if (!ok) continue;
    if (!first_point(ns, s, slo, shi)) continue;
    do {
      bool sat = true;
      for (uint32_t k = 0; sat && k < m->ncons; k++) {
        int64_t v;
        sat = ae_eval_point(m->cons[k].expr, d, (size_t)nd, s, (size_t)ns, &v) && iv_contains(m->cons[k].iv, v);
      }
      if (!sat) continue;
      bool ev = true;
      for (int i = 0; i < to->rank; i++) ev &= ae_eval_point(m->results[i], d, (size_t)nd, s, (size_t)ns, &r[i]);
      CHECK(ev, "%s: result does not evaluate", what);
      if (!ev) return false;
      if (in_bounds(to, r)) rel_add(out, lin(from, d), lin(to, r));
      else if (!clip) rel_add(out, lin(from, d), OOB);
    } while (next_point(ns, s, slo, shi));
  } while (next_point(nd, d, dlo, dhi));
  return true;
}

/* ---- the reference: what an op reads -------------------------------------------------------------------- */

typedef void (*emit_fn)(void *cl, const int64_t *idx);

static void ref_reads(const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit, void *cl);

static bool is_elementwise(hlo_opcode op) {
  switch (op) {
  case HLO_OP_ADD: case HLO_OP_SUBTRACT: case HLO_OP_MULTIPLY: case HLO_OP_DIVIDE: case HLO_OP_MAXIMUM:
  case HLO_OP_MINIMUM: case HLO_OP_SELECT: case HLO_OP_CLAMP: case HLO_OP_EXPONENTIAL: case HLO_OP_NEGATE:
  case HLO_OP_COPY: case HLO_OP_CONVERT: case HLO_OP_COMPARE: case HLO_OP_MAP: case HLO_OP_ABS: case HLO_OP_TANH:
    return true;
  default: return false;
  }
}

static bool in_ints(const hlo_ints *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The values a start-index operand can take, clamped to [0, hi]: a scalar
 * constant's clamped value, else the whole range. */
static void offset_range(const hlo_instr *idx, int64_t hi, int64_t *lo_out, int64_t *hi_out) {
  int64_t v;
  if (idx->op == HLO_OP_CONSTANT && hlo_constant_scalar_int(idx, &v)) {
    *lo_out = *hi_out = clamp64(v, 0, hi);
  } else {
    *lo_out = 0;
    *hi_out = hi;
  }
}

static void ref_conv(const hlo_instr *in, int k, const int64_t *o, emit_fn emit, void *cl) {
  const hlo_conv_dims *cd = in->conv_dims;
  const hlo_shape *xs = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  int sp = cd->n_spatial;
  int64_t b = o[cd->output_batch], f = o[cd->output_feature];
  int64_t gin = ks->dims[cd->kernel_input_feature], fout = os->dims[cd->output_feature];
  int64_t fg = f / (fout / in->feature_group_count);
  int64_t bg = f / (fout / in->batch_group_count);
  int64_t w[16], wlo[16], whi[16], idx[16];
  for (int i = 0; i < sp; i++) {
    wlo[i] = 0;
    whi[i] = in->window[i].size - 1;
  }
  if (!first_point(sp, w, wlo, whi)) return;
  do {
    for (int64_t c = 0; c < gin; c++) {
      if (k == 1) {
        for (int i = 0; i < sp; i++) idx[cd->kernel_spatial[i]] = w[i];
        idx[cd->kernel_output_feature] = f;
        idx[cd->kernel_input_feature] = c;
        emit(cl, idx);
        continue;
      }
      bool pad = false;
      for (int i = 0; i < sp; i++) {
        const hlo_window_dim *wd = &in->window[i];
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
      idx[cd->input_batch] = in->batch_group_count > 1 ? bg * os->dims[cd->output_batch] + b : b;
      emit(cl, idx);
    }
  } while (next_point(sp, w, wlo, whi));
}

/* Fusion: what every parameter of the fused computation is read at, for
 * output index o of root output_id, by propagating index sets from the
 * root to the parameters (users before operands). */
typedef struct {
  const hlo_computation *comp;
  uint8_t **seen; /* per instruction: a flag per element */
} fctx;

typedef struct {
  fctx *f;
  const hlo_instr *target;
} femit;

static void fusion_mark(void *cl, const int64_t *idx) {
  femit *e = cl;
  const hlo_shape *s = e->target->shape;
  e->f->seen[e->target->index][lin(s, idx)] = 1;
}

static void postorder(const hlo_computation *c, const hlo_instr *x, uint8_t *done, const hlo_instr **order, int *n) {
  if (done[x->index]) return;
  done[x->index] = 1;
  for (int k = 0; k < x->n_operands; k++) postorder(c, x->operands[k], done, order, n);
  order[(*n)++] = x;
}

static void ref_fusion(const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit, void *cl) {
  const hlo_computation *comp = NULL;
  for (int i = 0; i < in->n_called; i++)
    if (in->called_role[i] == HLO_CALL_CALLS) comp = in->called[i];
  const hlo_instr *root = comp->root;
  const hlo_instr *target = root->op == HLO_OP_TUPLE ? root->operands[output_id] : root;
  fctx f = {comp, calloc((size_t)comp->n_instrs, sizeof(uint8_t *))};
  for (int i = 0; i < comp->n_instrs; i++) {
    const hlo_shape *s = comp->instrs[i]->shape;
    f.seen[i] = calloc((size_t)(s->type == HLO_TUPLE ? 1 : nelems(s)) + 1, 1);
  }
  f.seen[target->index][lin(target->shape, o)] = 1;
  uint8_t *done = calloc((size_t)comp->n_instrs, 1);
  const hlo_instr **order = calloc((size_t)comp->n_instrs, sizeof *order);
  int n = 0;
  postorder(comp, target, done, order, &n);
  int64_t idx[16];
  for (int i = n; i-- > 0;) {
    const hlo_instr *x = order[i];
    if (x->op == HLO_OP_PARAMETER) continue;
    int64_t ne = nelems(x->shape);
    for (int64_t l = 0; l < ne; l++) {
      if (!f.seen[x->index][l]) continue;
      delin(x->shape, l, idx);
      for (int j = 0; j < x->n_operands; j++) {
        femit e = {&f, x->operands[j]};
        ref_reads(x, 0, j, idx, fusion_mark, &e);
      }
    }
  }
  const hlo_instr *p = comp->params[k];
  int64_t ne = nelems(p->shape);
  for (int64_t l = 0; l < ne; l++) {
    if (!f.seen[p->index][l]) continue;
    delin(p->shape, l, idx);
    emit(cl, idx);
  }
  for (int i = 0; i < comp->n_instrs; i++) free(f.seen[i]);
  free(f.seen);
  free(done);
  free(order);
}

static void ref_reads(const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit, void *cl) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t idx[16] = {0}, v[16], lo[16], hi[16];
  int r = xs->rank;
  if (is_elementwise(in->op)) {
    emit(cl, o); /* a scalar operand: idx unused */
    return;
  }
  switch (in->op) {
  case HLO_OP_BROADCAST:
    for (int j = 0; j < r; j++) idx[j] = o[in->dimensions.v[j]];
    emit(cl, idx);
    return;
  case HLO_OP_TRANSPOSE:
    for (int i = 0; i < r; i++) idx[in->dimensions.v[i]] = o[i];
    emit(cl, idx);
    return;
  case HLO_OP_REVERSE:
    for (int i = 0; i < r; i++) idx[i] = in_ints(&in->dimensions, i) ? xs->dims[i] - 1 - o[i] : o[i];
    emit(cl, idx);
    return;
  case HLO_OP_SLICE:
    for (int i = 0; i < r; i++) idx[i] = in->slice[i].start + o[i] * in->slice[i].stride;
    emit(cl, idx);
    return;
  case HLO_OP_CONCATENATE: {
    int64_t c = in->dimensions.v[0], off = 0;
    for (int j = 0; j < k; j++) off += in->operands[j]->shape->dims[c];
    if (o[c] < off || o[c] >= off + xs->dims[c]) return;
    for (int i = 0; i < r; i++) idx[i] = o[i];
    idx[c] -= off;
    emit(cl, idx);
    return;
  }
  case HLO_OP_PAD: {
    const hlo_shape *x = in->operands[0]->shape;
    bool padding = false;
    for (int i = 0; i < x->rank; i++) {
      const hlo_pad_dim *p = &in->padding[i];
      int64_t q = o[i] - p->lo;
      if (q < 0 || q % (p->interior + 1)) {
        padding = true;
        continue;
      }
      idx[i] = q / (p->interior + 1);
      if (idx[i] >= x->dims[i]) padding = true;
    }
    if ((k == 0) != padding) emit(cl, idx);
    return;
  }
  case HLO_OP_RESHAPE:
    delin(xs, lin(os, o), idx);
    emit(cl, idx);
    return;
  case HLO_OP_BITCAST: {
    /* physical offset of o in the result, then the operand index at it */
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
    return;
  }
  case HLO_OP_REDUCE: {
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
    while (next_point(r, v, lo, hi));
    return;
  }
  case HLO_OP_REDUCE_WINDOW: {
    int n = in->n_operands / 2;
    if (k >= n) {
      emit(cl, idx);
      return;
    }
    for (int i = 0; i < r; i++) {
      lo[i] = 0;
      hi[i] = in->window[i].size - 1;
    }
    if (!first_point(r, v, lo, hi)) return;
    do {
      bool ok = true;
      for (int i = 0; i < r && ok; i++) {
        const hlo_window_dim *w = &in->window[i];
        /* position in the padded, dilated operand; then in the operand */
        int64_t pp = o[i] * w->stride + v[i] * w->rhs_dilate;
        int64_t padded = w->pad_lo + (xs->dims[i] - 1) * w->lhs_dilate + 1 + w->pad_hi;
        int64_t p = pp - w->pad_lo;
        ok = pp < padded && p >= 0 && p % w->lhs_dilate == 0 && p / w->lhs_dilate < xs->dims[i];
        idx[i] = ok ? p / w->lhs_dilate : 0;
      }
      if (ok) emit(cl, idx);
    } while (next_point(r, v, lo, hi));
    return;
  }
  case HLO_OP_DOT:
  case HLO_OP_SCALED_DOT: {
    const hlo_dot_dims *dd = in->dot;
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
    int64_t base[16];
    for (int t = 0; t < nb; t++) base[bt->v[t]] = o[t];
    for (int i = 0; i < a->rank; i++)
      if (!in_ints(bt, i) && !in_ints(ct, i)) base[i] = o[oi++];
    if (!first_point(nc, v, lo, hi)) return;
    do {
      for (int i = 0; i < a->rank; i++) idx[i] = base[i];
      for (int t = 0; t < nc; t++) idx[ct->v[t]] = v[t];
      if (k >= 2)
        for (int i = 0; i < a->rank; i++)
          if (xs->dims[i] != a->dims[i]) idx[i] /= a->dims[i] / xs->dims[i];
      emit(cl, idx);
    } while (next_point(nc, v, lo, hi));
    return;
  }
  case HLO_OP_CONVOLUTION: ref_conv(in, k, o, emit, cl); return;
  case HLO_OP_DYNAMIC_SLICE: {
    if (k > 0) {
      emit(cl, idx);
      return;
    }
    for (int i = 0; i < r; i++) offset_range(in->operands[i + 1], xs->dims[i] - os->dims[i], &lo[i], &hi[i]);
    if (!first_point(r, v, lo, hi)) return;
    do {
      for (int i = 0; i < r; i++) idx[i] = o[i] + v[i];
      emit(cl, idx);
    } while (next_point(r, v, lo, hi));
    return;
  }
  case HLO_OP_DYNAMIC_UPDATE_SLICE: {
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
    } while (next_point(ro, v, lo, hi));
    if (k == 0 && outside_once) emit(cl, o);
    return;
  }
  case HLO_OP_GATHER: {
    const hlo_gather_dims *g = in->gather;
    const hlo_instr *ind = in->operands[1];
    if (k == 1) {
      for (int64_t t = 0; t < ind->shape->dims[1]; t++) {
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
        lo[i] = hi[i] = clamp64(ind->iota_dimension == 0 ? o[0] : t, 0, mx);
      } else {
        lo[i] = 0;
        hi[i] = mx;
      }
    }
    if (!first_point(x->rank, v, lo, hi)) return;
    do {
      for (int i = 0; i < x->rank; i++) idx[i] = v[i] + o[g->offset_dims.v[i]];
      emit(cl, idx);
    } while (next_point(x->rank, v, lo, hi));
    return;
  }
  case HLO_OP_ALL_GATHER: {
    int64_t gd = in->dimensions.v[0];
    for (int i = 0; i < r; i++) idx[i] = o[i];
    idx[gd] = o[gd] % xs->dims[gd];
    emit(cl, idx);
    return;
  }
  case HLO_OP_FUSION: ref_fusion(in, output_id, k, o, emit, cl); return;
  default:
    fprintf(stderr, "no reference for %s\n", in->opcode_text);
    exit(2);
  }
}

/* ---- checks ------------------------------------------------------------------------------------------------ */

typedef struct {
  rel *r;
  int64_t from;
  const hlo_shape *to;
  bool swap;
} remit;

static void rel_emit(void *cl, const int64_t *idx) {
  remit *e = cl;
  int64_t t = e->to->rank == 0 ? 0 : lin(e->to, idx);
  if (e->swap) rel_add(e->r, t, e->from);
  else rel_add(e->r, e->from, t);
}

/* The reference relation between output output_id and operand k
 * (swap: operand -> output). */
static void reference(const hlo_instr *in, int64_t output_id, int k, bool swap, rel *out) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t o[16];
  int64_t ne = nelems(os);
  for (int64_t l = 0; l < ne; l++) {
    delin(os, l, o);
    remit e = {out, l, xs, swap};
    ref_reads(in, output_id, k, o, rel_emit, &e);
  }
  rel_norm(out);
}

static int n_cases, n_compared;

static void compare(const char *what, rel *got, rel *want, bool superset) {
  rel_norm(got);
  n_compared++;
  size_t missing = 0, extra = 0;
  for (size_t i = 0; i < want->n; i += 2)
    if (!rel_has(got, want->v[i], want->v[i + 1])) missing++;
  for (size_t i = 0; i < got->n; i += 2)
    if (!rel_has(want, got->v[i], got->v[i + 1])) extra++;
  CHECK(missing == 0, "%s: %zu pairs read by the op are missing from the maps (of %zu)", what, missing, want->n / 2);
  if (!superset) CHECK(extra == 0, "%s: %zu pairs of the maps are not read by the op (of %zu)", what, extra, got->n / 2);
  else CHECK(got->n >= want->n, "%s: superset check", what);
}

enum { SUP = 1, CLIP = 2 };

typedef struct {
  const char *name;
  const char *hlo;
  const char *modes; /* per operand: '=' exact, 's' superset, 'c' clipped, '-' skip; missing = exact */
  bool i2o;          /* check input-to-output maps too */
} enum_case;

static int mode_of(const enum_case *t, int k) {
  if (!t->modes || k >= (int)strlen(t->modes)) return 0;
  switch (t->modes[k]) {
  case 's': return SUP;
  case 'c': return CLIP;
  case '-': return -1;
  default: return 0;
  }
}

static void run_case(ii_ctx *c, const enum_case *t) {
  hlo_parse_result pr;
  hlo_error perr;
  size_t len = strlen(t->hlo);
  char *buf = calloc(len + 64, 1);
  memcpy(buf, t->hlo, len);
  if (hlo_parse_file(buf, len, &pr, &perr)) {
    CHECK(false, "%s: does not parse: %s (at byte %zu)", t->name, perr.message, perr.offset);
    free(buf);
    return;
  }
  n_cases++;
  const hlo_instr *in = pr.modules[0]->entry->root;
  char what[256];
  for (int64_t out_id = 0; out_id < ii_num_outputs(in); out_id++) {
    ii_ctx_reset(c);
    ii_indexing x;
    ii_error err;
    ii_status st = ii_o2i(c, in, out_id, &x, &err);
    CHECK(st == II_OK, "%s: o2i fails: %s", t->name, err.message);
    if (st != II_OK) break;
    const hlo_shape *os = elem_shape(in->shape, out_id);
    for (int k = 0; k < in->n_operands; k++) {
      int mode = mode_of(t, k);
      if (mode < 0) continue;
      snprintf(what, sizeof what, "%s: out2in output %lld operand %d", t->name, (long long)out_id, k);
      rel got = {0}, want = {0};
      for (uint32_t i = 0; i < x.sets[k].n; i++)
        enum_map(what, x.sets[k].items[i]->map, os, in->operands[k]->shape, mode == CLIP, &got);
      reference(in, out_id, k, false, &want);
      compare(what, &got, &want, mode == SUP);
      rel_free(&got);
      rel_free(&want);
    }
  }
  for (int k = 0; t->i2o && k < in->n_operands; k++) {
    const hlo_shape *xs = in->operands[k]->shape;
    if (xs->rank == 0 && in->op != HLO_OP_REDUCE) continue; /* elementwise i2o of a scalar: dims are the output's */
    ii_ctx_reset(c);
    ii_indexing x;
    ii_error err;
    ii_status st = ii_i2o(c, in, k, &x, &err);
    CHECK(st == II_OK, "%s: i2o fails: %s", t->name, err.message);
    if (st != II_OK) break;
    for (uint32_t j = 0; j < x.n; j++) {
      snprintf(what, sizeof what, "%s: in2out operand %d output %u", t->name, k, j);
      rel got = {0}, want = {0};
      for (uint32_t i = 0; i < x.sets[j].n; i++)
        enum_map(what, x.sets[j].items[i]->map, xs, elem_shape(in->shape, j), false, &got);
      reference(in, j, k, true, &want);
      compare(what, &got, &want, false);
      rel_free(&got);
      rel_free(&want);
    }
  }
  hlo_parse_result_free(&pr);
  free(buf);
}

/* ---- cases ------------------------------------------------------------------------------------------------- */

#define ADD "add { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
#define ADD2 \
  "add2 { a = f32[] parameter(0)\n b = s32[] parameter(1)\n c = f32[] parameter(2)\n d = s32[] parameter(3)\n" \
  " e = f32[] add(a, c)\n f = s32[] add(b, d)\n ROOT t = (f32[], s32[]) tuple(e, f) }\n"
#define E1(body) "HloModule m\nENTRY e {\n" body "\n}\n"

static const enum_case cases[] = {
    /* elementwise */
    {"add", E1("a = f32[3,1,2] parameter(0)\n b = f32[3,1,2] parameter(1)\n ROOT r = f32[3,1,2] add(a, b)"), NULL, true},
    {"select scalar pred", E1("p = pred[] parameter(0)\n a = f32[5] parameter(1)\n b = f32[5] parameter(2)\n"
                              " ROOT r = f32[5] select(p, a, b)"), NULL, true},
    {"clamp scalar bounds", E1("lo = f32[] parameter(0)\n x = f32[2,3] parameter(1)\n hi = f32[] parameter(2)\n"
                               " ROOT r = f32[2,3] clamp(lo, x, hi)"), NULL, true},
    {"exp rank0", E1("a = f32[] parameter(0)\n ROOT r = f32[] exponential(a)"), NULL, true},
    {"copy size0", E1("a = f32[0,3] parameter(0)\n ROOT r = f32[0,3] copy(a)"), NULL, true},
    {"map", "HloModule m\n" ADD "ENTRY e {\n a = f32[2,3] parameter(0)\n b = f32[2,3] parameter(1)\n"
            " ROOT r = f32[2,3] map(a, b), dimensions={0,1}, to_apply=add\n}\n", NULL, true},
    /* broadcast / transpose / reverse */
    {"broadcast", E1("a = f32[3] parameter(0)\n ROOT r = f32[2,3,4] broadcast(a), dimensions={1}"), NULL, true},
    {"broadcast scalar", E1("a = f32[] parameter(0)\n ROOT r = f32[2,3] broadcast(a), dimensions={}"), NULL, true},
    {"broadcast 2d", E1("a = f32[2,5] parameter(0)\n ROOT r = f32[5,3,2] broadcast(a), dimensions={2,0}"), NULL, true},
    {"transpose 3d", E1("a = f32[2,3,4] parameter(0)\n ROOT r = f32[4,2,3] transpose(a), dimensions={2,0,1}"), NULL, true},
    {"transpose 5d", E1("a = f32[2,1,3,1,2] parameter(0)\n ROOT r = f32[3,2,1,2,1] transpose(a), dimensions={2,0,3,4,1}"),
     NULL, true},
    {"reverse", E1("a = f32[5,1,3] parameter(0)\n ROOT r = f32[5,1,3] reverse(a), dimensions={0,1,2}"), NULL, true},
    /* slice / concatenate / pad */
    {"slice strided", E1("a = f32[20,7] parameter(0)\n ROOT r = f32[3,2] slice(a), slice={[2:17:5], [1:7:4]}"), NULL, true},
    {"slice 3d", E1("a = f32[5,4,9] parameter(0)\n ROOT r = f32[2,1,3] slice(a), slice={[1:3], [3:4], [0:9:3]}"), NULL, true},
    {"slice empty", E1("a = f32[5] parameter(0)\n ROOT r = f32[0] slice(a), slice={[2:2]}"), NULL, true},
    {"concatenate", E1("a = f32[2,3] parameter(0)\n b = f32[2,1] parameter(1)\n c = f32[2,4] parameter(2)\n"
                       " ROOT r = f32[2,8] concatenate(a, b, c), dimensions={1}"), NULL, true},
    {"concatenate size0", E1("a = f32[2] parameter(0)\n b = f32[0] parameter(1)\n c = f32[3] parameter(2)\n"
                             " ROOT r = f32[5] concatenate(a, b, c), dimensions={0}"), NULL, true},
    {"pad", E1("a = f32[3] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[10] pad(a, c), padding=2_1_2"), "=s",
     false},
    {"pad negative", E1("a = f32[6,3] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[4,4] pad(a, c), padding=-2_0x1_0"),
     "=s", false},
    {"pad negative interior", E1("a = f32[7] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[5] pad(a, c), padding=-3_-5_1"),
     "=s", false},
    {"pad 2d interior", E1("a = f32[3,2] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[8,4] pad(a, c), padding=1_2_1x0_-1_3"),
     "=s", false},
    /* reshape / bitcast */
    {"reshape collapse", E1("a = f32[4,3] parameter(0)\n ROOT r = f32[12] reshape(a)"), NULL, true},
    {"reshape expand", E1("a = f32[12] parameter(0)\n ROOT r = f32[2,3,2] reshape(a)"), NULL, true},
    {"reshape generic", E1("a = f32[6,4] parameter(0)\n ROOT r = f32[3,8] reshape(a)"), NULL, true},
    {"reshape mixed", E1("a = f32[4,2,6] parameter(0)\n ROOT r = f32[8,3,2] reshape(a)"), NULL, true},
    {"reshape unit dims", E1("a = f32[1,4,1,3] parameter(0)\n ROOT r = f32[2,1,6,1] reshape(a)"), NULL, true},
    {"reshape 5d", E1("a = f32[2,3,2,2,3] parameter(0)\n ROOT r = f32[6,6,2] reshape(a)"), NULL, true},
    {"reshape size0", E1("a = f32[1,0,3] parameter(0)\n ROOT r = f32[0,2] reshape(a)"), NULL, true},
    {"reshape scalar", E1("a = f32[1,1] parameter(0)\n ROOT r = f32[] reshape(a)"), NULL, true},
    {"bitcast reshape", E1("a = f32[4,6] parameter(0)\n ROOT r = f32[4,2,3] bitcast(a)"), NULL, true},
    {"bitcast transpose", E1("a = f32[6,4]{1,0} parameter(0)\n ROOT r = f32[4,6]{0,1} bitcast(a)"), NULL, true},
    {"bitcast trt", E1("a = f32[2,3,4] parameter(0)\n ROOT r = f32[4,6]{0,1} bitcast(a)"), NULL, true},
    {"bitcast trt 2", E1("a = f32[4,3,2]{0,2,1} parameter(0)\n ROOT r = f32[6,4]{0,1} bitcast(a)"), NULL, true},
    {"bitcast layouts 3d", E1("a = f32[2,3,5]{0,1,2} parameter(0)\n ROOT r = f32[5,6]{1,0} bitcast(a)"), NULL, true},
    /* reductions */
    {"reduce", "HloModule m\n" ADD "ENTRY e {\n a = f32[4,5,3] parameter(0)\n c = f32[] parameter(1)\n"
               " ROOT r = f32[5] reduce(a, c), dimensions={2,0}, to_apply=add\n}\n", NULL, true},
    {"reduce full", "HloModule m\n" ADD "ENTRY e {\n a = f32[4,3] parameter(0)\n c = f32[] parameter(1)\n"
                    " ROOT r = f32[] reduce(a, c), dimensions={0,1}, to_apply=add\n}\n", NULL, true},
    {"reduce variadic", "HloModule m\n" ADD2 "ENTRY e {\n a = f32[3,4] parameter(0)\n b = s32[3,4] parameter(1)\n"
                        " c = f32[] parameter(2)\n d = s32[] parameter(3)\n"
                        " ROOT r = (f32[4], s32[4]) reduce(a, b, c, d), dimensions={0}, to_apply=add2\n}\n", NULL, true},
    {"reduce-window", "HloModule m\n" ADD "ENTRY e {\n a = f32[10] parameter(0)\n c = f32[] parameter(1)\n"
                      " ROOT r = f32[5] reduce-window(a, c), window={size=3 stride=2 pad=1_1}, to_apply=add\n}\n", NULL, false},
    {"reduce-window dilations", "HloModule m\n" ADD "ENTRY e {\n a = f32[4,5] parameter(0)\n c = f32[] parameter(1)\n"
                                " ROOT r = f32[6,3] reduce-window(a, c), window={size=2x2 stride=2x1 pad=1_2x1_-1"
                                " lhs_dilate=3x1 rhs_dilate=1x2}, to_apply=add\n}\n", NULL, false},
    {"reduce-window unit", "HloModule m\n" ADD "ENTRY e {\n a = f32[7,1,3] parameter(0)\n c = f32[] parameter(1)\n"
                           " ROOT r = f32[3,1,3] reduce-window(a, c), window={size=3x1x1 stride=2x1x1}, to_apply=add\n}\n",
     NULL, false},
    {"reduce-window variadic", "HloModule m\n" ADD2 "ENTRY e {\n a = f32[2,3] parameter(0)\n b = s32[2,3] parameter(1)\n"
                               " c = f32[] parameter(2)\n d = s32[] parameter(3)\n"
                               " ROOT r = (f32[1,2], s32[1,2]) reduce-window(a, b, c, d), window={size=2x2}, to_apply=add2\n}\n",
     NULL, false},
    /* contractions */
    {"dot", E1("a = f32[2,3,4] parameter(0)\n b = f32[2,4,5] parameter(1)\n ROOT r = f32[2,3,5] dot(a, b),"
               " lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}"), NULL, false},
    {"dot 2 contractions", E1("a = f32[3,2,4] parameter(0)\n b = f32[4,5,3] parameter(1)\n ROOT r = f32[2,5] dot(a, b),"
                              " lhs_contracting_dims={0,2}, rhs_contracting_dims={2,0}"), NULL, false},
    {"dot vector", E1("a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n ROOT r = f32[] dot(a, b),"
                      " lhs_contracting_dims={0}, rhs_contracting_dims={0}"), NULL, false},
    {"scaled-dot", E1("a = f32[2,8] parameter(0)\n b = f32[8,3] parameter(1)\n as = f32[2,2] parameter(2)\n"
                      " bs = f32[4,3] parameter(3)\n ROOT r = f32[2,3] scaled-dot(a, b, as, bs),"
                      " lhs_contracting_dims={1}, rhs_contracting_dims={0}"), NULL, false},
    {"conv", E1("x = f32[1,5,4,2] parameter(0)\n k = f32[2,3,2,3] parameter(1)\n ROOT r = f32[1,3,3,3] convolution(x, k),"
                " window={size=3x2}, dim_labels=b01f_i01o->b01f"), NULL, false},
    {"conv padding stride", E1("x = f32[2,5,3] parameter(0)\n k = f32[3,3,4] parameter(1)\n ROOT r = f32[2,3,4] convolution(x, k),"
                               " window={size=3 stride=2 pad=1_1}, dim_labels=b0f_0io->b0f"), NULL, false},
    {"conv dilations", E1("x = f32[1,4,5,1] parameter(0)\n k = f32[2,2,1,2] parameter(1)\n ROOT r = f32[1,6,2,2] convolution(x, k),"
                          " window={size=2x2 pad=0_0x0_0 lhs_dilate=2x1 rhs_dilate=1x3}, dim_labels=b01f_01io->b01f"), NULL, false},
    {"conv labels", E1("x = f32[3,2,4] parameter(0)\n k = f32[2,2,2] parameter(1)\n ROOT r = f32[3,4,2] convolution(x, k),"
                       " window={size=2 pad=1_0}, dim_labels=0fb_o0i->0bf"), NULL, false},
    {"conv feature groups", E1("x = f32[1,4,6] parameter(0)\n k = f32[2,2,6] parameter(1)\n ROOT r = f32[1,3,6] convolution(x, k),"
                               " window={size=2}, dim_labels=b0f_0io->b0f, feature_group_count=3"), NULL, false},
    {"conv batch groups", E1("x = f32[6,4,2] parameter(0)\n k = f32[2,2,3] parameter(1)\n ROOT r = f32[2,3,3] convolution(x, k),"
                             " window={size=2}, dim_labels=b0f_0io->b0f, batch_group_count=3"), "s=", false},
    {"conv 0d", E1("x = f32[2,3] parameter(0)\n k = f32[3,4] parameter(1)\n ROOT r = f32[2,4] convolution(x, k),"
                   " dim_labels=bf_io->bf"), NULL, false},
    /* runtime variables */
    {"dynamic-slice", E1("x = f32[10,8] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
                         " ROOT r = f32[3,8] dynamic-slice(x, i, j), dynamic_slice_sizes={3,8}"), NULL, false},
    {"dynamic-slice constant", E1("x = f32[10,8] parameter(0)\n i = s32[] constant(4)\n j = s32[] parameter(1)\n"
                                  " ROOT r = f32[3,5] dynamic-slice(x, i, j), dynamic_slice_sizes={3,5}"), NULL, false},
    {"dynamic-slice constant out of range", E1("x = f32[10] parameter(0)\n i = s32[] constant(9)\n"
                                               " ROOT r = f32[4] dynamic-slice(x, i), dynamic_slice_sizes={4}"), "s", false},
    {"dynamic-update-slice", E1("x = f32[6,4] parameter(0)\n u = f32[2,3] parameter(1)\n i = s32[] parameter(2)\n"
                                " j = s32[] parameter(3)\n ROOT r = f32[6,4] dynamic-update-slice(x, u, i, j)"), "sc", false},
    {"gather", E1("x = f32[7,5] parameter(0)\n i = s32[3,2] parameter(1)\n ROOT r = f32[3,2,3] gather(x, i),"
                  " offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1,"
                  " slice_sizes={2,3}"), NULL, false},
    {"gather partial map", E1("x = f32[4,5,3] parameter(0)\n i = s32[2,1] parameter(1)\n ROOT r = f32[2,4,2,3] gather(x, i),"
                              " offset_dims={1,2,3}, collapsed_slice_dims={}, start_index_map={1}, index_vector_dim=1,"
                              " slice_sizes={4,2,3}"), NULL, false},
    {"gather iota", E1("x = f32[6,4] parameter(0)\n i = s32[4,1] iota(), iota_dimension=0\n ROOT r = f32[4,2,4] gather(x, i),"
                       " offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1,"
                       " slice_sizes={2,4}"), "=-", false},
    {"all-gather", "HloModule m, replica_count=3\nENTRY e {\n p = f32[2,3] parameter(0)\n"
                   " ROOT r = f32[2,9] all-gather(p), replica_groups={{0,1,2}}, dimensions={1}\n}\n", NULL, false},
    /* fusions */
    {"fusion transpose slice",
     "HloModule m\nf {\n p0 = f32[6,8] parameter(0)\n t = f32[8,6] transpose(p0), dimensions={1,0}\n"
     " s = f32[4,6] slice(t), slice={[2:6], [0:6]}\n ROOT e = f32[4,6] exponential(s)\n}\n"
     "ENTRY e {\n p0 = f32[6,8] parameter(0)\n ROOT r = f32[4,6] fusion(p0), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion two reads",
     "HloModule m\nf {\n p0 = f32[10] parameter(0)\n a = f32[8] slice(p0), slice={[0:8]}\n"
     " b = f32[8] slice(p0), slice={[2:10]}\n ROOT r = f32[8] add(a, b)\n}\n"
     "ENTRY e {\n p0 = f32[10] parameter(0)\n ROOT r = f32[8] fusion(p0), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion reshape chain",
     "HloModule m\nf {\n p0 = f32[4,6] parameter(0)\n a = f32[3,8] reshape(p0)\n b = f32[8,3] transpose(a), dimensions={1,0}\n"
     " c = f32[2,12] reshape(b)\n ROOT d = f32[24] bitcast(c)\n}\n"
     "ENTRY e {\n p0 = f32[4,6] parameter(0)\n ROOT r = f32[24] fusion(p0), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion concat pad reverse",
     "HloModule m\nf {\n p0 = f32[3] parameter(0)\n p1 = f32[4] parameter(1)\n c = f32[] parameter(2)\n"
     " k = f32[7] concatenate(p0, p1), dimensions={0}\n v = f32[7] reverse(k), dimensions={0}\n"
     " ROOT p = f32[11] pad(v, c), padding=-1_-1_1\n}\n"
     "ENTRY e {\n p0 = f32[3] parameter(0)\n p1 = f32[4] parameter(1)\n c = f32[] parameter(2)\n"
     " ROOT r = f32[11] fusion(p0, p1, c), kind=kLoop, calls=f\n}\n", "==s", false},
    {"fusion reduce of broadcast",
     "HloModule m\n" ADD "f {\n p0 = f32[4] parameter(0)\n c = f32[] parameter(1)\n"
     " b = f32[4,5] broadcast(p0), dimensions={0}\n ROOT r = f32[4] reduce(b, c), dimensions={1}, to_apply=add\n}\n"
     "ENTRY e {\n p0 = f32[4] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[4] fusion(p0, c), kind=kLoop, calls=f\n}\n",
     NULL, false},
    {"fusion dynamic-slice of dynamic-slice",
     "HloModule m\nf {\n x = f32[9,6] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
     " a = f32[5,4] dynamic-slice(x, i, j), dynamic_slice_sizes={5,4}\n k = s32[] constant(1)\n"
     " ROOT b = f32[2,3] dynamic-slice(a, k, j), dynamic_slice_sizes={2,3}\n}\n"
     "ENTRY e {\n x = f32[9,6] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
     " ROOT r = f32[2,3] fusion(x, i, j), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion nested",
     "HloModule m\ng {\n q = f32[6] parameter(0)\n ROOT s = f32[3] slice(q), slice={[1:6:2]}\n}\n"
     "f {\n p0 = f32[6,2] parameter(0)\n t = f32[2,6] transpose(p0), dimensions={1,0}\n"
     " r = f32[12] reshape(t)\n s = f32[6] slice(r), slice={[3:9]}\n ROOT n = f32[3] fusion(s), kind=kLoop, calls=g\n}\n"
     "ENTRY e {\n p0 = f32[6,2] parameter(0)\n ROOT r = f32[3] fusion(p0), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion tuple root",
     "HloModule m\nf {\n p0 = f32[4,3] parameter(0)\n p1 = f32[3] parameter(1)\n a = f32[3,4] transpose(p0), dimensions={1,0}\n"
     " b = f32[3,4] broadcast(p1), dimensions={0}\n c = f32[3,4] multiply(a, b)\n ROOT t = (f32[3,4], f32[3,4]) tuple(c, b)\n}\n"
     "ENTRY e {\n p0 = f32[4,3] parameter(0)\n p1 = f32[3] parameter(1)\n"
     " ROOT r = (f32[3,4], f32[3,4]) fusion(p0, p1), kind=kLoop, calls=f\n}\n", NULL, false},
    {"fusion window and dot",
     "HloModule m\n" ADD "f {\n p0 = f32[5,4] parameter(0)\n p1 = f32[4,3] parameter(1)\n c = f32[] constant(0)\n"
     " w = f32[3,4] reduce-window(p0, c), window={size=2x1 stride=2x1 pad=0_1x0_0}, to_apply=add\n"
     " ROOT d = f32[3,3] dot(w, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n"
     "ENTRY e {\n p0 = f32[5,4] parameter(0)\n p1 = f32[4,3] parameter(1)\n"
     " ROOT r = f32[3,3] fusion(p0, p1), kind=kLoop, calls=f\n}\n", NULL, false},
    /* the chain of bench/fusion_chain.c (rank 5, 18 ops: transposes, reshapes, bitcasts as reshape,
     * transpose and transpose-reshape-transpose, generic reshapes) */
    {"fusion bench chain",
     "HloModule chain\n"
     "\n"
     "fused {\n"
     "  v0 = f32[2,3,2,3,2]{4,3,2,1,0} parameter(0)\n"
     "  v1 = f32[3,2,3,2,2]{4,3,2,1,0} transpose(v0), dimensions={1,2,3,4,0}\n"
     "  v2 = f32[6,3,2,2]{3,2,1,0} reshape(v1)\n"
     "  v3 = f32[3,2,3,2,2]{4,3,2,1,0} bitcast(v2)\n"
     "  v4 = f32[2,3,3,2,2]{4,3,2,0,1} bitcast(v3)\n"
     "  v5 = f32[3,2,3,2,2]{4,3,2,1,0} transpose(v4), dimensions={1,0,2,3,4}\n"
     "  v6 = f32[2,3,3,2,2]{4,3,2,1,0} reshape(v5)\n"
     "  v7 = f32[3,3,2,2,2]{4,3,2,1,0} transpose(v6), dimensions={1,2,3,4,0}\n"
     "  v8 = f32[9,2,2,2]{3,2,1,0} reshape(v7)\n"
     "  v9 = f32[3,3,2,2,2]{4,3,2,1,0} bitcast(v8)\n"
     "  v10 = f32[3,3,2,2,2]{4,3,2,0,1} bitcast(v9)\n"
     "  v11 = f32[3,3,2,2,2]{4,3,2,1,0} transpose(v10), dimensions={1,0,2,3,4}\n"
     "  v12 = f32[3,3,2,2,2]{4,3,2,1,0} reshape(v11)\n"
     "  v13 = f32[3,2,2,2,3]{4,3,2,1,0} transpose(v12), dimensions={1,2,3,4,0}\n"
     "  v14 = f32[6,2,2,3]{3,2,1,0} reshape(v13)\n"
     "  v15 = f32[3,2,2,2,3]{4,3,2,1,0} bitcast(v14)\n"
     "  v16 = f32[2,3,2,2,3]{4,3,2,0,1} bitcast(v15)\n"
     "  v17 = f32[3,2,2,2,3]{4,3,2,1,0} transpose(v16), dimensions={1,0,2,3,4}\n"
     "  ROOT v18 = f32[2,3,2,2,3]{4,3,2,1,0} reshape(v17)\n"
     "}\n"
     "\n"
     "ENTRY e {\n"
     "  p = f32[2,3,2,3,2]{4,3,2,1,0} parameter(0)\n"
     "  ROOT f = f32[2,3,2,2,3]{4,3,2,1,0} fusion(p), kind=kLoop, calls=fused\n"
     "}\n",
     NULL, false},
};

int main(void) {
  ii_ctx *c = ii_ctx_new();
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    run_case(c, &cases[i]);
    ii_ctx_end_module(c);
  }
  ii_ctx_free(c);
  printf("enum_indexing: %d cases, %d relations compared\n", n_cases, n_compared);
  return t_finish("enum_indexing");
}
