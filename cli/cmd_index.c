/* Default mode: which instructions are analysed, in which order, and which
 * report gets them (index_run.h). The analysis is in analysis/; the
 * reports format its results.
 *
 * Instructions (select.h): the ROOT of the ENTRY computation; or each
 * --instr NAME; or every instruction of every computation (fused ones
 * included) that --match and --opcode let through. With --all, per module:
 * the ENTRY computation and every computation reachable from it through
 * control flow (while body and condition, conditional branches, call,
 * async computations, custom-call called_computations, ...), in the
 * module's textual order; in each, in textual order, every fusion and
 * every other instruction that has operands and is not a tuple,
 * get-tuple-element or parameter (and passes --match and --opcode). Fused
 * computations are covered by their fusion instruction (never listed
 * themselves), and to_apply computations (scalar reducers, comparators,
 * map kernels) are not walked. A module whose ENTRY computation is not
 * marked and looks like a fused computation cut out of a dump gets a note
 * (only its ROOT is analysed by default). Or --computation NAME: that
 * computation as a fusion body (ii_computation_instr), the one
 * "instruction" of each module. With --grouped, XLA's grouped indexing of
 * each fusion picked instead of its blocks (other instructions picked by
 * --all, --match or --opcode are skipped; one named alone is an error).
 *
 * Headers (text, mlir, summary, verify). Each module of a run over several
 * modules (a file with `// -----` separators, or several files), and every
 * module under --all, starts with `## module NAME (FILE)`; under --all each
 * walked computation with at least one printed block starts with
 * `## computation NAME`. Block headers: out_text.c.
 *
 * The tile modes (--symbolic-tile, --tiles, --tilings) walk the same
 * instructions with their own reports (tile_modes.c).
 *
 * Headers name the file unless --no-file-names (`## module NAME`), so
 * that goldens do not depend on where the input was read from.
 *
 * Analysis errors (an XLA CHECK condition such as a gather that is not in
 * the simplified form, or an analysis over the size limits) are reported as
 * FILE:LINE:COL: error: at the instruction. With one instruction the exit
 * status is then 1 and nothing of the failing block is printed; the
 * instruction's other blocks still are (an out2in query that fails does
 * not silence the in2out ones). With several (--all, --match, --opcode,
 * several --instr) they are warnings (FILE:LINE:COL: warning:): the block
 * says why it has no maps and gives `unknown indexing` for each entry, the
 * run goes on, and the exit status is not changed -- unless
 * --fatal-warnings makes them errors, handled as with one instruction.
 * A --operand / --output the instruction lacks is an error of the whole
 * instruction (nothing of it is printed). Input errors (unreadable file,
 * parse or verifier error) exit with 1; the walk then goes on with the
 * next file. A write error stops the run (cli/output.h).
 *
 * Memory and speed. Modules are parsed one at a time (hlo_parse_file_each)
 * and freed once analysed (whether a file holds several modules is found
 * by a scan for separator lines first, so no module waits for the next);
 * one analysis context serves the whole run (ii_ctx_reset between
 * instructions, ii_ctx_end_module between modules; fusions with
 * structurally equal fused computations share one analysis, see
 * analysis/fusion_cache.c; HLOIDX_NO_FUSION_CACHE=1 turns that off for
 * comparisons). Output is collected in a buffer written in large chunks. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hlo_ir.h"
#include "index_run.h"
#include "instr_indexing.h"
#include "../parser/base/oom.h"
#include "output.h"
#include "select.h"
#include "source.h"
#include "../parser/base/strbuf.h"

#define FLUSH_AT ((size_t)1 << 16)

/* Writes out[0, n) and keeps the rest. */
static void write_prefix(index_run *r, size_t n) {
  if (r->o->format == FMT_FILECHECK) {
    hb_strbuf *t = &r->scratch;
    hb_sb_reset(t);
    filecheck_lines(t, r->out.data, n, &r->checked_any);
    output_write(t->data, t->len);
  } else {
    output_write(r->out.data, n);
  }
  memmove(r->out.data, r->out.data + n, r->out.len - n);
  r->out.len -= n;
  r->out.data[r->out.len] = '\0';
}

