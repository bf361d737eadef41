/* Tiled layouts (tiled_layout.h): tiled shapes, sizes, the shape:stride
 * form, the three layout maps and the --physical=tiled composition, on
 * hand-computed examples. Shapes are written in HLO text and parsed. */
#include <inttypes.h>

#include "hlo_ir.h"
#include "test_util.h"
#include "tiled_layout.h"

static hb_arena *A;
static ae_ctx *C;

/* ---- helpers --------------------------------------------------------------------------- */

#define MAX_PARSED 64
static hlo_parse_result parsed[MAX_PARSED];
static char *texts[MAX_PARSED];
static int nparsed;

/* The shape of `ROOT p = TEXT parameter(0)`. */
static const hlo_shape *shp(const char *text) {
  if (nparsed == MAX_PARSED) {
    fprintf(stderr, "too many shapes\n");
    exit(2);
  }
  hb_strbuf b = HB_STRBUF_INIT;
  hb_sb_printf(&b, "HloModule t\n\nENTRY e {\n  ROOT p = %s parameter(0)\n}\n", text);
  hlo_error err;
  texts[nparsed] = malloc(b.len + 1);
  memcpy(texts[nparsed], hb_sb_str(&b), b.len + 1);
  size_t len = b.len;
  hb_sb_free(&b);
  if (hlo_parse_file(texts[nparsed], len, &parsed[nparsed], &err)) {
    fprintf(stderr, "test shape does not parse: %s: %s\n", text, err.message);
    exit(2);
  }
  return parsed[nparsed++].modules[0]->entry->root->shape;
}

static tl_layout lay(const char *text) {
  tl_layout l;
  tl_error err;
  if (!tl_analyze(A, shp(text), &l, &err)) {
    fprintf(stderr, "analysis failed for %s: %s\n", text, err.message);
    exit(2);
  }
  return l;
}

static const char *dims_str(const int64_t *v, int n) {
  hb_strbuf b = HB_STRBUF_INIT;
  hb_sb_putc(&b, '[');
  for (int i = 0; i < n; i++) hb_sb_printf(&b, "%s%" PRId64, i ? "," : "", v[i]);
  hb_sb_putc(&b, ']');
  return t_keep(&b);
}

static const char *ss_str(const tl_layout *l) {
  tl_shape_stride f;
  tl_error err;
  hb_strbuf b = HB_STRBUF_INIT;
  if (!tl_shape_stride_form(A, C, l, &f, &err)) hb_sb_printf(&b, "ERROR %s", err.message);
  else tl_shape_stride_print(&b, &f);
  return t_keep(&b);
}

static tl_layout lay(const char *text);
static const char *ss_of(const char *text) {
  tl_layout l = lay(text);
  return ss_str(&l);
}

static imap *ok_map(imap *m, const tl_error *err, const char *what) {
  if (!m) {
    fprintf(stderr, "%s: %s\n", what, err->message);
    exit(2);
  }
  return m;
}
static imap *offset_map(const tl_layout *l) {
  tl_error err;
  return ok_map(tl_logical_to_offset(A, C, l, &err), &err, "offset map");
}
static imap *tiled_map(const tl_layout *l) {
  tl_error err;
  return ok_map(tl_logical_to_tiled(A, C, l, &err), &err, "tiled map");
}
static imap *inverse_map(const tl_layout *l) {
  tl_error err;
  return ok_map(tl_tiled_to_logical(A, C, l, &err), &err, "inverse map");
}

static int64_t eval1(const imap *m, const int64_t *pt) {
  int64_t v = -1;
  if (!ae_eval_point(m->results[0], pt, m->ndims, NULL, 0, &v)) {
    fprintf(stderr, "evaluation failed\n");
    exit(2);
  }
  return v;
}

static tl_status err_of(const char *text) {
  tl_layout l;
  tl_error err;
  return tl_analyze(A, shp(text), &l, &err) ? TL_OK : err.status;
}

