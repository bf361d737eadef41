/* Calls and control flow in hloidx's semantics (XLA has no rule):
 *
 *   CALL   call: composed through its to_apply computation, as a fusion is
 *          through its fused computation (fusion.c);
 *   COND   conditional: the branch index (operand 0) is read by every
 *          output element (the scalar map); operand b+1 gets the maps of
 *          branch b, composed through it, each with one more runtime
 *          variable, the branch index, whose interval is the values that
 *          select branch b (a pred: true for the first branch; an index
 *          out of range selects the last one: two maps, the values above
 *          and below);
 *   WHILE  while: an element of the state the body passes through
 *          unchanged (its root tuple holds get-tuple-element(parameter, n)
 *          at n, or the body returns its parameter) is the same element
 *          of the initial value, the identity; the others depend on the
 *          number of iterations: unknown, with the reason;
 *   ASYNC  async-start: output 1 (the result) composed through the wrapped
 *          computation, or the wrapped op's own rule when the start
 *          carries it (slice-start, custom-call-start, ...); output 0 holds
 *          the operands (operand k is its element k: the identity); the
 *          context outputs read nothing. */
#include <string.h>

#include "ii_internal.h"

/* The sets of the ARGS of computation COMP, composed from its output
 * OUTPUT_ID, into OUT's sets at FIRST, FIRST + 1, ... */
static ii_status compose_into_sets(ii_ctx *c, const hlo_instr *in, const hlo_computation *comp,
                                   const hlo_instr *const *args, int nargs, int64_t output_id, ii_indexing *out,
                                   uint32_t first, ii_error *err) {
  ii_groups *g;
  ii_status st = ii_compose_computation(c, in, comp, args, nargs, output_id, false, &g, err);
  if (st == II_OK)
    for (int k = 0; k < nargs; k++) ii_groups_entry(c, g, args[k], &out->sets[first + (uint32_t)k]);
  ii_groups_free(g);
  return st;
}

ii_status ii_call_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_computation *comp = ii_called(in, HLO_CALL_TO_APPLY);
  if (!comp) comp = ii_called(in, HLO_CALL_CALLS);
  if (!comp || !comp->root) return ii_fail(err, in, "call '%s' has no to_apply= computation", in->name);
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  return compose_into_sets(c, in, comp, (const hlo_instr *const *)in->operands, in->n_operands, id, out, 0, err);
}

/* ---- conditional ------------------------------------------------------------------------------------- */

/* X with one more runtime variable, the branch index B read from operand
 * 0, in [lo, hi]: X reads its elements only when the index is there. */
static ii_operand *when_index(ii_ctx *c, const hlo_instr *in, const hlo_shape *o, const ii_operand *x, int64_t lo,
                              int64_t hi, int nb, bool pred) {
  const imap *m = x->map;
  if (m->undefined) return (ii_operand *)x;
  uint32_t ns = imap_nsyms(m);
  interval *siv = hb_arena_array(c->scratch, ns + 1, sizeof *siv);
  for (uint32_t j = 0; j < ns; j++) siv[j] = m->sym_iv[j];
  siv[ns] = iv_make(lo, hi);
  imap *y = imap_new(c->scratch, c->ae, m->ndims, m->nrange, m->nrt + 1, m->dim_iv, siv, m->nresults, m->results);
  for (uint32_t k = 0; k < m->ncons; k++) imap_add_constraint(y, m->cons[k].expr, m->cons[k].iv);
  if (m->known_empty) imap_set_known_empty(y);
  ii_operand *r = ii_wrap(c, y);
  r->nrt = x->nrt + 1;
  r->rt = hb_arena_array(c->scratch, r->nrt, sizeof *r->rt);
  if (x->nrt) memcpy(r->rt, x->rt, x->nrt * sizeof *r->rt);
  /* the branch's descriptions over y's symbols (one more at the end: rt_bind.c's form) */
  for (uint32_t j = 0; j < x->nrt; j++)
    if (!ii_desc_opaque(x->rt[j].map, m))
      r->rt[j].map = ii_desc_map(c, y, x->rt[j].map->nresults, x->rt[j].map->results);
  /* a pred is true or false; an s32 index out of [0, nb) runs the last branch */
  r->rt[x->nrt] = (ii_rtvar){in->operands[0], ii_scalar_map(c, o), pred, iv_make(0, pred ? 1 : nb - 1)};
  r->replica = x->replica;
  return r;
}

