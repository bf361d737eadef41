/* tilings.h and fusion_tiling.h on whole instructions: the count of valid
 * tilings by independent groups of tile sizes must equal walking the whole
 * candidate product, and the table of candidates sifted map by map (the
 * tilings of an instruction in parts) must keep the same ones in order; backend_config's output tiles in the forms XLA
 * writes; and at every valid tiling the reads per element of a transpose
 * are 1 and of a broadcast the tiles along the broadcast dimension. */
#include "backend_config.h"
#include "fusion_tiling.h"
#include "test_util.h"
#include "tilings.h"

static hlo_parse_result pr;
static char *buf;

static const hlo_instr *parse(const char *hlo) {
  hlo_error perr;
  size_t len = strlen(hlo);
  buf = calloc(len + 64, 1);
  memcpy(buf, hlo, len);
  if (hlo_parse_file(buf, len, &pr, &perr)) {
    fprintf(stderr, "test input does not parse: %s\n", perr.message);
    exit(2);
  }
  return pr.modules[0]->entry->root;
}

static void done(ii_ctx *c) {
  ii_ctx_end_module(c);
  hlo_parse_result_free(&pr);
  free(buf);
}

static const char *const modules[] = {
    /* mod constraints on one dimension (t0 divides 6 or 6 divides t0) */
    "HloModule m\nENTRY e {\n  p = f32[1,8,6,4] parameter(0)\n  ROOT r = f32[48,4] reshape(p)\n}\n",
    /* summation constraints joining two tile sizes */
    "HloModule m\nENTRY e {\n  p = f32[96,5] parameter(0)\n  ROOT r = f32[8,12,5] reshape(p)\n}\n",
    /* both, over three groups */
    "HloModule m\nENTRY e {\n  p = f32[6,4,10,3] parameter(0)\n  ROOT r = f32[24,5,2,3] reshape(p)\n}\n",
    /* no constraints */
    "HloModule m\nENTRY e {\n  p = f32[7,9] parameter(0)\n  ROOT t = f32[9,7] transpose(p), dimensions={1,0}\n}\n",
};

static void test_counts(ii_ctx *c) {
  for (size_t i = 0; i < sizeof modules / sizeof *modules; i++) {
    const hlo_instr *in = parse(modules[i]);
    ii_ctx_reset(c);
    ft_tiling t;
    ii_error err;
    CHECK(ft_symbolic(c, in, 0, &t, &err) == II_OK, "module %zu: %s", i, err.message);
    tg_count cnt;
    tg_count_valid(&t, &cnt);
    tg_iter it;
    tg_begin(ii_ctx_arena(c), &t, false, &it);
    int64_t ts[8];
    tf_count walked = 0;
    while (tg_next(&it, ts)) walked++;
    CHECK(cnt.tileable && cnt.exact && !it.exhausted, "module %zu: tileable, exact", i);
    CHECK(cnt.valid == walked, "module %zu: %llu valid by groups, %llu by walking", i, (unsigned long long)cnt.valid,
          (unsigned long long)walked);
    /* the table, sifted a map at a time (as parts), keeps the same
     * tilings in the same order */
    tg_table tb;
    CHECK(tg_table_begin(&tb, t.extent, t.rank), "module %zu: a table", i);
    for (uint32_t e = 0; e < t.nentries; e++) {
      ft_tiling part = t;
      part.entries = &t.entries[e];
      part.nentries = 1;
      CHECK(tg_table_sift(&tb, &part), "module %zu: sifted", i);
    }
    CHECK(tb.valid == cnt.valid, "module %zu: %llu valid in the table, %llu by groups", i, (unsigned long long)tb.valid,
          (unsigned long long)cnt.valid);
    tg_begin(ii_ctx_arena(c), &t, false, &it);
    for (uint64_t j = 0; j < tb.n; j++) {
      if (!tb.ok[j]) continue;
      CHECK(tg_next(&it, ts) && !memcmp(ts, &tb.ts[j * t.rank], t.rank * sizeof *ts), "module %zu: candidate %llu in order",
            i, (unsigned long long)j);
    }
    CHECK(!tg_next(&it, ts), "module %zu: no more valid tilings than the table's", i);
    tg_table_end(&tb);
    done(c);
  }
}

