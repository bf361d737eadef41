/* Growable NUL-terminated string buffer (malloc-backed; out of memory ends
 * the run as the arena does, oom.h). Reusable by the CLI. */
#ifndef HB_STRBUF_H
#define HB_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  char *data; /* always NUL-terminated once anything was written; may be NULL when empty */
  size_t len;
  size_t cap;
} hb_strbuf;

#define HB_STRBUF_INIT {NULL, 0, 0}

void hb_sb_init(hb_strbuf *b);
void hb_sb_free(hb_strbuf *b);
void hb_sb_reset(hb_strbuf *b); /* len = 0, keeps the memory */
/* Makes room for N more bytes and the NUL (out of line: the rare case). */
void hb_sb_reserve(hb_strbuf *b, size_t n);
/* Inline: the printers append a few bytes at a time, and a literal's length
 * and copy then compile to a few moves. */
static inline void hb_sb_putn(hb_strbuf *b, const char *s, size_t n) {
  if (b->cap - b->len <= n) hb_sb_reserve(b, n);
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}
static inline void hb_sb_putc(hb_strbuf *b, char c) {
  if (b->cap - b->len <= 1) hb_sb_reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = '\0';
}
static inline void hb_sb_indent(hb_strbuf *b, int n) { /* n spaces */
  if (n <= 0) return;
  if (b->cap - b->len <= (size_t)n) hb_sb_reserve(b, (size_t)n);
  memset(b->data + b->len, ' ', (size_t)n);
  b->len += (size_t)n;
  b->data[b->len] = '\0';
}
static inline void hb_sb_puts(hb_strbuf *b, const char *s) { hb_sb_putn(b, s, strlen(s)); }
void hb_sb_put_i64(hb_strbuf *b, int64_t v);
void hb_sb_put_u64(hb_strbuf *b, uint64_t v);
__extension__ void hb_sb_put_u128(hb_strbuf *b, unsigned __int128 v);
__attribute__((format(printf, 2, 3))) void hb_sb_printf(hb_strbuf *b, const char *fmt, ...);
/* The contents ("" when empty). */
const char *hb_sb_str(const hb_strbuf *b);

#endif
