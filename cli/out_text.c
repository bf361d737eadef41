/* The maps as text (default), as MLIR attributes (--format=mlir), or as
 * FileCheck lines (--format=filecheck: the text, turned into directives as
 * it is written, out_filecheck.c).
 *
 * Each block is XLA's HloInstructionIndexing::ToString text in the
 * multi-line layout: an entry line, then every map of that entry indented
 * by two spaces (several maps of one entry in their single-line texts'
 * natural order). With --format=mlir each map line is instead XLA's MLIR
 * attribute `#xla.indexing_map<"<single-line map>">` (out_mlir.c).
 *
 * When the options pin down XLA's single block (--direction=out2in
 * --output=N without --operand, or --direction=in2out --operand=N without
 * --output, on one instruction) that block is all that is printed, with
 * XLA's `operand id = K` entry lines: removing all whitespace gives XLA's
 * text. Otherwise each block starts with a header, whose first line up to
 * the ')' is the block's key:
 *
 *     # NAME (out2in, output N)
 *     # NAME (in2out, input operand K)
 *
 * with ", physical" (--physical) or ", tiled" (--physical=tiled) before
 * the ')', then `: NOTE` where there is something to say: `no operands`,
 * `operand(s) K, ... not read by this output` (entries without any map,
 * runs of three or more as `FIRST-LAST`; they get no context line and no
 * entry line, XLA's single block prints their entry line and nothing
 * after it), `output(s) N, ... not reached from this operand`, `not
 * analyzed: WHY` (a failed block when several instructions are analysed,
 * with `unknown indexing` for each entry; with one, a failed block prints
 * nothing). Context lines follow, each starting with "#   ":
 *
 *     #   OPCODE SHAPE in COMPUTATION, FILE:LINE      (a long tuple shape
 *                                                     ends in "... N more";
 *                                                     ", line LINE" with
 *                                                     --no-file-names; FILE's
 *                                                     folders a pattern in
 *                                                     FileCheck lines)
 *     #   operand K: NAME SHAPE      out2in: every operand read; in2out: operand K
 *     #   output N: SHAPE            tuple-shaped results: out2in: output N;
 *                                    in2out: every output reached
 *     #   hlo: TEXT                  --show-hlo: the instruction's line
 *
 * Entry lines are `operand id = K` in out2in blocks and `output id = N` in
 * in2out blocks (XLA writes `operand id` for both). --operand in an out2in
 * block and --output in an in2out block keep that entry only. An
 * instruction without operands prints `# NAME (in2out): no operands`, one
 * without outputs (an empty tuple) `# NAME (out2in): no outputs`, each
 * with its context.
 *
 * With --grouped each output of a fusion gets `# NAME (grouped, output N)`
 * with an out2in block's context and, per instruction inside that it
 * reads, `group INSTR` (`, element E`: an element of a tuple-shaped one)
 * and the maps into it. Module and computation headers: cmd_index.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index_run.h"
#include "json_str.h"
#include "../parser/base/oom.h"
#include "out_mlir.h"

/* A shape as written, with its layout. A tuple whose text would be longer
 * than TUPLE_WIDTH shows its first elements and how many more there are
 * ("(s32[], f32[8]{0}, ... 57 more)"): a while or a multi-output fusion has
 * a block per output, and the whole tuple in each would make the context
 * quadratic in the outputs. */
#define TUPLE_WIDTH 120

static void put_array(hb_strbuf *b, const hlo_shape *s) {
  char tmp[256];
  size_t need = hlo_shape_format(s, tmp, sizeof tmp);
  if (need < sizeof tmp) {
    hb_sb_putn(b, tmp, need);
    return;
  }
  hb_sb_reserve(b, need);
  hlo_shape_format(s, b->data + b->len, need + 1);
  b->len += need;
}

