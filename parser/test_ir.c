/* Unit test of the IR contract (hlo_ir.h): parses small modules and checks
 * the structures the analysis reads. Run by CTest as parser/ir. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "hlo_ir.h"
#include "intern.h"
#include "test_check.h"

static hlo_parse_result parse_ok(const char *text) {
  hlo_parse_result r;
  hlo_error err;
  if (hlo_parse_file(text, strlen(text), &r, &err)) {
    fprintf(stderr, "unexpected error at %zu: %s\n", err.offset, err.message);
    exit(1);
  }
  return r;
}

static hlo_instr *find(const hlo_module *m, const char *comp, const char *name) {
  hlo_computation *c = comp ? hlo_module_find_computation(m, comp) : m->entry;
  hlo_instr *in = c ? hlo_computation_find_instr(c, name) : NULL;
  if (!in) {
    fprintf(stderr, "no instruction %s\n", name);
    exit(1);
  }
  return in;
}

static bool ints_are(hlo_ints l, int n, const int64_t *v) {
  if (l.n != n) return false;
  for (int i = 0; i < n; i++)
    if (l.v[i] != v[i]) return false;
  return true;
}

static void test_shapes_and_layouts(void) {
  hlo_parse_result r = parse_ok(
      "HloModule shapes, entry_computation_layout={(f32[8,128]{0,1}, bf16[4,6,10]{2,1,0}, f32[3,4,5]{2,1,0}, "
      "s32[2,<=3,?]{2,1,0}, u32[], /*index=5*/((f32[2]{0}, ()), token[]))->(f32[], s32[2,<=3,?]{2,1,0})}\n"
      "ENTRY e (p: f32[8,128]) -> (f32[], s32[2,<=3,?]) {\n"
      "  p = f32[8,128]{0,1:T(8,128)(2,1)L(1024)#(u16)*(u32)E(4)S(1)SC(0:1,2)M(8)} parameter(0)\n"
      "  t = bf16[4,6,10]{2,1,0:T(*,*,2,*,3)} parameter(1)\n"
      "  d = f32[3,4,5] parameter(2)\n"
      "  c = f32[] constant(1)\n"
      "  x = s32[2,<=3,?] parameter(3)\n"
      "  u = u32[]{:S(2)} parameter(4)\n"
      "  n = ((f32[2]{0}, ()), token[]) parameter(5)\n"
      "  ROOT r = (f32[], s32[2,<=3,?]) tuple(c, x)\n"
      "}\n");
  hlo_module *m = r.modules[0];
  const hlo_shape *p = find(m, NULL, "p")->shape;
  CHECK(p->type == HLO_F32 && p->rank == 2 && p->dims[0] == 8 && p->dims[1] == 128);
  const hlo_layout *L = &p->layout;
  CHECK(L->explicit_layout);
  CHECK(L->n_minor_to_major == 2 && L->minor_to_major[0] == 0 && L->minor_to_major[1] == 1);
  CHECK(L->n_tiles == 2 && L->tiles[0].n_dims == 2 && L->tiles[0].dims[0] == 8 && L->tiles[0].dims[1] == 128);
  CHECK(L->tiles[1].dims[0] == 2 && L->tiles[1].dims[1] == 1);
  CHECK(L->tail_padding_alignment == 1024 && L->element_size_bits == 4 && L->memory_space == 1);
  CHECK(L->index_primitive_type == HLO_U16 && L->pointer_primitive_type == HLO_U32);
  CHECK(L->n_split_configs == 1 && L->split_configs[0].dimension == 0 && L->split_configs[0].offsets.n == 2);
  CHECK(L->dynamic_shape_metadata_prefix_bytes == 8 && L->physical_shape == NULL);
  char buf[200];
  hlo_shape_format(p, buf, sizeof buf);
  CHECK(strcmp(buf, "f32[8,128]{0,1:T(8,128)(2,1)L(1024)#(u16)*(u32)E(4)S(1)SC(0:1,2)M(8)}") == 0);

  const hlo_layout *T = &find(m, NULL, "t")->shape->layout;
  CHECK(T->n_tiles == 1 && T->tiles[0].n_dims == 5 && T->tiles[0].dims[0] == HLO_TILE_COMBINE &&
        T->tiles[0].dims[2] == 2 && T->tiles[0].dims[4] == 3);

  const hlo_shape *d = find(m, NULL, "d")->shape;
  CHECK(!d->layout.explicit_layout && d->layout.n_minor_to_major == 3);
  CHECK(d->layout.minor_to_major[0] == 2 && d->layout.minor_to_major[1] == 1 && d->layout.minor_to_major[2] == 0);
  CHECK(d->layout.tail_padding_alignment == 1 && d->layout.n_tiles == 0);
  CHECK(hlo_shape_elements(d) == 60);

  const hlo_shape *x = find(m, NULL, "x")->shape;
  CHECK(x->rank == 3 && !x->dynamic[0] && x->dynamic[1] && x->dims[1] == 3 && !x->unbounded[1]);
  CHECK(x->dynamic[2] && x->unbounded[2] && x->dims[2] == HLO_DIM_UNBOUNDED);

  const hlo_shape *u = find(m, NULL, "u")->shape;
  CHECK(u->rank == 0 && u->layout.memory_space == 2 && u->layout.n_minor_to_major == 0);

  const hlo_shape *n = find(m, NULL, "n")->shape;
  CHECK(n->type == HLO_TUPLE && n->n_elems == 2 && n->elems[1]->type == HLO_TOKEN);
  CHECK(n->elems[0]->type == HLO_TUPLE && n->elems[0]->n_elems == 2 && n->elems[0]->elems[1]->n_elems == 0);

  CHECK(m->has_entry_layout && m->n_entry_params == 6 && m->entry_params[0]->layout.minor_to_major[0] == 0);
  CHECK(m->entry_result->type == HLO_TUPLE && m->entry_result->n_elems == 2);
  CHECK(m->entry->n_params == 6 && m->entry->params[3] == find(m, NULL, "x"));
  CHECK(m->entry->signature_result && m->entry->signature_result->type == HLO_TUPLE);

  CHECK(hlo_elem_type_bits(HLO_PRED) == 8 && hlo_elem_type_bits(HLO_S4) == 4 && hlo_elem_type_bits(HLO_C64) == 64);
  CHECK(hlo_elem_type_bits(HLO_F4E2M1FN) == 4 && hlo_elem_type_bits(HLO_TOKEN) == 0);
  CHECK(strcmp(hlo_elem_type_name(HLO_F8E4M3B11FNUZ), "f8e4m3b11fnuz") == 0);
  hlo_parse_result_free(&r);
}

