/* Enumeration check of the instruction indexing (instr_indexing.h) with
 * the library's checker (verify.h).
 *
 * For small shapes of every opcode family, the relation printed by the
 * analysis -- every member map of an operand's set, enumerated over its
 * dimension, range and runtime variables, their intervals and the
 * constraints -- is compared, element by element, with what the op reads
 * according to its definition (hlo-text-format.md §6.3, "Index semantics of
 * the data-movement ops"); verify.c holds that reference, a small
 * independent implementation of the semantics that never looks at a map.
 * Input-to-output maps are checked against the transposed reference. Every
 * case runs in both semantics: in hloidx's, the in2out maps of every case
 * (inverses of the out2in maps where XLA has no in2out rule); with
 * --xla-compat, those of the cases XLA has an in2out rule for.
 *
 * Each case states per operand what the check must conclude: exact ('='),
 * covering only ('s': the map over-approximates the reads, see verify.h;
 * 'x': under --xla-compat only), exact after dropping results outside the
 * update ('c': the update of dynamic-update-slice), no reference ('-'), or
 * unknown for some outputs and exact for the others ('u': a while's changed
 * state). The checker decides this by
 * itself from the ops; the test requires it to agree with the declared
 * mode, so a regression that made a map exact-but-wrong or turned an exact
 * comparison into a covering one fails here. Every case is also run with
 * --physical and --physical=tiled maps (converted back by the checker).
 *
 * The cases of own_cases (gather and scatter in general form,
 * bitcast-convert across widths) have rules in hloidx's semantics only and
 * run there only; their runtime variables are bound in verify.c's worlds.
 *
 * One XLA inexactness is not enumerated under --xla-compat: gather indices
 * that are an iota are folded without clamping
 * (FusionWithRTVarsSimplification_Iota), so batch rows beyond the clamped
 * range index past the operand; the shared cases keep iota values inside
 * the range, where the fold is exact (verify.c skips the others; hloidx's
 * own rule clamps: "gather iota beyond the clamp"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "test_util.h"
#include "verify.h"
#include "indexing_cases.h"


static int n_cases, n_compared;
static bool compat; /* --xla-compat semantics */

static int out_rank(const hlo_instr *in, uint32_t k) {
  const hlo_shape *s = in->shape->type == HLO_TUPLE ? in->shape->elems[k] : in->shape;
  return s->type == HLO_TUPLE ? 0 : s->rank;
}

/* 's': the map over-approximates in both semantics, 'x': under --xla-compat only */
static bool covering(char mode) { return mode == 's' || (mode == 'x' && compat); }

static char mode_of(const enum_case *t, int k) {
  if (!t->modes || k >= (int)strlen(t->modes)) return '=';
  return t->modes[k];
}

static const char *status_name(vf_status s) {
  static const char *const names[] = {"ok", "MISMATCH", "unknown", "too large", "no reference"};
  return names[s];
}

typedef ii_status (*query_fn)(ii_ctx *, const hlo_instr *, int64_t, ii_indexing *, ii_error *);

static void run_layout(ii_ctx *c, const enum_case *t, const hlo_instr *in, vf_layout l, const char *lname) {
  static const query_fn o2i[] = {ii_o2i, ii_o2i_physical, ii_o2i_tiled};
  static const query_fn i2o[] = {ii_i2o, ii_i2o_physical, ii_i2o_tiled};
  for (int64_t out_id = 0; out_id < ii_num_outputs(in); out_id++) {
    ii_ctx_reset(c);
    ii_indexing x;
    ii_error err;
    ii_status st = o2i[l](c, in, out_id, &x, &err);
    CHECK(st == II_OK, "%s (%s): o2i fails: %s", t->name, lname, err.message);
    if (st != II_OK) break;
    for (int k = 0; k < in->n_operands; k++) {
      char mode = mode_of(t, k);
      vf_result r;
      vf_check_o2i(c, in, out_id, (uint32_t)k, &x.sets[k], l, 0, &r);
      n_compared++;
      if (mode == '-') {
        CHECK(r.status == VF_SKIP_NO_REFERENCE, "%s (%s): out2in output %lld operand %d: expected no reference, got %s: %s",
              t->name, lname, (long long)out_id, k, status_name(r.status), r.message);
        continue;
      }
      if (mode == 'u' && r.status == VF_SKIP_UNKNOWN) continue;
      CHECK(r.status == VF_OK, "%s (%s): out2in output %lld operand %d: %s: %s", t->name, lname, (long long)out_id, k,
            status_name(r.status), r.message);
      CHECK(r.covering == covering(mode), "%s (%s): out2in operand %d: the checker compared %s, the case says '%c'",
            t->name, lname, k, r.covering ? "coverage only" : "exactly", mode);
    }
  }
  /* in2out: XLA's rules where XLA has one (i2o), hloidx's inverses of
   * every out2in map in its own semantics */
  for (int k = 0; (t->i2o || !compat) && k < in->n_operands; k++) {
    const hlo_shape *xs = in->operands[k]->shape;
    char mode = mode_of(t, k);
    ii_ctx_reset(c);
    ii_indexing x;
    ii_error err;
    ii_status st = i2o[l](c, in, k, &x, &err);
    CHECK(st == II_OK, "%s (%s): i2o fails: %s", t->name, lname, err.message);
    if (st != II_OK) break;
    for (uint32_t j = 0; j < x.n; j++) {
      vf_result r;
      vf_check_i2o(c, in, k, j, &x.sets[j], l, 0, &r);
      n_compared++;
      /* XLA's in2out map of a scalar operand of an elementwise op has the
       * output's dims (§3.1); an over-approximated read is compared by
       * coverage in2out too */
      bool quirk = compat && xs->rank == 0 && out_rank(in, j) > 0 && in->op != HLO_OP_REDUCE && in->op != HLO_OP_BROADCAST;
      if (mode == 'u' && r.status == VF_SKIP_UNKNOWN) continue;
      if (quirk || mode == '-') {
        CHECK(r.status == VF_SKIP_NO_REFERENCE, "%s (%s): in2out operand %d: expected no reference, got %s", t->name,
              lname, k, status_name(r.status));
        continue;
      }
      CHECK(r.status == VF_OK && r.covering == covering(mode), "%s (%s): in2out operand %d output %u: %s%s: %s", t->name,
            lname, k, j, status_name(r.status), r.covering ? " (covering)" : "", r.message);
    }
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
  run_layout(c, t, in, VF_LOGICAL, "logical");
  run_layout(c, t, in, VF_PHYSICAL, "physical");
  run_layout(c, t, in, VF_TILED, "tiled");
  ii_ctx_end_module(c);
  hlo_parse_result_free(&pr);
  free(buf);
}

int main(void) {
  for (int sem = 0; sem < 2; sem++) {
    compat = sem == 1;
    ii_ctx *c = ii_ctx_new();
    ii_ctx_set_xla_compat(c, compat);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_case(c, &cases[i]);
    for (size_t i = 0; !compat && i < sizeof own_cases / sizeof *own_cases; i++) run_case(c, &own_cases[i]);
    ii_ctx_free(c);
  }
  printf("enum_indexing: %d cases, %d relations compared\n", n_cases, n_compared);
  return t_finish("enum_indexing");
}