static const char *overhead_str(const tl_layout *l) {
  hb_strbuf b = HB_STRBUF_INIT;
  tl_overhead_print(&b, l);
  return t_keep(&b);
}

/* ---- tests ------------------------------------------------------------------------------- */

/* f32[3,5]{1,0:T(2,2)}: element (2,3) is in tile (1,1) at in-tile (0,1):
 * (1,1,0,1) over (2,3,2,2) -> 1*12 + 1*4 + 0*2 + 1 = 17; 24 elements for 15. */
static void test_doc_example(void) {
  tl_layout l = lay("f32[3,5]{1,0:T(2,2)}");
  CHECK_STR(dims_str(l.tiled, l.ntiled), "[2,3,2,2]", "tiled shape");
  CHECK_STR(dims_str(l.strides, l.ntiled), "[12,4,2,1]", "strides");
  CHECK(l.logical_elems == 15 && l.tiled_elems == 24 && l.physical_elems == 24, "elements");
  CHECK(l.elem_bits == 32 && l.bytes == 96 && l.logical_bytes == 60 && l.memory_space == 0, "bytes");
  CHECK_STR(overhead_str(&l), "60.0%", "overhead 9/15");
  int64_t pt[2] = {2, 3};
  imap *off = offset_map(&l);
  CHECK(eval1(off, pt) == 17, "offset of (2,3) is 17");
  CHECK_STR(mstr(off),
            "(d0, d1) -> ((d0 mod 2) * 2 + (d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + d1 mod 2), "
            "domain: d0 in [0, 2], d1 in [0, 4]",
            "offset map");
  CHECK_STR(mstr(tiled_map(&l)),
            "(d0, d1) -> (d0 floordiv 2, d1 floordiv 2, d0 mod 2, d1 mod 2), domain: d0 in [0, 2], d1 in [0, 4]",
            "tiled map");
  imap *inv = inverse_map(&l);
  CHECK_STR(mstr(inv),
            "(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 1], "
            "d3 in [0, 1], d0 * 2 + d2 in [0, 2], d1 * 2 + d3 in [0, 4]",
            "inverse map");
  int64_t phys[4] = {1, 1, 0, 1}, pad[4] = {1, 0, 1, 0}; /* (1,1,0,1) = element (2,3); (1,0,1,0) = row 3: padding */
  CHECK(dims_in_domain(inv, phys) && !dims_in_domain(inv, pad), "inverse domain excludes padding");
  CHECK_STR(ss_str(&l), "((2,2),(2,3)):((2,12),(1,4))", "shape:stride");
}

/* bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}: physical [1,8,1280,16384];
 * T(8,128) -> [1,8,160,128,8,128]; T(2,1) on the last two dims (8,128) ->
 * [4,128,2,1]: [1,8,160,128,4,128,2,1], no padding (8 | 1280, 128 | 16384). */
