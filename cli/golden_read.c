/* Reading goldens for --compare (golden_read.h has the forms). The text
 * forms are read line by line; a map is the run of bytes from where it
 * starts to the end of its last line (map_read takes any whitespace), so
 * its text is never copied. */
#include "golden_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "../parser/base/oom.h"

void cmp_doc_init(cmp_doc *d) {
  memset(d, 0, sizeof *d);
  d->a = hb_arena_new();
}

/* The block and entry arrays grow by realloc, not in the arena, where every
 * doubling would leave the array before it behind (a golden of 100,000
 * blocks or entries held about twice its arrays). */
static void free_arrays(cmp_doc *d) {
  for (size_t i = 0; i < d->n; i++) free(d->b[i].e);
  free(d->b);
  d->b = NULL;
  d->n = d->cap = 0;
}

void cmp_doc_clear(cmp_doc *d) {
  free_arrays(d);
  hb_arena_reset(d->a);
}

void cmp_doc_free(cmp_doc *d) {
  free_arrays(d);
  hb_arena_free(d->a);
  memset(d, 0, sizeof *d);
}

/* Appends a zeroed element to the array *ARR of *N elements (capacity *CAP).
 * Arrays start with one element: most entries have one map and most blocks
 * few entries, and a golden can hold millions of them. */
static void *append(hb_arena *a, void *arr_ptr, uint32_t *n, uint32_t *cap, size_t size) {
  void **arr = arr_ptr;
  if (*n == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 1;
    *arr = hb_arena_grow(a, *arr, *cap, ncap, size);
    *cap = ncap;
  }
  char *p = (char *)*arr + (size_t)(*n)++ * size;
  memset(p, 0, size);
  return p;
}

cmp_block *cmp_add_block(cmp_doc *d) {
  if (d->n == d->cap) {
    size_t ncap = d->cap ? d->cap * 2 : 64;
    if (ncap > SIZE_MAX / sizeof *d->b) hb_oom();
    d->b = hb_realloc(d->b, ncap * sizeof *d->b);
    d->cap = ncap;
  }
  cmp_block *b = &d->b[d->n++];
  memset(b, 0, sizeof *b);
  b->id = -1;
  b->layout = CMP_LAYOUT_UNKNOWN;
  return b;
}

cmp_entry *cmp_add_entry(cmp_doc *d, cmp_block *b, long id) {
  (void)d;
  if (b->n == b->cap) {
    if (b->cap > UINT32_MAX / 2) hb_oom();
    uint32_t ncap = b->cap ? b->cap * 2 : 1;
    b->e = hb_realloc(b->e, (size_t)ncap * sizeof *b->e);
    b->cap = ncap;
  }
  cmp_entry *e = &b->e[b->n++];
  memset(e, 0, sizeof *e);
  e->id = id;
  return e;
}

cmp_member *cmp_add_member(cmp_doc *d, cmp_entry *e) { return append(d->a, &e->m, &e->n, &e->cap, sizeof *e->m); }

cmp_rt *cmp_add_rt(cmp_doc *d, cmp_member *m) {
  uint32_t cap = m->nrt; /* descriptions are few: grow one at a time */
  return append(d->a, &m->rt, &m->nrt, &cap, sizeof *m->rt);
}

/* ---- detection ---------------------------------------------------------------------------------------- */

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

bool cmp_is_hlo_dump(const source_file *src) {
  const char *p = src->data, *end = p + src->len;
  while (p < end) {
    if (blank(*p)) {
      p++;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
      while (p < end && *p != '\n') p++;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char *q = p + 2;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) q++;
      p = q + 2 < end ? q + 2 : end;
    } else {
      return end - p >= 9 && !memcmp(p, "HloModule", 9);
    }
  }
  return false;
}

/* ---- the text forms ----------------------------------------------------------------------------------- */

typedef enum { AT_NONE, AT_MEMBER, AT_RT, AT_REPLICA } target;

