#define _POSIX_C_SOURCE 200809L /* fileno, fstat, mmap, sysconf */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS where the system has it */
#include "source.h"

#include "hlo_ir.h"

#include "../parser/base/oom.h"
#include "../parser/base/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


/* ---- large regular files: mapped, not copied ---------------------------------
 * Reading copies every byte once more and touches fresh pages; for a large
 * file that costs about a third of a fast parse. A private mapping of the
 * file is used instead. The padding after the data must read as zeros: the
 * kernel zero-fills the last page past the end of the file, and when that
 * is too short an anonymous (zero) page is mapped right after the file.
 * The file's pages are mapped read-only: nothing writes the text, so a page
 * given back (source_release) reads the same when it is touched again.
 * Small files and other inputs are read. */

#define MAP_MIN ((size_t)256 * 1024)

/* The mapping of LEN bytes of FD with zero padding after them, or NULL;
 * *SPAN: the bytes mapped (for munmap). */
static char *map_file(int fd, size_t len, size_t *span_out) {
  long page = sysconf(_SC_PAGESIZE);
  if (len < MAP_MIN || page <= 0 || len > SIZE_MAX - 2 * (size_t)page) return NULL;
  size_t pg = (size_t)page, file_span = (len + pg - 1) / pg * pg,
         span = (len + SOURCE_PADDING + pg - 1) / pg * pg;
  /* (MAP_POPULATE measured slower than the kernel's fault-around) */
  int flags = MAP_PRIVATE;
  char *p;
  if (span == file_span) {
    p = mmap(NULL, len, PROT_READ, flags, fd, 0);
    if (p == MAP_FAILED) return NULL;
  } else {
#ifdef MAP_ANONYMOUS
    p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (mmap(p, len, PROT_READ, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
      munmap(p, span);
      return NULL;
    }
#else
    return NULL;
#endif
  }
  *span_out = span;
  return p;
}

/* ---- diagnostics: policy and sink ------------------------------------------------ */

static bool diag_quiet, diag_fatal;
static unsigned long diag_warnings;
static void (*diag_sink)(void *, const diag_record *);
static void *diag_sink_arg;

void diag_set_policy(bool quiet, bool fatal_warnings) {
  diag_quiet = quiet;
  diag_fatal = fatal_warnings;
}

unsigned long diag_warning_count(void) { return diag_warnings; }

void diag_set_sink(void (*sink)(void *arg, const diag_record *d), void *arg) {
  diag_sink = sink;
  diag_sink_arg = arg;
}

static void record(const char *file, size_t line, size_t col, const char *message) {
  if (diag_sink) diag_sink(diag_sink_arg, &(diag_record){file, line, col, message});
}

void diag_file_error(const char *file, const char *message) {
  fprintf(stderr, "hloidx: error: %s: %s\n", file, message);
  record(file, 0, 0, message);
}

void diag_file_note(const char *file, const char *message) {
  if (!diag_quiet) fprintf(stderr, "hloidx: note: %s: %s\n", file, message);
}

/* "cannot open: WHY" and the like, for FILE. */
static void file_error(const char *file, const char *what, int err) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
  diag_file_error(file, msg);
}

static int too_large(const char *name, unsigned long long size, bool exact, bool quiet) {
  if (!quiet) {
    char msg[160];
    snprintf(msg, sizeof msg, "input too large: %s%llu bytes (the limit is %llu bytes, 2 GiB)",
             exact ? "" : "more than ", size, (unsigned long long)SOURCE_MAX_BYTES);
    fprintf(stderr, "%s:1:1: error: %s\n", name, msg);
    record(name, 1, 1, msg);
  }
  return 1;
}

struct source_memo {
  size_t off, line, start; /* a byte offset, its 1-based line, the offset of that line's start */
};

static struct source_memo *memo_new(void) {
  struct source_memo *m = hb_realloc(NULL, sizeof *m);
  memset(m, 0, sizeof *m);
  return m;
}

