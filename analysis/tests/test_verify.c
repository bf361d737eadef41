/* verify.h finds wrong maps. The maps of small instructions are computed by
 * the analysis, checked (they must pass), then deliberately corrupted --
 * a result changed, an interval narrowed or widened, a member added, a
 * physical map permuted -- and checked again: every corruption must be
 * reported as a mismatch, with an example pair. A wrongly bound runtime
 * variable (descriptions exchanged, the class of openxla/xla#49119) must
 * be caught too. Also the skip statuses (unknown maps, no reference, a
 * point with too many symbols), sampling of a large domain and the
 * coverage-only comparison of dynamic-update-slice operand 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "test_util.h"
#include "verify.h"

typedef struct {
  hlo_parse_result pr;
  char *buf;
} module;

static const hlo_instr *parse(module *m, const char *text) {
  size_t len = strlen(text);
  m->buf = calloc(len + 64, 1);
  memcpy(m->buf, text, len);
  hlo_error err;
  if (hlo_parse_file(m->buf, len, &m->pr, &err)) {
    fprintf(stderr, "does not parse: %s at %zu\n", err.message, err.offset);
    exit(2);
  }
  return m->pr.modules[0]->entry->root;
}

static void drop(ii_ctx *c, module *m) {
  ii_ctx_end_module(c);
  hlo_parse_result_free(&m->pr);
  free(m->buf);
}

/* out2in of output 0; the set of operand k is copied so it can be changed. */
static ii_set o2i_set(ii_ctx *c, const hlo_instr *in, uint32_t k, vf_layout l) {
  ii_indexing x;
  ii_error err;
  ii_status st = l == VF_PHYSICAL ? ii_o2i_physical(c, in, 0, &x, &err) : ii_o2i(c, in, 0, &x, &err);
  if (st != II_OK) {
    fprintf(stderr, "analysis fails: %s\n", err.message);
    exit(2);
  }
  return x.sets[k];
}

/* A copy of member i's map (so the set's own map is not changed). */
static imap *member_copy(ii_ctx *c, ii_set *s, uint32_t i) {
  ii_operand *x = hb_arena_zalloc(ii_ctx_arena(c), sizeof *x);
  *x = *s->items[i];
  x->map = imap_copy(ii_ctx_arena(c), x->map);
  ii_operand **items = hb_arena_array(ii_ctx_arena(c), s->n, sizeof *items);
  memcpy(items, s->items, s->n * sizeof *items);
  items[i] = x;
  s->items = items;
  return x->map;
}

static vf_result check(ii_ctx *c, const hlo_instr *in, uint32_t k, const ii_set *s, vf_layout l) {
  vf_result r;
  vf_check_o2i(c, in, 0, k, s, l, 0, &r);
  return r;
}

#define EXPECT(r, st, what)                                                                                    \
  CHECK((r).status == (st), "%s: status %d, expected %d (%s)", (what), (int)(r).status, (int)(st), (r).message)

