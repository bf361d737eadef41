#include "backend_config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/checked.h"

/* A value of the config as a small tree. */
typedef enum { BV_OBJECT, BV_ARRAY, BV_SCALAR } bv_kind;

typedef struct bv bv;
struct bv {
  bv_kind kind;
  const char *text; /* scalar: the text (string contents without quotes) */
  size_t len;
  uint32_t n;       /* members */
  const char **keys; /* object: n keys (NUL-terminated) */
  bv **kids;
};

typedef struct {
  hb_arena *a;
  const char *p, *end;
  int depth;
} reader;

#define BC_MAX_DEPTH 64

static void skip_ws(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r' || *r->p == ',')) r->p++;
}

/* A string "..." (escapes kept as written but the quotes dropped) or a
 * bare word (identifier, number, true/false). */
static bool scalar(reader *r, const char **text, size_t *len) {
  if (r->p < r->end && *r->p == '"') {
    const char *s = ++r->p;
    while (r->p < r->end && *r->p != '"') r->p += (*r->p == '\\' && r->p + 1 < r->end) ? 2 : 1;
    if (r->p >= r->end) return false;
    *text = s, *len = (size_t)(r->p - s);
    r->p++;
    return true;
  }
  const char *s = r->p;
  while (r->p < r->end && !strchr(" \t\r\n,:{}[]\"", *r->p)) r->p++;
  *text = s, *len = (size_t)(r->p - s);
  return *len > 0;
}

static bv *value(reader *r);

static bv *members(reader *r, bv *v, char close, bool keyed) {
  uint32_t cap = 0;
  for (;;) {
    skip_ws(r);
    if (r->p >= r->end) return NULL;
    if (*r->p == close) {
      r->p++;
      return v;
    }
    const char *key = NULL;
    if (keyed) {
      const char *k;
      size_t kl;
      if (!scalar(r, &k, &kl)) return NULL;
      skip_ws(r);
      if (r->p < r->end && *r->p == ':') r->p++; /* protobuf text: `key {` without ':' */
      key = hb_arena_strndup(r->a, k, kl);
    }
    bv *kid = value(r);
    if (!kid) return NULL;
    if (v->n == cap) {
      uint32_t nc = cap ? cap * 2 : 4;
      v->kids = hb_arena_grow(r->a, v->kids, v->n, nc, sizeof *v->kids);
      v->keys = hb_arena_grow(r->a, v->keys, v->n, nc, sizeof *v->keys);
      cap = nc;
    }
    v->keys[v->n] = key;
    v->kids[v->n++] = kid;
  }
}

static bv *value(reader *r) {
  skip_ws(r);
  if (r->p >= r->end || r->depth >= BC_MAX_DEPTH) return NULL;
  bv *v = hb_arena_zalloc(r->a, sizeof *v);
  char c = *r->p;
  if (c == '{' || c == '[') {
    r->p++;
    r->depth++;
    v->kind = c == '{' ? BV_OBJECT : BV_ARRAY;
    bv *res = members(r, v, c == '{' ? '}' : ']', c == '{');
    r->depth--;
    return res;
  }
  v->kind = BV_SCALAR;
  return scalar(r, &v->text, &v->len) ? v : NULL;
}

/* The member KEY of an object, searched depth-first (the config nests it
 * under fusion_backend_config). */
static const bv *find(const bv *v, const char *key) {
  if (v->kind == BV_SCALAR) return NULL;
  for (uint32_t i = 0; i < v->n; i++)
    if (v->keys[i] && !strcmp(v->keys[i], key)) return v->kids[i];
  for (uint32_t i = 0; i < v->n; i++) {
    const bv *f = find(v->kids[i], key);
    if (f) return f;
  }
  return NULL;
}

static bool to_int(const bv *v, int64_t *out) {
  if (v->kind != BV_SCALAR || v->len == 0 || v->len > 19) return false;
  int64_t x = 0;
  for (size_t i = 0; i < v->len; i++) {
    if (v->text[i] < '0' || v->text[i] > '9' || !hb_ck_mul(x, 10, &x) || !hb_ck_add(x, v->text[i] - '0', &x)) return false;
  }
  *out = x;
  return true;
}

/* A quoted backend_config ("{\"a\": 1}"): its contents, unescaped. */
static void unquote(hb_arena *a, const char **p, size_t *len) {
  if (*len < 2 || (*p)[0] != '"' || (*p)[*len - 1] != '"') return;
  char *s = hb_arena_alloc(a, *len);
  size_t n = 0;
  for (size_t i = 1; i + 1 < *len; i++) {
    if ((*p)[i] == '\\' && i + 2 < *len) i++;
    s[n++] = (*p)[i];
  }
  *p = s, *len = n;
}

bc_status bc_output_tile(hb_arena *a, const hlo_instr *in, int64_t output, int64_t **sizes, uint32_t *n, char *why,
                         size_t cap) {
  const hlo_attr *at = hlo_instr_find_attr(in, "backend_config");
  if (!at) return BC_ABSENT;
  const char *p = at->value;
  size_t len = at->value_len;
  unquote(a, &p, &len);
  reader r = {a, p, p + len, 0};
  bv *root = value(&r);
  if (!root) {
    snprintf(why, cap, "backend_config is not a JSON value (or nests more than %d levels)", BC_MAX_DEPTH);
    return BC_MALFORMED;
  }
  const bv *cfg = find(root, "block_level_fusion_config"), *tiles = cfg ? find(cfg, "output_tiles") : NULL;
  if (!tiles) return BC_ABSENT;
  if (tiles->kind != BV_ARRAY) {
    snprintf(why, cap, "output_tiles is not a list");
    return BC_MALFORMED;
  }
  if (output >= (int64_t)tiles->n) return BC_ABSENT;
  const bv *list = find(tiles->kids[output], "sizes");
  if (!list || list->kind != BV_ARRAY) {
    snprintf(why, cap, "output_tiles[%lld] has no list of sizes", (long long)output);
    return BC_MALFORMED;
  }
  int64_t *v = hb_arena_array(a, list->n + 1, sizeof *v);
  for (uint32_t i = 0; i < list->n; i++)
    if (!to_int(list->kids[i], &v[i]) || v[i] < 1) {
      snprintf(why, cap, "output_tiles[%lld].sizes[%u] is not a positive integer", (long long)output, i);
      return BC_MALFORMED;
    }
  *sizes = v;
  *n = list->n;
  return BC_FOUND;
}