/* Reads per element at every valid tiling. */
static void test_reads(ii_ctx *c) {
  const hlo_instr *in = parse("HloModule m\nENTRY e {\n  p = f32[6,10] parameter(0)\n  ROOT t = f32[10,6] "
                              "transpose(p), dimensions={1,0}\n}\n");
  ii_ctx_reset(c);
  ft_tiling t;
  ii_error err;
  CHECK(ft_symbolic(c, in, 0, &t, &err) == II_OK, "transpose");
  tg_iter it;
  tg_begin(ii_ctx_arena(c), &t, false, &it);
  int64_t ts[2];
  while (tg_next(&it, ts)) {
    ft_instantiate(c, &t, ts);
    ft_distinct(c, &t);
    CHECK(t.operands[0].loaded == 60 && t.operands[0].distinct == 60, "transpose at %ldx%ld: each element once",
          (long)ts[0], (long)ts[1]);
  }
  done(c);
  in = parse("HloModule m\nENTRY e {\n  p = f32[10] parameter(0)\n  ROOT b = f32[6,10] broadcast(p), dimensions={1}\n}\n");
  ii_ctx_reset(c);
  CHECK(ft_symbolic(c, in, 0, &t, &err) == II_OK, "broadcast");
  tg_begin(ii_ctx_arena(c), &t, false, &it);
  while (tg_next(&it, ts)) {
    ft_instantiate(c, &t, ts);
    ft_distinct(c, &t);
    tf_count rows = (tf_count)((6 + ts[0] - 1) / ts[0]);
    CHECK(t.operands[0].loaded == rows * 10 && t.operands[0].distinct == 10,
          "broadcast at %ldx%ld: every element once per tile row", (long)ts[0], (long)ts[1]);
  }
  done(c);
}

static void test_backend_config(void) {
  static const char *const configs[][2] = {
      {"backend_config={\"fusion_backend_config\":{\"block_level_fusion_config\":{\"output_tiles\":[{\"sizes\":[\"4\",\"8\"]}]}}}",
       "4,8"},
      {"backend_config={fusion_backend_config:{kind:\"__triton\", block_level_fusion_config:{output_tiles:[{sizes:[16,32]}]}}}",
       "16,32"},
      {"backend_config=\"{\\\"fusion_backend_config\\\":{\\\"block_level_fusion_config\\\":{\\\"output_tiles\\\":[{\\\"sizes\\\":[\\\"2\\\",\\\"3\\\"]}]}}}\"",
       "2,3"},
      {"backend_config={\"fusion_backend_config\":{\"kind\":\"__triton\"}}", "absent"},
      {"backend_config={\"fusion_backend_config\":{\"block_level_fusion_config\":{\"output_tiles\":[{\"sizes\":[\"0\",\"8\"]}]}}}",
       "malformed"},
  };
  for (size_t i = 0; i < sizeof configs / sizeof *configs; i++) {
    hb_strbuf m = HB_STRBUF_INIT;
    hb_sb_printf(&m, "HloModule m\nf {\n  x = f32[8,32] parameter(0)\n  ROOT n = f32[8,32] negate(x)\n}\nENTRY e {\n"
                  "  p = f32[8,32] parameter(0)\n  ROOT r = f32[8,32] fusion(p), kind=kCustom, calls=f, %s\n}\n",
              configs[i][0]);
    const hlo_instr *in = parse(hb_sb_str(&m));
    hb_arena *a = hb_arena_new();
    int64_t *sizes;
    uint32_t n = 0;
    char why[200];
    bc_status st = bc_output_tile(a, in, 0, &sizes, &n, why, sizeof why);
    hb_strbuf got = HB_STRBUF_INIT;
    if (st == BC_FOUND)
      for (uint32_t k = 0; k < n; k++) hb_sb_printf(&got, "%s%lld", k ? "," : "", (long long)sizes[k]);
    else hb_sb_puts(&got, st == BC_ABSENT ? "absent" : "malformed");
    CHECK_STR(hb_sb_str(&got), configs[i][1], configs[i][0]);
    hb_sb_free(&got);
    hb_sb_free(&m);
    hb_arena_free(a);
    hlo_parse_result_free(&pr);
    free(buf);
  }
}

int main(void) {
  ii_ctx *c = ii_ctx_new();
  test_counts(c);
  test_reads(c);
  test_backend_config();
  ii_ctx_free(c);
  return t_finish("tilings");
}
