#include "layout_query.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/oom.h"
#include "source.h"
#include "ss_xla.h"

/* Coordinates listed per --offset, and the largest grid. */
#define OFFSET_SHOWN 8
#define GRID_MAX 64
/* --offset on an XLA layout without a shape:stride form: elements enumerated at most. */
#define ENUM_MAX ((int64_t)1 << 24)

bool lq_any(const hloidx_options *o) { return o->lq.nat || o->lq.noffset || o->lq.grid; }

static int rank_of(const lq_target *t) { return t->xla ? t->xla->rank : (int)ss_rank(t->ss); }
static int64_t dim_of(const lq_target *t, int i) {
  return t->xla ? t->xla->dims[i] : ss_mode_at(t->ss, (uint32_t)i)->size;
}

/* Offset of the logical / top-level index x. */
static int64_t offset_of(const lq_target *t, const int64_t *x) {
  return t->xla ? ss_xla_offset(t->xla, x) : ss_top_offset(t->ss, x);
}

static void put_index(hb_strbuf *b, const int64_t *x, int r) {
  if (r == 1) {
    hb_sb_put_i64(b, x[0]);
    return;
  }
  hb_sb_putc(b, '(');
  for (int i = 0; i < r; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", x[i]);
  hb_sb_putc(b, ')');
}

static void answer_at(hb_strbuf *b, hb_arena *a, const lq_target *t, const char *text) {
  ss_error err;
  ss_coord *c = ss_read_coord(a, text, &err);
  hb_sb_puts(b, "crd2offset(");
  if (c) ss_print_coord(b, c);
  else hb_sb_puts(b, text);
  hb_sb_puts(b, ")");
  if (!c) {
    hb_sb_printf(b, ": %s\n", err.message);
    return;
  }
  int64_t off;
  if (!t->xla) {
    if (ss_crd2offset(t->ss, c, &off, &err)) hb_sb_printf(b, " = %" PRId64 "\n", off);
    else hb_sb_printf(b, ": %s\n", err.message);
    return;
  }
  /* an XLA layout: a logical index, rank values inside the dims */
  int r = t->xla->rank;
  uint32_t n = c->n ? c->n : 1;
  bool flat = (int)n == r;
  for (uint32_t i = 0; flat && c->n && i < c->n; i++) flat = c->child[i].n == 0;
  if (!flat) {
    hb_sb_printf(b, ": a logical index of this array has %d %s\n", r, r == 1 ? "value" : "values");
    return;
  }
  int64_t *x = hb_arena_array(a, (size_t)r + 1, sizeof *x);
  for (int i = 0; i < r; i++) {
    x[i] = c->n ? c->child[i].value : c->value;
    if (x[i] >= t->xla->dims[i]) {
      hb_sb_printf(b, ": index %" PRId64 " is outside dimension %d of size %" PRId64 "\n", x[i], i, t->xla->dims[i]);
      return;
    }
  }
  hb_sb_printf(b, " = %" PRId64 "\n", offset_of(t, x));
}

static bool inside(const lq_target *t, const int64_t *top) {
  for (int i = 0; i < rank_of(t); i++)
    if (top[i] >= dim_of(t, i)) return false;
  return true;
}

static void answer_offset(hb_strbuf *b, hb_arena *a, const lq_target *t, const char *text) {
  char *end;
  long long v = strtoll(text, &end, 10);
  hb_sb_printf(b, "offset %s", text);
  if (end == text || *end || v < 0) {
    hb_sb_puts(b, ": not a non-negative integer\n");
    return;
  }
  int r = rank_of(t);
  int64_t *top = hb_arena_array(a, (size_t)r + 1, sizeof *top);
  if (!t->ss) {
    /* an XLA layout without a shape:stride form: by enumeration */
    if (t->xla->logical_elems > ENUM_MAX) {
      hb_sb_puts(b, ": not computed (the layout has no shape:stride form and too many elements to enumerate)\n");
      return;
    }
    uint64_t count = 0;
    memset(top, 0, (size_t)r * sizeof *top);
    for (int64_t k = 0; k < t->xla->logical_elems; k++) {
      if (ss_xla_offset(t->xla, top) == v) {
        hb_sb_puts(b, count ? ", " : ": ");
        put_index(b, top, r);
        count++;
      }
      int i = r - 1;
      while (i >= 0 && top[i] == t->xla->dims[i] - 1) top[i--] = 0;
      if (i >= 0) top[i]++;
    }
    hb_sb_puts(b, count ? "\n" : ": no element (padding or beyond the buffer)\n");
    return;
  }
  int64_t idx[OFFSET_SHOWN];
  uint64_t count;
  bool complete;
  ss_offset_indices(t->ss, (int64_t)v, idx, OFFSET_SHOWN, &count, &complete);
  uint32_t shown = 0;
  uint64_t padding = 0;
  for (uint32_t k = 0; k < count && k < OFFSET_SHOWN; k++) {
    ss_index_top(t->ss, idx[k], top);
    if (t->xla && !inside(t, top)) {
      padding++;
      continue;
    }
    hb_sb_puts(b, shown++ ? ", " : ": ");
    put_index(b, top, r);
    if (!t->xla && ss_depth(t->ss) > 1) {
      hb_sb_puts(b, " = ");
      ss_print_coord(b, ss_index_coord(a, t->ss, idx[k]));
    }
  }
  if (count == 0 && complete && v >= ss_cosize(t->ss)) hb_sb_printf(b, ": no coordinate (the cosize is %" PRId64 ")", ss_cosize(t->ss));
  else if (count == 0) hb_sb_puts(b, complete ? ": no coordinate (a gap)" : ": none found (the search stopped)");
  else if (shown == 0 && padding == count) hb_sb_puts(b, ": padding");
  else if (count > OFFSET_SHOWN || !complete)
    hb_sb_printf(b, " (%s%" PRIu64 " coordinates in all)", complete ? "" : "at least ", count);
  hb_sb_putc(b, '\n');
}

static int digits(int64_t v) {
  int n = 1;
  while (v >= 10) v /= 10, n++;
  return n;
}

static void answer_grid(hb_strbuf *b, hb_arena *a, const lq_target *t, int indent) {
  int r = rank_of(t);
  if (r < 1 || r > 2) {
    hb_sb_printf(b, "grid: the layout has rank %d; a grid is drawn for rank 1 or 2\n", r);
    return;
  }
  int64_t rows = r == 2 ? dim_of(t, 0) : 1, cols = dim_of(t, r - 1);
  if (rows > GRID_MAX || cols > GRID_MAX) {
    hb_sb_printf(b, "grid: %" PRId64 " x %" PRId64 " cells; --grid draws at most %d x %d\n", rows, cols, GRID_MAX,
              GRID_MAX);
    return;
  }
  int64_t *cell = hb_arena_array(a, (size_t)(rows * cols), sizeof *cell);
  int w = digits(cols - 1);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t x[2] = {r == 2 ? i : j, j};
      cell[i * cols + j] = offset_of(t, x);
      if (digits(cell[i * cols + j]) > w) w = digits(cell[i * cols + j]);
    }
  int lw = digits(rows - 1);
  hb_sb_printf(b, "grid (%s, cell: offset):\n", r == 2 ? "row: coordinate 0, column: coordinate 1" : "column: coordinate");
  hb_sb_indent(b, indent + lw);
  for (int64_t j = 0; j < cols; j++) hb_sb_printf(b, " %*" PRId64, w, j);
  hb_sb_putc(b, '\n');
  for (int64_t i = 0; i < rows; i++) {
    hb_sb_indent(b, indent);
    if (r == 2) hb_sb_printf(b, "%*" PRId64, lw, i);
    else hb_sb_indent(b, lw);
    for (int64_t j = 0; j < cols; j++) hb_sb_printf(b, " %*" PRId64, w, cell[i * cols + j]);
    hb_sb_putc(b, '\n');
  }
}

