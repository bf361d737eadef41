/* Fuzz entry point: --compare's golden reader (cli/golden_read.c: the
 * text, MLIR and JSON forms) and the comparison of maps as relations
 * (analysis/map_relation.c).
 *
 * The input is read as a golden. Every entry is compared with itself,
 * which must come out as equal text, and with the entry after it (any two
 * entries: the comparison must take whatever texts it is given). The
 * enumeration budget is lowered so that each input stays fast. */
#include <stdio.h>

#include "fuzz_common.h"
#include "golden_read.h"
#include "map_relation.h"

static void compare(mrel_ctx *c, const cmp_entry *a, const cmp_entry *b, bool self) {
  mrel_text *ta = hb_malloc((a->n + 1) * sizeof *ta), *tb = hb_malloc((b->n + 1) * sizeof *tb);
  for (uint32_t i = 0; i < a->n; i++) ta[i] = a->m[i].map;
  for (uint32_t i = 0; i < b->n; i++) tb[i] = b->m[i].map;
  mrel_result r;
  mrel_compare(c, ta, a->n, tb, b->n, &r);
  if (self && r.verdict != MREL_EQUAL_TEXT) abort();
  if (r.verdict == MREL_DIFFERENT && r.witness && r.side != 0 && r.side != 1) abort();
  mrel_result_free(&r);
  free(ta);
  free(tb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_padded_copy(data, size);
  source_file src = {.name = "<fuzz>", .data = text, .len = size};
  cmp_doc d;
  cmp_doc_init(&d);
  if (cmp_read_golden(&src, &d) == 0) {
    mrel_ctx *c = mrel_ctx_new();
    mrel_ctx_set_enum_limit(c, (uint64_t)1 << 14);
    const cmp_entry *prev = NULL;
    for (size_t i = 0; i < d.n; i++)
      for (uint32_t k = 0; k < d.b[i].n; k++) {
        const cmp_entry *e = &d.b[i].e[k];
        compare(c, e, e, true);
        if (prev) compare(c, prev, e, false);
        prev = e;
      }
    mrel_ctx_free(c);
  }
  cmp_doc_free(&d);
  free(text);
  return 0;
}