static void test_constants(void) {
  hlo_parse_result r = parse_ok(
      "ENTRY e {\n"
      "  a = s32[] constant(99)\n"
      "  b = f32[] constant(0.5)\n"
      "  c = f32[] constant(-inf)\n"
      "  d = pred[] constant(true)\n"
      "  e = u64[] constant(18446744073709551615)\n"
      "  f = c64[] constant((1, -2))\n"
      "  g = f32[2,3] constant({ { 1, 2, 3 }, { 4, 5, 6 } })\n"
      "  h = f32[67,89] constant({...})\n"
      "  ROOT t = (s32[], f32[]) tuple(a, b)\n"
      "}\n");
  hlo_module *m = r.modules[0];
  int64_t v;
  double fv;
  const char *txt;
  size_t len;
  CHECK(hlo_constant_scalar_int(find(m, NULL, "a"), &v) && v == 99);
  CHECK(hlo_constant_scalar_text(find(m, NULL, "a"), &txt, &len) && len == 2 && memcmp(txt, "99", 2) == 0);
  CHECK(hlo_constant_scalar_double(find(m, NULL, "b"), &fv) && fv == 0.5);
  CHECK(hlo_constant_scalar_text(find(m, NULL, "b"), &txt, &len) && len == 3 && memcmp(txt, "0.5", 3) == 0);
  CHECK(hlo_constant_scalar_double(find(m, NULL, "c"), &fv) && isinf(fv) && fv < 0);
  CHECK(hlo_constant_scalar_text(find(m, NULL, "c"), &txt, &len) && len == 4 && memcmp(txt, "-inf", 4) == 0);
  CHECK(hlo_constant_scalar_int(find(m, NULL, "d"), &v) && v == 1);
  CHECK(hlo_constant_scalar_int(find(m, NULL, "e"), &v) && v == -1);
  CHECK(hlo_constant_scalar_text(find(m, NULL, "f"), &txt, &len) && len == 7 && memcmp(txt, "(1, -2)", 7) == 0);
  const hlo_instr *g = find(m, NULL, "g");
  CHECK(!hlo_constant_scalar_int(g, &v) && g->cold->literal->n_elements == 6 && !g->cold->literal->elided);
  CHECK(find(m, NULL, "h")->cold->literal->elided);
  /* no HloModule line: module_<entry> */
  CHECK(strcmp(m->name, "module_e") == 0);
  hlo_parse_result_free(&r);
}