static void test_bf16_packed(void) {
  tl_layout l = lay("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
  CHECK_STR(dims_str(l.tiled, l.ntiled), "[1,8,160,128,4,128,2,1]", "tiled shape");
  CHECK(l.logical_elems == 167772160 && l.physical_elems == 167772160 && l.bytes == 335544320, "sizes");
  CHECK(l.nlevels == 2 && l.levels[1].nlead == 4 && l.levels[1].nimplicit == 0, "second level on the last two dims");
  /* x2 = 8a + 2b + c with c = x2 mod 2 (stride 1), b = (x2/2) mod 4 (stride 256), a = x2/8 (stride 131072) */
  CHECK_STR(ss_str(&l), "(8,1,(2,4,160),(128,128)):(20971520,0,(1,256,131072),(2,1024))", "shape:stride");
  int64_t pt[4] = {3, 0, 1037, 300}; /* 3*20971520 + 129*131072 + 2*1024 + 2*256 + 44*2 + 1 */
  CHECK(eval1(offset_map(&l), pt) == 3 * 20971520 + 129 * 131072 + 2 * 1024 + 2 * 256 + 44 * 2 + 1, "offset");
  CHECK_STR(mstr(inverse_map(&l)),
            "(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, 0, d2 * 8 + d4 * 2 + d6, d3 * 128 + d5), domain: d0 in [0, 0], "
            "d1 in [0, 7], d2 in [0, 159], d3 in [0, 127], d4 in [0, 3], d5 in [0, 127], d6 in [0, 1], d7 in [0, 0]",
            "no padding: no constraints");
}

/* f32[4,8]{1,0:T(2,4)(2,1)}: [4,8] -> [2,2,2,4] -> (2,1) on (2,4): [1,4,2,1];
 * element (i,j) -> (i/2, j/4, 0, j%4, i%2, 0), strides [16,8,8,2,1,1]. */
static void test_two_level_small(void) {
  tl_layout l = lay("f32[4,8]{1,0:T(2,4)(2,1)}");
  CHECK_STR(dims_str(l.tiled, l.ntiled), "[2,2,1,4,2,1]", "tiled shape");
  CHECK(l.physical_elems == 32, "no padding");
  CHECK_STR(mstr(tiled_map(&l)),
            "(d0, d1) -> (d0 floordiv 2, d1 floordiv 4, 0, d1 mod 4, d0 mod 2, 0), domain: d0 in [0, 3], d1 in [0, 7]",
            "tiled map");
  CHECK_STR(mstr(offset_map(&l)), "(d0, d1) -> ((d0 floordiv 2) * 16 + d1 * 2 + d0 mod 2), domain: d0 in [0, 3], d1 in [0, 7]",
            "offset: (j/4)*8 + (j%4)*2 = 2j");
  CHECK_STR(ss_str(&l), "((2,2),(4,2)):((1,16),(2,8))", "shape:stride");
}

/* f32[2,7,8,11,10]{4,3,2,1,0} with T(*,*,2,*,3): dims 0,1,2 merge into 112
 * (tile 2), dims 3,4 into 110 (tile 3): [112,110] -> [56,37,2,3] = 12432
 * elements for 12320 (110 -> 111 columns: 112 padding elements). */
static void test_combine(void) {
  tl_layout l = lay("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
  CHECK(l.levels[0].ntiled == 2 && l.levels[0].group_size[0] == 112 && l.levels[0].group_size[1] == 110,
        "merged as [112,110]");
  CHECK_STR(dims_str(l.tiled, l.ntiled), "[56,37,2,3]", "tiled shape");
  CHECK(l.logical_elems == 12320 && l.physical_elems == 12432, "sizes");
  CHECK_STR(ss_str(&l),
            "not expressible: tile 1 (size 3) does not align with dimension 3 inside a merged dimension of size 110",
            "3 cuts 10*d3 + d4 across d3");
  /* element (1,6,7,10,9): merged (1*56+6*8+7, 10*10+9) = (111, 109) -> (55, 36, 1, 1) */
  int64_t pt[5] = {1, 6, 7, 10, 9};
  CHECK(eval1(offset_map(&l), pt) == 55 * 222 + 36 * 6 + 1 * 3 + 1, "offset of the last element");
  /* aligned merges are expressible: 4 = 2 * 2 splits d1; 4 = 2 * 2 of d0 after d1 */
  tl_layout a = lay("f32[3,4]{1,0:T(*,2)}");
  CHECK_STR(ss_str(&a), "(3,(2,2)):(4,(1,2))", "tile divides the minor dim");
  tl_layout b = lay("f32[6,2]{1,0:T(*,4)}");
  CHECK_STR(ss_str(&b), "((2,3),2):((2,4),1)", "minor dim divides the tile");
  CHECK(err_of("f32[6,2]{1,0:T(2,*)}") == TL_BAD_LAYOUT, "'*' last");
}

/* fewer tile entries than the rank: the leading dims are untouched */
static void test_leading_dims(void) {
  tl_layout l = lay("f32[2,3,5]{2,1,0:T(2,2)}");
  CHECK_STR(dims_str(l.tiled, l.ntiled), "[2,2,3,2,2]", "leading dim kept");
  CHECK(l.physical_elems == 48 && l.logical_elems == 30, "sizes");
  CHECK_STR(ss_str(&l), "(2,(2,2),(2,3)):(24,(2,12),(1,4))", "shape:stride");
  tl_layout m = lay("f32[3,5,7]{0,2,1:T(4)}"); /* physical [5,7,3]; T(4) on dim 0 (size 3) -> [5,7,1,4] */
  CHECK_STR(dims_str(m.tiled, m.ntiled), "[5,7,1,4]", "one-entry tile on the most-minor dim");
  CHECK_STR(ss_str(&m), "(3,5,7):(1,28,4)", "dim 0 fits in one tile");
  CHECK_STR(mstr(tiled_map(&m)), "(d0, d1, d2) -> (d1, d2, 0, d0), domain: d0 in [0, 2], d1 in [0, 4], d2 in [0, 6]",
            "tiled map");
}

static void test_scalars_and_spaces(void) {
  tl_layout s = lay("f32[]{:T(128)}");
  CHECK(s.rank == 0 && s.levels[0].nimplicit == 1, "scalar tiled as [1]");
  CHECK_STR(dims_str(s.tiled, s.ntiled), "[1,128]", "tiled shape");
  CHECK(s.logical_elems == 1 && s.physical_elems == 128 && s.bytes == 512, "1 element in 128");
  CHECK_STR(overhead_str(&s), "12700.0%", "overhead");
  CHECK_STR(mstr(offset_map(&s)), "() -> (0)", "offset");
  CHECK_STR(mstr(inverse_map(&s)), "(d0, d1) -> (), domain: d0 in [0, 0], d1 in [0, 0]", "only (0,0) is data");
  CHECK_STR(ss_str(&s), "():()", "shape:stride of a scalar");
  tl_layout u = lay("u32[]{:S(2)}");
  CHECK(u.memory_space == 2 && u.ntiled == 0 && u.bytes == 4, "S(2) scalar");
  CHECK_STR(tl_memory_space_name(2), "device-specific", "S(2)");
  CHECK_STR(tl_memory_space_name(0), "device default (HBM)", "S(0)");
  CHECK_STR(tl_memory_space_name(1), "alternate (VMEM on TPU)", "S(1)");
  CHECK_STR(tl_memory_space_name(5), "host", "S(5)");
  tl_layout v = lay("f32[1,1]{1,0:T(8,128)S(1)}");
  CHECK(v.memory_space == 1 && v.bytes == 4096, "a 1x1 array takes 4 KiB");
  CHECK_STR(overhead_str(&v), "102300.0%", "overhead");
  CHECK_STR(ss_str(&v), "(1,1):(0,0)", "size-1 dims");
  CHECK(lay("f32[8,128]{1,0:T(8,128)S(5)}").memory_space == 5, "S(5)");
  /* a rank-1 array under a 2-entry tile: [5] -> [1,5] -> [1,1,8,128] (XLA's ArraySize: 128 * 8) */
  tl_layout w = lay("f32[5]{0:T(8,128)}");
  CHECK(w.physical_elems == 1024 && w.levels[0].nimplicit == 1, "implicit leading dim");
}

/* E(n) and natural sizes: s4 without E(4) takes a byte per element (XLA's
 * ByteSizeOfPrimitiveType); with E(4), ceil(n * 4 / 8) bytes. */
static void test_element_size(void) {
  tl_layout a = lay("s4[16]{0:E(4)}"), b = lay("s4[16]{0}"), c = lay("s4[3]{0:E(4)}");
  CHECK(a.bytes == 8 && a.elem_bits == 4 && a.explicit_elem_bits, "E(4): 8 bytes");
  CHECK(b.bytes == 16 && b.elem_bits == 8 && !b.explicit_elem_bits, "natural s4: 16 bytes");
  CHECK(c.bytes == 2 && c.logical_bytes == 2, "12 bits -> 2 bytes");
  tl_layout d = lay("s4[8,128]{1,0:T(8,128)E(4)}"); /* 1024 elements * 4 bits */
  CHECK(d.bytes == 512, "tiled E(4)");
  tl_layout p = lay("pred[3]{0}");
  CHECK(p.bytes == 3 && p.elem_bits == 8, "pred: 8 bits");
  tl_layout q = lay("c64[2]{0}");
  CHECK(q.bytes == 16, "c64: 8 bytes");
}

/* L(n): the element count after tiling is padded to a multiple of n. */
static void test_tail_padding(void) {
  tl_layout l = lay("f32[3,5]{1,0:T(2,2)L(32)}");
  CHECK(l.tiled_elems == 24 && l.physical_elems == 32 && l.bytes == 128 && l.alignment == 32, "24 -> 32");
  CHECK_STR(overhead_str(&l), "113.3%", "17/15");
  tl_layout m = lay("f32[10]{0:L(4)}");
  CHECK(m.physical_elems == 12 && m.bytes == 48, "untiled");
  CHECK_STR(mstr(offset_map(&m)), "(d0) -> (d0), domain: d0 in [0, 9]", "tail padding does not move elements");
  CHECK(err_of("f32[10]{0:L(0)}") == TL_BAD_LAYOUT, "L(0)");
}

static void test_errors_and_edges(void) {
  CHECK(err_of("(f32[2]{0}, s32[])") == TL_NOT_ARRAY, "tuple");
  CHECK(err_of("token[]") == TL_NOT_ARRAY, "token");
  CHECK(err_of("f32[?]{0}") == TL_UNBOUNDED, "unbounded");
  CHECK(err_of("f32[9223372036854775807]{0:T(2)}") == TL_OVERFLOW, "ceil(n/2)*2 overflows");
  CHECK(err_of("f32[3037000499,3037000499]{1,0:T(2,2)}") == TL_OVERFLOW, "(3037000499 -> 3037000500)^2 > 2^63-1");
  CHECK(err_of("f32[4611686018427387903]{0}") == TL_OVERFLOW, "byte count overflows");
  CHECK(err_of("s4[9223372036854775807]{0:E(4)}") == TL_OK, "E(4): 2^63-1 nibbles fit in bytes");
  tl_layout d = lay("f32[<=6,3]{1,0:T(4,2)}"); /* bound 6 */
  CHECK(d.logical_elems == 18 && d.physical_elems == 32, "bounded dynamic dim at its bound");
  tl_layout e = lay("f32[0,5]{1,0:T(2,2)}");
  CHECK(e.logical_elems == 0 && e.physical_elems == 0 && e.bytes == 0, "empty");
  CHECK_STR(overhead_str(&e), "n/a", "empty overhead");
  CHECK(offset_map(&e)->known_empty && inverse_map(&e)->known_empty, "empty maps are known-empty");
  /* column-major untiled: the offset is the transposed linearisation */
  tl_layout cm = lay("f32[4,6]{0,1}");
  CHECK_STR(mstr(offset_map(&cm)), "(d0, d1) -> (d1 * 4 + d0), domain: d0 in [0, 3], d1 in [0, 5]", "column-major");
  CHECK_STR(ss_str(&cm), "(4,6):(1,4)", "column-major shape:stride");
  /* a second level that does not divide the first tile's extent: x0 -> (x0/8, y/3, y%3) with
   * y = x0 % 8; interleaved with dim 1 the offset is 36 (x0/8) + 12 (y/3) + 2 (y%3), which is
   * no mixed radix of x0 (3 does not divide 8): not expressible */
  tl_layout nd = lay("f32[16,4]{1,0:T(8,4)(3,2)}");
  CHECK_STR(dims_str(nd.tiled, nd.ntiled), "[2,1,3,2,3,2]", "[16,4] -> [2,1,8,4] -> [2,1,3,2,3,2]");
  CHECK_STR(ss_str(&nd), "not expressible: tile 2 (size 3) splits a tile of dimension 0 whose extent 8 it does not divide",
            "8 by 3");
  /* the same cut is undone when the sub-tiles are stored row after row: 16 -> (2,8) -> (2,3,3)
   * has offset 9 (x/8) + 3 ((x%8)/3) + (x%8)%3 = 9 (x/8) + x%8 (found in the offset map) */
  CHECK_STR(ss_of("f32[16]{0:T(8)(3)}"), "((8,2)):((1,9))", "undone by the row-major order");
  CHECK_STR(ss_of("f32[8]{0:T(8)(3)}"), "((3,3)):((1,3))", "8 -> (1,8) -> (1,3,3): the first tile holds all of dim 0");
  /* a merge whose cut is undone: [6,7] merged to 42, tiled by 2 -> [21,2], offset 7 d3 + d2 */
  CHECK_STR(ss_of("f64[1,1,7,6]{2,3,0,1:T(*,2)}"), "(1,1,7,6):(0,0,1,7)", "merged and tiled, undone");
  /* but a non-dividing tile of the top digit is fine (padding) */
  CHECK_STR(ss_of(("f32[10]{0:T(4)}")), "((4,3)):((1,4))", "10 by 4");
}

static void test_overhead_compare(void) {
  tl_layout a = lay("f32[1,1]{1,0:T(8,128)}"), b = lay("f32[3,5]{1,0:T(2,2)}"), c = lay("f32[6,10]{1,0:T(4,4)}");
  CHECK(tl_overhead_compare(&a, &b) < 0 && tl_overhead_compare(&b, &a) > 0, "larger overhead first");
  CHECK(tl_overhead_compare(&b, &c) == 0, "9/15 == 36/60");
  tl_layout e = lay("f32[0]{0}"), z = lay("f32[4]{0}");
  CHECK(tl_overhead_compare(&e, &z) == 0, "empty counts as no overhead");
}

/* --physical=tiled composition on hand-built logical maps. */
static imap *compose(const char *from, const char *logical, const char *to) {
  tl_layout f = lay(from), t = lay(to);
  tl_error err;
  return ok_map(tl_compose_tiled(A, &f, rd(A, C, logical), &t, &err), &err, "compose");
}

static void test_compose_tiled(void) {
  /* copy f32[4,4]{1,0:T(2,2)} <- f32[4,4]{1,0}: output tile coords (d0,d1,d2,d3) are
   * element (2d0+d2, 2d1+d3), which is also the untiled operand's coordinate */
  CHECK_STR(mstr(compose("f32[4,4]{1,0:T(2,2)}", "(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 3]",
                         "f32[4,4]{1,0}")),
            "(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3), domain: d0 in [0, 1], d1 in [0, 1], d2 in [0, 1], "
            "d3 in [0, 1]",
            "copy to untiled");
  /* copy between two tilings: operand f32[3,5]{0,1:T(2,1)} is physically [5,3] -> [3,3,2,1];
   * element (x0,x1) is at (x1/2, x0, x1%2, 0); with x0 = 2d0+d2, x1 = 2d1+d3, d3 < 2:
   * (d1, 2d0+d2, d3, 0); the output's padding stays excluded */
  CHECK_STR(mstr(compose("f32[3,5]{1,0:T(2,2)}", "(d0, d1) -> (d0, d1), domain: d0 in [0, 2], d1 in [0, 4]",
                         "f32[3,5]{0,1:T(2,1)}")),
            "(d0, d1, d2, d3) -> (d1, d0 * 2 + d2, d3, 0), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 1], "
            "d3 in [0, 1], d0 * 2 + d2 in [0, 2], d1 * 2 + d3 in [0, 4]",
            "copy between tilings");
  /* transpose: f32[5,3]{1,0:T(2,2)} = transpose(f32[3,5]{1,0:T(2,2)}), dimensions={1,0}:
   * output element (2d0+d2, 2d1+d3) reads operand element (2d1+d3, 2d0+d2), which is at
   * tile (d1, d0), in-tile (d3, d2): a transpose of tiles and of each tile */
  CHECK_STR(mstr(compose("f32[5,3]{1,0:T(2,2)}", "(d0, d1) -> (d1, d0), domain: d0 in [0, 4], d1 in [0, 2]",
                         "f32[3,5]{1,0:T(2,2)}")),
            "(d0, d1, d2, d3) -> (d1, d0, d3, d2), domain: d0 in [0, 2], d1 in [0, 1], d2 in [0, 1], d3 in [0, 1], "
            "d0 * 2 + d2 in [0, 4], d1 * 2 + d3 in [0, 2]",
            "transpose");
  /* every output tiled coordinate of the transpose that holds data maps to the operand
   * tiled coordinate of the same element */
  tl_layout out = lay("f32[5,3]{1,0:T(2,2)}"), op = lay("f32[3,5]{1,0:T(2,2)}");
  tl_error err;
  imap *m = ok_map(tl_compose_tiled(A, &out, rd(A, C, "(d0, d1) -> (d1, d0), domain: d0 in [0, 4], d1 in [0, 2]"),
                                    &op, &err),
                   &err, "compose");
  int data = 0;
  for (int64_t a = 0; a < 3; a++)
    for (int64_t b = 0; b < 2; b++)
      for (int64_t c = 0; c < 2; c++)
        for (int64_t d = 0; d < 2; d++) {
          int64_t pt[4] = {a, b, c, d}, x0 = 2 * a + c, x1 = 2 * b + d, got[4];
          bool is_data = x0 < 5 && x1 < 3;
          CHECK(dims_in_domain(m, pt) == is_data, "domain at (%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")", a, b, c, d);
          if (!is_data) continue;
          data++;
          for (int k = 0; k < 4; k++) ae_eval_point(m->results[k], pt, 4, NULL, 0, &got[k]);
          CHECK(got[0] == x1 / 2 && got[1] == x0 / 2 && got[2] == x1 % 2 && got[3] == x0 % 2, "transpose target");
        }
  CHECK(data == 15, "15 data elements");
  /* a map with a range variable: reduce f32[4] -> f32[] over d0, operand tiled T(2) */
  CHECK_STR(mstr(compose("f32[]", "()[s0] -> (s0), domain: s0 in [0, 3]", "f32[4]{0:T(2)}")),
            "()[s0] -> (s0 floordiv 2, s0 mod 2), domain: s0 in [0, 3]", "range variable");
  /* undefined stays undefined; ranks must match */
  tl_layout f = lay("f32[4]{0}");
  CHECK(tl_compose_tiled(A, &f, imap_new_undefined(A, C), &f, &err)->undefined, "undefined");
  CHECK(tl_compose_tiled(A, &f, rd(A, C, "(d0, d1) -> (d0), domain: d0 in [0, 3], d1 in [0, 3]"), &f, &err) == NULL,
        "rank mismatch");
}

int main(void) {
  A = hb_arena_new();
  C = ae_ctx_new();
  test_doc_example();
  test_bf16_packed();
  test_two_level_small();
  test_combine();
  test_leading_dims();
  test_scalars_and_spaces();
  test_element_size();
  test_tail_padding();
  test_errors_and_edges();
  test_overhead_compare();
  test_compose_tiled();
  for (int i = 0; i < nparsed; i++) {
    hlo_parse_result_free(&parsed[i]);
    free(texts[i]);
  }
  ae_ctx_free(C);
  hb_arena_free(A);
  return t_finish("tiled_layout");
}
