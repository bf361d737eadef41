/* The inputs as given: files, '-', and dump folders (--xla_dump_to). */
#ifndef HLOIDX_INPUTS_H
#define HLOIDX_INPUTS_H

#include "options.h"

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

#endif
