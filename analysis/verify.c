/* Enumeration check of indexing maps (verify.h): the reference relation of
 * each op from its definition, the relation denoted by the maps, and their
 * comparison. */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"
#include "pair_sort.h"
#include "u32_heap.h"
#include "../parser/base/oom.h"
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

/* A pair is one 8-byte key while every element number of the relation
 * fits in 32 bits (from + 1 above to + 1, OOB as 0: the keys sort as the
 * pairs do), two int64_t from the first one that does not: a real dump's
 * reference holds millions of pairs, two relations at a time. */
typedef struct {
  void *v;         /* uint64_t keys, or (wide) int64_t from, to per pair */
  uint32_t n, cap; /* pairs (2^32 of them would be 32 GiB) */
  bool wide;
} rel;

static bool key_fits(int64_t x) { return x == OOB || (x >= 0 && x < (int64_t)UINT32_MAX); }
static uint64_t key_half(int64_t x) { return x == OOB ? 0 : (uint64_t)x + 1; }
static int64_t key_elem(uint64_t h) { return h == 0 ? OOB : (int64_t)h - 1; }
static uint64_t key_of(int64_t from, int64_t to) { return key_half(from) << 32 | key_half(to); }

static int64_t rel_from(const rel *r, size_t i) {
  return r->wide ? ((const int64_t *)r->v)[2 * i] : key_elem(((const uint64_t *)r->v)[i] >> 32);
}
static int64_t rel_to(const rel *r, size_t i) {
  return r->wide ? ((const int64_t *)r->v)[2 * i + 1] : key_elem(((const uint64_t *)r->v)[i] & UINT32_MAX);
}

/* Pair I := (FROM, TO), I < r->n (FROM and TO fit when r is not wide). */
static void rel_put(rel *r, size_t i, int64_t from, int64_t to) {
  if (r->wide) {
    ((int64_t *)r->v)[2 * i] = from;
    ((int64_t *)r->v)[2 * i + 1] = to;
  } else {
    ((uint64_t *)r->v)[i] = key_of(from, to);
  }
}

/* Keys to pairs, in place from the end. */
static void rel_widen(rel *r) {
  r->v = hb_realloc(r->v, (r->cap ? r->cap : 1) * 2 * sizeof(int64_t));
  const uint64_t *k = r->v;
  int64_t *p = r->v;
  for (size_t i = r->n; i-- > 0;) {
    uint64_t x = k[i];
    p[2 * i] = key_elem(x >> 32);
    p[2 * i + 1] = key_elem(x & UINT32_MAX);
  }
  r->wide = true;
}

static void rel_add(rel *r, int64_t from, int64_t to) {
  if (!r->wide && !(key_fits(from) && key_fits(to))) rel_widen(r);
  if (r->n == r->cap) {
    if (r->cap > UINT32_MAX / 2) hb_oom();
    r->cap = r->cap ? r->cap * 2 : 8; /* (a fusion of 10,000 operands has as many, most of a few pairs) */
    r->v = hb_realloc(r->v, r->cap * (r->wide ? 2 * sizeof(int64_t) : sizeof(uint64_t)));
  }
  rel_put(r, r->n++, from, to);
}

/* The first N pairs are kept. */
static void rel_truncate(rel *r, size_t n) { r->n = (uint32_t)n; } /* (n <= r->n) */

static bool rel_has(const rel *r, int64_t from, int64_t to) {
  if (r->wide) return pair_find(r->v, r->n, from, to);
  return key_fits(from) && key_fits(to) && key_find(r->v, r->n, key_of(from, to));
}

/* Sorted, each pair once. */
static void rel_norm(rel *r) {
  size_t w = 0;
  if (r->n == 0) return;
  if (r->wide) {
    int64_t *v = r->v;
    pair_sort(v, r->n);
    for (size_t i = 0; i < r->n; i++) {
      if (w && v[2 * w - 2] == v[2 * i] && v[2 * w - 1] == v[2 * i + 1]) continue;
      v[2 * w] = v[2 * i];
      v[2 * w + 1] = v[2 * i + 1];
      w++;
    }
  } else {
    uint64_t *v = r->v;
    key_sort(v, r->n);
    for (size_t i = 0; i < r->n; i++)
      if (!w || v[w - 1] != v[i]) v[w++] = v[i];
  }
  r->n = (uint32_t)w;
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

/* A set of element numbers (open addressing; -1 is empty). */
typedef struct {
  int64_t *slot;
  size_t cap, n;
} numset;

/* An instruction's elements in the propagation: a flag per element and the
 * elements flagged, in order, made when the instruction is first reached.
 * They are in the fctx's arena (a fusion of 10,000 instructions has as
 * many, most of a few elements: a malloc each cost more than they hold),
 * but for the flags of a large shape: calloc'd (fresh pages are zero
 * without being written, and a reference touches few of them) and adopted
 * by the arena, freed with it. Past FNODE_DENSE_MAX elements the flags are
 * a set of the elements flagged: a flag per element of a fused
 * f32[5040,5040,5040,5040] is 2^49 bytes, which no calloc returns (a
 * reference flags at most its work budget). */
#define FNODE_ARENA_MAX 4096 /* bytes of flags */
#define FNODE_DENSE_MAX ((int64_t)1 << 27)
typedef struct { /* (32 bytes: a fusion of 10,000 instructions has as many) */
  uint8_t *seen; /* NULL: not reached yet, or sparse */
  numset *big;   /* a large shape: the elements flagged (in the arena), or NULL */
  int64_t *touched;
  uint32_t n, cap; /* (at most the work budget, far below 2^32) */
} fnode;
struct fctx {
  const hlo_computation *comp;
  fnode *node;          /* per instruction */
  hb_arena *a;          /* the nodes' flags and elements */
  const hlo_instr **order; /* post-order of the instructions reachable from the target */
  int norder;
  const hlo_instr *target;
  fctx *next;           /* the cache list */
  /* One propagation visits the instructions it reaches, not the whole
   * order (an output element of a fusion of N parameters reads one or two:
   * a walk of the order per element was N^2): */
  uint32_t *pos;        /* per instruction in order: its place there */
  uint32_t *heap, nheap; /* places of those reached and not yet visited (u32_heap.h) */
  uint32_t *reached, nreached; /* the instructions reached since unmark, by index */
};

/* The data of the index operands (start indices, gather and scatter
 * indices). NULL world: every value of each use's range, independently per
 * op (the union the maps denote when their runtime variables range over
 * their intervals). A world fixes every element: a scalar integer constant
 * is its literal and an iota its index (the analysis folds both); any other
 * element gets a pseudo-random value from (seed, world, instruction name,
 * element), placed for a use of range [lo, hi] in [lo - 1, hi + 1], so
 * that values outside the range (clamped or dropped) occur too. */
typedef struct {
  uint64_t seed;
  uint32_t id;
} world;

typedef struct {
  uint64_t work, max_work;
  bool over;
  fctx *fctxs;
  const world *w;
  ii_ctx *c; /* the memos of the instruction (concatenate offsets, whole-fusion references) */
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

/* A value known without data: a scalar integer constant, an iota element. */
static bool known_value(const hlo_instr *x, int64_t elem, int64_t *v) {
  if (const_offset(x, v)) return true;
  const hlo_shape *s = x->shape;
  if (x->op != HLO_OP_IOTA || !is_array(s) || s->rank > MAXR || !x->cold->ext->has_iota_dimension ||
      x->cold->ext->iota_dimension < 0 || x->cold->ext->iota_dimension >= s->rank)
    return false;
  int64_t idx[MAXR];
  delin(s, elem, idx);
  *v = idx[x->cold->ext->iota_dimension];
  return true;
}

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

static bool numset_add(numset *h, int64_t v) {
  if (2 * (h->n + 1) > h->cap) {
    numset g = {NULL, h->cap ? 2 * h->cap : 64, 0};
    g.slot = hb_malloc(g.cap * sizeof *g.slot);
    memset(g.slot, 0xff, g.cap * sizeof *g.slot);
    for (size_t i = 0; i < h->cap; i++)
      if (h->slot[i] >= 0) numset_add(&g, h->slot[i]);
    free(h->slot);
    *h = g;
  }
  size_t i = mix64((uint64_t)v) & (h->cap - 1);
  for (; h->slot[i] >= 0; i = (i + 1) & (h->cap - 1))
    if (h->slot[i] == v) return false;
  h->slot[i] = v;
  h->n++;
  return true;
}

static bool numset_has(const numset *h, int64_t v) {
  if (!h->cap) return false;
  for (size_t i = mix64((uint64_t)v) & (h->cap - 1); h->slot[i] >= 0; i = (i + 1) & (h->cap - 1))
    if (h->slot[i] == v) return true;
  return false;
}

static void numset_clear(numset *h) {
  if (h->cap) memset(h->slot, 0xff, h->cap * sizeof *h->slot);
  h->n = 0;
}

static uint64_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static int64_t world_value(const world *w, const hlo_instr *x, int64_t elem, interval range) {
  int64_t v;
  if (known_value(x, elem, &v)) return v;
  uint64_t h = mix64(w->seed ^ mix64(w->id + 1) ^ mix64(str_hash(x->name) ^ str_hash(x->parent ? x->parent->name : "")) ^
                     mix64((uint64_t)elem * 0x632be59bd9b4e019u));
  uint64_t span = (uint64_t)(range.hi - range.lo) + 3; /* ranges are within +-2^40 */
  return range.lo - 1 + (int64_t)(h % span);
}

/* The values an op uses of element ELEM of index operand X whose range is
 * [0, hi]: clamped into it (clamp), or dropped when outside. [*vlo, *vhi]
 * is empty (vlo > vhi) when the value is dropped. */
static void index_values(const ref *R, const hlo_instr *x, int64_t elem, int64_t hi, bool clamp, int64_t *vlo,
                         int64_t *vhi) {
  int64_t v;
  if (!R->w && !known_value(x, elem, &v)) {
    *vlo = 0;
    *vhi = hi;
    return;
  }
  if (R->w) v = world_value(R->w, x, elem, iv_make(0, hi));
  if (clamp) v = clamp64(v, 0, hi);
  *vlo = v;
  *vhi = v >= 0 && v <= hi ? v : v - 1;
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
  for (int i = 0; i < in->cold->n_called; i++)
    if (in->cold->called_role[i] == role) return in->cold->called[i];
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
    for (int i = 0; !t && i < in->cold->n_called; i++)
      if (in->cold->called_role[i] == HLO_CALL_BRANCH_COMPUTATIONS && ++b == k) ce->comp = in->cold->called[i];
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

static edge edge_of(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat);

static bool rank_ok(const hlo_shape *s) { return is_array(s) && s->rank <= MAXR; }

/* The edges from a fusion's target to each instruction of its computation,
 * combined over every path (instructions visited users before operands):
 * per instruction, whether XLA's maps only cover the reads (cov) and
 * whether results outside the operand are dropped (clip); no_ref says why
 * there is no reference when some op on the way has none. */
typedef struct {
  const char *no_ref;
  uint8_t *cov, *clip; /* per instruction of the computation (malloc'd) */
} fusion_paths;

static void fusion_paths_of(const hlo_computation *comp, const hlo_instr *target, int depth, bool compat,
                            fusion_paths *fp) {
  edge e = {NULL, false, false};
  int n = comp->n_instrs;
  uint8_t *reach = hb_calloc((size_t)n + 1, 1), *cov = hb_calloc((size_t)n + 1, 1), *clip = hb_calloc((size_t)n + 1, 1);
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
        edge xe = edge_of(x, 0, j, depth + 1, compat);
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
  free(reach);
  fp->no_ref = e.no_ref;
  fp->cov = cov;
  fp->clip = clip;
}

/* The callee of a fusion-like op for output OUTPUT_ID and operand K, or an
 * edge saying why there is no reference. */
static bool fusion_callee(const hlo_instr *in, int64_t output_id, int k, int depth, callee *ce, edge *e) {
  if (!callee_of(in, output_id, k, ce)) *e = (edge){"a fusion whose output is not an array root", false, false};
  else if (depth > 50) *e = (edge){"fusions nested too deeply", false, false};
  else if (ce->comp->n_params != ce->nargs) *e = (edge){"a fusion with mismatched parameters", false, false};
  else return true;
  return false;
}

/* Fusion: the edges from the target to the parameters bound to operand k. */
static edge fusion_edge(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  edge e = {NULL, false, false};
  callee ce;
  if (in->op == HLO_OP_CONDITIONAL && k == 0) return e; /* the branch index, read by every element */
  if (!fusion_callee(in, output_id, k, depth, &ce, &e)) return e;
  fusion_paths fp;
  fusion_paths_of(ce.comp, ce.target, depth, compat, &fp);
  e.no_ref = fp.no_ref;
  if (!e.no_ref)
    for (int q = 0; q < ce.comp->n_params; q++) { /* every parameter bound to operand k */
      if (ce.args[q] != in->operands[k]) continue;
      e.covering |= fp.cov[ce.comp->params[q]->index];
      e.clip |= fp.clip[ce.comp->params[q]->index];
    }
  free(fp.cov);
  free(fp.clip);
  return e;
}

static edge edge_ew(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)depth;
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  bool same = xs->rank == 0 || xs->rank == os->rank;
  for (int i = 0; same && xs->rank && i < xs->rank; i++) same = xs->dims[i] == os->dims[i];
  if (!same) return (edge){"an elementwise op whose operand has another shape (XLA maps it as the identity)", false, false};
  return (edge){NULL, false, false};
}

/* bitcast-convert: the result's dims with one minor-most dimension more
 * (a narrower type) or less (a wider one) than the operand's, or the same. */
static edge edge_bconv(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)depth;
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int lead = os->rank < xs->rank ? os->rank : xs->rank;
  bool ok = os->rank == xs->rank || os->rank == xs->rank + 1 || xs->rank == os->rank + 1;
  for (int i = 0; ok && i < lead; i++) ok = os->dims[i] == xs->dims[i];
  if (!ok) return (edge){"a bitcast-convert whose dimensions do not fit", false, false};
  if (compat && os->rank != xs->rank)
    return (edge){"a bitcast-convert that changes the element width (XLA maps it as the identity)", false, false};
  return (edge){NULL, false, false};
}

static void reads_bconv(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = in->operands[k]->shape;
  int64_t idx[MAXR];
  for (int i = 0; i < xs->rank && i < os->rank; i++) idx[i] = o[i];
  if (xs->rank <= os->rank) { /* the same width, or a narrower result: one element */
    emit(cl, idx);
    return;
  }
  for (int64_t s = 0; s < xs->dims[os->rank] && work(R, 1); s++) {
    idx[os->rank] = s;
    emit(cl, idx);
  }
}

static edge edge_bitcast(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)depth;
  if (nelems(in->operands[k]->shape) != nelems(elem_shape(in->shape, output_id)))
    return (edge){"a bitcast that changes the element count", false, false};
  return (edge){NULL, false, false};
}

