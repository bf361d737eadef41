/* hloidx --shape-stride: shape:stride layouts (CuTe, CATLASS TLA), XLA
 * shapes and the layout algebra, one expression per line (ss_read.h; blank
 * lines and // comments are skipped).
 *
 * Report of a shape:stride layout:
 *
 *   layout zN(f64, 8, 12, 4) = ((4,2),(4,3)):((4,16),(1,32))
 *     rank, depth:  2, 2
 *     size:         96 (8 x 12)
 *     cosize:       96
 *     injective:    yes; compact (every offset in [0, 96) is used once)
 *     coalesce:     (4,2,4,3):(4,16,1,32)
 *     offset map:   (d0, d1) -> (...), domain: d0 in [0, 7], d1 in [0, 11]
 *     inverse map:  (d0) -> (...), domain: d0 in [0, 95]
 *     XLA layout:   {0,1:T(4,4)(4,1)} on [8,12]: f64[8,12]{0,1:T(4,4)(4,1)}
 *
 * (`= ...` when the text is not already the printed layout; the XLA
 * layout's element type is the fractal's, else none is printed.) The offset
 * map takes the top-level coordinate to the offset; the inverse map the
 * offset to the coordinate, when the modes nest (otherwise `none: WHY`);
 * the XLA layout is one over the dims size(mode i) that gives every
 * coordinate the same offset, or `none: WHY` (ss_xla.h).
 *
 * Report of an XLA shape (`f32[3,5]{1,0:T(2,2)}`): its elements and tiled
 * shape, its shape:stride form (modes padded up to whole tiles), the offset
 * map over the logical dims and its inverse (padding excluded).
 *
 * Then the answers of --at, --offset and --grid (layout_query.h). A line
 * that cannot be read is reported as FILE:LINE:COL: error: ... and skipped;
 * the exit status is then 1. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "commands.h"
#include "inputs.h"
#include "layout_query.h"
#include "map_print.h"
#include "output.h"
#include "source.h"
#include "ss_algebra.h"
#include "ss_read.h"
#include "ss_xla.h"
#include "../parser/base/strbuf.h"

typedef inputs_run run;

static void put_map(hb_strbuf *b, const char *label, const imap *m) {
  static const map_print_opts one_line = {false, 0};
  hb_sb_puts(b, label);
  map_print(b, m, &one_line);
  hb_sb_putc(b, '\n');
}

static void put_dims(hb_strbuf *b, const ss_layout *l) {
  for (uint32_t i = 0; i < ss_rank(l); i++) hb_sb_printf(b, "%s%" PRId64, i ? " x " : "", ss_mode_at(l, i)->size);
}

static void put_injective(hb_strbuf *b, const ss_layout *l) {
  ss_injectivity inj;
  ss_check_injective(l, &inj);
  hb_sb_puts(b, "    injective:     ");
  if (inj.injective == SS_UNKNOWN) {
    hb_sb_puts(b, "not decided (the modes overlap and the layout is too large to enumerate)\n");
  } else if (inj.injective == SS_NO) {
    uint32_t r = ss_rank(l);
    int64_t ta[SS_MAX_LEAVES], tb[SS_MAX_LEAVES];
    ss_index_top(l, inj.witness_a, ta);
    ss_index_top(l, inj.witness_b, tb);
    hb_sb_puts(b, "no: ");
    for (int k = 0; k < 2; k++) {
      const int64_t *t = k ? tb : ta;
      if (k) hb_sb_puts(b, " and ");
      if (r > 1) hb_sb_putc(b, '(');
      for (uint32_t i = 0; i < r; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", t[i]);
      if (r > 1) hb_sb_putc(b, ')');
    }
    hb_sb_printf(b, " share offset %" PRId64 "\n", ss_index_offset(l, inj.witness_a));
  } else if (inj.compact) {
    hb_sb_printf(b, "yes; compact (every offset in [0, %" PRId64 ") is used once)\n", ss_cosize(l));
  } else {
    hb_sb_printf(b, "yes; not compact: %" PRId64 " of the offsets in [0, %" PRId64 ") are unused, the first is %" PRId64 "\n",
              inj.unused, ss_cosize(l), inj.gap);
  }
}

/* "layout " and the line as written, its control bytes escaped (\xNN): an
 * XLA shape may hold any blank the HLO lexer skips (\v, \f). */
static void put_heading(hb_strbuf *b, const char *text, size_t len) {
  hb_sb_puts(b, "layout ");
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c < 0x20 || c == 0x7f) hb_sb_printf(b, "\\x%02x", c);
    else hb_sb_putc(b, (char)c);
  }
}

