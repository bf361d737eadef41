/* The analysis budgets report "analysis too large for NAME" instead of
 * running on: the node budget per query (ii_ctx_set_node_budget), the text
 * limit (ii_ctx_set_text_limit), fusion nesting, and the default budget on
 * a normal query (which must not trigger). */
#include <stdio.h>
#include <string.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "test_util.h"

/* The fusion of testdata/indexing/error_too_large.hlo, 36 ops long (a
 * reshape / bitcast / transpose chain): a few hundred new nodes. */
static char *chain_text(void) {
  static const char *const step[6] = {
      "  v%d = f32[3,2,2]{2,1,0} transpose(v%d), dimensions={1,2,0}\n",
      "  v%d = f32[6,2]{1,0} reshape(v%d)\n",
      "  v%d = f32[3,2,2]{2,1,0} bitcast(v%d)\n",
      "  v%d = f32[2,3,2]{2,0,1} bitcast(v%d)\n",
      "  v%d = f32[3,2,2]{2,1,0} transpose(v%d), dimensions={1,0,2}\n",
      "  v%d = f32[2,3,2]{2,1,0} reshape(v%d)\n",
  };
  hb_strbuf b = HB_STRBUF_INIT;
  hb_sb_puts(&b, "HloModule chain\nfused {\n  v0 = f32[2,3,2]{2,1,0} parameter(0)\n");
  for (int i = 1; i <= 36; i++) {
    if (i == 36) hb_sb_puts(&b, "  ROOT");
    hb_sb_printf(&b, step[(i - 1) % 6], i, i - 1);
  }
  hb_sb_puts(&b, "}\nENTRY e {\n  p = f32[2,3,2]{2,1,0} parameter(0)\n"
              "  ROOT f = f32[2,3,2]{2,1,0} fusion(p), kind=kLoop, calls=fused\n}\n");
  return b.data;
}

static char *parse_buf; /* the text the module points into */

static hlo_parse_result parse(const char *text) {
  hlo_parse_result r;
  hlo_error err;
  size_t n = strlen(text);
  char *buf = parse_buf = calloc(n + 64, 1);
  memcpy(buf, text, n);
  if (hlo_parse_file(buf, n, &r, &err)) {
    fprintf(stderr, "parse error: %s\n", err.message);
    exit(1);
  }
  return r;
}

int main(void) {
  char *text = chain_text();
  hlo_parse_result r = parse(text);
  const hlo_instr *f = r.modules[0]->entry->root;
  ii_indexing x;
  ii_error err;

  /* the default budget: fine */
  ii_ctx *c = ii_ctx_new();
  CHECK(ii_o2i(c, f, 0, &x, &err) == II_OK, "default budget: %s", err.message);
  ii_ctx_free(c);

  /* a budget of 100 new nodes: too large, with the name and the budget */
  c = ii_ctx_new();
  ii_ctx_set_node_budget(c, 100);
  CHECK(ii_o2i(c, f, 0, &x, &err) == II_TOO_LARGE, "budget 100 must be crossed");
  CHECK_STR(err.message, "analysis too large for 'f': computing its indexing maps exceeds the budget of 100 expression nodes",
            "node budget message");
  CHECK(err.instr == f, "the error names the fusion");
  /* the context is usable again afterwards, with the default budget */
  ii_ctx_set_node_budget(c, II_DEFAULT_NODE_BUDGET);
  ii_ctx_reset(c);
  CHECK(ii_o2i(c, f, 0, &x, &err) == II_OK, "after the budget error: %s", err.message);
  ii_ctx_free(c);

  /* the text limit: on a map inside the fusion (it stops the composition) */
  c = ii_ctx_new();
  ii_ctx_set_text_limit(c, 3);
  CHECK(ii_o2i(c, f, 0, &x, &err) == II_TOO_LARGE, "text limit 3 must be crossed");
  CHECK_STR(err.message,
            "analysis too large for 'f': an indexing map through 'v36' in 'fused' would have more than 3 expression "
            "nodes as text",
            "text limit message (fusion)");
  /* ... and on the result of a single op: the transpose v1 (3 results) */
  const hlo_instr *v1 = hlo_computation_find_instr(r.modules[0]->computations[0], "v1");
  CHECK(v1 && v1->op == HLO_OP_TRANSPOSE, "v1 is the transpose");
  ii_ctx_set_text_limit(c, 2);
  ii_ctx_reset(c);
  CHECK(ii_o2i(c, v1, 0, &x, &err) == II_TOO_LARGE, "text limit 2 must be crossed");
  CHECK_STR(err.message, "analysis too large for 'v1': its indexing maps would have more than 2 expression nodes as text",
            "text limit message (single op)");
  ii_ctx_set_text_limit(c, 3);
  ii_ctx_reset(c);
  CHECK(ii_o2i(c, v1, 0, &x, &err) == II_OK, "text limit 3 is enough for the transpose: %s", err.message);
  ii_ctx_free(c);

  hlo_parse_result_free(&r);
  free(parse_buf);
  free(text);
  return t_finish("limits");
}
