/* Unit test of the sharding fast path (sharding_scan.c): pc_sharding_scan
 * on its own, at the start of a sharding={...} value. For each text:
 * whether the scan reads it, and then its extent (the value as the
 * grammar's sharding rule would take it), also where the parser's
 * nesting limit leaves no room for its brackets. The scan must never move
 * the lexer. The whole-parse behaviour (same results and diagnostics as token
 * by token) is checked by the goldens and by fuzz/diff_builds.sh against
 * the build before the fast path. Run by CTest as parser/sharding_scan. */
#include <stdlib.h>
#include <string.h>

#include "test_check.h"
#include "test_scan_ctx.h"

typedef struct {
  const char *text;  /* the bytes after 'sharding=' */
  const char *value; /* what the scan reads, or NULL when it must give up */
} sharding_case;

static const sharding_case cases[] = {
    {"{maximal device=0}, metadata={}", "{maximal device=0}"},
    {"{maximal device=-3}\n", "{maximal device=-3}"}, /* the grammar takes any integer */
    {"{replicated}", "{replicated}"},
    {"{manual}", "{manual}"},
    {"{unknown} ", "{unknown}"},
    {"{unreduced}", "{unreduced}"},
    {"{ maximal /* c */\n device=1 }", "{ maximal /* c */\n device=1 }"},
    {"{}", "{}"},
    {"{replicated last_tile_dim_replicate}", "{replicated last_tile_dim_replicate}"},
    /* device lists and iotas, transposed or not; shard_as, shard_like; tuples */
    {"{devices=[2,1]0,1}", "{devices=[2,1]0,1}"},
    {"{devices=[3,1]<=[3]}, metadata={}", "{devices=[3,1]<=[3]}"},
    {"{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}", "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"},
    {"{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}",
     "{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}"},
    {"{last_tile_dims={}}", "{last_tile_dims={}}"},
    {"{shard_as 1}", "{shard_as 1}"},
    {"{maximal device=0 shard_like 2}", "{maximal device=0 shard_like 2}"},
    {"{{maximal device=0}, {replicated}}", "{{maximal device=0}, {replicated}}"},
    {"{ {}, {devices=[2]0,1} }\n", "{ {}, {devices=[2]0,1} }"},
    /* left to the grammar */
    {"{devices=[2]}", NULL}, /* the devices must follow */
    {"{devices=[2]0,}", NULL},
    {"{devices=[2]<=[2]T}", NULL},
    {"{devices=[2]<=[2]T(1}", NULL},
    {"{devices=[2]<=2}", NULL},
    {"{devices=[]<=[2]}", NULL},
    {"{devices=[2]{1}}", NULL},
    {"{last_tile_dims={manual,}}", NULL},
    {"{last_tile_dims={shard_as}}", NULL},
    {"{{maximal device=0},}", NULL},
    {"{{maximal device=0} {replicated}}", NULL},
    {"{{replicated}, maximal}", NULL},
    {"{shard_as x}", NULL},
    {"{maximal device=0 metadata={op_name=\"a\"}}", NULL},
    {"{maximal calls=0}", NULL}, /* not an attribute the catalogue keeps raw */
    {"{maximal device=x}", NULL},
    {"{maximal device = 1}", NULL}, /* 'device =' is not an attribute name to the lexer */
    {"{maximal device=0", NULL},
    {"{maximal device=0 @}", NULL},
    {"{mesh[a=2]}", NULL},
    {"maximal", NULL},
    {"", NULL},
};

static void test_case(const sharding_case *c, int depth) {
  int before = failures;
  parse_ctx *P = scan_ctx_new(c->text, strlen(c->text), depth);
  const char *start = NULL, *end = NULL;
  bool ok = pc_sharding_scan(P, &start, &end);
  CHECK(ok == (c->value != NULL));
  if (ok && c->value) {
    size_t n = strlen(c->value);
    CHECK(start == c->text);
    CHECK(end == c->text + n && strncmp(c->text, c->value, n) == 0);
  }
  CHECK(P->lx.cur == c->text);
  if (failures > before) fprintf(stderr, "  in case \"%s\" (depth %d)\n", c->text, depth);
  scan_ctx_free(P);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) test_case(&cases[i], 1);
  /* a bracket one level deeper than the parser allows */
  const struct {
    const char *text;
    int room; /* levels of brackets it needs */
  } deep[] = {{"{replicated}", 1}, {"{devices=[2]0}", 2}, {"{{replicated}}", 2}, {"{{devices=[2]<=[2]}}", 3}};
  for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
    sharding_case no = {deep[i].text, NULL}, yes = {deep[i].text, deep[i].text};
    test_case(&no, HLO_MAX_NESTING - deep[i].room + 1);
    test_case(&yes, HLO_MAX_NESTING - deep[i].room);
  }
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
