/* hloidx --layout: the physical layout report of HLO tensors.
 *
 * Which tensors: the result and the operands of the instructions the
 * selection options pick (--instr, --match, --opcode; select.h; default
 * the ENTRY root), or with --all the result of every instruction of every
 * computation, followed by the module's summary; --summary prints the
 * summary alone. Tuple-shaped values are reported leaf by leaf ("{1,0}" is
 * the leaf's index path).
 *
 * Per array (all numbers come from analysis/tiled_layout.h):
 *
 *   result: f32[3,5]{1,0:T(2,2)}
 *     layout:        {1,0:T(2,2)}
 *     memory space:  S(0) device default (HBM)
 *     physical dims: [3,5] (logical dims 0,1, major to minor)
 *     tiling:        T(2,2) -> [2,3,2,2]
 *     tiled shape:   [2,3,2,2], strides [12,4,2,1]
 *     elements:      15 logical, 24 physical, 9 padding, overhead 60.0%
 *     bytes:         96 (32 bits per element), 60 for the logical elements
 *     shape:stride:  ((2,2),(2,3)):((2,12),(1,4))
 *     offset map:    <logical index -> linear element offset>
 *     tiled map:     <logical index -> tiled coordinates>
 *     inverse map:   <tiled coordinates -> logical index, padding excluded>
 *
 * Maps are printed on one line in XLA's text form (indexing-semantics.md
 * §2.3). A tiling level whose tile is longer than the shape's rank shows the
 * shape it is applied to ("T(128) on [1] -> [1,128]"); with L(n) the
 * elements line also shows the tiled count before the alignment. Then the
 * answers of --at, --offset and --grid (layout_query.h); and after a picked
 * instruction's report, with --kernel-layout, whether that layout gives
 * the offsets of its result (or of --operand K).
 *
 * Summary (--all, --summary), per module: the number of buffers and their
 * bytes per memory space, then the ten padded buffers with the worst
 * padding overhead (ties: more padding bytes first, then report order) and
 * the ten with the most padding bytes (ties: larger overhead, then report
 * order). Buffers (analysis/buffers.h): the array values of ENTRY and of
 * the computations it reaches through control flow, less those that share
 * another value's buffer (tuple, get-tuple-element, bitcast, while, the
 * parameters of called computations, ...); values of fused computations
 * are not buffers. Padding bytes = bytes - the bytes of the logical
 * elements.
 *
 * Errors: an array whose layout cannot be analysed (an unbounded dimension,
 * '*' as the last tile entry, an overflowing size) is reported as
 * FILE:LINE:COL: error: at its instruction, its block says "error: ...",
 * and the exit status is 1; the report goes on. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "buffers.h"
#include "commands.h"
#include "hlo_ir.h"
#include "layout_query.h"
#include "map_print.h"
#include "../parser/base/oom.h"
#include "output.h"
#include "select.h"
#include "source.h"
#include "ss_xla.h"
#include "../parser/base/strbuf.h"
#include "tiled_layout.h"

#define WORST_COUNT 10
#define MAX_PATH 64 /* tuple nesting the buffer rules look at (they read the first index) */

__extension__ typedef unsigned __int128 u128;

/* ---- analysed shapes, cached by their text ------------------------------------------ */

typedef struct {
  char *key;     /* the shape as printed (layout included when written) */
  bool data;     /* holds array elements (false: token, opaque) */
  bool ok;       /* analysed (false: text is the error message) */
  char *text;    /* the report lines of the array */
  tl_layout sz;  /* sizes only (logical_elems, physical_elems, bytes, logical_bytes, memory_space) */
  size_t nbuf;   /* --all: buffers of this shape in the current module */
} entry;

typedef struct {
  entry **slots;
  size_t cap, n;
} cache;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static entry **cache_slot(cache *c, const char *key) {
  size_t i = (size_t)hash_str(key) & (c->cap - 1);
  while (c->slots[i] && strcmp(c->slots[i]->key, key) != 0) i = (i + 1) & (c->cap - 1);
  return &c->slots[i];
}

