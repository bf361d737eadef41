/* Unit test of hlo_lex_raw_dict, the raw '{...}' value after
 * backend_config= (§9.2): the extent of balanced braces, with braces and
 * escaped quotes inside strings skipped, on texts long enough for the
 * block-at-a-time skipping (lexer/byte_scan.h) and with each special byte
 * at every position of a block; and the errors of an unbalanced value, an
 * unterminated string and a NUL byte.
 * Run by CTest as lexer/raw_dict. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_token.h"

static int failures;

/* TEXT (LEN bytes, a NUL after them) lexed as a raw dictionary: a token of
 * WANT_LEN bytes at WANT_OFF, or (WANT_LEN 0) the error MSG at WANT_OFF. */
static void expect(const char *text, size_t len, size_t want_off, size_t want_len, const char *msg) {
  char *copy = malloc(len + 1); /* exactly the text and its NUL */
  if (!copy) abort();
  memcpy(copy, text, len);
  copy[len] = '\0';
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, copy, len, 0);
  bool ok = hlo_lex_raw_dict(&lx, &t);
  bool good = ok && t.off == want_off &&
              (want_len ? t.kind == HT_RAW_DICT && (size_t)t.len == want_len && lx.cur == copy + want_off + want_len
                        : t.kind == HT_ERROR && strcmp(t.msg, msg) == 0);
  if (!good) {
    fprintf(stderr, "'%.60s' (%zu bytes): got %s at %zu, %zu bytes (%s); want %zu bytes at %zu (%s)\n", text, len,
            hlo_tok_kind_name(t.kind), t.off, (size_t)t.len, t.kind == HT_ERROR ? t.msg : "-", want_len, want_off,
            msg ? msg : "-");
    failures++;
  }
  free(copy);
}

static void expect_str(const char *text, size_t want_off, size_t want_len, const char *msg) {
  expect(text, strlen(text), want_off, want_len, msg);
}

int main(void) {
  expect_str("{}", 0, 2, NULL);
  expect_str("  {} , x", 2, 2, NULL);
  expect_str("{\"a\":1}, metadata={}", 0, 7, NULL);
  static const char json[] =
      "{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],\"fusion_backend_config\":"
      "{\"kind\":\"__triton_gemm\",\"triton_gemm_config\":{\"block_m\":\"64\",\"num_warps\":\"4\"}},"
      "\"force_earliest_schedule\":false}";
  char buf[512];
  snprintf(buf, sizeof buf, "%s, x=1", json);
  expect_str(buf, 0, strlen(json), NULL);
  /* braces and escaped quotes inside strings, at every position of a 16-byte block */
  for (size_t pad = 0; pad < 40; pad++) {
    char fill[48];
    memset(fill, 'a', pad);
    fill[pad] = '\0';
    int n = snprintf(buf, sizeof buf, "{\"%s}{\\\"}\\\\\":{\"k\":\"%s\\\\\"}}, y", fill, fill);
    expect_str(buf, 0, (size_t)n - 3, NULL);
    n = snprintf(buf, sizeof buf, "{%s{%s}%s\"%s\"}", fill, fill, fill, fill);
    expect_str(buf, 0, (size_t)n, NULL);
    /* unbalanced: the error at the first brace */
    snprintf(buf, sizeof buf, "{\"%s\":{\"b\":\"}\"}", fill);
    expect_str(buf, 0, 0, "unterminated '{' (unbalanced braces)");
    /* a string that never ends runs to the end of the input */
    snprintf(buf, sizeof buf, "{\"%s}", fill);
    expect_str(buf, 0, 0, "unterminated '{' (unbalanced braces)");
    /* a NUL byte inside, in a string or not: the error at it */
    n = snprintf(buf, sizeof buf, "{\"%s#\"}", fill);
    buf[2 + pad] = '\0';
    expect(buf, (size_t)n, 2 + pad, 0, "NUL byte in input");
    n = snprintf(buf, sizeof buf, "{%s#}", fill);
    buf[1 + pad] = '\0';
    expect(buf, (size_t)n, 1 + pad, 0, "NUL byte in input");
  }
  hlo_lexer lx;
  hlo_token t;
  hlo_lexer_init(&lx, "x{}", 3, 0);
  if (hlo_lex_raw_dict(&lx, &t) || lx.cur != lx.base) { /* not a '{': nothing read */
    fprintf(stderr, "'x{}': read as a raw dictionary\n");
    failures++;
  }
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("raw dict: all passed\n");
  return 0;
}
