/* --symbolic-tile on HLO input: the symbolic tile (analysis/symbolic_tile.h)
 * of each out2in map of the instructions the selection picks (select.h:
 * the ENTRY root, --instr, --match, --opcode, --all; every output or
 * --output; every operand or --operand).
 *
 * With --output and --operand on one instruction (the conformance kit's
 * contract, symbolic-tiles.md §6) only the tile of that block is printed,
 * from the first map of the operand in print order when it has several;
 * exit status 2 and `no symbolic tile (WHY)` when XLA derives none.
 * Otherwise each tile is preceded by a header line
 *
 *     # NAME (output N, operand K)            (`, map I of M` with several maps)
 *
 * and followed by the tile's text or `no symbolic tile (WHY)`; the exit
 * status is not changed by an operand without a tile. The operands an
 * output does not read have no map: one line before the output's tiles,
 * `# NAME (output N): operands 0-3, 5 not read by this output` (runs of
 * three or more as FIRST-LAST; with the pinned form: an error). */
#include <stdio.h>
#include <string.h>

#include "../parser/base/arena.h"
#include "index_run.h"
#include "symbolic_tile.h"

static void header(index_run *r, const hlo_instr *in, long out, long k, uint32_t i, uint32_t n, const char *tail) {
  if (r->pinned) return;
  index_open_computation(r);
  hb_sb_printf(&r->out, "# %s (output %ld, operand %ld", in->name, out, k);
  if (n > 1) hb_sb_printf(&r->out, ", map %u of %u", i + 1, n);
  hb_sb_printf(&r->out, ")%s\n", tail);
}

/* An error at IN (index_report_error); true when it stops the instruction. */
static bool fail(index_run *r, const hlo_instr *in, const char *msg) {
  ii_error e = {in, ""};
  size_t n = strlen(msg) < sizeof e.message ? strlen(msg) : sizeof e.message - 1;
  memcpy(e.message, msg, n);
  e.message[n] = '\0';
  return index_report_error(r, in, &e);
}

/* One map's tile; false when an error stops the instruction. */
/* A tile's own memory (its constraints, the printing's): reset per tile,
 * so that thousands of operands cost one tile's, not all of theirs. */
static hb_arena *each;

static bool tile_of(index_run *r, const hlo_instr *in, long out, long k, const imap *m, uint32_t i, uint32_t n) {
  if (!each) each = hb_arena_new();
  hb_arena_reset(each);
  hb_arena *a = each;
  st_tile t;
  char why[400];
  st_status st = st_derive(a, m, r->o->xla_compat, &t, why, sizeof why);
  size_t mark = r->out.len;
  header(r, in, out, k, i, n, "");
  if (st == ST_OK && !st_print(&r->out, a, &t)) {
    st = ST_TOO_LARGE;
    snprintf(why, sizeof why, "its constraints exceed %d conjunctions even factor by factor", ST_MAX_DNF);
  }
  if (st == ST_TOO_LARGE) {
    r->out.len = mark;
    if (r->out.data) r->out.data[mark] = '\0';
    char msg[480];
    snprintf(msg, sizeof msg, "symbolic tile of %s too large: %s", in->name, why);
    if (fail(r, in, msg)) return false;
    header(r, in, out, k, i, n, ": not analyzed: too large");
    return true;
  }
  if (st == ST_NONE) {
    hb_sb_printf(&r->out, "no symbolic tile (%s)\n", why);
    if (r->pinned && r->rc == 0) r->rc = 2;
  }
  return true;
}

/* Output OUT's tiles of IN in parts (index_each_block_parts says why):
 * false when its first part fails (then asked for whole, and failing
 * alike), or when an error stops the instruction (*stop). */
