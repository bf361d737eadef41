/* Unit test of pc_skip_id_tail (lexer/byte_scan.h), which steps over the
 * bytes of a name a block at a time: every byte value as the one after a
 * run of id bytes, at every offset of the first blocks; runs that reach
 * the buffer's final NUL (no padding after it: the blocks must stop before
 * it); and %names read by hlo_lex, whose "%" id rule uses it.
 * Run by CTest as lexer/id_tail (and, built with -DHLOIDX_NO_SIMD, on the
 * byte loop alone). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_scan.h"
#include "hlo_token.h"

static int failures;

/* The id bytes after the first, as the lexer's rule lists them. */
static const char id_bytes[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

static bool is_id_byte(int c) { return c != 0 && strchr(id_bytes, c) != NULL; }

/* A copy of TEXT (LEN bytes) with exactly one NUL after it. */
static char *exact_copy(const char *text, size_t len) {
  char *c = malloc(len + 1);
  if (!c) abort();
  memcpy(c, text, len);
  c[len] = '\0';
  return c;
}

/* N id bytes (all kinds in turn), then byte B, then 20 id bytes: the run
 * ends before B unless B is an id byte (then at the end). */
static void check_stop(int n, int b) {
  char text[128];
  size_t len = 0;
  for (int i = 0; i < n; i++) text[len++] = id_bytes[(size_t)(i * 7) % (sizeof id_bytes - 1)];
  text[len++] = (char)b;
  for (int i = 0; i < 20; i++) text[len++] = 'x';
  char *buf = exact_copy(text, len);
  const char *got = pc_skip_id_tail(buf, buf + len);
  size_t want = is_id_byte(b) ? len : (size_t)n;
  if ((size_t)(got - buf) != want) {
    fprintf(stderr, "run of %d, then byte 0x%02x: stopped after %td bytes, want %zu\n", n, b, got - buf, want);
    failures++;
  }
  free(buf);
}

/* A run of N id bytes that ends at the final NUL. */
static void check_to_end(int n) {
  char text[128];
  for (int i = 0; i < n; i++) text[i] = id_bytes[(size_t)(i * 5) % (sizeof id_bytes - 1)];
  char *buf = exact_copy(text, (size_t)n);
  const char *got = pc_skip_id_tail(buf, buf + n);
  if (got != buf + n) {
    fprintf(stderr, "run of %d to the end: stopped after %td bytes\n", n, got - buf);
    failures++;
  }
  free(buf);
}

/* "%" and a name of N bytes, then TAIL: hlo_lex reads the name. */
static void check_pct_name(int n, const char *tail) {
  char text[128];
  size_t len = 0;
  text[len++] = '%';
  text[len++] = 'p';
  for (int i = 1; i < n; i++) text[len++] = id_bytes[(size_t)(i * 3) % (sizeof id_bytes - 1)];
  size_t tl = strlen(tail);
  memcpy(text + len, tail, tl);
  char *buf = exact_copy(text, len + tl);
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, buf, len + tl, 0);
  hlo_lex(&lx, &t);
  if (t.kind != HT_PCT_NAME || t.ptr != buf + 1 || t.len != (size_t)n || lx.cur != buf + 1 + n) {
    fprintf(stderr, "%%name of %d bytes before '%s': got %s of %zu bytes\n", n, tail, hlo_tok_kind_name(t.kind), t.len);
    failures++;
  }
  free(buf);
}

int main(void) {
  for (int n = 0; n <= 40; n++)
    for (int b = 1; b < 256; b++) check_stop(n, b);
  for (int n = 0; n <= 40; n++) check_to_end(n);
  static const char *const tails[] = {"", " = f32[] add(x, y)\n", ")", ", %b", "\n", "(", "="};
  for (int n = 1; n <= 40; n++)
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) check_pct_name(n, tails[i]);
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  puts("id_tail: ok");
  return 0;
}