static void cache_grow(cache *c) {
  entry **old = c->slots;
  size_t oldcap = c->cap;
  c->cap = oldcap ? oldcap * 2 : 256;
  c->slots = hb_calloc(c->cap, sizeof *c->slots);
  for (size_t i = 0; i < oldcap; i++)
    if (old[i]) *cache_slot(c, old[i]->key) = old[i];
  free(old);
}

static void cache_free(cache *c) {
  for (size_t i = 0; i < c->cap; i++)
    if (c->slots[i]) {
      free(c->slots[i]->key);
      free(c->slots[i]->text);
      free(c->slots[i]);
    }
  free(c->slots);
  memset(c, 0, sizeof *c);
}

static char *take_text(hb_strbuf *b) {
  char *s = hb_malloc(b->len + 1);
  memcpy(s, hb_sb_str(b), b->len + 1);
  return s;
}

static void put_dims(hb_strbuf *b, const int64_t *v, int n) {
  hb_sb_putc(b, '[');
  for (int i = 0; i < n; i++) {
    if (i) hb_sb_putc(b, ',');
    hb_sb_put_i64(b, v[i]);
  }
  hb_sb_putc(b, ']');
}

static void put_tile(hb_strbuf *b, const hlo_tile *t) {
  hb_sb_puts(b, "T(");
  for (int j = 0; j < t->n_dims; j++) {
    if (j) hb_sb_putc(b, ',');
    if (t->dims[j] == HLO_TILE_COMBINE) hb_sb_putc(b, '*');
    else hb_sb_put_i64(b, t->dims[j]);
  }
  hb_sb_putc(b, ')');
}

static void put_map(hb_strbuf *b, const char *label, const imap *m) {
  static const map_print_opts one_line = {false, 0};
  hb_sb_puts(b, label);
  map_print(b, m, &one_line);
  hb_sb_putc(b, '\n');
}

/* The report lines of one analysed array; false with *err on a map error. */
static bool render(hb_strbuf *b, const hlo_shape *s, const tl_layout *l, hb_arena *a, ae_ctx *ctx, const hloidx_options *o,
                   tl_error *err) {
  char tmp[256];
  size_t need = hlo_layout_format(s, tmp, sizeof tmp);
  char *lay = need < sizeof tmp ? tmp : hb_arena_alloc(a, need + 1);
  if (lay != tmp) hlo_layout_format(s, lay, need + 1);
  hb_sb_printf(b, "    layout:        %s%s\n", lay, s->layout.explicit_layout ? "" : " (default)");
  hb_sb_printf(b, "    memory space:  S(%" PRId64 ") %s\n", l->memory_space, tl_memory_space_name(l->memory_space));

  hb_sb_puts(b, "    physical dims: ");
  int64_t *pd = hb_arena_array(a, (size_t)l->rank + 1, sizeof *pd);
  for (int k = 0; k < l->rank; k++) pd[k] = l->dims[l->phys_order[k]];
  put_dims(b, pd, l->rank);
  if (l->rank == 0) {
    hb_sb_puts(b, " (scalar)\n");
  } else {
    hb_sb_puts(b, " (logical dims ");
    for (int k = 0; k < l->rank; k++) hb_sb_printf(b, "%s%d", k ? "," : "", l->phys_order[k]);
    hb_sb_puts(b, ", major to minor)\n");
  }

  hb_sb_puts(b, "    tiling:        ");
  if (l->nlevels == 0) hb_sb_puts(b, "none");
  for (int v = 0; v < l->nlevels; v++) {
    const tl_level *lv = &l->levels[v];
    if (v) hb_sb_puts(b, ", ");
    put_tile(b, &s->layout.tiles[lv->tile_index]);
    if (lv->nimplicit) {
      hb_sb_puts(b, " on ");
      put_dims(b, lv->in, lv->nin);
    }
    hb_sb_puts(b, " -> ");
    put_dims(b, lv->out, lv->nout);
  }
  hb_sb_putc(b, '\n');

  hb_sb_puts(b, "    tiled shape:   ");
  put_dims(b, l->tiled, l->ntiled);
  hb_sb_puts(b, ", strides ");
  put_dims(b, l->strides, l->ntiled);
  hb_sb_putc(b, '\n');

  hb_sb_printf(b, "    elements:      %" PRId64 " logical, ", l->logical_elems);
  if (l->alignment != 1)
    hb_sb_printf(b, "%" PRId64 " tiled, %" PRId64 " physical with L(%" PRId64 "), ", l->tiled_elems, l->physical_elems,
              l->alignment);
  else
    hb_sb_printf(b, "%" PRId64 " physical, ", l->physical_elems);
  hb_sb_printf(b, "%" PRId64 " padding, overhead ", l->physical_elems - l->logical_elems);
  tl_overhead_print(b, l);
  hb_sb_putc(b, '\n');

  hb_sb_printf(b, "    bytes:         %" PRId64 " (%" PRId64 " bits per element", l->bytes, l->elem_bits);
  if (l->explicit_elem_bits) hb_sb_printf(b, ", E(%" PRId64 ")", l->elem_bits);
  else if (hlo_elem_type_bits(s->type) < l->elem_bits)
    hb_sb_printf(b, ": %d-bit %s rounded up to whole bytes without E(n)", hlo_elem_type_bits(s->type),
              hlo_elem_type_name(s->type));
  hb_sb_printf(b, "), %" PRId64 " for the logical elements\n", l->logical_bytes);

  tl_shape_stride f;
  if (!tl_shape_stride_form(a, ctx, l, &f, err)) return false;
  hb_sb_puts(b, "    shape:stride:  ");
  tl_shape_stride_print(b, &f);
  hb_sb_putc(b, '\n');

  imap *m;
  if (!(m = tl_logical_to_offset(a, ctx, l, err))) return false;
  put_map(b, "    offset map:    ", m);
  if (!(m = tl_logical_to_tiled(a, ctx, l, err))) return false;
  put_map(b, "    tiled map:     ", m);
  if (!(m = tl_tiled_to_logical(a, ctx, l, err))) return false;
  put_map(b, "    inverse map:   ", m);
  if (lq_any(o)) {
    ss_error se;
    lq_target t = {ss_from_xla(a, ctx, l, &se), l};
    lq_answer(b, a, o, &t, 4);
  }
  return true;
}

