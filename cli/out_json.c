/* --format=json: one JSON document for the whole run (every file and
 * module), written as it goes. The schema (README, "JSON output"):
 *
 * {"format": "hloidx-indexing", "version": 1,
 *  "layout": "logical" | "physical" | "tiled",
 *  "modules": [{"name", "file" (null with --no-file-names), "instructions": [
 *    {"computation", "name", "opcode", "shape",
 *     "out2in": [{"output": N, "error": null | MESSAGE,
 *                 "operands": [{"operand": K, "name": OPERAND, "maps": [MAP...]}]}],
 *     "in2out": [{"operand": K, "error": null | MESSAGE,
 *                 "outputs": [{"output": N, "maps": [MAP...]}]}]}]}]}
 * (with --grouped, instead of out2in and in2out:
 *     "grouped": [{"output": N, "error": null | MESSAGE,
 *                  "groups": [{"name": INSTR, "element": E | null, "maps": [MAP...]}]}])
 *
 * MAP: {"text": XLA's single-line text ("unknown indexing" when unknown),
 *       "unknown": bool, "known_empty": bool, ["reason": WHY, on an unknown map
 *       whose reason hloidx knows (not under --xla-compat)],
 *       "dims" / "range_vars" / "runtime_vars": [{"name": "d0", "interval": [LO, HI]}],
 *       "results": [EXPR...], "constraints": ["EXPR in [LO, HI]"...] (sorted, as printed),
 *       "descriptions": [{"name": "rt0", "instr": "parameter(1)", "instr_name": NAME, "map": MAP}],
 *       "replica_id": MAP | null}
 * (maps nested in descriptions and replica_id have empty descriptions and
 * a null replica_id). The maps of an entry are in the text output's order
 * (their single-line texts in natural order, map_text_order). An entry whose analysis failed
 * (--all) has "error" set and one unknown map per entry. Strings are
 * escaped by json_str (always valid JSON and UTF-8).
 *
 * After the modules, "errors": [{"file", "line", "col", "message"}] lists
 * every error the run reported on stderr, in order (line and col are null
 * for an error without a position, such as a file that cannot be read);
 * the modules that were analysed are listed whatever failed elsewhere. An
 * instruction whose analysis failed with an error (not under --all, or
 * with --fatal-warnings) is not listed; its error is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_run.h"
#include "json_doc.h"
#include "json_str.h"
#include "map_print.h"
#include "../parser/base/oom.h"

typedef struct {
  json_doc doc;
  bool first_instr, first_block;
  int open_dir; /* -1: none, 0: out2in, 1: in2out */
  hb_strbuf tmp;
  bool first_entry; /* the current block has no entry yet (a block in parts spans calls) */
} json_state;

static json_state *st(index_run *r) { return r->state; }

/* The start of an element of one of the document's arrays (modules,
 * instructions, blocks): a comma unless it is the array's first element,
 * then OPEN (newline, indentation, the element's opening). */
static void begin_element(hb_strbuf *b, bool *first, const char *open) {
  if (!*first) hb_sb_putc(b, ',');
  *first = false;
  hb_sb_puts(b, open);
}

/* `, "KEY": "VALUE"` (VALUE escaped by json_cstr). */
static void put_str_field(hb_strbuf *b, const char *key, const char *value) {
  hb_sb_printf(b, ", \"%s\": ", key);
  json_cstr(b, value);
}

