/* A small JSON reader for --compare (goldens written by --format=json):
 * RFC 8259 values into a tree in an arena. Numbers are kept as their text
 * (only integers are ever read back); strings are unescaped (\uXXXX and
 * surrogate pairs to UTF-8). Nesting is limited to JSON_MAX_DEPTH. */
#ifndef HLOIDX_JSON_READ_H
#define HLOIDX_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"

#define JSON_MAX_DEPTH 256

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_value json_value;
struct json_value {
  json_kind kind;
  size_t offset;         /* where the value starts in the text */
  bool boolean;          /* JSON_BOOL */
  const char *str;       /* JSON_STRING: unescaped, NUL-terminated (len bytes); JSON_NUMBER: its text */
  size_t len;
  size_t n;              /* JSON_ARRAY: elements; JSON_OBJECT: members */
  json_value **items;    /* n values */
  const char **keys;     /* JSON_OBJECT: n keys (unescaped) */
};

/* Parses TEXT[0, LEN) as one JSON value (whitespace around it only).
 * Returns it, or NULL with *err_offset and err (a message) filled. */
json_value *json_parse(hb_arena *a, const char *text, size_t len, size_t *err_offset, char *err, size_t errlen);

/* OBJ's member KEY, or NULL (also when OBJ is not an object). */
const json_value *json_get(const json_value *obj, const char *key);
/* A JSON_NUMBER holding an integer that fits int64: true with *out. */
bool json_int(const json_value *v, int64_t *out);

#endif