typedef struct {
  const hloidx_options *o;
  source_file *src;
  const hlo_module *module; /* the module being reported */
  ae_ctx *ctx;
  hb_arena *scratch;
  cache shapes;
  hb_strbuf out;
  int rc;
  /* --all: the current module's buffers, counted by shape as they come
   * (the summary's sums by memory space), and of the padded ones only the
   * first WORST_COUNT of each of the summary's two lists: a module of
   * 100,000 buffers holds no record per buffer */
  size_t nbuffers, npadded;
  entry **touched; /* shapes with nbuf > 0 */
  size_t ntouched, captouched;
  struct value {
    const hlo_instr *instr;
    char *path; /* "" or " {1,0}" (malloc'd) */
    const entry *e;
    size_t seq; /* report order */
  } top[2][WORST_COUNT]; /* by overhead, by padding bytes */
  size_t ntop[2];
} run;

static void flush_out(run *r) {
  output_write(r->out.data, r->out.len);
  hb_sb_reset(&r->out);
}

static entry *analyse(run *r, const hlo_shape *s) {
  char tmp[512];
  size_t need = hlo_shape_format(s, tmp, sizeof tmp);
  char *key = hb_malloc(need + 1);
  hlo_shape_format(s, key, need + 1);
  if ((r->shapes.n + 1) * 2 > r->shapes.cap) cache_grow(&r->shapes);
  entry **slot = cache_slot(&r->shapes, key);
  if (*slot) {
    free(key);
    return *slot;
  }
  entry *e = hb_calloc(1, sizeof *e);
  e->key = key;
  hb_arena_reset(r->scratch);
  tl_layout l;
  tl_error err;
  hb_strbuf b = HB_STRBUF_INIT;
  if (tl_analyze(r->scratch, s, &l, &err)) {
    e->data = true;
    e->ok = render(&b, s, &l, r->scratch, r->ctx, r->o, &err);
    e->sz.logical_elems = l.logical_elems;
    e->sz.physical_elems = l.physical_elems;
    e->sz.bytes = l.bytes;
    e->sz.logical_bytes = l.logical_bytes;
    e->sz.memory_space = l.memory_space;
  } else {
    e->data = err.status != TL_NOT_ARRAY;
    e->ok = err.status == TL_NOT_ARRAY;
  }
  if (e->ok && e->data) {
    e->text = take_text(&b);
  } else if (e->ok) {
    e->text = hb_malloc(32);
    snprintf(e->text, 32, "    no array data\n");
  } else {
    size_t n = strlen(err.message) + 1;
    e->text = hb_malloc(n);
    memcpy(e->text, err.message, n);
  }
  hb_sb_free(&b);
  r->shapes.n++;
  *slot = e;
  return e;
}

