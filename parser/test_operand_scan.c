/* Unit test of the operand-list fast path (operand_scan.c).
 *
 * 1. pc_operand_scan on its own: the lists it reads (names, shapes the
 *    cache knows, blanks) and the ones it leaves to the grammar, which must
 *    leave the operand vector as it was.
 * 2. The whole parser: each text is parsed twice, once as written and once
 *    with a line break put after every '(' marked '@' (same length, so the
 *    same offsets); a line break there makes the fast path give up, so the
 *    second parse reads those lists token by token. Results, errors and
 *    error offsets must be the same, and so must the instructions built.
 * Run by CTest as parser/operand_scan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "intern.h"
#include "parse_ctx.h"
#include "test_check.h"
#include "test_fast_slow.h"
#include "test_scan_ctx.h"

/* ---- 1. pc_operand_scan ---------------------------------------------------------- */

typedef struct {
  const char *text;  /* starts at the '(' */
  int n;             /* operands read, or -1 when the scan must give up */
  const char *names; /* the names, joined by ' ' */
  int with_shape;    /* how many carry the cached shape */
} scan_case;

static const scan_case scan_cases[] = {
    {"()", 0, "", 0},
    {"(  )", 0, "", 0},
    {"(%a)", 1, "a", 0},
    {"( %a , %b.1,%c-d_2 )", 3, "a b.1 c-d_2", 0},
    {"(%_x, %A9)", 2, "_x A9", 0},
    {"(f32[2]{0} %a, %b)", 2, "a b", 1},
    {"(f32[2]{0}%a)", 1, "a", 1},
    {"((f32[], s32[2]) %t, f32[2]{0} %u)", 2, "t u", 2},
    /* names without '%' (JAX): with a '.', or words the lexer reads as names */
    {"(a)", 1, "a", 0},
    {"(a.1, %b, c-d_2.x)", 3, "a.1 b c-d_2.x", 0},
    {"(f32[2]{0} x, (f32[], s32[2]) y.2)", 2, "x y.2", 2},
    {"(b, constant, maximal)", 3, "b constant maximal", 0},
    /* XLA's index comments before an operand after a comma */
    {"(%a, %b, /*index=2*/%c)", 3, "a b c", 0},
    {"(%a, /*index=1*/ f32[2]{0} %b, /*index=12*/(f32[], s32[2]) c.1)", 3, "a b c.1", 2},
    /* left to the grammar */
    {"(%a %b)", -1, NULL, 0},
    {"(%a,)", -1, NULL, 0},
    {"(%a, )", -1, NULL, 0},
    {"(,%a)", -1, NULL, 0},
    {"(true)", -1, NULL, 0},             /* words that are not names */
    {"(f32)", -1, NULL, 0},
    {"(ROOT, a)", -1, NULL, 0},
    {"(a:b)", -1, NULL, 0},
    {"(a=b)", -1, NULL, 0},
    {"(a b)", -1, NULL, 0},
    {"(f32[3]{0} a)", -1, NULL, 0},
    {"(L.1@2:4)", -1, NULL, 0},
    {"(%1a)", -1, NULL, 0},
    {"(%)", -1, NULL, 0},
    {"(%a /* c */)", -1, NULL, 0},
    {"(/*index=0*/%a)", -1, NULL, 0},    /* (only after a comma) */
    {"(%a, /*index=*/%b)", -1, NULL, 0},
    {"(%a, /*index=1 */%b)", -1, NULL, 0},
    {"(%a, /* index=1*/%b)", -1, NULL, 0},
    {"(%a, /*index=1*/ /*index=2*/%b)", -1, NULL, 0},
    {"(%a, /*index=1*/)", -1, NULL, 0},
    {"(%a, /*index=1*", -1, NULL, 0},
    {"(%a /*index=1*/, %b)", -1, NULL, 0},
    {"(%a\n)", -1, NULL, 0},
    {"(\t%a)", -1, NULL, 0},
    {"(%a, %b", -1, NULL, 0},
    {"(%a=%b)", -1, NULL, 0},
    {"(f32[3]{0} %a)", -1, NULL, 0},   /* a shape the cache does not know */
    {"(f32[2]{1} %a)", -1, NULL, 0},
    {"(f32[2]{0} %a, neg(%b))", -1, NULL, 0}, /* a nested instruction */
    {"(s32[] %a)", -1, NULL, 0},
    {"(f32[2]{0})", -1, NULL, 0},
    {"(%a:f32[])", -1, NULL, 0},
};

