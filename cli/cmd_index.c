/* Default mode: which instructions are analysed, in which order, and which
 * report gets them (index_run.h). The analysis is in analysis/; the
 * reports format its results.
 *
 * Instructions. Without --all: the ROOT of the ENTRY computation, or
 * --instr NAME, or --computation NAME (the computation as a fusion body:
 * ii_computation_instr). With --grouped, XLA's grouped indexing of that
 * fusion (with --all: of every fusion) instead of its blocks. With --all, per module: the ENTRY computation and every
 * computation reachable from it through control flow (while body and
 * condition, conditional branches, call, async computations, custom-call
 * called_computations, ...), in the module's textual order; in each, in
 * textual order, every fusion and every other instruction that has
 * operands and is not a tuple, get-tuple-element or parameter. Fused
 * computations are covered by their fusion instruction (never listed
 * themselves), and to_apply computations (scalar reducers, comparators,
 * map kernels) are not walked.
 *
 * Headers (text, mlir, summary, verify). Each module of a run over several
 * modules (a file with `// -----` separators, or several files), and every
 * module under --all, starts with `## module NAME (FILE)`; under --all each
 * walked computation with at least one analysed instruction starts with
 * `## computation NAME`.
 *
 * Analysis errors (an XLA CHECK condition such as a gather that is not in
 * the simplified form, or an analysis over the size limits) are reported as
 * FILE:LINE:COL: error: at the instruction, and the exit status is 1;
 * with --all they are warnings (FILE:LINE:COL: warning:) and the status is
 * not changed. Either way the block says why it has no maps and gives
 * `unknown indexing` for each entry, and the instruction's other blocks
 * (and, with --all, the other instructions) are analysed all the same. Input errors (unreadable file, parse or verifier
 * error) exit with 1; the walk then goes on with the next file.
 *
 * Memory and speed. Modules are parsed one at a time (hlo_parse_file_each)
 * and freed once analysed (whether a file holds several modules is found
 * by a scan for separator lines first, so no module waits for the next);
 * one analysis context serves the whole run (ii_ctx_reset between
 * instructions, ii_ctx_end_module between modules; fusions with
 * structurally equal fused computations share one analysis, see
 * analysis/fusion_cache.c; HLOIDX_NO_FUSION_CACHE=1 turns that off for
 * comparisons). Output is collected in a buffer written in large chunks. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hlo_ir.h"
#include "index_run.h"
#include "instr_indexing.h"
#include "oom.h"
#include "source.h"
#include "strbuf.h"

#define FLUSH_AT ((size_t)1 << 16)

static int usage(const char *msg) {
  fprintf(stderr, "hloidx: error: %s\nTry 'hloidx --help' for more information.\n", msg);
  return 2;
}

void index_flush(index_run *r, bool force) {
  if (r->out.len == 0 || (!force && r->out.len < FLUSH_AT)) return;
  fwrite(r->out.data, 1, r->out.len, stdout);
  sb_reset(&r->out);
}

ii_status index_query(index_run *r, const hlo_instr *in, bool o2i, long id, ii_indexing *x, ii_error *err) {
  switch (r->o->physical) {
  case PHYS_MAJOR: return o2i ? ii_o2i_physical(r->ctx, in, id, x, err) : ii_i2o_physical(r->ctx, in, id, x, err);
  case PHYS_TILED: return o2i ? ii_o2i_tiled(r->ctx, in, id, x, err) : ii_i2o_tiled(r->ctx, in, id, x, err);
  case PHYS_NONE: break;
  }
  return o2i ? ii_o2i(r->ctx, in, id, x, err) : ii_i2o(r->ctx, in, id, x, err);
}

void index_report_error(index_run *r, const hlo_instr *at, const ii_error *err) {
  index_flush(r, true);
  fflush(stdout);
  const hlo_instr *where = err->instr ? err->instr : at;
  if (r->o->all) {
    diag_warning(r->src, where->offset, err->message);
  } else {
    diag_error(r->src, where->offset, err->message);
    r->rc = 1;
  }
}

void index_each_block(index_run *r, const hlo_instr *in, index_block_fn block, index_none_fn none) {
  const hloidx_options *o = r->o;
  for (int dir = 0; dir < 2; dir++) {
    bool o2i = dir == 0;
    if (o->direction == (o2i ? DIR_IN2OUT : DIR_OUT2IN)) continue;
    long pinned = o2i ? o->output : o->operand;
    long n = o2i ? (long)ii_num_outputs(in) : in->n_operands;
    if (pinned < 0 && n == 0) {
      none(r, in, o2i);
      continue;
    }
    if (pinned >= n && o->all) continue; /* --all --output/--operand: only instructions that have it */
    long lo = pinned >= 0 ? pinned : 0, hi = pinned >= 0 ? pinned + 1 : n;
    for (long id = lo; id < hi; id++) {
      ii_indexing x;
      ii_error err;
      ii_ctx_reset(r->ctx); /* the previous block is printed: drop its results (memory stays bounded) */
      ii_status st = index_query(r, in, o2i, id, &x, &err);
      if (st != II_OK) {
        index_report_error(r, in, &err);
        if (r->pinned) continue; /* the one block asked for: the error says it all */
      }
      block(r, in, o2i, id, st, &x, &err);
      index_flush(r, false);
    }
  }
}

