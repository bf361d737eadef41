/* The maps as text (default) or as MLIR attributes (--format=mlir).
 *
 * Each block is XLA's HloInstructionIndexing::ToString text in the
 * multi-line layout: `operand id = N` on its own line, then every map of
 * that entry indented by two spaces (several maps of one entry sorted by
 * their single-line text). Removing all whitespace gives XLA's text. With
 * --format=mlir each map line is instead XLA's MLIR attribute
 * `#xla.indexing_map<"<single-line map>">` (out_mlir.c).
 *
 * When the options pin down exactly one block (--direction=out2in
 * --output=N, or --direction=in2out --operand=N, without --all) that block
 * is all that is printed. Otherwise each block is preceded by one header
 * line:
 *
 *     # NAME (out2in, output N)
 *     # NAME (in2out, operand N)
 *
 * with ", physical" (--physical) or ", tiled" (--physical=tiled) before
 * the ')'. An instruction without operands prints
 * `# NAME (out2in, output N): no operands` and `# NAME (in2out): no
 * operands`, one without outputs (an empty tuple) `# NAME (out2in): no
 * outputs`; a block with entries that hold no map (an output of a
 * multi-output fusion that does not read an operand; XLA prints nothing
 * after `operand id = K`) says `: operand(s) K, ... not read by this
 * output` in its header. Under --all a block whose analysis failed prints
 * `# NAME (out2in, output N): not analyzed: MESSAGE` and `unknown
 * indexing` for each entry. With --grouped each output of a fusion gets
 * `# NAME (grouped, output N)` and, per instruction inside that it reads,
 * `group INSTR` and the maps into it. Module and computation headers:
 * cmd_index.c. */
#include "index_run.h"
#include "out_mlir.h"

static void header(index_run *r, const hlo_instr *in, const char *dir, const char *what, long id, const char *tail,
                   const char *msg) {
  if (r->pinned) return;
  strbuf *b = &r->out;
  sb_puts(b, "# ");
  sb_puts(b, in->name);
  sb_puts(b, " (");
  sb_puts(b, dir);
  if (what) {
    sb_puts(b, ", ");
    sb_puts(b, what);
    sb_putc(b, ' ');
    sb_put_i64(b, id);
  }
  if (r->o->physical == PHYS_MAJOR) sb_puts(b, ", physical");
  if (r->o->physical == PHYS_TILED) sb_puts(b, ", tiled");
  sb_putc(b, ')');
  sb_puts(b, tail);
  if (msg) sb_puts(b, msg);
  sb_putc(b, '\n');
}

static void none(index_run *r, const hlo_instr *in, bool o2i) {
  header(r, in, o2i ? "out2in" : "in2out", NULL, 0, o2i ? ": no outputs" : ": no operands", NULL);
}

static void block(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st, const ii_indexing *x,
                  const ii_error *err) {
  const char *dir = o2i ? "out2in" : "in2out", *what = o2i ? "output" : "operand";
  strbuf *b = &r->out;
  if (st != II_OK) {
    header(r, in, dir, what, id, ": not analyzed: ", err->message);
    long n = index_entries(in, o2i);
    for (long k = 0; k < n; k++) {
      sb_puts(b, "operand id = ");
      sb_put_i64(b, k);
      sb_puts(b, "\n  unknown indexing\n");
    }
    return;
  }
  /* entries without any map (an output of a multi-output fusion that does
   * not read an operand): XLA prints nothing after `operand id = K`, the
   * header says so */
  uint32_t nempty = 0;
  for (uint32_t k = 0; k < x->n; k++) nempty += x->sets[k].n == 0;
  strbuf tail = STRBUF_INIT;
  if (o2i && in->n_operands == 0) {
    sb_puts(&tail, ": no operands");
  } else if (nempty) {
    sb_puts(&tail, o2i ? (nempty > 1 ? ": operands " : ": operand ") : (nempty > 1 ? ": outputs " : ": output "));
    for (uint32_t k = 0, i = 0; k < x->n; k++)
      if (x->sets[k].n == 0) {
        if (i++) sb_puts(&tail, ", ");
        sb_put_u64(&tail, k);
      }
    sb_puts(&tail, o2i ? " not read by this output" : " not reached from this operand");
  }
  header(r, in, dir, what, id, sb_str(&tail), NULL);
  sb_free(&tail);
  if (r->o->format == FMT_MLIR) {
    for (uint32_t k = 0; k < x->n; k++) {
      sb_puts(b, "operand id = ");
      sb_put_u64(b, k);
      sb_putc(b, '\n');
      const ii_set *s = &x->sets[k];
      const uint32_t *order = ii_set_print_order(r->ctx, s);
      for (uint32_t i = 0; i < s->n; i++) mlir_print_operand(b, s->items[order[i]], 2);
    }
    return;
  }
  map_print_opts po = {true, 0};
  ii_print_indexing(r->ctx, b, x, &po);
}

static void module_begin(index_run *r) {
  if (r->several) sb_printf(&r->out, "## module %s (%s)\n", r->module->name, r->src->name);
}

static void computation_begin(index_run *r, const hlo_computation *c) {
  sb_printf(&r->out, "## computation %s\n", c->name);
}

/* --grouped: `# NAME (grouped, output N)`, then per instruction reached
 * `group INSTR` (`, element E` for an element of a tuple) and its maps. */
static void grouped(index_run *r, const hlo_instr *in, long id, ii_status st, const ii_grouped *g,
                    const ii_error *err) {
  strbuf *b = &r->out;
  header(r, in, "grouped", "output", id, st == II_OK ? "" : ": not analyzed: ", st == II_OK ? NULL : err->message);
  if (st != II_OK) return;
  map_print_opts po = {true, 2};
  for (uint32_t i = 0; i < g->n; i++) {
    const ii_group *gr = &g->groups[i];
    sb_printf(b, "group %s", gr->instr->name);
    if (gr->elem >= 0) sb_printf(b, ", element %lld", (long long)gr->elem);
    sb_putc(b, '\n');
    const uint32_t *order = ii_set_print_order(r->ctx, &gr->set);
    for (uint32_t k = 0; k < gr->set.n; k++) {
      if (r->o->format == FMT_MLIR) mlir_print_operand(b, gr->set.items[order[k]], 2);
      else ii_print_operand(b, gr->set.items[order[k]], &po);
    }
  }
}

static void instr(index_run *r, const hlo_instr *in) {
  if (r->o->grouped) index_each_grouped(r, in, grouped);
  else index_each_block(r, in, block, none);
}

const index_report index_report_text = {NULL, module_begin, computation_begin, instr, NULL, NULL};
