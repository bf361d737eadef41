/* Collectives in hloidx's semantics (XLA has a rule for all-gather only,
 * in op_dynamic.c, which --xla-compat keeps). A map relates an element of
 * this device's output to the elements of the operand it reads, on
 * whichever device holds them; which device, where it is known, is the
 * replica-id map (XLA's form for all-gather: the position in the replica
 * group). This device's own position in its group is not a variable of
 * the map language: where the index read depends on it, it is a range
 * variable over the group's positions.
 *
 *   PAIRED      all-reduce, all-reduce-start, collective-broadcast,
 *               collective-permute: output n is operand n, element for
 *               element (a reduction over devices, a copy from another);
 *   ALLGATHER   all-gather (output n from operand n), all-gather-start
 *               (output 0 is the operand, output 1 gathered);
 *   RSCATTER    reduce-scatter along g, output size m, group size G = the
 *               operand's size / m: output element d reads element
 *               d_g + s0 * m, s0 in [0, G-1] this device's position, of
 *               every device's operand;
 *   ALLTOALL    all-to-all with dimensions={g} (split and concatenated
 *               along g; group size G from replica_groups, chunks of
 *               m = size / G): element d_g reads d_g mod m + s0 * m of the
 *               operand of the device at position d_g floordiv m (replica
 *               id), s0 this device's position; without a known G, any
 *               element along g. The tuple form: output n is operand s0
 *               (this device's position) of device n: every operand by the
 *               identity, replica id n;
 *   RAGGED      ragged-all-to-all(input, output, input_offsets, send_sizes,
 *               output_offsets, recv_sizes): row d0 of the result keeps
 *               the output operand's row, or is row d0 - rt1 + rt0 of a
 *               peer's input, rt0 / rt1 the input / output offset of that
 *               peer (runtime variables read from the offsets operands);
 *               every result element reads the offsets and sizes (which
 *               peer's rows it holds depends on all of them). */
#include "ii_internal.h"

/* Devices per replica group; -1 when the groups do not say (empty: every
 * device, whose count the module does not always tell). */
static int64_t group_size(const hlo_instr *in) {
  const hlo_replica_groups *g = in->cold->ext->replica_groups;
  if (!g) return -1;
  if (g->iota) return g->iota_group_size > 0 ? g->iota_group_size : -1;
  if (g->n_groups == 0 || g->groups[0].n == 0) return -1;
  for (int i = 1; i < g->n_groups; i++)
    if (g->groups[i].n != g->groups[0].n) return -1;
  return g->groups[0].n;
}

/* The output paired with operand ID: the result, or its element ID; NULL
 * (every entry unknown) when operands and results do not pair up. */
static const hlo_shape *paired_output(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out) {
  const hlo_shape *o = NULL;
  if (in->shape->type != HLO_TUPLE) o = in->n_operands == 1 && id == 0 ? in->shape : NULL;
  else if (in->shape->n_elems == in->n_operands && id < in->n_operands) o = in->shape->elems[id];
  for (int k = 0; !o && k < in->n_operands; k++)
    ii_add_unknown(c, out, (uint32_t)k,
                   ii_why(c, "%s whose operands and results do not pair up", hlo_instr_opcode_text(in)));
  return o;
}

ii_status ii_paired_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  const hlo_shape *o = paired_output(c, in, id, out);
  if (!o) return II_OK;
  if (!ii_same_dims(o, in->operands[id]->shape))
    ii_add_unknown(c, out, (uint32_t)id,
                   ii_why(c, "%s whose result has other dims than its operand", hlo_instr_opcode_text(in)));
  else
    ii_add(c, out, (uint32_t)id, ii_identity(c, o));
  return II_OK;
}

/* Output O of the collective, reading operand K, changes dimension g of
 * it (dims= with one entry); false with set K unknown otherwise. */
static bool one_dim(ii_ctx *c, const hlo_instr *in, uint32_t k, const hlo_shape *o, int64_t *g, ii_indexing *out) {
  const hlo_shape *x = in->operands[k]->shape;
  bool ok = in->cold->dimensions.n == 1 && ii_is_array(o) && ii_is_array(x) && o->rank == x->rank;
  *g = ok ? in->cold->dimensions.v[0] : -1;
  ok = ok && *g >= 0 && *g < o->rank;
  for (int i = 0; ok && i < o->rank; i++) ok = i == *g || o->dims[i] == x->dims[i];
  if (!ok)
    ii_add_unknown(c, out, k, ii_why(c, "%s whose dimensions= or shapes do not match", hlo_instr_opcode_text(in)));
  return ok;
}

