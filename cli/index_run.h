/* The default mode's run state, shared by the instruction walk
 * (cmd_index.c) and the reports it feeds: indexing maps as text or MLIR
 * attributes (out_text.c), as one JSON document (out_json.c), the access
 * summary (out_summary.c) and the enumeration check (out_verify.c).
 *
 * The walk calls a report's hooks in document order: begin, then per
 * module module_begin / (computation_begin / instr)... / module_end, then
 * end. Reports append to `out`, which the walk writes to stdout in large
 * chunks (index_flush); a report that writes to stderr calls index_flush
 * first so that the two streams stay in order. */
#ifndef HLOIDX_INDEX_RUN_H
#define HLOIDX_INDEX_RUN_H

#include <stdbool.h>

#include "hlo_ir.h"
#include "instr_indexing.h"
#include "options.h"
#include "source.h"
#include "strbuf.h"

typedef struct index_run index_run;

typedef struct {
  void (*begin)(index_run *r);
  void (*module_begin)(index_run *r);
  void (*computation_begin)(index_run *r, const hlo_computation *c); /* --all only */
  void (*instr)(index_run *r, const hlo_instr *in);
  void (*module_end)(index_run *r);
  void (*end)(index_run *r);
} index_report;

struct index_run {
  const hloidx_options *o;
  const index_report *rep;
  void *state;               /* the report's own state */
  ii_ctx *ctx;               /* one analysis context for the whole run */
  strbuf out;                /* pending standard output */
  const source_file *src;    /* current file */
  const hlo_module *module;  /* current module */
  bool several;              /* the run covers several modules: name each one */
  bool pinned;               /* the options select exactly one block (no headers) */
  int rc;                    /* exit status so far */
};

/* Writes the pending output to stdout once it is large (force: always). */
void index_flush(index_run *r, bool force);

/* The indexing of one block in the run's layout mode (--physical):
 * ii_o2i / ii_i2o, their physical variants, or the tiled ones. */
ii_status index_query(index_run *r, const hlo_instr *in, bool o2i, long id, ii_indexing *x, ii_error *err);

/* An analysis error at IN (or at err->instr): FILE:LINE:COL: error: on
 * stderr (pending output is flushed first). In the single-instruction mode
 * it sets the exit status to 1; with --all it is a warning and the status
 * is left alone. The block says "unknown indexing" and why either way. */
void index_report_error(index_run *r, const hlo_instr *at, const ii_error *err);

/* Runs the queries the options ask for on IN -- out2in for every output
 * (or --output), in2out for every operand (or --operand), per --direction
 * -- and hands each block to BLOCK, with st != II_OK and *err filled when
 * the analysis failed (after index_report_error; the other blocks are run
 * all the same). NONE is called instead of a direction's blocks when IN
 * has no outputs (o2i) or no operands (i2o). */
typedef void (*index_block_fn)(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st,
                               const ii_indexing *x, const ii_error *err);
typedef void (*index_none_fn)(index_run *r, const hlo_instr *in, bool o2i);
void index_each_block(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none);

/* --grouped: ii_o2i_grouped of IN for every output (or --output), each
 * handed to FN (after index_report_error when it failed). */
typedef void (*index_grouped_fn)(index_run *r, const hlo_instr *in, long id, ii_status st, const ii_grouped *g,
                                 const ii_error *err);
void index_each_grouped(index_run *r, const hlo_instr *in, index_grouped_fn fn);

/* The number of entries of a block: operands (o2i) or outputs (i2o). */
static inline long index_entries(const hlo_instr *in, bool o2i) {
  return o2i ? in->n_operands : (long)ii_num_outputs(in);
}

/* The reports. */
extern const index_report index_report_text;    /* out_text.c: text and --format=mlir */
extern const index_report index_report_json;    /* out_json.c */
extern const index_report index_report_summary; /* out_summary.c */
extern const index_report index_report_verify;  /* out_verify.c */

#endif
