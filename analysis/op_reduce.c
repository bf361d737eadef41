/* Reductions: reduce §3.13 (variadic, init operands), reduce-window §3.14
 * with the window helper W (also used by convolution), [V2] scan §3.23,
 * and select-and-scatter (hloidx's semantics). */
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"

/* ---- reduce --------------------------------------------------------------------------------------- */

static bool is_reduced(const hlo_instr *in, uint32_t d) {
  for (int j = 0; j < in->cold->dimensions.n; j++)
    if (in->cold->dimensions.v[j] == (int64_t)d) return true;
  return false;
}

/* Input shape, output shape (tuple element 0 when variadic), and checks. */
static ii_status reduce_shapes(const hlo_instr *in, const hlo_shape **pin, const hlo_shape **pout, ii_error *err) {
  if (in->n_operands < 2 || in->n_operands % 2)
    return ii_fail(err, in, "%s '%s' needs inputs and as many init values", hlo_instr_opcode_text(in), in->name);
  const hlo_shape *x = in->operands[0]->shape, *o = ii_array_shape(in->shape);
  if (!ii_is_array(x) || !ii_is_array(o))
    return ii_fail(err, in, "%s '%s' needs array inputs", hlo_instr_opcode_text(in), in->name);
  *pin = x;
  *pout = o;
  return II_OK;
}

/* ---- which inputs an output of a variadic reduction reads ------------------------------------- */

/* The reducer of N inputs takes N accumulators and N values and returns N
 * results; result k depends on the accumulators and values of the m in
 * D(k) (the parameters it reaches). A reduction folds partial results
 * into accumulators and combines partial results as values too (a tree),
 * so output k reads input j for every j reachable from k in the graph
 * k -> D(k) (one edge or more), and init value j for those and for k (an
 * empty reduction's result). XLA reads every input for every output (a
 * reduce of N independent reductions: N^2 maps); so does --xla-compat,
 * and so does a reducer whose root is not a tuple of N (or with more than
 * DEPS_MAX_EDGES dependencies). The graph is built once per reducer. */
struct ii_reduce_deps {
  uint32_t n;
  bool all;                    /* every output reads every input */
  uint32_t *fwd_at, *fwd;      /* fwd[fwd_at[k] .. fwd_at[k + 1]) = D(k) */
  uint32_t *rev_at, *rev;      /* the same lists reversed: the k with m in D(k) */
  uint32_t *stamp, gen, *list; /* a walk's marks and nodes */
  const hlo_instr *last_in;    /* ii_reduce_reads: the walk the marks hold */
  int64_t last_out;
};

#define DEPS_MAX_EDGES ((uint32_t)1 << 20)

/* D(k) for each k into d->fwd (every instruction marked with the k it
 * was last seen for). */
static void deps_forward(ii_ctx *c, const hlo_computation *comp, struct ii_reduce_deps *d) {
  uint32_t n = d->n, ni = (uint32_t)comp->n_instrs, nedges = 0, cap = n + 1;
  uint32_t *seen = hb_arena_zalloc(c->scratch, ((size_t)ni + 1) * sizeof *seen);
  uint32_t *mseen = hb_arena_zalloc(c->scratch, ((size_t)n + 1) * sizeof *mseen);
  const hlo_instr **stack = hb_arena_array(c->scratch, (size_t)ni + 1, sizeof *stack);
  uint32_t *edges = hb_arena_array(c->scratch, cap, sizeof *edges);
  d->fwd_at = hb_arena_array(c->keep, (size_t)n + 1, sizeof *d->fwd_at);
  const hlo_instr *root = comp->root;
  for (uint32_t k = 0; k < n && !d->all; k++) {
    d->fwd_at[k] = nedges;
    const hlo_instr *y = root->op == HLO_OP_TUPLE ? root->operands[k] : root;
    uint32_t gen = k + 1, sp = 0;
    if (y->parent == comp && y->index >= 0 && (uint32_t)y->index < ni) seen[y->index] = gen, stack[sp++] = y;
    while (sp && !d->all) {
      y = stack[--sp];
      if (y->op == HLO_OP_PARAMETER && y->parameter_number >= 0 && y->parameter_number < 2 * (int64_t)n) {
        uint32_t m = (uint32_t)(y->parameter_number % n);
        if (mseen[m] != gen && nedges == DEPS_MAX_EDGES) d->all = true;
        if (mseen[m] != gen && !d->all) {
          mseen[m] = gen;
          if (nedges == cap) edges = hb_arena_grow(c->scratch, edges, nedges, cap *= 2, sizeof *edges);
          edges[nedges++] = m;
        }
      }
      for (int j = 0; j < y->n_operands; j++) {
        const hlo_instr *z = y->operands[j];
        if (z->parent != comp || z->index < 0 || (uint32_t)z->index >= ni || seen[z->index] == gen) continue;
        seen[z->index] = gen;
        stack[sp++] = z;
      }
    }
  }
  d->fwd_at[n] = nedges;
  d->fwd = hb_arena_array(c->keep, (size_t)nedges + 1, sizeof *d->fwd);
  memcpy(d->fwd, edges, (size_t)nedges * sizeof *edges);
}

