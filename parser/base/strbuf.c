#include "strbuf.h"

#include "oom.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_sb_reserve(hb_strbuf *b, size_t extra) {
  if (extra >= SIZE_MAX - b->len - 1) goto oom;
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return;
  size_t ncap = b->cap ? b->cap : 64;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) {
      ncap = need;
      break;
    }
    ncap *= 2;
  }
  char *p = realloc(b->data, ncap);
  if (!p) goto oom;
  b->data = p;
  b->cap = ncap;
  return;
oom:
  hb_oom();
}

void hb_sb_init(hb_strbuf *b) { memset(b, 0, sizeof *b); }
void hb_sb_free(hb_strbuf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}
void hb_sb_reset(hb_strbuf *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}
/* Decimal digits without snprintf (the printers call these for every
 * index and bound). */
void hb_sb_put_u64(hb_strbuf *b, uint64_t v) {
  static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
  if (v < 10) { /* most indices and bounds */
    hb_sb_putc(b, (char)('0' + v));
    return;
  }
  size_t n = 2; /* digits */
  for (uint64_t t = v / 100; t; t /= 10) n++;
  if (b->cap - b->len <= n) hb_sb_reserve(b, n);
  char *p = b->data + b->len + n; /* written in place, last digits first, two at a time */
  *p = '\0';
  for (; v >= 100; v /= 100) {
    p -= 2;
    memcpy(p, pairs + 2 * (v % 100), 2);
  }
  if (v >= 10) {
    memcpy(p - 2, pairs + 2 * v, 2);
  } else {
    p[-1] = (char)('0' + v);
  }
  b->len += n;
}
void hb_sb_put_u128(hb_strbuf *b, unsigned __int128 v) {
  if (v <= UINT64_MAX) { /* no 128-bit divisions */
    hb_sb_put_u64(b, (uint64_t)v);
    return;
  }
  char tmp[40];
  size_t n = sizeof tmp;
  do {
    tmp[--n] = (char)('0' + (int)(v % 10u));
    v /= 10u;
  } while (v);
  hb_sb_putn(b, tmp + n, sizeof tmp - n);
}
void hb_sb_put_i64(hb_strbuf *b, int64_t v) {
  if (v < 0) {
    hb_sb_putc(b, '-');
    hb_sb_put_u64(b, (uint64_t)0 - (uint64_t)v);
  } else {
    hb_sb_put_u64(b, (uint64_t)v);
  }
}
void hb_sb_printf(hb_strbuf *b, const char *fmt, ...) {
  /* Formatted into a buffer first, not measured with vsnprintf(NULL, 0,
   * ...): some compilers' -Wformat-truncation reads that as a null format
   * string under the sanitizers. */
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n > 0 && (size_t)n < sizeof small) {
    hb_sb_putn(b, small, (size_t)n);
  } else if (n > 0) {
    hb_sb_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}
const char *hb_sb_str(const hb_strbuf *b) { return b->data ? b->data : ""; }
