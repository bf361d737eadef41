/* Unit test of the folded tokens (hlo_tokwrap.c) against the parse that
 * folds none (hlo_parse_file_unfolded): attributes read whole by attr_fold
 * (backend_config=, frontend_attributes=, next to those that fold and
 * those that do not, blanks and comments around them), in and after runs
 * of instruction lines, runs that end a computation, shardings, constants
 * with array and tuple literals, computation headers (names, signatures,
 * the body's '{', ENTRY, trailers), stack-frame tables, and the module's
 * attributes (one unit, entry_computation_layout, with its shapes known or
 * not). Each text is parsed both ways: the results, the errors and their
 * offsets must be the same, and so must the modules built
 * (test_same_ir.h); a valid text must be taken by the folded parse on its
 * own, without the token-by-token re-parse of a failure.
 * Run by CTest as parser/folds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "test_check.h"
#include "test_same_ir.h"

typedef struct {
  const char *text;
  const char *error; /* the expected error message's start, or NULL when TEXT is valid */
} fold_case;

#define MOD "HloModule m\n\n"
#define ADD "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"
#define ENTRY_HEAD "ENTRY e {\n  a = f32[2]{0} parameter(0)\n  b = f32[2]{0} parameter(1)\n"
#define TEXT(lines) MOD ADD ENTRY_HEAD lines "}\n"
/* 70 '{' and 70 '}' */
#define B10 "{{{{{{{{{{"
#define E10 "}}}}}}}}}}"
#define B70 B10 B10 B10 B10 B10 B10 B10
#define E70 E10 E10 E10 E10 E10 E10 E10
/* a module whose root is the constant SHAPE constant(LIT) */
#define CONSTANT(shape, lit) TEXT("  ROOT k = " shape " constant(" lit ")\n")
/* an entry computation for the layout (f32[2]{0}, (f32[], s32[2]{0}))->f32[2]{0} */
#define ENTRY_TUPLE                                                                                  \
  "ENTRY e {\n  a = f32[2]{0} parameter(0)\n  t = (f32[], s32[2]{0}) parameter(1)\n"                  \
  "  ROOT n = f32[2]{0} negate(a)\n}\n"