/* The all-gather map of operand K over output O: d_g mod n, replica id
 * d_g floordiv n (n the operand's size along g). */
static void gathered(ii_ctx *c, const hlo_instr *in, uint32_t k, const hlo_shape *o, ii_indexing *out) {
  int64_t g;
  if (!one_dim(c, in, k, o, &g, out)) return;
  int64_t n = in->operands[k]->shape->dims[g];
  if (n == 0 || o->dims[g] % n) {
    ii_add_unknown(c, out, k,
                   ii_why(c, "%s whose result is not a whole number of operands", hlo_instr_opcode_text(in)));
    return;
  }
  uint32_t r = ii_rank(o);
  const ae **res = ii_exprs(c, r), **rep = ii_exprs(c, 1);
  for (uint32_t i = 0; i < r; i++) res[i] = D(c, i);
  res[g] = ae_mod_const(c->ae, D(c, (uint32_t)g), n);
  rep[0] = ae_floordiv_const(c->ae, D(c, (uint32_t)g), n);
  ii_operand *x = ii_wrap(c, ii_map(c, r, ii_dims(o), 0, NULL, r, res));
  x->replica = ii_map(c, r, ii_dims(o), 0, NULL, 1, rep);
  ii_set_insert(c, &out->sets[k], x);
}

ii_status ii_allgather_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (in->op == HLO_OP_ALL_GATHER_START) {
    /* (operand, result): a single operand only (more nest the tuples) */
    if (in->n_operands != 1 || in->shape->type != HLO_TUPLE || in->shape->n_elems != 2) {
      for (int k = 0; k < in->n_operands; k++)
        ii_add_unknown(c, out, (uint32_t)k, ii_why(c, "all-gather-start of several operands (nested tuples)"));
      return II_OK;
    }
    const hlo_shape *o = in->shape->elems[id];
    if (id == 1) gathered(c, in, 0, o, out);
    else if (ii_same_dims(o, in->operands[0]->shape)) ii_add(c, out, 0, ii_identity(c, o));
    else ii_add_unknown(c, out, 0, ii_why(c, "all-gather-start whose first output is not its operand"));
    return II_OK;
  }
  const hlo_shape *o = paired_output(c, in, id, out);
  if (!o) return II_OK;
  gathered(c, in, (uint32_t)id, o, out);
  return II_OK;
}

/* A map over O: the identity with dimension g replaced by E, with range
 * variables of the given sizes. */
static imap *along(ii_ctx *c, const hlo_shape *o, int64_t g, const ae *e, uint32_t nrange, const int64_t *sizes) {
  uint32_t r = ii_rank(o);
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) res[i] = D(c, i);
  res[g] = e;
  return ii_map(c, r, ii_dims(o), nrange, sizes, r, res);
}

ii_status ii_rscatter_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  const hlo_shape *o = paired_output(c, in, id, out);
  int64_t g;
  if (!o) return II_OK;
  if (!one_dim(c, in, (uint32_t)id, o, &g, out)) return II_OK;
  int64_t m = o->dims[g], n = in->operands[id]->shape->dims[g];
  if (m == 0 || n % m) {
    ii_add_unknown(c, out, (uint32_t)id, ii_why(c, "reduce-scatter whose operand is not a whole number of results"));
    return II_OK;
  }
  int64_t groups = n / m;
  const ae *e = ae_add(c->ae, D(c, (uint32_t)g), ae_mul_const(c->ae, S(c, 0), m));
  ii_add(c, out, (uint32_t)id, along(c, o, g, e, 1, &groups));
  return II_OK;
}

