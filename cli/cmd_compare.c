/* hloidx --compare EXPECTED [FILE...]: semantic comparison of indexing maps.
 *
 * Golden mode (EXPECTED is a golden, see golden_read.h): the walk of the
 * default mode runs on FILE with the other options, exactly as if printing
 * (index_walk with the collecting report below), and each of its blocks
 * is matched with the golden's block of the same instruction, direction
 * and output / operand (and module, where both name one; a golden without
 * headers is matched block by block in order). Per block, one line:
 *
 *     NAME (out2in, output 0): equal text
 *     NAME (in2out, input operand 1): equal relation
 *       output 0: equal relation (canonical simplification)
 *     NAME (out2in, output 0): different
 *       operand 1: different: [1, 0] -> [2] in expected only
 *     NAME (out2in, output 1): missing (in expected only)
 *     NAME (in2out, input operand 0): new (not in expected)
 *
 * with one indented line for each entry that is not equal text (the
 * verdicts of analysis/map_relation.h; runtime-variable descriptions are
 * compared too: the producing instruction, in V1 or V2 text, and with one
 * member per entry their maps), and `## module NAME` lines when the run
 * has several modules. Last, a tally. -q prints only the blocks that are
 * not equal as relations. Exit status 0 when every block is equal as a
 * relation (text, canonical or enumerated) and none is missing or new;
 * 1 otherwise (and for input errors).
 *
 * Dump mode (EXPECTED is an HLO dump A, FILE the dump B): the walk runs on
 * both (--all unless --instr names one) and the instructions are matched
 * by name per module (modules by name, or the only module of each). For
 * each instruction that changed, its changes: `NAME: shape S -> S'`,
 * `layout`, `memory space` (per array of a tuple), `padding N -> M bytes`
 * (tiled_layout.h: buffer bytes minus the logical elements' bytes), and
 * its map blocks that are not equal as relations; instructions only in one
 * dump are listed. Last, a tally. Exit 0 when nothing changed; a dump that
 * cannot be read or parsed is reported and nothing is compared (exit 1).
 *
 * Memory. Golden mode holds the golden and one block of the run at a time
 * (each block is compared as soon as the walk has it). Dump mode holds both
 * dumps' modules and a window of one instruction's maps (DUMP_WINDOW
 * blocks of a direction, or a part of an out2in block in parts): it walks
 * them together. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "golden_read.h"
#include "json_str.h"
#include "index_run.h"
#include "map_print.h"
#include "../parser/base/oom.h"
#include "output.h"
#include "select.h"
#include "tiled_layout.h"

/* ---- the current analysis, collected ------------------------------------------------------------ */

typedef struct collector collector;
struct collector {
  cmp_doc *doc;
  const char *module; /* the current module's name (in `names`) */
  hb_arena *names;       /* module names, kept for the whole run */
  /* golden mode: each block is compared as soon as it is collected, then
   * dropped (memory: the golden and one block, not the whole run's maps) */
  void (*stream)(collector *c, const cmp_block *b, int part);
  void *stream_arg;
};

/* Hands the block just collected to the stream, then forgets it. */
static void collected(collector *c, int part) {
  if (!c->stream) return;
  c->stream(c, &c->doc->b[c->doc->n - 1], part);
  cmp_doc_clear(c->doc);
}

static const char *dup_str(cmp_doc *d, const char *s) { return hb_arena_strndup(d->a, s, strlen(s)); }

static mrel_text keep_map(cmp_doc *d, hb_strbuf *t, const imap *m) {
  static const map_print_opts one_line = {false, 0};
  hb_sb_reset(t);
  if (m->undefined) hb_sb_puts(t, "unknown indexing");
  else map_print(t, m, &one_line);
  return (mrel_text){hb_arena_strndup(d->a, hb_sb_str(t), t->len), 0, t->len};
}

static void collect_block(index_run *r, const hlo_instr *in, bool o2i, long id, ii_status st, const ii_indexing *x,
                          const ii_error *err) {
  collector *c = r->state;
  cmp_doc *d = c->doc;
  /* (a block in parts, index_each_block_parts: each part a block of its
   * own entries, compared as it comes) */
  cmp_block *b = cmp_add_block(d);
  b->module = c->module;
  b->instr = dup_str(d, in->name);
  b->o2i = o2i;
  b->id = id;
  b->layout = (int)r->o->physical;
  hb_strbuf t = HB_STRBUF_INIT;
  if (st != II_OK) {
    hb_sb_printf(&t, "not analyzed: %s", err->message);
    b->tail = dup_str(d, hb_sb_str(&t));
    for (long k = 0; k < index_entries(in, o2i); k++)
      cmp_add_member(d, cmp_add_entry(d, b, k))->map = (mrel_text){"unknown indexing", 0, 16};
    hb_sb_free(&t);
    collected(c, r->part);
    return;
  }
  /* entries without maps (not read, not reached): as the text output, none.
   * A map that the entry before printed too (one map shared by the
   * entries of the 10,000 parameters of an elementwise fusion) keeps that
   * text, not a copy of its own. */
  const imap *last = NULL;
  mrel_text last_text = {0};
  for (uint32_t k = ii_next_entry(x, 0); k < x->n; k = ii_next_entry(x, k + 1)) {
    const ii_set *s = ii_entry(x, k);
    cmp_entry *e = cmp_add_entry(d, b, (long)k);
    const uint32_t *order = ii_set_print_order(r->ctx, s);
    for (uint32_t i = 0; i < s->n; i++) {
      const ii_operand *op = s->items[order[i]];
      cmp_member *m = cmp_add_member(d, e);
      if (op->map != last) last_text = keep_map(d, &t, last = op->map);
      m->map = last_text;
      for (uint32_t j = 0; !op->map->undefined && j < op->nrt; j++) {
        cmp_rt *rt = cmp_add_rt(d, m);
        hb_sb_reset(&t);
        ii_rt_text(&t, op->rt[j].instr);
        rt->instr = dup_str(d, hb_sb_str(&t));
        rt->instr_name = dup_str(d, op->rt[j].instr->name);
        rt->map = keep_map(d, &t, op->rt[j].map);
      }
      if (!op->map->undefined && op->replica) {
        m->has_replica = true;
        m->replica = keep_map(d, &t, op->replica);
      }
    }
  }
  hb_sb_free(&t);
  collected(c, r->part);
}

static void collect_none(index_run *r, const hlo_instr *in, bool o2i) {
  collector *c = r->state;
  cmp_block *b = cmp_add_block(c->doc);
  b->module = c->module;
  b->instr = dup_str(c->doc, in->name);
  b->o2i = o2i;
  b->layout = (int)r->o->physical;
  b->tail = o2i ? "no outputs" : "no operands";
  collected(c, INDEX_WHOLE);
}

/* The logical shape (no layouts). */
static void put_logical_shape(hb_strbuf *b, const hlo_shape *s) {
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    hb_sb_puts(b, s->type == HLO_BUFFER ? "b(" : "(");
    for (int i = 0; i < s->n_elems; i++) {
      if (i) hb_sb_puts(b, ", ");
      put_logical_shape(b, s->elems[i]);
    }
    hb_sb_putc(b, ')');
    return;
  }
  hb_sb_puts(b, hlo_elem_type_name(s->type));
  hb_sb_putc(b, '[');
  for (int i = 0; i < s->rank; i++) {
    if (i) hb_sb_putc(b, ',');
    if (s->unbounded && s->unbounded[i]) hb_sb_putc(b, '?');
    else hb_sb_printf(b, "%s%lld", s->dynamic && s->dynamic[i] ? "<=" : "", (long long)s->dims[i]);
  }
  hb_sb_putc(b, ']');
}

