/* Small instructions of every opcode family, shared by the enumeration
 * tests (test_enum_indexing.c: the maps against the ops' definitions;
 * test_access_summary.c: the summary counts against brute force). */
#ifndef HLOIDX_INDEXING_CASES_H
#define HLOIDX_INDEXING_CASES_H

#include <stdbool.h>

typedef struct {
  const char *name;
  const char *hlo;
  const char *modes; /* per operand: '=' exact, 's' covering, 'x' covering under --xla-compat only (exact in
                        hloidx's semantics), 'c' clipped, '-' no reference, 'u' unknown or exact; missing = exact */
  bool i2o;          /* check input-to-output maps too (under --xla-compat; hloidx's in2out maps always) */
} enum_case;

/* ---- cases ------------------------------------------------------------------------------------------------- */

#define ADD "add { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
#define ADD2 \
  "add2 { a = f32[] parameter(0)\n b = s32[] parameter(1)\n c = f32[] parameter(2)\n d = s32[] parameter(3)\n" \
  " e = f32[] add(a, c)\n f = s32[] add(b, d)\n ROOT t = (f32[], s32[]) tuple(e, f) }\n"
#define E1(body) "HloModule m\nENTRY e {\n" body "\n}\n"

static const enum_case cases[] __attribute__((unused)) = {
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
                             " window={size=2}, dim_labels=b0f_0io->b0f, batch_group_count=3"), "x=", false},
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
                       " slice_sizes={2,4}"), NULL, false},
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
    {"fusion same operand twice", /* both parameters are operand x: its entry holds both reads (§5.4) */
     "HloModule m\nf {\n p0 = f32[8] parameter(0)\n p1 = f32[8] parameter(1)\n a = f32[4] slice(p0), slice={[0:4]}\n"
     " b = f32[4] slice(p1), slice={[4:8]}\n ROOT r = f32[4] add(a, b)\n}\n"
     "ENTRY e {\n x = f32[8] parameter(0)\n ROOT r = f32[4] fusion(x, x), kind=kLoop, calls=f\n}\n", NULL, false},
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

/* Rules of hloidx's own semantics (XLA has none: under --xla-compat these
 * maps are unknown). */