static void put_shape(hb_strbuf *b, const hlo_shape *s) {
  if (s->type != HLO_TUPLE) {
    put_array(b, s);
    return;
  }
  size_t start = b->len;
  hb_sb_putc(b, '(');
  for (int i = 0; i < s->n_elems; i++) {
    size_t at = b->len;
    if (i) hb_sb_puts(b, ", ");
    put_shape(b, s->elems[i]);
    if (b->len - start > TUPLE_WIDTH && i + 1 < s->n_elems) {
      b->len = at;
      hb_sb_printf(b, "%s... %d more", i ? ", " : "", s->n_elems - i);
      break;
    }
  }
  hb_sb_putc(b, ')');
}

/* Shape texts of the current module, formatted once per shape (a block's
 * context names the same operands and result again and again). */
typedef struct {
  const hlo_shape **key;
  uint32_t *off, *len;
  size_t cap, n;
  hb_strbuf text;
} shape_texts;

static size_t slot_of(const shape_texts *t, const hlo_shape *s) {
  size_t i = (size_t)(((uintptr_t)s >> 4) * 0x9E3779B97F4A7C15ull) & (t->cap - 1);
  while (t->key[i] && t->key[i] != s) i = (i + 1) & (t->cap - 1);
  return i;
}

static void grow(shape_texts *t) {
  shape_texts old = *t;
  t->cap = old.cap ? old.cap * 2 : 256;
  t->key = hb_calloc(t->cap, sizeof *t->key);
  t->off = hb_malloc(t->cap * sizeof *t->off);
  t->len = hb_malloc(t->cap * sizeof *t->len);
  for (size_t i = 0; i < old.cap; i++)
    if (old.key[i]) {
      size_t j = slot_of(t, old.key[i]);
      t->key[j] = old.key[i];
      t->off[j] = old.off[i];
      t->len[j] = old.len[i];
    }
  free(old.key);
  free(old.off);
  free(old.len);
}

static void put_cached_shape(index_run *r, const hlo_shape *s) {
  shape_texts *t = r->state;
  if ((t->n + 1) * 2 > t->cap) grow(t);
  size_t i = slot_of(t, s);
  if (!t->key[i] && t->text.len < UINT32_MAX / 2) {
    size_t at = t->text.len;
    put_shape(&t->text, s);
    t->key[i] = s;
    t->off[i] = (uint32_t)at;
    t->len[i] = (uint32_t)(t->text.len - at);
    t->n++;
  }
  if (t->key[i]) hb_sb_putn(&r->out, t->text.data + t->off[i], t->len[i]);
  else put_shape(&r->out, s);
}

static void put_operand(index_run *r, const hlo_instr *in, long k) {
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "#   operand ");
  hb_sb_put_i64(b, k);
  hb_sb_puts(b, ": ");
  hb_sb_puts(b, in->operands[k]->name);
  hb_sb_putc(b, ' ');
  put_cached_shape(r, in->operands[k]->shape);
  hb_sb_putc(b, '\n');
}

static void put_output(index_run *r, const hlo_instr *in, long n) {
  hb_sb_puts(&r->out, "#   output ");
  hb_sb_put_i64(&r->out, n);
  hb_sb_puts(&r->out, ": ");
  put_cached_shape(r, in->shape->elems[n]);
  hb_sb_putc(&r->out, '\n');
}

/* The context lines of a block (ID < 0: a block without entries): the
 * operands (out2in) or outputs (in2out) of the entries shown. */
