/* Attribute values the parser keeps as written (lower=true, fft_length=
 * {8,4}, backend_config="{...}"), read for the rules that need them. */
#include <stdlib.h>
#include <string.h>

#include "ii_internal.h"

static bool word_is(const hlo_attr *a, const char *w) {
  size_t n = strlen(w);
  return a && a->value_len == n && memcmp(a->value, w, n) == 0;
}

bool ii_attr_bool(const hlo_instr *in, const char *name, bool dflt) {
  const hlo_attr *a = hlo_instr_find_attr(in, name);
  if (!a) return dflt;
  return word_is(a, "true") ? true : word_is(a, "false") ? false : dflt;
}

bool ii_attr_is(const hlo_instr *in, const char *name, const char *word) {
  return word_is(hlo_instr_find_attr(in, name), word);
}

/* Integers of TEXT[0, n) separated by anything but digits and '-' (JSON
 * strings such as "1" included, backslashes skipped), up to the first ']'
 * or '}' after the first digit; at most cap. Returns how many. */
static int ints_in(const char *p, const char *end, int64_t *out, int cap) {
  int n = 0;
  while (p < end && *p != ']' && *p != '}') {
    if ((*p >= '0' && *p <= '9') || (*p == '-' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
      bool neg = *p == '-';
      p += neg;
      int64_t v = 0;
      while (p < end && *p >= '0' && *p <= '9' && v < ((int64_t)1 << 50)) v = v * 10 + (*p++ - '0');
      if (n == cap) return -1;
      out[n++] = neg ? -v : v;
    } else {
      p++;
    }
  }
  return n;
}

int ii_attr_ints(const hlo_instr *in, const char *name, int64_t *out, int cap) {
  const hlo_attr *a = hlo_instr_find_attr(in, name);
  if (!a || a->value_len == 0 || a->value[0] != '{') return -1;
  return ints_in(a->value + 1, a->value + a->value_len, out, cap);
}

/* The value after `"key"` (or `\"key\"`) and its ':' in backend_config. */
static const char *json_value(const hlo_instr *in, const char *key, const char **end) {
  const hlo_attr *a = hlo_instr_find_attr(in, "backend_config");
  if (!a) return NULL;
  const char *p = a->value, *e = a->value + a->value_len;
  size_t kl = strlen(key);
  for (; p + kl + 1 < e; p++) {
    p = memchr(p, '"', (size_t)(e - p));
    if (!p || p + kl + 1 >= e) return NULL;
    if (memcmp(p + 1, key, kl) != 0) continue;
    const char *q = p + 1 + kl;
    if (q < e && *q == '\\') q++;
    if (q >= e || *q != '"') continue;
    for (q++; q < e && (*q == ' ' || *q == ':' || *q == '\\'); q++) {}
    *end = e;
    return q;
  }
  return NULL;
}

int ii_backend_ints(const hlo_instr *in, const char *key, int64_t *out, int cap) {
  const char *e, *p = json_value(in, key, &e);
  if (!p || *p != '[') return -1;
  return ints_in(p + 1, e, out, cap);
}

bool ii_backend_number(const hlo_instr *in, const char *key, double *v) {
  const char *e, *p = json_value(in, key, &e);
  if (!p) return false;
  char buf[64];
  size_t n = 0;
  if (p < e && *p == '"') p++;
  while (p < e && n + 1 < sizeof buf && strchr("0123456789+-.eE", *p)) buf[n++] = *p++;
  buf[n] = 0;
  if (n == 0) return false;
  char *stop;
  *v = strtod(buf, &stop);
  return *stop == 0;
}