typedef struct {
  const source_file *src;
  cmp_doc *d;
  const char *module;
  cmp_block *block;   /* index-stable: blocks are only appended */
  size_t block_index;
  bool have_block, have_entry;
  target at;          /* where map text goes */
  bool closed;        /* the current member is complete (unknown indexing, KNOWN EMPTY, an MLIR map) */
  bool failed;
} text_reader;

static cmp_block *cur_block(text_reader *t) { return &t->d->b[t->block_index]; }
static cmp_entry *cur_entry(text_reader *t) {
  cmp_block *b = cur_block(t);
  return &b->e[b->n - 1];
}
static cmp_member *cur_member(text_reader *t) {
  cmp_entry *e = cur_entry(t);
  return e->n ? &e->m[e->n - 1] : NULL;
}

static size_t off(const text_reader *t, const char *p) { return (size_t)(p - t->src->data); }

static void error_at(text_reader *t, const char *p, const char *msg) {
  if (t->failed) return;
  t->failed = true;
  diag_error(t->src, off(t, p), msg);
}

static bool starts(const char *p, const char *end, const char *word) {
  size_t n = strlen(word);
  return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

static const char *skip_blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

static const char *trim_end(const char *p, const char *end) {
  while (end > p && blank(end[-1])) end--;
  return end;
}

/* The text where the current target's map goes, or NULL. */
static mrel_text *target_text(text_reader *t) {
  cmp_member *m = t->have_entry ? cur_member(t) : NULL;
  if (!m) return NULL;
  switch (t->at) {
  case AT_MEMBER: return &m->map;
  case AT_RT: return m->nrt ? &m->rt[m->nrt - 1].map : NULL;
  case AT_REPLICA: return m->has_replica ? &m->replica : NULL;
  case AT_NONE: break;
  }
  return NULL;
}

static bool text_empty(const mrel_text *x) { return !x || x->base == NULL; }

/* A map (or `unknown indexing`, `KNOWN EMPTY`) starting at P. Goes to the
 * runtime variable or replica id that waits for its map, else starts a new
 * member; COMPLETE: nothing more is appended to it. */
static void begin_map(text_reader *t, const char *p, const char *end, bool complete) {
  mrel_text *x = target_text(t);
  if (!(x && text_empty(x) && (t->at == AT_RT || t->at == AT_REPLICA))) {
    cmp_add_member(t->d, cur_entry(t));
    t->at = AT_MEMBER;
    x = &cur_member(t)->map;
  }
  *x = (mrel_text){t->src->data, off(t, p), off(t, end)};
  t->closed = complete;
}

static bool has_arrow(const char *p, const char *end) {
  for (; p + 1 < end; p++)
    if (p[0] == '-' && p[1] == '>') return true;
  return false;
}

/* One piece of map text at P (< END) on a line; returns where the next
 * piece starts (END when none), or NULL after an error. */
static const char *one_piece(text_reader *t, const char *p, const char *end) {
  if (!t->have_entry) {
    error_at(t, p, "not a golden hloidx wrote: expected a block header '# NAME (out2in, ...)' or 'operand id = N'");
    return NULL;
  }
  if (starts(p, end, "#xla.indexing_map<\"")) {
    const char *q = p + 19, *close = q;
    while (close + 1 < end && !(close[0] == '"' && close[1] == '>')) close++;
    if (close + 1 >= end) {
      error_at(t, p, "expected '\">' to close #xla.indexing_map<\"...");
      return NULL;
    }
    begin_map(t, q, close, true);
    return close + 2;
  }
  static const char *const words[] = {"unknown indexing", "KNOWN EMPTY", "UNDEFINED"};
  for (int i = 0; i < 3; i++)
    if (starts(p, end, words[i])) {
      const char *after = p + strlen(words[i]);
      begin_map(t, p, after, true);
      /* hloidx's `unknown indexing (REASON)`: the reason explains, it is
       * not compared (a parenthesis that closes the line, no map in it) */
      const char *q = skip_blanks(after, end), *last = trim_end(q, end);
      if (i == 0 && q < end && *q == '(' && last > q && last[-1] == ')' && !has_arrow(q, last)) return end;
      return after;
    }
  /* XLA's ToString concatenates the maps of an entry: a new map starts
   * where a domain's last `]` is followed by `(` */
  const char *cut = NULL;
  for (const char *q = p; q < end && !cut; q++)
    if (*q == ']') {
      const char *r = skip_blanks(q + 1, end);
      if (r < end && *r == '(') cut = r;
    }
  const char *piece_end = cut ? trim_end(p, cut) : end;
  mrel_text *x = target_text(t);
  bool waiting = x && text_empty(x) && (t->at == AT_RT || t->at == AT_REPLICA);
  if (waiting || has_arrow(p, piece_end)) {
    begin_map(t, p, piece_end, false); /* a new map */
  } else if (x && !text_empty(x) && !t->closed) {
    x->end = off(t, piece_end); /* the map goes on */
  } else {
    error_at(t, p, "expected a map ('(...) -> (...)'), 'unknown indexing' or 'KNOWN EMPTY'");
    return NULL;
  }
  return cut ? cut : end;
}

/* The map text [P, END) of one line: pieces, one after the other. */
static void map_piece(text_reader *t, const char *p, const char *end) {
  while (p && (p = skip_blanks(p, end)) < end) p = one_piece(t, p, end);
}

/* `rtJ: INSTR; MAP` (the map may follow on the next lines). */
static void rt_line(text_reader *t, const char *p, const char *end) {
  cmp_member *m = t->have_entry ? cur_member(t) : NULL;
  if (!m) {
    error_at(t, p, "a runtime variable outside a map");
    return;
  }
  const char *colon = memchr(p, ':', (size_t)(end - p));
  const char *instr = skip_blanks(colon + 1, end);
  /* the instruction text ends at the last ';' after which a map (or
   * nothing) follows: a V1 instruction text may hold ';' itself */
  const char *semi = NULL;
  for (const char *q = end; q-- > instr;) {
    if (*q != ';') continue;
    const char *r = skip_blanks(q + 1, end);
    if (r == end || *r == '(' || starts(r, end, "#xla") || starts(r, end, "KNOWN") || starts(r, end, "UNDEFINED")) {
      semi = q;
      break;
    }
  }
  if (!semi) {
    error_at(t, p, "expected ';' after the instruction of a runtime variable");
    return;
  }
  cmp_rt *rt = cmp_add_rt(t->d, m);
  rt->instr = hb_arena_strndup(t->d->a, instr, (size_t)(trim_end(instr, semi) - instr));
  t->at = AT_RT;
  t->closed = false;
  map_piece(t, skip_blanks(semi + 1, end), end);
}

/* `# NAME (out2in, output N[, ...])[: TAIL]`; false when the line is not
 * a block header (a comment). */
static bool header_line(text_reader *t, const char *p, const char *end) {
  const char *name = skip_blanks(p + 1, end), *sp = name;
  while (sp < end && *sp != ' ' && *sp != '(') sp++;
  if (sp == name || sp + 1 >= end || sp[0] != ' ' || sp[1] != '(') return false;
  const char *items = sp + 2, *close = memchr(items, ')', (size_t)(end - items));
  if (!close) return false;
  bool o2i = starts(items, close, "out2in");
  if (!o2i && !starts(items, close, "in2out")) return false;
  const char *q = items + 6;
  if (q != close && *q != ',') return false;
  long id = -1;
  int layout = CMP_LOGICAL;
  while (q < close) {
    const char *item = skip_blanks(q + 1, close), *comma = memchr(item, ',', (size_t)(close - item));
    const char *iend = comma ? comma : close;
    const char *num = NULL;
    if (starts(item, iend, "output ")) num = item + 7;
    else if (starts(item, iend, "operand ")) num = item + 8;
    else if (starts(item, iend, "input operand ")) num = item + 14;
    if (num) id = strtol(num, NULL, 10);
    else if (starts(item, iend, "physical")) layout = CMP_PHYSICAL;
    else if (starts(item, iend, "tiled")) layout = CMP_TILED;
    q = iend;
  }
  cmp_block *b = cmp_add_block(t->d);
  b->module = t->module;
  b->instr = hb_arena_strndup(t->d->a, name, (size_t)(sp - name));
  b->o2i = o2i;
  b->id = id;
  b->layout = layout;
  b->offset = off(t, p);
  const char *tail = skip_blanks(close + 1, end);
  if (tail < end && *tail == ':') {
    tail = skip_blanks(tail + 1, end);
    b->tail = hb_arena_strndup(t->d->a, tail, (size_t)(end - tail));
  }
  t->block_index = t->d->n - 1;
  t->have_block = true;
  t->have_entry = false;
  t->at = AT_NONE;
  return true;
}

static void text_line(text_reader *t, const char *line, const char *end) {
  const char *p = skip_blanks(line, end);
  end = trim_end(p, end);
  if (p == end) return;
  if (starts(p, end, "## module ")) {
    const char *name = skip_blanks(p + 10, end), *e = name;
    while (e < end && *e != ' ') e++;
    t->module = hb_arena_strndup(t->d->a, name, (size_t)(e - name));
    t->have_block = t->have_entry = false;
    return;
  }
  if (*p == '#' && !starts(p, end, "#xla.")) {
    if (!starts(p, end, "##")) header_line(t, p, end);
    return; /* other '#' lines are comments */
  }
  if (starts(p, end, "//")) return;
  if (starts(p, end, "operand id = ") || starts(p, end, "output id = ")) {
    const char *num = p + (p[1] == 'p' ? 13 : 12);
    char *stop;
    long id = strtol(num, &stop, 10);
    if ((const char *)stop == num) {
      error_at(t, num, "expected the entry's number after 'operand id ='");
      return;
    }
    if (!t->have_block) {
      /* no header: the one block a pinned run prints */
      cmp_block *b = cmp_add_block(t->d);
      b->module = t->module;
      b->offset = off(t, p);
      t->block_index = t->d->n - 1;
      t->have_block = true;
    }
    cmp_entry *e = cmp_add_entry(t->d, cur_block(t), id);
    e->offset = off(t, p);
    t->have_entry = true;
    t->at = AT_NONE;
    t->closed = false;
    map_piece(t, skip_blanks(stop, end), end);
    return;
  }
  if (starts(p, end, "runtime variables:")) return;
  if (starts(p, end, "rt") && p + 2 < end && p[2] >= '0' && p[2] <= '9') {
    const char *q = p + 2;
    while (q < end && *q >= '0' && *q <= '9') q++;
    if (q < end && *q == ':') {
      rt_line(t, p, end);
      return;
    }
  }
  if (starts(p, end, "replica id:")) {
    cmp_member *m = t->have_entry ? cur_member(t) : NULL;
    if (!m) {
      error_at(t, p, "a replica id outside a map");
      return;
    }
    m->has_replica = true;
    m->replica = (mrel_text){NULL, 0, 0};
    t->at = AT_REPLICA;
    t->closed = false;
    map_piece(t, skip_blanks(p + 11, end), end);
    return;
  }
  map_piece(t, p, end);
}

static int read_text(const source_file *src, cmp_doc *d) {
  text_reader t = {.src = src, .d = d};
  const char *p = src->data, *end = p + src->len;
  while (p < end && !t.failed) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    text_line(&t, p, eol);
    p = nl ? nl + 1 : end;
  }
  return t.failed;
}

