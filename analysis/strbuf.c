#include "strbuf.h"

#include "oom.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_reserve(strbuf *b, size_t extra) {
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
  hloidx_oom();
}

void sb_init(strbuf *b) { memset(b, 0, sizeof *b); }
void sb_free(strbuf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}
void sb_reset(strbuf *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}
/* Decimal digits without snprintf (the printers call these for every
 * index and bound). */
void sb_put_u64(strbuf *b, uint64_t v) {
  char tmp[24];
  size_t n = sizeof tmp;
  do {
    tmp[--n] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  sb_putn(b, tmp + n, sizeof tmp - n);
}
void sb_put_u128(strbuf *b, unsigned __int128 v) {
  if (v <= UINT64_MAX) return sb_put_u64(b, (uint64_t)v); /* no 128-bit divisions */
  char tmp[40];
  size_t n = sizeof tmp;
  do {
    tmp[--n] = (char)('0' + (int)(v % 10u));
    v /= 10u;
  } while (v);
  sb_putn(b, tmp + n, sizeof tmp - n);
}
void sb_put_i64(strbuf *b, int64_t v) {
  if (v < 0) {
    sb_putc(b, '-');
    sb_put_u64(b, (uint64_t)0 - (uint64_t)v);
  } else {
    sb_put_u64(b, (uint64_t)v);
  }
}
void sb_indent(strbuf *b, int n) {
  static const char spaces[] = "                                ";
  for (; n > 0; n -= 32) sb_putn(b, spaces, n < 32 ? (size_t)n : 32);
}
void sb_printf(strbuf *b, const char *fmt, ...) {
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
    sb_putn(b, small, (size_t)n);
  } else if (n > 0) {
    sb_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}
const char *sb_str(const strbuf *b) { return b->data ? b->data : ""; }
