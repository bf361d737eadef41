/* Fast path against token by token, for the unit tests of the byte
 * scanners behind folded tokens: a text is parsed twice, once with every
 * '@' made a blank and once with every '@' made a line break (same length,
 * so the same offsets). A line break where the scanners stop at one makes
 * them give up, so the second parse reads those parts token by token.
 * Results, errors and error offsets must be the same, and the modules
 * built must be the same by SAME; a valid text must be taken by the first
 * parse, without the token-by-token re-parse that follows a failure. */
#ifndef HLOIDX_TEST_FAST_SLOW_H
#define HLOIDX_TEST_FAST_SLOW_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_ir.h"
#include "test_check.h"

static char *fast_slow_variant(const char *t, char at) {
  size_t n = strlen(t) + 1;
  char *s = malloc(n);
  if (!s) abort();
  memcpy(s, t, n);
  for (char *p = s; *p; p++)
    if (*p == '@') *p = at;
  return s;
}

typedef struct {
  const char *text;
  const char *error; /* the expected error message's start, or NULL when TEXT is valid */
} fast_slow_case;

typedef bool (*same_module_fn)(const hlo_module *, const hlo_module *);

static void check_fast_slow(const char *text, const char *error, same_module_fn same) {
  int before = failures;
  char *fast = fast_slow_variant(text, ' '), *slow = fast_slow_variant(text, '\n');
  hlo_parse_result rf = {0}, rs = {0};
  hlo_error ef, es;
  unsigned long retries = hlo_parse_retries();
  int cf = hlo_parse_file(fast, strlen(fast), &rf, &ef);
  if (!error) CHECK(cf == 0 && hlo_parse_retries() == retries); /* taken without the diagnostic re-parse */
  int cs = hlo_parse_file(slow, strlen(slow), &rs, &es);
  CHECK(cf == cs);
  if (cf == 0 && cs == 0) {
    CHECK(error == NULL && rf.n_modules == rs.n_modules);
    for (int i = 0; i < rf.n_modules && i < rs.n_modules; i++) CHECK(same(rf.modules[i], rs.modules[i]));
  } else {
    CHECK(strcmp(ef.message, es.message) == 0 && ef.offset == es.offset);
    if (error) CHECK(strncmp(ef.message, error, strlen(error)) == 0);
  }
  if (failures > before)
    fprintf(stderr, "  in parse case:\n%s  fast: %d %s\n  slow: %d %s\n", text, cf, ef.message, cs, es.message);
  if (cf == 0) hlo_parse_result_free(&rf);
  if (cs == 0) hlo_parse_result_free(&rs);
  free(fast);
  free(slow);
}

/* Runs SCAN(i) for the N_SCAN scanner cases, then the N_PARSE PARSE cases;
 * returns the test's exit status, with its summary line. */
static int run_scanner_test(const char *name, size_t n_scan, void (*scan)(size_t i), const fast_slow_case *parse,
                            size_t n_parse, same_module_fn same) {
  for (size_t i = 0; i < n_scan; i++) scan(i);
  for (size_t i = 0; i < n_parse; i++) check_fast_slow(parse[i].text, parse[i].error, same);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("%s: %zu scan cases, %zu parse cases passed\n", name, n_scan, n_parse);
  return 0;
}

#endif
