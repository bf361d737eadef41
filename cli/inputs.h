/* The inputs as given: files, '-', and dump folders (--xla_dump_to). */
#ifndef HLOIDX_INPUTS_H
#define HLOIDX_INPUTS_H

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "options.h"
#include "source.h"
#include "../parser/base/strbuf.h"

/* Replaces each directory among o->files (an error with --map) by the HLO
 * files directly in it (name order; a file is HLO when its text, after
 * blanks and comments, starts with `HloModule` or `ENTRY`), with a note on
 * stderr for each other entry (hidden ones and, with --stage, files of
 * other stages silently), and keeps, with --stage, only files of that
 * stage. Prints a hint when
 * standard input is a terminal. Returns 0, or 1 after an error (an
 * unreadable folder, or nothing left to read: then o->nfiles is 0 and the
 * run must stop, not read standard input). */
int inputs_expand(hloidx_options *o);

/* Whether the file name PATH belongs to XLA's dump stage STAGE: its last
 * component, less the extension, ends in STAGE preceded by '.', '_' or '-'
 * (module_0001.jit_f.sm_8.0_gpu_after_optimizations.txt is of stage
 * after_optimizations, and so is ...after_optimizations.txt; its
 * -buffer-assignment.txt companion is not). */
bool inputs_stage_matches(const char *path, const char *stage);

/* A command over inputs of its own text, not HLO (--map, --shape-stride):
 * the files in turn (none named: standard input), each handed to FN with
 * what the run shares. Stops once a write to the output has failed. */
typedef struct inputs_run {
  const hloidx_options *o;
  const source_file *src; /* the file being read */
  ae_ctx *ctx;
  hb_arena *scratch;         /* reset by FN as it needs */
  hb_strbuf out;             /* FN's text, written with inputs_emit */
  int nprinted;           /* items written so far */
  int rc;                 /* 1 after an error */
  void *cl;               /* the command's own state */
} inputs_run;

/* Returns 1 when a file could not be read or FN reported an error, else 0. */
int inputs_run_each(const hloidx_options *o, void (*fn)(inputs_run *r), void *cl);
/* An error at OFFSET of the current file (standard output synced first). */
void inputs_error(inputs_run *r, size_t offset, const char *message);
/* Writes r->out as the next item, after a blank line unless it is the first. */
void inputs_emit(inputs_run *r);

#endif
