/* verify.h finds wrong maps. The maps of small instructions are computed by
 * the analysis, checked (they must pass), then deliberately corrupted --
 * a result changed, an interval narrowed or widened, a member added, a
 * physical map permuted -- and checked again: every corruption must be
 * reported as a mismatch, with an example pair. Also the skip statuses
 * (unknown maps, no reference, domain too large) and the coverage-only
 * comparison of dynamic-update-slice operand 0. */
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
  ii_operand *x = arena_zalloc(ii_ctx_arena(c), sizeof *x);
  *x = *s->items[i];
  x->map = imap_copy(ii_ctx_arena(c), x->map);
  ii_operand **items = arena_array(ii_ctx_arena(c), s->n, sizeof *items);
  memcpy(items, s->items, s->n * sizeof *items);
  items[i] = x;
  s->items = items;
  return x->map;
}

static vf_result check(ii_ctx *c, const hlo_instr *in, uint32_t k, const ii_set *s, vf_layout l) {
  vf_result r;
  vf_check_o2i(c, in, 0, k, s, l, &r);
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
  ii_operand *extra = arena_zalloc(ii_ctx_arena(c), sizeof *extra);
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

  /* 5. skips */
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[4] parameter(0)\n"
                 " ROOT r = f32[4] custom-call(a), custom_call_target=\"foo\"\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  EXPECT(check(c, in, 0, &s, VF_LOGICAL), VF_SKIP_UNKNOWN, "custom-call foo: unknown indexing");
  drop(c, &m);
  in = parse(&m, "HloModule m\nENTRY e {\n a = f32[1024,1024] parameter(0)\n ROOT r = f32[1024,1024] negate(a)\n}\n");
  s = o2i_set(c, in, 0, VF_LOGICAL);
  r = check(c, in, 0, &s, VF_LOGICAL);
  EXPECT(r, VF_SKIP_TOO_LARGE, "a 2^20-point domain");
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
