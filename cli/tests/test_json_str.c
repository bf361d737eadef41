/* json_str: every byte string becomes a valid JSON string literal in valid
 * UTF-8. Table rows with the expected literal, then a property check over
 * all byte strings of length <= 3 from an alphabet of awkward bytes: the
 * literal must decode (by a small strict decoder here) to the input with
 * each invalid byte replaced by U+FFFD. */
#include "../../analysis/tests/test_util.h"
#include "json_str.h"

static void row(const char *in, size_t n, const char *want) {
  hb_strbuf b = HB_STRBUF_INIT;
  json_str(&b, in, n);
  CHECK_STR(hb_sb_str(&b), want, "json_str");
  hb_sb_free(&b);
}

/* Strict UTF-8 decoding of one code point; -1 if invalid. */
static long dec_utf8(const unsigned char *s, size_t n, size_t *len) {
  unsigned c = s[0];
  size_t l;
  long cp, min;
  if (c < 0x80) return *len = 1, (long)c;
  if (c >= 0xc2 && c <= 0xdf) l = 2, cp = c & 0x1f, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef) l = 3, cp = c & 0x0f, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4) l = 4, cp = c & 0x07, min = 0x10000;
  else return -1;
  if (l > n) return -1;
  for (size_t i = 1; i < l; i++) {
    if ((s[i] & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  *len = l;
  return cp;
}

/* Decodes the JSON literal (strictly) into code points; -1 on an error. */
static int dec_json(const char *lit, long *out, int cap) {
  const unsigned char *p = (const unsigned char *)lit;
  size_t n = strlen(lit);
  if (n < 2 || p[0] != '"' || p[n - 1] != '"') return -1;
  int k = 0;
  for (size_t i = 1; i < n - 1;) {
    if (k >= cap) return -1;
    if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '"') return -1; /* 0x7f is legal JSON, but we escape it */
    if (p[i] == '\\') {
      char e = (char)p[i + 1];
      const char *simple = "\"\\/bfnrt", *val = "\"\\/\b\f\n\r\t";
      const char *q = strchr(simple, e);
      if (e && q) {
        out[k++] = (unsigned char)val[q - simple];
        i += 2;
        continue;
      }
      if (e != 'u' || i + 6 > n - 1) return -1;
      long v = 0;
      for (int j = 2; j < 6; j++) {
        int c = p[i + j];
        if (!isxdigit(c)) return -1;
        v = v * 16 + (isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
      }
      out[k++] = v;
      i += 6;
      continue;
    }
    size_t l;
    long cp = dec_utf8(p + i, n - 1 - i, &l);
    if (cp < 0) return -1;
    out[k++] = cp;
    i += l;
  }
  return k;
}

int main(void) {
  row("", 0, "\"\"");
  row("fusion.3", 8, "\"fusion.3\"");
  row("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
  row("\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\"");
  row("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
  row("x\0y", 3, "\"x\\u0000y\"");
  row("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");              /* é, well-formed: copied */
  row("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");            /* € */
  row("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");    /* U+1F600 */
  row("\xff", 1, "\"\\ufffd\"");                         /* never valid */
  row("\x80z", 2, "\"\\ufffdz\"");                       /* stray continuation byte */
  row("\xc3", 1, "\"\\ufffd\"");                         /* truncated */
  row("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");              /* overlong '/' */
  row("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");   /* surrogate U+D800 */
  row("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
  row("\xe2\x82", 2, "\"\\ufffd\\ufffd\"");              /* truncated 3-byte sequence */

  /* Property: every string over the alphabet round-trips. */
  static const unsigned char alpha[] = {'a', '"', '\\', 0, 0x1f, 0x7f, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac,
                                        0xf0, 0x9f, 0xed, 0xff};
  size_t na = sizeof alpha;
  unsigned char in[3];
  int strings = 0;
  for (size_t len = 0; len <= 3; len++) {
    size_t total = 1;
    for (size_t i = 0; i < len; i++) total *= na;
    for (size_t code = 0; code < total; code++) {
      size_t c = code;
      for (size_t i = 0; i < len; i++, c /= na) in[i] = alpha[c % na];
      /* expected code points: decode the input, invalid bytes -> U+FFFD */
      long want[8];
      int nw = 0;
      for (size_t i = 0; i < len;) {
        size_t l;
        long cp = dec_utf8(in + i, len - i, &l);
        if (cp < 0) cp = 0xfffd, l = 1;
        want[nw++] = cp;
        i += l;
      }
      hb_strbuf b = HB_STRBUF_INIT;
      json_str(&b, (const char *)in, len);
      long got[32];
      int ng = dec_json(hb_sb_str(&b), got, 32);
      bool same = ng == nw;
      for (int i = 0; same && i < nw; i++) same = got[i] == want[i];
      CHECK(same, "round trip of a %zu-byte string (code %zu): %s", len, code, hb_sb_str(&b));
      hb_sb_free(&b);
      strings++;
    }
  }
  printf("json_str: %d strings round-tripped\n", strings);
  return t_finish("json_str");
}