/* source_read; QUIET: print nothing. */
static int read_source(const char *path, source_file *out, bool quiet) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  out->name = is_stdin ? "<stdin>" : path;
  out->memo = NULL;
  out->cursor = NULL;
  out->data = NULL;
  out->len = 0;
  out->mapped = 0;
  out->released = 0;
  hb_oom_file = out->name;
  if (!f) {
    if (!quiet) file_error(path, "cannot open", errno);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  /* A regular file is read into one buffer of its size (plus one byte to
   * see the end); other inputs grow the buffer as they come. */
  struct stat st;
  bool regular = !is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  if (regular && (unsigned long long)st.st_size > (unsigned long long)SOURCE_MAX_BYTES) {
    fclose(f);
    return too_large(out->name, (unsigned long long)st.st_size, true, quiet);
  }
  if (regular && st.st_size > 0) {
    char *mapped = map_file(fileno(f), (size_t)st.st_size, &out->mapped);
    if (mapped) {
      fclose(f);
      out->data = mapped;
      out->len = (size_t)st.st_size;
      out->memo = memo_new();
      out->cursor = memo_new();
      return 0;
    }
    cap = (size_t)st.st_size + 1;
  }
  /* The buffer grows to SOURCE_MAX_BYTES at most: once full, one more byte
   * (read aside) makes the input too large, so a pipe or /dev/zero never
   * holds more than the limit. */
  char *buf = hb_realloc(NULL, cap + SOURCE_PADDING);
  for (;;) {
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    char extra;
    if (len > SOURCE_MAX_BYTES || (len == SOURCE_MAX_BYTES && fread(&extra, 1, 1, f) == 1)) {
      free(buf);
      if (!is_stdin) fclose(f);
      return too_large(out->name, SOURCE_MAX_BYTES, false, quiet);
    }
    if (len < cap || len == SOURCE_MAX_BYTES) {
      if (ferror(f)) {
        if (!quiet) file_error(out->name, "cannot read", errno);
        free(buf);
        if (!is_stdin) fclose(f);
        return 1;
      }
      break;
    }
    cap = cap > SOURCE_MAX_BYTES / 2 ? SOURCE_MAX_BYTES : cap * 2;
    buf = hb_realloc(buf, cap + SOURCE_PADDING);
  }
  if (!is_stdin) fclose(f);
  memset(buf + len, 0, SOURCE_PADDING);
  out->data = buf;
  out->len = len;
  out->memo = memo_new();
  out->cursor = memo_new();
  return 0;
}

int source_read(const char *path, source_file *out) { return read_source(path, out, false); }

int source_read_quiet(const char *path, source_file *out) { return read_source(path, out, true); }

void source_release(source_file *s, size_t upto, bool done) {
  size_t from = s->released;
  if (done && upto > s->released) s->released = upto;
#ifdef MADV_DONTNEED
  long page = sysconf(_SC_PAGESIZE);
  if (!s->mapped || page <= 0) return;
  /* the pages the bytes [FROM, UPTO) are on: one that also holds text
   * still to come is read again when it comes */
  size_t pg = (size_t)page, lo = from / pg * pg, hi = upto >= s->len ? s->mapped : (upto + pg - 1) / pg * pg;
  if (hi > s->mapped) hi = s->mapped;
  if (lo < hi) madvise(s->data + lo, hi - lo, MADV_DONTNEED); /* (a hint: a failure keeps the pages) */
#else
  (void)from;
  (void)upto;
#endif
}

void source_free(source_file *s) {
  if (s->mapped) munmap(s->data, s->mapped);
  else free(s->data);
  free(s->memo);
  free(s->cursor);
  s->memo = NULL;
  s->cursor = NULL;
  s->data = NULL;
  s->len = 0;
  s->mapped = 0;
  s->released = 0;
}

/* Whether a line ends at byte I: a '\n', or a '\r' not followed by one. */
static bool break_at(const source_file *s, size_t i) {
  char c = s->data[i];
  return c == '\n' || (c == '\r' && (i + 1 >= s->len || s->data[i + 1] != '\n'));
}

/* source_line_col with memo M (NULL: none). From the memo's position the
 * scan goes forward, or backward when that is shorter (an instruction
 * nested in its user's line comes before it in the walk). */