/* d->fwd's lists reversed. */
static void deps_reverse(ii_ctx *c, struct ii_reduce_deps *d) {
  uint32_t n = d->n, ne = d->fwd_at[n];
  d->rev_at = hb_arena_zalloc(c->keep, ((size_t)n + 2) * sizeof *d->rev_at);
  d->rev = hb_arena_array(c->keep, (size_t)ne + 1, sizeof *d->rev);
  for (uint32_t i = 0; i < ne; i++) d->rev_at[d->fwd[i] + 2]++;
  for (uint32_t m = 0; m < n; m++) d->rev_at[m + 2] += d->rev_at[m + 1];
  /* rev_at[m + 1] is where m's next entry goes; once all are placed,
   * rev_at[m] is where m's entries start */
  for (uint32_t k = 0; k < n; k++)
    for (uint32_t i = d->fwd_at[k]; i < d->fwd_at[k + 1]; i++) d->rev[d->rev_at[d->fwd[i] + 1]++] = k;
}

/* The graph of IN's reducer; NULL: every output reads every input. */
static struct ii_reduce_deps *reduce_deps(ii_ctx *c, const hlo_instr *in) {
  const hlo_computation *comp = ii_called(in, HLO_CALL_TO_APPLY);
  uint32_t n = (uint32_t)in->n_operands / 2;
  if (c->xla_compat || !comp || !comp->root || n == 0 || comp->n_params != 2 * (int)n) return NULL;
  bool found;
  struct ii_reduce_deps *d = (struct ii_reduce_deps *)hb_ptrmap_get_ptr(&c->reduce_deps, comp, &found);
  if (!found) {
    const hlo_instr *root = comp->root;
    d = hb_arena_zalloc(c->keep, sizeof *d);
    d->n = n;
    d->all = !(root->op == HLO_OP_TUPLE ? root->n_operands == (int)n : n == 1);
    if (!d->all) deps_forward(c, comp, d);
    if (!d->all) {
      deps_reverse(c, d);
      d->stamp = hb_arena_zalloc(c->keep, (size_t)n * sizeof *d->stamp);
      d->list = hb_arena_array(c->keep, n, sizeof *d->list);
    }
    hb_ptrmap_put_ptr(&c->reduce_deps, comp, d);
  }
  return d->all ? NULL : d;
}

/* The nodes reachable from K by one edge or more of the lists (AT, V):
 * d->list[0 .. the count returned), marked d->gen in d->stamp. */
static uint32_t reach(struct ii_reduce_deps *d, const uint32_t *at, const uint32_t *v, uint32_t k) {
  if (++d->gen == 0) { /* (wrapped: every mark is stale) */
    memset(d->stamp, 0, d->n * sizeof *d->stamp);
    d->gen = 1;
  }
  d->last_in = NULL;
  uint32_t nl = 0;
  for (uint32_t head = 0, x = k;; x = d->list[head++]) {
    for (uint32_t i = at[x]; i < at[x + 1]; i++)
      if (d->stamp[v[i]] != d->gen) d->stamp[v[i]] = d->gen, d->list[nl++] = v[i];
    if (head == nl) return nl;
  }
}

/* V = BASE + each of L (NL, sorted) and X in its place (unless HAS_X: L
 * holds it); the count. */
static uint32_t put_with(uint32_t *v, const uint32_t *l, uint32_t nl, uint32_t x, bool has_x, uint32_t base) {
  uint32_t nv = 0;
  for (uint32_t i = 0; i < nl; i++) {
    if (!has_x && x < l[i]) v[nv++] = base + x, has_x = true;
    v[nv++] = base + l[i];
  }
  if (!has_x) v[nv++] = base + x;
  return nv;
}

/* The entries of output K's out2in result (the inputs and init values it
 * reads) or of operand K's in2out result (the outputs that read it):
 * *IDS, sorted, in scratch; their count. */
