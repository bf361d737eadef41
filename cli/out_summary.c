/* --summary: one line per operand of each analysed instruction, from its
 * out2in maps (analysis/access_summary.h has the definitions):
 *
 *     NAME operand K (OPERAND): CLASS; utilization U (D of E elements);
 *       amplification A (R reads); [COALESCING; ]exact | estimate: WHY
 *
 * (one line). U = D/E and A = R/D are printed with up to 4 significant
 * digits, "n/a" for an empty operand or one never read. COALESCING appears
 * under --physical / --physical=tiled: `coalesced`, `not coalesced (stride
 * S)`, `not coalesced (same element)`, `not coalesced (irregular)`, `not
 * coalesced (maps differ)` or `coalescing n/a`. Unknown maps print
 * `unknown (unknown indexing)`. The reads of all outputs of a multi-output
 * instruction are counted together (--output N: that output only);
 * --operand K keeps operand K's line, --skip-unknown drops the lines of
 * operands whose maps are all unknown.
 * Headers and errors as in the text output (cmd_index.c): an instruction
 * whose analysis fails prints `NAME: not analyzed: WHY` under --all. */
#include <stdio.h>
#include <stdlib.h>

#include "access_summary.h"
#include "index_run.h"
#include "../parser/base/oom.h"

static void put_count(hb_strbuf *b, as_count v) {
  char tmp[48];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  while (n) hb_sb_putc(b, tmp[--n]);
}

static void put_ratio(hb_strbuf *b, as_count num, as_count den) {
  if (den == 0) {
    hb_sb_puts(b, "n/a");
    return;
  }
  hb_sb_printf(b, "%.4Lg", (long double)num / (long double)den);
}

/* Whether the operand's maps (over all outputs) are all unknown. */
static bool all_unknown(const ii_set *const *sets, int nsets) {
  bool any = false;
  for (int i = 0; i < nsets; i++)
    for (uint32_t j = 0; j < sets[i]->n; j++) {
      if (!sets[i]->items[j]->map->undefined) return false;
      any = true;
    }
  return any;
}

static void instr(index_run *r, const hlo_instr *in) {
  hb_strbuf *b = &r->out;
  const hloidx_options *o = r->o;
  if (index_entry_missing(r, in, true)) return; /* --operand=K beyond IN's operands */
  index_open_computation(r);
  if (in->n_operands == 0) {
    hb_sb_printf(b, "%s: no operands\n", in->name);
    return;
  }
  int64_t nout = ii_num_outputs(in), first = o->output >= 0 ? o->output : 0;
  if (r->several_instrs && o->output >= nout) return; /* --output=N: instructions that have output N */
  int nsets = o->output >= 0 ? 1 : (int)nout;
  bool phys = o->physical != PHYS_NONE;
  ii_indexing *logical = hb_calloc((size_t)nsets + 1, sizeof *logical);
  ii_indexing *physical = hb_calloc((size_t)nsets + 1, sizeof *physical);
  const ii_set **ls = hb_calloc((size_t)nsets + 1, sizeof *ls), **ps = hb_calloc((size_t)nsets + 1, sizeof *ps);
  for (int i = 0; i < nsets; i++) {
    ii_error err;
    ii_status st = ii_o2i(r->ctx, in, first + i, &logical[i], &err);
    if (st == II_OK && phys) st = index_query(r, in, true, (long)(first + i), &physical[i], &err);
    if (st != II_OK) {
      if (!index_report_error(r, in, &err) && !o->skip_unknown)
        hb_sb_printf(b, "%s: not analyzed: %s\n", in->name, err.message);
      goto done;
    }
  }
  long lo, hi;
  index_entry_range(r, in, true, in->n_operands, &lo, &hi);
  for (int k = (int)lo; k < (int)hi; k++) {
    for (int i = 0; i < nsets; i++) {
      ls[i] = &logical[i].sets[k];
      ps[i] = &physical[i].sets[k];
    }
    as_summary s;
    as_summarize(r->ctx, in, (uint32_t)k, first, ls, nsets, &s);
    if (o->skip_unknown && all_unknown(ls, nsets)) continue;
    hb_sb_printf(b, "%s operand %d (%s): %s", in->name, k, in->operands[k]->name, as_class_name(s.cls));
    if (!s.counted) {
      hb_sb_printf(b, " (%s)\n", s.why);
      continue;
    }
    hb_sb_puts(b, "; utilization ");
    put_ratio(b, s.distinct, s.elements);
    hb_sb_puts(b, " (");
    put_count(b, s.distinct);
    hb_sb_puts(b, " of ");
    put_count(b, s.elements);
    hb_sb_puts(b, " elements); amplification ");
    put_ratio(b, s.reads, s.distinct);
    hb_sb_puts(b, " (");
    put_count(b, s.reads);
    hb_sb_puts(b, " reads)");
    if (phys) {
      as_coalescing c;
      as_coalescing_of(r->ctx, in, (uint32_t)k, ps, nsets, o->physical == PHYS_TILED, &c);
      switch (c.kind) {
      case AS_COAL_NA: hb_sb_puts(b, "; coalescing n/a"); break;
      case AS_COAL_YES: hb_sb_puts(b, "; coalesced"); break;
      case AS_COAL_STRIDE:
        if (c.stride == 0) hb_sb_puts(b, "; not coalesced (same element)");
        else hb_sb_printf(b, "; not coalesced (stride %lld)", (long long)c.stride);
        break;
      case AS_COAL_IRREGULAR: hb_sb_puts(b, "; not coalesced (irregular)"); break;
      case AS_COAL_MIXED: hb_sb_puts(b, "; not coalesced (maps differ)"); break;
      }
    }
    if (s.exact) hb_sb_puts(b, "; exact\n");
    else hb_sb_printf(b, "; estimate: %s\n", s.why);
  }
done:
  free(logical);
  free(physical);
  free(ls);
  free(ps);
}

const index_report index_report_summary = {NULL, index_module_header, index_computation_header, instr, NULL, NULL};
