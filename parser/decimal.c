/* The exact fast path of decimal-to-double conversion (decimal.h): the
 * constants of a dump are mostly short decimals, and strtod costs several
 * hundred instructions per call. */
#include "decimal.h"

#include <stdint.h>

/* 10^0 .. 10^22: every one is exactly representable in a double. */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool pc_decimal_exact(const char *s, size_t len, double *out) {
  const char *p = s, *end = s + len;
  bool neg = p < end && *p == '-';
  p += neg;
  uint64_t m = 0;
  int digits = 0, exp10 = 0; /* significant digits in m; the decimal exponent */
  const char *d = p;
  for (; p < end && *p >= '0' && *p <= '9'; p++) {
    if (m == 0 && *p == '0') continue; /* leading zeros are not significant */
    if (++digits > 15) return false;
    m = m * 10 + (uint64_t)(*p - '0');
  }
  if (p == d) return false; /* no integer digit */
  if (p < end && *p == '.') {
    for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
      exp10--;
      if (m == 0 && *p == '0') continue;
      if (++digits > 15) return false;
      m = m * 10 + (uint64_t)(*p - '0');
    }
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    bool eneg = p < end && (*p == '-' || *p == '+') ? *p++ == '-' : false;
    const char *ed = p;
    int e = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
      if (e > 1000) return false;
      e = e * 10 + (*p - '0');
    }
    if (p == ed) return false;
    exp10 += eneg ? -e : e;
  }
  if (p != end) return false;
  double v = (double)m; /* exact: m < 10^15 < 2^53 */
  if (m != 0) {
    if (exp10 < -22 || exp10 > 22) return false;
    v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
  }
  *out = neg ? -v : v;
  return true;
}