void lq_answer(hb_strbuf *b, hb_arena *a, const hloidx_options *o, const lq_target *t, int indent) {
  for (int k = 0; k < o->lq.nat; k++) {
    hb_sb_indent(b, indent);
    answer_at(b, a, t, o->lq.at[k]);
  }
  for (int k = 0; k < o->lq.noffset; k++) {
    hb_sb_indent(b, indent);
    answer_offset(b, a, t, o->lq.offset[k]);
  }
  if (o->lq.grid) {
    hb_sb_indent(b, indent);
    answer_grid(b, a, t, indent + 2);
  }
}

/* ---- XLA shapes in layout expressions ------------------------------------------------------------------ */

struct lq_parsed {
  char *text;
  hlo_parse_result res;
  struct lq_parsed *next;
};

bool lq_parse_xla(lq_xla *x, const char *text, size_t start, size_t end, ss_read_error *err) {
  static const char pre[] = "HloModule m\n\nENTRY e {\n  ROOT p = ", post[] = " parameter(0)\n}\n";
  size_t n = end - start, np = sizeof pre - 1, len = np + n + sizeof post - 1;
  struct lq_parsed *p = hb_calloc(1, sizeof *p);
  p->text = hb_calloc(len + SOURCE_PADDING, 1);
  memcpy(p->text, pre, np);
  memcpy(p->text + np, text + start, n);
  memcpy(p->text + np + n, post, sizeof post - 1);
  hlo_error herr;
  if (hlo_parse_file(p->text, len, &p->res, &herr)) {
    size_t at = herr.offset < np ? 0 : herr.offset - np;
    err->offset = start + (at > n ? n : at);
    if (at >= n) snprintf(err->message, sizeof err->message, "the XLA shape ends too early");
    else snprintf(err->message, sizeof err->message, "%.199s", herr.message);
    free(p->text);
    free(p);
    return false;
  }
  p->next = x->parsed;
  x->parsed = p;
  x->shape = p->res.modules[0]->entry->root->shape;
  tl_error te;
  if (!tl_analyze(x->a, x->shape, &x->layout, &te)) {
    err->offset = start;
    snprintf(err->message, sizeof err->message, "%s", te.message);
    return false;
  }
  return true;
}