static edge edge_pad(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)in, (void)output_id, (void)depth;
  return (edge){NULL, k == 1, false};
}

static edge edge_conv(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)output_id, (void)depth;
  if (!in->cold->ext->conv_dims || in->cold->ext->conv_dims->n_spatial > MAXR)
    return (edge){"a convolution without dim_labels", false, false};
  /* XLA's batch-group map ranges over every group (--xla-compat) */
  return (edge){NULL, compat && k == 0 && in->cold->ext->batch_group_count > 1, false};
}

static edge edge_dynamic(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
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

/* Gather and scatter index vectors: the batch positions of the indices
 * are every dimension but index_vector_dim (an implicit trailing one when
 * it equals the rank); batch position b is indices dimension b, or b + 1
 * from index_vector_dim on. */
static int batch_dim(int b, int64_t ivd) { return b < ivd ? b : b + 1; }

/* Operand dims the window covers: neither collapsed / inserted nor batching. */
static bool window_dim(const hlo_ints *collapsed, const hlo_ints *batching, int i) {
  return !in_ints(collapsed, i) && !in_ints(batching, i);
}

/* Dimension numbers that fit the shapes (checked here, independently of
 * the analysis, before the reference relies on them). */
static bool ints_ok(const hlo_ints *l, int64_t n, bool sorted) {
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= n) return false;
    for (int j = 0; j < i; j++)
      if (l->v[j] == l->v[i] || (sorted && l->v[j] > l->v[i])) return false;
  }
  return true;
}

static bool disjoint(const hlo_ints *a, const hlo_ints *b) {
  for (int i = 0; i < a->n; i++)
    if (in_ints(b, a->v[i])) return false;
  return true;
}

/* The index-vector part shared by gather and scatter: components, batching
 * pairs, and the batch dims of the result / updates (rank `r`, dims not
 * in `window`) matching the indices' batch positions. */
static bool index_fits(const hlo_shape *x, const hlo_shape *is, int64_t ivd, const hlo_ints *map,
                       const hlo_ints *xb, const hlo_ints *ib, const hlo_shape *r, const hlo_ints *window) {
  int ri = is->rank;
  if (ivd < 0 || ivd > ri || map->n != (ivd < ri ? is->dims[ivd] : 1) || !ints_ok(map, x->rank, false) ||
      !ints_ok(xb, x->rank, false) || !ints_ok(ib, ri, false) || xb->n != ib->n || !disjoint(map, xb) ||
      in_ints(ib, ivd) || r->rank != window->n + ri - (ivd < ri) || !ints_ok(window, r->rank, true))
    return false;
  for (int q = 0; q < xb->n; q++)
    if (x->dims[xb->v[q]] != is->dims[ib->v[q]]) return false;
  for (int d = 0, b = 0; d < r->rank; d++)
    if (!in_ints(window, d) && r->dims[d] != is->dims[batch_dim(b++, ivd)]) return false;
  return true;
}

static bool gather_fits(const hlo_instr *in) {
  const hlo_gather_dims *g = in->cold->ext->gather;
  if (!g || in->n_operands != 2) return false;
  const hlo_shape *x = in->operands[0]->shape, *is = in->operands[1]->shape, *os = in->shape;
  if (!rank_ok(x) || !rank_ok(is) || !rank_ok(os) || g->slice_sizes.n != x->rank ||
      !ints_ok(&g->collapsed_slice_dims, x->rank, false) ||
      !disjoint(&g->collapsed_slice_dims, &g->operand_batching_dims) ||
      g->offset_dims.n != x->rank - g->collapsed_slice_dims.n - g->operand_batching_dims.n ||
      !index_fits(x, is, g->index_vector_dim, &g->start_index_map, &g->operand_batching_dims,
                  &g->start_indices_batching_dims, os, &g->offset_dims))
    return false;
  for (int i = 0, m = 0; i < x->rank; i++) {
    int64_t sz = g->slice_sizes.v[i];
    if (sz < 0 || sz > x->dims[i]) return false;
    if (!window_dim(&g->collapsed_slice_dims, &g->operand_batching_dims, i)) {
      if (sz != 1) return false;
    } else if (os->dims[g->offset_dims.v[m++]] != sz) {
      return false;
    }
  }
  return true;
}

/* XLA folds an iota of indices without clamping (simplified form only). */
static bool gather_iota_unclamped(const hlo_instr *in) {
  const hlo_gather_dims *g = in->cold->ext->gather;
  const hlo_instr *ind = in->operands[1];
  if (ind->op != HLO_OP_IOTA || ind->shape->rank != 2) return false;
  for (int t = 0; t < g->start_index_map.n; t++) {
    int64_t i = g->start_index_map.v[t], mx = in->operands[0]->shape->dims[i] - g->slice_sizes.v[i];
    int64_t top = ind->cold->ext->iota_dimension == 0 ? ind->shape->dims[0] - 1 : t;
    if (top > mx) return true;
  }
  return false;
}

static bool scatter_fits(const hlo_instr *in) {
  const hlo_scatter_dims *sd = in->cold->ext->scatter;
  int n = in->n_operands / 2;
  if (!sd || in->n_operands % 2 != 1 || n < 1) return false;
  const hlo_shape *x = in->operands[0]->shape, *is = in->operands[n]->shape, *us = in->operands[n + 1]->shape;
  if (!rank_ok(x) || !rank_ok(is) || !rank_ok(us)) return false;
  for (int j = 0; j < n; j++) {
    const hlo_shape *xj = in->operands[j]->shape, *uj = in->operands[n + 1 + j]->shape;
    const hlo_shape *oj = n == 1                                                   ? in->shape
                          : in->shape->type == HLO_TUPLE && j < in->shape->n_elems ? in->shape->elems[j]
                                                                                   : NULL;
    if (!oj || !rank_ok(xj) || !rank_ok(uj) || !rank_ok(oj) || xj->rank != x->rank || oj->rank != x->rank ||
        uj->rank != us->rank)
      return false;
    for (int i = 0; i < x->rank; i++)
      if (xj->dims[i] != x->dims[i] || oj->dims[i] != x->dims[i]) return false;
    for (int i = 0; i < us->rank; i++)
      if (uj->dims[i] != us->dims[i]) return false;
  }
  if (n > 1 && in->shape->n_elems != n) return false;
  if (!ints_ok(&sd->inserted_window_dims, x->rank, false) ||
      !disjoint(&sd->inserted_window_dims, &sd->input_batching_dims) ||
      sd->update_window_dims.n != x->rank - sd->inserted_window_dims.n - sd->input_batching_dims.n ||
      !index_fits(x, is, sd->index_vector_dim, &sd->scatter_dims_to_operand_dims, &sd->input_batching_dims,
                  &sd->scatter_indices_batching_dims, us, &sd->update_window_dims))
    return false;
  for (int i = 0, m = 0; i < x->rank; i++)
    if (window_dim(&sd->inserted_window_dims, &sd->input_batching_dims, i) &&
        us->dims[sd->update_window_dims.v[m++]] > x->dims[i])
      return false;
  return true;
}

static edge edge_gather(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)output_id, (void)depth;
  if (!gather_fits(in)) return (edge){"a gather whose dimension numbers do not fit its shapes", false, false};
  if (compat && k == 0 && gather_iota_unclamped(in))
    return (edge){"a gather of iota indices beyond the clamped range (XLA folds them unclamped)", false, false};
  return (edge){NULL, false, false};
}

static edge edge_scatter(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)output_id, (void)k, (void)depth, (void)compat;
  if (!scatter_fits(in)) return (edge){"a scatter whose dimension numbers do not fit its shapes", false, false};
  return (edge){NULL, false, false};
}

static edge edge_all_gather(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)output_id, (void)k, (void)depth;
  if (in->op != HLO_OP_ALL_GATHER) return (edge){hlo_instr_opcode_text(in), false, false};
  if (in->cold->dimensions.n != 1) return (edge){"an all-gather without one dimension", false, false};
  return (edge){NULL, false, false};
}

/* The reference of each rule family: EDGE says whether and how the maps
 * are compared (NULL: exactly, always), READS what an output element reads;
 * TUPLE_OK: the reference handles tuple-shaped results. A family without
 * READS has no reference. */
typedef void (*reads_fn)(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl);
typedef struct {
  edge (*edge)(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat);
  reads_fn reads;
  bool tuple_ok;
  /* the tuple element of operand K that output OUTPUT_ID reads; NULL or
   * -1: the operand itself */
  int64_t (*part)(const hlo_instr *in, int64_t output_id, int k);
  /* for an op whose output element reads one operand at most: the one
   * that element O reads (-1: none), found without asking each operand
   * (a fused concatenate of N operands asked N per element: N^2); NULL,
   * or -2: ask every operand */
  int (*one)(ref *R, const hlo_instr *in, const int64_t *o);
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

static edge edge_of(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  const hlo_shape *os = elem_shape(in->shape, output_id);
  if (k < 0 || k >= in->n_operands) return (edge){"no such operand", false, false};
  const hlo_shape *xs = read_shape(in, output_id, k);
  const vf_ref *f = &refs[family(in->op)];
  if (in->op != HLO_OP_FUSION && (!rank_ok(os) || !rank_ok(xs)))
    return (edge){"a tuple-shaped or very high-rank value", false, false};
  if (in->shape->type == HLO_TUPLE && !f->tuple_ok) return (edge){"a tuple-shaped op", false, false};
  if (!f->reads) return (edge){hlo_instr_opcode_text(in), false, false};
  return f->edge ? f->edge(in, output_id, k, depth, compat) : (edge){NULL, false, false};
}

/* ---- per-op reads (what output element o of output output_id reads of operand k) ---- */

static void ref_conv(ref *R, const hlo_instr *in, int k, const int64_t *o, emit_fn emit, void *cl) {
  const hlo_conv_dims *cd = in->cold->ext->conv_dims;
  const hlo_shape *xs = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  int sp = cd->n_spatial;
  int64_t b = o[cd->output_batch], f = o[cd->output_feature];
  int64_t gin = ks->dims[cd->kernel_input_feature], fout = os->dims[cd->output_feature];
  int64_t fg = in->cold->ext->feature_group_count > 0 && fout >= in->cold->ext->feature_group_count
                   ? f / (fout / in->cold->ext->feature_group_count)
                   : 0;
  int64_t bg = in->cold->ext->batch_group_count > 0 && fout >= in->cold->ext->batch_group_count
                   ? f / (fout / in->cold->ext->batch_group_count)
                   : 0;
  int64_t w[MAXR], wlo[MAXR], whi[MAXR], idx[MAXR];
  for (int i = 0; i < sp; i++) {
    wlo[i] = 0;
    whi[i] = in->cold->ext->window[i].size - 1;
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
        const hlo_window_dim *wd = &in->cold->ext->window[i];
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
      idx[cd->input_batch] = in->cold->ext->batch_group_count > 1 ? bg * os->dims[cd->output_batch] + b : b;
      emit(cl, idx);
    }
  } while (!R->over && next_point(sp, w, wlo, whi));
}

