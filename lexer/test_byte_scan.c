/* Unit test of the block-at-a-time scans of lexer/byte_scan.h that the
 * name and shape fast paths use: bs_skip_id_tail (names), the shape
 * cache's bs_skip_lower_digits, bs_skip_dims and bs_skip_layout_text.
 * For each, every byte value after a run of the bytes it steps over, at
 * every offset of the first blocks; runs that reach the buffer's final NUL (no padding
 * after it: the blocks must stop before it); and %names read by hlo_lex,
 * whose "%" id rule uses bs_skip_id_tail.
 * Run by CTest as lexer/byte_scan (and, built with -DHLOIDX_NO_SIMD, on
 * the byte loops alone). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_scan.h"
#include "hlo_token.h"

static int failures;

/* The bytes each scan steps over, as the rules they stand for list them. */
static const char id_bytes[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
static const char lower_digit_bytes[] = "abcdefghijklmnopqrstuvwxyz0123456789";
static const char dims_bytes[] = "0123456789,<=? ";
/* What bs_skip_layout_text stops at (and NUL). */
static const char layout_stops[] = "}{/\n\"";
static const char layout_bytes[] = "0123456789,:T()SEL*#";

typedef struct {
  const char *name;
  const char *(*skip)(const char *p, const char *lim);
  const char *run;  /* the bytes stepped over (the run is made of them) */
  bool (*stops)(int c);
  bool exact;       /* ends at the first stop (else: at or before it, none of them passed) */
} scan;

static bool not_id(int c) { return c == 0 || !strchr(id_bytes, c); }
static bool not_lower_digit(int c) { return c == 0 || !strchr(lower_digit_bytes, c); }
static bool not_dims(int c) { return c == 0 || !strchr(dims_bytes, c); }
static bool layout_stop(int c) { return c == 0 || strchr(layout_stops, c); }
static const char *skip_id(const char *p, const char *lim) { return bs_skip_id_tail(p, lim); }
static const char *skip_lower_digits(const char *p, const char *lim) { return bs_skip_lower_digits(p, lim); }
static const char *skip_dims(const char *p, const char *lim) { return bs_skip_dims(p, lim); }
static const char *skip_layout(const char *p, const char *lim) { return bs_skip_layout_text(p, lim); }

static const scan scans[] = {
    {"bs_skip_id_tail", skip_id, id_bytes, not_id, true},
    {"bs_skip_lower_digits", skip_lower_digits, lower_digit_bytes, not_lower_digit, true},
    {"bs_skip_dims", skip_dims, dims_bytes, not_dims, true},
    {"bs_skip_layout_text", skip_layout, layout_bytes, layout_stop, false},
};

/* A copy of TEXT (LEN bytes) with exactly one NUL after it. */
static char *exact_copy(const char *text, size_t len) {
  char *c = malloc(len + 1);
  if (!c) abort();
  memcpy(c, text, len);
  c[len] = '\0';
  return c;
}

/* S on TEXT (LEN bytes, its NUL after them), where the first stop is at
 * WANT: the scan must end there, or (not exact) at or before it. */
static void check_scan(const scan *s, const char *text, size_t len, size_t want, int b) {
  char *buf = exact_copy(text, len);
  size_t got = (size_t)(s->skip(buf, buf + len) - buf);
  if (s->exact ? got != want : got > want) {
    fprintf(stderr, "%s: run of %zu, then byte 0x%02x: stopped after %zu bytes\n", s->name, want, b, got);
    failures++;
  }
  free(buf);
}

/* N bytes of the run (all kinds in turn), then byte B, then 20 run bytes. */
static void check_stop(const scan *s, int n, int b) {
  char text[128];
  size_t len = 0, nrun = strlen(s->run);
  for (int i = 0; i < n; i++) text[len++] = s->run[(size_t)(i * 7) % nrun];
  text[len++] = (char)b;
  for (int i = 0; i < 20; i++) text[len++] = s->run[0];
  check_scan(s, text, len, s->stops(b) ? (size_t)n : len, b);
}

/* A run of N bytes that ends at the final NUL. */
static void check_to_end(const scan *s, int n) {
  char text[128];
  size_t nrun = strlen(s->run);
  for (int i = 0; i < n; i++) text[i] = s->run[(size_t)(i * 5) % nrun];
  check_scan(s, text, (size_t)n, (size_t)n, 0);
}

/* "%" and a name of N bytes, then TAIL: hlo_lex reads the name (an
 * instruction's name, HT_NAME_DEF, when blanks and '=' follow: the lexer
 * then stands after the '='). */
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
  const char *eq = strchr(tail, '=');
  bool def = eq && strspn(tail, " ") == (size_t)(eq - tail);
  hlo_tok_kind want = def ? HT_NAME_DEF : HT_PCT_NAME;
  const char *end = def ? buf + 1 + n + (eq - tail) + 1 : buf + 1 + n;
  if (t.kind != want || t.ptr != buf + 1 || t.len != (size_t)n || t.off != 0 || lx.cur != end) {
    fprintf(stderr, "%%name of %d bytes before '%s': got %s of %zu bytes\n", n, tail, hlo_tok_kind_name(t.kind), (size_t)t.len);
    failures++;
  }
  free(buf);
}

int main(void) {
  for (size_t k = 0; k < sizeof scans / sizeof *scans; k++) {
    for (int n = 0; n <= 40; n++)
      for (int b = 1; b < 256; b++) check_stop(&scans[k], n, b);
    for (int n = 0; n <= 40; n++) check_to_end(&scans[k], n);
  }
  static const char *const tails[] = {"", " = f32[] add(x, y)\n", ")", ", %b", "\n", "(", "=", "  =1", " x ="};
  for (int n = 1; n <= 40; n++)
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) check_pct_name(n, tails[i]);
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  puts("byte_scan: ok");
  return 0;
}