/* Per array leaf: its layout without the memory space (LAYOUT), its memory
 * space (SPACE), and the padding bytes added to *PAD (-1 once one fails). */
static void put_layouts(hb_strbuf *lay, hb_strbuf *space, const hlo_shape *s, hb_arena *a, int64_t *pad) {
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    hb_sb_putc(lay, '(');
    hb_sb_putc(space, '(');
    for (int i = 0; i < s->n_elems; i++) {
      if (i) {
        hb_sb_puts(lay, ", ");
        hb_sb_puts(space, ", ");
      }
      put_layouts(lay, space, s->elems[i], a, pad);
    }
    hb_sb_putc(lay, ')');
    hb_sb_putc(space, ')');
    return;
  }
  size_t need = hlo_layout_format(s, NULL, 0);
  char *text = hb_arena_alloc(a, need + 1);
  hlo_layout_format(s, text, need + 1);
  /* the memory space is reported on its own: drop its S(n) */
  char *sp = strstr(text, "S(");
  if (sp) {
    char *close = strchr(sp, ')');
    if (close) memmove(sp, close + 1, strlen(close + 1) + 1);
    size_t n = strlen(text);
    if (n >= 2 && text[n - 2] == ':' && text[n - 1] == '}') memmove(text + n - 2, "}", 2);
  }
  hb_sb_puts(lay, text[0] ? text : "{}");
  hb_sb_printf(space, "S(%lld)", (long long)s->layout.memory_space);
  tl_layout l;
  tl_error err;
  if (*pad >= 0 && hlo_elem_type_is_array(s->type) && s->type != HLO_TOKEN && s->type != HLO_OPAQUE) {
    if (tl_analyze(a, s, &l, &err)) *pad += l.bytes - l.logical_bytes;
    else *pad = -1;
  }
  hb_arena_reset_keep(a); /* (a leaf's text is copied: a tuple of 100,000 leaves holds one leaf's) */
}

static void collect_module(index_run *r) {
  collector *c = r->state;
  if (!c->names) c->names = hb_arena_new();
  c->module = hb_arena_strndup(c->names, r->module->name, strlen(r->module->name));
}

static void collect_instr(index_run *r, const hlo_instr *in) {
  index_each_block_parts(r, in, collect_block, collect_none);
}

static const index_report collect_report = {NULL, collect_module, NULL, collect_instr, NULL, NULL};

/* ---- matching ------------------------------------------------------------------------------------------ */

static bool same_str(const char *a, const char *b) { return a && b && !strcmp(a, b); }

/* Whether modules A and B may be the same: equal names, or one unnamed. */
static bool same_module(const char *a, const char *b) { return !a || !b || !strcmp(a, b); }

/* Golden blocks by (instruction, direction, id): chains through `next`. */
typedef struct block_index {
  size_t *slots; /* block index + 1 of a chain's head; 0 = empty */
  size_t nslots;
  size_t *next;  /* per block: the next block index + 1 with the same key */
  size_t *tail;  /* per slot: the chain's last block index + 1 (keeps file order) */
  size_t plain;  /* the next golden block without a header to match */
} block_index;