const ss_layout *lq_resolve_xla(void *cl, const char *text, size_t start, size_t end, ss_read_error *err) {
  lq_xla *x = cl;
  if (!lq_parse_xla(x, text, start, end, err)) return NULL;
  ss_error se;
  const ss_layout *l = ss_from_xla(x->a, x->ctx, &x->layout, &se);
  if (!l) {
    err->offset = start;
    snprintf(err->message, sizeof err->message, "%s", se.message);
  }
  return l;
}

void lq_xla_free(lq_xla *x) {
  while (x->parsed) {
    struct lq_parsed *p = x->parsed;
    x->parsed = p->next;
    hlo_parse_result_free(&p->res);
    free(p->text);
    free(p);
  }
  x->shape = NULL;
}

/* ---- --kernel-layout ---------------------------------------------------------------------------------- */

/* Reads the --kernel-layout text into a (XLA shapes in it resolved through x). */
static const ss_layout *read_kernel(const hloidx_options *o, hb_arena *a, lq_xla *x, ss_read_error *err) {
  ss_read_result res;
  const char *t = o->lq.kernel;
  return ss_read(a, t, 0, strlen(t), lq_resolve_xla, x, &res, err) ? res.layout : NULL;
}

bool lq_check_kernel(const hloidx_options *o) {
  hb_arena *a = hb_arena_new();
  ae_ctx *ctx = ae_ctx_new();
  lq_xla x = {a, ctx, NULL, {0}, NULL};
  ss_read_error err;
  bool ok = read_kernel(o, a, &x, &err) != NULL;
  if (!ok)
    fprintf(stderr, "hloidx: error: --kernel-layout=%s: at column %zu: %s\nTry 'hloidx --help' for more information.\n",
            o->lq.kernel, err.offset + 1, err.message);
  lq_xla_free(&x);
  ae_ctx_free(ctx);
  hb_arena_free(a);
  return ok;
}

bool lq_compare_kernel(hb_strbuf *b, hb_arena *a, ae_ctx *ctx, const hloidx_options *o, const hlo_instr *in, char *msg,
                       size_t cap) {
  lq_xla x = {a, ctx, NULL, {0}, NULL};
  ss_read_error rerr;
  const ss_layout *k = read_kernel(o, a, &x, &rerr);
  const hlo_shape *s = in->shape;
  char what[200];
  snprintf(what, sizeof what, "the result");
  if (o->operand >= 0) {
    if (o->operand >= in->n_operands) {
      snprintf(msg, cap, "--kernel-layout: %s has %d operand%s, no operand %ld", in->name, in->n_operands,
               in->n_operands == 1 ? "" : "s", o->operand);
      lq_xla_free(&x);
      return false;
    }
    s = in->operands[o->operand]->shape;
    snprintf(what, sizeof what, "operand %ld (%.150s)", o->operand, in->operands[o->operand]->name);
  }
  tl_layout tl;
  tl_error te;
  bool ok = k && tl_analyze(a, s, &tl, &te);
  if (!ok) {
    snprintf(msg, cap, "--kernel-layout: %s of %s: %s", what, in->name,
             k ? (te.status == TL_NOT_ARRAY ? "not an array" : te.message) : rerr.message);
    lq_xla_free(&x);
    return false;
  }
  char shape[256];
  hlo_shape_format(s, shape, sizeof shape);
  hb_sb_puts(b, "kernel layout ");
  ss_print(b, k);
  hb_sb_printf(b, " vs %s of %s, %s: ", what, in->name, shape);
  ss_comparison c;
  ss_compare_xla(a, ctx, k, &tl, &c);
  if (c.equal) {
    hb_sb_puts(b, "equal\n");
  } else if (!c.decided) {
    hb_sb_printf(b, "not decided: %s\n", c.why);
  } else if (c.witness) {
    hb_sb_puts(b, "not equal: element ");
    put_index(b, c.witness, c.rank);
    hb_sb_printf(b, " is at offset %" PRId64 " in the kernel layout and at offset %" PRId64 " in XLA's\n",
              c.kernel_offset, c.xla_offset);
  } else {
    hb_sb_printf(b, "not equal: %s\n", c.why);
  }
  lq_xla_free(&x);
  return true;
}