static bool tiles_in_parts(index_run *r, const hlo_instr *in, long out, bool *stop) {
  uint32_t n = (uint32_t)in->n_operands, hi;
  for (uint32_t lo = 0; lo < n && !*stop; lo = hi) {
    ii_indexing x;
    if (!index_part(r, in, out, lo, &hi, &x)) return false;
    for (uint32_t k = lo; k < hi && !*stop; k++) {
      const ii_set *s = ii_entry(&x, k);
      const uint32_t *order = ii_set_print_order(r->ctx, s);
      for (uint32_t i = 0; i < s->n && !*stop; i++) *stop = !tile_of(r, in, out, k, s->items[order[i]]->map, i, s->n);
      r->instr_handed = true;
      index_flush_block(r);
    }
    ii_ctx_block_end(r->ctx);
  }
  return true;
}

static void instr(index_run *r, const hlo_instr *in) {
  const hloidx_options *o = r->o;
  long nout = (long)ii_num_outputs(in);
  if ((o->output >= nout || o->operand >= in->n_operands) && r->several_instrs) return; /* only those that have them */
  if (o->output >= nout || o->operand >= in->n_operands) {
    char msg[200];
    if (o->output >= nout) snprintf(msg, sizeof msg, "%s has %ld output(s); there is no output %ld", in->name, nout, o->output);
    else snprintf(msg, sizeof msg, "%s has %d operand(s); there is no operand %ld", in->name, in->n_operands, o->operand);
    fail(r, in, msg);
    return;
  }
  long out_lo = o->output >= 0 ? o->output : 0, out_hi = o->output >= 0 ? o->output + 1 : nout;
  bool parts = index_in_parts(r, in);
  for (long out = out_lo; out < out_hi; out++) {
    bool stop = false;
    if (parts && tiles_in_parts(r, in, out, &stop)) {
      if (stop) return;
      continue;
    }
    ii_ctx_reset(r->ctx);
    ii_indexing x;
    ii_error err;
    if (ii_o2i(r->ctx, in, out, &x, &err) != II_OK) {
      if (index_report_error(r, in, &err)) return;
      index_open_computation(r);
      hb_sb_printf(&r->out, "# %s (output %ld): not analyzed: %s\n", in->name, out, err.message);
      continue;
    }
    long k_lo = o->operand >= 0 ? o->operand : 0, k_hi = o->operand >= 0 ? o->operand + 1 : (long)x.n;
    if (r->pinned && ii_entry(&x, (uint32_t)k_lo)->n == 0) {
      char msg[200];
      snprintf(msg, sizeof msg, "operand %ld of %s is not read by output %ld: it has no map", k_lo, in->name, out);
      fail(r, in, msg);
      return;
    }
    /* the operands this output does not read: one line (a tuple's output
     * reads one operand of thousands) */
    hb_strbuf ids = HB_STRBUF_INIT;
    long nread = index_put_not_shown(&ids, &x, k_lo, k_hi);
    if (nread && !r->pinned) {
      index_open_computation(r);
      hb_sb_printf(&r->out, "# %s (output %ld): %s %s not read by this output\n", in->name, out,
                nread > 1 ? "operands" : "operand", hb_sb_str(&ids));
    }
    hb_sb_free(&ids);
    for (long k = index_next_shown(&x, k_lo, k_hi); k < k_hi; k = index_next_shown(&x, k + 1, k_hi)) {
      const ii_set *s = ii_entry(&x, (uint32_t)k);
      const uint32_t *order = ii_set_print_order(r->ctx, s);
      uint32_t n = r->pinned ? 1 : s->n;
      for (uint32_t i = 0; i < n; i++)
        if (!tile_of(r, in, out, k, s->items[order[i]]->map, i, n)) return;
      /* written tiles go out as they come (the text mode's blocks do too):
       * a tuple of 100,000 would otherwise hold all of its text */
      r->instr_handed = true;
      index_flush_block(r);
    }
  }
}

static void begin(index_run *r) { r->pinned = !r->several_instrs && r->o->output >= 0 && r->o->operand >= 0; }

static void end(index_run *r) {
  (void)r;
  hb_arena_free(each);
  each = NULL;
}

const index_report index_report_symtile = {begin, index_module_header, index_computation_header, instr, NULL, end};
