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
#include "../parser/base/oom.h"
#include "output.h"
#include "select.h"
#include "source.h"
#include "../parser/base/strbuf.h"

typedef struct {
  const hloidx_options *o;
  source_file *src;
  const hlo_module *module;
  hb_strbuf out;
  int rc;
} list_run;

static void flush(list_run *r) {
  output_write(r->out.data, r->out.len);
  hb_sb_reset(&r->out);
}

static void on_instr(void *arg, const hlo_instr *in) {
  list_run *r = arg;
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "%s\t%s\t", in->name, hlo_instr_opcode_text(in));
  size_t need = hlo_shape_format(in->shape, NULL, 0);
  hb_sb_reserve(b, need + 1);
  hlo_shape_format(in->shape, b->data + b->len, need + 1);
  b->len += need;
  hb_sb_printf(b, "\t%s\t%s:%zu\n", in->parent->name, r->src->name, source_line(r->src, in->offset));
  if (b->len >= (1u << 16)) flush(r);
}

static void on_missing(void *arg, const char *name) {
  list_run *r = arg;
  flush(r);
  output_sync();
  char msg[HLO_ERROR_MESSAGE_MAX + 64];
  snprintf(msg, sizeof msg, "no instruction named '%s' in module '%s'", name, r->module->name);
  diag_file_error(r->src->name, msg);
  r->rc = 1;
}

static int each_module(hlo_module *m, void *arg) {
  list_run *r = arg;
  static const select_visitor visit = {NULL, on_instr, on_missing};
  diag_module_warnings(r->src, m);
  source_release(r->src, m->end, false);
  r->module = m;
  select_each(r->o, m, true, SELECT_EVERY, &visit, r);
  source_release(r->src, m->end, true);
  r->module = NULL;
  hlo_module_free(m);
  return output_failed() ? 2 : 0; /* a write error stops the parse */
}

int cmd_list(const hloidx_options *o) {
  list_run r = {.o = o};
  int nfiles = o->nfiles ? o->nfiles : 1;
  for (int f = 0; f < nfiles && !output_failed(); f++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[f] : "-", &src)) {
      r.rc = 1;
      continue;
    }
    r.src = &src;
    hlo_error err;
    if (hlo_parse_file_each(src.data, src.len, each_module, &r, &err) == 1) {
      flush(&r);
      output_sync();
      diag_parse_error(&src, &err);
      r.rc = 1;
    }
    r.src = NULL;
    source_free(&src);
  }
  flush(&r);
  hb_sb_free(&r.out);
  return r.rc;
}