int main(void) {
  ii_ctx *c = ii_ctx_new();
  ae_ctx *ax = ii_ctx_ae(c);
  module m;

  /* 1. slice: the map is (d0) -> (d0 * 5 + 2) over [0, 2] */
  const hlo_instr *in = parse(&m, "HloModule m\nENTRY e {\n a = f32[20] parameter(0)\n"
                                   " ROOT r = f32[3] slice(a), slice={[2:17:5]}\n}\n");
  ii_set s = o2i_set(c, in, 0, VF_LOGICAL);
  vf_result r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_OK, "slice as computed");
  CHECK(r.pairs == 3 && r.points == 3, "slice: %llu pairs, %llu points", (unsigned long long)r.pairs,
        (unsigned long long)r.points);
  /* a result shifted by one: every pair is wrong */
  ii_set bad = s;
  imap *bm = member_copy(c, &bad, 0);
  imap_set_result(bm, 0, ae_add_const(ax, bm->results[0], 1));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "slice with start 3 instead of 2");
  CHECK(strstr(r.message, "3 of the 3 pairs the op reads are not in the maps, e.g. [0] -> [2]") != NULL, "message: %s",
        r.message);
  /* a narrowed dimension interval: one pair missing */
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_dim_interval(bm, 0, iv_make(0, 1));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "slice over [0, 1]");
  CHECK(strstr(r.message, "1 of the 3 pairs the op reads are not in the maps, e.g. [2] -> [12]") != NULL, "message: %s",
        r.message);
  /* a widened interval: the map reads past the operand */
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_dim_interval(bm, 0, iv_make(0, 3));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "slice over [0, 3]");
  CHECK(strstr(r.message, "not an element of the indexed-from tensor") != NULL, "message: %s", r.message);
  /* an extra member: pairs the op does not read */
  bad = s;
  ii_operand *extra = hb_arena_zalloc(ii_ctx_arena(c), sizeof *extra);
  extra->map = imap_copy(ii_ctx_arena(c), s.items[0]->map);
  imap_set_result(extra->map, 0, ae_add_const(ax, extra->map->results[0], 1));
  ii_set two = {0};
  ii_set_insert(c, &two, s.items[0]);
  ii_set_insert(c, &two, extra);
  r = check(c, in, 0, &two, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "slice with a second member");
  CHECK(strstr(r.message, "3 of the 6 pairs of the maps are not read by the op, e.g. [0] -> [3]") != NULL,
        "message: %s", r.message);
  drop(c, &m);

  /* 2. reduce: ()[s0] -> (s0) over s0 in [0, 3]; narrowing s0 loses a pair,
   * a constraint on it loses more */
  in = parse(&m, "HloModule m\nadd { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
                 "ENTRY e {\n x = f32[3,4] parameter(0)\n c = f32[] parameter(1)\n"
                 " ROOT r = f32[3] reduce(x, c), dimensions={1}, to_apply=add\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  EXPECT(check(c, in, 0, &s, VF_LOGICAL), VF_OK, "reduce as computed");
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_sym_interval(bm, 0, iv_make(0, 2));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "reduce over s0 in [0, 2]");
  CHECK(strstr(r.message, "3 of the 12 pairs") != NULL, "message: %s", r.message);
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_add_constraint(bm, ae_mod_const(ax, ae_sym(ax, 0), 2), iv_point(0));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "reduce with s0 mod 2 in [0, 0]");
  CHECK(strstr(r.message, "6 of the 12 pairs") != NULL, "message: %s", r.message);
  drop(c, &m);

  /* 3. transpose of a square: swapping the results reads every element,
   * but not for the right output element */
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[3,3] parameter(0)\n"
                 " ROOT r = f32[3,3] transpose(a), dimensions={1,0}\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  EXPECT(check(c, in, 0, &s, VF_LOGICAL), VF_OK, "transpose as computed");
  bad = s;
  bm = member_copy(c, &bad, 0);
  const ae *r0 = bm->results[0];
  imap_set_result(bm, 0, bm->results[1]);
  imap_set_result(bm, 1, r0);
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "transpose read as the identity");
  CHECK(strstr(r.message, "6 of the 9 pairs the op reads are not in the maps, e.g. [0,1] -> [1,0]") != NULL,
        "message: %s", r.message);
  /* physical maps: a copy between layouts; the checker converts back */
  drop(c, &m);
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[2,3]{0,1} parameter(0)\n ROOT r = f32[2,3]{1,0} copy(a)\n}\n");
  s = o2i_set(c, in, 0, VF_PHYSICAL);
  EXPECT(check(c, in, 0, &s, VF_PHYSICAL), VF_OK, "physical copy as computed");
  /* the physical map (d0, d1) -> (d1, d0); checked as if it were logical
   * it does not even have the operand's shape */
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "physical map checked as logical");
  drop(c, &m);

  /* 4. dynamic-update-slice: operand 0 is compared by coverage (XLA maps
   * the whole base); a map that misses base elements is still wrong */
  in = parse(&m, "HloModule m\nENTRY e {\n b = f32[6] parameter(0)\n u = f32[2] parameter(1)\n i = s32[] parameter(2)\n"
                 " ROOT r = f32[6] dynamic-update-slice(b, u, i)\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_OK, "dynamic-update-slice operand 0");
  CHECK(r.covering, "dynamic-update-slice operand 0 is compared by coverage");
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_dim_interval(bm, 0, iv_make(1, 5));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "dynamic-update-slice operand 0 missing element 0");
  /* operand 1: d0 - rt0, exact once results outside the update are dropped */
  ii_set s1 = o2i_set(c, in, 1, VF_LOGICAL);
  r = check(c, in, 1, &s1, VF_LOGICAL);
  EXPECT(r, VF_OK, "dynamic-update-slice operand 1");
  CHECK(!r.covering, "dynamic-update-slice operand 1 is compared exactly");
  bad = s1;
  bm = member_copy(c, &bad, 0);
  imap_set_sym_interval(bm, 0, iv_make(0, 3));
  r = check(c, in, 1, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "dynamic-update-slice operand 1 with rt0 in [0, 3]");
  drop(c, &m);

  /* 5. runtime bindings: ds2(reverse(ds(x, a)), b) reads x[-d0 - b' + a' + 5];
   * the map is (d0){rt0, rt1} -> (-d0 - rt1 + rt0 + 5) with rt0 = a in
   * [0, 4], rt1 = b in [0, 3]. Exchanging the two descriptions (XLA's
   * list-order mistake) leaves the union of all values unchanged, but
   * not the element read for given values of a and b. */
  in = parse(&m, "HloModule m\nf {\n x = f32[10] parameter(0)\n a = s32[] parameter(1)\n b = s32[] parameter(2)\n"
                 " d1 = f32[6] dynamic-slice(x, a), dynamic_slice_sizes={6}\n r = f32[6] reverse(d1), dimensions={0}\n"
                 " ROOT d2 = f32[3] dynamic-slice(r, b), dynamic_slice_sizes={3}\n}\n"
                 "ENTRY e {\n x = f32[10] parameter(0)\n a = s32[] parameter(1)\n b = s32[] parameter(2)\n"
                 " ROOT fusion = f32[3] fusion(x, a, b), kind=kLoop, calls=f\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  CHECK(s.n == 1 && s.items[0]->nrt == 2, "ds_reverse_ds: %u members", s.n);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_OK, "ds_reverse_ds as computed");
  CHECK(r.worlds == VF_WORLDS, "ds_reverse_ds: bindings checked in %u worlds", r.worlds);
  bad = s;
  member_copy(c, &bad, 0);
  ii_operand *swapped = bad.items[0];
  ii_rtvar *rts = hb_arena_array(ii_ctx_arena(c), 2, sizeof *rts);
  rts[0] = swapped->rt[1];
  rts[1] = swapped->rt[0];
  swapped->rt = rts;
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "ds_reverse_ds with rt0 described as b");
  CHECK(strstr(r.message, "runtime values of world") != NULL, "message: %s", r.message);
  /* a description reading the wrong element of its instruction */
  bad = s;
  member_copy(c, &bad, 0);
  rts = hb_arena_array(ii_ctx_arena(c), 2, sizeof *rts);
  rts[0] = bad.items[0]->rt[0];
  rts[1] = bad.items[0]->rt[1];
  rts[0].instr = rts[1].instr;
  bad.items[0]->rt = rts;
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "ds_reverse_ds with both variables described as b");
  drop(c, &m);

  /* 6. skips */
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[4] parameter(0)\n"
                 " ROOT r = f32[4] custom-call(a), custom_call_target=\"foo\"\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  EXPECT(check(c, in, 0, &s, VF_LOGICAL), VF_SKIP_UNKNOWN, "custom-call foo: unknown indexing");
  drop(c, &m);
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[1024,1024] parameter(0)\n ROOT r = f32[1024,1024] negate(a)\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_OK, "a 2^20-point domain, sampled");
  CHECK(r.sampled && r.samples == VF_SAMPLES && r.population == 1024 * 1024 && r.seed == 0,
        "sampled %d: %llu of %llu", r.sampled, (unsigned long long)r.samples, (unsigned long long)r.population);
  /* a sample finds a wrong map: d1 + 1 reads outside for d1 = 1023, d1 -> d1 + 1 elsewhere */
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_result(bm, 1, ae_add_const(ax, bm->results[1], 1));
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "a 2^20-point domain, sampled, one result shifted");
  drop(c, &m);
  /* in2out of a broadcast into 2^20 elements: each operand element feeds
   * 1024 of them; sampled from drawn outputs and operand elements */
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[1024] parameter(0)\n"
                 " ROOT r = f32[1024,1024] broadcast(a), dimensions={1}\n}\n");
  ii_indexing xi;
  ii_error ierr;
  CHECK(ii_i2o(c, in, 0, &xi, &ierr) == II_OK, "broadcast in2out: %s", ierr.message);
  s = xi.sets[0];
  vf_check_i2o(c, in, 0, 0, &s, VF_LOGICAL, 0, &r);
  EXPECT(r, VF_OK, "broadcast in2out, sampled");
  CHECK(r.sampled && r.samples > 0 && r.population == 1024, "sampled %d: %llu of %llu", r.sampled,
        (unsigned long long)r.samples, (unsigned long long)r.population);
  /* the operand element feeding the column next to its own */
  bad = s;
  bm = member_copy(c, &bad, 0);
  imap_set_result(bm, 1, ae_mod_const(ax, ae_add_const(ax, bm->results[1], 1), 1024));
  vf_check_i2o(c, in, 0, 0, &bad, VF_LOGICAL, 0, &r);
  EXPECT(r, VF_MISMATCH, "broadcast in2out, sampled, one column over");
  drop(c, &m);
  /* one output element with 90000 range points: too many to enumerate even once */
  in = parse(&m, "HloModule m\nadd { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
                 "ENTRY e {\n x = f32[300,300] parameter(0)\n c = f32[] parameter(1)\n"
                 " ROOT r = f32[] reduce(x, c), dimensions={0,1}, to_apply=add\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_SKIP_TOO_LARGE, "a 90000-point element");
  CHECK(strstr(r.message, "points per element") != NULL, "message: %s", r.message);
  drop(c, &m);
  in = parse(&m, "HloModule m\nENTRY e {\n a = (f32[4], f32[2]) parameter(0)\n"
                 " ROOT r = f32[2] get-tuple-element(a), index=1\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_OK, "get-tuple-element: element 1 of the tuple");
  bad = s;
  bad.elem = 0;
  r = check(c, in, 0, &bad, VF_LOGICAL);
  EXPECT(r, VF_MISMATCH, "get-tuple-element with maps into element 0");

  drop(c, &m);
  ii_ctx_free(c);
  return t_finish("verify");
}