static uint32_t deps_entries(ii_ctx *c, struct ii_reduce_deps *d, bool o2i, uint32_t k, uint32_t **ids) {
  uint32_t n = d->n, m = k % n;
  uint32_t nl = o2i ? reach(d, d->fwd_at, d->fwd, k) : reach(d, d->rev_at, d->rev, m);
  uint32_t *v = hb_arena_array(c->scratch, 2 * (size_t)nl + 2, sizeof *v), nv = 0;
  qsort(d->list, nl, sizeof *d->list, ii_cmp_u32);
  if (o2i) {
    memcpy(v, d->list, nl * sizeof *v);
    nv = nl + put_with(v + nl, d->list, nl, k, d->stamp[k] == d->gen, n);
  } else if (k < n) {
    memcpy(v, d->list, nl * sizeof *v);
    nv = nl;
  } else {
    nv = put_with(v, d->list, nl, m, d->stamp[m] == d->gen, 0);
  }
  *ids = v;
  return nv;
}

bool ii_reduce_reads(ii_ctx *c, const hlo_instr *in, int64_t output_id, int k) {
  struct ii_reduce_deps *d = reduce_deps(c, in);
  if (!d || output_id < 0 || output_id >= (int64_t)d->n || k < 0 || k >= 2 * (int)d->n) return true;
  if (d->last_in != in || d->last_out != output_id) {
    reach(d, d->fwd_at, d->fwd, (uint32_t)output_id);
    d->last_in = in;
    d->last_out = output_id;
  }
  uint32_t j = (uint32_t)k % d->n;
  return d->stamp[j] == d->gen || ((uint32_t)k >= d->n && j == (uint32_t)output_id);
}

/* The out2in result of output ID of reduce and reduce-window (same
 * operand layout: n inputs, then n init values): the inputs it reads get
 * input_map, the init values the scalar map over the output o. */
static void inputs_and_inits(ii_ctx *c, const hlo_instr *in, int64_t id, const hlo_shape *o, imap *input_map,
                             ii_indexing *out) {
  uint32_t n = (uint32_t)in->n_operands / 2;
  imap *init_map = ii_scalar_map(c, o);
  struct ii_reduce_deps *d = id >= 0 && id < (int64_t)n ? reduce_deps(c, in) : NULL;
  if (!d) {
    ii_indexing_init(c, out, 2 * n);
    for (uint32_t k = 0; k < n; k++) {
      ii_add(c, out, k, input_map);
      ii_add(c, out, n + k, init_map);
    }
    return;
  }
  uint32_t *ids, nids = deps_entries(c, d, true, (uint32_t)id, &ids);
  ii_indexing_init_sparse(c, out, 2 * n, nids, ids);
  for (uint32_t i = 0; i < nids; i++) ii_add(c, out, ids[i], ids[i] < n ? input_map : init_map);
}

ii_status ii_reduce_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *x = NULL, *o = NULL;
  if (reduce_shapes(in, &x, &o, err) != II_OK) return II_ERROR;
  uint32_t rin = ii_rank(x), rout = ii_rank(o), nsym = 0, nd = 0;
  const ae **res = ii_exprs(c, rin);
  int64_t *sym_sizes = hb_arena_array(c->scratch, rin ? rin : 1, sizeof *sym_sizes);
  for (uint32_t i = 0; i < rin; i++) {
    if (is_reduced(in, i)) {
      sym_sizes[nsym] = x->dims[i];
      res[i] = S(c, nsym++);
    } else {
      res[i] = D(c, nd++);
    }
  }
  if (nd != rout) return ii_fail(err, in, "reduce '%s': the result rank does not match the kept dimensions", in->name);
  inputs_and_inits(c, in, id, o, ii_map(c, rout, ii_dims(o), nsym, sym_sizes, rin, res), out);
  return II_OK;
}

ii_status ii_reduce_i2o(ii_ctx *c, const hlo_instr *in, int64_t input_id, ii_indexing *out, ii_error *err) {
  const hlo_shape *x = NULL, *o = NULL;
  if (reduce_shapes(in, &x, &o, err) != II_OK) return II_ERROR;
  uint32_t n = (uint32_t)in->n_operands / 2, rin = ii_rank(x), rout = ii_rank(o);
  imap *m;
  if (input_id >= n) {
    /* an init value: ()[s0, ..] -> (s0, ..) over the output */
    const ae **res = ii_exprs(c, rout);
    for (uint32_t t = 0; t < rout; t++) res[t] = S(c, t);
    m = ii_map(c, 0, NULL, rout, ii_dims(o), rout, res);
  } else {
    const ae **res = ii_exprs(c, rin);
    uint32_t nr = 0;
    for (uint32_t i = 0; i < rin; i++)
      if (!is_reduced(in, i)) res[nr++] = D(c, i);
    if (nr != rout) return ii_fail(err, in, "reduce '%s': the result rank does not match the kept dimensions", in->name);
    m = ii_map(c, rin, ii_dims(x), 0, NULL, nr, res);
  }
  struct ii_reduce_deps *d = reduce_deps(c, in);
  if (!d) {
    ii_indexing_init(c, out, n);
    for (uint32_t k = 0; k < n; k++) ii_add(c, out, k, m);
    return II_OK;
  }
  uint32_t *ids, nids = deps_entries(c, d, false, (uint32_t)input_id, &ids);
  ii_indexing_init_sparse(c, out, n, nids, ids);
  for (uint32_t i = 0; i < nids; i++) ii_add(c, out, ids[i], m);
  return II_OK;
}

