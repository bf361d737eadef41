#include "json_str.h"

#include <stdint.h>
#include <string.h>

size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  uint32_t cp, min;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

void json_str(hb_strbuf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  hb_sb_putc(b, '"');
  size_t run = 0; /* bytes [i - run, i) copied as they are */
  size_t i = 0;
  while (i < n) {
    unsigned c = p[i];
    const char *esc = NULL;
    char u[7];
    size_t len = 0;
    if (c == '"') esc = "\\\"";
    else if (c == '\\') esc = "\\\\";
    else if (c == '\n') esc = "\\n";
    else if (c == '\t') esc = "\\t";
    else if (c == '\r') esc = "\\r";
    else if (c == '\b') esc = "\\b";
    else if (c == '\f') esc = "\\f";
    else if (c < 0x20 || c == 0x7f) {
      memcpy(u, "\\u00", 4);
      u[4] = hex[c >> 4];
      u[5] = hex[c & 15];
      u[6] = 0;
      esc = u;
    } else if ((len = utf8_len(p + i, n - i)) == 0) {
      esc = "\\ufffd";
    }
    if (!esc) {
      i += len;
      run += len;
      continue;
    }
    hb_sb_putn(b, (const char *)p + i - run, run);
    run = 0;
    hb_sb_puts(b, esc);
    i++;
  }
  hb_sb_putn(b, (const char *)p + i - run, run);
  hb_sb_putc(b, '"');
}

void json_cstr(hb_strbuf *b, const char *s) { json_str(b, s ? s : "", s ? strlen(s) : 0); }

void put_printable(hb_strbuf *b, const char *s, size_t n, bool newlines) {
  for (size_t i = 0; i < n;) {
    const unsigned char *c = (const unsigned char *)s + i;
    size_t k = *c == '\t' || (*c == '\n' && newlines) || (*c >= 0x20 && *c != 0x7f) ? utf8_len(c, n - i) : 0;
    if (*c == '\n' && newlines) k = 1;
    if (k) hb_sb_putn(b, s + i, k);
    else hb_sb_putc(b, '?');
    i += k ? k : 1;
  }
}
