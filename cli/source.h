/* Whole input files in memory, and FILE:LINE:COL diagnostics against them. */
#ifndef HLOIDX_SOURCE_H
#define HLOIDX_SOURCE_H

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
  /* The last position source_line_col computed: later positions are found
   * by scanning on from it, so many diagnostics in a large file cost one
   * pass over it (allocated by source_read; NULL = none). */
  struct source_memo *memo;
} source_file;

/* Reads PATH ("-" = standard input). Returns 0, or prints
 * "hloidx: error: ..." (cannot open or read) or "NAME:1:1: error: input too
 * large ..." (more than SOURCE_MAX_BYTES) and returns 1. */
int source_read(const char *path, source_file *out);
/* The same, printing nothing (for worker threads: the caller reports). */
int source_read_quiet(const char *path, source_file *out);
void source_free(source_file *s);

/* Prints "NAME:LINE:COL: error: MESSAGE", the source line and a caret under
 * the column, to stderr. Lines end at \n, \r\n or a bare \r; columns count
 * bytes from 1. */
void diag_error(const source_file *s, size_t offset, const char *message);
/* The same with "warning:" for problems that do not change the exit status. */
void diag_warning(const source_file *s, size_t offset, const char *message);

/* A parse error (with its note, if any) and a module's warnings. */
struct hlo_error;
struct hlo_module;
void diag_parse_error(const source_file *s, const struct hlo_error *err);
void diag_module_warnings(const source_file *s, const struct hlo_module *m);

/* The 1-based line and column of a byte offset (updates the memo). */
void source_line_col(const source_file *s, size_t offset, size_t *line, size_t *col);

#endif
