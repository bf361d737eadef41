/* hloidx --map: read indexing maps in XLA's text form, apply the map
 * operations the options ask for, simplify each and print it back in XLA's
 * form.
 *
 * Input: maps separated by blank lines (a line holding only whitespace; lines
 * end at \n, \r\n or a bare \r, see map_read_next_chunk); `//` comments are
 * ignored. A map may be written as XLA's text (V1 or V2) or as the MLIR
 * attribute `#xla.indexing_map<"...">`. Variable names are kept as written
 * (map_names.h).
 *
 * Per map, in this order (analysis/map_ops.h):
 *   --compose          the maps of a group are composed in order, the first
 *                      applied first (XLA's ComposeIndexingMaps(first,
 *                      second)); a line `// -----` ends a group, and without
 *                      one the whole input is one group
 *   --submap=LIST      GetSubMap
 *   --symbols-to-dims  ConvertSymbolsToDimensions
 *   (simplify)         exactly XLA's IndexingMap::Simplify() (replace-points
 *                      mode, indexing-semantics.md §6.5), unless --no-simplify
 *   --remove-unused=K  RemoveUnusedSymbols / RemoveUnusedVars
 * Unused symbols are NOT removed otherwise: XLA's Simplify() keeps them, and
 * so does this command, so its output is the fixed point XLA's simplifier
 * reaches (the examples of XLA's indexing documentation are stated that way).
 *
 * Output: each map in the multi-line layout (header line ending in ',',
 * `domain:`, one entry per line with a trailing ',' on all but the last), or
 * one `#xla.indexing_map<"...">` line with --format=mlir; maps separated by
 * a blank line. Removing all whitespace gives XLA's text. Then the queries
 * (--eval, --ranges) as `// ` lines, so that the output reads back as maps.
 * A map that cannot be read is reported as FILE:LINE:COL: error: ... and
 * skipped; the exit status is then 1. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/base/arena.h"
#include "affine_expr.h"
#include "commands.h"
#include "inputs.h"
#include "map_ops.h"
#include "map_print.h"
#include "map_read.h"
#include "output.h"
#include "simplify.h"
#include "source.h"
#include "../parser/base/strbuf.h"

/* Node budget per map: a map whose simplification would create more
 * expression nodes than this is reported as too large. */
#define MAP_NODE_BUDGET ((size_t)4 << 20)
/* Largest printed map: expression nodes of one result or constraint, walked as a tree. */
#define MAP_MAX_TEXT_NODES ((uint64_t)1 << 20)
/* Enumeration bounds of --eval (symbols of one point) and --ranges (the whole domain). */
#define IMAGE_MAX_POINTS ((uint64_t)1 << 20)
#define RANGE_MAX_POINTS ((uint64_t)1 << 20)
/* Result tuples --eval lists before it only counts. */
#define IMAGE_SHOWN 32

typedef inputs_run run;

/* ---- parsing the option values against the map ---------------------------------------------- */

/* Parses a decimal integer at *s (optional '-'), advancing *s; false if none. */
static bool take_int(const char **s, int64_t *v) {
  const char *p = *s;
  while (*p == ' ') p++;
  if (!(*p == '-' || (*p >= '0' && *p <= '9'))) return false;
  errno = 0;
  char *end;
  long long x = strtoll(p, &end, 10);
  if (end == p || errno) return false;
  *v = x;
  *s = end;
  return true;
}

/* --submap=I,J,...: result indices. */
static bool parse_submap(run *r, const imap *m, uint32_t **out, uint32_t *n, size_t at) {
  const char *s = r->o->mapop.submap;
  uint32_t cap = 8;
  *out = hb_arena_array(r->scratch, cap, sizeof **out);
  *n = 0;
  for (;;) {
    int64_t v;
    if (!take_int(&s, &v) || v < 0 || v >= (int64_t)m->nresults) {
      char msg[200];
      snprintf(msg, sizeof msg, "--submap=%s: expected result numbers from 0 to %u, separated by ','",
               r->o->mapop.submap, m->nresults ? m->nresults - 1 : 0);
      if (m->nresults == 0) snprintf(msg, sizeof msg, "--submap: the map has no results");
      inputs_error(r, at, msg);
      return false;
    }
    if (*n == cap) {
      *out = hb_arena_grow(r->scratch, *out, cap, cap * 2, sizeof **out);
      cap *= 2;
    }
    (*out)[(*n)++] = (uint32_t)v;
    while (*s == ' ') s++;
    if (*s == '\0') return true;
    if (*s++ != ',') {
      inputs_error(r, at, "--submap: expected result numbers separated by ','");
      return false;
    }
  }
}