/* ---- JSON ------------------------------------------------------------------------------------------- */

static mrel_text json_text(const json_value *map) {
  const json_value *x = json_get(map, "text");
  if (!x || x->kind != JSON_STRING) return (mrel_text){"unknown indexing", 0, 16};
  return (mrel_text){x->str, 0, x->len};
}

static void json_member(cmp_doc *d, cmp_entry *e, const json_value *map) {
  cmp_member *m = cmp_add_member(d, e);
  m->map = json_text(map);
  const json_value *descs = json_get(map, "descriptions");
  for (size_t i = 0; descs && descs->kind == JSON_ARRAY && i < descs->n; i++) {
    const json_value *instr = json_get(descs->items[i], "instr"), *name = json_get(descs->items[i], "instr_name");
    cmp_rt *rt = cmp_add_rt(d, m);
    rt->instr = instr && instr->kind == JSON_STRING ? instr->str : "";
    rt->instr_name = name && name->kind == JSON_STRING ? name->str : NULL;
    rt->map = json_text(json_get(descs->items[i], "map"));
  }
  const json_value *rep = json_get(map, "replica_id");
  if (rep && rep->kind == JSON_OBJECT) {
    m->has_replica = true;
    m->replica = json_text(rep);
  }
}

static const char *json_cstr_or(const json_value *v, const char *dflt) {
  return v && v->kind == JSON_STRING ? v->str : dflt;
}

