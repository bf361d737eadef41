/* Default mode: the indexing maps of one instruction per module (the ROOT of
 * the ENTRY computation, or --instr), in XLA's text (analysis/instr_indexing.h).
 *
 * Output. Each block is XLA's HloInstructionIndexing::ToString text in the
 * multi-line layout: `operand id = N` on its own line, then every map of
 * that entry indented by two spaces (several maps of one entry sorted by
 * their single-line text). Removing all whitespace gives XLA's text.
 *
 * When the options pin down exactly one block (--direction=out2in
 * --output=N, or --direction=in2out --operand=N) that block is all that is
 * printed. Otherwise each block is preceded by one header line:
 *
 *     # NAME (out2in, output N)
 *     # NAME (in2out, operand N)
 *
 * with ", physical" before the ')' under --physical. An instruction without
 * operands prints `# NAME (out2in, output N): no operands` and
 * `# NAME (in2out): no operands` and nothing else. When a run covers
 * several modules (a file with `// -----` separators, or several files),
 * each module starts with `## module NAME (FILE)`.
 *
 * Errors: input errors and analysis errors are reported as
 * FILE:LINE:COL: error: ... at the instruction concerned (exit 1); the run
 * goes on with the next module or file. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "hlo_ir.h"
#include "instr_indexing.h"
#include "source.h"
#include "strbuf.h"

static int usage(const char *msg) {
  fprintf(stderr, "hloidx: error: %s\nTry 'hloidx --help' for more information.\n", msg);
  return 2;
}

typedef struct {
  const hloidx_options *o;
  ii_ctx *ctx;
  strbuf out;
  bool pinned;
  bool several;
  int rc;
} run;

static void flush(run *r) {
  fwrite(r->out.data ? r->out.data : "", 1, r->out.len, stdout);
  sb_reset(&r->out);
}

static const hlo_instr *find_instr(const hlo_module *m, const char *name) {
  if (!hlo_module_intern_find(m, name, strlen(name))) return NULL;
  const hlo_instr *in = hlo_computation_find_instr(m->entry, name);
  for (int i = 0; !in && i < m->n_computations; i++) in = hlo_computation_find_instr(m->computations[i], name);
  return in;
}

static void report(run *r, const source_file *src, const hlo_instr *at, const ii_error *err) {
  flush(r);
  fflush(stdout);
  diag_error(src, (err->instr ? err->instr : at)->offset, err->message);
  r->rc = 1;
}

static void header(run *r, const hlo_instr *in, const char *dir, const char *what, long id, const char *tail) {
  if (r->pinned) return;
  sb_printf(&r->out, "# %s (%s", in->name, dir);
  if (what) sb_printf(&r->out, ", %s %ld", what, id);
  if (r->o->physical == PHYS_MAJOR) sb_puts(&r->out, ", physical");
  sb_printf(&r->out, ")%s\n", tail);
}

/* One block; false after an error. */
static bool block(run *r, const source_file *src, const hlo_instr *in, bool o2i, long id) {
  ii_indexing x;
  ii_error err;
  ii_ctx_reset(r->ctx); /* the previous block is printed: drop its results (memory stays bounded) */
  bool phys = r->o->physical == PHYS_MAJOR;
  ii_status st = o2i ? (phys ? ii_o2i_physical : ii_o2i)(r->ctx, in, id, &x, &err)
                     : (phys ? ii_i2o_physical : ii_i2o)(r->ctx, in, id, &x, &err);
  if (st != II_OK) {
    report(r, src, in, &err);
    return false;
  }
  header(r, in, o2i ? "out2in" : "in2out", o2i ? "output" : "operand", id,
         o2i && in->n_operands == 0 ? ": no operands" : "");
  map_print_opts po = {true, 0};
  ii_print_indexing(r->ctx, &r->out, &x, &po);
  flush(r);
  return true;
}

static void analyze(run *r, const source_file *src, const hlo_module *m) {
  const hloidx_options *o = r->o;
  if (r->several) {
    sb_printf(&r->out, "## module %s (%s)\n", m->name, src->name);
    flush(r);
  }
  const hlo_instr *in;
  if (o->instr) {
    in = find_instr(m, o->instr);
    if (!in) {
      fflush(stdout);
      fprintf(stderr, "%s: error: no instruction named '%s' in module '%s'\n", src->name, o->instr, m->name);
      r->rc = 1;
      return;
    }
  } else {
    in = m->entry->root;
  }
  ii_ctx_reset(r->ctx);
  if (o->direction != DIR_IN2OUT) {
    int64_t nout = ii_num_outputs(in);
    if (o->output >= 0) {
      if (!block(r, src, in, true, o->output)) return;
    } else if (nout == 0) {
      header(r, in, "out2in", NULL, 0, ": no outputs");
    } else {
      for (int64_t k = 0; k < nout; k++)
        if (!block(r, src, in, true, (long)k)) return;
    }
  }
  if (o->direction != DIR_OUT2IN) {
    if (o->operand >= 0) {
      block(r, src, in, false, o->operand);
    } else if (in->n_operands == 0) {
      header(r, in, "in2out", NULL, 0, ": no operands");
    } else {
      for (int k = 0; k < in->n_operands; k++)
        if (!block(r, src, in, false, k)) return;
    }
  }
  flush(r);
}

int cmd_index(const hloidx_options *o) {
  if (o->all) return usage("--all is not supported yet");
  if (o->format != FMT_TEXT) return usage("--format=json and --format=mlir are not supported yet");
  if (o->summary) return usage("--summary is not supported yet");
  if (o->verify) return usage("--verify is not supported yet");
  if (o->physical == PHYS_TILED) return usage("--physical=tiled is not supported yet (use --physical)");
  if (o->output >= 0 && o->direction == DIR_IN2OUT) return usage("--output applies to --direction=out2in or both");
  if (o->operand >= 0 && o->direction == DIR_OUT2IN) return usage("--operand applies to --direction=in2out or both");

  run r = {o, ii_ctx_new(), STRBUF_INIT, false, false, 0};
  r.pinned = (o->direction == DIR_OUT2IN && o->output >= 0) || (o->direction == DIR_IN2OUT && o->operand >= 0);
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int f = 0; f < nfiles; f++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[f] : "-", &src)) {
      r.rc = 1;
      continue;
    }
    hlo_parse_result pr;
    hlo_error perr;
    if (hlo_parse_file(src.data, src.len, &pr, &perr)) {
      fflush(stdout);
      diag_error(&src, perr.offset, perr.message);
      r.rc = 1;
      source_free(&src);
      continue;
    }
    r.several = nfiles > 1 || pr.n_modules > 1;
    for (int i = 0; i < pr.n_modules; i++) analyze(&r, &src, pr.modules[i]);
    ii_ctx_end_module(r.ctx);
    hlo_parse_result_free(&pr);
    source_free(&src);
  }
  sb_free(&r.out);
  ii_ctx_free(r.ctx);
  if (fflush(stdout) != 0) {
    fputs("hloidx: error: cannot write the output\n", stderr);
    return 3;
  }
  return r.rc;
}