static void record_buffer(run *r, const hlo_instr *in, const char *path, entry *e);

/* The report of one array leaf (PRINT), and its record as a buffer of the
 * summary (RECORD). */
static void emit_leaf(run *r, const char *label, const char *path, const hlo_shape *s, const hlo_instr *in,
                      bool print, bool record) {
  /* a tuple of N elements reports N leaves: written in chunks as they come */
  if (r->out.len >= ((size_t)64 << 10)) flush_out(r);
  entry *e = analyse(r, s);
  if (print) {
    hb_sb_printf(&r->out, "  %s%s: %s\n", label, path, e->key);
    if (e->ok) hb_sb_puts(&r->out, e->text);
    else hb_sb_printf(&r->out, "    error: %s\n", e->text);
  }
  if (!e->ok && (print || record)) {
    hb_strbuf msg = HB_STRBUF_INIT;
    hb_sb_printf(&msg, "%s of %s%s: %s", label, in->name, path, e->text);
    flush_out(r); /* keep stdout and stderr in order */
    output_sync();
    diag_error(r->src, in->offset, hb_sb_str(&msg));
    hb_sb_free(&msg);
    r->rc = 1;
  }
  if (record && e->ok && e->data) record_buffer(r, in, path, e);
}

/* Every array leaf of S; PATH holds the index path so far as text, IDX as
 * numbers (DEPTH of them). COUNTED: IN's computation's values count as
 * buffers (buffers.h). */
static void emit_shape(run *r, const char *label, hb_strbuf *path, int *idx, int depth, const hlo_shape *s,
                       const hlo_instr *in, bool print, bool counted) {
  if (s->type != HLO_TUPLE && s->type != HLO_BUFFER) {
    bool record = counted && buf_defines(in, idx, depth);
    if (print || record) emit_leaf(r, label, hb_sb_str(path), s, in, print, record);
    return;
  }
  if (s->n_elems == 0) {
    if (print) hb_sb_printf(&r->out, "  %s%s: () (empty tuple)\n", label, hb_sb_str(path));
    return;
  }
  size_t keep = path->len;
  for (int i = 0; i < s->n_elems; i++) {
    if (keep == 0) hb_sb_printf(path, " {%d}", i);
    else {
      path->len = keep - 1; /* drop the closing brace */
      hb_sb_printf(path, ",%d}", i);
    }
    if (depth < MAX_PATH) idx[depth] = i;
    emit_shape(r, label, path, idx, depth < MAX_PATH ? depth + 1 : depth, s->elems[i], in, print, counted);
    path->len = keep;
    if (path->data) path->data[keep] = '\0';
  }
}

static void emit_instr(run *r, const hlo_instr *in, bool with_operands, bool print, bool counted) {
  const hlo_computation *c = in->parent;
  if (print)
    hb_sb_printf(&r->out, "instruction %s (%s) in %s%s\n", in->name, hlo_instr_opcode_text(in), c->name,
              c->is_entry ? " (ENTRY)" : "");
  hb_strbuf path = HB_STRBUF_INIT;
  int idx[MAX_PATH];
  emit_shape(r, "result", &path, idx, 0, in->shape, in, print, counted);
  if (with_operands) {
    for (int k = 0; k < in->n_operands; k++) {
      hb_strbuf label = HB_STRBUF_INIT;
      hb_sb_printf(&label, "operand %d (%s)", k, in->operands[k]->name);
      hb_sb_reset(&path);
      emit_shape(r, hb_sb_str(&label), &path, idx, 0, in->operands[k]->shape, in, print, false);
      hb_sb_free(&label);
    }
  }
  hb_sb_free(&path);
  flush_out(r);
}