static void test_scan(const scan_case *c) {
  int before = failures;
  char *data;
  hlo_shape array, tuple;
  parse_ctx *P = scan_ctx_with_shapes(c->text, &data, &array, &tuple);
  size_t plen = strlen(SCAN_SHAPES_PREFIX), tlen = strlen(c->text);
  /* something already on the operand vector, which the scan must keep */
  pc_tok outer = {.ptr = "outer", .len = 5, .kind = HT_PCT_NAME};
  pc_operand_name(P, NULL, &outer, NULL);

  const char *end = NULL;
  pc_range r = {0, 0};
  bool ok = pc_operand_scan(P, data + plen, &end, &r);
  CHECK(ok == (c->n >= 0));
  if (ok && c->n >= 0) {
    CHECK(end == data + plen + tlen); /* every case ends at its ')' */
    CHECK(r.b == 1 && r.e == 1 + (uint32_t)c->n && P->operands.n == r.e);
    char names[200] = "";
    int shaped = 0;
    for (uint32_t i = r.b; i < r.e; i++) {
      const pc_operand *o = &PC_AT(P->operands, pc_operand, i);
      const char *nm = hlo_istr_str(o->name);
      if (i > r.b) strcat(names, " ");
      strcat(names, nm);
      /* the offset is the '%', or the name's first byte */
      size_t at = o->off + (data[o->off] == '%');
      CHECK(strncmp(data + at, nm, strlen(nm)) == 0);
      if (o->decl_shape) {
        shaped++;
        CHECK(o->decl_shape == (data[o->off - 2] == ')' ? &tuple : &array));
      }
    }
    CHECK(strcmp(names, c->names) == 0);
    CHECK(shaped == c->with_shape);
  } else {
    CHECK(P->operands.n == 1); /* given up: nothing pushed */
  }
  if (failures > before) fprintf(stderr, "  in scan case \"%s\"\n", c->text);
  scan_ctx_free(P);
  free(data);
}

/* ---- 2. fast path against token by token ------------------------------------------- */

static void names_of(const hlo_instr *in, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "%s=%s(", in->name, in->opcode_text);
  for (int i = 0; i < in->n_operands && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "," : "", in->operands[i]->name);
  if (n < cap) snprintf(buf + n, cap - n, ")");
}

static bool same_modules(const hlo_module *a, const hlo_module *b) {
  if (a->n_computations != b->n_computations) return false;
  for (int c = 0; c < a->n_computations; c++) {
    const hlo_computation *ca = a->computations[c], *cb = b->computations[c];
    if (strcmp(ca->name, cb->name) != 0 || ca->n_instrs != cb->n_instrs) return false;
    for (int i = 0; i < ca->n_instrs; i++) {
      const hlo_instr *x = ca->instrs[i], *y = cb->instrs[i];
      char bx[512], by[512];
      names_of(x, bx, sizeof bx);
      names_of(y, by, sizeof by);
      if (strcmp(bx, by) != 0 || x->offset != y->offset || !hlo_shape_equal(x->shape, y->shape)) return false;
    }
  }
  return true;
}

#define HEAD "HloModule m\n\nENTRY e {\n  a = f32[2]{0} parameter(0)\n  b = f32[2]{0} parameter(1)\n" \
             "  t = (f32[], s32[2]) parameter(2)\n  w = f32[3]{0} parameter(3)\n"