static void put_var(hb_strbuf *b, const char *prefix, uint32_t i, interval iv, bool first) {
  if (!first) hb_sb_puts(b, ", ");
  hb_sb_printf(b, "{\"name\": \"%s%u\", \"interval\": ", prefix, i);
  map_print_interval(b, iv);
  hb_sb_putc(b, '}');
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void put_map(index_run *r, const imap *m, const ii_operand *member);

static void put_text(index_run *r, const imap *m) {
  static const map_print_opts one_line = {false, 0};
  hb_strbuf *t = &st(r)->tmp;
  hb_sb_reset(t);
  if (m->undefined) hb_sb_puts(t, "unknown indexing");
  else map_print(t, m, &one_line);
  json_str(&r->out, hb_sb_str(t), t->len);
}

/* The map's fields; with MEMBER, its descriptions and replica-id map. */
static void put_map(index_run *r, const imap *m, const ii_operand *member) {
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "{\"text\": ");
  put_text(r, m);
  hb_sb_printf(b, ", \"unknown\": %s, \"known_empty\": %s", m->undefined ? "true" : "false",
            !m->undefined && m->known_empty ? "true" : "false");
  if (m->undefined && member && member->why) put_str_field(b, "reason", member->why);
  bool def = !m->undefined;
  hb_sb_puts(b, ", \"dims\": [");
  for (uint32_t i = 0; def && i < m->ndims; i++) put_var(b, "d", i, m->dim_iv[i], i == 0);
  hb_sb_puts(b, "], \"range_vars\": [");
  for (uint32_t i = 0; def && i < m->nrange; i++) put_var(b, "s", i, m->sym_iv[i], i == 0);
  hb_sb_puts(b, "], \"runtime_vars\": [");
  for (uint32_t i = 0; def && i < m->nrt; i++) put_var(b, "rt", i, m->sym_iv[m->nrange + i], i == 0);
  hb_sb_puts(b, "], \"results\": [");
  hb_strbuf *t = &st(r)->tmp;
  for (uint32_t i = 0; def && i < m->nresults; i++) {
    if (i) hb_sb_puts(b, ", ");
    hb_sb_reset(t);
    map_print_expr(t, m->results[i], m->nrange);
    json_str(b, hb_sb_str(t), t->len);
  }
  hb_sb_puts(b, "], \"constraints\": [");
  if (def && !m->known_empty && m->ncons) {
    char **c = hb_malloc(m->ncons * sizeof *c);
    for (uint32_t i = 0; i < m->ncons; i++) {
      hb_sb_reset(t);
      map_print_constraint(t, m->cons[i].expr, m->cons[i].iv, m->nrange);
      c[i] = hb_malloc(t->len + 1);
      memcpy(c[i], hb_sb_str(t), t->len + 1);
    }
    qsort(c, m->ncons, sizeof *c, cmp_str);
    for (uint32_t i = 0; i < m->ncons; i++) {
      if (i) hb_sb_puts(b, ", ");
      json_cstr(b, c[i]);
      free(c[i]);
    }
    free(c);
  }
  hb_sb_puts(b, "], \"descriptions\": [");
  uint32_t nrt = member && def ? member->nrt : 0;
  for (uint32_t j = 0; j < nrt; j++) {
    if (j) hb_sb_puts(b, ", ");
    hb_sb_printf(b, "{\"name\": \"rt%u\", \"instr\": ", j);
    hb_sb_reset(t);
    ii_rt_text(t, member->rt[j].instr);
    json_str(b, hb_sb_str(t), t->len);
    put_str_field(b, "instr_name", member->rt[j].instr->name);
    hb_sb_puts(b, ", \"map\": ");
    put_map(r, member->rt[j].map, NULL);
    hb_sb_putc(b, '}');
  }
  hb_sb_puts(b, "], \"replica_id\": ");
  if (member && def && member->replica) put_map(r, member->replica, NULL);
  else hb_sb_puts(b, "null");
  hb_sb_putc(b, '}');
}

/* Layout: one line per module, instruction, block, entry and map, with
 * closing brackets at the end of the last line of what they close. */
static void open_dir(index_run *r, int dir) {
  json_state *s = st(r);
  hb_strbuf *b = &r->out;
  while (s->open_dir < dir) {
    if (s->open_dir >= 0) hb_sb_putc(b, ']');
    s->open_dir++;
    hb_sb_puts(b, s->open_dir == 0 ? ",\n     \"out2in\": [" : ",\n     \"in2out\": [");
    s->first_block = true;
  }
}

static void none(index_run *r, const hlo_instr *in, bool o2i) {
  (void)in;
  open_dir(r, o2i ? 0 : 1);
}

static void block(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status status, const ii_indexing *x,
                  const ii_error *err) {
  json_state *s = st(r);
  hb_strbuf *b = &r->out;
  if (r->part == INDEX_WHOLE || r->part == INDEX_FIRST) { /* (a block in parts: its first part opens it) */
    open_dir(r, o2i ? 0 : 1);
    begin_element(b, &s->first_block, "\n      {");
    hb_sb_printf(b, "\"%s\": %ld, \"error\": ", o2i ? "output" : "operand", id);
    if (status != II_OK) json_cstr(b, err->message);
    else hb_sb_puts(b, "null");
    hb_sb_printf(b, ", \"%s\": [", o2i ? "operands" : "outputs");
    s->first_entry = true;
  }
  long lo, hi;
  index_entry_range(r, in, o2i, status == II_OK ? (long)x->n : index_entries(in, o2i), &lo, &hi);
  imap *unknown = status == II_OK ? NULL : imap_new_undefined(ii_ctx_arena(r->ctx), ii_ctx_ae(r->ctx));
  bool *first = &s->first_entry;
  /* an entry without maps (an operand this output does not read, an output
   * this operand does not reach) is left out */
  for (long k = unknown ? lo : (long)ii_next_entry(x, (uint32_t)lo); k < hi;
       k = unknown ? k + 1 : (long)ii_next_entry(x, (uint32_t)k + 1)) {
    hb_sb_puts(b, *first ? "\n        {" : ",\n        {");
    *first = false;
    hb_sb_printf(b, "\"%s\": %ld", o2i ? "operand" : "output", k);
    if (o2i && k < in->n_operands) put_str_field(b, "name", in->operands[k]->name);
    hb_sb_puts(b, ", \"maps\": [");
    if (unknown) {
      hb_sb_puts(b, "\n          ");
      put_map(r, unknown, NULL);
    } else {
      const ii_set *set = ii_entry(x, (uint32_t)k);
      const uint32_t *order = ii_set_print_order(r->ctx, set);
      for (uint32_t i = 0; i < set->n; i++) {
        hb_sb_puts(b, i ? ",\n          " : "\n          ");
        const ii_operand *m = set->items[order[i]];
        put_map(r, m->map, m);
      }
    }
    hb_sb_puts(b, "]}");
    index_flush(r, false); /* (a block being written is handed: nothing drops it) */
  }
  if (r->part == INDEX_WHOLE || r->part == INDEX_LAST) hb_sb_puts(b, "]}");
}