static void context(index_run *r, const hlo_instr *in, bool o2i, long id, const ii_indexing *x) {
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "#   ");
  hb_sb_puts(b, hlo_instr_opcode_text(in));
  hb_sb_putc(b, ' ');
  put_cached_shape(r, in->shape);
  hb_sb_puts(b, " in ");
  hb_sb_puts(b, in->parent->name);
  if (r->o->no_file_names) {
    hb_sb_puts(b, ", line "); /* the line without the path */
  } else {
    hb_sb_puts(b, ", ");
    if (r->o->format == FMT_FILECHECK) {
      /* lit runs a test from its own path: the folders become a pattern
       * (FILECHECK_ANY, written out by out_filecheck.c) */
      const char *base = strrchr(r->src->name, '/');
      hb_sb_putc(b, FILECHECK_ANY);
      hb_sb_puts(b, base ? base + 1 : r->src->name);
    } else {
      hb_sb_puts(b, r->src->name);
    }
    hb_sb_putc(b, ':');
  }
  hb_sb_put_u64(b, source_line(r->src, in->offset));
  hb_sb_putc(b, '\n');
  bool tuple = in->shape->type == HLO_TUPLE;
  if (id >= 0 && o2i) {
    if (tuple) put_output(r, in, id);
    long lo, hi;
    index_entry_range(r, in, true, in->n_operands, &lo, &hi);
    for (long k = index_next_shown(x, lo, hi); k < hi; k = index_next_shown(x, k + 1, hi)) {
      put_operand(r, in, k);
      index_flush_block(r); /* (a block in parts is handed: the lines of 100,000 operands go out as written) */
    }
  } else if (id >= 0) {
    put_operand(r, in, id);
    long lo, hi;
    index_entry_range(r, in, false, tuple ? in->shape->n_elems : 1, &lo, &hi);
    for (long n = index_next_shown(x, lo, hi); tuple && n < hi; n = index_next_shown(x, n + 1, hi)) put_output(r, in, n);
  }
  if (r->o->show_hlo) {
    const char *text;
    size_t len;
    source_line_text(r->src, in->offset, &text, &len);
    while (len && (*text == ' ' || *text == '\t')) text++, len--;
    hb_sb_puts(b, "#   hlo: ");
    put_printable(b, text, len, false); /* (the line as written, kept printable UTF-8) */
    hb_sb_putc(b, '\n');
  }
}

/* `# NAME (KIND, ...)TAIL[MSG]` and the context lines; KIND: out2in,
 * in2out, or grouped (an out2in block's context). X: the block's entries
 * (NULL: all shown). */
static void header_of(index_run *r, const hlo_instr *in, const char *kind, bool o2i, long id, const char *tail,
                      const char *msg, const ii_indexing *x) {
  if (r->pinned) return;
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "# ");
  hb_sb_puts(b, in->name);
  hb_sb_puts(b, " (");
  hb_sb_puts(b, kind);
  if (id >= 0) {
    hb_sb_puts(b, o2i ? ", output " : ", input operand ");
    hb_sb_put_i64(b, id);
  }
  if (r->o->physical == PHYS_MAJOR) hb_sb_puts(b, ", physical");
  if (r->o->physical == PHYS_TILED) hb_sb_puts(b, ", tiled");
  hb_sb_putc(b, ')');
  hb_sb_puts(b, tail);
  if (msg) hb_sb_puts(b, msg);
  hb_sb_putc(b, '\n');
  context(r, in, o2i, id, x);
}

static void header(index_run *r, const hlo_instr *in, bool o2i, long id, const char *tail, const char *msg,
                   const ii_indexing *x) {
  header_of(r, in, o2i ? "out2in" : "in2out", o2i, id, tail, msg, x);
}

static void none(index_run *r, const hlo_instr *in, bool o2i) {
  header(r, in, o2i, -1, o2i ? ": no outputs" : ": no operands", NULL, NULL);
}

/* An entry line: XLA's `operand id = K` in its own single block and in
 * out2in blocks, `output id = N` in in2out blocks under a header. */
static void entry_line(index_run *r, bool o2i, long k) {
  hb_sb_puts(&r->out, o2i || r->pinned ? "operand id = " : "output id = ");
  hb_sb_put_i64(&r->out, k);
  hb_sb_putc(&r->out, '\n');
}