static void json_blocks(cmp_doc *d, const char *module, const json_value *in, bool o2i, int layout) {
  const json_value *blocks = json_get(in, o2i ? "out2in" : "in2out");
  for (size_t i = 0; blocks && blocks->kind == JSON_ARRAY && i < blocks->n; i++) {
    const json_value *blk = blocks->items[i];
    int64_t id = -1;
    json_int(json_get(blk, o2i ? "output" : "operand"), &id);
    cmp_block *b = cmp_add_block(d);
    b->module = module;
    b->instr = json_cstr_or(json_get(in, "name"), "");
    b->o2i = o2i;
    b->id = (long)id;
    b->layout = layout;
    b->offset = blk->offset;
    const json_value *err = json_get(blk, "error");
    if (err && err->kind == JSON_STRING) b->tail = err->str;
    const json_value *entries = json_get(blk, o2i ? "operands" : "outputs");
    for (size_t k = 0; entries && entries->kind == JSON_ARRAY && k < entries->n; k++) {
      int64_t eid = (int64_t)k;
      json_int(json_get(entries->items[k], o2i ? "operand" : "output"), &eid);
      cmp_entry *e = cmp_add_entry(d, b, (long)eid);
      e->offset = entries->items[k]->offset;
      const json_value *maps = json_get(entries->items[k], "maps");
      for (size_t j = 0; maps && maps->kind == JSON_ARRAY && j < maps->n; j++) json_member(d, e, maps->items[j]);
    }
  }
}