static void test_instructions(void) {
  hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = true}); /* frobnicate, some_new_attr */
  hlo_parse_result r = parse_ok(
      "HloModule ops\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "fused { p0 = f32[10,20] parameter(0)\n ROOT neg = f32[10,20] negate(p0) }\n"
      "ENTRY main {\n"
      "  p = f32[10,20] parameter(0)\n"
      "  i = s32[5,1] parameter(1)\n"
      "  k = f32[3,20,30] parameter(2)\n"
      "  sl = f32[4,10] slice(p), slice={[2:10:2], [0:20:2]}\n"
      "  zero = f32[] constant(0)\n"
      "  pd = f32[9,24] pad(p, zero), padding=-1_0x2_2_0\n"
      "  rw = f32[5,10] reduce-window(p, zero), window={size=2x2 stride=2x2}, to_apply=add\n"
      "  cv = f32[1,8,8,4] parameter(3)\n"
      "  w = f32[3,3,4,16] parameter(4)\n"
      "  conv = f32[1,8,8,16] convolution(cv, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
      "  dt = f32[10,3,30] dot(p, k), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n"
      "  ga = f32[5,20] gather(p, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,20}\n"
      "  f = f32[10,20] fusion(p), kind=kLoop, calls=fused, control-predecessors={sl}\n"
      "  ar = f32[10,20] all-reduce(p), channel_id=3, replica_groups=[2,4]<=[4,2]T(1,0), to_apply=add\n"
      "  cc = f32[10,20] custom-call(p), custom_call_target=\"my\\\"target\", backend_config={\"a\":{\"b\":1}}\n"
      "  st = ((f32[10,20]), f32[10,20], s32[]) custom-call-start(p), custom_call_target=\"x\"\n"
      "  sd = f32[10,20] custom-call-done(st)\n"
      "  un = f32[10,20] frobnicate(p), some_new_attr={1, 2}\n"
      "  an = f32[10,20] add(p, negate(p))\n"
      "  ROOT out = (f32[4,10], f32[9,24]) tuple(sl, pd), metadata={op_name=\"x\"}, sharding={replicated}\n"
      "}\n");
  hlo_module *m = r.modules[0];
  CHECK(strcmp(m->name, "ops") == 0 && m->n_computations == 3 && m->entry == m->computations[2]);
  CHECK(m->entry->is_entry && !m->entry->entry_marked == false);
  const hlo_instr *sl = find(m, NULL, "sl");
  CHECK(sl->cold->ext->has_slice && sl->cold->ext->n_slice == 2 && sl->cold->ext->slice[0].start == 2 &&
        sl->cold->ext->slice[0].limit == 10 && sl->cold->ext->slice[0].stride == 2);
  const hlo_instr *pd = find(m, NULL, "pd");
  CHECK(pd->cold->ext->has_padding && pd->cold->ext->n_padding == 2 && pd->cold->ext->padding[0].lo == -1 &&
        pd->cold->ext->padding[1].hi == 2 && pd->cold->ext->padding[1].interior == 0);
  const hlo_instr *rw = find(m, NULL, "rw");
  CHECK(rw->cold->ext->has_window && rw->cold->ext->n_window == 2 && rw->cold->ext->window[1].size == 2 &&
        rw->cold->ext->window[1].stride == 2 && rw->cold->ext->window[0].lhs_dilate == 1 &&
        rw->cold->ext->window[0].pad_lo == 0);
  CHECK(rw->cold->n_called == 1 && rw->cold->called_role[0] == HLO_CALL_TO_APPLY &&
        rw->cold->called[0] == m->computations[0]);
  const hlo_instr *conv = find(m, NULL, "conv");
  const hlo_conv_dims *cd = conv->cold->ext->conv_dims;
  CHECK(cd && cd->n_spatial == 2 && cd->input_batch == 0 && cd->input_feature == 3 && cd->input_spatial[1] == 2);
  CHECK(cd->kernel_input_feature == 2 && cd->kernel_output_feature == 3 && cd->output_feature == 3);
  CHECK(conv->cold->ext->window[0].pad_lo == 1 && conv->cold->ext->feature_group_count == 1 &&
        conv->cold->ext->batch_group_count == 1);
  const hlo_instr *dt = find(m, NULL, "dt");
  static const int64_t one[] = {1};
  CHECK(dt->cold->ext->dot && ints_are(dt->cold->ext->dot->lhs_contracting, 1, one) &&
        ints_are(dt->cold->ext->dot->rhs_contracting, 1, one) && dt->cold->ext->dot->lhs_batch.n == 0);
  const hlo_instr *ga = find(m, NULL, "ga");
  CHECK(ga->cold->ext->gather && ga->cold->ext->gather->index_vector_dim == 1 &&
        ga->cold->ext->gather->slice_sizes.n == 2 && ga->cold->ext->gather->slice_sizes.v[1] == 20);
  const hlo_instr *f = find(m, NULL, "f");
  CHECK(f->cold->fusion_kind == HLO_FUSION_LOOP && f->cold->n_called == 1 && f->cold->called[0] == m->computations[1]);
  CHECK(f->cold->ext->n_control_predecessors == 1 && f->cold->ext->control_predecessors[0] == sl);
  const hlo_instr *ar = find(m, NULL, "ar");
  CHECK(ar->cold->ext->has_channel_id && ar->cold->ext->channel_id == 3 && ar->cold->ext->replica_groups &&
        ar->cold->ext->replica_groups->iota);
  CHECK(ar->cold->ext->replica_groups->iota_n_groups == 2 && ar->cold->ext->replica_groups->iota_group_size == 4 &&
        ar->cold->ext->replica_groups->iota_transpose.n == 2 &&
        ar->cold->ext->replica_groups->iota_transpose.v[0] == 1);
  const hlo_instr *cc = find(m, NULL, "cc");
  CHECK(cc->cold->ext->custom_call_target && strcmp(cc->cold->ext->custom_call_target, "my\"target") == 0);
  const hlo_attr *bc = hlo_instr_find_attr(cc, "backend_config");
  CHECK(bc && bc->value_len == 13 && memcmp(bc->value, "{\"a\":{\"b\":1}}", 13) == 0);
  const hlo_instr *st = find(m, NULL, "st"), *sd = find(m, NULL, "sd");
  CHECK(st->op == HLO_OP_ASYNC_START && st->cold->async_wrapped == HLO_OP_CUSTOM_CALL);
  CHECK(sd->op == HLO_OP_ASYNC_DONE && sd->cold->async_wrapped == HLO_OP_CUSTOM_CALL && sd->operands[0] == st);
  CHECK(strcmp(hlo_instr_opcode_text(st), "custom-call-start") == 0 &&
        strcmp(sd->cold->ext->async_execution_thread, "main") == 0);
  const hlo_instr *un = find(m, NULL, "un");
  CHECK(un->op == HLO_OP_UNKNOWN && strcmp(hlo_instr_opcode_text(un), "frobnicate") == 0 && un->cold->n_attrs == 1);
  CHECK(strcmp(un->cold->attrs[0].name, "some_new_attr") == 0 && un->cold->attrs[0].value_len == 6);
  hlo_parse_set_options(&(hlo_parse_options){0});
  CHECK(m->n_warnings == 2 && strstr(m->warnings[0].message, "unknown opcode 'frobnicate'") &&
        strstr(m->warnings[1].message, "unknown attribute 'some_new_attr'") &&
        m->warnings[0].offset < m->warnings[1].offset);
  /* nested operand: named <opcode>.anon and placed before its user */
  const hlo_instr *an = find(m, NULL, "an"), *neg = find(m, NULL, "negate.anon");
  CHECK(an->operands[1] == neg && neg->index == an->index - 1 && neg->parent == m->entry);
  const hlo_instr *out = find(m, NULL, "out");
  CHECK(out->is_root && out->root_marked && m->entry->root == out && out->cold->n_attrs == 2);
  CHECK(strcmp(out->cold->attrs[0].name, "metadata") == 0 && strcmp(out->cold->attrs[1].name, "sharding") == 0);
  CHECK(out->shape->elems[0] == sl->shape || hlo_shape_compatible(out->shape->elems[0], sl->shape));
  /* parameters without attributes share the default cold fields; the
   * opcode text is then the opcode's name */
  CHECK(find(m, NULL, "p")->cold == &hlo_instr_cold_none && find(m, NULL, "i")->cold == &hlo_instr_cold_none);
  CHECK(strcmp(hlo_instr_opcode_text(find(m, NULL, "i")), "parameter") == 0 &&
        find(m, NULL, "i")->parameter_number == 1);
  CHECK(out->cold != &hlo_instr_cold_none && neg->cold == &hlo_instr_cold_none);
  CHECK(hlo_computation_find_instr(m->entry, "nope") == NULL);
  hlo_parse_result_free(&r);
}

static void test_modules_and_errors(void) {
  const char *two =
      "// RUN: tool %s\n"
      "HloModule first\n"
      "ENTRY e { ROOT p = f32[] parameter(0) }\n"
      "// -----\n"
      "a { ROOT q = s32[2] parameter(0) }\n"
      "b { ROOT z = s32[2] parameter(0) }\n"
      "// -----\n";
  hlo_parse_result r = parse_ok(two);
  CHECK(r.n_modules == 2 && strcmp(r.modules[0]->name, "first") == 0);
  CHECK(r.modules[1]->entry == r.modules[1]->computations[1] && strcmp(r.modules[1]->name, "module_b") == 0);
  CHECK(r.modules[1]->offset == (size_t)(strstr(two, "a {") - two));
  hlo_parse_result_free(&r);

  const char *bad = "HloModule m\nENTRY e {\n  ROOT p = f32[2,3} parameter(0)\n}\n";
  hlo_error err;
  CHECK(hlo_parse_file(bad, strlen(bad), &r, &err) == 1 && r.n_modules == 0);
  CHECK(err.offset == (size_t)(strchr(bad, '}') - bad));
  CHECK(strcmp(err.message, "expected ',' or ']' in dimensions, found '}'") == 0);
}