/* ---- the --all summary ---------------------------------------------------------------- */

static void put_u128(hb_strbuf *b, u128 v) {
  char d[48];
  int n = 0;
  do {
    d[n++] = (char)('0' + (int)(v % 10u));
    v /= 10u;
  } while (v);
  while (n) hb_sb_putc(b, d[--n]);
}

/* "4096 bytes (4.0 KiB)"; below 1 KiB just "N bytes". */
static void put_bytes(hb_strbuf *b, u128 v) {
  put_u128(b, v);
  hb_sb_puts(b, " bytes");
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  if (v < 1024u) return;
  int u = 0;
  u128 scale = 1024u;
  while (u + 1 < (int)(sizeof units / sizeof *units) && v >= scale * 1024u) {
    scale *= 1024u;
    u++;
  }
  u128 tenths = (v * 10u + scale / 2u) / scale;
  hb_sb_puts(b, " (");
  put_u128(b, tenths / 10u);
  hb_sb_putc(b, '.');
  hb_sb_putc(b, (char)('0' + (int)(tenths % 10u)));
  hb_sb_printf(b, " %s)", units[u]);
}

static int cmp_seq(const struct value *a, const struct value *b) { return a->seq < b->seq ? -1 : a->seq > b->seq; }

static int64_t padding_bytes(const entry *e) { return e->sz.bytes - e->sz.logical_bytes; }

/* Larger overhead first; ties: more padding bytes, then report order. */
static int cmp_worst(const void *pa, const void *pb) {
  const struct value *a = pa, *b = pb;
  int c = tl_overhead_compare(&a->e->sz, &b->e->sz);
  if (c) return c;
  int64_t xa = padding_bytes(a->e), xb = padding_bytes(b->e);
  if (xa != xb) return xa > xb ? -1 : 1;
  return cmp_seq(a, b);
}

/* More padding bytes first; ties: larger overhead, then report order. */
static int cmp_padding(const void *pa, const void *pb) {
  const struct value *a = pa, *b = pb;
  int64_t xa = padding_bytes(a->e), xb = padding_bytes(b->e);
  if (xa != xb) return xa > xb ? -1 : 1;
  int c = tl_overhead_compare(&a->e->sz, &b->e->sz);
  return c ? c : cmp_seq(a, b);
}

static int cmp_space(const void *pa, const void *pb) {
  const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
  return a->sz.memory_space < b->sz.memory_space ? -1 : a->sz.memory_space > b->sz.memory_space;
}

/* V among the first WORST_COUNT of list L (ordered by CMP); values come in
 * report order, so V goes after those it ties with. */
static void offer(run *r, int l, const struct value *v, const char *path, int (*cmp)(const void *, const void *)) {
  struct value *t = r->top[l];
  size_t n = r->ntop[l], i = n;
  while (i > 0 && cmp(v, &t[i - 1]) < 0) i--;
  if (i == WORST_COUNT) return;
  if (n == WORST_COUNT) free(t[--n].path);
  memmove(&t[i + 1], &t[i], (n - i) * sizeof *t);
  t[i] = *v;
  size_t len = strlen(path) + 1;
  t[i].path = hb_malloc(len);
  memcpy(t[i].path, path, len);
  r->ntop[l] = n + 1;
}

static void record_buffer(run *r, const hlo_instr *in, const char *path, entry *e) {
  if (e->nbuf++ == 0) {
    if (r->ntouched == r->captouched) {
      r->captouched = r->captouched ? r->captouched * 2 : 64;
      r->touched = hb_realloc(r->touched, r->captouched * sizeof *r->touched);
    }
    r->touched[r->ntouched++] = e;
  }
  struct value v = {in, NULL, e, r->nbuffers++};
  if (e->sz.physical_elems <= e->sz.logical_elems) return;
  r->npadded++;
  offer(r, 0, &v, path, cmp_worst);
  offer(r, 1, &v, path, cmp_padding);
}

