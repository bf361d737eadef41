/* CHECK for the parser's unit tests: a failed condition is printed with its
 * place and counted in `failures` (main returns non-zero when it is not 0). */
#ifndef HLOIDX_TEST_CHECK_H
#define HLOIDX_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                               \
    }                                                                           \
  } while (0)

#endif