static uint64_t key_hash(const cmp_block *b) {
  uint64_t h = 1469598103934665603ULL;
  for (const char *s = b->instr; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  h = (h ^ (uint64_t)b->o2i) * 1099511628211ULL;
  return (h ^ (uint64_t)b->id) * 1099511628211ULL;
}

static bool same_key(const cmp_block *a, const cmp_block *b) {
  return a->o2i == b->o2i && a->id == b->id && !strcmp(a->instr, b->instr);
}

static size_t *slot_of(block_index *x, const cmp_doc *d, const cmp_block *b) {
  size_t mask = x->nslots - 1, i = (size_t)key_hash(b) & mask;
  while (x->slots[i] && !same_key(&d->b[x->slots[i] - 1], b)) i = (i + 1) & mask;
  return &x->slots[i];
}

static void golden_index_build(block_index *x, const cmp_doc *d) {
  x->plain = 0;
  x->nslots = 16;
  while (x->nslots < 2 * d->n + 2) x->nslots *= 2;
  x->slots = hb_calloc(x->nslots, sizeof *x->slots);
  x->tail = hb_calloc(x->nslots, sizeof *x->tail);
  x->next = hb_calloc(d->n + 1, sizeof *x->next);
  for (size_t i = 0; i < d->n; i++) {
    if (!d->b[i].instr) continue;
    size_t *s = slot_of(x, d, &d->b[i]);
    size_t k = (size_t)(s - x->slots);
    if (*s) x->next[x->tail[k] - 1] = i + 1;
    else *s = i + 1;
    x->tail[k] = i + 1;
  }
}

static void golden_index_free(block_index *x) {
  free(x->slots);
  free(x->next);
  free(x->tail);
}

/* The golden block for the current block B, or NULL. */
static cmp_block *find_golden(block_index *x, cmp_doc *g, const cmp_block *b) {
  for (size_t k = *slot_of(x, g, b); k; k = x->next[k - 1]) {
    cmp_block *cand = &g->b[k - 1];
    if (!cand->matched && same_module(cand->module, b->module)) return cand;
  }
  /* a golden without headers: its blocks in order */
  while (x->plain < g->n && (g->b[x->plain].instr || g->b[x->plain].matched)) x->plain++;
  if (x->plain < g->n && same_module(g->b[x->plain].module, b->module)) return &g->b[x->plain];
  return NULL;
}

/* ---- verdicts -------------------------------------------------------------------------------------------- */

enum { V_TEXT, V_RELATION, V_UNDECIDED, V_DIFFERENT, V_MISSING, V_NEW, V_COUNT };
static const char *const verdict_word[V_COUNT] = {"equal text", "equal relation", "undecided", "different",
                                                  "missing", "new"};

typedef struct {
  const hloidx_options *o;
  const char *name[2];          /* the two sides in messages: "expected" / "actual", or the dumps' names */
  const source_file *golden_src; /* for diagnostics on the golden's maps (golden mode) */
  mrel_ctx *rel;
  hb_strbuf line, detail;          /* the block's line and its entry lines */
  int worst;
  size_t tally[V_COUNT];
  int rc;
  const char *printed_module;   /* the last `## module` printed */
  bool name_modules;
  /* golden mode: whether blocks come from several modules is known once a
   * second module shows up; until then the output waits in `held` */
  bool undecided, have_first;
  const char *first_module;
  hb_strbuf held;
  hb_strbuf *divert; /* dump mode: where the lines go while set (an instruction's missing blocks, last) */
  /* the matching of the blocks as they come */
  cmp_doc *golden;
  struct block_index *gx;
  size_t nactual;
  /* the block being compared (in parts: across calls): decided already,
   * the golden's entries by id and how far they are merged */
  bool pdone;
  const cmp_entry **peg;
  uint32_t npeg, pi;
} comparer;

/* The lines go out kept printable UTF-8: a golden's instruction and
 * module names, and its runtime-variable texts in the entries' lines, are
 * any bytes it holds. */
static void put_out(comparer *c, const char *data, size_t len) {
  if (c->undecided || c->divert) {
    put_printable(c->divert ? c->divert : &c->held, data, len, true);
    return;
  }
  hb_strbuf t = HB_STRBUF_INIT;
  put_printable(&t, data, len, true);
  output_write(t.data, t.len);
  hb_sb_free(&t);
}

/* The run has blocks of module M: once it is a second module, every block
 * line (the held ones first) comes under `## module` lines. */
static void seen_module(comparer *c, const char *m) {
  if (!c->undecided) return;
  if (!c->have_first) {
    c->have_first = true;
    c->first_module = m;
    return;
  }
  if (same_str(m, c->first_module) || (!m && !c->first_module)) return;
  c->undecided = false;
  c->name_modules = true;
  if (c->first_module) {
    hb_strbuf t = HB_STRBUF_INIT;
    hb_sb_puts(&t, "## module ");
    put_printable(&t, c->first_module, strlen(c->first_module), false);
    hb_sb_putc(&t, '\n');
    c->printed_module = c->first_module;
    output_write(t.data, t.len);
    hb_sb_free(&t);
  }
  output_write(c->held.data, c->held.len);
  hb_sb_reset(&c->held);
}

/* The end of the run: held output goes out as it is. */
static void decide(comparer *c) {
  if (!c->undecided) return;
  c->undecided = false;
  output_write(c->held.data, c->held.len);
  hb_sb_reset(&c->held);
}

static void worse(comparer *c, int v) {
  if (v > c->worst) c->worst = v;
}

static void entry_line(comparer *c, bool o2i, long id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void entry_line(comparer *c, bool o2i, long id, const char *fmt, ...) {
  hb_sb_printf(&c->detail, "  %s %ld: ", o2i ? "operand" : "output", id);
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  hb_sb_puts(&c->detail, buf);
  hb_sb_putc(&c->detail, '\n');
}

static void put_tuple(hb_strbuf *b, const int64_t *v, uint32_t n) {
  hb_sb_putc(b, '[');
  for (uint32_t i = 0; i < n; i++) hb_sb_printf(b, "%s%lld", i ? ", " : "", (long long)v[i]);
  hb_sb_putc(b, ']');
}

/* The producing instructions of two descriptions are the same: equal texts,
 * or a V1 text (`%NAME = ...`) naming the other side's instruction (then
 * *RETEXT is set: the same, printed by another XLA version). */
static bool same_rt_instr(const cmp_rt *a, const cmp_rt *b, bool *retext) {
  if (!strcmp(a->instr, b->instr)) return true;
  *retext = true;
  for (int k = 0; k < 2; k++) {
    const cmp_rt *v1 = k ? b : a, *other = k ? a : b;
    if (!other->instr_name) continue;
    const char *p = v1->instr + (v1->instr[0] == '%');
    size_t n = strlen(other->instr_name);
    if (!strncmp(p, other->instr_name, n) && (p[n] == ' ' || p[n] == '='))
      if (strchr(p + n, '=')) return true;
  }
  return false;
}

/* The key a runtime variable is matched by: the producing instruction's
 * name (BY_NAME: a V1 text names it, `%NAME = ...`), else its text. */
static char *rt_key(const cmp_rt *rt, bool by_name) {
  const char *s = rt->instr;
  size_t n = strlen(s);
  if (by_name && rt->instr_name) {
    s = rt->instr_name;
    n = strlen(s);
  } else if (by_name) {
    s += s[0] == '%';
    n = strcspn(s, " =");
  }
  char *k = hb_malloc(n + 1);
  memcpy(k, s, n);
  k[n] = '\0';
  return k;
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Compares two single maps; a short verdict for a description or replica
 * map in *why, false when they differ; *RETEXT set when they are equal in
 * another text. */
static bool same_map(comparer *c, mrel_text a, mrel_text b, char *why, size_t n, bool *retext) {
  mrel_result r;
  mrel_compare(c->rel, &a, 1, &b, 1, &r);
  bool same = r.verdict <= MREL_EQUAL_ENUMERATED;
  if (r.verdict != MREL_EQUAL_TEXT) *retext = true;
  if (!same) {
    hb_strbuf t = HB_STRBUF_INIT;
    if (r.verdict == MREL_DIFFERENT && r.witness) {
      put_tuple(&t, r.witness, r.ndims);
      hb_sb_puts(&t, " -> ");
      put_tuple(&t, r.witness + r.ndims, r.nresults);
      hb_sb_printf(&t, " in %s only", c->name[r.side]);
    } else {
      hb_sb_puts(&t, r.why);
    }
    snprintf(why, n, "%s", hb_sb_str(&t));
    hb_sb_free(&t);
  }
  mrel_result_free(&r);
  return same;
}

/* Runtime variables and replica ids of two entries whose maps are equal:
 * NULL when they agree (*RETEXT set when not in the same text), else what
 * differs (in BUF). */
static const char *compare_descriptions(comparer *c, const cmp_entry *g, const cmp_entry *a, char *buf, size_t n,
                                        bool *retext) {
  char why[300];
  if (g->n == 1 && a->n == 1) {
    const cmp_member *x = &g->m[0], *y = &a->m[0];
    if (x->nrt != y->nrt) {
      snprintf(buf, n, "%u runtime variables in %s, %u in %s", x->nrt, c->name[0], y->nrt, c->name[1]);
      return buf;
    }
    for (uint32_t j = 0; j < x->nrt; j++) {
      if (!same_rt_instr(&x->rt[j], &y->rt[j], retext)) {
        snprintf(buf, n, "runtime variable rt%u is %s in %s, %s in %s", j, x->rt[j].instr, c->name[0],
                 y->rt[j].instr, c->name[1]);
        return buf;
      }
      if (!same_map(c, x->rt[j].map, y->rt[j].map, why, sizeof why, retext)) {
        snprintf(buf, n, "the map of runtime variable rt%u: %s", j, why);
        return buf;
      }
    }
    if (x->has_replica != y->has_replica) {
      snprintf(buf, n, "a replica id map in %s only", c->name[x->has_replica ? 0 : 1]);
      return buf;
    }
    if (x->has_replica && !same_map(c, x->replica, y->replica, why, sizeof why, retext)) {
      snprintf(buf, n, "the replica id map: %s", why);
      return buf;
    }
    return NULL;
  }
  /* several maps: the same producing instructions, as multisets (by name
   * when the golden names them in V1 text, else by their texts) */
  uint32_t ng = 0, na = 0;
  bool v1 = true;
  for (uint32_t i = 0; i < g->n; i++) {
    ng += g->m[i].nrt;
    for (uint32_t j = 0; j < g->m[i].nrt; j++) v1 &= strstr(g->m[i].rt[j].instr, " = ") != NULL;
  }
  for (uint32_t i = 0; i < a->n; i++) na += a->m[i].nrt;
  if (ng != na) {
    snprintf(buf, n, "%u runtime variables in %s, %u in %s", ng, c->name[0], na, c->name[1]);
    return buf;
  }
  char **kg = hb_malloc((ng + 1) * sizeof *kg), **ka = hb_malloc((na + 1) * sizeof *ka);
  uint32_t k = 0;
  for (uint32_t i = 0; i < g->n; i++)
    for (uint32_t j = 0; j < g->m[i].nrt; j++) kg[k++] = rt_key(&g->m[i].rt[j], v1);
  k = 0;
  for (uint32_t i = 0; i < a->n; i++)
    for (uint32_t j = 0; j < a->m[i].nrt; j++) ka[k++] = rt_key(&a->m[i].rt[j], v1);
  qsort(kg, ng, sizeof *kg, cmp_cstr);
  qsort(ka, na, sizeof *ka, cmp_cstr);
  const char *diff = NULL;
  for (uint32_t i = 0; i < ng && !diff; i++)
    if (strcmp(kg[i], ka[i])) {
      snprintf(buf, n, "the runtime variables come from other instructions (%s in %s, %s in %s)", kg[i], c->name[0],
               ka[i], c->name[1]);
      diff = buf;
    }
  if (!diff && v1 && ng) *retext = true;
  for (uint32_t i = 0; i < ng; i++) free(kg[i]);
  for (uint32_t i = 0; i < na; i++) free(ka[i]);
  free(kg);
  free(ka);
  return diff;
}

static size_t maps_of(const cmp_entry *e, mrel_text *out) {
  for (uint32_t i = 0; i < e->n; i++) out[i] = e->m[i].map;
  return e->n;
}

static void compare_entry(comparer *c, bool o2i, const cmp_entry *g, const cmp_entry *a) {
  mrel_text *tg = hb_malloc((g->n + 1) * sizeof *tg), *ta = hb_malloc((a->n + 1) * sizeof *ta);
  mrel_result r;
  mrel_compare(c->rel, tg, maps_of(g, tg), ta, maps_of(a, ta), &r);
  free(tg);
  free(ta);
  char buf[600];
  bool retext = false;
  const char *desc =
      r.verdict <= MREL_EQUAL_ENUMERATED ? compare_descriptions(c, g, a, buf, sizeof buf, &retext) : NULL;
  if (desc) {
    worse(c, V_DIFFERENT);
    entry_line(c, o2i, g->id, "different: %s", desc);
  } else {
    switch (r.verdict) {
    case MREL_EQUAL_TEXT:
      if (!retext) break;
      worse(c, V_RELATION);
      entry_line(c, o2i, g->id, "equal relation (the same maps; runtime variables or replica ids in other text, "
                                "e.g. XLA's V1 and V2 forms)");
      break;
    case MREL_EQUAL_CANONICAL:
      worse(c, V_RELATION);
      entry_line(c, o2i, g->id, "equal relation (canonical simplification)");
      break;
    case MREL_EQUAL_ENUMERATED:
      worse(c, V_RELATION);
      entry_line(c, o2i, g->id, "equal relation (enumeration: %llu points in each)", (unsigned long long)r.points);
      break;
    case MREL_DIFFERENT: {
      worse(c, V_DIFFERENT);
      hb_strbuf t = HB_STRBUF_INIT;
      if (r.witness) {
        put_tuple(&t, r.witness, r.ndims);
        hb_sb_puts(&t, " -> ");
        put_tuple(&t, r.witness + r.ndims, r.nresults);
        hb_sb_printf(&t, " in %s only", c->name[r.side]);
      } else if (r.side >= 0) {
        hb_sb_printf(&t, "%s in %s only", r.why, c->name[r.side]);
      } else {
        hb_sb_printf(&t, "%s (%s against %s)", r.why, c->name[0], c->name[1]);
      }
      entry_line(c, o2i, g->id, "different: %s", hb_sb_str(&t));
      hb_sb_free(&t);
      break;
    }
    case MREL_UNDECIDED:
      worse(c, V_UNDECIDED);
      entry_line(c, o2i, g->id, "undecided: %s", r.why);
      break;
    case MREL_ERROR:
      worse(c, V_DIFFERENT);
      if (r.side == 0 && c->golden_src) {
        output_sync();
        char msg[300];
        snprintf(msg, sizeof msg, "cannot read this map: %s", r.why);
        diag_error(c->golden_src, r.offset, msg);
        c->rc = 1;
      }
      entry_line(c, o2i, g->id, "different: the map of %s cannot be read: %s", c->name[r.side], r.why);
      break;
    }
  }
  mrel_result_free(&r);
}

static void module_line(comparer *c, const char *module) {
  if (!c->name_modules || !module || same_str(module, c->printed_module)) return;
  c->printed_module = module;
  hb_sb_printf(&c->line, "## module %s\n", module);
  put_out(c, c->line.data, c->line.len);
  hb_sb_reset(&c->line);
}

static void block_label(comparer *c, hb_strbuf *b, const cmp_block *x) {
  hb_sb_printf(b, "%s (%s", x->instr, x->o2i ? "out2in" : "in2out");
  if (x->id >= 0) hb_sb_printf(b, ", %s %ld", x->o2i ? "output" : "input operand", x->id);
  if (c->o->physical == PHYS_MAJOR) hb_sb_puts(b, ", physical");
  if (c->o->physical == PHYS_TILED) hb_sb_puts(b, ", tiled");
  hb_sb_putc(b, ')');
}

/* Prints the block's line (and its entry lines) unless -q hides it. */
static void emit_block(comparer *c, const cmp_block *x, int verdict, const char *note) {
  c->tally[verdict]++;
  if (verdict >= V_UNDECIDED) c->rc = c->rc ? c->rc : 1;
  if (c->o->quiet && verdict <= V_RELATION) return;
  module_line(c, x->module);
  block_label(c, &c->line, x);
  hb_sb_printf(&c->line, ": %s%s\n", verdict_word[verdict], note ? note : "");
  put_out(c, c->line.data, c->line.len);
  put_out(c, c->detail.data, c->detail.len);
  hb_sb_reset(&c->line);
  hb_sb_reset(&c->detail);
}

static const char *const layout_word[] = {"logical", "physical", "tiled"};

static int cmp_entry_id(const void *x, const void *y) {
  const cmp_entry *a = *(const cmp_entry *const *)x, *b = *(const cmp_entry *const *)y;
  return (a->id > b->id) - (a->id < b->id);
}

/* The entries of B that have maps, by id (malloc'ed array of pointers; *N
 * of them). An entry without maps is the same as none: XLA and earlier
 * versions of hloidx print `operand id = K` and nothing for an operand an
 * output does not read, hloidx now leaves it out under a header. */
static const cmp_entry **sorted_entries(const cmp_block *b, uint32_t *n) {
  const cmp_entry **e = hb_malloc((b->n + 1) * sizeof *e);
  *n = 0;
  for (uint32_t i = 0; i < b->n; i++)
    if (b->e[i].n) e[(*n)++] = &b->e[i];
  qsort(e, *n, sizeof *e, cmp_entry_id);
  return e;
}

/* The golden's entries EG (NG, sorted by id) from *PI on against the
 * run's EA (NA, sorted by id, after every entry merged before): compared,
 * or missing / new; with LAST the golden's entries left are missing. */
static void merge_entries(comparer *c, bool o2i, const cmp_entry **eg, uint32_t ng, uint32_t *pi,
                          const cmp_entry **ea, uint32_t na, bool last) {
  uint32_t i = *pi, k = 0;
  while ((last && i < ng) || k < na) {
    if (k == na || (i < ng && eg[i]->id < ea[k]->id)) {
      worse(c, V_DIFFERENT);
      entry_line(c, o2i, eg[i++]->id, "missing (in %s only)", c->name[0]);
    } else if (i == ng || ea[k]->id < eg[i]->id) {
      worse(c, V_DIFFERENT);
      entry_line(c, o2i, ea[k++]->id, "new (not in %s)", c->name[0]);
    } else {
      compare_entry(c, o2i, eg[i++], ea[k++]);
    }
  }
  *pi = i;
}

/* Whether G's maps are in another layout than A's: then the block is
 * different, said here. */
static bool other_layout(comparer *c, const cmp_block *g, const cmp_block *a) {
  if (g->layout == CMP_LAYOUT_UNKNOWN || g->layout == a->layout) return false;
  char note[96];
  snprintf(note, sizeof note, ": %s maps in %s, %s in %s", layout_word[g->layout], c->name[0],
           layout_word[a->layout], c->name[1]);
  emit_block(c, a, V_DIFFERENT, note);
  return true;
}

/* The comparison of golden block G with the run's block A begins: false
 * when it is decided at once (another layout). Entries by id: the
 * golden's sorted once, the run's (a part at a time) merged with them. */
/* A block's comparison starts (equal text until an entry says otherwise)
 * and ends with its verdict (A: its label). */
static void verdict_begin(comparer *c) {
  c->worst = V_TEXT;
  hb_sb_reset(&c->detail);
}

static void verdict_end(comparer *c, const cmp_block *a) {
  if (c->worst == V_TEXT) hb_sb_reset(&c->detail);
  emit_block(c, a, c->worst, NULL);
}

static bool block_begin(comparer *c, const cmp_block *g, const cmp_block *a) {
  verdict_begin(c);
  if (other_layout(c, g, a)) return false;
  c->peg = sorted_entries(g, &c->npeg);
  c->pi = 0;
  return true;
}

/* A's entries (all of them, or a part's: LAST when no more come); with
 * the last, the verdict. */
static void block_entries(comparer *c, const cmp_block *a, bool last) {
  uint32_t na;
  const cmp_entry **ea = sorted_entries(a, &na);
  merge_entries(c, a->o2i, c->peg, c->npeg, &c->pi, ea, na, last);
  free(ea);
  if (!last) return;
  free(c->peg);
  c->peg = NULL;
  verdict_end(c, a);
}

static void compare_block(comparer *c, cmp_block *g, const cmp_block *a) {
  if (block_begin(c, g, a)) block_entries(c, a, true);
}

/* Matching: the golden's index, then each block of the run as it comes
 * (compare_one), then the golden blocks nothing matched (match_end). */
static void match_begin(comparer *c, cmp_doc *golden, block_index *x) {
  golden_index_build(x, golden);
  c->golden = golden;
  c->gx = x;
  c->nactual = 0;
}

/* Block A of the run, or a part of one (index_part), as it comes: the
 * golden block found with the first part, the verdict with the last (at
 * once without a golden block, or with another layout). */
static void compare_one(comparer *c, const cmp_block *a, int part) {
  if (part == INDEX_WHOLE || part == INDEX_FIRST) {
    seen_module(c, a->module);
    c->nactual++;
    cmp_block *g = find_golden(c->gx, c->golden, a);
    c->pdone = true;
    if (!g) {
      char note[96];
      snprintf(note, sizeof note, " (not in %s)", c->name[0]);
      hb_sb_reset(&c->detail);
      emit_block(c, a, V_NEW, note);
      return;
    }
    g->matched = true;
    c->pdone = !block_begin(c, g, a);
  }
  if (c->pdone) return;
  bool last = part == INDEX_WHOLE || part == INDEX_LAST;
  block_entries(c, a, last);
  c->pdone = last;
}

static void stream_block(collector *col, const cmp_block *a, int part) { compare_one(col->stream_arg, a, part); }

static void match_end(comparer *c) {
  decide(c);
  cmp_doc *golden = c->golden;
  bool any = false;
  for (size_t i = 0; i < golden->n; i++) any |= golden->b[i].matched;
  for (size_t i = 0; i < golden->n; i++) {
    cmp_block *g = &golden->b[i];
    if (g->matched) continue;
    char note[96];
    snprintf(note, sizeof note, " (in %s only)", c->name[0]);
    hb_sb_reset(&c->detail);
    if (!g->instr) g->instr = "(block without a header)";
    emit_block(c, g, V_MISSING, note);
  }
  if (golden->n && c->nactual && !any) {
    hb_sb_printf(&c->line, "note: no block of %s has a match here: compare with the options that printed it "
                        "(--all, --instr, --direction, --output, --operand, --physical)\n", c->name[0]);
    output_write(c->line.data, c->line.len);
    hb_sb_reset(&c->line);
  }
  golden_index_free(c->gx);
}

static size_t tally_total(const comparer *c) {
  size_t n = 0;
  for (int v = 0; v < V_COUNT; v++) n += c->tally[v];
  return n;
}

static void comparer_init(comparer *c, const hloidx_options *o, const char *expected, const char *actual) {
  memset(c, 0, sizeof *c);
  c->o = o;
  c->name[0] = expected;
  c->name[1] = actual;
  c->rel = mrel_ctx_new();
}

static void comparer_free(comparer *c) {
  mrel_ctx_free(c->rel);
  hb_sb_free(&c->line);
  hb_sb_free(&c->detail);
  hb_sb_free(&c->held);
}

/* ---- golden mode ------------------------------------------------------------------------------------------ */

static int compare_golden(const hloidx_options *o, const source_file *src) {
  cmp_doc golden, actual;
  cmp_doc_init(&golden);
  cmp_doc_init(&actual);
  int rc = cmp_read_golden(src, &golden);
  if (!rc) {
    comparer c;
    comparer_init(&c, o, "expected", "actual");
    c.golden_src = src;
    c.undecided = true;
    block_index x;
    match_begin(&c, &golden, &x);
    collector col = {.doc = &actual, .stream = stream_block, .stream_arg = &c};
    rc = index_walk(o, &collect_report, &col, o->files, o->nfiles);
    match_end(&c);
    if (col.names) hb_arena_free(col.names);
    size_t total = tally_total(&c);
    hb_sb_printf(&c.line,
              "compare: %zu %s: %zu equal text, %zu equal relation, %zu different, %zu undecided, %zu missing, %zu "
              "new\n",
              total, total == 1 ? "block" : "blocks", c.tally[V_TEXT], c.tally[V_RELATION], c.tally[V_DIFFERENT],
              c.tally[V_UNDECIDED], c.tally[V_MISSING], c.tally[V_NEW]);
    output_write(c.line.data, c.line.len);
    if (!rc) rc = c.rc;
    comparer_free(&c);
  }
  cmp_doc_free(&golden);
  cmp_doc_free(&actual);
  return rc;
}

/* ---- dump mode ---------------------------------------------------------------------------------------------- */

/* Both dumps are parsed whole and walked together, instruction by
 * instruction: for each instruction of A (every computation, in order) its
 * shape line when it changed, then the map blocks (of the instructions the
 * walk analyses) that are not equal; then the instructions only in B. Only
 * a window of one instruction's maps is held at a time. */

/* One instruction's shape texts. */
typedef struct {
  hb_strbuf shape, layout, space;
  int64_t padding; /* bytes; -1 when a layout cannot be analysed */
} shape_text;

static void shape_text_of(shape_text *t, const hlo_shape *s, hb_arena *scratch) {
  hb_sb_reset(&t->shape);
  hb_sb_reset(&t->layout);
  hb_sb_reset(&t->space);
  t->padding = 0;
  put_logical_shape(&t->shape, s);
  put_layouts(&t->layout, &t->space, s, scratch, &t->padding);
  hb_arena_reset(scratch);
}

/* Whether shapes X and Y have the same texts (shape_text_of, padding
 * included), seen leaf by leaf: a tuple of 100,000 leaves is not written
 * out on both sides to find nothing changed. False as well when their
 * structure differs (the whole texts then say how). */
static bool same_shape_texts(shape_text *tx, shape_text *ty, const hlo_shape *x, const hlo_shape *y, hb_arena *scratch) {
  bool xt = x->type == HLO_TUPLE || x->type == HLO_BUFFER, yt = y->type == HLO_TUPLE || y->type == HLO_BUFFER;
  if (xt || yt) {
    if (x->type != y->type || x->n_elems != y->n_elems) return false;
    for (int i = 0; i < x->n_elems; i++)
      if (!same_shape_texts(tx, ty, x->elems[i], y->elems[i], scratch)) return false;
    return true;
  }
  shape_text_of(tx, x, scratch);
  shape_text_of(ty, y, scratch);
  return !strcmp(hb_sb_str(&tx->shape), hb_sb_str(&ty->shape)) &&
         !strcmp(hb_sb_str(&tx->layout), hb_sb_str(&ty->layout)) &&
         !strcmp(hb_sb_str(&tx->space), hb_sb_str(&ty->space)) && tx->padding == ty->padding;
}

static void shape_text_free(shape_text *t) {
  hb_sb_free(&t->shape);
  hb_sb_free(&t->layout);
  hb_sb_free(&t->space);
}

typedef struct {
  source_file src;
  hlo_parse_result res;
  index_run run;    /* the walk state index_each_block needs (its output stays empty) */
  cmp_doc doc;      /* the current instruction's blocks */
  collector col;
  /* per instruction of the current module (flag_of): WALKED, the walk
   * analyses it; MATCHED (B), an instruction of A has its name */
  size_t *first;       /* per computation: its first instruction's flag */
  unsigned char *flags;
  index_blocks bs;     /* the current instruction's diagnostics, across its windows */
} dump_side;

/* Each side has its own analysis context: the memos of one dump (fusion
 * results by structure, which compares interned names) never meet the
 * other's. READ: the file already read (the side takes it), or NULL. */
static int open_side(const hloidx_options *o, const char *path, source_file *read, dump_side *d) {
  memset(d, 0, sizeof *d);
  cmp_doc_init(&d->doc);
  d->col.doc = &d->doc;
  d->run.o = o;
  d->run.ctx = ii_ctx_new();
  ii_ctx_set_xla_compat(d->run.ctx, o->xla_compat);
  d->run.several_instrs = true;
  if (read) d->src = *read;
  else if (source_read(path, &d->src)) return 1;
  d->run.src = &d->src;
  d->run.state = &d->col;
  hlo_error err;
  if (hlo_parse_file(d->src.data, d->src.len, &d->res, &err)) {
    diag_error(&d->src, err.offset, err.message);
    return 1;
  }
  source_release(&d->src, d->src.len, true); /* (both dumps' IR are held, not their text too) */
  return 0;
}

static void close_side(dump_side *d) {
  ii_ctx_free(d->run.ctx);
  hlo_parse_result_free(&d->res);
  if (d->src.data) source_free(&d->src);
  cmp_doc_free(&d->doc);
  if (d->col.names) hb_arena_free(d->col.names);
  free(d->first);
  free(d->flags);
}

enum { WALKED = 1, MATCHED = 2 };

/* IN's flags (IN of the side's current module). */
static unsigned char *flag_of(const dump_side *d, const hlo_instr *in) {
  return &d->flags[d->first[in->parent->index] + (size_t)in->index];
}

static void walked_instr(void *arg, const hlo_instr *in) { *flag_of(arg, in) |= WALKED; }

/* The module both walks are in now; the instructions its walk analyses. */
static void side_module(dump_side *d, const hlo_module *m, const char *name) {
  d->run.module = m;
  d->col.module = name;
  /* (a byte an instruction: a hash map of 100,000 was 60 bytes each) */
  d->first = hb_realloc(d->first, ((size_t)m->n_computations + 1) * sizeof *d->first);
  size_t n = 0;
  for (int c = 0; c < m->n_computations; c++) d->first[c] = n, n += (size_t)m->computations[c]->n_instrs;
  free(d->flags);
  d->flags = hb_calloc(n + 1, 1);
  static const select_visitor v = {NULL, walked_instr, NULL};
  select_each(d->run.o, m, true, SELECT_ROOT, &v, d);
}

/* IN's blocks of direction O2I with ids in [LO, HI), collected into the
 * side's document (emptied first); IN NULL: none. */
static void side_window(dump_side *d, const hlo_instr *in, bool o2i, long lo, long hi) {
  cmp_doc_clear(&d->doc);
  if (in) index_each_block_window(&d->run, in, o2i, lo, hi, &d->bs, collect_block, collect_none);
  /* the window is text now: a large analysis behind it goes before the
   * other side's (both at once were 3 MB of a fusion of 10,000) */
  ii_ctx_reset(d->run.ctx);
}

/* Part [LO, LO + INDEX_PART_ENTRIES) of output ID's out2in block of IN
 * (index_part), collected into the side's document (emptied first; none
 * past IN's operands). False when the first part fails. */
static bool side_part(dump_side *d, const hlo_instr *in, long id, uint32_t lo) {
  cmp_doc_clear(&d->doc);
  if (lo >= (uint32_t)in->n_operands) return true;
  uint32_t hi;
  ii_indexing x;
  if (!index_part(&d->run, in, id, lo, &hi, &x)) return false;
  collect_block(&d->run, in, true, id, II_OK, &x, NULL);
  ii_ctx_block_end(d->run.ctx);
  return true;
}

/* A side's blocks of IN in one direction: outputs (o2i) or operands (the
 * entries of a block of the other direction). */
static long side_count(const hlo_instr *in, bool o2i) { return in ? index_entries(in, !o2i) : 0; }

/* The instructions of a module by name (the first of a name wins). */
typedef struct {
  const hlo_instr **slots;
  size_t mask;
} name_index;

static uint64_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static const hlo_instr **name_slot(const name_index *x, const char *name) {
  size_t i = (size_t)str_hash(name) & x->mask;
  while (x->slots[i] && strcmp(x->slots[i]->name, name)) i = (i + 1) & x->mask;
  return &x->slots[i];
}

static void name_index_build(name_index *x, const hlo_module *m) {
  size_t n = 16, count = 0;
  for (int c = 0; c < m->n_computations; c++) count += (size_t)m->computations[c]->n_instrs;
  while (n < 2 * count + 2) n *= 2;
  x->slots = hb_calloc(n, sizeof *x->slots);
  x->mask = n - 1;
  for (int c = 0; c < m->n_computations; c++)
    for (int i = 0; i < m->computations[c]->n_instrs; i++) {
      const hlo_instr **s = name_slot(x, m->computations[c]->instrs[i]->name);
      if (!*s) *s = m->computations[c]->instrs[i];
    }
}

typedef struct {
  comparer c;
  dump_side a, b;
  shape_text ta, tb;
  hb_strbuf missing; /* the current instruction's missing blocks' lines (match_window) */
  hb_arena *scratch;
  size_t total, changed, only_a, only_b;
} dump_cmp;

static void put_line(dump_cmp *d, const char *module) {
  module_line(&d->c, module);
  output_write(d->c.line.data, d->c.line.len);
  hb_sb_reset(&d->c.line);
}

/* The blocks in A's and B's documents (a window of one direction) against
 * each other: B's in order, each equal, different or new; then A's that
 * nothing matched, missing: their lines wait in `missing` until the
 * instruction's last window (the order of a walk of the whole instruction). */
static void match_window(dump_cmp *d) {
  cmp_doc *ga = &d->a.doc, *gb = &d->b.doc;
  /* A's blocks by id (a window is of one direction): block index + 1, 0
   * for none */
  long lo = LONG_MAX, hi = LONG_MIN;
  for (size_t k = 0; k < ga->n; k++) {
    lo = ga->b[k].id < lo ? ga->b[k].id : lo;
    hi = ga->b[k].id > hi ? ga->b[k].id : hi;
  }
  size_t *at = hb_calloc(ga->n ? (size_t)(hi - lo) + 2 : 1, sizeof *at);
  for (size_t k = 0; k < ga->n; k++) at[ga->b[k].id - lo] = k + 1;
  for (size_t i = 0; i < gb->n; i++) {
    const cmp_block *bb = &gb->b[i];
    cmp_block *ab = NULL;
    if (ga->n && bb->id >= lo && bb->id <= hi) {
      size_t k = at[bb->id - lo];
      if (k && !ga->b[k - 1].matched) ab = &ga->b[k - 1];
    }
    if (!ab) {
      char note[96];
      snprintf(note, sizeof note, " (not in %s)", d->c.name[0]);
      hb_sb_reset(&d->c.detail);
      emit_block(&d->c, bb, V_NEW, note);
      continue;
    }
    ab->matched = true;
    compare_block(&d->c, ab, bb);
  }
  free(at);
  for (size_t k = 0; k < ga->n; k++) {
    if (ga->b[k].matched) continue;
    char note[96];
    snprintf(note, sizeof note, " (in %s only)", d->c.name[0]);
    hb_sb_reset(&d->c.detail);
    module_line(&d->c, ga->b[k].module); /* (now: before B's lines that follow) */
    d->c.divert = &d->missing;
    emit_block(&d->c, &ga->b[k], V_MISSING, note);
    d->c.divert = NULL;
  }
}

/* Output ID's out2in blocks of X and Y, both in parts (index_in_parts),
 * compared a part at a time, the parts of both over the same operands:
 * the entry lines and verdict of a comparison of the whole blocks. False,
 * and nothing said, when a side's first part fails (the blocks are then
 * compared whole, and fail alike). */
static bool compare_in_parts(dump_cmp *d, const hlo_instr *x, const hlo_instr *y, long id) {
  comparer *c = &d->c;
  uint32_t n = (uint32_t)(x->n_operands > y->n_operands ? x->n_operands : y->n_operands);
  verdict_begin(c);
  for (uint32_t lo = 0; lo < n; lo += INDEX_PART_ENTRIES) {
    if (!side_part(&d->a, x, id, lo) || !side_part(&d->b, y, id, lo)) {
      cmp_doc_clear(&d->a.doc);
      return false;
    }
    uint32_t na = 0, nb = 0, pi = 0;
    const cmp_entry **ea = d->a.doc.n ? sorted_entries(&d->a.doc.b[0], &na) : NULL;
    const cmp_entry **eb = d->b.doc.n ? sorted_entries(&d->b.doc.b[0], &nb) : NULL;
    merge_entries(c, true, ea, na, &pi, eb, nb, true);
    free(ea);
    free(eb);
  }
  cmp_doc_clear(&d->a.doc);
  cmp_doc_clear(&d->b.doc);
  const cmp_block label = {.module = d->b.col.module, .instr = y->name, .id = id, .o2i = true};
  verdict_end(c, &label);
  return true;
}

/* The blocks of A's X and B's Y (either may be NULL) against each other,
 * DUMP_WINDOW of a direction at a time (an out2in block in parts a part
 * at a time): memory for one window of maps, whatever the instruction. */
#define DUMP_WINDOW 256
static void compare_instr_blocks(dump_cmp *d, const hlo_instr *x, const hlo_instr *y) {
  if (x && !(*flag_of(&d->a, x) & WALKED)) x = NULL;
  if (y && !(*flag_of(&d->b, y) & WALKED)) y = NULL;
  memset(&d->a.bs, 0, sizeof d->a.bs);
  memset(&d->b.bs, 0, sizeof d->b.bs);
  const hloidx_options *o = d->c.o;
  for (int dir = 0; dir < 2; dir++) {
    bool o2i = dir == 0;
    long n = side_count(x, o2i) > side_count(y, o2i) ? side_count(x, o2i) : side_count(y, o2i);
    long lo = 0;
    if (o2i && o->direction != DIR_IN2OUT && x && y && side_count(x, true) == side_count(y, true) &&
        index_in_parts(&d->a.run, x) && index_in_parts(&d->b.run, y)) {
      long plo = o->output >= 0 ? o->output : 0, phi = o->output >= 0 ? o->output + 1 : n;
      for (long id = plo; id < phi && id < n; id++)
        if (!compare_in_parts(d, x, y, id)) { /* (whole, in a window of its own) */
          side_window(&d->a, x, true, id, id + 1);
          side_window(&d->b, y, true, id, id + 1);
          match_window(d);
        }
      lo = n;
    }
    for (; lo == 0 || lo < n; lo += DUMP_WINDOW) {
      side_window(&d->a, x, o2i, lo, lo + DUMP_WINDOW);
      side_window(&d->b, y, o2i, lo, lo + DUMP_WINDOW);
      match_window(d);
    }
  }
  if (x) index_blocks_end(&d->a.run, x, &d->a.bs);
  if (y) index_blocks_end(&d->b.run, y, &d->b.bs);
  output_write(d->missing.data, d->missing.len);
  hb_sb_reset(&d->missing);
}

/* A's instruction X and B's namesake Y (NULL: none). */
static void compare_instr(dump_cmp *d, const char *module, const hlo_instr *x, const hlo_instr *y) {
  hb_strbuf *t = &d->c.line;
  if (!y) {
    hb_sb_printf(t, "%s: missing (in %s only)\n", x->name, d->c.name[0]);
    d->only_a++;
    d->c.rc = 1;
    put_line(d, module);
    compare_instr_blocks(d, x, NULL);
    return;
  }
  if (!same_shape_texts(&d->ta, &d->tb, x->shape, y->shape, d->scratch)) {
    shape_text_of(&d->ta, x->shape, d->scratch);
    shape_text_of(&d->tb, y->shape, d->scratch);
    bool shape = strcmp(hb_sb_str(&d->ta.shape), hb_sb_str(&d->tb.shape)) != 0,
         layout = strcmp(hb_sb_str(&d->ta.layout), hb_sb_str(&d->tb.layout)) != 0,
         space = strcmp(hb_sb_str(&d->ta.space), hb_sb_str(&d->tb.space)) != 0, pad = d->ta.padding != d->tb.padding;
    if (shape || layout || space || pad) {
      d->changed++;
      d->c.rc = 1;
      hb_sb_printf(t, "%s:", x->name);
      const char *sep = " ";
      if (shape) hb_sb_printf(t, "%sshape %s -> %s", sep, hb_sb_str(&d->ta.shape), hb_sb_str(&d->tb.shape)), sep = "; ";
      if (layout) hb_sb_printf(t, "%slayout %s -> %s", sep, hb_sb_str(&d->ta.layout), hb_sb_str(&d->tb.layout)), sep = "; ";
      if (space) hb_sb_printf(t, "%smemory space %s -> %s", sep, hb_sb_str(&d->ta.space), hb_sb_str(&d->tb.space)), sep = "; ";
      if (pad && d->ta.padding >= 0 && d->tb.padding >= 0)
        hb_sb_printf(t, "%spadding %lld -> %lld bytes", sep, (long long)d->ta.padding, (long long)d->tb.padding);
      hb_sb_putc(t, '\n');
      put_line(d, module);
    }
  }
  compare_instr_blocks(d, x, y);
}

/* A module of A and its counterpart in B (either may be NULL). */
static void compare_modules(dump_cmp *d, const hlo_module *ma, const hlo_module *mb) {
  const char *module = ma ? ma->name : mb->name;
  if (ma) side_module(&d->a, ma, module);
  if (mb) side_module(&d->b, mb, module);
  name_index nb = {0};
  if (mb) name_index_build(&nb, mb);
  for (int c = 0; ma && c < ma->n_computations; c++)
    for (int i = 0; i < ma->computations[c]->n_instrs; i++) {
      const hlo_instr *x = ma->computations[c]->instrs[i];
      const hlo_instr *y = mb ? *name_slot(&nb, x->name) : NULL;
      if (y && (*flag_of(&d->b, y) & MATCHED)) y = NULL;
      if (y) *flag_of(&d->b, y) |= MATCHED;
      d->total++;
      compare_instr(d, module, x, y);
    }
  for (int c = 0; mb && c < mb->n_computations; c++)
    for (int i = 0; i < mb->computations[c]->n_instrs; i++) {
      const hlo_instr *y = mb->computations[c]->instrs[i];
      if (*flag_of(&d->b, y) & MATCHED) continue;
      hb_sb_printf(&d->c.line, "%s: new (not in %s)\n", y->name, d->c.name[0]);
      d->only_b++;
      d->c.rc = 1;
      put_line(d, module);
      compare_instr_blocks(d, NULL, y);
    }
  free(nb.slots);
  ii_ctx_end_module(d->a.run.ctx);
  ii_ctx_end_module(d->b.run.ctx);
}

/* A (o->expected, read) with B (the one file). */
static int compare_dumps(const hloidx_options *o, source_file *a) {
  if (o->nfiles != 1) {
    source_free(a);
    fputs("hloidx: error: --compare with an HLO dump compares it with one other dump: --compare A.hlo B.hlo\n"
          "Try 'hloidx --help' for more information.\n",
          stderr);
    return 2;
  }
  hloidx_options all = *o;
  if (!options_select(&all)) all.all = true; /* every instruction unless some are picked */
  all.quiet = true;               /* only what changed */
  dump_cmp d;
  memset(&d, 0, sizeof d);
  /* a dump that cannot be read or parsed: its error, and nothing compared */
  int rc = open_side(&all, o->expected, a, &d.a);
  rc |= open_side(&all, o->files[0], NULL, &d.b);
  if (rc) {
    close_side(&d.a);
    close_side(&d.b);
    return 1;
  }
  comparer_init(&d.c, &all, o->expected, o->files[0]);
  d.scratch = hb_arena_new();
  /* modules by name; one on each side: those two, whatever their names */
  int na = d.a.res.n_modules, nb = d.b.res.n_modules;
  d.c.name_modules = na > 1 || nb > 1;
  bool *used = hb_calloc((size_t)nb + 1, 1);
  for (int i = 0; i < na && !output_failed(); i++) {
    const hlo_module *ma = d.a.res.modules[i], *mb = NULL;
    for (int k = 0; k < nb && !mb; k++)
      if (!used[k] && (na == 1 && nb == 1 ? true : !strcmp(ma->name, d.b.res.modules[k]->name))) {
        used[k] = true;
        mb = d.b.res.modules[k];
      }
    compare_modules(&d, ma, mb);
  }
  for (int k = 0; k < nb && !output_failed(); k++)
    if (!used[k]) compare_modules(&d, NULL, d.b.res.modules[k]);
  free(used);
  size_t blocks = tally_total(&d.c);
  hb_sb_printf(&d.c.line,
            "compare: %zu instructions: %zu changed (shape, layout, memory space or padding), %zu only in %s, %zu "
            "only in %s; %zu map blocks: %zu equal, %zu different, %zu undecided, %zu missing, %zu new\n",
            d.total, d.changed, d.only_a, d.c.name[0], d.only_b, d.c.name[1], blocks,
            d.c.tally[V_TEXT] + d.c.tally[V_RELATION], d.c.tally[V_DIFFERENT], d.c.tally[V_UNDECIDED],
            d.c.tally[V_MISSING], d.c.tally[V_NEW]);
  output_write(d.c.line.data, d.c.line.len);
  rc = d.a.run.rc ? d.a.run.rc : d.b.run.rc;
  if (!rc) rc = d.c.rc;
  comparer_free(&d.c);
  shape_text_free(&d.ta);
  shape_text_free(&d.tb);
  hb_sb_free(&d.missing);
  hb_arena_free(d.scratch);
  close_side(&d.a);
  close_side(&d.b);
  return rc;
}

int cmd_compare(const hloidx_options *o) {
  if (!strcmp(o->expected, "-")) { /* the other side must not read standard input too (no FILE does) */
    bool other = o->nfiles == 0;
    for (int f = 0; f < o->nfiles; f++) other |= !strcmp(o->files[f], "-");
    if (other) {
      fputs("hloidx: error: --compare=- reads the expected side from standard input; the other side must be a named "
            "file (not '-', nor no FILE, which is standard input too)\nTry 'hloidx --help' for more information.\n",
            stderr);
      return 2;
    }
  }
  source_file src;
  if (source_read(o->expected, &src)) return 1;
  /* a dump is read once (standard input cannot be read again, and a large
   * dump held twice) */
  if (cmp_is_hlo_dump(&src)) return compare_dumps(o, &src);
  int rc = compare_golden(o, &src);
  source_free(&src);
  return rc;
}