/* --eval=POINT: every variable's value in order, or NAME=VALUE for each
 * variable (dimensions only: the symbols are enumerated). Fills vals
 * (ndims + nsyms) and *full. */
static bool parse_point(run *r, const char *text, const imap *m, const char *const *names, int64_t *vals, bool *full,
                        size_t at) {
  uint32_t nd = m->ndims, nv = nd + imap_nsyms(m);
  bool named = strchr(text, '=') != NULL;
  bool *set = hb_arena_zalloc(r->scratch, nv + 1);
  uint32_t n = 0;
  const char *s = text;
  char msg[300];
  while (*s == ' ') s++;
  if (*s == '\0' && nv == 0) {
    *full = true;
    return true;
  }
  for (;;) {
    uint32_t v = n;
    if (named) {
      const char *eq = strchr(s, '=');
      const char *name = s;
      while (*name == ' ') name++;
      size_t len = eq ? (size_t)(eq - name) : 0;
      while (len && name[len - 1] == ' ') len--;
      for (v = 0; v < nv; v++)
        if (strlen(names[v]) == len && !memcmp(names[v], name, len)) break;
      if (!eq || v == nv) {
        snprintf(msg, sizeof msg, "--eval=%s: '%.*s' is not a variable of the map", text, (int)(eq ? len : strlen(name)),
                 name);
        inputs_error(r, at, msg);
        return false;
      }
      if (set[v]) {
        snprintf(msg, sizeof msg, "--eval=%s: '%s' is given twice", text, names[v]);
        inputs_error(r, at, msg);
        return false;
      }
      s = eq + 1;
    } else if (v >= nv) {
      snprintf(msg, sizeof msg, "--eval=%s: the map has %u variables", text, nv);
      inputs_error(r, at, msg);
      return false;
    }
    if (!take_int(&s, &vals[v])) {
      snprintf(msg, sizeof msg, "--eval=%s: expected %s", text,
               named ? "NAME=VALUE pairs separated by ','" : "integers separated by ','");
      inputs_error(r, at, msg);
      return false;
    }
    set[v] = true;
    n++;
    while (*s == ' ') s++;
    if (*s == '\0') break;
    if (*s++ != ',') {
      snprintf(msg, sizeof msg, "--eval=%s: expected ',' between values", text);
      inputs_error(r, at, msg);
      return false;
    }
  }
  bool dims_set = true;
  for (uint32_t v = 0; v < nd; v++) dims_set &= set[v];
  *full = n == nv;
  if (*full || (dims_set && n == nd)) return true;
  snprintf(msg, sizeof msg,
           "--eval=%s: give every variable (%u) or every dimension (%u; the symbols are then enumerated)", text, nv,
           nd);
  inputs_error(r, at, msg);
  return false;
}

/* ---- queries ------------------------------------------------------------------------------------ */

static void put_point(hb_strbuf *b, const char *const *names, const int64_t *vals, uint32_t n) {
  hb_sb_putc(b, '(');
  for (uint32_t v = 0; v < n; v++) hb_sb_printf(b, "%s%s = %" PRId64, v ? ", " : "", names[v], vals[v]);
  hb_sb_putc(b, ')');
}

static void put_tuple(hb_strbuf *b, const int64_t *v, uint32_t n) {
  hb_sb_putc(b, '(');
  for (uint32_t i = 0; i < n; i++) hb_sb_printf(b, "%s%" PRId64, i ? ", " : "", v[i]);
  hb_sb_putc(b, ')');
}

