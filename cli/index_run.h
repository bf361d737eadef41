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
#include "../parser/base/strbuf.h"

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
  hb_strbuf out;                /* pending standard output */
  source_file *src;          /* current file */
  const hlo_module *module;  /* current module */
  bool several;              /* the run covers several modules: name each one */
  bool several_instrs;       /* --all, --match, --opcode or several --instr: analysis errors are
                                warnings, instructions without the --output / --operand are skipped */
  bool pinned;               /* the options select XLA's single block (no headers) */
  const hlo_computation *pending_computation; /* --all: its header is due before the next block */
  int rc;                    /* exit status so far */
  size_t instr_mark;         /* out.len when the current instruction began */
  bool instr_failed;         /* its analysis failed with an error: its output is dropped */
  bool instr_handed;         /* index_each_block handed it a block: its output stays */
  bool checked_any;          /* --format=filecheck: a CHECK line was written */
  hb_strbuf scratch;            /* --format=filecheck: the lines as written */
  int part;                  /* which part of an out2in block the block function gets (index_part) */
};

/* A block handed whole, or in parts (index_each_block_parts): the first
 * (the header), more entries, the last (what closes the block). */
enum index_part { INDEX_WHOLE, INDEX_FIRST, INDEX_MORE, INDEX_LAST };

/* Writes the pending output (cli/output.h) once it is large (force:
 * always). Inside an instruction only where a failure cannot drop its
 * output (several instructions, without --fatal-warnings); elsewhere an
 * instruction's output is held until it succeeded. */
void index_flush(index_run *r, bool force);
/* After a block, inside an instruction: index_flush where a failure never
 * drops output (several instructions, without --fatal-warnings; or once a
 * block is handed: index_each_block, the tile modes and --symbolic-tile
 * hand each block they finish, which keeps the instruction's output
 * whatever fails after it), so that memory stays bounded by a block. */
void index_flush_block(index_run *r);

/* `## module NAME (FILE)` (`## module NAME` with --no-file-names) when
 * the run names its modules. */
void index_module_header(index_run *r);
/* `## computation NAME` (--all). */
void index_computation_header(index_run *r, const hlo_computation *c);

/* --format=filecheck (out_filecheck.c): TEXT[0, LEN), whole lines of the
 * text output, as FileCheck directives; *FIRST_DONE: a line was already
 * written (the first line of the output is a CHECK). FILECHECK_ANY in the
 * text becomes the pattern {{.*}}. */
#define FILECHECK_ANY '\x01'

void filecheck_lines(hb_strbuf *dst, const char *text, size_t len, bool *first_done);

/* The indexing of one block in the run's layout mode (--physical):
 * ii_o2i / ii_i2o, their physical variants, or the tiled ones. */
ii_status index_query(index_run *r, const hlo_instr *in, bool o2i, long id, ii_indexing *x, ii_error *err);

/* An analysis error at IN (or at err->instr): FILE:LINE:COL: error: on
 * stderr (the output before the instruction is written first). In the
 * single-instruction mode, and with --fatal-warnings, it sets the exit
 * status to 1, marks the instruction failed (nothing of it is printed)
 * and returns true: stop the instruction. With several instructions it is
 * a warning (the block says "unknown indexing" and why), the status is
 * left alone, and it returns false. */
bool index_report_error(index_run *r, const hlo_instr *at, const ii_error *err);

/* Prints the pending computation header (--all), if any: a computation
 * is named only when something of it is printed. */
void index_open_computation(index_run *r);

/* The entries of a block of N that the options keep: --operand in an
 * out2in block, --output in an in2out block, else all: [*lo, *hi). */
void index_entry_range(const index_run *r, const hlo_instr *in, bool o2i, long n, long *lo, long *hi);

/* The entries of a block that have maps: the first of [K, HI) (HI when
 * none; X NULL: a block that was not analyzed, every entry shown; entries
 * past X's, as XLA's one entry of a tuple's in2out, shown too), and the
 * others of [LO, HI) appended to T as `0, 2-5, 7` (runs of three or more
 * as FIRST-LAST), returning how many: the block header names them. */
long index_next_shown(const ii_indexing *x, long k, long hi);
long index_put_not_shown(hb_strbuf *t, const ii_indexing *x, long lo, long hi);

/* Whether IN lacks the entry --operand (o2i) / --output (i2o) names: an
 * error at IN for one instruction (index_report_error; the instruction is
 * then failed), silently true when several are analysed (they are
 * skipped). */
bool index_entry_missing(index_run *r, const hlo_instr *in, bool o2i);

