/* Unit test of pc_decimal_exact (decimal.c): wherever it takes a text, its
 * double must be strtod's, bit for bit; it must take the usual literal
 * spellings and leave the others to strtod. Texts are enumerated (every
 * combination of a few signs, integer parts, fractions and exponents) and
 * drawn at random (up to 20 digits, exponents up to +-40). Run by CTest as
 * parser/decimal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "test_check.h"

static long taken, checked;

/* TEXT through both conversions. */
static void compare(const char *text) {
  double fast, slow = strtod(text, NULL);
  checked++;
  if (!pc_decimal_exact(text, strlen(text), &fast)) return;
  taken++;
  if (memcmp(&fast, &slow, sizeof fast) != 0) {
    fprintf(stderr, "%s: %.17g, strtod %.17g\n", text, fast, slow);
    failures++;
  }
}

static bool takes(const char *text) {
  double v;
  return pc_decimal_exact(text, strlen(text), &v);
}

static void test_enumerated(void) {
  static const char *const sign[] = {"", "-"};
  static const char *const ints[] = {"0", "1", "7", "10", "00", "123", "999999999999999", "1000000000000000",
                                     "9007199254740993", "4503599627370497"};
  static const char *const fracs[] = {"", ".", ".0", ".5", ".1", ".25", ".000001", ".333333333333333",
                                      ".3333333333333333", ".100000000000000"};
  static const char *const exps[] = {"", "e0", "e1", "e-1", "E+5", "e-05", "e22", "e-22", "e23", "e-23", "e-300", "e308"};
  char buf[128];
  for (size_t a = 0; a < 2; a++)
    for (size_t b = 0; b < sizeof ints / sizeof *ints; b++)
      for (size_t c = 0; c < sizeof fracs / sizeof *fracs; c++)
        for (size_t d = 0; d < sizeof exps / sizeof *exps; d++) {
          snprintf(buf, sizeof buf, "%s%s%s%s", sign[a], ints[b], fracs[c], exps[d]);
          compare(buf);
        }
}

static void test_random(void) {
  uint64_t x = 88172645463325252ull;
  char buf[128];
  for (int i = 0; i < 300000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int n = 1 + (int)(x % 20), dot = (int)(x >> 8) % (n + 2), e = (int)((x >> 16) % 81) - 40;
    char *p = buf;
    if (x >> 63) *p++ = '-';
    uint64_t y = x;
    for (int k = 0; k < n; k++) {
      if (k == dot && k) *p++ = '.';
      y = y * 6364136223846793005ull + 1442695040888963407ull;
      *p++ = (char)('0' + (y >> 60) % 10);
    }
    if ((x >> 24) & 1) p += sprintf(p, "e%d", e);
    *p = '\0';
    compare(buf);
  }
}

int main(void) {
  test_enumerated();
  test_random();
  /* the usual spellings are taken; the others are left to strtod */
  CHECK(takes("0.5") && takes("-1e-05") && takes("3") && takes("0.1") && takes("1.00000001") && takes("-0"));
  CHECK(!takes("") && !takes("-") && !takes(".5") && !takes("1e") && !takes("0x1p3") && !takes("inf") &&
        !takes("1e23") && !takes("1.2345678901234567") && !takes("1 ") && !takes("+1"));
  CHECK(taken > checked / 4);
  printf("%ld texts, %ld taken by the fast path\n", checked, taken);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
