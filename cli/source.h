/* Whole input files in memory, and FILE:LINE:COL diagnostics against them. */
#ifndef HLOIDX_SOURCE_H
#define HLOIDX_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of NUL padding after the data: the lexer may read this far past the
 * end without a bounds check. */
#define SOURCE_PADDING 64

/* Largest input accepted: 2 GiB. Token lengths and counts of the IR are
 * 32-bit; a larger input is rejected before it is read. */
#define SOURCE_MAX_BYTES ((size_t)1 << 31)

typedef struct {
  const char *name; /* as given on the command line; "<stdin>" for '-' */
  char *data;       /* len bytes followed by SOURCE_PADDING NUL bytes */
  size_t len;
  size_t mapped;    /* bytes mapped (mmap) at data; 0 when data was allocated */
  size_t released;  /* bytes before this were given back when done (source_release) */
  /* The last position source_line_col computed: later positions are found
   * by scanning on from it, so many diagnostics in a large file cost one
   * pass over it (allocated by source_read; NULL = none). */
  struct source_memo *memo;
  struct source_memo *cursor; /* the same for source_line (headers, lists) */
} source_file;

/* Reads PATH ("-" = standard input). Returns 0, or prints
 * "hloidx: error: NAME: cannot open: WHY" (or cannot read) or "NAME:1:1:
 * error: input too large ..." (more than SOURCE_MAX_BYTES) and returns 1.
 * NAME is also what an out-of-memory message names from then on. */
int source_read(const char *path, source_file *out);
/* The same, printing nothing (for worker threads: the caller reports). */
int source_read_quiet(const char *path, source_file *out);
void source_free(source_file *s);
/* The text before byte UPTO has been parsed: a mapped file's pages holding
 * the bytes from where the last DONE call ended to UPTO (every page to the
 * end when UPTO >= len) are given back to the system, so a module's
 * analysis does not hold its text as well as its IR. A later read of those
 * bytes (a diagnostic's line, an attribute's text, the next module's first
 * bytes on a shared page) faults them in again from the file, unchanged
 * (source.c maps it read-only). Text that was read, not mapped, is kept.
 * Called before a module's analysis and again, DONE, after it: what the
 * analysis read back of its own text goes too. */
void source_release(source_file *s, size_t upto, bool done);

/* Prints "NAME:LINE:COL: error: MESSAGE", the source line and a caret under
 * the column, to stderr. Lines end at \n, \r\n or a bare \r; columns count
 * bytes from 1. */
void diag_error(const source_file *s, size_t offset, const char *message);
/* The same with "warning:" for problems that do not change the exit status
 * (see diag_set_policy: -q, --fatal-warnings). */
void diag_warning(const source_file *s, size_t offset, const char *message);

/* The same with "note:" (remarks on how the input is read; not with -q). */
void diag_note(const source_file *s, size_t offset, const char *message);

/* "hloidx: error: FILE: MESSAGE": an input or output that cannot be used
 * as a whole (no position). */
void diag_file_error(const char *file, const char *message);
/* "hloidx: note: FILE: MESSAGE" (not with -q). */
void diag_file_note(const char *file, const char *message);

/* Policy for all diagnostics: QUIET drops warnings (-q); FATAL reports
 * them as errors (--fatal-warnings; main then exits with 1). */
void diag_set_policy(bool quiet, bool fatal_warnings);
/* Warnings reported so far (printed or not). */
unsigned long diag_warning_count(void);

/* Every error reported, handed to a sink as well (--format=json lists
 * them): FILE, LINE and COL (0 when the error has no position). */
typedef struct {
  const char *file;
  size_t line, col;
  const char *message;
} diag_record;
void diag_set_sink(void (*sink)(void *arg, const diag_record *d), void *arg);

/* A parse error (with its note, if any) and a module's warnings. */
struct hlo_error;
struct hlo_module;
void diag_parse_error(const source_file *s, const struct hlo_error *err);
void diag_module_warnings(const source_file *s, const struct hlo_module *m);

/* The 1-based line and column of a byte offset (updates the memo). */
void source_line_col(const source_file *s, size_t offset, size_t *line, size_t *col);
/* The 1-based line of a byte offset, and the text of that line (without
 * its end), from a memo of their own: a walk that asks in file order
 * scans the file once, whatever the diagnostics in between ask. */
size_t source_line(const source_file *s, size_t offset);
void source_line_text(const source_file *s, size_t offset, const char **text, size_t *len);

#endif