void index_flush(index_run *r, bool force) {
  if (r->out.len == 0 || (!force && r->out.len < FLUSH_AT)) return;
  write_prefix(r, r->out.len);
  r->instr_mark = 0;
}

/* Analysis errors are warnings where several instructions are analysed
 * (without --fatal-warnings): the run goes on, and keeps the output. */
static bool errors_are_warnings(const index_run *r) { return r->several_instrs && !r->o->fatal_warnings; }

void index_flush_block(index_run *r) {
  if (errors_are_warnings(r) || r->instr_handed) index_flush(r, false);
}

void index_module_header(index_run *r) {
  if (!r->several) return;
  hb_sb_printf(&r->out, "## module %s", r->module->name);
  /* (FileCheck lines never name the file: lit runs tests from elsewhere) */
  if (!r->o->no_file_names && r->o->format != FMT_FILECHECK) hb_sb_printf(&r->out, " (%s)", r->src->name);
  hb_sb_putc(&r->out, '\n');
}

void index_computation_header(index_run *r, const hlo_computation *c) {
  hb_sb_printf(&r->out, "## computation %s\n", c->name);
}

ii_status index_query(index_run *r, const hlo_instr *in, bool o2i, long id, ii_indexing *x, ii_error *err) {
  switch (r->o->physical) {
  case PHYS_MAJOR: return o2i ? ii_o2i_physical(r->ctx, in, id, x, err) : ii_i2o_physical(r->ctx, in, id, x, err);
  case PHYS_TILED: return o2i ? ii_o2i_tiled(r->ctx, in, id, x, err) : ii_i2o_tiled(r->ctx, in, id, x, err);
  case PHYS_NONE: break;
  }
  return o2i ? ii_o2i(r->ctx, in, id, x, err) : ii_i2o(r->ctx, in, id, x, err);
}

/* The diagnostic of index_report_error; true when it is an error. */
static bool report(index_run *r, const hlo_instr *at, const ii_error *err) {
  /* what came before the instruction goes out first (streams in order) */
  if (r->instr_mark) write_prefix(r, r->instr_mark);
  r->instr_mark = 0;
  output_sync();
  const hlo_instr *where = err->instr ? err->instr : at;
  if (errors_are_warnings(r)) {
    diag_warning(r->src, where->offset, err->message);
    return false;
  }
  diag_error(r->src, where->offset, err->message);
  r->rc = 1;
  return true;
}

bool index_report_error(index_run *r, const hlo_instr *at, const ii_error *err) {
  if (!report(r, at, err)) return false;
  r->instr_failed = true;
  return true;
}

void index_open_computation(index_run *r) {
  if (!r->pending_computation) return;
  if (r->rep->computation_begin) r->rep->computation_begin(r, r->pending_computation);
  r->pending_computation = NULL;
}

void index_entry_range(const index_run *r, const hlo_instr *in, bool o2i, long n, long *lo, long *hi) {
  (void)in;
  long only = o2i ? r->o->operand : r->o->output;
  *lo = only >= 0 ? only : 0;
  *hi = only >= 0 ? (only < n ? only + 1 : only) : n;
}

long index_next_shown(const ii_indexing *x, long k, long hi) {
  if (!x || k >= hi || k >= (long)x->n) return k;
  long next = (long)ii_next_entry(x, (uint32_t)k);
  return next < hi ? next : hi;
}

long index_put_not_shown(hb_strbuf *t, const ii_indexing *x, long lo, long hi) {
  long n = 0;
  for (long k = lo; k < hi;) {
    long next = index_next_shown(x, k, hi);
    for (long j = k; j < next; j++) {
      if (n++) hb_sb_puts(t, ", ");
      hb_sb_put_i64(t, j);
      if (next - k >= 3) {
        hb_sb_putc(t, '-');
        hb_sb_put_i64(t, next - 1);
        n += next - k - 1;
        break;
      }
    }
    k = next + 1;
  }
  return n;
}

/* Whether every map of the block's entries is unknown (and there is one). */
static bool all_unknown(const index_run *r, const hlo_instr *in, bool o2i, const ii_indexing *x) {
  long lo, hi;
  index_entry_range(r, in, o2i, (long)x->n, &lo, &hi);
  bool any = false;
  for (long k = lo; k < hi; k = (long)ii_next_entry(x, (uint32_t)k + 1)) {
    const ii_set *s = ii_entry(x, (uint32_t)k);
    for (uint32_t i = 0; i < s->n; i++) {
      if (!s->items[i]->map->undefined) return false;
      any = true;
    }
  }
  return any;
}