static void query_eval(run *r, const imap *m, const char *const *names, const char *text, size_t at) {
  uint32_t nd = m->ndims, nv = nd + imap_nsyms(m);
  int64_t *vals = hb_arena_zalloc(r->scratch, (nv + 1) * sizeof *vals);
  bool full;
  if (!parse_point(r, text, m, names, vals, &full, at)) return;
  hb_strbuf *b = &r->out;
  hb_sb_puts(b, "// at ");
  put_point(b, names, vals, full ? nv : nd);
  if (m->known_empty) {
    hb_sb_puts(b, ": the map is known to be empty\n");
    return;
  }
  if (full) {
    int64_t *res = hb_arena_zalloc(r->scratch, (m->nresults + 1) * sizeof *res);
    mo_violation *viol = hb_arena_array(r->scratch, nv + m->ncons + 1, sizeof *viol);
    uint32_t nviol;
    if (mo_eval(m, vals, res, viol, &nviol) != MO_EVAL_OK) {
      hb_sb_puts(b, ": an expression overflows int64 or divides by zero there\n");
      return;
    }
    hb_sb_puts(b, ": ");
    put_tuple(b, res, m->nresults);
    hb_sb_puts(b, nviol ? ", not in the domain: " : ", in the domain");
    for (uint32_t k = 0; k < nviol; k++) {
      if (k) hb_sb_puts(b, "; ");
      if (viol[k].is_var) {
        interval iv = viol[k].index < nd ? m->dim_iv[viol[k].index] : m->sym_iv[viol[k].index - nd];
        hb_sb_printf(b, "%s = %" PRId64 " is not in ", names[viol[k].index], viol[k].value);
        map_print_interval(b, iv);
      } else {
        const imap_constraint *c = &m->cons[viol[k].index];
        map_print_expr_names(b, c->expr, m, names);
        hb_sb_printf(b, " = %" PRId64 " is not in ", viol[k].value);
        map_print_interval(b, c->iv);
      }
    }
    hb_sb_putc(b, '\n');
    return;
  }
  int64_t *tuples;
  uint64_t n;
  const char *why = NULL;
  if (!mo_image(r->scratch, m, vals, IMAGE_MAX_POINTS, &tuples, &n, &why)) {
    hb_sb_printf(b, ": not enumerated: %s\n", why);
    return;
  }
  hb_sb_printf(b, ": %" PRIu64 " %s", n, n == 1 ? "result" : "results");
  if (n == 0) hb_sb_puts(b, " (not in the domain)");
  for (uint64_t i = 0; i < n && i < IMAGE_SHOWN; i++) {
    hb_sb_puts(b, i ? ", " : ": ");
    put_tuple(b, tuples + i * m->nresults, m->nresults);
  }
  if (n > IMAGE_SHOWN) hb_sb_puts(b, ", ...");
  hb_sb_putc(b, '\n');
}

static void query_ranges(run *r, const imap *m, const char *const *names) {
  hb_strbuf *b = &r->out;
  for (uint32_t i = 0; i < m->nresults; i++) {
    hb_sb_printf(b, "// result %u (", i);
    map_print_expr_names(b, m->results[i], m, names);
    hb_sb_puts(b, "): ");
    if (m->known_empty) {
      hb_sb_puts(b, "the map is known to be empty\n");
      continue;
    }
    mo_range_info ri;
    mo_range(m, i, RANGE_MAX_POINTS, &ri);
    if (ri.have_exact) {
      map_print_interval(b, ri.exact);
      hb_sb_puts(b, " exactly; ");
    } else if (ri.empty) {
      hb_sb_puts(b, "no value (the domain is empty); ");
    }
    hb_sb_puts(b, "XLA's range evaluation ");
    map_print_interval(b, ri.bound);
    if (!ri.have_exact && !ri.empty) hb_sb_puts(b, " (the domain is too large to enumerate)");
    hb_sb_putc(b, '\n');
  }
}

/* ---- one map --------------------------------------------------------------------------------------- */

static bool too_large_text(const imap *m) {
  for (uint32_t i = 0; i < m->nresults; i++)
    if (m->results[i]->tree_size > MAP_MAX_TEXT_NODES) return true;
  for (uint32_t k = 0; k < m->ncons; k++)
    if (m->cons[k].expr->tree_size > MAP_MAX_TEXT_NODES) return true;
  return false;
}

static void finish(run *r, mo_map m, size_t at) {
  const hloidx_options *o = r->o;
  if (o->mapop.submap) {
    uint32_t *sel, n;
    if (!parse_submap(r, m.map, &sel, &n, at)) return;
    m = mo_submap(r->scratch, m, sel, n);
  }
  if (o->mapop.symbols_to_dims) m = mo_symbols_to_dims(r->scratch, m);
  if (ae_ctx_status(r->ctx) != AE_STATUS_OK || too_large_text(m.map)) {
    ae_ctx_clear_status(r->ctx);
    char msg[160];
    snprintf(msg, sizeof msg, "analysis too large for this map: it would have more than %" PRIu64
             " expression nodes as text, or nest them more than %u deep", MAP_MAX_TEXT_NODES, AE_DEFAULT_MAX_DEPTH);
    inputs_error(r, at, msg);
    return;
  }
  if (!o->mapop.no_simplify &&
      imap_simplify_budgeted(m.map, SIMPLIFY_REPLACE_POINTS, MAP_NODE_BUDGET) != SIMPLIFY_OK) {
    char msg[160];
    snprintf(msg, sizeof msg, "analysis too large for this map: simplifying it exceeds the budget of %zu expression nodes",
             MAP_NODE_BUDGET);
    inputs_error(r, at, msg);
    return;
  }
  if (o->mapop.remove_unused) mo_remove_unused(&m, o->mapop.remove_unused);

  hb_strbuf *b = &r->out;
  hb_sb_reset(b);
  if (o->format == FMT_MLIR) {
    static const map_print_opts one_line = {false, 0};
    hb_sb_puts(b, "#xla.indexing_map<\"");
    map_print_named(b, m.map, &m.names, &one_line);
    hb_sb_puts(b, "\">");
  } else {
    map_print_opts po = {true, 0};
    map_print_named(b, m.map, &m.names, &po);
  }
  hb_sb_putc(b, '\n');
  if (!m.map->undefined && (o->mapop.neval || o->mapop.ranges)) {
    const char *const *names = map_names_resolve(r->scratch, m.map, &m.names);
    for (int k = 0; k < o->mapop.neval; k++) query_eval(r, m.map, names, o->mapop.eval[k], at);
    if (o->mapop.ranges) query_ranges(r, m.map, names);
  }
  inputs_emit(r);
}

