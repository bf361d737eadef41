/* Decimal floating-point text to double without strtod, for the usual
 * literal values ("0.5", "-1e-05", "3"). */
#ifndef HLOIDX_DECIMAL_H
#define HLOIDX_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>

/* S[0..LEN): -?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)? with at most 15
 * significant digits whose value is m * 10^e with |e| <= 22. Then *OUT is
 * the correctly rounded double (what strtod gives: m and 10^|e| are exact
 * doubles, and one IEEE multiplication or division rounds correctly) and
 * the result is true; otherwise false, and the caller uses strtod. */
bool pc_decimal_exact(const char *s, size_t len, double *out);

#endif