/* Runs the queries the options ask for on IN -- out2in for every output
 * (or --output), in2out for every operand (or --operand), per --direction
 * -- and hands each block to BLOCK, with st != II_OK and *err filled when
 * the analysis failed (after the warning). NONE is called instead of a
 * direction's blocks when IN has no outputs (o2i) or no operands (i2o).
 *
 * A block whose analysis fails is reported at IN. With one instruction,
 * and with --fatal-warnings, it is an error (exit status 1) and the block
 * is not handed over: nothing of it is printed, but the instruction's
 * other blocks still are (one failing query does not silence the others).
 * With several instructions it is a warning and the block is handed over
 * (st != II_OK: "not analyzed: WHY" and "unknown indexing" entries). A
 * block whose entry named by --operand (o2i) / --output (i2o) does not
 * exist is an error of the whole instruction for one instruction (nothing
 * of it is printed), skipped for several; with --skip-unknown a block
 * whose maps are all unknown is skipped. Returns false when an error
 * stops the instruction, or when every block failed: the instruction then
 * failed as a whole (nothing of it is printed). */
typedef void (*index_block_fn)(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st,
                               const ii_indexing *x, const ii_error *err);
typedef void (*index_none_fn)(index_run *r, const hlo_instr *in, bool o2i);
bool index_each_block(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none);
/* The same for a block function that takes parts (r->part): the out2in
 * block of an instruction of many operands whose entries are computed
 * each alone (ii_o2i_in_parts: a concatenate, a fusion in parts) comes in
 * parts of INDEX_PART_ENTRIES, every part, and the in2out blocks of each
 * part of its operands, in an expression scope of its own (its memory
 * that of one part). Its header lists every operand (each one is read). */
bool index_each_block_parts(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none);
#define INDEX_PARTS_FROM II_PARTS_FROM /* operands */
#define INDEX_PART_ENTRIES II_PART
/* The blocks of one direction a window at a time (dump-mode --compare
 * walks two dumps' instructions side by side, a window of each): those
 * of IN with ids in [LO, HI), as index_each_block_parts hands them but
 * the out2in block whole; the "no outputs" / "no operands" block with the
 * window at 0. BS, zeroed before an instruction's first window, carries
 * its diagnostics across windows; index_blocks_end after its last one
 * notes repeated errors and returns what index_each_block returns. */
typedef struct {
  ii_error last;
  long repeats;
  bool handed, failed;
} index_blocks;
bool index_each_block_window(index_run *r, const hlo_instr *in, bool o2i, long lo, long hi, index_blocks *bs,
                             index_block_fn block, index_none_fn none);
bool index_blocks_end(index_run *r, const hlo_instr *in, const index_blocks *bs);
/* Whether IN's out2in block comes in parts (also --symbolic-tile's). */
bool index_in_parts(const index_run *r, const hlo_instr *in);
/* Part [LO, *HI) of output OUT's out2in block of IN into X, in an
 * expression scope of its own (ended by ii_ctx_block_end); false, and no
 * scope, when the first part fails. */
bool index_part(index_run *r, const hlo_instr *in, long out, uint32_t lo, uint32_t *hi, ii_indexing *x);

/* --grouped: ii_o2i_grouped of IN for every output (or --output), each
 * handed to FN; a failing one, and the return value, as in
 * index_each_block. */
typedef void (*index_grouped_fn)(index_run *r, const hlo_instr *in, long id, ii_status st, const ii_grouped *g,
                                 const ii_error *err);
bool index_each_grouped(index_run *r, const hlo_instr *in, index_grouped_fn fn);

/* The number of entries of a block: operands (o2i) or outputs (i2o). */
static inline long index_entries(const hlo_instr *in, bool o2i) {
  return o2i ? in->n_operands : (long)ii_num_outputs(in);
}

/* The runs of the walk: over FILES (NFILES; 0 = standard input) with the
 * report REP, whose state starts as STATE; returns the exit status. */
int index_walk(const hloidx_options *o, const index_report *rep, void *state, char *const *files, int nfiles);

/* The reports. */
extern const index_report index_report_text;    /* out_text.c: text and --format=mlir */
extern const index_report index_report_json;    /* out_json.c */
extern const index_report index_report_summary; /* out_summary.c */
extern const index_report index_report_verify;  /* out_verify.c */
/* The report of the tile modes (--symbolic-tile, --tiles, --tilings;
 * tile_modes.c); NULL outside them. */
const index_report *tile_mode_report(const hloidx_options *o);

#endif