/* Fusion: the elements of every instruction reachable from the target,
 * propagated from output element o (users before operands). */
static void postorder(const hlo_computation *c, const hlo_instr *root, fctx *f) {
  uint8_t *state = hb_calloc((size_t)c->n_instrs + 1, 1);
  int *next = hb_calloc((size_t)c->n_instrs + 1, sizeof *next);
  const hlo_instr **stack = hb_calloc((size_t)c->n_instrs + 1, sizeof *stack);
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

/* F's per-instruction arrays of the propagation's walk (N instructions). */
static void fctx_alloc_walk(fctx *f, size_t n) {
  f->pos = hb_calloc(n, sizeof *f->pos);
  f->heap = hb_calloc(n, sizeof *f->heap);
  f->reached = hb_calloc(n, sizeof *f->reached);
}

/* The places of F's order. */
static void fctx_places(fctx *f) {
  for (int i = 0; i < f->norder; i++) f->pos[f->order[i]->index] = (uint32_t)i;
}

static fctx *fusion_ctx(ref *R, const hlo_computation *comp, const hlo_instr *target) {
  for (fctx *f = R->fctxs; f; f = f->next)
    if (f->comp == comp && f->target == target) return f;
  fctx *f = hb_calloc(1, sizeof *f);
  int n = comp->n_instrs;
  f->comp = comp;
  f->target = target;
  f->node = hb_calloc((size_t)n + 1, sizeof *f->node);
  f->a = hb_arena_new();
  f->order = hb_calloc((size_t)n + 1, sizeof *f->order);
  fctx_alloc_walk(f, (size_t)n + 1);
  postorder(comp, target, f);
  fctx_places(f);
  f->next = R->fctxs;
  R->fctxs = f;
  return f;
}

static uint8_t *fnode_flags(fctx *f, const hlo_instr *x) {
  size_t n = (size_t)nelems(x->shape) + 1;
  if (n <= FNODE_ARENA_MAX) return hb_arena_zalloc(f->a, n);
  uint8_t *p = hb_calloc(n, 1);
  hb_arena_adopt(f->a, p);
  return p;
}

static void fctx_free(fctx *f) {
  for (int i = 0; i < f->comp->n_instrs; i++)
    if (f->node[i].big) free(f->node[i].big->slot);
  free(f->node);
  hb_arena_free(f->a);
  free(f->order);
  free(f->pos);
  free(f->heap);
  free(f->reached);
  free(f);
}

typedef struct {
  ref *R;
  fctx *f;
  const hlo_instr *target;
} femit;

static void mark(fctx *f, const hlo_instr *x, int64_t l) {
  fnode *nd = &f->node[x->index];
  if (!nd->seen && !nd->big) { /* (only the instructions reached) */
    if (nelems(x->shape) > FNODE_DENSE_MAX) nd->big = hb_arena_zalloc(f->a, sizeof *nd->big);
    else nd->seen = fnode_flags(f, x);
  }
  if (nd->big) {
    if (!numset_add(nd->big, l)) return;
  } else {
    if (nd->seen[l]) return;
    nd->seen[l] = 1;
  }
  if (nd->n == 0) { /* (first reached in this propagation) */
    f->reached[f->nreached++] = (uint32_t)x->index;
    u32_heap_push(f->heap, &f->nheap, f->pos[x->index]);
  }
  if (nd->n == nd->cap) { /* (the copies left behind hold less than the last) */
    if (nd->cap > UINT32_MAX / 2) hb_oom();
    uint32_t cap = nd->cap ? nd->cap * 2 : 2;
    nd->touched = hb_arena_grow(f->a, nd->touched, nd->n, cap, sizeof *nd->touched);
    nd->cap = cap;
  }
  nd->touched[nd->n++] = l;
}

static void fusion_mark(void *cl, const int64_t *idx) {
  femit *e = cl;
  if (!work(e->R, 1)) return;
  mark(e->f, e->target, e->target->shape->rank ? lin(e->target->shape, idx) : 0);
}

/* Whether a world's branch index runs the branch operand K is passed to
 * (a pred selects the true branch when nonzero, an index out of range the
 * last branch). */
static bool world_runs(const ref *R, const hlo_instr *in, int k) {
  bool pred = called(in, HLO_CALL_TRUE_COMPUTATION) && called(in, HLO_CALL_FALSE_COMPUTATION);
  int64_t nb = in->n_operands - 1, v = world_value(R->w, in->operands[0], 0, iv_make(0, pred ? 1 : nb - 1));
  int64_t b = pred ? (v > 0 ? 0 : 1) : v >= 0 && v < nb ? v : nb - 1;
  return b == k - 1;
}

/* Marks the elements of every instruction of F's computation that output
 * element O of F's target reads (users before operands). */
static void propagate(ref *R, fctx *f, const int64_t *o) {
  const hlo_computation *comp = f->comp;
  mark(f, f->target, f->target->shape->rank ? lin(f->target->shape, o) : 0);
  int64_t idx[MAXR];
  while (f->nheap && !R->over) { /* (the order's places reached, largest first) */
    const hlo_instr *x = f->order[u32_heap_pop(f->heap, &f->nheap)];
    if (x->op == HLO_OP_PARAMETER) continue;
    int xi = x->index;
    int (*one)(ref *, const hlo_instr *, const int64_t *) = refs[family(x->op)].one;
    for (size_t t = 0; t < f->node[xi].n && !R->over; t++) {
      delin(x->shape, f->node[xi].touched[t], idx);
      int only = one ? one(R, x, idx) : -2; /* (-2: every operand, -1: none) */
      int j0 = only >= 0 ? only : 0, j1 = only >= 0 ? only + 1 : only == -1 ? 0 : x->n_operands;
      for (int j = j0; j < j1 && !R->over; j++) {
        if (x->operands[j]->parent != comp) continue;
        femit e = {R, f, x->operands[j]};
        ref_reads(R, x, 0, j, idx, fusion_mark, &e);
      }
    }
  }
  f->nheap = 0; /* (what is left when the work ran out) */
}

/* Clears the marks of propagate (the instructions it reached). */
static void unmark(fctx *f) {
  for (uint32_t n = 0; n < f->nreached; n++) {
    fnode *nd = &f->node[f->reached[n]];
    if (nd->big) numset_clear(nd->big);
    else
      for (size_t t = 0; t < nd->n; t++) nd->seen[nd->touched[t]] = 0;
    nd->n = 0;
  }
  f->nreached = f->nheap = 0;
}

static void ref_fusion(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                       void *cl) {
  callee ce;
  if (in->op == HLO_OP_CONDITIONAL && k == 0) { /* the branch index */
    emit(cl, o);
    return;
  }
  if (in->op == HLO_OP_CONDITIONAL && R->w && !world_runs(R, in, k)) return;
  if (!callee_of(in, output_id, k, &ce)) return;
  const hlo_computation *comp = ce.comp;
  fctx *f = fusion_ctx(R, comp, ce.target);
  propagate(R, f, o);
  /* the fusion's operand k: every parameter bound to that instruction
   * (XLA groups the reads by fusion operand, §5.4) */
  int64_t idx[MAXR];
  for (int q = 0; q < comp->n_params && q < ce.nargs; q++) {
    if (ce.args[q] != in->operands[k]) continue;
    const hlo_instr *p = comp->params[q];
    for (size_t t = 0; t < f->node[p->index].n && !R->over; t++) {
      delin(p->shape, f->node[p->index].touched[t], idx);
      emit(cl, idx);
    }
  }
  unmark(f);
}

/* ---- whole-fusion references ---------------------------------------------------------------------------- */

/* The reference of one output of a fusion for all its operands at once:
 * the fused computation is propagated once per output element (ref_fusion
 * does it once per operand too), and the result is kept in the analysis
 * context (c->vf_memo) for the instruction's other entries and blocks, so
 * that a fusion of N operands is propagated once per output, not N times. */
/* Tables per output are sorted arrays, made once the output's walk is done
 * (a fusion of 10,000 outputs has 10,000 of them, most of a key or two; a
 * fusion of 10,000 operands an output of 10,000 keys). */
/* Of fedge bits (sorted with key_sort), by index only. */
static int cmp_index(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a >> 2, y = *(const uint64_t *)b >> 2;
  return (x > y) - (x < y);
}

/* One operand's (output element, operand element) pairs, sorted. */
typedef struct {
  uint32_t k;
  rel r;
} frel;

static int cmp_frel(const void *a, const void *b) {
  uint32_t x = ((const frel *)a)->k, y = ((const frel *)b)->k;
  return (x > y) - (x < y);
}

typedef struct fref {
  int64_t output_id;
  bool has_world;
  world w;
  bool over;    /* the work limit was reached */
  frel *rels;    /* the operands the output reads, by k (malloc'd: a large one is mapped, and only its used pages count) */
  uint32_t nrels, caprels;
  struct fref *next;
} fref;

/* The pairs of operand K (NULL: none). */
static const rel *fref_rel(const fref *f, int k) {
  const frel key = {(uint32_t)k, {0}}, *r = bsearch(&key, f->rels, f->nrels, sizeof *f->rels, cmp_frel);
  return r ? &r->r : NULL;
}

/* Operand K's pairs while F is made (AT: operand -> place + 1 in F's
 * rels, 0: none yet). */
static rel *fref_rel_new(fref *f, uint32_t *at, int k) {
  if (at[k]) return &f->rels[at[k] - 1].r;
  if (f->nrels == f->caprels) {
    f->caprels = f->caprels ? 2 * f->caprels : 1; /* (most outputs read one operand) */
    f->rels = hb_realloc(f->rels, f->caprels * sizeof *f->rels);
  }
  f->rels[f->nrels] = (frel){(uint32_t)k, {0}};
  at[k] = ++f->nrels;
  return &f->rels[f->nrels - 1].r;
}

/* A fusion's paths for one output (fusion_paths_of), and per operand the
 * positions bound to the same instruction (grp_first, then grp_next), so
 * that each entry's edge costs its own parameters, not the computation. */
typedef struct fedge {
  int64_t output_id;
  bool compat;
  edge fail;   /* fail.no_ref: no reference for this output */
  uint64_t *bits; /* per parameter reached: its index << 2 | 1 (covering) | 2 (clip), sorted */
  uint32_t nbits;
  struct fedge *next;
} fedge;

/* The instruction's memo: its references and paths per output, the
 * positions of each operand's instruction (grp_first, then grp_next), and
 * one propagation state of the fused computation that every output reuses
 * (walk, retargeted: a fusion of thousands of outputs each reaching a few
 * instructions costs what they reach, not the computation per output). */
struct vf_memo {
  const hlo_instr *in;
  fref *refs;
  fedge *edges;
  hb_ptrmap ref_at, edge_at; /* refs and edges by key (memo_key): an instruction of thousands of outputs has as many */
  int *grp_first, *grp_next;
  uint32_t *at; /* while a ref is made: operand -> its place + 1 in the ref's rels (0 between refs) */
  fctx *walk;
  uint32_t gen, *stamp; /* stamp[i] == gen: instruction i reached from the current target */
  int *next;
  const hlo_instr **stack;
  uint8_t *cov, *clip;
  hb_arena *a; /* the refs, edges and their tables (a record per output of thousands: no malloc each) */
  /* the refs without a world and the edges per semantics, by output (the
   * keyed maps hold the others) */
  int64_t nout;
  fref **ref0;
  fedge **edge0[2];
};

/* The slot of output OUT's ref without a world (NULL: none) or edge. */
static fref **ref0_slot(struct vf_memo *m, int64_t out) { return out >= 0 && out < m->nout ? &m->ref0[out] : NULL; }
static fedge **edge0_slot(struct vf_memo *m, int64_t out, bool compat) {
  return out >= 0 && out < m->nout ? &m->edge0[compat][out] : NULL;
}

void vf_memo_free(ii_ctx *c) {
  struct vf_memo *m = c->vf_memo;
  if (!m) return;
  for (fref *f = m->refs, *next; f; f = next) {
    next = f->next;
    for (uint32_t i = 0; i < f->nrels; i++) rel_free(&f->rels[i].r);
    free(f->rels);
  }
  free(m->at);
  hb_ptrmap_free(&m->ref_at);
  hb_ptrmap_free(&m->edge_at);
  if (m->walk) fctx_free(m->walk);
  free(m->grp_first);
  free(m->grp_next);
  free(m->stamp);
  free(m->next);
  free(m->stack);
  free(m->cov);
  free(m->clip);
  hb_arena_free(m->a);
  free(m);
  c->vf_memo = NULL;
}

/* The shared propagation state of COMP, pointed at TARGET: its order is the
 * post-order of the instructions TARGET reaches (found with generation
 * stamps, nothing cleared per target), their cov / clip zeroed. */
static fctx *retarget(struct vf_memo *m, const hlo_computation *comp, const hlo_instr *target) {
  size_t n = (size_t)comp->n_instrs + 1;
  if (!m->walk) {
    fctx *f = m->walk = hb_calloc(1, sizeof *f);
    f->comp = comp;
    f->node = hb_calloc(n, sizeof *f->node);
    f->a = hb_arena_new();
    f->order = hb_calloc(n, sizeof *f->order);
    fctx_alloc_walk(f, n);
    m->stamp = hb_calloc(n, sizeof *m->stamp);
    m->next = hb_calloc(n, sizeof *m->next);
    m->stack = hb_calloc(n, sizeof *m->stack);
    m->cov = hb_calloc(n, 1);
    m->clip = hb_calloc(n, 1);
  }
  fctx *f = m->walk;
  f->target = target;
  f->norder = 0;
  uint32_t g = ++m->gen;
  int sp = 0;
  m->stack[sp++] = target;
  m->stamp[target->index] = g, m->next[target->index] = 0, m->cov[target->index] = m->clip[target->index] = 0;
  while (sp) {
    const hlo_instr *x = m->stack[sp - 1];
    if (m->next[x->index] < x->n_operands) {
      const hlo_instr *op = x->operands[m->next[x->index]++];
      if (op->parent == comp && m->stamp[op->index] != g) {
        m->stamp[op->index] = g, m->next[op->index] = 0, m->cov[op->index] = m->clip[op->index] = 0;
        m->stack[sp++] = op;
      }
      continue;
    }
    f->order[f->norder++] = x;
    sp--;
  }
  fctx_places(f);
  return f;
}

/* The memo of IN (a new one when it is about another instruction). */
static struct vf_memo *memo_of(ii_ctx *c, const hlo_instr *in) {
  struct vf_memo *m = c->vf_memo;
  if (m && m->in != in) vf_memo_free(c), m = NULL;
  if (!m) {
    m = c->vf_memo = hb_calloc(1, sizeof *m);
    m->in = in;
    m->a = hb_arena_new();
    m->nout = ii_num_outputs(in);
    m->ref0 = hb_arena_zalloc(m->a, ((size_t)m->nout + 1) * sizeof *m->ref0);
    for (int s = 0; s < 2; s++) m->edge0[s] = hb_arena_zalloc(m->a, ((size_t)m->nout + 1) * sizeof *m->edge0[s]);
    hb_ptrmap_init(&m->ref_at);
    hb_ptrmap_init(&m->edge_at);
  }
  return m;
}

/* A memo key: the output, and a small tag (a world's id + 1, or the
 * semantics), as a pointer-sized integer (never 0). */
static const void *memo_key(int64_t output_id, uint32_t tag) {
  return (const void *)(uintptr_t)(((uint64_t)output_id + 1) << 16 | (tag & 0xffff));
}

/* The paths of one output (fusion_paths_of over the instructions its
 * target reaches, users before operands: one pass), kept per parameter
 * reached. */
static void output_paths(struct vf_memo *m, const callee *ce, bool compat, fedge *f) {
  fctx *w = retarget(m, ce->comp, ce->target);
  uint32_t np = 0;
  for (int n = 0; n < w->norder; n++) np += w->order[n]->op == HLO_OP_PARAMETER;
  f->bits = hb_arena_array(m->a, np ? np : 1, sizeof *f->bits);
  for (int n = w->norder; n-- > 0 && !f->fail.no_ref;) {
    const hlo_instr *x = w->order[n];
    int i = x->index;
    if (x->op == HLO_OP_PARAMETER) {
      f->bits[f->nbits++] = (uint64_t)i << 2 | m->cov[i] | m->clip[i] << 1;
      continue;
    }
    if (!rank_ok(x->shape)) {
      f->fail.no_ref = "a fusion with a tuple-shaped or very high-rank value inside";
      break;
    }
    for (int j = 0; j < x->n_operands; j++) {
      const hlo_instr *op = x->operands[j];
      if (op->parent != ce->comp) continue;
      edge xe = edge_of(x, 0, j, 1, compat);
      if (xe.no_ref) {
        f->fail.no_ref = xe.no_ref;
        break;
      }
      m->cov[op->index] |= (uint8_t)(m->cov[i] | xe.covering | xe.clip);
      m->clip[op->index] |= (uint8_t)(m->clip[i] | xe.clip);
    }
  }
}

/* fusion_edge of a top-level fusion, from the memo: its paths are found
 * once per output, not once per operand. */
/* The positions of each operand's instruction (once per instruction). */
static void memo_groups(struct vf_memo *m, const hlo_instr *in) {
  if (!m->grp_first) {
    int nk = in->n_operands;
    m->grp_first = hb_malloc(((size_t)nk + 1) * sizeof *m->grp_first);
    m->grp_next = hb_malloc(((size_t)nk + 1) * sizeof *m->grp_next);
    hb_ptrmap last;
    hb_ptrmap_init(&last);
    for (int q = 0; q < nk; q++) {
      hb_ptrmap_val *v = hb_ptrmap_get(&last, in->operands[q]);
      m->grp_next[q] = -1;
      if (v) {
        m->grp_first[q] = m->grp_first[v->a];
        m->grp_next[v->a] = q;
        v->a = q;
      } else {
        m->grp_first[q] = q;
        hb_ptrmap_put(&last, in->operands[q], (hb_ptrmap_val){q, 0});
      }
    }
    hb_ptrmap_free(&last);
  }
}

static edge fusion_edge_memo(ii_ctx *c, const hlo_instr *in, int64_t output_id, int k, bool compat) {
  struct vf_memo *m = memo_of(c, in);
  memo_groups(m, in);
  bool found;
  fedge **slot = edge0_slot(m, output_id, compat);
  fedge *f = slot ? *slot : (fedge *)hb_ptrmap_get_ptr(&m->edge_at, memo_key(output_id, compat), &found);
  callee ce;
  bool has = fusion_callee(in, output_id, k, 0, &ce, &(edge){NULL, false, false});
  if (!f) {
    f = hb_arena_zalloc(m->a, sizeof *f);
    f->output_id = output_id;
    f->compat = compat;
    f->next = m->edges;
    m->edges = f;
    if (slot) *slot = f;
    else hb_ptrmap_put_ptr(&m->edge_at, memo_key(output_id, compat), f);
    if (fusion_callee(in, output_id, k, 0, &ce, &f->fail)) output_paths(m, &ce, compat, f);
    key_sort(f->bits, f->nbits);
  }
  edge e = f->fail;
  if (e.no_ref || !has) return e;
  for (int q = m->grp_first[k]; q >= 0; q = m->grp_next[q]) { /* every parameter bound to operand k */
    uint64_t i = (uint64_t)ce.comp->params[q]->index << 2;
    const uint64_t *v = bsearch(&i, f->bits, f->nbits, sizeof *f->bits, cmp_index);
    if (!v) continue;
    e.covering |= (*v & 1) != 0;
    e.clip |= (*v & 2) != 0;
  }
  return e;
}

static bool same_world(const fref *f, const world *w) {
  return w ? f->has_world && f->w.seed == w->seed && f->w.id == w->id : !f->has_world;
}

static const fref *fusion_ref(ref *R, const hlo_instr *in, int64_t output_id) {
  struct vf_memo *m = memo_of(R->c, in);
  const void *key = memo_key(output_id, R->w ? R->w->id + 1 : 0);
  fref **slot = R->w ? NULL : ref0_slot(m, output_id);
  if (slot && *slot) return *slot;
  bool found;
  for (const fref *f = slot ? NULL : hb_ptrmap_get_ptr(&m->ref_at, key, &found); f; f = f->next)
    if (f->output_id == output_id && same_world(f, R->w)) return f;
  fref *f = hb_arena_zalloc(m->a, sizeof *f);
  f->output_id = output_id;
  f->has_world = R->w != NULL;
  if (R->w) f->w = *R->w;
  int nk = in->n_operands;
  f->next = m->refs;
  m->refs = f;
  if (slot) *slot = f;
  else hb_ptrmap_put_ptr(&m->ref_at, key, f);
  callee ce;
  if (!callee_of(in, output_id, 0, &ce) || ce.comp->n_params != ce.nargs) return f;
  memo_groups(m, in); /* the operands bound to each parameter (fusion(p, p) reads p twice) */
  if (!m->at) m->at = hb_calloc((size_t)nk + 1, sizeof *m->at);
  /* the work of every entry of this output, as each one took it alone */
  ref B = {0, R->max_work * (uint64_t)(nk ? nk : 1), false, R->fctxs, R->w, R->c};
  fctx *fc = retarget(m, ce.comp, ce.target);
  const hlo_shape *os = ce.target->shape;
  int64_t o[MAXR], lo[MAXR], hi[MAXR], idx[MAXR];
  for (int i = 0; i < os->rank; i++) lo[i] = 0, hi[i] = os->dims[i] - 1;
  if (first_point(os->rank, o, lo, hi))
    do {
      int64_t l = os->rank ? lin(os, o) : 0;
      propagate(&B, fc, o);
      /* the parameters reached, in the order's sequence (the heap is
       * empty now: their places go there) */
      uint32_t np = 0;
      for (uint32_t n = 0; n < fc->nreached; n++)
        if (ce.comp->instrs[fc->reached[n]]->op == HLO_OP_PARAMETER) fc->heap[np++] = fc->pos[fc->reached[n]];
      qsort(fc->heap, np, sizeof *fc->heap, ii_cmp_u32);
      for (uint32_t n = 0; n < np && !B.over; n++) {
        const hlo_instr *p = fc->order[fc->heap[n]];
        int q = (int)p->parameter_number;
        if (q < 0 || q >= nk || ce.comp->params[q] != p) continue;
        for (int k = m->grp_first[q]; k >= 0 && !B.over; k = m->grp_next[k]) {
          rel *r = fref_rel_new(f, m->at, k);
          for (size_t t = 0; t < fc->node[p->index].n && work(&B, 1); t++) {
            delin(p->shape, fc->node[p->index].touched[t], idx);
            rel_add(r, l, p->shape->rank ? lin(p->shape, idx) : 0);
          }
        }
      }
      unmark(fc);
    } while (!B.over && next_point(os->rank, o, lo, hi));
  R->fctxs = B.fctxs; /* (freed with R's) */
  for (uint32_t i = 0; i < f->nrels; i++) {
    rel_norm(&f->rels[i].r);
    m->at[f->rels[i].k] = 0; /* (clean for the next output) */
  }
  qsort(f->rels, f->nrels, sizeof *f->rels, cmp_frel);
  if (f->nrels < f->caprels) f->rels = hb_realloc(f->rels, (f->nrels ? f->nrels : 1) * sizeof *f->rels);
  f->over = B.over;
  return f;
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
  for (int j = 0; j < r; j++) idx[j] = o[in->cold->dimensions.v[j]];
  emit(cl, idx);
}

static void reads_transpose(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                            void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[in->cold->dimensions.v[i]] = o[i];
  emit(cl, idx);
}

static void reads_reverse(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[i] = in_ints(&in->cold->dimensions, i) ? xs->dims[i] - 1 - o[i] : o[i];
  emit(cl, idx);
}

static void reads_slice(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                        void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  for (int i = 0; i < r; i++) idx[i] = in->cold->ext->slice[i].start + o[i] * in->cold->ext->slice[i].stride;
  emit(cl, idx);
}

/* The offset of a concatenate's operand K along its dimension: the
 * analysis's memo (one sum per instruction, not one per point). */
static int64_t concat_offset(ref *R, const hlo_instr *in, int k) {
  uint32_t cd;
  const int64_t *offs = R->c ? ii_concat_offsets(R->c, in, &cd, NULL) : NULL;
  if (offs) return offs[k];
  int64_t c = in->cold->dimensions.v[0], off = 0;
  for (int j = 0; j < k; j++) off += in->operands[j]->shape->dims[c];
  return off;
}

static void reads_concat(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  int64_t c = in->cold->dimensions.v[0], off = concat_offset(R, in, k);
  if (o[c] < off || o[c] >= off + xs->dims[c]) return;
  for (int i = 0; i < r; i++) idx[i] = o[i];
  idx[c] -= off;
  emit(cl, idx);
}

/* The operand whose offsets hold O's position on the concatenated
 * dimension (a binary search in the analysis's memo). */
static int one_concat(ref *R, const hlo_instr *in, const int64_t *o) {
  uint32_t cd;
  const int64_t *off = R->c ? ii_concat_offsets(R->c, in, &cd, NULL) : NULL;
  if (!off) return -2;
  int64_t v = o[cd];
  int lo = 0, hi = in->n_operands; /* the first operand that ends past v */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (off[mid + 1] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo < in->n_operands && v >= 0 ? lo : -1;
}

static void reads_pad(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                      void *cl) {
  (void)R, (void)output_id;
  int64_t idx[MAXR] = {0};
  const hlo_shape *x = in->operands[0]->shape;
  bool padding = false;
  for (int i = 0; i < x->rank; i++) {
    const hlo_pad_dim *p = &in->cold->ext->padding[i];
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

/* The second half of a reduce's or reduce-window's operands are init
 * values: every output reads the scalar. True when K is one of them. */
static bool reads_init_value(const hlo_instr *in, int k, emit_fn emit, void *cl) {
  if (k < in->n_operands / 2) return false;
  int64_t idx[MAXR] = {0};
  emit(cl, idx);
  return true;
}

static void reads_reduce(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                         void *cl) {
  if (!ii_reduce_reads(R->c, in, output_id, k)) return; /* (the reducer's dataflow: op_reduce.c) */
  if (reads_init_value(in, k, emit, cl)) return;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t v[MAXR], lo[MAXR], hi[MAXR];
  int r = xs->rank;
  int oi = 0;
  for (int i = 0; i < r; i++) {
    bool red = in_ints(&in->cold->dimensions, i);
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
  if (!ii_reduce_reads(R->c, in, output_id, k)) return;
  if (reads_init_value(in, k, emit, cl)) return;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0}, v[MAXR], lo[MAXR], hi[MAXR];
  int r = xs->rank;
  for (int i = 0; i < r; i++) {
    lo[i] = 0;
    hi[i] = in->cold->ext->window[i].size - 1;
  }
  if (!first_point(r, v, lo, hi)) return;
  do {
    bool ok = true;
    for (int i = 0; i < r && ok; i++) {
      const hlo_window_dim *w = &in->cold->ext->window[i];
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
  const hlo_dot_dims *dd = in->cold->ext->dot;
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
  for (int i = 0; i < r; i++) index_values(R, in->operands[i + 1], 0, xs->dims[i] - os->dims[i], true, &lo[i], &hi[i]);
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
  for (int i = 0; i < ro; i++) index_values(R, in->operands[i + 2], 0, os->dims[i] - u->dims[i], true, &lo[i], &hi[i]);
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
  const hlo_gather_dims *g = in->cold->ext->gather;
  const hlo_instr *ind = in->operands[1];
  const hlo_shape *x = in->operands[0]->shape, *is = ind->shape, *os = in->shape;
  int ri = is->rank;
  int64_t ivd = g->index_vector_dim, ncomp = ivd < ri ? is->dims[ivd] : 1;
  int64_t pos[MAXR], base[MAXR], lo[MAXR], hi[MAXR], v[MAXR], idx[MAXR];
  for (int d = 0, b = 0; d < os->rank; d++)
    if (!in_ints(&g->offset_dims, d)) pos[batch_dim(b++, ivd)] = o[d];
  if (k == 1) { /* the whole index vector */
    for (int64_t t = 0; t < ncomp && work(R, 1); t++) {
      if (ivd < ri) pos[ivd] = t;
      emit(cl, pos);
    }
    return;
  }
  for (int i = 0, m = 0; i < x->rank; i++) {
    lo[i] = hi[i] = 0;
    base[i] = window_dim(&g->collapsed_slice_dims, &g->operand_batching_dims, i) ? o[g->offset_dims.v[m++]] : 0;
  }
  for (int q = 0; q < g->operand_batching_dims.n; q++)
    base[g->operand_batching_dims.v[q]] = pos[g->start_indices_batching_dims.v[q]];
  for (int t = 0; t < g->start_index_map.n; t++) {
    int64_t i = g->start_index_map.v[t];
    if (ivd < ri) pos[ivd] = t;
    index_values(R, ind, ri ? lin(is, pos) : 0, x->dims[i] - g->slice_sizes.v[i], true, &lo[i], &hi[i]);
  }
  if (!first_point(x->rank, v, lo, hi)) return;
  do {
    for (int i = 0; i < x->rank; i++) idx[i] = base[i] + v[i];
    emit(cl, idx);
  } while (work(R, 1) && next_point(x->rank, v, lo, hi));
}

/* Output element o of a scatter (of any of its outputs: the combiner may
 * mix them) reads every operand at o, every element of the indices (any
 * of them may move a window onto o or away from it), and each update
 * element whose window lands on o (a window out of range is dropped). */
static void reads_scatter(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                          void *cl) {
  (void)output_id;
  const hlo_scatter_dims *sd = in->cold->ext->scatter;
  int n = in->n_operands / 2;
  if (k < n) {
    emit(cl, o);
    return;
  }
  const hlo_instr *ind = in->operands[n];
  const hlo_shape *is = ind->shape, *x = in->operands[0]->shape, *us = in->operands[n + 1]->shape;
  int64_t idx[MAXR], pos[MAXR], p[MAXR], plo[MAXR], phi[MAXR], lo[MAXR], hi[MAXR], v[MAXR], wsize[MAXR], wdim[MAXR];
  if (k == n) {
    for (int64_t l = 0, ne = nelems(is); l < ne && work(R, 1); l++) {
      delin(is, l, idx);
      emit(cl, idx);
    }
    return;
  }
  int ri = is->rank, ns = 0;
  int64_t ivd = sd->index_vector_dim;
  for (int i = 0, m = 0; i < x->rank; i++) {
    bool w = window_dim(&sd->inserted_window_dims, &sd->input_batching_dims, i);
    wdim[i] = w ? sd->update_window_dims.v[m++] : -1;
    wsize[i] = w ? us->dims[wdim[i]] : 1;
  }
  for (int d = 0; d < us->rank; d++)
    if (!in_ints(&sd->update_window_dims, d)) plo[ns] = 0, phi[ns++] = us->dims[d] - 1;
  if (!first_point(ns, p, plo, phi)) return;
  do {
    for (int b = 0; b < ns; b++) pos[batch_dim(b, ivd)] = p[b];
    for (int i = 0; i < x->rank; i++) lo[i] = hi[i] = 0;
    for (int q = 0; q < sd->input_batching_dims.n; q++) {
      int64_t i = sd->input_batching_dims.v[q];
      lo[i] = hi[i] = pos[sd->scatter_indices_batching_dims.v[q]];
    }
    for (int t = 0; t < sd->scatter_dims_to_operand_dims.n; t++) {
      int64_t i = sd->scatter_dims_to_operand_dims.v[t];
      if (ivd < ri) pos[ivd] = t;
      index_values(R, ind, ri ? lin(is, pos) : 0, x->dims[i] - wsize[i], false, &lo[i], &hi[i]);
    }
    /* the starts that put o inside the window */
    bool any = true;
    for (int i = 0; i < x->rank && any; i++) {
      if (lo[i] < o[i] - wsize[i] + 1) lo[i] = o[i] - wsize[i] + 1;
      if (hi[i] > o[i]) hi[i] = o[i];
      any = lo[i] <= hi[i] && lo[i] >= 0 && hi[i] <= x->dims[i] - wsize[i];
    }
    if (!any || !first_point(x->rank, v, lo, hi)) continue;
    do {
      for (int d = 0, b = 0; d < us->rank; d++)
        if (!in_ints(&sd->update_window_dims, d)) idx[d] = p[b++];
      for (int i = 0; i < x->rank; i++)
        if (wdim[i] >= 0) idx[wdim[i]] = o[i] - v[i];
      emit(cl, idx);
    } while (work(R, 1) && next_point(x->rank, v, lo, hi));
  } while (work(R, 1) && next_point(ns, p, plo, phi));
}

static void reads_all_gather(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                             void *cl) {
  (void)R, (void)output_id;
  const hlo_shape *xs = in->operands[k]->shape;
  int64_t idx[MAXR] = {0};
  int r = xs->rank;
  int64_t gd = in->cold->dimensions.v[0];
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
  return in->operands[k]->shape->type == HLO_TUPLE ? in->cold->tuple_index : -1;
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
  int64_t g = in->cold->dimensions.v[0];
  emit_along(o, xs->rank, g, o[g] % xs->dims[g], emit, cl);
}

static void reads_rscatter(ref *R, const hlo_instr *in, int64_t output_id, int k, const int64_t *o, emit_fn emit,
                           void *cl) {
  const hlo_shape *xs = in->operands[k]->shape, *os = elem_shape(in->shape, output_id);
  if (k != output_id) return;
  int64_t g = in->cold->dimensions.v[0], m = os->dims[g];
  for (int64_t s = 0; s < xs->dims[g] / m && work(R, 1); s++) emit_along(o, xs->rank, g, o[g] + s * m, emit, cl);
}

static int64_t group_of(const hlo_instr *in) {
  const hlo_replica_groups *g = in->cold->ext->replica_groups;
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
  if (!in->cold->has_dimensions) { /* tuple form: any operand, element for element */
    emit(cl, o);
    return;
  }
  if (k != output_id) return;
  int64_t g = in->cold->dimensions.v[0], n = xs->dims[g], groups = group_of(in);
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

static edge edge_collective(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)output_id, (void)k, (void)depth;
  if (in->op == HLO_OP_ALL_TO_ALL && !in->cold->has_dimensions) return (edge){NULL, false, false};
  if (in->op != HLO_OP_RAGGED_ALL_TO_ALL && in->cold->dimensions.n != 1)
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
    read[in->cold->dimensions.v[0]] = true;
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

static edge edge_rows(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)output_id, (void)k, (void)depth;
  int64_t len[8];
  if (in->op == HLO_OP_SORT && in->cold->dimensions.n != 1) return (edge){"a sort without one dimension", false, false};
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
  mset *dep = hb_calloc((size_t)(n * n), sizeof *dep);
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
  uint64_t *bdep = hb_calloc((size_t)n, sizeof *bdep);
  mset *tdep = hb_calloc((size_t)n, sizeof *tdep);
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

static edge edge_linalg(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)output_id, (void)k, (void)depth;
  const hlo_shape *a = in->operands[0]->shape;
  if (a->rank < 2 || a->dims[a->rank - 1] > MAXM) return (edge){"a matrix larger than 32 x 32", false, false};
  return (edge){NULL, false, false};
}

/* ---- custom-calls (op_custom.c) ---- */

static bool target_is(const hlo_instr *in, const char *t) {
  return in->cold->ext->custom_call_target && strcmp(in->cold->ext->custom_call_target, t) == 0;
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
    hlo_instr_ext ext = *in->cold->ext;
    ext.dot = &dd;
    hlo_instr_cold wc = *in->cold;
    wc.ext = &ext;
    w.cold = &wc;
    reads_dot(R, &w, 0, k, o, emit, cl);
    return;
  }
  if (target_is(in, "__cudnn$convForward") || target_is(in, "__cudnn$convBiasActivationForward")) {
    if (output_id != 0) return; /* the scratch buffer */
    if (k < 2) ref_conv(R, &w, k, o, emit, cl);
    else if (k == 2) emit(cl, &o[in->cold->ext->conv_dims->output_feature]); /* the bias */
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

static edge edge_custom(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  (void)compat;
  (void)output_id, (void)k, (void)depth;
  static const char *const known[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "__cublas$gemm",
                                      "__cublas$lt$matmul", "__cudnn$convForward", "__cudnn$convBiasActivationForward"};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (target_is(in, known[i])) {
      if (i >= 5 && (!in->cold->ext->conv_dims || in->cold->ext->conv_dims->n_spatial > MAXR))
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
    same = e->op == HLO_OP_GET_TUPLE_ELEMENT && e->operands[0] == body->params[0] && e->cold->tuple_index == output_id;
  }
  if (same) emit(cl, o);
  /* otherwise the maps are unknown and never compared */
}

/* async-start: output 0 holds the operands (no array to compare), output 1
 * the wrapped computation's result (fusion_edge / ref_fusion), or the
 * wrapped op's when the start carries it; the context reads nothing. */
static hlo_instr wrapped_op(const hlo_instr *in) {
  hlo_instr w = *in;
  w.op = in->cold->async_wrapped;
  w.shape = elem_shape(in->shape, 1);
  return w;
}

static edge edge_async(const hlo_instr *in, int64_t output_id, int k, int depth, bool compat) {
  if (output_id != 1) return (edge){NULL, false, false}; /* the context: reads nothing */
  if (called(in, HLO_CALL_CALLS)) return fusion_edge(in, output_id, k, depth, compat);
  hlo_instr w = wrapped_op(in);
  return edge_of(&w, 0, k, depth + 1, compat);
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
    vhi[i] = in->cold->ext->window[i].size - 1;
  }
  if (!first_point(r, w, wlo, whi)) return;
  do {
    bool holds = true;
    for (int i = 0; holds && i < r; i++) {
      holds = false;
      for (int64_t t = 0; t <= vhi[i] && !holds; t++)
        holds = window_pos(&in->cold->ext->window[i], w[i], t, x->dims[i]) == o[i];
    }
    if (!holds) continue;
    if (k == 1) {
      emit(cl, w);
      continue;
    }
    if (!first_point(r, v, vlo, vhi)) continue;
    do {
      bool ok = true;
      for (int i = 0; ok && i < r; i++)
        ok = (idx[i] = window_pos(&in->cold->ext->window[i], w[i], v[i], x->dims[i])) >= 0;
      if (ok) emit(cl, idx);
    } while (work(R, 1) && next_point(r, v, vlo, vhi));
  } while (work(R, 1) && next_point(r, w, wlo, whi));
}

static const vf_ref refs[II_FAM_COUNT] = {
    [II_FAM_EW] = {edge_ew, reads_ew, false, NULL, NULL},
    [II_FAM_BCAST] = {NULL, reads_broadcast, false, NULL, NULL},
    [II_FAM_TRANSP] = {NULL, reads_transpose, false, NULL, NULL},
    [II_FAM_REVERSE] = {NULL, reads_reverse, false, NULL, NULL},
    [II_FAM_SLICE] = {NULL, reads_slice, false, NULL, NULL},
    [II_FAM_CONCAT] = {NULL, reads_concat, false, NULL, one_concat},
    [II_FAM_PAD] = {edge_pad, reads_pad, false, NULL, NULL},
    [II_FAM_RESHAPE] = {NULL, reads_reshape, false, NULL, NULL},
    [II_FAM_BITCAST] = {edge_bitcast, reads_bitcast, false, NULL, NULL},
    [II_FAM_REDUCE] = {NULL, reads_reduce, true, NULL, NULL},
    [II_FAM_RWIN] = {NULL, reads_reduce_window, true, NULL, NULL},
    [II_FAM_DOT] = {NULL, reads_dot, false, NULL, NULL},
    [II_FAM_SDOT] = {NULL, reads_dot, false, NULL, NULL},
    [II_FAM_CONV] = {edge_conv, reads_conv, false, NULL, NULL},
    [II_FAM_DS] = {edge_dynamic, reads_dynamic_slice, false, NULL, NULL},
    [II_FAM_DUS] = {edge_dynamic, reads_dus, false, NULL, NULL},
    [II_FAM_GATHER] = {edge_gather, reads_gather, false, NULL, NULL},
    [II_FAM_SCATTER] = {edge_scatter, reads_scatter, true, NULL, NULL},
    [II_FAM_BCONV] = {edge_bconv, reads_bconv, false, NULL, NULL},
    [II_FAM_AGATHER] = {edge_all_gather, reads_all_gather, false, NULL, NULL},
    [II_FAM_FUSION] = {fusion_edge, ref_fusion, true, NULL, NULL},
    [II_FAM_GTE] = {NULL, reads_whole, false, part_gte, NULL},
    [II_FAM_TUPLE] = {NULL, reads_paired, true, NULL, NULL},
    [II_FAM_PAIRED] = {NULL, reads_paired, true, NULL, NULL},
    [II_FAM_ELEM] = {NULL, reads_whole, true, part_elem, NULL},
    [II_FAM_FIRST] = {NULL, reads_first, true, NULL, NULL},
    [II_FAM_START] = {NULL, reads_start, true, NULL, NULL},
    [II_FAM_DONE0] = {NULL, reads_done, true, part_done0, NULL},
    [II_FAM_DONE1] = {NULL, reads_done, true, part_done1, NULL},
    [II_FAM_NOREAD] = {NULL, reads_nothing, true, NULL, NULL},
    [II_FAM_ALLGATHER] = {edge_collective, reads_allgather, true, NULL, NULL},
    [II_FAM_RSCATTER] = {edge_collective, reads_rscatter, true, NULL, NULL},
    [II_FAM_ALLTOALL] = {edge_collective, reads_alltoall, true, NULL, NULL},
    [II_FAM_RAGGED] = {edge_collective, reads_ragged, false, NULL, NULL},
    [II_FAM_SORT] = {edge_rows, reads_rows, true, NULL, NULL},
    [II_FAM_TOPK] = {edge_rows, reads_rows, true, NULL, NULL},
    [II_FAM_FFT] = {edge_rows, reads_rows, false, NULL, NULL},
    [II_FAM_RNGBIT] = {edge_rows, reads_rows, true, NULL, NULL},
    [II_FAM_CHOLESKY] = {edge_linalg, reads_cholesky, false, NULL, NULL},
    [II_FAM_TRISOLVE] = {edge_linalg, reads_trisolve, false, NULL, NULL},
    [II_FAM_CUSTOM] = {edge_custom, reads_custom, true, NULL, NULL},
    [II_FAM_CALL] = {fusion_edge, ref_fusion, true, NULL, NULL},
    [II_FAM_COND] = {fusion_edge, ref_fusion, true, NULL, NULL},
    [II_FAM_WHILE] = {NULL, reads_while, true, part_while, NULL},
    [II_FAM_ASYNC] = {edge_async, reads_async, true, NULL, NULL},
    [II_FAM_SELSCAT] = {NULL, reads_selscat, false, NULL, NULL},
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
/* The output elements whose reads of operand K may be any: the whole
 * output, but for a concatenate (operand K's slab) and the ops whose output
 * n is operand n (none unless K is the output): a concatenate or a tuple of
 * N operands costs one pass over its output, not N. False: none. */
static bool read_box(ref *R, const hlo_instr *in, int64_t output_id, int k, const hlo_shape *os, int64_t *lo,
                     int64_t *hi) {
  for (int i = 0; i < os->rank; i++) lo[i] = 0, hi[i] = os->dims[i] - 1;
  if (refs[family(in->op)].reads == reads_paired) return k == output_id;
  if (family(in->op) == II_FAM_CONCAT) {
    int64_t c = in->cold->dimensions.v[0];
    if (c >= 0 && c < os->rank) {
      lo[c] = concat_offset(R, in, k);
      hi[c] = lo[c] + in->operands[k]->shape->dims[c] - 1;
    }
  }
  return true;
}

static bool reference(ref *R, const hlo_instr *in, int64_t output_id, int k, bool swap, rel *out) {
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = read_shape(in, output_id, k);
  if (in->op == HLO_OP_FUSION && R->c) {
    const fref *f = fusion_ref(R, in, output_id);
    if (f->over) R->over = true;
    static const rel none;
    const rel *s = fref_rel(f, k);
    if (!s) s = &none;
    for (size_t i = 0; i < s->n && !R->over && work(R, 1); i++) {
      int64_t a = rel_from(s, i), b = rel_to(s, i);
      rel_add(out, swap ? b : a, swap ? a : b);
    }
    rel_norm(out);
    return !R->over;
  }
  int64_t o[MAXR], lo[MAXR], hi[MAXR];
  if (read_box(R, in, output_id, k, os, lo, hi) && first_point(os->rank, o, lo, hi))
    do {
      remit e = {R, out, os->rank ? lin(os, o) : 0, xs, swap};
      ref_reads(R, in, output_id, k, o, rel_emit, &e);
    } while (!R->over && next_point(os->rank, o, lo, hi));
  rel_norm(out);
  return !R->over;
}

/* ---- the maps' relation ---------------------------------------------------------------------------------- */

/* Physical (or tiled) coordinates of a side -> its logical index; NULL
 * when the side is logical. */
static const imap *to_logical(ii_ctx *c, const hlo_shape *s, vf_layout l) {
  if (l == VF_LOGICAL || !is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE) return NULL;
  hb_arena *a = ii_ctx_arena(c);
  ae_ctx *ctx = ii_ctx_ae(c);
  if (l == VF_PHYSICAL) {
    if (s->rank == 0) return NULL;
    uint32_t r = (uint32_t)s->rank;
    uint32_t *inv = hb_arena_array(a, r, sizeof *inv);
    int64_t *pdims = hb_arena_array(a, r, sizeof *pdims);
    for (uint32_t k = 0; k < r; k++) {
      uint32_t d = (uint32_t)s->layout.minor_to_major[r - 1 - k];
      pdims[k] = s->dims[d];
      inv[d] = k;
    }
    return imap_permutation(a, ctx, r, pdims, inv);
  }
  tl_layout *lay = hb_arena_zalloc(a, sizeof *lay);
  tl_error err;
  if (!tl_analyze(a, s, lay, &err)) return NULL;
  return tl_tiled_to_logical(a, ctx, lay, &err);
}

/* The opposite direction: a side's logical index -> its physical (or
 * tiled) coordinates; NULL when the side is logical (as to_logical). */
static const imap *from_logical(ii_ctx *c, const hlo_shape *s, vf_layout l) {
  if (l == VF_LOGICAL || !is_array(s) || s->type == HLO_TOKEN || s->type == HLO_OPAQUE) return NULL;
  hb_arena *a = ii_ctx_arena(c);
  ae_ctx *ctx = ii_ctx_ae(c);
  if (l == VF_PHYSICAL) {
    if (s->rank == 0) return NULL;
    uint32_t r = (uint32_t)s->rank, *perm = hb_arena_array(a, r, sizeof *perm);
    for (uint32_t k = 0; k < r; k++) perm[k] = (uint32_t)s->layout.minor_to_major[r - 1 - k];
    return imap_permutation(a, ctx, r, s->dims, perm);
  }
  tl_layout *lay = hb_arena_zalloc(a, sizeof *lay);
  tl_error err;
  if (!tl_analyze(a, s, lay, &err)) return NULL;
  return tl_logical_to_tiled(a, ctx, lay, &err);
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
  ii_ctx *c;
  const hlo_instr *in;
  int64_t output_id;
  int k;
  bool i2o;
  const ii_set *set;
  const hlo_shape *from, *to;
  const imap *from_conv, *to_conv;
  const imap *from_map; /* logical "from" index -> map coordinates (NULL: the same) */
  bool clip;
  const world *w; /* NULL: runtime variables range over their intervals */
  vf_result *res;
} chk;

__attribute__((format(printf, 2, 3))) static void say(vf_result *res, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->message, sizeof res->message, fmt, ap);
  va_end(ap);
}

static bool fail(vf_result *res, vf_status st, const char *msg) {
  res->status = st;
  say(res, "%s", msg);
  return false;
}

static uint64_t size_of(interval iv) { return iv.hi < iv.lo ? 0 : (uint64_t)iv.hi - (uint64_t)iv.lo + 1; }

/* Product of interval sizes, saturating. */
static uint64_t box_size(const interval *iv, uint32_t n) {
  uint64_t p = 1;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t z = size_of(iv[i]);
    if (z == 0) return 0;
    p = p > UINT64_MAX / z ? UINT64_MAX : p * z;
  }
  return p;
}

/* Symbols enumerated at one point: all of them, or only the range
 * variables when a world computes the runtime ones. */
static uint32_t enumerated(const chk *C, const imap *m) { return C->w ? m->nrange : imap_nsyms(m); }

/* The order in which a world computes the runtime variables of x (a
 * description may read another variable: the consumer's offset). False on
 * a cycle. */
static bool rt_order(const ii_operand *x, uint32_t *order) {
  const imap *m = x->map;
  uint32_t nr = m->nrange, nt = x->nrt, ns = imap_nsyms(m), n = 0;
  bool done[MAXR] = {false}, uses[MAXR];
  while (n < nt) {
    bool progress = false;
    for (uint32_t j = 0; j < nt; j++) {
      if (done[j]) continue;
      const imap *d = x->rt[j].map;
      bool ready = true;
      if (imap_nsyms(d) == ns) {
        memset(uses, 0, sizeof uses);
        for (uint32_t i = 0; i < d->nresults; i++) ae_collect_vars(d->results[i], NULL, 0, uses, ns);
        for (uint32_t q = 0; q < nt; q++) ready &= !uses[nr + q] || done[q];
      }
      if (!ready) continue;
      done[j] = progress = true;
      order[n++] = j;
    }
    if (!progress) return false;
  }
  return true;
}

static bool mentions_rt(const imap *m, const ae *e) {
  bool uses[MAXR] = {false};
  ae_collect_vars(e, NULL, 0, uses, imap_nsyms(m));
  for (uint32_t q = m->nrange; q < imap_nsyms(m); q++)
    if (uses[q]) return true;
  return false;
}

static bool cons_hold(const imap *m, const int64_t *d, const int64_t *s, int only_rt) {
  for (uint32_t k = 0; k < m->ncons; k++) {
    if (only_rt >= 0 && mentions_rt(m, m->cons[k].expr) != (only_rt == 1)) continue;
    int64_t v;
    if (!ae_eval_point(m->cons[k].expr, d, m->ndims, s, imap_nsyms(m), &v) || !iv_contains(m->cons[k].iv, v))
      return false;
  }
  return true;
}

/* A world's runtime values at (d, s): false when a value falls outside its
 * variable's interval (the point is not in the domain) or on a mismatch
 * (*bad set, res filled). */
static bool rt_values(const chk *C, const ii_operand *x, const uint32_t *order, const int64_t *d, int64_t *s,
                      bool *bad) {
  const imap *m = x->map;
  uint32_t nr = m->nrange, ns = imap_nsyms(m);
  for (uint32_t t = 0; t < x->nrt; t++) {
    const ii_rtvar *v = &x->rt[order[t]];
    const imap *dm = v->map;
    const hlo_shape *vs = v->instr->shape;
    int64_t e[MAXR];
    bool ok = is_array(vs) && vs->rank <= MAXR && dm->nresults == (uint32_t)vs->rank;
    for (uint32_t i = 0; ok && i < dm->nresults; i++)
      ok = ae_eval_point(dm->results[i], d, dm->ndims, s, imap_nsyms(dm) == ns ? ns : 0, &e[i]);
    if (!ok || !in_bounds(vs, e)) {
      *bad = true;
      C->res->status = VF_MISMATCH;
      say(C->res, "the description of rt%u reads outside '%s'", order[t], v->instr->name);
      return false;
    }
    int64_t val = world_value(C->w, v->instr, vs->rank ? lin(vs, e) : 0, v->clamp);
    if (v->clamped) val = clamp64(val, v->clamp.lo, v->clamp.hi);
    if (!iv_contains(m->sym_iv[nr + order[t]], val)) return false;
    s[nr + order[t]] = val;
  }
  return true;
}

/* Adds the pairs of member x at point d of its dims (map coordinates).
 * False with res filled on a mismatch or a skip. */
static bool pairs_at(const chk *C, const ii_operand *x, const int64_t *d, rel *out) {
  const imap *m = x->map;
  if (m->known_empty) return true;
  uint32_t nd = m->ndims, ns = imap_nsyms(m), ne = enumerated(C, m);
  for (uint32_t i = 0; i < nd; i++)
    if (!iv_contains(m->dim_iv[i], d[i])) return true;
  uint32_t order[MAXR];
  if (C->w && x->nrt && (x->nrt != m->nrt || !rt_order(x, order)))
    return fail(C->res, VF_SKIP_NO_REFERENCE, "no reference for runtime variables whose descriptions read each other");
  int64_t lf[MAXR], s[MAXR], slo[MAXR], shi[MAXR], r[MAXR], lt[MAXR];
  bool from_ok = C->from_conv ? convert(C->from_conv, d, lf) : true;
  if (!C->from_conv) memcpy(lf, d, nd * sizeof *d);
  for (uint32_t j = 0; j < ne; j++) slo[j] = m->sym_iv[j].lo, shi[j] = m->sym_iv[j].hi;
  if (!first_point((int)ne, s, slo, shi)) return true;
  char a[160];
  do {
    bool bad = false;
    if (!C->w) C->res->points++;
    if (C->w) {
      if (!cons_hold(m, d, s, 0)) continue;
      if (!rt_values(C, x, order, d, s, &bad)) {
        if (bad) return false;
        continue;
      }
      if (!cons_hold(m, d, s, 1)) continue;
    } else if (!cons_hold(m, d, s, -1)) {
      continue;
    }
    if (!from_ok || !in_bounds(C->from, lf))
      return fail(C->res, VF_MISMATCH,
                  "the map's domain holds a point that is not an element of the indexed-from tensor");
    for (uint32_t i = 0; i < m->nresults; i++)
      if (!ae_eval_point(m->results[i], d, nd, s, ns, &r[i]))
        return fail(C->res, VF_MISMATCH, "a result does not evaluate (overflow)");
    bool to_ok = C->to_conv ? convert(C->to_conv, r, lt) : true;
    if (!C->to_conv) memcpy(lt, r, m->nresults * sizeof *r);
    int64_t fl = lin(C->from, lf);
    if (to_ok && in_bounds(C->to, lt)) {
      rel_add(out, fl, lin(C->to, lt));
    } else if (!C->clip) {
      put_index(a, sizeof a, C->from, fl);
      C->res->status = VF_MISMATCH;
      say(C->res, "the map indexes outside the tensor: element %s -> a position that is not an element", a);
      return false;
    }
  } while (next_point((int)ne, s, slo, shi));
  return true;
}

/* Ranks and variable counts the enumeration handles. */
static bool member_ok(const chk *C, const imap *m) {
  uint32_t from_rank = C->from_conv ? C->from_conv->ndims : (uint32_t)C->from->rank;
  uint32_t to_rank = C->to_conv ? C->to_conv->ndims : (uint32_t)C->to->rank;
  if (m->ndims != from_rank || m->nresults != to_rank) {
    C->res->status = VF_MISMATCH;
    say(C->res, "the map goes from %u to %u coordinates, the tensors have %u and %u", m->ndims, m->nresults, from_rank,
        to_rank);
    return false;
  }
  if (m->ndims > MAXR || imap_nsyms(m) > MAXR) return fail(C->res, VF_SKIP_TOO_LARGE, "more than 16 variables");
  return true;
}

/* Every pair of member x: all points of its dims. */
static bool pairs_all(const chk *C, const ii_operand *x, rel *out) {
  const imap *m = x->map;
  int64_t d[MAXR], lo[MAXR], hi[MAXR];
  for (uint32_t i = 0; i < m->ndims; i++) lo[i] = m->dim_iv[i].lo, hi[i] = m->dim_iv[i].hi;
  if (m->known_empty || !first_point((int)m->ndims, d, lo, hi)) return true;
  do
    if (!pairs_at(C, x, d, out)) return false;
  while (next_point((int)m->ndims, d, lo, hi));
  return true;
}

/* ---- the check ------------------------------------------------------------------------------------------- */

/* The points checked: every point of every member's domain (n == 0), or
 * the given points of the "from" side, in map coordinates. */
typedef struct {
  uint32_t n, rank, cap;
  int64_t *pt;      /* n * rank (in2out: unused, the points are drawn per world) */
  int64_t *lg;      /* n: each point's logical element number, or -1 (a padding position) */
  int64_t *logical; /* the numbers of the elements among them, sorted */
  uint32_t nlogical;
} points;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static void sorted_logical(points *P) {
  P->nlogical = 0;
  for (uint32_t t = 0; t < P->n; t++)
    if (P->lg[t] >= 0) P->logical[P->nlogical++] = P->lg[t];
  qsort(P->logical, P->nlogical, sizeof *P->logical, cmp_i64);
}

/* The reads of output element ol, as (operand, output) pairs. */
static void reads_of(ref *R, const chk *C, int64_t ol, rel *r) {
  int64_t o[MAXR];
  delin(C->to, ol, o);
  remit e = {R, r, ol, C->from, true};
  ref_reads(R, C->in, C->output_id, C->k, o, rel_emit, &e);
}

/* Keeps the pairs of r whose "from" element is in the sorted list. */
static void rel_keep_from(rel *r, const int64_t *from, uint32_t n) {
  size_t w = 0;
  for (size_t i = 0; i < r->n; i++) {
    int64_t f = rel_from(r, i);
    if (bsearch(&f, from, n, sizeof *from, cmp_i64)) rel_put(r, w++, f, rel_to(r, i));
  }
  rel_truncate(r, w);
}

/* Sampled in2out: output elements drawn from the seed and the operand
 * elements they read (a pair the maps miss shows there; half the budget),
 * as many operand elements drawn at random, the maps at those operand
 * elements, and the reference of VF_OUTPUTS of the output elements the
 * maps name for each (a pair the op does not read shows there). Candidates
 * after the one that exhausts the reference's budget are dropped. */
static bool sampled_i2o(chk *C, ref *R, points *P, rel *got, rel *want) {
  int64_t nx = nelems(C->from), no = nelems(C->to), x[MAXR], d[MAXR];
  uint64_t seed = C->res->seed;
  uint32_t half = P->cap > 1 ? P->cap / 2 : 1, n = 0;
  if (nx == 0 || no == 0) return true;
  numset cand = {0}, outs = {0};
  R->max_work = VF_SAMPLE_WORK / 2; /* the other half for the outputs the maps name */
  for (uint32_t t = 0; t < half; t++) {
    size_t before = want->n;
    int64_t ol = (int64_t)(mix64(seed ^ mix64(2 * (uint64_t)t)) % (uint64_t)no);
    reads_of(R, C, ol, want);
    if (R->over) {
      rel_truncate(want, before);
      R->over = t == 0;
      break;
    }
    numset_add(&outs, ol);
  }
  R->max_work = VF_SAMPLE_WORK;
  if (R->over) {
    free(outs.slot);
    return true;
  }
  rel_norm(want);
  for (size_t i = 0; i < want->n && n < half; i++)
    if (numset_add(&cand, rel_from(want, i))) P->lg[n++] = rel_from(want, i);
  for (uint32_t t = 0; n < P->cap && t < 4 * P->cap; t++) {
    int64_t v = (int64_t)(mix64(seed ^ mix64(2 * (uint64_t)t + 1)) % (uint64_t)nx);
    if (numset_add(&cand, v)) P->lg[n++] = v;
  }
  bool ok = true;
  uint32_t done = 0;
  for (; done < n && ok; done++) {
    delin(C->from, P->lg[done], x);
    if (C->from_map && !convert(C->from_map, x, d)) continue;
    if (!C->from_map) memcpy(d, x, (size_t)C->from->rank * sizeof *d);
    size_t g0 = got->n, w0 = want->n;
    for (uint32_t i = 0; i < C->set->n && ok; i++) ok = pairs_at(C, C->set->items[i], d, got);
    /* the reference of VF_OUTPUTS outputs the maps name, drawn at random */
    size_t ng = got->n - g0;
    int64_t fresh[VF_OUTPUTS];
    uint32_t nf = 0;
    for (uint32_t j = 0; j < VF_OUTPUTS && ng && ok && !R->over; j++) {
      int64_t ol = rel_to(got, g0 + mix64(seed ^ mix64((uint64_t)P->lg[done] * 977 + j)) % ng);
      bool seen = numset_has(&outs, ol);
      for (uint32_t q = 0; q < nf && !seen; q++) seen = fresh[q] == ol;
      if (seen) continue;
      fresh[nf++] = ol;
      reads_of(R, C, ol, want);
    }
    for (uint32_t q = 0; q < nf && !R->over; q++) numset_add(&outs, fresh[q]);
    if (R->over) { /* this candidate's outputs are not all checked: dropped */
      rel_truncate(got, g0), rel_truncate(want, w0);
      R->over = done == 0;
      break;
    }
  }
  /* only the pairs into outputs whose reference was taken are compared */
  size_t w = 0;
  for (size_t i = 0; i < got->n; i++)
    if (numset_has(&outs, rel_to(got, i))) rel_put(got, w++, rel_from(got, i), rel_to(got, i));
  rel_truncate(got, w);
  free(cand.slot);
  free(outs.slot);
  P->n = done;
  memcpy(P->logical, P->lg, done * sizeof *P->lg);
  P->nlogical = done;
  qsort(P->logical, done, sizeof *P->logical, cmp_i64);
  rel_norm(got);
  rel_norm(want);
  rel_keep_from(want, P->logical, P->nlogical);
  C->res->samples = done;
  return ok;
}

/* The maps' pairs and the reference's over the points, in world C->w.
 * Sampled out2in: the reference is taken point by point, and the points
 * after the one that exhausts its budget are dropped. */
static bool relations(chk *C, points *P, rel *got, rel *want) {
  bool sampled = P->n || P->cap;
  ref R = {0, sampled ? VF_SAMPLE_WORK : VF_MAX_WORK, false, NULL, C->w, C->c};
  const hlo_shape *xs = read_shape(C->in, C->output_id, C->k);
  bool ok = true;
  if (P->cap && C->i2o) {
    ok = sampled_i2o(C, &R, P, got, want);
    goto done;
  }
  if (P->n) {
    int64_t o[MAXR];
    uint32_t t = 0;
    for (; t < P->n; t++) {
      if (P->lg[t] < 0) continue;
      size_t before = want->n;
      delin(C->from, P->lg[t], o);
      remit e = {&R, want, P->lg[t], xs, false};
      ref_reads(&R, C->in, C->output_id, C->k, o, rel_emit, &e);
      if (R.over) {
        rel_truncate(want, before);
        break;
      }
    }
    if (t < P->n && t > 0) {
      R.over = false;
      P->n = t;
      C->res->samples = t;
      C->res->sampled = true;
      sorted_logical(P);
    }
    rel_norm(want);
  }
  for (uint32_t i = 0; i < C->set->n && !R.over && ok; i++) {
    const ii_operand *x = C->set->items[i];
    if (P->n == 0) {
      ok = pairs_all(C, x, got);
    } else {
      for (uint32_t t = 0; t < P->n && ok; t++) ok = pairs_at(C, x, P->pt + (size_t)t * P->rank, got);
    }
  }
  rel_norm(got);
  if (ok && !R.over && P->n == 0) reference(&R, C->in, C->output_id, C->k, C->i2o, want);
done:
  while (R.fctxs) {
    fctx *f = R.fctxs;
    R.fctxs = f->next;
    fctx_free(f);
  }
  if (ok && R.over) {
    C->res->status = VF_SKIP_TOO_LARGE;
    say(C->res, "a reference of more than %llu steps%s", (unsigned long long)R.max_work,
        sampled ? " for one element" : "");
    return false;
  }
  return ok;
}

/* Reports n of the pairs of r (the first at i) as missing or extra. */
static bool differ(const chk *C, const rel *r, size_t i, size_t n, const char *what) {
  char a[160], b[160], w[80] = "";
  if (C->w) snprintf(w, sizeof w, " (runtime values of world %u, seed %llu)", C->w->id, (unsigned long long)C->w->seed);
  put_index(a, sizeof a, C->from, rel_from(r, i));
  put_index(b, sizeof b, C->to, rel_to(r, i));
  C->res->status = VF_MISMATCH;
  say(C->res, "%zu of the %zu pairs %s%s, e.g. %s -> %s", n, (size_t)r->n, what, w, a, b);
  return false;
}

static bool compare(const chk *C, const rel *got, const rel *want, bool covering) {
  size_t missing = 0, extra = 0, mi = 0, ei = 0;
  for (size_t i = 0; i < want->n; i++)
    if (!rel_has(got, rel_from(want, i), rel_to(want, i)) && missing++ == 0) mi = i;
  if (missing) return differ(C, want, mi, missing, "the op reads are not in the maps");
  if (!covering)
    for (size_t i = 0; i < got->n; i++)
      if (!rel_has(want, rel_from(got, i), rel_to(got, i)) && extra++ == 0) ei = i;
  if (extra) return differ(C, got, ei, extra, "of the maps are not read by the op");
  return true;
}

/* Sampled points: the "from" side's box (logical dims, or the physical /
 * tiled coordinates of the maps), drawn from the seed; the whole box when
 * it has at most n points. */
static bool draw_points(chk *C, uint64_t seed, uint32_t n, points *P) {
  if (C->i2o) { /* drawn per world (sampled_i2o) */
    C->res->population = (uint64_t)nelems(C->from);
    C->res->sampled = true;
    P->cap = n;
    P->lg = hb_calloc(n, sizeof *P->lg);
    P->logical = hb_calloc(n, sizeof *P->logical);
    return true;
  }
  const imap *fc = C->from_conv;
  uint32_t r = fc ? fc->ndims : (uint32_t)C->from->rank;
  interval box[MAXR];
  for (uint32_t i = 0; i < r; i++) box[i] = fc ? fc->dim_iv[i] : iv_make(0, C->from->dims[i] - 1);
  uint64_t pop = box_size(box, r);
  C->res->population = pop;
  if (pop == 0) return false;
  bool all = pop <= n;
  P->n = all ? (uint32_t)pop : n;
  P->rank = r;
  P->pt = hb_calloc((size_t)P->n * (r ? r : 1), sizeof *P->pt);
  P->lg = hb_calloc(P->n, sizeof *P->lg);
  P->logical = hb_calloc(P->n, sizeof *P->logical);
  int64_t d[MAXR], lo[MAXR], hi[MAXR], lf[MAXR];
  for (uint32_t i = 0; i < r; i++) lo[i] = box[i].lo, hi[i] = box[i].hi;
  first_point((int)r, d, lo, hi);
  for (uint32_t t = 0; t < P->n; t++) {
    int64_t *p = P->pt + (size_t)t * r;
    for (uint32_t i = 0; i < r; i++)
      p[i] = all ? d[i] : lo[i] + (int64_t)(mix64(seed ^ mix64((uint64_t)t * 131 + i)) % size_of(box[i]));
    if (all) next_point((int)r, d, lo, hi);
    bool ok = fc ? convert(fc, p, lf) : true;
    if (!fc) memcpy(lf, p, r * sizeof *p);
    P->lg[t] = ok && in_bounds(C->from, lf) ? (C->from->rank ? lin(C->from, lf) : 0) : -1;
  }
  sorted_logical(P);
  C->res->sampled = !all;
  C->res->samples = P->n;
  return true;
}

/* How many points to sample (0 when a point's symbols are too many). */
static uint32_t sample_count(uint64_t per_elem) {
  if (per_elem > VF_MAX_POINTS) return 0;
  uint64_t n = 4 * VF_MAX_POINTS / (per_elem ? per_elem : 1);
  return (uint32_t)(n < VF_SAMPLES ? (n ? n : 1) : VF_SAMPLES);
}

static bool sample(chk *C, uint64_t seed, uint32_t n, points *P) {
  if (n == 0) {
    C->res->status = VF_SKIP_TOO_LARGE;
    say(C->res, "more than %llu points per element", (unsigned long long)VF_MAX_POINTS);
    return false;
  }
  if (!draw_points(C, seed, n, P)) P->n = 0;
  return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* Exact over every member's domain when small enough, else on points.
 * *worlds_only: a point's runtime values are too many to enumerate (the
 * union), but with its runtime variables bound it can be checked. */
static bool choose_points(chk *C, uint64_t seed, bool bind, points *P, uint32_t *nsamples, bool *worlds_only) {
  uint64_t total = 0, per_elem = 0, per_elem_bound = 0;
  bool small = true;
  for (uint32_t i = 0; i < C->set->n; i++) {
    const imap *m = C->set->items[i]->map;
    if (!member_ok(C, m)) return false;
    if (m->known_empty) continue;
    uint64_t dom = box_size(m->dim_iv, m->ndims), sym = box_size(m->sym_iv, imap_nsyms(m));
    uint64_t pts = dom && sym ? (dom > UINT64_MAX / sym ? UINT64_MAX : dom * sym) : 0;
    small &= pts <= VF_MAX_POINTS;
    total = sat_add(total, pts);
    per_elem = sat_add(per_elem, sym);
    per_elem_bound = sat_add(per_elem_bound, box_size(m->sym_iv, m->nrange));
  }
  /* the worlds only, where the union allows few points and they many more */
  uint32_t n_union = sample_count(per_elem), n_bound = sample_count(per_elem_bound);
  *worlds_only = bind && n_union < VF_SAMPLES / 16 && n_bound > n_union;
  *nsamples = *worlds_only ? n_bound : n_union;
  if (small && total <= 4 * VF_MAX_POINTS) {
    *worlds_only = false;
    return true;
  }
  return sample(C, seed, *nsamples, P);
}

/* The union check, then the runtime bindings in each world. */
static bool run_worlds(chk *C, points *P, uint64_t seed, uint32_t first, uint32_t nworlds, bool covering) {
  bool ok = true;
  for (uint32_t wi = first; ok && wi <= nworlds; wi++) {
    world w = {seed, wi};
    C->w = wi ? &w : NULL;
    rel got = {0}, want = {0};
    ok = relations(C, P, &got, &want) && compare(C, &got, &want, covering);
    if (!C->w) C->res->pairs = want.n;
    rel_free(&got);
    rel_free(&want);
  }
  C->w = NULL;
  return ok;
}

static void check(ii_ctx *c, const hlo_instr *in, int64_t output_id, int k, bool i2o, const ii_set *set, vf_layout l,
                  uint64_t seed, vf_result *res) {
  memset(res, 0, sizeof *res);
  res->seed = seed;
  /* an empty set says the entry reads nothing: compared like any other */
  for (uint32_t i = 0; i < set->n; i++)
    if (set->items[i]->map->undefined) {
      res->status = VF_SKIP_UNKNOWN;
      say(res, "unknown indexing");
      return;
    }
  bool compat = ii_ctx_xla_compat(c);
  bool fusion = in->op == HLO_OP_FUSION && k >= 0 && k < in->n_operands && refs[family(in->op)].edge == fusion_edge;
  edge e = fusion ? fusion_edge_memo(c, in, output_id, k, compat) : edge_of(in, output_id, k, 0, compat);
  const hlo_shape *os = elem_shape(in->shape, output_id), *xs = read_shape(in, output_id, k);
  if (!e.no_ref && i2o && compat && family(in->op) == II_FAM_EW && xs->rank == 0 && rank_ok(os) && os->rank > 0)
    e.no_ref = "the in2out map of a scalar operand of an elementwise op (XLA gives it the output's dimensions)";
  if (!e.no_ref && (!rank_ok(os) || !rank_ok(xs))) e.no_ref = "a tuple-shaped or very high-rank value";
  if (e.no_ref) {
    res->status = VF_SKIP_NO_REFERENCE;
    say(res, "no reference for %s", e.no_ref);
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
  chk C = {c,   in,   output_id, k, i2o, set, from, to, to_logical(c, from, l), to_logical(c, to, l),
           from_logical(c, from, l), e.clip, NULL, res};
  points P = {0};
  uint32_t nsamples = 0;
  bool bind = false;
  for (uint32_t i = 0; i < set->n; i++) bind |= !compat && set->items[i]->nrt > 0;
  for (uint32_t i = 0; i < set->n; i++) /* an opaque description (rt_bind.c) names no element */
    for (uint32_t j = 0; j < set->items[i]->nrt; j++)
      bind &= !ii_desc_opaque(set->items[i]->rt[j].map, set->items[i]->map);
  uint32_t nworlds = bind ? VF_WORLDS : 0;
  bool worlds_only = false;
  bool ok = choose_points(&C, seed, bind, &P, &nsamples, &worlds_only) &&
            run_worlds(&C, &P, seed, worlds_only, nworlds, e.covering);
  if (!ok && res->status == VF_SKIP_TOO_LARGE && P.n == 0 && P.cap == 0 && nsamples) {
    /* the reference of every element is too long: the one of some elements */
    res->status = VF_OK;
    res->points = 0;
    ok = sample(&C, seed, nsamples, &P) && run_worlds(&C, &P, seed, worlds_only, nworlds, e.covering);
  }
  if (ok) {
    res->status = VF_OK;
    res->covering = e.covering;
    res->worlds = nworlds;
    res->worlds_only = worlds_only;
  }
  free(P.pt);
  free(P.lg);
  free(P.logical);
}

void vf_check_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, uint32_t k, const ii_set *set, vf_layout l,
                  uint64_t seed, vf_result *res) {
  check(c, in, output_id, (int)k, false, set, l, seed, res);
}

void vf_check_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, uint32_t k, const ii_set *set, vf_layout l,
                  uint64_t seed, vf_result *res) {
  check(c, in, (int64_t)k, (int)input_id, true, set, l, seed, res);
}