/* dimensions=, index=, slice= and kind= are read from their bytes when
 * written plainly (plain_value in hlo_attrs.c), by the value reader
 * otherwise: both must give the same values, and a value that is not
 * plain (a trailing ',' included) must get the reader's message. */
static void test_plain_values(void) {
  hlo_parse_result r = parse_ok(
      "HloModule plain\n"
      "fc { x = f32[2,3] parameter(0)\n ROOT y = f32[2,3] negate(x) }\n"
      "ENTRY e {\n"
      "  p = (f32[2,3], f32[3]) parameter(0)\n"
      "  a = f32[2,3] get-tuple-element(p), index=0\n"
      "  b = f32[3] get-tuple-element(p), index= 1\n"
      "  c = f32[3] get-tuple-element(p), index=/*one*/1\n"
      "  d = f32[3] get-tuple-element(p), index=0000000000000000001\n"
      "  t = f32[3,2] transpose(a), dimensions={1,0}\n"
      "  u = f32[3,2] transpose(a), dimensions={ 1, 0 }\n"
      "  v = f32[3,2] transpose(a), dimensions={1,0 }\n"
      "  f = f32[2,3] fusion(a), kind=kLoop, calls=fc\n"
      "  g = f32[2,3] fusion(a), kind= kOutput, calls=fc\n"
      "  h = f32[2,3] fusion(a), kind=kCustom , calls=fc\n"
      "  sa = f32[2,1] slice(a), slice={[0:2], [1:3:2]}\n"
      "  sb = f32[2,1] slice(a), slice={[0:2],[1:3:2]}\n"
      "  sc = f32[2,1] slice(a), slice={ [0:2], [1 :3:2] }\n"
      "  sd = f32[2,1] slice(a), slice={ [0:2] , [1:3:2]}\n"
      "  ROOT r = tuple(b, c, d, t, u, v, f, g, h, sa, sb, sc, sd)\n"
      "}\n");
  hlo_module *m = r.modules[0];
  CHECK(find(m, NULL, "a")->cold->has_tuple_index && find(m, NULL, "a")->cold->tuple_index == 0);
  CHECK(find(m, NULL, "b")->cold->tuple_index == 1 && find(m, NULL, "c")->cold->tuple_index == 1);
  CHECK(find(m, NULL, "d")->cold->has_tuple_index && find(m, NULL, "d")->cold->tuple_index == 1);
  static const int64_t one_zero[] = {1, 0};
  CHECK(find(m, NULL, "t")->cold->has_dimensions && ints_are(find(m, NULL, "t")->cold->dimensions, 2, one_zero));
  CHECK(ints_are(find(m, NULL, "u")->cold->dimensions, 2, one_zero) &&
        ints_are(find(m, NULL, "v")->cold->dimensions, 2, one_zero));
  CHECK(find(m, NULL, "f")->cold->fusion_kind == HLO_FUSION_LOOP &&
        find(m, NULL, "g")->cold->fusion_kind == HLO_FUSION_OUTPUT);
  CHECK(find(m, NULL, "h")->cold->fusion_kind == HLO_FUSION_CUSTOM);
  for (const char *const *sn = (const char *const[]){"sa", "sb", "sc", "sd", NULL}; *sn; sn++) {
    const hlo_instr_ext *x = find(m, NULL, *sn)->cold->ext;
    CHECK(x->has_slice && x->n_slice == 2 && x->slice[0].start == 0 && x->slice[0].limit == 2 &&
          x->slice[0].stride == 1 && x->slice[1].start == 1 && x->slice[1].limit == 3 && x->slice[1].stride == 2);
  }
  hlo_parse_result_free(&r);

  static const struct {
    const char *root, *message;
  } bad[] = {
      {"f32[2,3] get-tuple-element(p), index=-1", "expected a non-negative integer in 'index', found '-1'"},
      {"f32[2,3] get-tuple-element(p), index=1x2", "expected a non-negative integer in 'index', found '1x2'"},
      {"f32[2,3] fusion(p), calls=fc, kind=kloop",
       "expected a fusion kind (kLoop, kInput, kOutput or kCustom) in 'kind', found 'kloop'"},
      {"f32[2,3] fusion(p), calls=fc, kind=kLoops",
       "expected a fusion kind (kLoop, kInput, kOutput or kCustom) in 'kind', found 'kLoops'"},
      {"f32[3,2] transpose(q), dimensions={1,-1}", "expected a non-negative integer in 'dimensions', found '-1'"},
      {"f32[2,3] slice(q), slice={[0:2], [0:3:0]}", "slice stride must be positive"},
      {"f32[2,3] slice(q), slice={[0:2], [0:3],}", "expected '[' starting a slice range in 'slice', found '}'"},
      {"f32[2,3] slice(q), slice={[0:2],}", "expected '[' starting a slice range in 'slice', found '}'"},
      {"f32[2,3] slice(q), slice={,}", "expected '[' starting a slice range in 'slice', found ','"},
      {"f32[3,2] transpose(q), dimensions={1,0,}", "expected a non-negative integer in 'dimensions', found '}'"},
      {"f32[2,3] slice(q), slice={[0:2], [0:3:1:1]}", "expected ']' or ':' in 'slice', found ':'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[512];
    snprintf(text, sizeof text,
             "HloModule m\nfc { x = (f32[2,3]) parameter(0)\n ROOT y = f32[2,3] get-tuple-element(x), index=0 }\n"
             "ENTRY e {\n  p = (f32[2,3]) parameter(0)\n  q = f32[2,3] parameter(1)\n  ROOT a = %s\n}\n",
             bad[i].root);
    hlo_error err;
    CHECK(hlo_parse_file(text, strlen(text), &r, &err) == 1);
    if (strcmp(err.message, bad[i].message) != 0) {
      fprintf(stderr, "%s: got \"%s\"\n", bad[i].root, err.message);
      failures++;
    }
  }
}

static int drop(hlo_module *m, void *ctx) {
  (void)ctx;
  hlo_module_free(m);
  return 0;
}

/* The shape cache keeps shapes from one module to the next (shape_cache.c):
 * a later module's shapes are copies, which must equal those of the same
 * text parsed alone and live in their own module's arena (the first module
 * is freed before they are read: ASan would see a dangling pointer). */
static void test_shapes_across_modules(void) {
  const char *body =
      "ENTRY e {\n"
      "  a = f32[8,128]{0,1:T(8,128)(2,1)L(1024)#(u16)*(u32)E(4)S(1)SC(0:1,2)M(8)} parameter(0)\n"
      "  b = s32[2,<=3,?]{2,1,0} parameter(1)\n"
      "  c = f32[10,10]{1,0:D(D,C+~)P(f32[100]{0})} parameter(2)\n"
      "  d = ((f32[2]{0}, ()), token[], bf16[4,6,10]{2,1,0:T(*,*,2,*,3)}) parameter(3)\n"
      "  e = f32[8,128]{0,1:T(8,128)(2,1)L(1024)#(u16)*(u32)E(4)S(1)SC(0:1,2)M(8)} negate("
      "f32[8,128]{0,1:T(8,128)(2,1)L(1024)#(u16)*(u32)E(4)S(1)SC(0:1,2)M(8)} a)\n"
      "  ROOT t = (s32[2,<=3,?]{2,1,0}, f32[10,10]{1,0:D(D,C+~)P(f32[100]{0})}) tuple(b, c)\n"
      "}\n";
  char two[4096], one[2048];
  snprintf(two, sizeof two, "HloModule first\n%s// -----\nHloModule second\n%s", body, body);
  snprintf(one, sizeof one, "HloModule alone\n%s", body);
  hlo_parse_result r2 = parse_ok(two), r1 = parse_ok(one);
  CHECK(r2.n_modules == 2 && r1.n_modules == 1);
  hlo_module_free(r2.modules[0]);
  r2.modules[0] = NULL;
  const char *names[] = {"a", "b", "c", "d", "e", "t"};
  for (int i = 0; i < 6; i++) {
    const hlo_shape *later = find(r2.modules[1], NULL, names[i])->shape;
    const hlo_shape *alone = find(r1.modules[0], NULL, names[i])->shape;
    char fl[512], fa[512];
    hlo_shape_format(later, fl, sizeof fl);
    hlo_shape_format(alone, fa, sizeof fa);
    CHECK(hlo_shape_equal(later, alone) && strcmp(fl, fa) == 0);
  }
  hlo_parse_result_free(&r2);
  hlo_parse_result_free(&r1);

  /* An error right after a shape known from an earlier module: both drivers
   * report what the module alone would ("or '{'": a layout may follow a
   * shape read token by token), although hlo_parse_file parses the text
   * again from its start and hlo_parse_file_each from the module. */
  const char *bad = "ENTRY a {\n  ROOT p = f32[2,3] parameter(0)\n}\n// -----\n"
                    "ENTRY b {\n  ROOT p = f32[2,3] paramx: 0\n}\n";
  hlo_parse_result r;
  hlo_error e1, e2;
  CHECK(hlo_parse_file(bad, strlen(bad), &r, &e1) == 1 && hlo_parse_file_each(bad, strlen(bad), drop, NULL, &e2) == 1);
  CHECK(e1.offset == (size_t)(strstr(bad, "paramx") - bad) && e1.offset == e2.offset);
  CHECK(strcmp(e1.message, "expected name or '{' in computation body, found 'paramx:'") == 0);
  CHECK(strcmp(e1.message, e2.message) == 0);
}

/* The diagnostic parse (hlo_parse_file_grammar_only: the grammar reads
 * every shape) holds one shape per shape text of a module, as the coarse
 * parse does, and the same shapes: a text read again is the shape read
 * first, in the later module too. */
static void test_grammar_only_shapes(void) {
  const char *body =
      "ENTRY e {\n"
      "  a = f32[8,128]{0,1:T(8,128)(2,1)L(1024)S(1)} parameter(0)\n"
      "  c = f32[10,10]{1,0:D(D,C+~)P(f32[100]{0})} parameter(1)\n"
      "  d = f32[100]{0} parameter(2)\n"
      "  e = f32[8,128]{0,1:T(8,128)(2,1)L(1024)S(1)} negate(f32[8,128]{0,1:T(8,128)(2,1)L(1024)S(1)} a)\n"
      "  ROOT t = (f32[10,10]{1,0:D(D,C+~)P(f32[100]{0})}, f32[100]{0}) tuple(c, d)\n"
      "}\n";
  char two[2048];
  snprintf(two, sizeof two, "HloModule first\n%s// -----\nHloModule second\n%s", body, body);
  hlo_parse_result g, r = parse_ok(two);
  hlo_error err;
  CHECK(hlo_parse_file_grammar_only(two, strlen(two), &g, &err) == 0 && g.n_modules == 2);
  for (int k = 0; k < 2 && g.n_modules == 2; k++) {
    const hlo_module *m = g.modules[k];
    CHECK(find(m, NULL, "a")->shape == find(m, NULL, "e")->shape);
    /* (a later module copies a kept shape whole: its physical shape too) */
    CHECK(k == 1 || find(m, NULL, "d")->shape == find(m, NULL, "c")->shape->layout.physical_shape);
    CHECK(find(m, NULL, "c")->shape == find(m, NULL, "t")->shape->elems[0]);
    const char *names[] = {"a", "c", "d", "e", "t"};
    for (int i = 0; i < 5; i++) {
      const hlo_shape *gs = find(m, NULL, names[i])->shape, *rs = find(r.modules[k], NULL, names[i])->shape;
      char fg[256], fr[256];
      hlo_shape_format(gs, fg, sizeof fg);
      hlo_shape_format(rs, fr, sizeof fr);
      CHECK(hlo_shape_equal(gs, rs) && strcmp(fg, fr) == 0);
    }
  }
  if (g.n_modules == 2) hlo_parse_result_free(&g);
  hlo_parse_result_free(&r);
}

/* hlo_parse_file_each: a module borrows the parser's kept shapes, the
 * first module to read a text too (it holds no copy of its own): the
 * shapes of one text are one pointer in every module. */
static const hlo_shape *seen_shapes[2][2];
static int seen_modules;
static int record_shapes(hlo_module *m, void *ctx) {
  (void)ctx;
  if (seen_modules < 2) {
    seen_shapes[seen_modules][0] = find(m, NULL, "a")->shape;
    seen_shapes[seen_modules][1] = find(m, NULL, "b")->shape;
    seen_modules++;
  }
  hlo_module_free(m);
  return 0;
}

static void test_each_borrows_shapes(void) {
  const char *text = "HloModule one\nENTRY e {\n  a = f32[8,128]{0,1:T(8,128)} parameter(0)\n"
                     "  ROOT b = f32[8,128]{0,1:T(8,128)} negate(a)\n}\n// -----\n"
                     "HloModule two\nENTRY e {\n  a = f32[8,128]{0,1:T(8,128)} parameter(0)\n"
                     "  ROOT b = f32[8,128]{0,1:T(8,128)} negate(a)\n}\n";
  hlo_error err;
  seen_modules = 0;
  CHECK(hlo_parse_file_each(text, strlen(text), record_shapes, NULL, &err) == 0 && seen_modules == 2);
  CHECK(seen_shapes[0][0] == seen_shapes[0][1] && seen_shapes[1][0] == seen_shapes[0][0] &&
        seen_shapes[1][1] == seen_shapes[0][0]);
}

/* The intern table (intern.c) across resets: within a module one pointer
 * per string, in the arena given at the reset; after a reset the old
 * strings are gone from the table (and untouched in their arena); the
 * table grows for many strings (past the size where its list of strings
 * is given back at the next reset) and starts small again for few after
 * them, then grows again. */
static void test_intern(void) {
  enum { N = 100000 };
  static const char *p[N];
  hb_arena *a1 = hb_arena_new(), *a2 = hb_arena_new(), *a3 = hb_arena_new();
  hlo_intern *t = hlo_intern_new(a1);
  char buf[32];
  for (int round = 0; round < 3; round++) {
    hb_arena *a = round == 0 ? a1 : round == 1 ? a2 : a3;
    int n = round == 1 ? 5 : N; /* a small module after a large one */
    if (round > 0) hlo_intern_reset(t, a);
    for (int i = 0; i < n; i++) {
      snprintf(buf, sizeof buf, "name.%d", i);
      const char *s = hlo_intern_str(t, buf, strlen(buf));
      CHECK(strcmp(s, buf) == 0);
      if (round > 0 && i < 5) CHECK(s != p[i] && strcmp(s, p[i]) == 0); /* a new copy */
      p[i] = s;
    }
    for (int i = 0; i < n; i++) {
      snprintf(buf, sizeof buf, "name.%d", i);
      CHECK(hlo_intern_str(t, buf, strlen(buf)) == p[i]);
    }
    CHECK(hlo_istr_of(p[0])->opcode == 0xffff && hlo_istr_of(p[0])->len == 6);
  }
  hlo_intern_reset(t, a1);
  for (int i = 0; i < N; i++) {
    snprintf(buf, sizeof buf, "name.%d", i);
    const char *s = hlo_intern_str(t, buf, strlen(buf));
    CHECK(s != p[i] && strcmp(s, buf) == 0);
    p[i] = s;
  }
  for (int i = 0; i < N; i++) {
    snprintf(buf, sizeof buf, "name.%d", i);
    CHECK(hlo_intern_str(t, buf, strlen(buf)) == p[i]);
  }
  CHECK(strcmp(hlo_intern_str(t, "", 0), "") == 0);
  static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
  for (size_t len = 0; len < sizeof abc; len++) { /* every copy path (intern.c's copy_short) */
    const char *s = hlo_intern_str(t, abc, len);
    CHECK(strlen(s) == len && memcmp(s, abc, len) == 0 && hlo_istr_of(s)->len == len);
  }
  hlo_intern_free(t);
  hb_arena_free(a1);
  hb_arena_free(a2);
  hb_arena_free(a3);
}

/* hlo_same_bytes (intern.h): every length up to 80 (the 4-, 8- and
 * 16-byte paths and their overlapping last blocks), with a difference at
 * each position, at unaligned addresses. */
static void test_same_bytes(void) {
  char a[96], b[96];
  for (int i = 0; i < 96; i++) a[i] = b[i] = (char)('a' + i % 26);
  for (size_t len = 0; len <= 80; len++) {
    CHECK(hlo_same_bytes(a + 3, b + 3, len));
    for (size_t k = 0; k < len; k++) {
      b[3 + k] ^= 0x20;
      CHECK(!hlo_same_bytes(a + 3, b + 3, len));
      CHECK(hlo_same_bytes(a + 3, b + 3, k));
      b[3 + k] ^= 0x20;
    }
  }
}

/* Every opcode's name finds it (the name table holds them all), and text
 * that is not a name, "unknown" included, finds none. */
static void test_opcode_names(void) {
  for (int op = 1; op < HLO_OP_COUNT; op++) {
    const char *n = hlo_opcode_name((hlo_opcode)op);
    CHECK(hlo_opcode_from_name(n, strlen(n)) == (hlo_opcode)op);
    CHECK(hlo_opcode_from_name(n, strlen(n) - 1) != (hlo_opcode)op);
  }
  CHECK(hlo_opcode_from_name("unknown", 7) == HLO_OP_UNKNOWN);
  CHECK(hlo_opcode_from_name("addx", 3) == HLO_OP_ADD);
  CHECK(hlo_opcode_from_name("addx", 4) == HLO_OP_UNKNOWN);
  CHECK(hlo_opcode_from_name("", 0) == HLO_OP_UNKNOWN);
}

/* Each text is rejected at its NEAR text with its message. */
typedef struct {
  const char *text, *near, *msg;
} bad_case;

static void check_rejected(const bad_case *bad, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hlo_parse_result r;
    hlo_error err;
    CHECK(hlo_parse_file(bad[i].text, strlen(bad[i].text), &r, &err) == 1 && r.n_modules == 0);
    CHECK(err.offset == (size_t)(strstr(bad[i].text, bad[i].near) - bad[i].text));
    if (strcmp(err.message, bad[i].msg) != 0) {
      fprintf(stderr, "case %zu: %s\n", i, err.message);
      CHECK(false);
    }
  }
}