static const fast_slow_case parse_cases[] = {
    {HEAD "  ROOT c = f32[2]{0} add(@a, b)\n}\n", NULL},
    {HEAD "  ROOT c = f32[2]{0} add(@f32[2]{0} a, f32[2]{0} b)\n}\n", NULL},
    {HEAD "  ROOT c = f32[2]{0} add(@a, zz.1)\n}\n", "operand 'zz.1' is not defined"},
    {HEAD "  ROOT c = f32[2]{0} add(@a, true)\n}\n", "expected"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b)\n}\n", NULL},
    {HEAD "  ROOT c = f32[2]{0} add(@f32[2]{0} %a, f32[2]{0} %b)\n}\n", NULL},
    {HEAD "  g = f32[] get-tuple-element(@(f32[], s32[2]) %t), index=0\n"
          "  ROOT c = f32[2]{0} add(@%a, %b), metadata={op_name=\"x\"}\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(@%a)\n  ROOT c = f32[2]{0} add(@%n, f32[2]{0} negate(%b))\n}\n", NULL},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, f32[2]{0} multiply(@%a, %b))\n}\n", NULL},
    {HEAD "  k = () tuple(@)\n  ROOT c = f32[2]{0} add(@ %a , %b )\n}\n", NULL},
    {HEAD "  ROOT c = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(@%a, %b, %a)\n}\n", NULL},
    {HEAD "  ROOT c = (f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, /*index=5*/f32[2]{0}) "
          "tuple(@%a, %b, %a, %b, %a, /*index=5*/f32[2]{0} %b)\n}\n", NULL},
    {HEAD "  ROOT c = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(@%a, %b, /*index=2*/%zz)\n}\n",
     "operand 'zz' is not defined"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %zz)\n}\n", "operand 'zz' is not defined"},
    {HEAD "  ROOT c = f32[2]{0} add(@f32[3]{0} %a, %b)\n}\n", "the declared operand shape f32[3]{0} is not compatible"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b) foo\n}\n", "expected"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b), =\n}\n", "expected"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b)[\n}\n", "expected"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b)\n", "'{' is not closed"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b) c2 = f32[2]{0} add(@%a, %b)\n}\n", NULL},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b)(\n}\n", "expected"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b), dimensions={0}\n}\n", "unexpected attribute"},
    {HEAD "  ROOT c = f32[2]{0} add(@%a, %b, %c)\n}\n", "add 'c' expects 2 operands"},
    {HEAD "  c = f32[2]{0} add(@%a, %b)\n  ROOT c = f32[2]{0} add(@%a, %b)\n}\n", "instruction 'c' is already defined"},
    /* an operand's shape written as its definition's line wrote it (own_shape), or not */
    {HEAD "  n = f32[2]{0} negate(@f32[2]{0} %a)\n  m = f32[2]{0} negate(@f32[2]{0} %n)\n"
          "  ROOT c = f32[2]{0} add(@f32[2]{0} %n, f32[2]{0}  %m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(@f32[2]{0} %a)\n  ROOT c = f32[2]{0} add(@f32[2] %n, f32[ 2]{0} %n)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(@f32[2]{0} %a)\n  ROOT c = f32[2]{0} add(@f32[3]{0} %n, %b)\n}\n",
     "the declared operand shape f32[3]{0} is not compatible"},
    {HEAD "  n = f32[2]{0} negate(@f32[2]{0} %a)\n  ROOT c = f32[2]{0} add(@f32[2]{0} %n, f32[2]{0} %zz)\n}\n",
     "operand 'zz' is not defined"},
    {"HloModule m\n\nf {\n  x = f32[3]{0} parameter(0)\n  ROOT y = f32[3]{0} negate(@f32[3]{0} %x)\n}\n\n"
     "ENTRY e {\n  w = f32[3]{0} parameter(0)\n  x = f32[2]{0} parameter(1)\n"
     "  n = f32[3]{0} negate(@f32[3]{0} %w)\n  ROOT c = f32[2]{0} negate(@f32[3]{0} %x)\n}\n",
     "the declared operand shape f32[3]{0} is not compatible"},
};

static void scan_at(size_t i) { test_scan(&scan_cases[i]); }

int main(void) {
  return run_scanner_test("operand_scan", sizeof scan_cases / sizeof scan_cases[0], scan_at, parse_cases,
                          sizeof parse_cases / sizeof parse_cases[0], same_modules);
}
