#include "json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/strbuf.h"

typedef struct {
  hb_arena *a;
  const char *s;
  size_t pos, len;
  int depth;
  bool failed;
  size_t err_offset;
  char *err;
  size_t errlen;
} reader;

static void fail(reader *r, const char *msg) {
  if (r->failed) return;
  r->failed = true;
  r->err_offset = r->pos;
  snprintf(r->err, r->errlen, "%s", msg);
}

static void skip_ws(reader *r) {
  while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' ||
                             r->s[r->pos] == '\r'))
    r->pos++;
}

static bool literal(reader *r, const char *word) {
  size_t n = strlen(word);
  if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n) != 0) return false;
  r->pos += n;
  return true;
}

static int hex4(reader *r) {
  if (r->len - r->pos < 4) return -1;
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = r->s[r->pos + (size_t)i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  r->pos += 4;
  return v;
}

static void put_utf8(hb_strbuf *b, unsigned cp) {
  if (cp < 0x80) {
    hb_sb_putc(b, (char)cp);
  } else if (cp < 0x800) {
    hb_sb_putc(b, (char)(0xc0 | (cp >> 6)));
    hb_sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    hb_sb_putc(b, (char)(0xe0 | (cp >> 12)));
    hb_sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    hb_sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else {
    hb_sb_putc(b, (char)(0xf0 | (cp >> 18)));
    hb_sb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
    hb_sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    hb_sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

/* A string at r->pos (the opening quote); its unescaped bytes in an arena copy. */
static const char *string(reader *r, size_t *len_out) {
  r->pos++; /* '"' */
  hb_strbuf b = HB_STRBUF_INIT;
  for (;;) {
    if (r->pos >= r->len) {
      fail(r, "unterminated string");
      break;
    }
    unsigned char c = (unsigned char)r->s[r->pos];
    if (c == '"') {
      r->pos++;
      break;
    }
    if (c < 0x20) {
      fail(r, "control character in a string");
      break;
    }
    if (c != '\\') {
      hb_sb_putc(&b, (char)c);
      r->pos++;
      continue;
    }
    r->pos++;
    char e = r->pos < r->len ? r->s[r->pos++] : '\0';
    switch (e) {
    case '"': hb_sb_putc(&b, '"'); break;
    case '\\': hb_sb_putc(&b, '\\'); break;
    case '/': hb_sb_putc(&b, '/'); break;
    case 'b': hb_sb_putc(&b, '\b'); break;
    case 'f': hb_sb_putc(&b, '\f'); break;
    case 'n': hb_sb_putc(&b, '\n'); break;
    case 'r': hb_sb_putc(&b, '\r'); break;
    case 't': hb_sb_putc(&b, '\t'); break;
    case 'u': {
      int cp = hex4(r);
      if (cp < 0) {
        fail(r, "bad \\u escape");
        break;
      }
      if (cp >= 0xd800 && cp < 0xdc00 && literal(r, "\\u")) {
        int lo = hex4(r);
        if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        else cp = 0xfffd;
      } else if (cp >= 0xd800 && cp < 0xe000) {
        cp = 0xfffd;
      }
      put_utf8(&b, (unsigned)cp);
      break;
    }
    default: fail(r, "bad escape in a string"); break;
    }
    if (r->failed) break;
  }
  *len_out = b.len;
  const char *out = hb_arena_strndup(r->a, hb_sb_str(&b), b.len);
  hb_sb_free(&b);
  return out;
}

static json_value *value(reader *r);

/* The elements of an array or the members of an object, up to CLOSE. */
static void items(reader *r, json_value *v, char close, bool keyed) {
  r->pos++;
  size_t cap = 0;
  skip_ws(r);
  if (r->pos < r->len && r->s[r->pos] == close) {
    r->pos++;
    return;
  }
  for (;;) {
    const char *key = NULL;
    if (keyed) {
      skip_ws(r);
      if (r->pos >= r->len || r->s[r->pos] != '"') {
        fail(r, "expected a string key");
        return;
      }
      size_t klen;
      key = string(r, &klen);
      skip_ws(r);
      if (r->pos >= r->len || r->s[r->pos] != ':') {
        fail(r, "expected ':'");
        return;
      }
      r->pos++;
    }
    json_value *x = value(r);
    if (!x) return;
    if (v->n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      v->items = hb_arena_grow(r->a, v->items, cap, ncap, sizeof *v->items);
      if (keyed) v->keys = hb_arena_grow(r->a, (void *)v->keys, cap, ncap, sizeof *v->keys);
      cap = ncap;
    }
    if (keyed) v->keys[v->n] = key;
    v->items[v->n++] = x;
    skip_ws(r);
    if (r->pos < r->len && r->s[r->pos] == ',') {
      r->pos++;
      continue;
    }
    if (r->pos < r->len && r->s[r->pos] == close) {
      r->pos++;
      return;
    }
    fail(r, keyed ? "expected ',' or '}'" : "expected ',' or ']'");
    return;
  }
}

static json_value *value(reader *r) {
  skip_ws(r);
  if (r->failed) return NULL;
  if (r->pos >= r->len) {
    fail(r, "expected a value, found the end of the input");
    return NULL;
  }
  json_value *v = hb_arena_zalloc(r->a, sizeof *v);
  v->offset = r->pos;
  char c = r->s[r->pos];
  if (c == '{' || c == '[') {
    if (++r->depth > JSON_MAX_DEPTH) {
      fail(r, "nested too deeply");
      return NULL;
    }
    v->kind = c == '{' ? JSON_OBJECT : JSON_ARRAY;
    items(r, v, c == '{' ? '}' : ']', c == '{');
    r->depth--;
  } else if (c == '"') {
    v->kind = JSON_STRING;
    v->str = string(r, &v->len);
  } else if (literal(r, "null")) {
    v->kind = JSON_NULL;
  } else if (literal(r, "true") || literal(r, "false")) {
    v->kind = JSON_BOOL;
    v->boolean = r->s[v->offset] == 't';
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    size_t start = r->pos;
    if (r->s[r->pos] == '-') r->pos++;
    while (r->pos < r->len && strchr("0123456789.eE+-", r->s[r->pos])) r->pos++;
    v->kind = JSON_NUMBER;
    v->len = r->pos - start;
    v->str = hb_arena_strndup(r->a, r->s + start, v->len);
  } else {
    fail(r, "expected a value");
  }
  return r->failed ? NULL : v;
}

json_value *json_parse(hb_arena *a, const char *text, size_t len, size_t *err_offset, char *err, size_t errlen) {
  reader r = {.a = a, .s = text, .len = len, .err = err, .errlen = errlen};
  json_value *v = value(&r);
  skip_ws(&r);
  if (v && r.pos < len) fail(&r, "unexpected text after the JSON value");
  if (r.failed) {
    *err_offset = r.err_offset;
    return NULL;
  }
  return v;
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (!strcmp(obj->keys[i], key)) return obj->items[i];
  return NULL;
}

bool json_int(const json_value *v, int64_t *out) {
  if (!v || v->kind != JSON_NUMBER) return false;
  errno = 0;
  char *end;
  long long x = strtoll(v->str, &end, 10);
  if (*end || errno) return false;
  *out = x;
  return true;
}
