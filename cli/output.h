/* Standard output of a run (stdout, or -o FILE) and the failure policy for
 * it: a write that fails (a full disk, a closed stdout, -o naming a file
 * that cannot be created) is an input/output error like an unreadable
 * input -- `hloidx: error: FILE: MESSAGE` on stderr and exit status 1 --
 * in every mode. The first failure is remembered with its errno and
 * reported once, by output_close; commands may stop early once
 * output_failed() is true. */
#ifndef HLOIDX_OUTPUT_H
#define HLOIDX_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* Sends standard output to PATH (NULL: keep stdout). Returns 0, or 1 after
 * printing the error (the file cannot be created). */
int output_open(const char *path);
/* Appends LEN bytes; false once a write has failed. */
bool output_write(const void *data, size_t len);
/* Writes what stdio holds (before a diagnostic on stderr, so that the two
 * streams stay in order on a terminal); false once a write has failed. */
bool output_sync(void);
bool output_failed(void);
/* Flushes and closes the output. Returns RC, or 1 after printing the first
 * write error (a write error outranks a success, not an internal error). */
int output_close(int rc);

#endif
