/* Reductions: reduce §3.13 (variadic, init operands), reduce-window §3.14
 * with the window helper W (also used by convolution), [V2] scan §3.23,
 * and select-and-scatter (hloidx's semantics). */
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

/* The out2in result of reduce and reduce-window (same operand layout: n
 * inputs, then n init values): every input gets input_map, every init
 * value the scalar map over the output o. */
static void inputs_and_inits(ii_ctx *c, const hlo_instr *in, const hlo_shape *o, imap *input_map, ii_indexing *out) {
  uint32_t n = (uint32_t)in->n_operands / 2;
  imap *init_map = ii_scalar_map(c, o);
  ii_indexing_init(c, out, 2 * n);
  for (uint32_t k = 0; k < n; k++) {
    ii_add(c, out, k, input_map);
    ii_add(c, out, n + k, init_map);
  }
}

ii_status ii_reduce_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
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
  inputs_and_inits(c, in, o, ii_map(c, rout, ii_dims(o), nsym, sym_sizes, rin, res), out);
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
  ii_indexing_init(c, out, n);
  for (uint32_t k = 0; k < n; k++) ii_add(c, out, k, m);
  return II_OK;
}

ii_status ii_reduce_window_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id;
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
  inputs_and_inits(c, in, o, w, out);
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