static void block(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st, const ii_indexing *x,
                  const ii_error *err) {
  hb_strbuf *b = &r->out;
  long lo, hi;
  if (st != II_OK) {
    header(r, in, o2i, id, ": not analyzed: ", err->message, NULL);
    index_entry_range(r, in, o2i, index_entries(in, o2i), &lo, &hi);
    for (long k = lo; k < hi; k++) {
      entry_line(r, o2i, k);
      hb_sb_puts(b, "  unknown indexing\n");
    }
    return;
  }
  index_entry_range(r, in, o2i, (long)x->n, &lo, &hi);
  /* Entries without any map (an output of a tuple or of a multi-output
   * fusion that does not read an operand): XLA's single block prints its
   * entry line with nothing after it; under a header the header names them
   * and they are left out, context line and entry line (a tuple of N
   * operands would otherwise print N * N of them). A block in parts reads
   * every operand: the first part's header lists them all. */
  if (r->part == INDEX_FIRST) header(r, in, o2i, id, "", NULL, NULL);
  if (r->part == INDEX_WHOLE) {
    hb_strbuf ids = HB_STRBUF_INIT, tail = HB_STRBUF_INIT;
    long nempty = index_put_not_shown(&ids, x, lo, hi);
    if (o2i && in->n_operands == 0) {
      hb_sb_puts(&tail, ": no operands");
    } else if (nempty) {
      hb_sb_puts(&tail, o2i ? (nempty > 1 ? ": operands " : ": operand ") : (nempty > 1 ? ": outputs " : ": output "));
      hb_sb_puts(&tail, hb_sb_str(&ids));
      hb_sb_puts(&tail, o2i ? " not read by this output" : " not reached from this operand");
    }
    header(r, in, o2i, id, hb_sb_str(&tail), NULL, x);
    hb_sb_free(&ids);
    hb_sb_free(&tail);
  }
  static const map_print_opts inner = {true, 2};
  for (long k = r->pinned ? lo : index_next_shown(x, lo, hi); k < hi; k = r->pinned ? k + 1 : index_next_shown(x, k + 1, hi)) {
    entry_line(r, o2i, k);
    const ii_set *s = ii_entry(x, (uint32_t)k);
    const uint32_t *order = ii_set_print_order(r->ctx, s);
    for (uint32_t i = 0; i < s->n; i++) {
      if (r->o->format == FMT_MLIR) mlir_print_operand(b, s->items[order[i]], 2);
      else ii_print_operand(b, s->items[order[i]], &inner);
    }
    /* a block of thousands of entries (a concatenate's) goes out as it is
     * written: a block being written is handed, nothing drops it */
    index_flush(r, false);
  }
}

/* --grouped: `# NAME (grouped, output N)` with an out2in block's context,
 * then per instruction reached `group INSTR` (`, element E` for an element
 * of a tuple) and its maps. */
static void grouped(index_run *r, const hlo_instr *in, long id, ii_status st, const ii_grouped *g,
                    const ii_error *err) {
  hb_strbuf *b = &r->out;
  header_of(r, in, "grouped", true, id, st == II_OK ? "" : ": not analyzed: ", st == II_OK ? NULL : err->message,
            NULL);
  if (st != II_OK) return;
  static const map_print_opts inner = {true, 2};
  for (uint32_t i = 0; i < g->n; i++) {
    const ii_group *gr = &g->groups[i];
    hb_sb_puts(b, "group ");
    hb_sb_puts(b, gr->instr->name);
    if (gr->elem >= 0) {
      hb_sb_puts(b, ", element ");
      hb_sb_put_i64(b, gr->elem);
    }
    hb_sb_putc(b, '\n');
    const uint32_t *order = ii_set_print_order(r->ctx, &gr->set);
    for (uint32_t k = 0; k < gr->set.n; k++) {
      if (r->o->format == FMT_MLIR) mlir_print_operand(b, gr->set.items[order[k]], 2);
      else ii_print_operand(b, gr->set.items[order[k]], &inner);
    }
  }
}

static void instr(index_run *r, const hlo_instr *in) {
  if (r->o->grouped) index_each_grouped(r, in, grouped);
  else index_each_block_parts(r, in, block, none);
}

static void begin(index_run *r) { r->state = hb_calloc(1, sizeof(shape_texts)); }

/* The module's shapes are freed with it: forget their texts. */
static void module_end(index_run *r) {
  shape_texts *t = r->state;
  if (t->cap) memset(t->key, 0, t->cap * sizeof *t->key);
  t->n = 0;
  hb_sb_reset(&t->text);
}

static void end(index_run *r) {
  shape_texts *t = r->state;
  free(t->key);
  free(t->off);
  free(t->len);
  hb_sb_free(&t->text);
  free(t);
  r->state = NULL;
}

const index_report index_report_text = {begin, index_module_header, index_computation_header, instr, module_end, end};