void index_each_grouped(index_run *r, const hlo_instr *in, index_grouped_fn fn) {
  long n = (long)ii_num_outputs(in), lo = r->o->output >= 0 ? r->o->output : 0;
  long hi = r->o->output >= 0 ? r->o->output + 1 : n;
  for (long id = lo; id < hi && id < n; id++) {
    ii_grouped g;
    ii_error err;
    ii_ctx_reset(r->ctx);
    ii_status st = ii_o2i_grouped(r->ctx, in, id, &g, &err);
    if (st != II_OK) index_report_error(r, in, &err);
    fn(r, in, id, st, &g, &err);
    index_flush(r, false);
  }
}

/* ---- which instructions -------------------------------------------------------------------------- */

static const hlo_instr *find_instr(const hlo_module *m, const char *name) {
  const hlo_instr *in = hlo_computation_find_instr(m->entry, name);
  for (int i = 0; !in && i < m->n_computations; i++) in = hlo_computation_find_instr(m->computations[i], name);
  return in;
}

static bool selected(const hlo_instr *in) {
  if (in->op == HLO_OP_FUSION) return true;
  if (in->n_operands == 0) return false;
  return in->op != HLO_OP_TUPLE && in->op != HLO_OP_GET_TUPLE_ELEMENT && in->op != HLO_OP_PARAMETER;
}

/* Marks the computations reachable from ENTRY through calls other than
 * calls= of a fusion and to_apply= (iteratively: call chains can be long). */
static void reachable(const hlo_module *m, bool *walk) {
  int n = m->n_computations;
  const hlo_computation **stack = xcalloc((size_t)n + 1, sizeof *stack);
  int sp = 0;
  if (m->entry) {
    walk[m->entry->index] = true;
    stack[sp++] = m->entry;
  }
  while (sp) {
    const hlo_computation *c = stack[--sp];
    for (int i = 0; i < c->n_instrs; i++) {
      const hlo_instr *in = c->instrs[i];
      for (int k = 0; k < in->n_called; k++) {
        hlo_call_role role = in->called_role[k];
        if (role == HLO_CALL_TO_APPLY || (in->op == HLO_OP_FUSION && role == HLO_CALL_CALLS)) continue;
        const hlo_computation *t = in->called[k];
        if (t->module != m || walk[t->index]) continue;
        walk[t->index] = true;
        stack[sp++] = t;
      }
    }
  }
  free(stack);
}

static void analyze_all(index_run *r, const hlo_module *m) {
  bool *walk = xcalloc((size_t)m->n_computations + 1, sizeof *walk);
  reachable(m, walk);
  for (int i = 0; i < m->n_computations; i++) {
    const hlo_computation *c = m->computations[i];
    if (!walk[i]) continue;
    bool begun = false;
    for (int j = 0; j < c->n_instrs; j++) {
      const hlo_instr *in = c->instrs[j];
      if (!selected(in) || (r->o->grouped && in->op != HLO_OP_FUSION)) continue;
      if (!begun) {
        if (r->rep->computation_begin) r->rep->computation_begin(r, c);
        begun = true;
      }
      ii_ctx_reset(r->ctx);
      r->rep->instr(r, in);
      index_flush(r, false);
    }
  }
  free(walk);
}