/* Forgets the module's buffers. */
static void buffers_reset(run *r) {
  for (size_t i = 0; i < r->ntouched; i++) r->touched[i]->nbuf = 0;
  r->ntouched = r->nbuffers = r->npadded = 0;
  for (int l = 0; l < 2; l++) {
    for (size_t i = 0; i < r->ntop[l]; i++) free(r->top[l][i].path);
    r->ntop[l] = 0;
  }
}

static const char *plural(u128 n, const char *one, const char *many) { return n == 1 ? one : many; }

/* "NAME {path}: SHAPE, N logical elements in B bytes" */
static void put_value(hb_strbuf *b, const struct value *v) {
  const entry *e = v->e;
  hb_sb_printf(b, "%s%s: %s, %" PRId64 " logical %s in ", v->instr->name, v->path, e->key, e->sz.logical_elems,
            plural((u128)e->sz.logical_elems, "element", "elements"));
  put_bytes(b, (u128)(uint64_t)e->sz.bytes);
}

static void top_list(hb_strbuf *b, const char *title, const struct value *v, size_t n, bool by_overhead) {
  hb_sb_printf(b, "  %s (%zu padded %s", title, n, plural(n, "buffer", "buffers"));
  if (n > WORST_COUNT) hb_sb_printf(b, ", first %d", WORST_COUNT);
  hb_sb_puts(b, "):\n");
  if (n == 0) hb_sb_puts(b, "    none\n");
  for (size_t i = 0; i < n && i < WORST_COUNT; i++) {
    hb_sb_printf(b, "    %zu. ", i + 1);
    if (by_overhead) {
      tl_overhead_print(b, &v[i].e->sz);
      hb_sb_puts(b, "  ");
      put_value(b, &v[i]);
      hb_sb_printf(b, ", %" PRId64 " bytes of padding\n", padding_bytes(v[i].e));
    } else {
      put_bytes(b, (u128)(uint64_t)padding_bytes(v[i].e));
      hb_sb_puts(b, " of padding  ");
      put_value(b, &v[i]);
      hb_sb_puts(b, ", overhead ");
      tl_overhead_print(b, &v[i].e->sz);
      hb_sb_putc(b, '\n');
    }
  }
}

static void summary(run *r, const hlo_module *m, int ninstrs) {
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "summary of module %s: %d %s, %zu %s\n", m->name, ninstrs,
            plural((u128)ninstrs, "instruction", "instructions"), r->nbuffers, plural(r->nbuffers, "buffer", "buffers"));
  /* memory spaces in increasing order: the shapes sorted by theirs */
  if (r->ntouched) qsort(r->touched, r->ntouched, sizeof *r->touched, cmp_space); /* (NULL before the first) */
  hb_sb_puts(b, "  bytes by memory space (buffers of ENTRY and control-flow computations):\n");
  for (size_t i = 0, j; i < r->ntouched; i = j) {
    int64_t space = r->touched[i]->sz.memory_space;
    size_t count = 0;
    u128 bytes = 0, logical = 0;
    for (j = i; j < r->ntouched && r->touched[j]->sz.memory_space == space; j++) {
      const entry *e = r->touched[j];
      count += e->nbuf;
      bytes += (u128)e->nbuf * (uint64_t)e->sz.bytes;
      logical += (u128)e->nbuf * (uint64_t)e->sz.logical_bytes;
    }
    hb_sb_printf(b, "    S(%" PRId64 ") %s: %zu %s, ", space, tl_memory_space_name(space), count,
              plural(count, "buffer", "buffers"));
    put_bytes(b, bytes);
    hb_sb_puts(b, ", of which padding ");
    put_bytes(b, bytes - logical);
    hb_sb_putc(b, '\n');
  }
  if (r->ntouched == 0) hb_sb_puts(b, "    none\n");
  top_list(b, "worst padding overhead", r->top[0], r->npadded, true);
  top_list(b, "most padding bytes", r->top[1], r->npadded, false);
  flush_out(r);
}