static const enum_case own_cases[] __attribute__((unused)) = {
    {"acos", E1("a = f32[2,3] parameter(0)\n ROOT r = f32[2,3] acos(a)"), NULL, true},
    {"tuple", E1("a = f32[2,3] parameter(0)\n b = f32[4] parameter(1)\n ROOT r = (f32[2,3], f32[4]) tuple(a, b)"),
     NULL, true},
    {"get-tuple-element", E1("a = (f32[2,3], f32[4]) parameter(0)\n ROOT r = f32[4] get-tuple-element(a), index=1"),
     NULL, true},
    {"opt-barrier", E1("a = (f32[2,3], f32[4]) parameter(0)\n ROOT r = (f32[2,3], f32[4]) opt-barrier(a)"), NULL, true},
    {"add-dependency", E1("a = f32[3] parameter(0)\n t = token[] after-all()\n"
                          " ROOT r = f32[3] add-dependency(a, t)"), NULL, true},
    {"copy-start", E1("a = f32[2,3] parameter(0)\n ROOT r = (f32[2,3], f32[2,3], u32[]) copy-start(a)"), NULL, true},
    {"copy-done", E1("a = (f32[2,3], f32[2,3], u32[]) parameter(0)\n ROOT r = f32[2,3] copy-done(a)"), NULL, true},
    {"all-reduce variadic", "HloModule m\n" ADD "ENTRY e {\n a = f32[2,3] parameter(0)\n b = f32[4] parameter(1)\n"
                            " ROOT r = (f32[2,3], f32[4]) all-reduce(a, b), replica_groups={}, to_apply=add\n}\n",
     NULL, true},
    {"all-reduce-start", "HloModule m\n" ADD "ENTRY e {\n a = f32[5] parameter(0)\n"
                         " ROOT r = f32[5] all-reduce-start(a), replica_groups={}, to_apply=add\n}\n", NULL, true},
    {"collective-permute", E1("a = f32[2,3] parameter(0)\n"
                              " ROOT r = f32[2,3] collective-permute(a), source_target_pairs={{0,1},{1,0}}"),
     NULL, true},
    {"reduce-scatter", "HloModule m\n" ADD "ENTRY e {\n a = f32[2,6] parameter(0)\n"
                       " ROOT r = f32[2,2] reduce-scatter(a), replica_groups={{0,1,2}}, dimensions={1}, to_apply=add\n}\n",
     NULL, true},
    {"all-to-all", E1("a = f32[6,2] parameter(0)\n ROOT r = f32[6,2] all-to-all(a), replica_groups={{0,1,2}}, dimensions={0}"),
     NULL, true},
    {"all-to-all no groups", E1("a = f32[4] parameter(0)\n ROOT r = f32[4] all-to-all(a), replica_groups={}, dimensions={0}"),
     NULL, true},
    {"all-to-all tuple", E1("a = f32[3] parameter(0)\n b = f32[3] parameter(1)\n"
                            " ROOT r = (f32[3], f32[3]) all-to-all(a, b), replica_groups={{0,1}}"), NULL, true},
    {"all-gather variadic", E1("a = f32[2] parameter(0)\n b = f32[1,3] parameter(1)\n"
                               " ROOT r = (f32[4], f32[2,3]) all-gather(a, b), replica_groups={{0,1}}, dimensions={0}"),
     NULL, true},
    {"all-gather-start", E1("a = f32[2,3] parameter(0)\n"
                            " ROOT r = (f32[2,3], f32[2,9]) all-gather-start(a), replica_groups={{0,1,2}}, dimensions={1}"),
     NULL, true},
    {"ragged-all-to-all", E1("a = f32[4,2] parameter(0)\n o = f32[3,2] parameter(1)\n io = s32[2] parameter(2)\n"
                             " ss = s32[2] parameter(3)\n oo = s32[2] parameter(4)\n rs = s32[2] parameter(5)\n"
                             " ROOT r = f32[3,2] ragged-all-to-all(a, o, io, ss, oo, rs), replica_groups={{0,1}}"),
     NULL, true},
    {"send recv", E1("a = f32[3] parameter(0)\n t = token[] after-all()\n"
                     " ROOT s = (f32[3], u32[], token[]) send(a, t), channel_id=1"), NULL, true},
    {"infeed", E1("t = token[] after-all()\n ROOT r = (f32[3], token[]) infeed(t)"), NULL, true},
    {"call", "HloModule m\ncallee {\n p = f32[4] parameter(0)\n q = f32[2] parameter(1)\n"
             " s = f32[2] slice(p), slice={[1:3]}\n ROOT r = f32[2] add(s, q)\n}\n"
             "ENTRY e {\n a = f32[4] parameter(0)\n b = f32[2] parameter(1)\n ROOT r = f32[2] call(a, b), to_apply=callee\n}\n",
     NULL, true},
    {"conditional pred", "HloModule m\nbt {\n p = f32[4] parameter(0)\n ROOT r = f32[2] slice(p), slice={[0:2]}\n}\n"
                         "bf {\n p = f32[2] parameter(0)\n ROOT r = f32[2] negate(p)\n}\n"
                         "ENTRY e {\n c = pred[] parameter(0)\n a = f32[4] parameter(1)\n b = f32[2] parameter(2)\n"
                         " ROOT r = f32[2] conditional(c, a, b), true_computation=bt, false_computation=bf\n}\n",
     NULL, true},
    {"while", "HloModule m\ncond {\n p = (s32[], f32[3]) parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
              " n = s32[] constant(4)\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
              "body {\n p = (s32[], f32[3]) parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
              " one = s32[] constant(1)\n j = s32[] add(i, one)\n x = f32[3] get-tuple-element(p), index=1\n"
              " ROOT t = (s32[], f32[3]) tuple(j, x)\n}\n"
              "ENTRY e {\n a = (s32[], f32[3]) parameter(0)\n ROOT w = (s32[], f32[3]) while(a), condition=cond, body=body\n}\n",
     "u", true},
    {"sort keys values", "HloModule m\nlt {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n c = s32[] parameter(2)\n"
                         " d = s32[] parameter(3)\n ROOT r = pred[] compare(a, b), direction=LT\n}\n"
                         "ENTRY e {\n k = f32[2,3] parameter(0)\n v = s32[2,3] parameter(1)\n"
                         " ROOT s = (f32[2,3], s32[2,3]) sort(k, v), dimensions={1}, to_apply=lt\n}\n",
     NULL, true},
    {"topk", E1("a = f32[2,5] parameter(0)\n ROOT r = (f32[2,2], s32[2,2]) topk(a), k=2, largest=true"), NULL, true},
    {"fft", E1("a = c64[2,3,4] parameter(0)\n ROOT r = c64[2,3,4] fft(a), fft_type=FFT, fft_length={3,4}"), NULL, true},
    {"rfft", E1("a = f32[2,6] parameter(0)\n ROOT r = c64[2,4] fft(a), fft_type=RFFT, fft_length={6}"), NULL, true},
    {"irfft", E1("a = c64[3,4] parameter(0)\n ROOT r = f32[3,6] fft(a), fft_type=IRFFT, fft_length={6}"), NULL, true},
    {"rng-bit-generator", E1("s = u64[2] parameter(0)\n"
                             " ROOT r = (u64[2], u32[2,3]) rng-bit-generator(s), algorithm=rng_three_fry"), NULL, true},
    {"cholesky lower", E1("a = f32[2,4,4] parameter(0)\n ROOT r = f32[2,4,4] cholesky(a), lower=true"), NULL, true},
    {"cholesky upper", E1("a = f32[3,3] parameter(0)\n ROOT r = f32[3,3] cholesky(a), lower=false"), NULL, true},
    {"trsm left lower", E1("a = f32[4,4] parameter(0)\n b = f32[4,2] parameter(1)\n"
                           " ROOT r = f32[4,2] triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE"),
     NULL, true},
    {"trsm left upper unit", E1("a = f32[4,4] parameter(0)\n b = f32[4,2] parameter(1)\n"
                                " ROOT r = f32[4,2] triangular-solve(a, b), left_side=true, lower=false, unit_diagonal=true,"
                                " transpose_a=NO_TRANSPOSE"), NULL, true},
    {"trsm left lower transposed", E1("a = f32[3,3] parameter(0)\n b = f32[3,2] parameter(1)\n"
                                      " ROOT r = f32[3,2] triangular-solve(a, b), left_side=true, lower=true,"
                                      " transpose_a=TRANSPOSE"), NULL, true},
    {"trsm right lower", E1("a = f32[3,3] parameter(0)\n b = f32[2,3] parameter(1)\n"
                            " ROOT r = f32[2,3] triangular-solve(a, b), left_side=false, lower=true, transpose_a=NO_TRANSPOSE"),
     NULL, true},
    {"trsm right upper adjoint unit", E1("a = f32[2,3,3] parameter(0)\n b = f32[2,2,3] parameter(1)\n"
                                         " ROOT r = f32[2,2,3] triangular-solve(a, b), left_side=false, lower=false,"
                                         " unit_diagonal=true, transpose_a=ADJOINT"), NULL, true},
    {"custom-call Sharding", E1("a = f32[2,3] parameter(0)\n ROOT r = f32[2,3] custom-call(a), custom_call_target=\"Sharding\""),
     NULL, true},
    {"custom-call to shard", E1("a = f32[4,6] parameter(0)\n"
                                " ROOT r = f32[2,6] custom-call(a), custom_call_target=\"SPMDFullToShardShape\""), NULL, true},
    {"custom-call to full", E1("a = f32[2,3] parameter(0)\n"
                               " ROOT r = f32[2,6] custom-call(a), custom_call_target=\"SPMDShardToFullShape\""), NULL, true},
    {"custom-call gemm", E1("a = f32[2,3,4] parameter(0)\n b = f32[2,4,5] parameter(1)\n c = f32[2,3,5] parameter(2)\n"
                            " ROOT r = (f32[2,3,5], s8[16]) custom-call(a, b, c), custom_call_target=\"__cublas$gemm\","
                            " backend_config=\"{\\\"beta\\\":1,\\\"dot_dimension_numbers\\\":{\\\"lhs_contracting_dimensions\\\":"
                            "[\\\"2\\\"],\\\"rhs_contracting_dimensions\\\":[\\\"1\\\"],\\\"lhs_batch_dimensions\\\":[\\\"0\\\"],"
                            "\\\"rhs_batch_dimensions\\\":[\\\"0\\\"]}}\""), NULL, true},
    {"custom-call cudnn conv", E1("x = f32[1,5,2] parameter(0)\n k = f32[3,2,4] parameter(1)\n b = f32[4] parameter(2)\n"
                                  " ROOT r = (f32[1,3,4], u8[0]) custom-call(x, k, b), window={size=3}, dim_labels=b0f_0io->b0f,"
                                  " custom_call_target=\"__cudnn$convBiasActivationForward\""), NULL, true},
    {"select-and-scatter", "HloModule m\n" ADD "ge { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
                           " ROOT c = pred[] compare(a, b), direction=GE }\n"
                           "ENTRY e {\n x = f32[7] parameter(0)\n s = f32[3] parameter(1)\n i = f32[] parameter(2)\n"
                           " ROOT r = f32[7] select-and-scatter(x, s, i), window={size=3 stride=2 pad=0_0}, select=ge,"
                           " scatter=add\n}\n", NULL, true},
    {"select-and-scatter 2d padded", "HloModule m\n" ADD "ge { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
                                     " ROOT c = pred[] compare(a, b), direction=GE }\n"
                                     "ENTRY e {\n x = f32[4,3] parameter(0)\n s = f32[2,3] parameter(1)\n"
                                     " i = f32[] parameter(2)\n ROOT r = f32[4,3] select-and-scatter(x, s, i),"
                                     " window={size=2x2 stride=2x1 pad=0_0x1_0}, select=ge, scatter=add\n}\n", NULL, true},
    /* gather and scatter in general form, bitcast-convert across widths */
    {"gather embedding", E1("x = f32[5,4]{0,1} parameter(0)\n i = s32[3] parameter(1)\n ROOT r = f32[3,4] gather(x, i),"
                            " offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,"
                            " slice_sizes={1,4}"), NULL, false},
    {"gather vector first", E1("x = f32[6,7] parameter(0)\n i = s32[2,3] parameter(1)\n ROOT r = f32[3,2,3]{0,2,1} gather(x, i),"
                               " offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={1,0}, index_vector_dim=0,"
                               " slice_sizes={2,3}"), NULL, false},
    {"gather batching", E1("x = f32[3,5] parameter(0)\n i = s32[3,2,1] parameter(1)\n ROOT r = f32[3,2] gather(x, i),"
                           " offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0},"
                           " start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1}"), NULL, false},
    {"gather iota beyond the clamp", E1("x = f32[6,3] parameter(0)\n i = s32[8,1] iota(), iota_dimension=0\n"
                                        " ROOT r = f32[8,2,3] gather(x, i), offset_dims={1,2}, collapsed_slice_dims={},"
                                        " start_index_map={0}, index_vector_dim=1, slice_sizes={2,3}"), NULL, false},
    {"scatter windows", "HloModule m\n" ADD "ENTRY e {\n x = f32[6,7] parameter(0)\n i = s32[2,3] parameter(1)\n u = f32[3,2,3] parameter(2)\n"
                               " ROOT r = f32[6,7]{0,1} scatter(x, i, u), update_window_dims={1,2}, inserted_window_dims={},"
                               " scatter_dims_to_operand_dims={1,0}, index_vector_dim=0, to_apply=add\n}\n", NULL, false},
    {"scatter variadic batching", "HloModule m\n" ADD2 "ENTRY e {\n x = f32[3,4] parameter(0)\n y = s32[3,4] parameter(1)\n i = s32[3,2] parameter(2)\n"
                                          " u = f32[3,2] parameter(3)\n v = s32[3,2] parameter(4)\n"
                                          " ROOT r = (f32[3,4], s32[3,4]) scatter(x, y, i, u, v), update_window_dims={},"
                                          " inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0},"
                                          " scatter_indices_batching_dims={0}, index_vector_dim=2, to_apply=add2\n}\n",
     NULL, false},
    {"bitcast-convert narrower", E1("p = f32[3,2] parameter(0)\n ROOT r = s8[3,2,4] bitcast-convert(p)"), NULL, false},
    {"bitcast-convert wider", E1("p = s16[3,2] parameter(0)\n ROOT r = f32[3] bitcast-convert(p)"), NULL, false},
};

#endif