static void analyze(index_run *r, const hlo_module *m) {
  r->module = m;
  if (r->rep->module_begin) r->rep->module_begin(r);
  if (r->o->all) {
    analyze_all(r, m);
  } else {
    const hlo_computation *comp = r->o->computation ? hlo_module_find_computation(m, r->o->computation) : NULL;
    const hlo_instr *in = comp ? ii_computation_instr(r->ctx, comp)
                          : r->o->instr ? find_instr(m, r->o->instr)
                          : r->o->computation ? NULL
                                              : m->entry->root;
    if (!in) {
      index_flush(r, true);
      fflush(stdout);
      fprintf(stderr, "%s: error: no %s named '%s' in module '%s'\n", r->src->name,
              r->o->computation ? "computation" : "instruction", r->o->computation ? r->o->computation : r->o->instr,
              m->name);
      r->rc = 1;
    } else {
      ii_ctx_reset(r->ctx);
      r->rep->instr(r, in);
    }
  }
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

/* Modules are analysed as the parser hands them over, then freed. */
static int each_module(hlo_module *m, void *arg) {
  analyze(arg, m);
  hlo_module_free(m);
  return 0;
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
  if (st) {
    index_flush(r, true);
    fflush(stdout);
    diag_error(&src, perr.offset, perr.message);
    r->rc = 1;
  }
  r->src = NULL;
  source_free(&src);
}

int cmd_index(const hloidx_options *o) {
  if (o->output >= 0 && o->direction == DIR_IN2OUT) return usage("--output applies to --direction=out2in or both");
  if (o->operand >= 0 && o->direction == DIR_OUT2IN) return usage("--operand applies to --direction=in2out or both");
  if (o->summary && o->verify) return usage("--summary and --verify are exclusive");
  if ((o->summary || o->verify) && o->format != FMT_TEXT)
    return usage("--summary and --verify print text reports (--format=json and --format=mlir print maps)");
  if (o->summary && (o->direction == DIR_IN2OUT || o->operand >= 0))
    return usage("--summary describes the out2in reads of each operand (no --direction=in2out or --operand)");
  if (o->grouped && (o->summary || o->verify || o->physical != PHYS_NONE || o->direction != DIR_BOTH ||
                     o->operand >= 0))
    return usage("--grouped prints logical out2in maps (no --summary, --verify, --physical, --direction or --operand)");


  index_run r;
  memset(&r, 0, sizeof r);
  r.o = o;
  r.ctx = ii_ctx_new();
  ii_ctx_set_xla_compat(r.ctx, o->xla_compat);
  /* a debugging switch: analyse every fusion again instead of reusing the
   * result of a structurally equal one (the output must not change) */
  const char *nc = getenv("HLOIDX_NO_FUSION_CACHE");
  if (nc && *nc && strcmp(nc, "0") != 0) ii_ctx_set_fusion_cache(r.ctx, false);
  r.rep = o->summary  ? &index_report_summary
          : o->verify ? &index_report_verify
          : o->format == FMT_JSON ? &index_report_json
                                  : &index_report_text;
  r.pinned = !o->all && ((o->direction == DIR_OUT2IN && o->output >= 0) ||
                         (o->direction == DIR_IN2OUT && o->operand >= 0));
  if (r.rep->begin) r.rep->begin(&r);
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int f = 0; f < nfiles; f++) run_file(&r, o->nfiles ? o->files[f] : "-", nfiles > 1);
  if (r.rep->end) r.rep->end(&r);
  index_flush(&r, true);
  sb_free(&r.out);
  ii_ctx_free(r.ctx);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("hloidx: error: cannot write the output\n", stderr);
    return 3;
  }
  return r.rc;
}