bool index_entry_missing(index_run *r, const hlo_instr *in, bool o2i) {
  long entry = o2i ? r->o->operand : r->o->output, n = index_entries(in, o2i);
  if (entry < n) return false;
  if (!r->several_instrs) {
    ii_error err = {.instr = in};
    const char *what = o2i ? "operand" : "output";
    snprintf(err.message, sizeof err.message, "%s %ld is out of range: '%s' has %ld %s%s", what, entry, in->name, n,
             what, n == 1 ? "" : "s");
    index_report_error(r, in, &err);
  }
  return true;
}

/* Whether ERR is LAST again (the same instruction and message: the in2out
 * blocks of a fusion whose analysis is too large each fail alike); else
 * ERR becomes LAST. */
static bool repeated(ii_error *last, const hlo_instr *in, const ii_error *err) {
  const hlo_instr *where = err->instr ? err->instr : in;
  if (last->instr == where && strcmp(last->message, err->message) == 0) return true;
  last->instr = where;
  memcpy(last->message, err->message, sizeof last->message);
  return false;
}

bool index_in_parts(const index_run *r, const hlo_instr *in) {
  const hloidx_options *o = r->o;
  return in->n_operands >= INDEX_PARTS_FROM && !r->pinned && o->operand < 0 && o->physical == PHYS_NONE &&
         !o->skip_unknown && ii_o2i_in_parts(r->ctx, in);
}

bool index_part(index_run *r, const hlo_instr *in, long out, uint32_t lo, uint32_t *hi, ii_indexing *x) {
  uint32_t n = (uint32_t)in->n_operands;
  ii_error err;
  *hi = n - lo > INDEX_PART_ENTRIES ? lo + INDEX_PART_ENTRIES : n;
  ii_ctx_block_begin(r->ctx);
  ii_ctx_reset(r->ctx);
  ii_status st = ii_o2i_part(r->ctx, in, out, lo, *hi, x, &err);
  if (st != II_OK && lo == 0) {
    ii_ctx_block_end(r->ctx);
    return false;
  }
  /* (a part after the first cannot fail but on a limit: its entries unknown, and why) */
  if (st != II_OK) ii_unknown_range(r->ctx, x, n, lo, *hi, err.message);
  return true;
}

/* Output ID's out2in block of IN in parts; false when its first part
 * fails (the block is then asked for whole, and fails alike). */
static bool block_in_parts(index_run *r, const hlo_instr *in, long id, index_block_fn block, index_blocks *bs) {
  uint32_t n = (uint32_t)in->n_operands, hi;
  for (uint32_t lo = 0; lo < n; lo = hi) {
    ii_indexing x;
    if (!index_part(r, in, id, lo, &hi, &x)) return false;
    if (lo == 0) index_open_computation(r);
    r->part = lo == 0 ? INDEX_FIRST : hi == n ? INDEX_LAST : INDEX_MORE;
    bs->handed = r->instr_handed = true; /* (before it is written: each part goes out as it comes) */
    block(r, in, true, id, II_OK, &x, NULL);
    r->part = INDEX_WHOLE;
    index_flush_block(r);
    ii_ctx_block_end(r->ctx);
  }
  return true;
}

/* Block ID of direction O2I of IN. */
static void one_block(index_run *r, const hlo_instr *in, bool o2i, long id, index_block_fn block, index_blocks *bs) {
  ii_indexing x;
  ii_error err;
  ii_ctx_reset(r->ctx); /* the previous block is printed: drop its results (memory stays bounded) */
  ii_status st = index_query(r, in, o2i, id, &x, &err);
  if (st != II_OK) {
    bool again = repeated(&bs->last, in, &err);
    bs->repeats += again;
    if (again ? !errors_are_warnings(r) : report(r, in, &err)) {
      bs->failed = true; /* an error: this block writes nothing, the others still come */
      return;
    }
  }
  if (r->o->skip_unknown && (st != II_OK || all_unknown(r, in, o2i, &x))) return;
  index_open_computation(r);
  block(r, in, o2i, id, st, &x, &err);
  bs->handed = r->instr_handed = true; /* nothing will drop the instruction's output now */
  index_flush_block(r);
}