ii_status ii_alltoall_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (!in->cold->has_dimensions) {
    /* the tuple form: output id is operand (this device's position) of device id */
    const hlo_shape *o = ii_output_shape(in, id);
    for (int k = 0; k < in->n_operands; k++) {
      if (!ii_same_dims(o, in->operands[k]->shape)) {
        ii_add_unknown(c, out, (uint32_t)k, ii_why(c, "all-to-all whose operands and results differ in dims"));
        continue;
      }
      uint32_t r = ii_rank(o);
      const ae **rep = ii_exprs(c, 1);
      rep[0] = K(c, id);
      ii_operand *x = ii_wrap(c, ii_identity(c, o));
      x->replica = ii_map(c, r, ii_dims(o), 0, NULL, 1, rep);
      ii_set_insert(c, &out->sets[k], x);
    }
    return II_OK;
  }
  const hlo_shape *o = paired_output(c, in, id, out);
  int64_t g;
  if (!o) return II_OK;
  if (!one_dim(c, in, (uint32_t)id, o, &g, out)) return II_OK;
  int64_t n = o->dims[g], groups = group_size(in);
  if (n != in->operands[id]->shape->dims[g]) {
    ii_add_unknown(c, out, (uint32_t)id, ii_why(c, "all-to-all whose result has another size than its operand"));
    return II_OK;
  }
  if (groups <= 0 || n % groups) { /* the chunks are not known: any element along g */
    ii_add(c, out, (uint32_t)id, along(c, o, g, S(c, 0), 1, &n));
    return II_OK;
  }
  int64_t m = n / groups;
  const ae *dg = D(c, (uint32_t)g);
  const ae *e = ae_add(c->ae, ae_mod_const(c->ae, dg, m), ae_mul_const(c->ae, S(c, 0), m));
  uint32_t r = ii_rank(o);
  const ae **rep = ii_exprs(c, 1);
  rep[0] = ae_floordiv_const(c->ae, dg, m);
  ii_operand *x = ii_wrap(c, along(c, o, g, e, 1, &groups));
  x->replica = ii_map(c, r, ii_dims(o), 0, NULL, 1, rep);
  ii_set_insert(c, &out->sets[id], x);
  return II_OK;
}

ii_status ii_ragged_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  (void)id, (void)err;
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  const hlo_shape *o = in->shape, *x = in->operands[0]->shape;
  bool ok = in->n_operands == 6 && ii_is_array(o) && ii_is_array(x) && o->rank >= 1 && x->rank == o->rank &&
            ii_same_dims(o, in->operands[1]->shape);
  for (int i = 1; ok && i < o->rank; i++) ok = x->dims[i] == o->dims[i];
  for (int k = 2; ok && k < 6; k++) ok = ii_is_array(in->operands[k]->shape) && in->operands[k]->shape->rank == 1;
  if (!ok) {
    for (int k = 0; k < in->n_operands; k++)
      ii_add_unknown(c, out, (uint32_t)k, ii_why(c, "ragged-all-to-all whose operands are not (input, output, 4 offset "
                                                   "and size vectors) of matching shapes"));
    return II_OK;
  }
  uint32_t r = ii_rank(o);
  /* operand 0: row d0 - rt1 + rt0 of some peer's input */
  interval *div = hb_arena_array(c->scratch, r, sizeof *div);
  for (uint32_t i = 0; i < r; i++) div[i] = iv_make(0, o->dims[i] - 1);
  interval rtiv[2] = {iv_make(0, x->dims[0] - 1), iv_make(0, o->dims[0] - 1)};
  const ae **res = ii_exprs(c, r);
  for (uint32_t i = 0; i < r; i++) res[i] = D(c, i);
  res[0] = ae_add(c->ae, ae_sub(c->ae, D(c, 0), S(c, 1)), S(c, 0));
  imap *m = imap_new(c->scratch, c->ae, r, 0, 2, div, rtiv, r, res);
  imap_add_constraint(m, res[0], iv_make(0, x->dims[0] - 1));
  ii_operand *rows = ii_wrap(c, m);
  rows->nrt = 2;
  rows->rt = hb_arena_array(c->scratch, 2, sizeof *rows->rt);
  for (int t = 0; t < 2; t++) {
    /* which peer is not known: any element of the offsets vector */
    const hlo_shape *v = in->operands[t == 0 ? 2 : 4]->shape;
    const ae **pr = ii_exprs(c, 1);
    pr[0] = S(c, 0);
    rows->rt[t].instr = in->operands[t == 0 ? 2 : 4];
    rows->rt[t].map = ii_map(c, r, ii_dims(o), 1, v->dims, 1, pr);
  }
  ii_set_insert(c, &out->sets[0], rows);
  ii_add(c, out, 1, ii_identity(c, o));
  for (uint32_t k = 2; k < 6; k++) {
    const hlo_shape *v = in->operands[k]->shape;
    const ae **pr = ii_exprs(c, 1);
    pr[0] = S(c, 0);
    ii_add(c, out, k, ii_map(c, r, ii_dims(o), 1, v->dims, 1, pr));
  }
  return II_OK;
}