/* ---- input ------------------------------------------------------------------------------------------ */

/* True when s[from, to) is a group separator line: `// -----` (five or more '-'). */
static bool separator_line(const char *s, size_t from, size_t to) {
  while (from < to && (s[from] == ' ' || s[from] == '\t')) from++;
  if (to - from < 2 || s[from] != '/' || s[from + 1] != '/') return false;
  from += 2;
  while (from < to && s[from] == ' ') from++;
  size_t dashes = 0;
  while (from < to && s[from] == '-') from++, dashes++;
  while (from < to && (s[from] == ' ' || s[from] == '\t' || s[from] == '\r')) from++;
  return dashes >= 5 && from == to;
}

/* End of the group starting at pos: the start of its separator line, or len. */
static size_t group_end(const char *s, size_t len, size_t pos, size_t *next) {
  size_t i = pos;
  while (i < len) {
    size_t e = i;
    while (e < len && s[e] != '\n') e++;
    if (separator_line(s, i, e)) {
      *next = e < len ? e + 1 : len;
      return i;
    }
    i = e < len ? e + 1 : len;
  }
  *next = len;
  return len;
}

/* The first byte of a chunk that is not blank or in a // comment line: where
 * a diagnostic about the whole map points. */
static size_t map_start(const char *s, size_t start, size_t end) {
  for (;;) {
    while (start < end && (s[start] == ' ' || s[start] == '\t' || s[start] == '\r' || s[start] == '\n')) start++;
    if (end - start < 2 || s[start] != '/' || s[start + 1] != '/') return start;
    while (start < end && s[start] != '\n') start++;
  }
}

static void compose_group(run *r, const char *s, size_t from, size_t to) {
  size_t pos = from, start, end, first_at = from;
  mo_map acc = {NULL, {NULL, NULL}};
  int n = 0;
  bool bad = false;
  hb_arena_reset(r->scratch);
  while (!output_failed() && map_read_next_chunk(s, to, &pos, &start, &end)) {
    map_read_error err;
    mo_map m;
    m.map = map_read_named(r->scratch, r->ctx, s, start, end, &m.names, &err);
    if (!m.map) {
      inputs_error(r, err.offset, err.message);
      bad = true;
      continue;
    }
    if (bad) continue;
    if (n++ == 0) {
      acc = m;
      first_at = map_start(s, start, end);
      continue;
    }
    if (!acc.map->undefined && !m.map->undefined && acc.map->nresults != m.map->ndims) {
      char msg[200];
      snprintf(msg, sizeof msg, "--compose: this map's dimensions (%u) do not match the results of the maps before it (%u)",
               m.map->ndims, acc.map->nresults);
      inputs_error(r, map_start(s, start, end), msg);
      bad = true;
      continue;
    }
    acc = mo_compose(r->scratch, acc, m);
  }
  if (bad || n == 0) return;
  finish(r, acc, first_at);
}

static void run_file(run *r) {
  const char *s = r->src->data;
  size_t len = r->src->len;
  if (r->o->mapop.compose) {
    size_t pos = 0;
    while (pos < len && !output_failed()) {
      size_t next, end = group_end(s, len, pos, &next);
      compose_group(r, s, pos, end);
      pos = next;
    }
    return;
  }
  size_t pos = 0, start, end;
  while (!output_failed() && map_read_next_chunk(s, len, &pos, &start, &end)) {
    hb_arena_reset(r->scratch);
    map_read_error err;
    mo_map m;
    m.map = map_read_named(r->scratch, r->ctx, s, start, end, &m.names, &err);
    if (!m.map) {
      inputs_error(r, err.offset, err.message);
      continue;
    }
    finish(r, m, map_start(s, start, end));
  }
}

int cmd_map(const hloidx_options *o) {
  return inputs_run_each(o, run_file, NULL);
}