ii_status ii_reduce_window_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *x = NULL, *o = NULL;
  if (reduce_shapes(in, &x, &o, err) != II_OK) return II_ERROR;
  uint32_t rank = ii_rank(x);
  if ((uint32_t)in->cold->ext->n_window != rank || ii_rank(o) != rank)
    return ii_fail(err, in, "reduce-window '%s' needs a window with one entry per dimension", in->name);
  for (uint32_t i = 0; i < rank; i++)
    if (in->cold->ext->window[i].stride < 1 || in->cold->ext->window[i].lhs_dilate < 1 ||
        in->cold->ext->window[i].rhs_dilate < 1)
      return ii_fail(err, in, "reduce-window '%s': strides and dilations must be positive", in->name);
  imap *w;
  ii_status st = ii_window_map(c, rank, ii_dims(x), ii_dims(o), in->cold->ext->window, &w);
  if (st != II_OK) return st;
  inputs_and_inits(c, in, id, o, w, out);
  return II_OK;
}

/* ---- scan ([V2]) ------------------------------------------------------------------------------------ */

/* A rank-0 output (a carry): every operand gets the scalar map over it. An
 * array output: the array inputs get the identity, the carries (the last
 * num_carries operands) the scalar map. */
ii_status ii_scan_o2i(ii_ctx *c, const hlo_instr *in, int64_t output_id, ii_indexing *out, ii_error *err) {
  (void)err;
  const hlo_shape *o = ii_array_shape(ii_output_shape(in, output_id));
  int64_t nc = in->cold->ext->has_num_carries ? in->cold->ext->num_carries : 0;
  if (nc < 0 || nc > in->n_operands) nc = 0;
  uint32_t n = (uint32_t)in->n_operands;
  ii_indexing_init(c, out, n);
  for (uint32_t k = 0; k < n; k++) {
    bool carry = (int64_t)k >= (int64_t)n - nc;
    ii_add(c, out, k, ii_rank(o) == 0 || carry ? ii_scalar_map(c, o) : ii_identity(c, o));
  }
  return II_OK;
}

/* ---- select-and-scatter (hloidx's semantics) ---------------------------------------------------- */

/* select-and-scatter(operand, source, init): output element o (the
 * operand's shape) sums the source elements of the windows that selected
 * o. Which position a window selects depends on every operand element in
 * it, so o reads: source element w for every window w that holds o (the
 * inverse of the window map W, from source elements to the operand
 * elements of their windows); the operand elements of those windows (W
 * composed after that inverse); and the init value. */
ii_status ii_select_scatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
  const hlo_shape *x = in->operands[0]->shape, *src = in->operands[1]->shape, *o = in->shape;
  uint32_t rank = ii_rank(x);
  if (in->n_operands != 3 || !ii_is_array(src) || ii_rank(src) != rank || (uint32_t)in->cold->ext->n_window != rank ||
      !ii_same_dims(x, o))
    return ii_fail(err, in, "select-and-scatter '%s' needs an operand, a source and a window of its rank", in->name);
  for (uint32_t i = 0; i < rank; i++)
    if (in->cold->ext->window[i].stride < 1 || in->cold->ext->window[i].lhs_dilate < 1 ||
        in->cold->ext->window[i].rhs_dilate < 1)
      return ii_fail(err, in, "select-and-scatter '%s': strides and dilations must be positive", in->name);
  imap *w;
  ii_status st = ii_window_map(c, rank, ii_dims(x), ii_dims(src), in->cold->ext->window, &w);
  if (st != II_OK) return st;
  ii_operand *winv, *wop = ii_wrap(c, w);
  st = ii_invert(c, wop, x, &winv);
  if (st != II_OK) return st;
  ii_operand *reads = ii_operand_compose(c, winv, wop);
  st = ii_operand_simplify(c, reads, true, true);
  if (st != II_OK) return st;
  ii_indexing_init(c, out, 3);
  ii_set_insert(c, &out->sets[0], reads);
  ii_set_insert(c, &out->sets[1], winv);
  ii_add(c, out, 2, ii_scalar_map(c, o));
  return II_OK;
}