/* Direction O2I's blocks of IN with ids in [WLO, WHI) (the block of an
 * instruction without outputs / operands with WLO = 0); false when an
 * error stops the instruction. */
static bool dir_blocks(index_run *r, const hlo_instr *in, bool o2i, long wlo, long whi, bool parts, index_blocks *bs,
                       index_block_fn block, index_none_fn none) {
  const hloidx_options *o = r->o;
  if (o->direction == (o2i ? DIR_IN2OUT : DIR_OUT2IN)) return true;
  /* an instruction in parts: every block in an expression scope */
  bool scoped = parts && index_in_parts(r, in);
  long pinned = o2i ? o->output : o->operand;
  long n = o2i ? (long)ii_num_outputs(in) : in->n_operands;
  if (pinned < 0 && n == 0) {
    if (wlo > 0) return true;
    index_open_computation(r);
    none(r, in, o2i);
    bs->handed = true;
    return true;
  }
  if (pinned >= n && r->several_instrs) return true; /* only instructions that have it */
  if (index_entry_missing(r, in, o2i)) return r->several_instrs;
  long lo = pinned >= 0 ? pinned : 0, hi = pinned >= 0 ? pinned + 1 : n;
  if (lo < wlo) lo = wlo;
  if (hi > whi) hi = whi;
  for (long id = lo; id < hi; id++) {
    if (scoped && o2i && block_in_parts(r, in, id, block, bs)) continue; /* (each part in its own scope) */
    /* in2out: a scope per part of the operands (a fusion's in2out queries
     * memoise their part's out2in entries until it ends) */
    if (scoped && (o2i || id == lo || id % INDEX_PART_ENTRIES == 0)) ii_ctx_block_begin(r->ctx);
    one_block(r, in, o2i, id, block, bs);
    if (scoped && (o2i || id + 1 == hi || (id + 1) % INDEX_PART_ENTRIES == 0)) ii_ctx_block_end(r->ctx);
  }
  return true;
}

bool index_blocks_end(index_run *r, const hlo_instr *in, const index_blocks *bs) {
  if (bs->repeats) {
    char msg[200];
    snprintf(msg, sizeof msg, "the same for %ld more block%s of '%.64s'", bs->repeats, bs->repeats == 1 ? "" : "s",
             in->name);
    diag_note(r->src, bs->last.instr->offset, msg);
  }
  /* every block failed: the instruction failed (no trace of it, e.g. in JSON) */
  if (bs->failed && !bs->handed) r->instr_failed = true;
  return bs->handed || !bs->failed;
}

static bool each_block(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none, bool parts) {
  index_blocks bs = {0};
  for (int dir = 0; dir < 2; dir++)
    if (!dir_blocks(r, in, dir == 0, 0, LONG_MAX, parts, &bs, block, none)) return false;
  return index_blocks_end(r, in, &bs);
}

bool index_each_block(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none) {
  return each_block(r, in, block, none, false);
}

bool index_each_block_parts(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none) {
  return each_block(r, in, block, none, true);
}

bool index_each_block_window(index_run *r, const hlo_instr *in, bool o2i, long lo, long hi, index_blocks *bs,
                             index_block_fn block, index_none_fn none) {
  return dir_blocks(r, in, o2i, lo, hi, !o2i, bs, block, none);
}

bool index_each_grouped(index_run *r, const hlo_instr *in, index_grouped_fn fn) {
  long n = (long)ii_num_outputs(in), lo = r->o->output >= 0 ? r->o->output : 0;
  long hi = r->o->output >= 0 ? r->o->output + 1 : n;
  if (r->o->output >= n && index_entry_missing(r, in, false)) return r->several_instrs;
  bool handed = false, failed = false;
  for (long id = lo; id < hi && id < n; id++) {
    ii_grouped g;
    ii_error err;
    ii_ctx_reset(r->ctx);
    ii_status st = ii_o2i_grouped(r->ctx, in, id, &g, &err);
    if (st != II_OK && report(r, in, &err)) {
      failed = true;
      if (in->op != HLO_OP_FUSION) break; /* not a fusion: one error says it */
      continue;
    }
    if (r->o->skip_unknown && st != II_OK) continue;
    index_open_computation(r);
    fn(r, in, id, st, &g, &err);
    handed = r->instr_handed = true;
    index_flush_block(r);
  }
  if (failed && !handed) r->instr_failed = true;
  return handed || !failed;
}