/* The report of a shape:stride layout; false with msg on an error. */
static bool report_ss(run *r, const char *text, size_t len, const ss_read_result *res, ss_error *err) {
  hb_strbuf *b = &r->out;
  const ss_layout *l = res->layout;
  hb_arena *a = r->scratch;
  put_heading(b, text, len);
  hb_strbuf p = HB_STRBUF_INIT;
  ss_print(&p, l);
  if (p.len != len || memcmp(p.data, text, len) != 0) hb_sb_printf(b, " = %s", hb_sb_str(&p));
  hb_sb_free(&p);
  hb_sb_printf(b, "\n    rank, depth:   %u, %u\n", ss_rank(l), ss_depth(l));
  hb_sb_printf(b, "    size:          %" PRId64, ss_size(l));
  if (ss_rank(l) > 1) {
    hb_sb_puts(b, " (");
    put_dims(b, l);
    hb_sb_putc(b, ')');
  }
  hb_sb_printf(b, "\n    cosize:        %" PRId64 "\n", ss_cosize(l));
  put_injective(b, l);
  const ss_layout *c = ss_coalesce(a, l, err);
  if (!c) return false;
  hb_sb_puts(b, "    coalesce:      ");
  ss_print(b, c);
  hb_sb_putc(b, '\n');
  imap *m = ss_offset_map(a, r->ctx, l, NULL, err);
  if (!m) return false;
  put_map(b, "    offset map:    ", m);
  const char *why;
  m = ss_inverse_map(a, r->ctx, l, NULL, &why, err);
  if (!m && !why) return false;
  hb_sb_puts(b, "    inverse map:   ");
  if (m) put_map(b, "", m);
  else hb_sb_printf(b, "none: %s\n", why);
  ss_xla_layout x;
  ss_to_xla(a, l, &x);
  hb_sb_puts(b, "    XLA layout:    ");
  if (x.found) {
    ss_xla_layout_print(b, &x);
    hb_sb_puts(b, " on [");
    for (int i = 0; i < x.rank; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", x.dims[i]);
    hb_sb_putc(b, ']');
    if (res->elem_name) {
      hb_sb_printf(b, ": %s[", res->elem_name);
      for (int i = 0; i < x.rank; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", x.dims[i]);
      hb_sb_putc(b, ']');
      ss_xla_layout_print(b, &x);
    }
    hb_sb_putc(b, '\n');
  } else {
    hb_sb_printf(b, "%s\n", x.why);
  }
  lq_target t = {l, NULL};
  lq_answer(b, a, r->o, &t, 4);
  return true;
}

/* The report of an XLA shape; false with msg on an error. */
static bool report_xla(run *r, const char *text, size_t len, lq_xla *x, ss_error *err) {
  hb_strbuf *b = &r->out;
  hb_arena *a = r->scratch;
  const tl_layout *tl = &x->layout;
  put_heading(b, text, len);
  hb_sb_putc(b, '\n');
  hb_sb_printf(b, "    elements:      %" PRId64 " logical, %" PRId64 " physical, %" PRId64 " padding\n", tl->logical_elems,
            tl->physical_elems, tl->physical_elems - tl->logical_elems);
  hb_sb_puts(b, "    tiled shape:   [");
  for (int i = 0; i < tl->ntiled; i++) hb_sb_printf(b, "%s%" PRId64, i ? "," : "", tl->tiled[i]);
  hb_sb_puts(b, "]\n");
  ss_error se;
  const ss_layout *l = ss_from_xla(a, r->ctx, tl, &se);
  hb_sb_puts(b, "    shape:stride:  ");
  if (l) {
    ss_print(b, l);
    bool padded = false;
    for (int i = 0; i < tl->rank; i++) padded |= ss_mode_at(l, (uint32_t)i)->size != tl->dims[i];
    if (padded) {
      hb_sb_puts(b, " (modes ");
      put_dims(b, l);
      hb_sb_puts(b, ": the dims padded to whole tiles)");
    }
    hb_sb_putc(b, '\n');
  } else {
    hb_sb_printf(b, "none: %s\n", se.message);
  }
  tl_error te;
  imap *m = tl_logical_to_offset(a, r->ctx, tl, &te);
  if (!m) {
    snprintf(err->message, sizeof err->message, "%s", te.message);
    return false;
  }
  put_map(b, "    offset map:    ", m);
  if (l && tl->rank > 0) {
    const char *why;
    m = ss_inverse_map(a, r->ctx, l, tl->dims, &why, err);
    if (!m && !why) return false;
    hb_sb_puts(b, "    inverse map:   ");
    if (m) put_map(b, "", m);
    else hb_sb_printf(b, "none: %s\n", why);
  }
  lq_target t = {l, tl};
  lq_answer(b, a, r->o, &t, 4);
  return true;
}

static bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void one_line(run *r, size_t start, size_t end) {
  const char *s = r->src->data;
  hb_arena_reset(r->scratch);
  lq_xla x = {r->scratch, r->ctx, NULL, {0}, NULL};
  ss_read_error rerr = {start, {0}};
  ss_error err = {{0}};
  bool ok;
  size_t p = start;
  while (p < end && is_name_char(s[p])) p++;
  hb_sb_reset(&r->out);
  /* a line that is one XLA shape gets the XLA report */
  if (p > start && p < end && s[p] == '[' && lq_parse_xla(&x, s, start, end, &rerr)) {
    ok = report_xla(r, s + start, end - start, &x, &err);
    rerr.offset = start;
  } else {
    lq_xla_free(&x);
    ss_read_result res;
    ok = ss_read(r->scratch, s, start, end, lq_resolve_xla, &x, &res, &rerr);
    if (!ok) snprintf(err.message, sizeof err.message, "%s", rerr.message);
    else if (!(ok = report_ss(r, s + start, end - start, &res, &err))) rerr.offset = start;
  }
  lq_xla_free(&x);
  if (!ok) {
    inputs_error(r, rerr.offset, err.message);
    return;
  }
  inputs_emit(r);
}

static void run_file(run *r) {
  const char *s = r->src->data;
  size_t len = r->src->len, pos = 0;
  while (pos < len && !output_failed()) {
    size_t e = pos;
    while (e < len && s[e] != '\n' && s[e] != '\r') e++;
    size_t next = e < len ? e + 1 + (s[e] == '\r' && e + 1 < len && s[e + 1] == '\n') : len;
    /* the expression: up to a // comment, blanks trimmed */
    size_t a = pos, b = e;
    for (size_t i = pos; i + 1 < e; i++)
      if (s[i] == '/' && s[i + 1] == '/') {
        b = i;
        break;
      }
    while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
    if (a < b) one_line(r, a, b);
    pos = next;
  }
}

int cmd_shape_stride(const hloidx_options *o) {
  return inputs_run_each(o, run_file, NULL);
}