static int read_json(const source_file *src, cmp_doc *d) {
  size_t at;
  char msg[160];
  json_value *root = json_parse(d->a, src->data, src->len, &at, msg, sizeof msg);
  if (!root) {
    char full[200];
    snprintf(full, sizeof full, "not valid JSON: %s", msg);
    diag_error(src, at, full);
    return 1;
  }
  const json_value *modules = json_get(root, "modules");
  if (!modules || modules->kind != JSON_ARRAY) {
    diag_error(src, root->offset, "not an hloidx JSON document: no \"modules\" array");
    return 1;
  }
  const char *lay = json_cstr_or(json_get(root, "layout"), "logical");
  int layout = !strcmp(lay, "physical") ? CMP_PHYSICAL : !strcmp(lay, "tiled") ? CMP_TILED : CMP_LOGICAL;
  for (size_t i = 0; i < modules->n; i++) {
    const char *module = json_cstr_or(json_get(modules->items[i], "name"), NULL);
    const json_value *instrs = json_get(modules->items[i], "instructions");
    for (size_t k = 0; instrs && instrs->kind == JSON_ARRAY && k < instrs->n; k++) {
      json_blocks(d, module, instrs->items[k], true, layout);
      json_blocks(d, module, instrs->items[k], false, layout);
    }
  }
  return 0;
}

int cmp_read_golden(const source_file *src, cmp_doc *d) {
  const char *p = src->data, *end = p + src->len;
  while (p < end && blank(*p)) p++;
  if (p < end && *p == '{') return read_json(src, d);
  return read_text(src, d);
}