/* ---- which instructions -------------------------------------------------------------------------- */

static void on_computation(void *arg, const hlo_computation *c) {
  index_run *r = arg;
  r->pending_computation = r->o->all ? c : NULL; /* its header comes with its first block */
}

/* One instruction through the report; its output is dropped when it failed. */
static void on_instr(void *arg, const hlo_instr *in) {
  index_run *r = arg;
  if (output_failed()) return;
  if (r->o->grouped && in->op != HLO_OP_FUSION && r->several_instrs) return; /* the fusions picked */
  ii_ctx_reset(r->ctx);
  r->instr_mark = r->out.len;
  r->instr_failed = r->instr_handed = false;
  r->rep->instr(r, in);
  if (r->instr_failed) {
    r->out.len = r->instr_mark;
    if (r->out.data) r->out.data[r->out.len] = '\0';
  }
  r->instr_mark = 0;
  index_flush(r, false);
}

/* `FILE: error: no WHAT named 'NAME' in module 'M'` */
static void report_missing(index_run *r, const char *what, const char *name) {
  index_flush(r, true);
  output_sync();
  char msg[HLO_ERROR_MESSAGE_MAX + 64];
  snprintf(msg, sizeof msg, "no %s named '%s' in module '%s'", what, name, r->module->name);
  diag_file_error(r->src->name, msg);
  r->rc = 1;
}

static void on_missing(void *arg, const char *name) { report_missing(arg, "instruction", name); }

/* Computations cut out of a dump: a fused computation pasted alone is
 * taken as the ENTRY computation (the last one, none being marked), and
 * only its ROOT would be analysed. Its signs: no ENTRY keyword, and a name
 * XLA gives fused computations or parameters named as in them. */
static bool looks_fused(const hlo_computation *c) {
  if (c->entry_marked) return false;
  if (!strncmp(c->name, "fused", 5) || strstr(c->name, "fusion") || strstr(c->name, "fused_computation")) return true;
  return c->n_params > 0 && c->params[0] && !strncmp(c->params[0]->name, "param_", 6);
}

static void analyze(index_run *r, const hlo_module *m) {
  r->module = m;
  if (r->rep->module_begin) r->rep->module_begin(r);
  if (!r->o->all && !options_select(r->o) && !r->o->computation && m->entry && looks_fused(m->entry)) {
    index_flush(r, true);
    output_sync();
    hb_strbuf msg = HB_STRBUF_INIT;
    hb_sb_printf(&msg,
              "'%s' is read as the ENTRY computation (none is marked ENTRY) and looks like a fused computation cut out "
              "of a dump: only its ROOT is analyzed; --computation=%s analyzes it as a fusion, --all each of its "
              "instructions",
              m->entry->name, m->entry->name);
    diag_note(r->src, m->entry->offset, hb_sb_str(&msg));
    hb_sb_free(&msg);
  }
  static const select_visitor visit = {on_computation, on_instr, on_missing};
  if (r->o->computation) {
    const hlo_computation *comp = hlo_module_find_computation(m, r->o->computation);
    if (comp) on_instr(r, ii_computation_instr(r->ctx, comp));
    else report_missing(r, "computation", r->o->computation);
  } else {
    select_each(r->o, m, true, SELECT_ROOT, &visit, r);
  }
  r->pending_computation = NULL;
  if (r->rep->module_end) r->rep->module_end(r);
  ii_ctx_end_module(r->ctx);
  index_flush(r, false);
  r->module = NULL;
}

/* ---- files and modules ------------------------------------------------------------------------------ */

/* A line that is exactly "// -----" (trailing blanks allowed) at P, the
 * start of a line: the parser's module separator. */
static bool separator_at(const char *p, const char *end) {
  if (end - p < 8 || memcmp(p, "// -----", 8) != 0) return false;
  p += 8;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p == end || *p == '\n' || *p == '\r';
}

