/* Growable NUL-terminated string buffer (malloc-backed; out of memory ends
 * the run as the arena does, parser/oom.h). Reusable by the CLI. */
#ifndef HLOIDX_STRBUF_H
#define HLOIDX_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  char *data; /* always NUL-terminated once anything was written; may be NULL when empty */
  size_t len;
  size_t cap;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0}

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_reset(strbuf *b); /* len = 0, keeps the memory */
/* Makes room for N more bytes and the NUL (out of line: the rare case). */
void sb_reserve(strbuf *b, size_t n);
/* Inline: the printers append a few bytes at a time, and a literal's length
 * and copy then compile to a few moves. */
static inline void sb_putn(strbuf *b, const char *s, size_t n) {
  if (b->cap - b->len <= n) sb_reserve(b, n);
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}
static inline void sb_putc(strbuf *b, char c) {
  if (b->cap - b->len <= 1) sb_reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = '\0';
}
static inline void sb_puts(strbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
void sb_put_i64(strbuf *b, int64_t v);
void sb_put_u64(strbuf *b, uint64_t v);
__extension__ void sb_put_u128(strbuf *b, unsigned __int128 v);
void sb_indent(strbuf *b, int n); /* n spaces */
__attribute__((format(printf, 2, 3))) void sb_printf(strbuf *b, const char *fmt, ...);
/* The contents ("" when empty). */
const char *sb_str(const strbuf *b);

#endif
