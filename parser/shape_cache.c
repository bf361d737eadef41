/* The shape cache: shape text -> parsed shape, the lexical memo behind
 * the grammar's SHAPE_TOK (hlo_parser.y's header).
 *
 * Dumps repeat the same shape text over and over (operand shapes, tuple
 * types of get-tuple-element operands), within a module and from one
 * module to the next. A shape's text always denotes the same shape, so the
 * first parse of a text is remembered and a later occurrence of the same
 * bytes (delimited by a quick byte scan) reuses it. The scan is
 * conservative: anything unusual (comments in odd places, a layout
 * separated from its ']', nested braces in a layout) makes it give up, and
 * the grammar reads the text.
 *
 * An entry holds two shapes: the one of the current module (valid while
 * its generation is the current one: starting a module is O(1)), and a
 * copy kept for the whole parse in parse_ctx.scache_arena. A text met
 * again in a later module takes the kept shape, which is much cheaper than
 * parsing it again. When each module is freed once handed over
 * (hlo_parse_file_each: parse_ctx.borrow_kept), the module points to the
 * kept shape itself, since the kept copies are freed only after it (at a
 * later module's start, or at the end of the parse); otherwise (modules
 * kept by hlo_parse_file) it gets a copy in its own arena. The diagnostic
 * re-parse reads every shape with the grammar (parse_ctx.coarse off).
 *
 * An array shape the grammar reads is built in a scratch arena
 * (pc_shape_arena) and then replaced by the entry of its text
 * (pc_shape_read): the module holds one shape per text, read once or
 * many times, and a module that borrows the kept copies holds none of
 * its own. */
#include <stdlib.h>
#include <string.h>

#include "byte_scan.h"
#include "parse_ctx.h"

/* Past this many bytes of kept copies the cache starts over (at a module
 * boundary), so that memory stays bounded on inputs with few repeats. */
#define KEPT_BYTES_MAX ((size_t)16 << 20)

/* Where an array shape's text ends when its ']' ends just before AFTER:
 * past a layout written right there, at AFTER, or NULL when the text is
 * unusual (the grammar decides then). */