static const fold_case cases[] = {
    /* backend_config: a raw dictionary (braces and quotes nested), a string, empty */
    {TEXT("  n = f32[2]{0} negate(a), backend_config={\"x\":{\"y\":[1,2]},\"s\":\"}{\\\"\"}\n"
          "  ROOT m = f32[2]{0} negate(n), backend_config=\"cfg\", metadata={op_name=\"m\"}\n"),
     NULL},
    {TEXT("  n = f32[2]{0} negate(a), backend_config={}\n  m = f32[2]{0} negate(n), backend_config={ }\n"
          "  ROOT r = f32[2]{0} add(n, m), backend_config=''\n"),
     NULL},
    /* after attributes that fold and before others, and after ROOT */
    {TEXT("  n = f32[2]{0} negate(a), metadata={op_name=\"n\"}, backend_config={\"k\":1}, sharding={replicated}\n"
          "  ROOT m = f32[2]{0} negate(n), sharding={replicated}, backend_config={\"k\":2}\n"),
     NULL},
    /* blanks, line breaks and comments around the value */
    {TEXT("  n = f32[2]{0} negate(a), backend_config=\n    {\"k\":1} /* c */, metadata={op_name=\"n\"}\n"
          "  ROOT m = f32[2]{0} negate(n), backend_config= /* c */ \"s\"\n"),
     NULL},
    /* frontend_attributes: empty, one item, several, a trailing comma, raw values */
    {TEXT("  n = f32[2]{0} negate(a), frontend_attributes={}\n"
          "  m = f32[2]{0} negate(n), frontend_attributes={a=\"1\"}\n"
          "  p = f32[2]{0} negate(m), frontend_attributes={a=\"1\",b=\"2\", c=\"3\",}\n"
          "  ROOT r = f32[2]{0} add(n, p), frontend_attributes={k={\"x\":[1]}, l=\"}\"}, metadata={op_name=\"r\"}\n"),
     NULL},
    {TEXT("  n = f32[2]{0} negate(a), frontend_attributes={\n    a=\"1\", /* c */ b={}\n  }\n"
          "  ROOT m = f32[2]{0} negate(n), frontend_attributes={a=\"x\"}, backend_config={}\n"),
     NULL},
    /* the module's own attributes are not folded, but come first */
    {"HloModule m, frontend_attributes={a=\"1\"}, backend_config={\"k\":1}\n\n" ADD ENTRY_HEAD
     "  ROOT n = f32[2]{0} negate(a), frontend_attributes={a=\"1\"}\n}\n",
     NULL},
    /* computation headers: signatures, none, ENTRY, comments and line breaks, trailers */
    {MOD "%add (x: f32[], y: f32[]) -> f32[] {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(x, y)\n}\n\n%add2 (x: f32[], y: f32[]) -> f32[] {\n  x = f32[] parameter(0)\n"
         "  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"
         "ENTRY %e (a: f32[2]) -> f32[2] {\n  a = f32[2]{0} parameter(0)\n  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    {MOD ADD "add2 /* c */ (x: f32[], y: f32[]) -> f32[]\n{\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
             "  ROOT s = f32[] add(x, y)\n}, execution_thread=\"host\"\nadd3\n{\n  x = f32[] parameter(0)\n"
             "  ROOT s = f32[] negate(x)\n}, execution_thread=\"main\"\n" ENTRY_HEAD
             "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    {MOD ADD "c (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}\nd () -> f32[] {\n"
             "  ROOT k = f32[] constant(1)\n}\n"
             "e (x: f32[], t: (f32[], s32[])) -> (f32[], s32[]) {\n  t = (f32[], s32[]) parameter(1)\n"
             "  x = f32[] parameter(0)\n  g = s32[] get-tuple-element(t), index=1\n"
             "  ROOT u = (f32[], s32[]) tuple(x, g)\n}\n"
             "ENTRY f {\n  ROOT k = f32[] constant(2)\n}\n",
     NULL},
    /* without a HloModule line; stack-frame tables before the computations */
    {ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n", NULL},
    {MOD "FileNames\n1 \"a.py\"\nFunctionNames\n1 \"f\"\nFileLocations\n1 {file_name_id=1 function_name_id=1 line=2}\n"
         "StackFrames\n1 {file_location_id=1 parent_frame_id=0}\n"
         "\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    /* the module's attributes: each kind that folds, in a first module
     * (its shapes not known yet) and in a second one (known) */
    {"HloModule m, is_scheduled=true, entry_computation_layout={(f32[2]{0}, (f32[], s32[2]{0}))->f32[2]{0}}, "
     "input_output_alias={ {0}: (0, {}, may-alias) }, num_partitions=3, "
     "allow_spmd_sharding_propagation_to_output={true,false}, "
     "frontend_attributes={fp=\"1\",x={\"k\":[]}}, backend_config={\"a\":1}, x_string=\"s\", x_float=0.5, "
     "x_list=[1,2]\n\n"
     ADD ENTRY_TUPLE "\n// -----\n\n"
     "HloModule m2, is_scheduled=true, entry_computation_layout={(f32[2]{0}, (f32[], s32[2]{0}))->f32[2]{0}}, "
     "input_output_alias={ {0}: (0, {}, may-alias) }, frontend_attributes={fp=\"1\"}, backend_config=\"c\"\n\n"
     ADD ENTRY_TUPLE,
     NULL},
    /* blanks, line breaks and comments; no parameters; values that do not fold (a name, a shape) */
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n\n// -----\n\n"
     "HloModule m2 , entry_computation_layout=\n {( f32[2]{0} ,\n f32[2]{0} ) -> f32[2]{0} }, "
     "entry_computation_layout={()->f32[2]{0}}, a=b, s=f32[2]{0}, c={/* c */}, d=/* c */ 1\n\n"
     ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     "module attribute 'entry_computation_layout' is given twice"},
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n\n// -----\n\n"
     "HloModule m2 , entry_computation_layout=\n {( f32[2]{0} ,\n f32[2]{0} ) -> f32[2]{0} }, "
     "a=b, s=f32[2]{0}, c={/* c */}, d=/* c */ 1\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n\n// -----\n\n"
     "HloModule m2, entry_computation_layout={(f32[2]{0}, /* c */ f32[2]{0})->f32[2]{0}}, e={()->f32[2]{0}}\n\n"
     ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    /* the '}' after a run (RUN_END), after one line of it, after a line that does not fold */
    {MOD ADD "c (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}\nd {\n  x = f32[] parameter(0)\n"
             "  ROOT n = f32[] negate(x), metadata={op_name=\"n\"} /* c */\n}\n" ENTRY_HEAD
             "  n = f32[2]{0} negate(a)\n  ROOT m = f32[2]{0} add(n, b)\n} /* end */ , execution_thread=\"host\"\n",
     NULL},
    {TEXT("  n = f32[2]{0} negate(a)\n  ROOT m = f32[] reduce(n, f32[] constant(0)), dimensions={0}, to_apply={\n"
          "    x = f32[] parameter(0)\n    y = f32[] parameter(1)\n    ROOT s = f32[] add(x, y)\n  }\n"),
     NULL},
    {TEXT("  n = f32[2]{0} negate(a)\n  ROOT m = f32[2]{0} negate(n)\n}\n"), "expected"},
    {MOD ADD ENTRY_HEAD "  n = f32[2]{0} negate(a)\n  ROOT m = f32[2]{0} negate(n)\n", "'{' is not closed"},
    {MOD ADD ENTRY_HEAD "  n = f32[2]{0} negate(a)\n  ROOT m = f32[2]{0} negate(n)\n)\n", "expected"},
    /* shardings: device lists and iotas, shard_as, tuples */
    {TEXT("  n = f32[2]{0} negate(a), sharding={devices=[2]<=[2]}\n"
          "  t = (f32[2]{0}, f32[2]{0}) tuple(a, b), sharding={{maximal device=0}, {replicated}}, "
          "metadata={op_name=\"t\"}\n"
          "  m = f32[2]{0} negate(n), sharding={devices=[2,1]<=[2]T(1,0) last_tile_dim_replicate}\n"
          "  p = f32[2]{0} negate(m), sharding={devices=[1,2]0,1 last_tile_dims={manual}}\n"
          "  ROOT r = f32[2]{0} add(n, p), sharding={ {}, {shard_as 1} }\n"),
     NULL},
    {TEXT("  ROOT n = f32[2]{0} negate(a), sharding={devices=[2]}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), sharding={{replicated},}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), sharding={devices=[2]<=[2]T}\n"), "expected"},
    /* constants: array and tuple literals fold with their line */
    {TEXT("  k1 = s32[2]{0} constant({516, 0})\n  k2 = f32[2,2]{1,0} constant({ {1, 2}, {3, 4} })\n"
          "  k3 = bf16[3]{0} constant({...})\n  k4 = (s32[], f32[2]{0}) constant((1, {2, 3}))\n"
          "  k5 = f32[0]{0} constant({})\n  k6 = pred[2]{0} constant({true, false}), metadata={op_name=\"k\"}\n"
          "  k7 = f32[4]{0} constant({inf, -inf, nan, -0.5e3})\n  k8 = () constant(())\n"
          "  k9 = f32[2]{0} constant( /* c */ {1,\n 2} )\n  ROOT n = f32[2]{0} negate(a)\n"),
     NULL},
    /* a tuple literal whose text is that of a tuple shape read before is
     * read as that shape, and rejected (both ways) */
    {TEXT("  t = (()) parameter(2)\n  k = (()) constant((()))\n  ROOT n = f32[2]{0} negate(a)\n"), "expected"},
    {CONSTANT("s32[2]{0}", "{1, 2"), "expected"},
    {CONSTANT("s32[2]{0}", "{1,,2}"), "expected"},
    {CONSTANT("s32[2]{0}", "{1 2}"), "expected"},
    {CONSTANT("s32[2]{0}", "{1, 2},"), "expected"},
    {CONSTANT("s32[2]{0}", "{1, 2,}"), "expected"},
    {CONSTANT("(s32[], s32[])", "(1, 2,)"), "expected"},
    {CONSTANT("s32[2]{0}", "{... 1}"), "expected"},
    {CONSTANT("s32[2]{0}", "{x, 2}"), "expected"},
    {CONSTANT("s32[3]{0}", "{1, 2}"), "literal has 2 elements"},
    {CONSTANT("s32[]", B70 "1" E70), "expected an integer"}, /* past lit_scan's 64 */
    /* a trailer after the first computation (still open until then) */
    {MOD "add (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}, execution_thread=\"host\"\n" ENTRY_HEAD
         "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    /* stack-frame tables: several names, none, escapes; errors */
    {MOD "FileNames\n1 \"a.py\"\n2 \"b \\\"c\\\".py\"\n-3 'd'\nFunctionNames\nFileLocations\n"
         "1 {file_name_id=1 function_name_id=1 line=2}\nStackFrames\n"
         "\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     NULL},
    {MOD "FileNames\n1 \"a.py\"\n2\nFunctionNames\n1 \"f\"\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     "expected"},
    {MOD "FileNames\n1 \"a.py\" \"b.py\"\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n", "expected"},
    {MOD "FunctionNames\n1 \"f\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n", "unterminated"},
    /* errors */
    {"HloModule m, a=1 2\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n", "expected"},
    {"HloModule m, a=\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n", "expected"},
    {"HloModule m, a={1}, a=2\n\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     "module attribute 'a' is given twice"},
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n\n// -----\n\n"
     "HloModule m2, entry_computation_layout={(f32[2]{0})->f32[2]{0}\n"
     "\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     "expected"},
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n\n// -----\n\n"
     "HloModule m2, entry_computation_layout={(f32[2]{0}) f32[2]{0}}\n"
     "\n" ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}\n",
     "expected"},
    {MOD ADD ENTRY_HEAD "  ROOT n = f32[2]{0} negate(a)\n}, a={1}\n", "unexpected attribute 'a' after computation"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), backend_config={\"k\":1\n"), "'{' is not closed"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), backend_config=12\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), backend_config={}, "
     "backend_config=\"x\"\n"), "attribute 'backend_config' is given twice"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), frontend_attributes={a=1}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), frontend_attributes={,}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), frontend_attributes={a=\"1\" b=\"2\"}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), frontend_attributes={a =\"1\"}\n"), "expected"},
    {TEXT("  ROOT n = f32[2]{0} negate(a), frontend_attributes={a=\"1\"\n"), "'{' is not closed"},
    {MOD "ENTRY c (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}\nENTRY d (x: f32[]) -> f32[] {\n"
         "  ROOT x = f32[] parameter(0)\n}\n",
     "a second ENTRY computation"},
    {MOD ADD "add (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}\n", "computation 'add' is already defined"},
    /* (a '{' after the result's ']' and before '}' is its layout) */
    {MOD ADD "c (x: f32[]) -> f32[] {\n}\n", "expected '{'"},
    {MOD ADD "c (x: f32[2]) -> f32[2]{0} {\n}\n", "expected 'name =' or 'ROOT' in computation body"},
    {MOD ADD "c (x: f32[]) -> f32[] (\n  ROOT x = f32[] parameter(0)\n}\n", "expected"},
    {MOD ADD "c {\n  ROOT x = f32[] parameter(0)\n}\nc2 (x: f32[]) -> f32[]\n", "expected"},
};