/* --grouped: {"output": N, "error": ..., "groups": [{"name", "element": E | null, "maps": [...]}]} */
static void grouped(index_run *r, const hlo_instr *in, long id, ii_status status, const ii_grouped *g,
                    const ii_error *err) {
  (void)in;
  json_state *s = st(r);
  hb_strbuf *b = &r->out;
  begin_element(b, &s->first_block, "\n      {");
  hb_sb_printf(b, "\"output\": %ld, \"error\": ", id);
  if (status != II_OK) json_cstr(b, err->message);
  else hb_sb_puts(b, "null");
  hb_sb_puts(b, ", \"groups\": [");
  for (uint32_t i = 0; status == II_OK && i < g->n; i++) {
    const ii_group *gr = &g->groups[i];
    hb_sb_puts(b, i ? ",\n        {\"name\": " : "\n        {\"name\": ");
    json_cstr(b, gr->instr->name);
    if (gr->elem >= 0) hb_sb_printf(b, ", \"element\": %lld", (long long)gr->elem);
    else hb_sb_puts(b, ", \"element\": null");
    hb_sb_puts(b, ", \"maps\": [");
    const uint32_t *order = ii_set_print_order(r->ctx, &gr->set);
    for (uint32_t k = 0; k < gr->set.n; k++) {
      hb_sb_puts(b, k ? ",\n          " : "\n          ");
      const ii_operand *m = gr->set.items[order[k]];
      put_map(r, m->map, m);
    }
    hb_sb_puts(b, "]}");
  }
  hb_sb_puts(b, "]}");
}

static void begin(index_run *r) {
  json_state *s = hb_calloc(1, sizeof *s);
  r->state = s;
  static const char *const layout[] = {[PHYS_NONE] = "logical", [PHYS_MAJOR] = "physical", [PHYS_TILED] = "tiled"};
  char head[96];
  snprintf(head, sizeof head, "\"format\": \"hloidx-indexing\", \"version\": 1, \"layout\": \"%s\"",
           layout[r->o->physical]);
  json_doc_begin(&s->doc, &r->out, head);
}

static void module_begin(index_run *r) {
  json_state *s = st(r);
  json_doc_module(&s->doc, &r->out, r->module->name, r->o->no_file_names ? NULL : r->src->name, "instructions");
  s->first_instr = true;
}

static void instr(index_run *r, const hlo_instr *in) {
  json_state *s = st(r);
  hb_strbuf *b = &r->out;
  bool was_first = s->first_instr;
  begin_element(b, &s->first_instr, "\n    {\"computation\": ");
  json_cstr(b, in->parent->name);
  put_str_field(b, "name", in->name);
  put_str_field(b, "opcode", hlo_instr_opcode_text(in));
  hb_sb_puts(b, ", \"shape\": ");
  size_t need = hlo_shape_format(in->shape, NULL, 0);
  char *shape = hb_malloc(need + 1);
  hlo_shape_format(in->shape, shape, need + 1);
  json_str(b, shape, need);
  free(shape);
  if (r->o->grouped) {
    hb_sb_puts(b, ",\n     \"grouped\": [");
    s->first_block = true;
    if (index_each_grouped(r, in, grouped)) hb_sb_puts(b, "]}");
    else s->first_instr = was_first; /* the walk drops what this instruction wrote */
    return;
  }
  s->open_dir = -1;
  if (!index_each_block_parts(r, in, block, none)) {
    s->first_instr = was_first; /* the walk drops what this instruction wrote */
    return;
  }
  open_dir(r, 1);
  hb_sb_puts(b, "]}");
}

static void module_end(index_run *r) { json_doc_module_end(&r->out); }

static void end(index_run *r) {
  json_state *s = st(r);
  json_doc_end(&s->doc, &r->out);
  hb_sb_free(&s->tmp);
  free(s);
  r->state = NULL;
}

const index_report index_report_json = {begin, module_begin, NULL, instr, module_end, end};