/* Whether the text from P holds anything but blanks and comments before
 * the next separator line (or the end); *next is set after that line. */
static bool chunk_has_module(const char *p, const char *end, const char **next) {
  bool found = false;
  const char *line = p;
  while (p < end) {
    if (p == line && separator_at(p, end)) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      *next = nl ? nl + 1 : end;
      return found;
    }
    char ch = *p;
    if (ch == '\n' || ch == '\r') {
      line = ++p;
    } else if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\v') {
      p++;
    } else if (ch == '/' && p + 1 < end && p[1] == '/' && !(p == line && separator_at(p, end))) {
      while (p < end && *p != '\n' && *p != '\r') p++;
    } else if (ch == '/' && p + 1 < end && p[1] == '*') {
      const char *q = p + 2;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) q++;
      p = q + 1 < end ? q + 2 : end;
    } else {
      /* a module: skip to the next separator line */
      found = true;
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      if (!nl) break;
      line = p = nl + 1;
    }
  }
  *next = end;
  return found;
}

/* More than one module in the text (then each gets a `## module` header):
 * counts the chunks between separator lines that are not blank, as the
 * parser does (a chunk of blanks and comments holds no module). */
static bool several_modules(const char *data, size_t len) {
  const char *p = data, *end = data + len, *next;
  int n = 0;
  while (p < end && n < 2) {
    n += chunk_has_module(p, end, &next);
    p = next;
  }
  return n >= 2;
}

/* Modules are analysed as the parser hands them over, then freed; a
 * write error stops the parse (EACH's 2). */
static int each_module(hlo_module *m, void *arg) {
  source_file *src = ((index_run *)arg)->src;
  diag_module_warnings(src, m);
  source_release(src, m->end, false);
  analyze(arg, m);
  source_release(src, m->end, true);
  hlo_module_free(m);
  return output_failed() ? 2 : 0;
}

static void run_file(index_run *r, const char *path, bool several_files) {
  source_file src;
  if (source_read(path, &src)) {
    r->rc = 1;
    return;
  }
  r->src = &src;
  r->several = several_files || r->o->all || several_modules(src.data, src.len);
  hlo_error perr;
  int st = hlo_parse_file_each(src.data, src.len, each_module, r, &perr);
  if (st == 1) {
    index_flush(r, true);
    output_sync();
    diag_parse_error(&src, &perr);
    r->rc = 1;
  }
  r->src = NULL;
  source_free(&src);
}

int index_walk(const hloidx_options *o, const index_report *rep, void *state, char *const *files, int nfiles) {
  index_run r;
  memset(&r, 0, sizeof r);
  r.o = o;
  r.rep = rep;
  r.state = state;
  r.ctx = ii_ctx_new();
  ii_ctx_set_xla_compat(r.ctx, o->xla_compat);
  /* a debugging switch: analyse every fusion again instead of reusing the
   * result of a structurally equal one (the output must not change) */
  const char *nc = getenv("HLOIDX_NO_FUSION_CACHE");
  if (nc && *nc && strcmp(nc, "0") != 0) ii_ctx_set_fusion_cache(r.ctx, false);
  r.several_instrs = o->all || o->has_match || o->nopcodes || o->ninstrs > 1;
  r.pinned = !r.several_instrs && ((o->direction == DIR_OUT2IN && o->output >= 0 && o->operand < 0) ||
                                   (o->direction == DIR_IN2OUT && o->operand >= 0 && o->output < 0));
  if (r.rep->begin) r.rep->begin(&r);
  int n = nfiles ? nfiles : 1;
  for (int f = 0; f < n && !output_failed(); f++) run_file(&r, nfiles ? files[f] : "-", n > 1);
  if (r.rep->end) r.rep->end(&r);
  index_flush(&r, true);
  hb_sb_free(&r.out);
  hb_sb_free(&r.scratch);
  ii_ctx_free(r.ctx);
  return r.rc;
}

int cmd_index(const hloidx_options *o) {
  const index_report *rep = tile_mode_report(o);
  if (!rep)
    rep = o->summary  ? &index_report_summary
          : o->verify ? &index_report_verify
          : o->format == FMT_JSON ? &index_report_json
                                  : &index_report_text;
  return index_walk(o, rep, NULL, o->files, o->nfiles);
}
