#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include "source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) {
    fputs("hloidx: internal error: out of memory\n", stderr);
    exit(3);
  }
  return q;
}

struct source_memo {
  size_t off, line, start; /* a byte offset, its 1-based line, the offset of that line's start */
  bool cr_known, has_cr;   /* whether the data holds a '\r' (else lines end at '\n' only) */
};

int source_read(const char *path, source_file *out) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  out->name = is_stdin ? "<stdin>" : path;
  out->memo = NULL;
  out->data = NULL;
  out->len = 0;
  if (!f) {
    fprintf(stderr, "hloidx: error: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  /* A regular file is read into one buffer of its size (plus one byte to
   * see the end); other inputs grow the buffer as they come. */
  struct stat st;
  if (!is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (unsigned long long)st.st_size < (unsigned long long)(SIZE_MAX / 2))
    cap = (size_t)st.st_size + 1;
  char *buf = xrealloc(NULL, cap + SOURCE_PADDING);
  for (;;) {
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (len < cap) {
      if (ferror(f)) {
        fprintf(stderr, "hloidx: error: cannot read %s: %s\n", out->name, strerror(errno));
        free(buf);
        if (!is_stdin) fclose(f);
        return 1;
      }
      break;
    }
    cap *= 2;
    buf = xrealloc(buf, cap + SOURCE_PADDING);
  }
  if (!is_stdin) fclose(f);
  memset(buf + len, 0, SOURCE_PADDING);
  out->data = buf;
  out->len = len;
  out->memo = xrealloc(NULL, sizeof *out->memo);
  memset(out->memo, 0, sizeof *out->memo);
  return 0;
}

void source_free(source_file *s) {
  free(s->memo);
  s->memo = NULL;
  free(s->data);
  s->data = NULL;
  s->len = 0;
}

void source_line_col(const source_file *s, size_t offset, size_t *line, size_t *col) {
  if (offset > s->len) offset = s->len;
  size_t ln = 1, start = 0, from = 0;
  struct source_memo *m = s->memo;
  if (m && m->line && offset >= m->off) {
    ln = m->line;
    start = m->start;
    from = m->off;
  }
  if (m && !m->cr_known) {
    m->has_cr = memchr(s->data, '\r', s->len) != NULL;
    m->cr_known = true;
  }
  if (m && !m->has_cr) {
    /* only '\n' breaks lines: skip from one to the next */
    const char *p = s->data + from, *end = s->data + offset;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
      ln++;
      start = (size_t)(++p - s->data);
    }
  } else {
    for (size_t i = from; i < offset; i++) {
      char c = s->data[i];
      if (c == '\n' || (c == '\r' && (i + 1 >= s->len || s->data[i + 1] != '\n'))) {
        ln++;
        start = i + 1;
      }
    }
  }
  if (m) {
    m->off = offset;
    m->line = ln;
    m->start = start;
  }
  *line = ln;
  *col = offset - start + 1;
}

/* At most this many bytes of the offending line are echoed. */
#define ECHO_WIDTH 120

static void diag(const source_file *s, size_t offset, const char *kind, const char *message) {
  size_t line, col;
  if (offset > s->len) offset = s->len;
  source_line_col(s, offset, &line, &col);
  fprintf(stderr, "%s:%zu:%zu: %s: %s\n", s->name, line, col, kind, message);

  size_t start = offset - (col - 1), end = offset;
  while (end < s->len && s->data[end] != '\n' && s->data[end] != '\r') end++;
  /* Long lines: show a window that keeps the column visible. */
  size_t from = start;
  if (offset - start > ECHO_WIDTH / 2) from = offset - ECHO_WIDTH / 2;
  size_t to = end;
  if (to - from > ECHO_WIDTH) to = from + ECHO_WIDTH;
  char buf[ECHO_WIDTH + 8];
  size_t n = 0;
  if (from > start) {
    memcpy(buf, "...", 3);
    n = 3;
  }
  size_t caret = n + (offset - from);
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)s->data[i];
    /* Keep tabs so the caret line lines up; anything unprintable becomes '?'. */
    buf[n++] = (c == '\t' || (c >= 0x20 && c < 0x7f)) ? (char)c : '?';
  }
  if (to < end) {
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  fprintf(stderr, "%.*s\n", (int)n, buf);
  for (size_t i = 0; i < caret; i++) fputc(buf[i] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

void diag_error(const source_file *s, size_t offset, const char *message) { diag(s, offset, "error", message); }

void diag_warning(const source_file *s, size_t offset, const char *message) { diag(s, offset, "warning", message); }
