/* --verify: the enumeration check of the maps the same options would print
 * (analysis/verify.h), as a report instead of the maps.
 *
 * One line per block (headers as in the text output, cmd_index.c):
 *
 *     # NAME (out2in, output N): operand 0: ok; operand 1: ok (covers)
 *     # NAME (in2out, input operand K): output 0: ok
 *
 * per entry `ok` with, in parentheses, `covers` (the map over-approximates
 * there, so only coverage is checked), `sampled N of M elements, seed S`
 * (a domain too large to enumerate, checked on N pseudo-random "from"
 * points) and `runtime variables bound` (checked again with the values of
 * each runtime variable read through its description, in VF_WORLDS
 * worlds; `, worlds only` when their union was too large to enumerate);
 * `MISMATCH: WHAT`, `unknown indexing`, `skipped: WHY` (no
 * reference, or a point with too many symbols), or for the whole block
 * `not analyzed: WHY` (several instructions). An entry without maps is
 * checked like the others (the op must read nothing there), but where the
 * rule does not store such entries at all (an output of a tuple reads one
 * operand of thousands) they end the line, not checked, as `operands
 * 0-3, 5 not read by this output` (`outputs ... not reached from this
 * operand`). The run ends with one line:
 *
 *     verify: E entries, O ok (C by coverage, S sampled, B with runtime
 *     variables bound), M mismatches; not checked: U unknown indexing, N
 *     without reference, T too large, A not analyzed
 *
 * Exit status 3 (internal error) when an entry mismatches: hloidx then
 * prints a map that disagrees with the op's definition. */
#include "index_run.h"
#include "../parser/base/oom.h"
#include "verify.h"

typedef struct {
  unsigned long entries, ok, covering, sampled, bound, mismatch, unknown, noref, large, not_analyzed;
} verify_state;

static verify_state *vs(index_run *r) { return r->state; }

static void header(index_run *r, const hlo_instr *in, bool o2i, long id) {
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "# %s (%s", in->name, o2i ? "out2in" : "in2out");
  if (id >= 0) hb_sb_printf(b, o2i ? ", output %ld" : ", input operand %ld", id);
  if (r->o->physical == PHYS_MAJOR) hb_sb_puts(b, ", physical");
  if (r->o->physical == PHYS_TILED) hb_sb_puts(b, ", tiled");
  hb_sb_putc(b, ')');
}

static void none(index_run *r, const hlo_instr *in, bool o2i) {
  header(r, in, o2i, -1);
  hb_sb_puts(&r->out, o2i ? ": no outputs\n" : ": no operands\n");
}

static void block(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st, const ii_indexing *x,
                  const ii_error *err) {
  verify_state *v = vs(r);
  hb_strbuf *b = &r->out;
  /* (a block in parts, index_each_block_parts: one line across them) */
  bool opening = r->part == INDEX_WHOLE || r->part == INDEX_FIRST;
  if (opening) header(r, in, o2i, id);
  if (st != II_OK) {
    hb_sb_printf(b, ": not analyzed: %s\n", err->message);
    v->not_analyzed++;
    return;
  }
  if (opening && x->n == 0) hb_sb_puts(b, ": no operands");
  static const vf_layout layout[] = {[PHYS_NONE] = VF_LOGICAL, [PHYS_MAJOR] = VF_PHYSICAL, [PHYS_TILED] = VF_TILED};
  long lo, hi;
  index_entry_range(r, in, o2i, (long)x->n, &lo, &hi);
  /* Every entry is checked, an empty one too (the op must read nothing
   * there), but those a rule does not store (an output of a tuple of
   * thousands reads one operand): they are named at the end. */
  bool sparse = x->ids != NULL, first = opening;
  for (uint32_t k = sparse ? ii_next_entry(x, (uint32_t)lo) : (uint32_t)lo; k < (uint32_t)hi;
       k = sparse ? ii_next_entry(x, k + 1) : k + 1) {
    vf_result res;
    if (o2i) vf_check_o2i(r->ctx, in, id, k, ii_entry(x, k), layout[r->o->physical], r->o->verify_seed, &res);
    else vf_check_i2o(r->ctx, in, id, k, ii_entry(x, k), layout[r->o->physical], r->o->verify_seed, &res);
    hb_sb_printf(b, "%s%s %u: ", first ? ": " : "; ", o2i ? "operand" : "output", k);
    first = false;
    v->entries++;
    switch (res.status) {
    case VF_OK: {
      v->ok++;
      v->covering += res.covering;
      v->sampled += res.sampled;
      v->bound += res.worlds > 0;
      const char *sep = " (";
      hb_sb_puts(b, "ok");
      if (res.covering) hb_sb_printf(b, "%scovers", sep), sep = ", ";
      if (res.sampled)
        hb_sb_printf(b, "%ssampled %llu of %llu elements, seed %llu", sep, (unsigned long long)res.samples,
                  (unsigned long long)res.population, (unsigned long long)res.seed), sep = ", ";
      if (res.worlds)
        hb_sb_printf(b, "%sruntime variables bound%s", sep, res.worlds_only ? ", worlds only" : ""), sep = ", ";
      if (sep[0] == ',') hb_sb_putc(b, ')');
      break;
    }
    case VF_MISMATCH:
      v->mismatch++;
      hb_sb_printf(b, "MISMATCH: %s", res.message);
      break;
    case VF_SKIP_UNKNOWN:
      v->unknown++;
      hb_sb_puts(b, "unknown indexing");
      break;
    case VF_SKIP_TOO_LARGE:
      v->large++;
      hb_sb_printf(b, "skipped: %s", res.message);
      break;
    case VF_SKIP_NO_REFERENCE:
      v->noref++;
      hb_sb_printf(b, "skipped: %s", res.message);
      break;
    }
    index_flush_block(r);
  }
  if (sparse && r->part == INDEX_WHOLE) {
    hb_strbuf ids = HB_STRBUF_INIT;
    long n = index_put_not_shown(&ids, x, lo, hi);
    if (n)
      hb_sb_printf(b, "%s%s %s %s", first ? ": " : "; ", o2i ? (n > 1 ? "operands" : "operand") : (n > 1 ? "outputs" : "output"),
                hb_sb_str(&ids), o2i ? "not read by this output" : "not reached from this operand");
    hb_sb_free(&ids);
  }
  if (r->part == INDEX_WHOLE || r->part == INDEX_LAST) hb_sb_putc(b, '\n');
}

static void begin(index_run *r) { r->state = hb_calloc(1, sizeof(verify_state)); }

static void instr(index_run *r, const hlo_instr *in) {
  verify_state before = *vs(r);
  /* an instruction that failed prints nothing: its blocks are not counted */
  if (!index_each_block_parts(r, in, block, none)) *vs(r) = before;
}

static void end(index_run *r) {
  verify_state *v = vs(r);
  hb_sb_printf(&r->out,
            "verify: %lu entries, %lu ok (%lu by coverage, %lu sampled, %lu with runtime variables bound), %lu "
            "mismatches; not checked: %lu unknown indexing, %lu without reference, %lu too large, %lu not analyzed\n",
            v->entries, v->ok, v->covering, v->sampled, v->bound, v->mismatch, v->unknown, v->noref, v->large,
            v->not_analyzed);
  if (v->mismatch) r->rc = 3;
  free(v);
  r->state = NULL;
}

const index_report index_report_verify = {begin, index_module_header, index_computation_header, instr, NULL, end};