static void check_case(const fold_case *c) {
  int before = failures;
  size_t len = strlen(c->text);
  hlo_parse_result rf = {0}, ru = {0};
  hlo_error ef, eu;
  unsigned long retries = hlo_parse_retries();
  int cf = hlo_parse_file(c->text, len, &rf, &ef);
  if (!c->error) CHECK(cf == 0 && hlo_parse_retries() == retries); /* taken without the re-parse */
  int cu = hlo_parse_file_unfolded(c->text, len, &ru, &eu);
  CHECK(cf == cu);
  if (cf == 0 && cu == 0) {
    CHECK(c->error == NULL && rf.n_modules == ru.n_modules);
    for (int i = 0; i < rf.n_modules && i < ru.n_modules; i++) CHECK(same_module(rf.modules[i], ru.modules[i]));
  } else {
    CHECK(strcmp(ef.message, eu.message) == 0 && ef.offset == eu.offset);
    if (c->error) CHECK(strncmp(ef.message, c->error, strlen(c->error)) == 0);
  }
  if (failures > before)
    fprintf(stderr, "  in case:\n%s  folded: %d %s\n  unfolded: %d %s\n", c->text, cf, cf ? ef.message : "", cu,
            cu ? eu.message : "");
  if (cf == 0) hlo_parse_result_free(&rf);
  if (cu == 0) hlo_parse_result_free(&ru);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("folds: %zu cases passed\n", sizeof cases / sizeof cases[0]);
  return 0;
}
