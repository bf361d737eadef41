/* Unit test of the signature fast path (signature_scan.c).
 *
 * 1. pc_signature_scan on its own: the signatures it reads (names, shapes
 *    the cache knows, spaces) and the ones it leaves to the grammar.
 * 2. The whole parser: each text is parsed twice, once as written and once
 *    with a line break put where '@' stands (same length, so the same
 *    offsets); a line break makes the fast path give up, so the second
 *    parse reads those signatures token by token. Results, errors and
 *    error offsets must be the same, and so must the computations built.
 * Run by CTest as parser/signature_scan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "parse_ctx.h"
#include "test_check.h"
#include "test_fast_slow.h"
#include "test_scan_ctx.h"

/* ---- 1. pc_signature_scan -------------------------------------------------------- */

typedef struct {
  const char *text; /* starts at the '(' */
  int result;       /* 0: the scan gives up; 1: the array shape; 2: the tuple shape */
  int end;          /* bytes read (when it does not give up) */
} scan_case;

static const scan_case scan_cases[] = {
    {"() -> f32[2]{0}", 1, 15},
    {"()->f32[2]{0} {", 1, 13},
    {"(p: f32[2]{0}) -> (f32[], s32[2])", 2, 33},
    {"( p.1:f32[2]{0} , %q-2: (f32[], s32[2]) ) -> f32[2]{0}", 1, 54},
    {"(_a: f32[2]{0}, B: f32[2]{0}, c: f32[2]{0}) -> f32[2]{0}", 1, 56},
    /* left to the grammar */
    {"(p: f32[3]{0}) -> f32[2]{0}", 0, 0},     /* a shape the cache does not know */
    {"(p: f32[2]{0}) -> f32[3]{0}", 0, 0},
    {"(p: f32[2]{0}) -> f32[2]", 0, 0},
    {"(p f32[2]{0}) -> f32[2]{0}", 0, 0},      /* no colon */
    {"(p : f32[2]{0}) -> f32[2]{0}", 0, 0},    /* a blank before the colon */
    {"(1p: f32[2]{0}) -> f32[2]{0}", 0, 0},
    {"(: f32[2]{0}) -> f32[2]{0}", 0, 0},
    {"(p: f32[2]{0},) -> f32[2]{0}", 0, 0},
    {"(p: f32[2]{0}) f32[2]{0}", 0, 0},        /* no arrow */
    {"(p: f32[2]{0}) - > f32[2]{0}", 0, 0},
    {"(p: f32[2]{0})", 0, 0},
    {"(p: f32[2]{0}\n) -> f32[2]{0}", 0, 0},   /* a line break */
    {"(p: f32[2]{0}, /*index=1*/q: f32[2]{0}) -> f32[2]{0}", 0, 0},
    {"(p:\tf32[2]{0}) -> f32[2]{0}", 0, 0},
    {"(p: f32[2]{0} -> f32[2]{0}", 0, 0},
    {"(p: f32[2]{0}) -> ", 0, 0},
};

static void test_scan(const scan_case *c) {
  int before = failures;
  char *data;
  hlo_shape array, tuple;
  parse_ctx *P = scan_ctx_with_shapes(c->text, &data, &array, &tuple);
  size_t plen = strlen(SCAN_SHAPES_PREFIX);
  const char *end = NULL;
  const hlo_shape *r = pc_signature_scan(P, data + plen, &end);
  CHECK(r == (c->result == 1 ? &array : c->result == 2 ? &tuple : NULL));
  if (r) CHECK(end == data + plen + c->end);
  if (failures > before) fprintf(stderr, "  in scan case \"%s\"\n", c->text);
  scan_ctx_free(P);
  free(data);
}

/* ---- 2. fast path against token by token ------------------------------------------- */

static bool same_modules(const hlo_module *a, const hlo_module *b) {
  if (a->n_computations != b->n_computations) return false;
  for (int c = 0; c < a->n_computations; c++) {
    const hlo_computation *ca = a->computations[c], *cb = b->computations[c];
    if (strcmp(ca->name, cb->name) != 0 || ca->n_instrs != cb->n_instrs || ca->is_entry != cb->is_entry ||
        (ca->signature_result == NULL) != (cb->signature_result == NULL) ||
        (ca->signature_result && !hlo_shape_equal(ca->signature_result, cb->signature_result)))
      return false;
  }
  return true;
}

/* A first computation puts f32[2]{0} and (f32[], s32[2]) in the cache. */
#define HEAD "HloModule m\n\nfirst {\n  a = f32[2]{0} parameter(0)\n  t = (f32[], s32[2]) parameter(1)\n" \
             "  ROOT n = f32[2]{0} negate(a)\n}\n\n"
#define BODY " {\n  p = f32[2]{0} parameter(0)\n  ROOT n = f32[2]{0} negate(p)\n}\n"

static const fast_slow_case parse_cases[] = {
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0}" BODY, NULL},
    {HEAD "ENTRY %e (@%p: f32[2]{0}, q: (f32[], s32[2])) -> f32[2]{0}" BODY, NULL},
    {HEAD "ENTRY %e (@%p: f32[2]{0}, q: (f32[], s32[2])) -> (f32[], s32[2])" BODY, "the result shape (f32[], s32[2])"},
    {HEAD "second (@p: f32[2]{0}) -> f32[2]{0}" BODY "ENTRY e (@) -> f32[2]{0}" BODY, NULL},
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0}" BODY "\n// -----\n\nHloModule n\n\nENTRY e (@p: f32[2]{0}) -> f32[2]{0}" BODY,
     NULL},
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0} foo" BODY, "expected"},
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0}, x=1" BODY, "expected"},
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0} (@q: f32[2]{0}) -> f32[2]{0}" BODY, "expected"},
    /* a misplaced signature, with shapes known from the module before */
    {HEAD "ENTRY e" BODY "// -----\nHloModule n (@p: f32[2]{0}) -> f32[2]{0}" BODY, "expected"},
    {HEAD "ENTRY e (@p: f32[2]{0}) -> f32[2]{0}", "expected"},
};

static void scan_at(size_t i) { test_scan(&scan_cases[i]); }

int main(void) {
  return run_scanner_test("signature_scan", sizeof scan_cases / sizeof scan_cases[0], scan_at, parse_cases,
                          sizeof parse_cases / sizeof parse_cases[0], same_modules);
}
