/* --list: one line per instruction, fields separated by tabs:
 *
 *     NAME  OPCODE  SHAPE  COMPUTATION  FILE:LINE
 *
 * (opcode as written, shape with its layout). Every instruction of every
 * computation in textual order, fused computations included; --instr,
 * --match and --opcode pick some (select.h); with --all, those the default
 * mode's --all analyses. No header line: the output is meant for cut,
 * grep and awk. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "hlo_ir.h"
#include "oom.h"
#include "select.h"
#include "source.h"
#include "strbuf.h"

typedef struct {
  const hloidx_options *o;
  const source_file *src;
  const hlo_module *module;
  strbuf out;
  int rc;
} list_run;

static void flush(list_run *r) {
  fwrite(r->out.data ? r->out.data : "", 1, r->out.len, stdout);
  sb_reset(&r->out);
}

static void on_instr(void *arg, const hlo_instr *in) {
  list_run *r = arg;
  strbuf *b = &r->out;
  sb_printf(b, "%s\t%s\t", in->name, in->opcode_text);
  size_t need = hlo_shape_format(in->shape, NULL, 0);
  sb_reserve(b, need + 1);
  hlo_shape_format(in->shape, b->data + b->len, need + 1);
  b->len += need;
  sb_printf(b, "\t%s\t%s:%zu\n", in->parent->name, r->src->name, source_line(r->src, in->offset));
  if (b->len >= (1u << 16)) flush(r);
}

static void on_missing(void *arg, const char *name) {
  list_run *r = arg;
  flush(r);
  fflush(stdout);
  fprintf(stderr, "%s: error: no instruction named '%s' in module '%s'\n", r->src->name, name, r->module->name);
  r->rc = 1;
}

static int each_module(hlo_module *m, void *arg) {
  list_run *r = arg;
  static const select_visitor visit = {NULL, on_instr, on_missing};
  r->module = m;
  select_each(r->o, m, true, SELECT_EVERY, &visit, r);
  r->module = NULL;
  hlo_module_free(m);
  return 0;
}

int cmd_list(const hloidx_options *o) {
  list_run r = {.o = o};
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int f = 0; f < nfiles; f++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[f] : "-", &src)) {
      r.rc = 1;
      continue;
    }
    r.src = &src;
    hlo_error err;
    if (hlo_parse_file_each(src.data, src.len, each_module, &r, &err)) {
      flush(&r);
      fflush(stdout);
      diag_error(&src, err.offset, err.message);
      r.rc = 1;
    }
    r.src = NULL;
    source_free(&src);
  }
  flush(&r);
  sb_free(&r.out);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("hloidx: error: cannot write the output\n", stderr);
    return 3;
  }
  return r.rc;
}