ii_status ii_cond_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_computation *br[2] = {ii_called(in, HLO_CALL_TRUE_COMPUTATION), ii_called(in, HLO_CALL_FALSE_COMPUTATION)};
  bool pred = br[0] && br[1];
  int nb = 0;
  const hlo_computation **branches = hb_arena_array(c->scratch, (size_t)in->cold->n_called + 2, sizeof *branches);
  if (pred) {
    branches[nb++] = br[0];
    branches[nb++] = br[1];
  } else {
    for (int i = 0; i < in->cold->n_called; i++)
      if (in->cold->called_role[i] == HLO_CALL_BRANCH_COMPUTATIONS) branches[nb++] = in->cold->called[i];
  }
  if (nb == 0 || in->n_operands != nb + 1)
    return ii_fail(err, in, "conditional '%s' needs a branch index and one operand per branch (%d branches, %d "
                   "operands)", in->name, nb, in->n_operands);
  const hlo_shape *o = ii_array_shape(ii_output_shape(in, id));
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  ii_indexing tmp;
  ii_indexing_init(c, &tmp, (uint32_t)in->n_operands);
  for (int b = 0; b < nb; b++) {
    ii_status st = compose_into_sets(c, in, branches[b], (const hlo_instr *const *)&in->operands[b + 1], 1, id, &tmp,
                                     (uint32_t)b + 1, err);
    if (st != II_OK) return st;
    /* the index values that select branch b */
    int64_t lo = b, hi = b, lo2 = 1, hi2 = 0;
    if (pred) lo = hi = b == 0; /* true: the first branch */
    else if (b == nb - 1) hi = INT32_MAX, lo2 = INT32_MIN, hi2 = -1;
    const ii_set *s = ii_entry(&tmp, (uint32_t)b + 1);
    ii_set *d = &out->sets[b + 1];
    d->in_elem = s->in_elem;
    d->elem = s->elem;
    for (uint32_t i = 0; i < s->n; i++) {
      ii_set_insert(c, d, when_index(c, in, o, s->items[i], lo, hi, nb, pred));
      if (lo2 <= hi2) ii_set_insert(c, d, when_index(c, in, o, s->items[i], lo2, hi2, nb, pred));
    }
  }
  ii_add(c, out, 0, ii_scalar_map(c, o));
  return II_OK;
}

/* ---- while ------------------------------------------------------------------------------------------- */

ii_status ii_while_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_computation *body = ii_called(in, HLO_CALL_BODY);
  if (!body || !body->root || body->n_params != 1 || in->n_operands != 1)
    return ii_fail(err, in, "while '%s' needs one operand and a body of one parameter", in->name);
  ii_indexing_init(c, out, 1);
  const hlo_instr *root = body->root, *param = body->params[0];
  bool tuple = in->shape->type == HLO_TUPLE;
  bool same = root == param;
  if (!same && tuple && root->op == HLO_OP_TUPLE && id < root->n_operands) {
    const hlo_instr *e = root->operands[id];
    same = e->op == HLO_OP_GET_TUPLE_ELEMENT && e->n_operands == 1 && e->operands[0] == param &&
           e->cold->tuple_index == id;
  }
  if (!same) {
    ii_add_unknown(c, out, 0, ii_why(c, "the while body changes element %lld of the state", (long long)id));
    return II_OK;
  }
  const hlo_shape *o = ii_output_shape(in, id), *x = in->operands[0]->shape;
  if (tuple) {
    if (x->type != HLO_TUPLE || id >= x->n_elems) {
      ii_add_unknown(c, out, 0, ii_why(c, "a while whose result and initial value differ in shape"));
      return II_OK;
    }
    x = x->elems[id];
    out->sets[0].in_elem = true;
    out->sets[0].elem = id;
  }
  if (!ii_same_dims(o, x)) ii_add_unknown(c, out, 0, ii_why(c, "a while whose result and initial value differ in shape"));
  else ii_add(c, out, 0, ii_identity(c, o));
  return II_OK;
}

/* ---- async-start ------------------------------------------------------------------------------------- */

ii_status ii_async_start_o2i(ii_ctx *c, const hlo_instr *in, int64_t id, ii_indexing *out, ii_error *err) {
  const hlo_shape *s = in->shape;
  if (s->type != HLO_TUPLE || s->n_elems < 2)
    return ii_fail(err, in, "async-start '%s' needs a tuple result (operands, result, context)", in->name);
  ii_indexing_init(c, out, (uint32_t)in->n_operands);
  if (id == 0) { /* the operands, element k of output 0 */
    for (int k = 0; k < in->n_operands; k++) ii_add(c, out, (uint32_t)k, ii_identity(c, in->operands[k]->shape));
    return II_OK;
  }
  if (id >= 2) return II_OK;
  if (s->elems[1]->type == HLO_TUPLE) {
    for (int k = 0; k < in->n_operands; k++)
      ii_add_unknown(c, out, (uint32_t)k, ii_why(c, "a tuple-shaped result of an asynchronous op (a nested tuple)"));
    return II_OK;
  }
  const hlo_computation *comp = ii_called(in, HLO_CALL_CALLS);
  if (comp && comp->root)
    return compose_into_sets(c, in, comp, (const hlo_instr *const *)in->operands, in->n_operands, 0, out, 0, err);
  if (in->cold->async_wrapped == HLO_OP_UNKNOWN)
    return ii_fail(err, in, "async-start '%s' wraps neither a computation nor an op", in->name);
  /* the wrapped op with the start's operands and attributes, and output 1's shape */
  hlo_instr *w = hb_arena_alloc(c->scratch, sizeof *w);
  hlo_instr_cold *wc = hb_arena_dup(c->scratch, in->cold, sizeof *wc);
  wc->opcode_text = NULL; /* (the wrapped op's name) */
  *w = *in;
  w->op = in->cold->async_wrapped;
  w->cold = wc;
  w->shape = s->elems[1];
  return ii_o2i_logical(c, w, 0, out, err);
}
