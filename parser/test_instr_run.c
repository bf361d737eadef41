/* Unit test of INSTR_RUN: consecutive instruction lines that head_fold
 * takes, read as one token and built by pc_run_build (hlo_tokwrap.c,
 * instr_run).
 *
 * Each text is parsed twice (test_fast_slow.h): once as written, and once
 * with a line break where '@' stands. A '@' is put inside operand lists,
 * where a line break makes the operand scan give up, so that line is read
 * token by token and the run is cut there. Results, errors and error
 * offsets must be the same, and so must the modules built (test_same_ir.h:
 * every instruction's place, name, opcode, operands, offset, shape, ROOT
 * mark, parameter number, attributes and called computations).
 * Run by CTest as parser/instr_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "test_check.h"
#include "test_fast_slow.h"
#include "test_same_ir.h"

/* The parameters form a run of their own (their shapes are new, so the
 * first line of each shape is read token by token). */
#define HEAD                                                                                   \
  "HloModule m\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"                 \
  "  ROOT s = f32[] add(@x, y)\n}\n\nENTRY e {\n  a = f32[2]{0} parameter(0)\n"                \
  "  b = f32[2]{0} parameter(1)\n  t = (f32[2]{0}, f32[2]{0}) parameter(2)\n"                   \
  "  k = f32[] constant(0)\n  k2 = f32[] constant(1)\n"

static const fast_slow_case parse_cases[] = {
    /* runs, and runs cut at each line */
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%n)\n  ROOT r = f32[2]{0} add(%n, %m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(@%a)\n  m = f32[2]{0} negate(@%n)\n  ROOT r = f32[2]{0} add(@%n, %m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(@%n)\n  ROOT r = f32[2]{0} add(%n, %m)\n}\n", NULL},
    /* ROOT inside a run, not last */
    {HEAD "  ROOT n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(@%n)\n  p = f32[2]{0} negate(%m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  ROOT m = f32[2]{0} negate(%n)\n  p = f32[2]{0} negate(@%m)\n}\n", NULL},
    /* the attributes head_fold takes, in the run; a ',' it does not take ends it */
    {HEAD "  g = f32[2]{0} get-tuple-element(@%t), index=1\n  m = f32[2]{0} negate(%g), metadata={op_name=\"x\"}\n"
          "  ROOT r = f32[] reduce(%m, %k), dimensions={0}, to_apply=add\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%n), backend_config={\"x\":1}\n"
          "  p = f32[2]{0} negate(%m)\n  ROOT r = f32[2]{0} add(%p, %n), backend_config=\"y\"\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a), backend_config={}\n  m = f32[2]{0} negate(%n), backend_config={}\n"
          "  ROOT r = f32[2]{0} add(%n, %m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  ROOT m = f32[2]{0} negate(%n), backend_config={}\n}\n", NULL},
    /* lines that do not fold: a new shape, a nested operand, 'name=', a comment */
    {HEAD "  n = f32[2]{0} negate(%a)\n  c = f16[2]{0} convert(%n)\n  m = f32[2]{0} negate(%n)\n"
          "  ROOT r = f32[2]{0} add(%n, f32[2]{0} negate(%m))\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m= f32[2]{0} negate(%n)\n  p = f32[2]{0} negate(@%m)\n}\n", NULL},
    {HEAD "  n = f32[2]{0} negate(%a)\n  // a comment\n  m = f32[2]{0} negate(%n) /* another */\n"
          "  p = f32[2]{0} negate(%m)\n}\n", NULL},
    /* operands defined later (resolved when the computation closes) */
    {HEAD "  n = f32[2]{0} negate(%m)\n  m = f32[2]{0} negate(@%a)\n  ROOT p = f32[2]{0} negate(%n)\n}\n", NULL},
    /* errors inside a run: the same error, at the same place */
    {HEAD "  n = f32[2]{0} negate(%a)\n  n = f32[2]{0} negate(@%a)\n}\n", "instruction 'n' is already defined"},
    {HEAD "  n = f32[2]{0} negate(%a)\n  n = f32[2]{0} negate(%a)\n}\n", "instruction 'n' is already defined"},
    {HEAD "  ROOT n = f32[2]{0} negate(%a)\n  ROOT m = f32[2]{0} negate(%n)\n}\n",
     "computation 'e' has more than one ROOT instruction"},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%zz)\n  p = f32[2]{0} negate(@%n)\n}\n",
     "operand 'zz' is not defined"},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%n, %a)\n  p = f32[2]{0} negate(%n)\n}\n",
     "negate 'm' expects 1 operand"},
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%n), dimensions={0}\n  p = f32[2]{0} negate(%n)\n}\n",
     "unexpected attribute"},
    {HEAD "  n = f32[2]{0} negate(%a)\n  q = f32[] parameter(0)\n}\n", "duplicate parameter number 0"},
    /* 'parameter(N)' and 'constant(N)' read from their bytes, and (after '@') by the lexer */
    {HEAD "  q = f32[] parameter(@3)\n  k3 = s32[] constant(@42)\n  k4 = u64[] constant(@123456789012345678)\n"
          "  ROOT n = f32[2]{0} negate(%a)\n}\n", NULL},
    {HEAD "  q = f32[] parameter(@1073741825)\n}\n", "parameter number 1073741825 is too large"},
    {HEAD "  k3 = u64[] constant(@1234567890123456789)\n  ROOT n = f32[2]{0} negate(%a)\n}\n", NULL},
    {HEAD "  k3 = s32[] constant(@-7)\n  k4 = s32[] constant(@ 7 )\n  ROOT n = f32[2]{0} negate(%a)\n}\n", NULL},
    /* where no instruction may come, a run is rejected as its first line would be */
    {HEAD "  n = f32[2]{0} negate(%a)\n  m = f32[2]{0} negate(%n) ) p = f32[2]{0} negate(%m)\n}\n", "expected"},
    {"HloModule m\n\nENTRY e {\n  a = f32[2]{0} parameter(0)\n  b = f32[2]{0} parameter(1)\n}\n"
     "  c = f32[2]{0} negate(%a)\n  d = f32[2]{0} negate(%b)\n",
     "expected"},
};

/* A computation longer than a run may be (RUN_MAX, 1024 lines), with a
 * '@' in every 300th line: runs end at the limit and at those lines. */
static void long_computation(void) {
  enum { LINES = 2600 };
  size_t cap = LINES * 64 + 512, n = 0;
  char *t = malloc(cap);
  if (!t) abort();
  n += (size_t)snprintf(t + n, cap - n, "%s", HEAD "  n0 = f32[2]{0} negate(%a)\n");
  for (int i = 1; i < LINES; i++)
    n += (size_t)snprintf(t + n, cap - n, "  %sn%d = f32[2]{0} negate(%s%%n%d)\n", i == LINES - 1 ? "ROOT " : "", i,
                          i % 300 == 0 ? "@" : "", i - 1);
  snprintf(t + n, cap - n, "}\n");
  check_fast_slow(t, NULL, same_module);
  free(t);
}

int main(void) {
  long_computation();
  return run_scanner_test("instr_run", 0, NULL, parse_cases, sizeof parse_cases / sizeof parse_cases[0],
                          same_module);
}
