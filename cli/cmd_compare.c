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
 * dump are listed. Last, a tally. Exit 0 when nothing changed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "golden_read.h"
#include "index_run.h"
#include "map_print.h"
#include "../parser/base/oom.h"
#include "output.h"
#include "tiled_layout.h"

/* ---- the current analysis, collected ------------------------------------------------------------ */

/* One instruction's result shape, for dump mode. */
typedef struct {
  const char *module, *name;
  const char *shape;   /* logical shape: element types and dimensions */
  const char *layout;  /* per array: minor_to_major and tiles ("{1,0:T(8,128)}"; tuples "({1,0}, {0})") */
  const char *space;   /* per array: "S(0)"; tuples "(S(0), S(1))" */
  int64_t padding;     /* bytes; -1 when a layout cannot be analysed */
  bool matched;
} instr_shape;

typedef struct {
  cmp_doc *doc;
  const char *module; /* the current module's name, in doc's arena */
  bool shapes;        /* dump mode: record every instruction's shape */
  instr_shape *sh;
  size_t nsh, capsh;
} collector;

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
    return;
  }
  for (uint32_t k = 0; k < x->n; k++) {
    cmp_entry *e = cmp_add_entry(d, b, (long)k);
    const ii_set *s = &x->sets[k];
    const uint32_t *order = ii_set_print_order(r->ctx, s);
    for (uint32_t i = 0; i < s->n; i++) {
      const ii_operand *op = s->items[order[i]];
      cmp_member *m = cmp_add_member(d, e);
      m->map = keep_map(d, &t, op->map);
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
}

static void collect_none(index_run *r, const hlo_instr *in, bool o2i) {
  collector *c = r->state;
  cmp_block *b = cmp_add_block(c->doc);
  b->module = c->module;
  b->instr = dup_str(c->doc, in->name);
  b->o2i = o2i;
  b->layout = (int)r->o->physical;
  b->tail = o2i ? "no outputs" : "no operands";
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
}

static void collect_shapes(collector *c, const hlo_module *m) {
  hb_arena *scratch = hb_arena_new();
  hb_strbuf t = HB_STRBUF_INIT, lay = HB_STRBUF_INIT, space = HB_STRBUF_INIT;
  for (int ci = 0; ci < m->n_computations; ci++)
    for (int i = 0; i < m->computations[ci]->n_instrs; i++) {
      const hlo_instr *in = m->computations[ci]->instrs[i];
      if (c->nsh == c->capsh) {
        c->capsh = c->capsh ? c->capsh * 2 : 256;
        c->sh = hb_realloc(c->sh, c->capsh * sizeof *c->sh);
      }
      instr_shape *x = &c->sh[c->nsh++];
      memset(x, 0, sizeof *x);
      x->module = c->module;
      x->name = dup_str(c->doc, in->name);
      hb_sb_reset(&t);
      put_logical_shape(&t, in->shape);
      x->shape = dup_str(c->doc, hb_sb_str(&t));
      hb_sb_reset(&lay);
      hb_sb_reset(&space);
      put_layouts(&lay, &space, in->shape, scratch, &x->padding);
      x->layout = dup_str(c->doc, hb_sb_str(&lay));
      x->space = dup_str(c->doc, hb_sb_str(&space));
      hb_arena_reset(scratch);
    }
  hb_sb_free(&t);
  hb_sb_free(&lay);
  hb_sb_free(&space);
  hb_arena_free(scratch);
}

static void collect_module(index_run *r) {
  collector *c = r->state;
  c->module = dup_str(c->doc, r->module->name);
  if (c->shapes) collect_shapes(c, r->module);
}

static void collect_instr(index_run *r, const hlo_instr *in) { index_each_block(r, in, collect_block, collect_none); }

static const index_report collect_report = {NULL, collect_module, NULL, collect_instr, NULL, NULL};

/* ---- matching ------------------------------------------------------------------------------------------ */

static bool same_str(const char *a, const char *b) { return a && b && !strcmp(a, b); }

/* Whether modules A and B may be the same: equal names, or one unnamed. */
static bool same_module(const char *a, const char *b) { return !a || !b || !strcmp(a, b); }

/* Golden blocks by (instruction, direction, id): chains through `next`. */
typedef struct {
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
  const source_file *golden;    /* for diagnostics on the golden's maps (golden mode) */
  mrel_ctx *rel;
  hb_strbuf line, detail;          /* the block's line and its entry lines */
  int worst;
  size_t tally[V_COUNT];
  int rc;
  const char *printed_module;   /* the last `## module` printed */
  bool name_modules;
} comparer;

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
      if (r.side == 0 && c->golden) {
        output_sync();
        char msg[300];
        snprintf(msg, sizeof msg, "cannot read this map: %s", r.why);
        diag_error(c->golden, r.offset, msg);
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
  output_write(c->line.data, c->line.len);
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
  output_write(c->line.data, c->line.len);
  output_write(c->detail.data, c->detail.len);
  hb_sb_reset(&c->line);
  hb_sb_reset(&c->detail);
}

static const char *const layout_word[] = {"logical", "physical", "tiled"};

static int cmp_entry_id(const void *x, const void *y) {
  const cmp_entry *a = *(const cmp_entry *const *)x, *b = *(const cmp_entry *const *)y;
  return (a->id > b->id) - (a->id < b->id);
}

/* The entries of B by id (malloc'ed array of pointers). */
static const cmp_entry **sorted_entries(const cmp_block *b) {
  const cmp_entry **e = hb_malloc((b->n + 1) * sizeof *e);
  for (uint32_t i = 0; i < b->n; i++) e[i] = &b->e[i];
  qsort(e, b->n, sizeof *e, cmp_entry_id);
  return e;
}

static void compare_block(comparer *c, cmp_block *g, const cmp_block *a) {
  c->worst = V_TEXT;
  hb_sb_reset(&c->detail);
  if (g->layout != CMP_LAYOUT_UNKNOWN && g->layout != a->layout) {
    char note[96];
    snprintf(note, sizeof note, ": %s maps in %s, %s in %s", layout_word[g->layout], c->name[0],
             layout_word[a->layout], c->name[1]);
    emit_block(c, a, V_DIFFERENT, note);
    return;
  }
  /* entries by id: both sides sorted by id, then merged */
  const cmp_entry **eg = sorted_entries(g), **ea = sorted_entries(a);
  uint32_t i = 0, k = 0;
  while (i < g->n || k < a->n) {
    if (k == a->n || (i < g->n && eg[i]->id < ea[k]->id)) {
      worse(c, V_DIFFERENT);
      entry_line(c, a->o2i, eg[i++]->id, "missing (in %s only)", c->name[0]);
    } else if (i == g->n || ea[k]->id < eg[i]->id) {
      worse(c, V_DIFFERENT);
      entry_line(c, a->o2i, ea[k++]->id, "new (not in %s)", c->name[0]);
    } else {
      compare_entry(c, a->o2i, eg[i++], ea[k++]);
    }
  }
  free(eg);
  free(ea);
  if (c->worst == V_TEXT) hb_sb_reset(&c->detail);
  emit_block(c, a, c->worst, NULL);
}

/* Matches and reports every block of ACTUAL against GOLDEN. */
static void compare_docs(comparer *c, cmp_doc *golden, cmp_doc *actual) {
  block_index x;
  golden_index_build(&x, golden);
  const char *first = NULL;
  for (size_t i = 0; i < actual->n && !c->name_modules; i++) {
    if (!first) first = actual->b[i].module;
    else if (!same_str(first, actual->b[i].module)) c->name_modules = true;
  }
  for (size_t i = 0; i < actual->n; i++) {
    const cmp_block *a = &actual->b[i];
    cmp_block *g = find_golden(&x, golden, a);
    if (!g) {
      char note[96];
      snprintf(note, sizeof note, " (not in %s)", c->name[0]);
      hb_sb_reset(&c->detail);
      emit_block(c, a, V_NEW, note);
      continue;
    }
    g->matched = true;
    compare_block(c, g, a);
  }
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
  if (golden->n && actual->n && !any) {
    hb_sb_printf(&c->line, "note: no block of %s has a match here: compare with the options that printed it "
                        "(--all, --instr, --direction, --output, --operand, --physical)\n", c->name[0]);
    output_write(c->line.data, c->line.len);
    hb_sb_reset(&c->line);
  }
  golden_index_free(&x);
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
}

/* ---- golden mode ------------------------------------------------------------------------------------------ */

static int compare_golden(const hloidx_options *o, const source_file *src) {
  cmp_doc golden, actual;
  cmp_doc_init(&golden);
  cmp_doc_init(&actual);
  int rc = cmp_read_golden(src, &golden);
  if (!rc) {
    collector col = {.doc = &actual};
    rc = index_walk(o, &collect_report, &col, o->files, o->nfiles);
    comparer c;
    comparer_init(&c, o, "expected", "actual");
    c.golden = src;
    compare_docs(&c, &golden, &actual);
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

typedef struct {
  cmp_doc doc;
  collector col;
} dump;

static int load_dump(const hloidx_options *o, char *path, dump *d) {
  cmp_doc_init(&d->doc);
  memset(&d->col, 0, sizeof d->col);
  d->col.doc = &d->doc;
  d->col.shapes = true;
  return index_walk(o, &collect_report, &d->col, &path, 1);
}

static void free_dump(dump *d) {
  free(d->col.sh);
  cmp_doc_free(&d->doc);
}

/* With one module on each side, the modules are matched whatever their names. */
static const char *only_module(const dump *d) {
  const char *m = NULL;
  for (size_t i = 0; i < d->col.nsh; i++) {
    if (!m) m = d->col.sh[i].module;
    else if (strcmp(m, d->col.sh[i].module)) return NULL;
  }
  return m;
}

static void rename_module(dump *d, const char *from, const char *to) {
  for (size_t i = 0; i < d->col.nsh; i++)
    if (!strcmp(d->col.sh[i].module, from)) d->col.sh[i].module = to;
  for (size_t i = 0; i < d->doc.n; i++)
    if (same_str(d->doc.b[i].module, from)) d->doc.b[i].module = to;
}

/* The instructions of a dump by (module, name): open addressing. */
typedef struct {
  size_t *slots; /* index + 1; 0 = empty */
  size_t mask;
} shape_index;

static uint64_t name_hash(const char *module, const char *name) {
  uint64_t h = 1469598103934665603ULL;
  for (const char *s = module; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  h = (h ^ 0xff) * 1099511628211ULL;
  for (const char *s = name; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static size_t *shape_slot(const shape_index *x, const dump *d, const char *module, const char *name) {
  size_t i = (size_t)name_hash(module, name) & x->mask;
  for (;; i = (i + 1) & x->mask) {
    size_t k = x->slots[i];
    if (!k || (!strcmp(d->col.sh[k - 1].name, name) && !strcmp(d->col.sh[k - 1].module, module)))
      return &x->slots[i];
  }
}

static void shape_index_build(shape_index *x, const dump *d) {
  size_t n = 16;
  while (n < 2 * d->col.nsh + 2) n *= 2;
  x->slots = hb_calloc(n, sizeof *x->slots);
  x->mask = n - 1;
  for (size_t i = 0; i < d->col.nsh; i++) {
    size_t *s = shape_slot(x, d, d->col.sh[i].module, d->col.sh[i].name);
    if (!*s) *s = i + 1; /* names are unique in a module; the first one wins */
  }
}

/* One line per instruction whose shape, layout, memory space or padding changed. */
static size_t shape_changes(comparer *c, dump *a, dump *b, size_t *only_a, size_t *only_b) {
  size_t changed = 0;
  hb_strbuf *t = &c->line;
  shape_index bx;
  shape_index_build(&bx, b);
  for (size_t i = 0; i < a->col.nsh; i++) {
    instr_shape *x = &a->col.sh[i];
    size_t k = *shape_slot(&bx, b, x->module, x->name);
    instr_shape *y = k && !b->col.sh[k - 1].matched ? &b->col.sh[k - 1] : NULL;
    if (!y) {
      module_line(c, x->module);
      hb_sb_printf(t, "%s: missing (in %s only)\n", x->name, c->name[0]);
      (*only_a)++;
      c->rc = 1;
      output_write(t->data, t->len);
      hb_sb_reset(t);
      continue;
    }
    y->matched = true;
    bool shape = strcmp(x->shape, y->shape) != 0, layout = strcmp(x->layout, y->layout) != 0,
         space = strcmp(x->space, y->space) != 0, pad = x->padding != y->padding;
    if (!shape && !layout && !space && !pad) continue;
    changed++;
    c->rc = 1;
    module_line(c, x->module);
    hb_sb_printf(t, "%s:", x->name);
    const char *sep = " ";
    if (shape) hb_sb_printf(t, "%sshape %s -> %s", sep, x->shape, y->shape), sep = "; ";
    if (layout) hb_sb_printf(t, "%slayout %s -> %s", sep, x->layout, y->layout), sep = "; ";
    if (space) hb_sb_printf(t, "%smemory space %s -> %s", sep, x->space, y->space), sep = "; ";
    if (pad && x->padding >= 0 && y->padding >= 0)
      hb_sb_printf(t, "%spadding %lld -> %lld bytes", sep, (long long)x->padding, (long long)y->padding);
    hb_sb_putc(t, '\n');
    output_write(t->data, t->len);
    hb_sb_reset(t);
  }
  for (size_t i = 0; i < b->col.nsh; i++) {
    instr_shape *y = &b->col.sh[i];
    if (y->matched) continue;
    module_line(c, y->module);
    hb_sb_printf(t, "%s: new (not in %s)\n", y->name, c->name[0]);
    (*only_b)++;
    c->rc = 1;
    output_write(t->data, t->len);
    hb_sb_reset(t);
  }
  free(bx.slots);
  return changed;
}

static int compare_dumps(const hloidx_options *o) {
  if (o->nfiles != 1) {
    fputs("hloidx: error: --compare with an HLO dump compares it with one other dump: --compare A.hlo B.hlo\n"
          "Try 'hloidx --help' for more information.\n",
          stderr);
    return 2;
  }
  hloidx_options all = *o;
  if (!options_select(&all)) all.all = true; /* every instruction unless some are picked */
  all.quiet = true;               /* only what changed */
  dump a, b;
  int rc = load_dump(&all, (char *)o->expected, &a);
  int rcb = load_dump(&all, o->files[0], &b);
  if (!rc) rc = rcb;
  const char *ma = only_module(&a), *mb = only_module(&b);
  if (ma && mb && strcmp(ma, mb)) rename_module(&b, mb, ma);
  comparer c;
  comparer_init(&c, &all, o->expected, o->files[0]);
  c.name_modules = !only_module(&a) || !only_module(&b);
  size_t only_a = 0, only_b = 0, total = a.col.nsh;
  size_t changed = shape_changes(&c, &a, &b, &only_a, &only_b);
  compare_docs(&c, &a.doc, &b.doc);
  size_t blocks = tally_total(&c);
  hb_sb_printf(&c.line,
            "compare: %zu instructions: %zu changed (shape, layout, memory space or padding), %zu only in %s, %zu "
            "only in %s; %zu map blocks: %zu equal, %zu different, %zu undecided, %zu missing, %zu new\n",
            total, changed, only_a, c.name[0], only_b, c.name[1], blocks, c.tally[V_TEXT] + c.tally[V_RELATION],
            c.tally[V_DIFFERENT], c.tally[V_UNDECIDED], c.tally[V_MISSING], c.tally[V_NEW]);
  output_write(c.line.data, c.line.len);
  if (!rc) rc = c.rc;
  comparer_free(&c);
  free_dump(&a);
  free_dump(&b);
  return rc;
}

int cmd_compare(const hloidx_options *o) {
  source_file src;
  if (source_read(o->expected, &src)) return 1;
  int rc = cmp_is_hlo_dump(&src) ? compare_dumps(o) : compare_golden(o, &src);
  source_free(&src);
  return rc;
}