static void line_col(const source_file *s, struct source_memo *m, size_t offset, size_t *line, size_t *col) {
  if (offset > s->len) offset = s->len;
  size_t ln = 1, start = 0, from = 0;
  if (m && m->line && offset < m->off && offset >= m->start) {
    ln = m->line; /* the memo's line */
    start = m->start;
    from = offset;
  } else if (m && m->line && offset < m->off && m->off - offset < offset) {
    ln = m->line;
    for (size_t i = offset; i < m->off; i++) ln -= break_at(s, i);
    start = offset;
    while (start > 0 && !break_at(s, start - 1)) start--;
    from = offset;
  } else if (m && m->line && offset >= m->off) {
    ln = m->line;
    start = m->start;
    from = m->off;
  }
  const char *p = s->data + from, *end = s->data + offset;
  /* Without a '\r' in the bytes scanned (not in the whole file: that read
   * every page of it, given back or not) only '\n' breaks lines there:
   * skip from one to the next. */
  if (!memchr(p, '\r', (size_t)(end - p))) {
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
      ln++;
      start = (size_t)(++p - s->data);
    }
  } else {
    for (size_t i = from; i < offset; i++) {
      if (break_at(s, i)) {
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

void source_line_col(const source_file *s, size_t offset, size_t *line, size_t *col) {
  line_col(s, s->memo, offset, line, col);
}

size_t source_line(const source_file *s, size_t offset) {
  size_t line, col;
  line_col(s, s->cursor, offset, &line, &col);
  return line;
}

void source_line_text(const source_file *s, size_t offset, const char **text, size_t *len) {
  size_t line, col;
  line_col(s, s->cursor, offset, &line, &col);
  size_t start = (offset > s->len ? s->len : offset) - (col - 1), end = start;
  while (end < s->len && s->data[end] != '\n' && s->data[end] != '\r') end++;
  *text = s->data + start;
  *len = end - start;
}

/* At most this many bytes of the offending line are echoed. */
#define ECHO_WIDTH 120

/* The diagnostic is written with one call: stderr is unbuffered, and a
 * write per byte made 100,000 warnings take 19 s (and threads that report
 * at once could interleave their lines). */
static void diag(const source_file *s, size_t offset, const char *kind, const char *message) {
  size_t line, col;
  if (offset > s->len) offset = s->len;
  source_line_col(s, offset, &line, &col);
  if (kind[0] == 'e') record(s->name, line, col, message);
  hb_strbuf b;
  hb_sb_init(&b);
  hb_sb_printf(&b, "%s:%zu:%zu: %s: ", s->name, line, col, kind);
  /* Messages quote input text: keep the diagnostic one line of printable ASCII. */
  for (const unsigned char *m = (const unsigned char *)message; *m; m++)
    hb_sb_putc(&b, *m >= 0x20 && *m < 0x7f ? (char)*m : '?');
  hb_sb_putc(&b, '\n');

  size_t start = offset - (col - 1), end = offset;
  /* (the end of the line as far as the window can show: a line of
   * megabytes is not scanned for each diagnostic) */
  while (end < s->len && end - offset <= ECHO_WIDTH && s->data[end] != '\n' && s->data[end] != '\r') end++;
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
  if (n) { /* (an empty line, an empty file: nothing to point at) */
    hb_sb_putn(&b, buf, n);
    hb_sb_putc(&b, '\n');
    for (size_t i = 0; i < caret; i++) hb_sb_putc(&b, buf[i] == '\t' ? '\t' : ' ');
    hb_sb_puts(&b, "^\n");
  }
  fwrite(b.data, 1, b.len, stderr);
  hb_sb_free(&b);
}

void diag_error(const source_file *s, size_t offset, const char *message) { diag(s, offset, "error", message); }

void diag_warning(const source_file *s, size_t offset, const char *message) {
  diag_warnings++;
  if (diag_fatal) diag(s, offset, "error", message);
  else if (!diag_quiet) diag(s, offset, "warning", message);
}

void diag_note(const source_file *s, size_t offset, const char *message) {
  if (!diag_quiet) diag(s, offset, "note", message);
}

void diag_parse_error(const source_file *s, const hlo_error *err) {
  diag_error(s, err->offset, err->message);
  if (err->note[0]) diag_note(s, err->note_offset, err->note);
}

void diag_module_warnings(const source_file *s, const hlo_module *m) {
  for (int i = 0; i < m->n_warnings; i++) diag_warning(s, m->warnings[i].offset, m->warnings[i].message);
}