/* Operands are resolved as they are read when their name is defined, at
 * the computation's end otherwise (forward references), and a nested
 * operand gets "<opcode>.anon[.N]"; a later reference to that name finds
 * it. Called computations defined before are resolved at once, the others
 * at the module's end. Errors: the first undefined name in the order the
 * instructions were completed (a nested one before its user), and a
 * declared shape that does not fit, found at the module's end. */
static void test_operand_resolution(void) {
  hlo_parse_result r = parse_ok(
      "HloModule res\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  a = f32[4] add(later, negate(p)), control-predecessors={later2, p}\n"
      "  b = f32[4] add(negate.anon, negate(p))\n"
      "  e2 = f32[4] add(p, negate(later))\n" /* a forward reference in a list inside a list */
      "  later = f32[4] exponential(p)\n"
      "  later2 = f32[4] abs(p)\n"
      "  c = f32[4] add(f32[4] p, f32[4] later)\n"
      "  r = f32[] reduce(c, z), dimensions={0}, to_apply=add\n"
      "  w = f32[] reduce(c, z), dimensions={0}, to_apply=max\n"
      "  z = f32[] constant(0)\n"
      "  ROOT t = (f32[4], f32[4], f32[], f32[]) tuple(a, b, r, w)\n"
      "}\n"
      "max { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] maximum(x, y) }\n");
  const hlo_module *m = r.modules[0];
  const hlo_instr *a = find(m, NULL, "a"), *b = find(m, NULL, "b"), *later = find(m, NULL, "later");
  const hlo_instr *neg = find(m, NULL, "negate.anon"), *neg1 = find(m, NULL, "negate.anon.1");
  CHECK(a->n_operands == 2 && a->operands[0] == later && a->operands[1] == neg);
  CHECK(a->cold->ext->n_control_predecessors == 2 && a->cold->ext->control_predecessors[0] == find(m, NULL, "later2") &&
        a->cold->ext->control_predecessors[1] == find(m, NULL, "p"));
  CHECK(b->operands[0] == neg && b->operands[1] == neg1 && neg1->operands[0] == find(m, NULL, "p"));
  const hlo_instr *e2 = find(m, NULL, "e2"), *neg2 = find(m, NULL, "negate.anon.2");
  CHECK(e2->operands[0] == find(m, NULL, "p") && e2->operands[1] == neg2 && neg2->n_operands == 1 &&
        neg2->operands[0] == later);
  const hlo_instr *c = find(m, NULL, "c");
  CHECK(c->operands[0] == find(m, NULL, "p") && c->operands[1] == later);
  const hlo_instr *rd = find(m, NULL, "r"), *w = find(m, NULL, "w");
  CHECK(rd->operands[1] == find(m, NULL, "z") && rd->cold->n_called == 1 && rd->cold->called_role[0] == HLO_CALL_TO_APPLY);
  CHECK(rd->cold->called[0] == hlo_module_find_computation(m, "add"));
  CHECK(w->cold->n_called == 1 && w->cold->called[0] == hlo_module_find_computation(m, "max"));
  hlo_parse_result_free(&r);

  static const bad_case bad[] = {
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  c = f32[4] add(undef_b, negate(undef_a))\n"
       "  ROOT d = f32[4] add(c, p)\n}\n",
       "undef_a", "operand 'undef_a' is not defined in computation 'e'"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  c = f32[4] add(f32[5] p, later)\n"
       "  later = f32[4] exponential(p)\n  ROOT d = f32[4] add(c, f32[3] later)\n}\n",
       "p, later", "the declared operand shape f32[5] is not compatible with the shape f32[4] of instruction 'p'"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT c = f32[4] add(p, p), control-predecessors={nope}\n}\n",
       "nope", "control predecessor 'nope' is not defined in computation 'e'"},
      {"HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] reduce(p, p), dimensions={}, to_apply=nope\n}\n",
       "nope", "computation 'nope' is not defined"},
  };
  check_rejected(bad, sizeof bad / sizeof bad[0]);
}