static const char *array_end(parse_ctx *P, const char *after) {
  const char *p = after;
  if (*p == '{') {
    char c = p[1];
    if (pc_blank(c) || c == '/' || c == '-') {
      /* "{ 1,0}", "{-1}", a comment after the brace: the grammar looks past
       * blanks and comments for a layout (layout_brace_follows in hlo_yylex.c) */
      hlo_lexer lx = {P->data, p + 1, P->data + P->len};
      const char *at;
      c = hlo_lex_peek(&lx, &at);
      return (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '}' ? NULL : after;
    }
    if (!((c >= '0' && c <= '9') || c == ':' || c == '}')) return after;
    for (p = bs_skip_layout_text(p + 1, P->data + P->len);; p++) {
      c = *p;
      if (c == '}') return p + 1;
      if (c == '{' || c == '\0' || c == '/' || c == '\n' || c == '"') return NULL;
    }
  }
  /* a layout after blanks is still the shape's layout (§9.3): give up */
  const char *q = pc_skip_blanks(p);
  if (*q == '/') return NULL;
  if (*q == '{') {
    const char *r = pc_skip_blanks(q + 1);
    char c = *r;
    if ((c >= '0' && c <= '9') || c == '-' || c == ':' || c == '}' || c == '/') return NULL;
  }
  return after;
}

/* End of an array shape's text "f32[2,3]{1,0:T(8,128)}" starting at P, or
 * NULL when the text is unusual. */
static const char *scan_array(parse_ctx *P, const char *p) {
  const char *w = p, *lim = P->data + P->len;
  /* (a block at a time: byte loops of varying length mispredict their end) */
  p = bs_skip_lower_digits(p, lim);
  if (p == w || *p != '[') return NULL;
  p = bs_skip_dims(p + 1, lim);
  if (*p != ']') return NULL;
  return array_end(P, p + 1);
}

/* End of a tuple shape's text: its matching ')', or NULL at a quote or the
 * end. Only the extent matters: a cache hit means this exact text was
 * parsed as a shape before. Bytes other than ( ) " NUL are skipped a block
 * at a time (byte_scan.h; LIM is the buffer's final NUL). */
static const char *scan_tuple(const char *p, const char *lim) {
  int depth = 0;
  for (;; p++) {
    p = bs_skip_to3(p, lim, '(', ')', '"');
    char c = *p;
    if (c == '(') depth++;
    else if (c == ')') {
      if (--depth == 0) return p + 1;
    } else if (c == '\0' || c == '"') {
      return NULL;
    }
  }
}

void pc_shape_cache_reset(parse_ctx *P) {
  P->scache_gen++;
  if (P->scache_arena && hb_arena_used(P->scache_arena) > KEPT_BYTES_MAX) {
    memset(P->scache, 0, (P->scache_mask + 1) * sizeof *P->scache);
    P->scache_n = 0;
    hb_arena_free(P->scache_arena);
    P->scache_arena = NULL;
  }
}

/* ---- deep copies of shapes ---------------------------------------------------- */

static const hlo_shape *shape_copy(hb_arena *a, const hlo_shape *s);

static const int64_t *ints_copy(hb_arena *a, const int64_t *v, int n) {
  return v ? hb_arena_dup(a, v, (size_t)n * sizeof *v) : NULL;
}

static const bool *flags_copy(hb_arena *a, const bool *f, int n) {
  return f && f != pc_zero_flags ? hb_arena_dup(a, f, (size_t)n) : f;
}

/* Every pointer of hlo_layout (hlo_ir.h) is followed here. */
static void layout_copy(hb_arena *a, hlo_layout *l) {
  l->minor_to_major = ints_copy(a, l->minor_to_major, l->n_minor_to_major);
  if (l->tiles) {
    hlo_tile *t = hb_arena_dup(a, l->tiles, (size_t)l->n_tiles * sizeof *t);
    for (int i = 0; i < l->n_tiles; i++) t[i].dims = ints_copy(a, t[i].dims, t[i].n_dims);
    l->tiles = t;
  }
  if (l->split_configs) {
    hlo_split_config *c = hb_arena_dup(a, l->split_configs, (size_t)l->n_split_configs * sizeof *c);
    for (int i = 0; i < l->n_split_configs; i++) c[i].offsets.v = ints_copy(a, c[i].offsets.v, c[i].offsets.n);
    l->split_configs = c;
  }
  if (l->physical_shape) l->physical_shape = shape_copy(a, l->physical_shape);
  if (l->dim_levels) l->dim_levels = hb_arena_dup(a, l->dim_levels, (size_t)l->n_dim_levels * sizeof *l->dim_levels);
}

/* S and everything it points to, in A. (Recursion: tuples nest at most
 * HLO_MAX_NESTING deep.) */
static const hlo_shape *shape_copy(hb_arena *a, const hlo_shape *s) {
  hlo_shape *c = hb_arena_dup(a, s, sizeof *s);
  c->dims = ints_copy(a, s->dims, s->rank);
  c->dynamic = flags_copy(a, s->dynamic, s->rank);
  c->unbounded = flags_copy(a, s->unbounded, s->rank);
  if (s->elems) {
    const hlo_shape **e = hb_arena_array(a, (size_t)s->n_elems, sizeof *e);
    for (int i = 0; i < s->n_elems; i++) e[i] = shape_copy(a, s->elems[i]);
    c->elems = e;
  }
  layout_copy(a, &c->layout);
  return c;
}

/* R[0..n) moved to R[1..n], with assignments written out: a memmove (or
 * a loop, which the compiler turns into one) is a library call that costs
 * more than the few moves. */
_Static_assert(PC_RECENT_SHAPES == 2, "shift_down moves 2 entries");
static inline void shift_down(pc_recent_shape *r, int n) {
  if (n == 1) r[1] = r[0];
}

/* The deepest nesting of brackets in a shape's text. */
static uint32_t text_depth(const char *s, uint32_t len) {
  uint32_t d = 0, max = 0;
  for (uint32_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{') max = ++d > max ? d : max;
    else if ((c == ')' || c == ']' || c == '}') && d) d--;
  }
  return max;
}

/* A hit whose brackets, open inside the brackets open here, would pass the
 * nesting limit: the grammar reads the text instead, and reports the
 * limit at the bracket that passes it, as it would without the cache (a
 * shape one level deeper on each line would otherwise pass any limit). */
static bool too_deep(const parse_ctx *P, uint32_t depth) { return (size_t)P->depth + depth > HLO_MAX_NESTING; }

/* The arrays and tuples found last (most recent first). An instruction's
 * operands often repeat its own shape, and a run of get-tuple-element
 * repeats one long tuple text. When the text at START begins with the
 * bytes of one of them, the scan and the hash would find that same entry
 * -- for a tuple always (no tuple text is a proper prefix of another: its
 * parentheses balance only at its end), for an array when the bytes after
 * it do not extend it (array_end) -- so a comparison is enough. The first
 * eight bytes are compared first: most candidates differ there. */
static const hlo_shape *recent(parse_ctx *P, const char *start, bool tuple, const char **end) {
  pc_recent_shape *r = P->scache_recent[tuple];
  size_t room = (size_t)(P->data + P->len - start);
  uint64_t head = 0;
  if (room >= 8) memcpy(&head, start, 8);
  for (int i = 0; i < PC_RECENT_SHAPES; i++) {
    pc_recent_shape *m = &r[i];
    if (m->gen != P->scache_gen || m->len > room) continue;
    if (m->len >= 8 && room >= 8) {
      uint64_t mh;
      memcpy(&mh, m->text, 8);
      if (mh != head) continue;
    }
    if (!hlo_same_bytes(start, m->text, m->len)) continue;
    if (too_deep(P, m->depth)) return NULL;
    const char *e = start + m->len;
    if (!tuple && e[-1] == ']' && array_end(P, e) != e) continue;
    m->text = start; /* (see pc_shape_cache_find) */
    if (i) { /* most recent first */
      pc_recent_shape hit = *m;
      shift_down(r, i);
      r[0] = hit;
    }
    *end = e;
    return r[0].shape;
  }
  return NULL;
}

static void remember(parse_ctx *P, const pc_shape_ent *e, bool tuple) {
  pc_recent_shape *r = P->scache_recent[tuple];
  shift_down(r, PC_RECENT_SHAPES - 1);
  r[0] = (pc_recent_shape){e->text, e->len, e->gen, e->depth, e->shape};
}

/* The entry of TEXT, or the empty slot where it would go (text NULL). A
 * text of at most PC_SHAPE_HEAD bytes is compared with the entry's head:
 * the occurrence the entry points to is often out of the cache. */
static pc_shape_ent *slot_of(parse_ctx *P, const char *text, uint32_t len, uint32_t h) {
  for (size_t i = h & P->scache_mask;; i = (i + 1) & P->scache_mask) {
    pc_shape_ent *e = &P->scache[i];
    if (!e->text) return e;
    if (e->hash == h && e->len == len &&
        hlo_same_bytes(len <= PC_SHAPE_HEAD ? e->head : e->text, text, len))
      return e;
  }
}

/* A table of N empty entries, each on its own cache line (64-bit). */
static pc_shape_ent *table_new(size_t n) {
  size_t bytes = (n * sizeof(pc_shape_ent) + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
  pc_shape_ent *t = aligned_alloc(64, bytes);
  if (t) memset(t, 0, bytes);
  return t;
}

/* The entry of LOC's text, created (empty: text NULL) when new; NULL when
 * the text is too long to remember or the table cannot be had. */
static pc_shape_ent *entry_of(parse_ctx *P, pc_loc loc, uint32_t *hash) {
  if (loc.last - loc.first > 4096) return NULL;
  if (!P->scache) {
    P->scache_mask = 4095;
    P->scache = table_new(P->scache_mask + 1);
    if (!P->scache) return NULL;
  }
  if (!P->scache_arena) P->scache_arena = hb_arena_new();
  const char *text = P->data + loc.first;
  uint32_t len = (uint32_t)(loc.last - loc.first);
  *hash = hlo_hash_inline(text, len);
  return slot_of(P, text, len, *hash);
}

/* Fills the empty entry E with this module's shape S and KEPT, its copy in
 * parse_ctx.scache_arena (E is not valid after: the table may grow). */
static void insert(parse_ctx *P, pc_shape_ent *e, pc_loc loc, uint32_t h, const hlo_shape *s,
                   const hlo_shape *kept) {
  const char *text = P->data + loc.first;
  uint32_t len = (uint32_t)(loc.last - loc.first);
  *e = (pc_shape_ent){text, len, h, P->scache_gen, text_depth(text, len), s, kept, {0}};
  memcpy(e->head, text, len < PC_SHAPE_HEAD ? len : PC_SHAPE_HEAD);
  if (++P->scache_n * 2 > P->scache_mask + 1) {
    size_t n = (P->scache_mask + 1) * 2, oldn = P->scache_mask + 1;
    pc_shape_ent *old = P->scache, *nw = table_new(n);
    if (!nw) return;
    P->scache = nw;
    P->scache_mask = n - 1;
    for (size_t i = 0; i < oldn; i++)
      if (old[i].text) *slot_of(P, old[i].text, old[i].len, old[i].hash) = old[i];
    free(old);
  }
}

/* This module's shape of entry E (from the kept copy, the first time in
 * the module). */
static const hlo_shape *module_shape(parse_ctx *P, pc_shape_ent *e) {
  if (e->gen != P->scache_gen) {
    e->shape = P->borrow_kept ? e->kept : shape_copy(P->a, e->kept);
    e->gen = P->scache_gen;
  }
  return e->shape;
}

void pc_shape_cache_put(parse_ctx *P, const hlo_shape *s, pc_loc loc) {
  if (!P->coarse || !s) return;
  uint32_t h;
  pc_shape_ent *e = entry_of(P, loc, &h);
  if (!e) return;
  if (!e->text) insert(P, e, loc, h, s, shape_copy(P->scache_arena, s));
  else if (e->gen != P->scache_gen) { /* known from an earlier module: this module's own shape now */
    e->shape = s;
    e->gen = P->scache_gen;
  }
}

/* An array shape the grammar read, into the module's arena A: what
 * pc_shape_arena held (the shape, its dims and flags, minor_to_major);
 * the rest of its layout (tiles, split configs, dim levels, the physical
 * shape, read before) is in A already. */
static const hlo_shape *from_scratch(hb_arena *a, const hlo_shape *s) {
  hlo_shape *c = hb_arena_dup(a, s, sizeof *s);
  c->dims = ints_copy(a, s->dims, s->rank);
  c->dynamic = flags_copy(a, s->dynamic, s->rank);
  c->unbounded = flags_copy(a, s->unbounded, s->rank);
  c->layout.minor_to_major = ints_copy(a, s->layout.minor_to_major, s->layout.n_minor_to_major);
  return c;
}

hb_arena *pc_shape_arena(parse_ctx *P) {
  if (!P->stmp) P->stmp = hb_arena_new();
  return P->stmp;
}

const hlo_shape *pc_shape_read(parse_ctx *P, const hlo_shape *s, pc_loc loc) {
  uint32_t h;
  pc_shape_ent *e = entry_of(P, loc, &h);
  const hlo_shape *r;
  if (e && e->text) { /* read before: the diagnostic parse, or a text the lexer's scan gave up on */
    r = module_shape(P, e);
  } else if (e && P->borrow_kept) { /* the module uses the kept copy, as it would in a later module */
    r = shape_copy(P->scache_arena, s);
    insert(P, e, loc, h, r, r);
  } else {
    r = from_scratch(P->a, s);
    if (e) insert(P, e, loc, h, r, shape_copy(P->scache_arena, r));
  }
  hb_arena_reset(P->stmp); /* (S and its arrays: every array shape read is done with them here) */
  return r;
}

const hlo_shape *pc_shape_cache_find(parse_ctx *P, const char *start, bool tuple, const char **end) {
  if (!P->scache_n) return NULL;
  const hlo_shape *s = recent(P, start, tuple, end);
  if (s) return s;
  if (tuple) {
    char c = *pc_skip_blanks(start + 1);
    if (!((c >= 'a' && c <= 'z') || c == '(' || c == '/')) return NULL;
  }
  const char *e = tuple ? scan_tuple(start, P->data + P->len) : scan_array(P, start);
  if (!e || e - start > 4096) return NULL;
  uint32_t len = (uint32_t)(e - start), h = hlo_hash_inline(start, len);
  pc_shape_ent *slot = slot_of(P, start, len, h);
  if (!slot->text || too_deep(P, slot->depth)) return NULL;
  module_shape(P, slot); /* (the first use in this module takes a copy) */
  /* The entry's text is now this occurrence, which is in the cache, while
   * the first one may be megabytes back: the comparisons with the next
   * occurrence read these bytes (any copy of the text will do). */
  slot->text = start;
  remember(P, slot, tuple);
  *end = e;
  return slot->shape;
}

void pc_shape_cache_free(parse_ctx *P) {
  if (P->scache_arena) hb_arena_free(P->scache_arena);
  P->scache_arena = NULL;
  free(P->scache);
  P->scache = NULL;
  P->scache_mask = 0;
  P->scache_n = 0;
}