/* ---- driving ----------------------------------------------------------------------------- */

static void on_instr(void *arg, const hlo_instr *in) {
  run *r = arg;
  emit_instr(r, in, true, true, false);
  if (!r->o->lq.kernel) return;
  hb_arena_reset(r->scratch);
  char msg[300];
  if (!lq_compare_kernel(&r->out, r->scratch, r->ctx, r->o, in, msg, sizeof msg)) {
    flush_out(r);
    output_sync();
    diag_error(r->src, in->offset, msg);
    r->rc = 1;
  }
}

static void on_missing(void *arg, const char *name) {
  run *r = arg;
  flush_out(r);
  output_sync();
  char msg[HLO_ERROR_MESSAGE_MAX];
  snprintf(msg, sizeof msg, "module %s has no instruction named '%s'", r->module->name, name);
  diag_error(r->src, r->module->offset, msg);
  r->rc = 1;
}

static void report_module(run *r, const hlo_module *m) {
  r->module = m;
  if (!r->o->summary) {
    hb_sb_printf(&r->out, "module %s", m->name);
    if (r->o->nfiles > 1 && !r->o->no_file_names) hb_sb_printf(&r->out, " (%s)", r->src->name);
    hb_sb_puts(&r->out, "\n\n");
  }
  if ((r->o->all || r->o->summary) && !options_select(r->o)) {
    /* every instruction; the buffers: values of the walked computations */
    bool *walk = hb_calloc((size_t)m->n_computations + 1, sizeof *walk);
    select_walked_computations(m, walk);
    int ninstrs = 0;
    for (int c = 0; c < m->n_computations; c++)
      for (int i = 0; i < m->computations[c]->n_instrs; i++) {
        emit_instr(r, m->computations[c]->instrs[i], false, !r->o->summary, walk[c]);
        if (!r->o->summary) hb_sb_putc(&r->out, '\n');
        ninstrs++;
      }
    free(walk);
    summary(r, m, ninstrs);
    buffers_reset(r);
  } else {
    static const select_visitor visit = {NULL, on_instr, on_missing};
    select_each(r->o, m, false, SELECT_ROOT, &visit, r);
  }
  flush_out(r);
  r->module = NULL;
}

/* One module as the parser finishes it (modules are parsed one at a time:
 * a file of 40,000 modules holds one). */
typedef struct {
  run *r;
  bool first_file;
  int index; /* modules of this file so far */
} file_run;

static int each_module(hlo_module *m, void *arg) {
  file_run *f = arg;
  diag_module_warnings(f->r->src, m);
  source_release(f->r->src, m->end, false);
  if (!f->first_file || f->index) hb_sb_putc(&f->r->out, '\n');
  report_module(f->r, m);
  source_release(f->r->src, m->end, true);
  f->index++;
  hlo_module_free(m);
  return output_failed() ? 2 : 0; /* a write error stops the parse */
}

static void run_file(run *r, const char *path, bool first) {
  source_file src;
  if (source_read(path, &src)) {
    r->rc = 1;
    return;
  }
  r->src = &src;
  hlo_error err;
  file_run f = {r, first, 0};
  if (hlo_parse_file_each(src.data, src.len, each_module, &f, &err) == 1) {
    flush_out(r);
    output_sync();
    diag_parse_error(&src, &err);
    r->rc = 1;
  }
  source_free(&src);
  r->src = NULL;
}

int cmd_layout(const hloidx_options *o) {
  run r;
  memset(&r, 0, sizeof r);
  r.o = o;
  r.ctx = ae_ctx_new();
  r.scratch = hb_arena_new();
  if (o->nfiles == 0) run_file(&r, "-", true);
  for (int i = 0; i < o->nfiles && !output_failed(); i++) run_file(&r, o->files[i], i == 0);
  buffers_reset(&r);
  cache_free(&r.shapes);
  free(r.touched);
  hb_sb_free(&r.out);
  hb_arena_free(r.scratch);
  ae_ctx_free(r.ctx);
  return r.rc;
}