/* Instructions of a module written alike share one cold record
 * (cold_share.c); one written otherwise, or whose record is written after
 * its line, keeps its own, and each reads what it was written with. */
static void test_shared_cold(void) {
  hlo_parse_result r = parse_ok(
      "HloModule share\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "ENTRY e {\n"
      "  p = f32[8,4] parameter(0)\n"
      "  t1 = f32[4,8] transpose(p), dimensions={1,0}\n"
      "  t2 = f32[4,8] transpose(p), dimensions={1,0}\n"
      "  t3 = f32[4,8] transpose(p), dimensions={1, 0}\n" /* (other text: its own) */
      "  b1 = f32[8,4,2] broadcast(p), dimensions={0,1}\n"
      "  b2 = f32[8,4] reverse(p), dimensions={0,1}\n" /* (the same text, another opcode's: not b1's) */
      "  s1 = f32[4,4] slice(p), slice={[0:8:2], [0:4]}\n"
      "  s2 = f32[4,4] slice(p), slice={[0:8:2], [0:4]}\n"
      "  z = f32[] constant(0)\n"
      "  r1 = f32[8] reduce(p, z), dimensions={1}, to_apply=add\n"
      "  r2 = f32[8] reduce(p, z), dimensions={1}, to_apply=add\n"
      "  m1 = f32[8] reduce(p, z), dimensions={1}, to_apply=max\n" /* (named before it is defined) */
      "  m2 = f32[8] reduce(p, z), dimensions={1}, to_apply=max\n"
      "  c1 = f32[8,4] copy(p), control-predecessors={t1}\n"
      "  c2 = f32[8,4] copy(p), control-predecessors={t2}\n"
      "  i1 = f32[8] reduce(p, z), dimensions={1}, to_apply={ x = f32[] parameter(0)\n y = f32[] parameter(1)\n"
      "    ROOT s = f32[] add(x, y) }\n"
      "  i2 = f32[8] reduce(p, z), dimensions={1}, to_apply={ x = f32[] parameter(0)\n y = f32[] parameter(1)\n"
      "    ROOT s = f32[] add(x, y) }\n"
      "  ROOT t = (f32[4,8], f32[4,8], f32[4,8]) tuple(t1, t2, t3)\n"
      "}\n"
      "max { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] maximum(x, y) }\n");
  const hlo_module *m = r.modules[0];
  const hlo_instr *t1 = find(m, NULL, "t1"), *t2 = find(m, NULL, "t2"), *t3 = find(m, NULL, "t3");
  static const int64_t d10[] = {1, 0}, d01[] = {0, 1}, d1[] = {1};
  CHECK(t1->cold == t2->cold && t3->cold != t1->cold);
  CHECK(ints_are(t2->cold->dimensions, 2, d10) && ints_are(t3->cold->dimensions, 2, d10));
  const hlo_instr *b1 = find(m, NULL, "b1"), *b2 = find(m, NULL, "b2");
  CHECK(b1->cold != b2->cold && ints_are(b1->cold->dimensions, 2, d01) && ints_are(b2->cold->dimensions, 2, d01));
  const hlo_instr *s1 = find(m, NULL, "s1"), *s2 = find(m, NULL, "s2");
  CHECK(s1->cold == s2->cold && s2->cold->ext->n_slice == 2 && s2->cold->ext->slice[0].stride == 2 &&
        s2->cold->ext->slice[1].limit == 4);
  const hlo_instr *r1 = find(m, NULL, "r1"), *r2 = find(m, NULL, "r2");
  CHECK(r1->cold == r2->cold && r2->cold->n_called == 1 && r2->cold->called[0] == hlo_module_find_computation(m, "add") &&
        ints_are(r2->cold->dimensions, 1, d1));
  const hlo_instr *m1 = find(m, NULL, "m1"), *m2 = find(m, NULL, "m2");
  CHECK(m1->cold != m2->cold && m1->cold->called[0] == hlo_module_find_computation(m, "max") &&
        m2->cold->called[0] == m1->cold->called[0]);
  const hlo_instr *c1 = find(m, NULL, "c1"), *c2 = find(m, NULL, "c2");
  CHECK(c1->cold != c2->cold && c1->cold->ext->control_predecessors[0] == t1 &&
        c2->cold->ext->control_predecessors[0] == t2);
  const hlo_instr *i1 = find(m, NULL, "i1"), *i2 = find(m, NULL, "i2");
  CHECK(i1->cold != i2->cold && i1->cold->called[0] != i2->cold->called[0] && i1->cold->called[0]->n_instrs == 3);
  CHECK(find(m, NULL, "z")->cold->literal && !find(m, NULL, "p")->cold->n_attrs);
  hlo_parse_result_free(&r);

  /* 5000 distinct slices, then the first and the last again: only the
   * first 4096 records are remembered (COLD_SHARED_MAX) */
  hb_strbuf b = HB_STRBUF_INIT;
  hb_sb_puts(&b, "HloModule many\nENTRY e {\n  v = f32[5000] parameter(0)\n");
  for (int k = 0; k < 5000; k++) hb_sb_printf(&b, "  s%d = f32[1] slice(v), slice={[%d:%d]}\n", k, k, k + 1);
  hb_sb_puts(&b, "  a = f32[1] slice(v), slice={[0:1]}\n  z = f32[1] slice(v), slice={[4999:5000]}\n");
  hb_sb_puts(&b, "  ROOT t = (f32[1], f32[1]) tuple(a, z)\n}\n");
  r = parse_ok(b.data);
  m = r.modules[0];
  CHECK(find(m, NULL, "a")->cold == find(m, NULL, "s0")->cold);
  CHECK(find(m, NULL, "z")->cold != find(m, NULL, "s4999")->cold && find(m, NULL, "z")->cold->ext->slice[0].start == 4999);
  hlo_parse_result_free(&r);
  hb_sb_free(&b);
}

/* A computation's parameters by number: when parameter(0..N-1) come first
 * and in order, params is the instruction list itself (no array of its
 * own); otherwise an array in number order. Errors as before. */
static void test_params(void) {
  hlo_parse_result r = parse_ok(
      "HloModule m\n"
      "f { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
      "g { b = f32[] parameter(1)\n a = f32[] parameter(0)\n ROOT s = f32[] add(a, b) }\n"
      "h { a = f32[] parameter(0)\n n = f32[] negate(a)\n b = f32[] parameter(1)\n ROOT s = f32[] add(n, b) }\n"
      "ENTRY e { x = f32[] parameter(0)\n y = f32[] parameter(1)\n"
      "  c = f32[] call(x, y), to_apply=f\n d = f32[] call(x, y), to_apply=g\n"
      "  ROOT k = f32[] call(c, d), to_apply=h }\n");
  const hlo_module *m = r.modules[0];
  const hlo_computation *f = hlo_module_find_computation(m, "f"), *g = hlo_module_find_computation(m, "g");
  const hlo_computation *h = hlo_module_find_computation(m, "h");
  CHECK(f->n_params == 2 && f->params == f->instrs && f->params[1]->parameter_number == 1);
  CHECK(m->entry->n_params == 2 && m->entry->params == m->entry->instrs);
  CHECK(g->n_params == 2 && g->params != g->instrs && g->params[0] == g->instrs[1] && g->params[1] == g->instrs[0]);
  CHECK(h->n_params == 2 && h->params != h->instrs && h->params[0] == h->instrs[0] && h->params[1] == h->instrs[2]);
  hlo_parse_result_free(&r);

  static const bad_case bad[] = {
      {"HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(2)\n  ROOT s = f32[] add(a, b)\n}\n",
       "b = ", "parameter number 2 is out of range: computation 'e' has 2 parameter(s), numbered 0..1"},
      {"HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(0)\n  ROOT s = f32[] add(a, b)\n}\n",
       "b = ", "duplicate parameter number 0 (also used by 'a')"},
  };
  check_rejected(bad, sizeof bad / sizeof bad[0]);
}

int main(void) {
  test_same_bytes();
  test_intern();
  test_opcode_names();
  test_shapes_and_layouts();
  test_shapes_across_modules();
  test_grammar_only_shapes();
  test_each_borrows_shapes();
  test_constants();
  test_instructions();
  test_modules_and_errors();
  test_plain_values();
  test_operand_resolution();
  test_shared_cold();
  test_params();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
