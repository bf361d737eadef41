#include "map_print.h"

#include "../parser/base/oom.h"
#include <stdlib.h>
#include <string.h>

static void put_neg_abs(hb_strbuf *b, int64_t v) { hb_sb_put_u64(b, (uint64_t)0 - (uint64_t)v); } /* v < 0 */

/* How variables print: v == NULL gives the default names; otherwise v holds
 * ndims dimension names, then the symbol names. */
typedef struct {
  const char *const *v;
  uint32_t ndims, nrange, nsyms;
} pnames;

static void put_sym(hb_strbuf *b, int64_t pos, const pnames *nm) {
  if (nm->v && pos < (int64_t)nm->nsyms) {
    hb_sb_puts(b, nm->v[nm->ndims + pos]);
  } else if (pos < (int64_t)nm->nrange) {
    hb_sb_putc(b, 's');
    hb_sb_put_i64(b, pos);
  } else {
    hb_sb_puts(b, "rt");
    hb_sb_put_i64(b, pos - nm->nrange);
  }
}

static void put_dim(hb_strbuf *b, int64_t pos, const pnames *nm) {
  if (nm->v && pos < (int64_t)nm->ndims) {
    hb_sb_puts(b, nm->v[pos]);
  } else {
    hb_sb_putc(b, 'd');
    hb_sb_put_i64(b, pos);
  }
}

static void pe(hb_strbuf *b, const ae *e, bool wrap, const pnames *nm) {
  switch (e->kind) {
  case AE_CONST: hb_sb_put_i64(b, e->value); return;
  case AE_DIM: put_dim(b, e->value, nm); return;
  case AE_SYM: put_sym(b, e->value, nm); return;
  case AE_MAX:
  case AE_MIN:
    /* XLA's symbolic expressions: a call, atomic wherever it stands */
    hb_sb_puts(b, e->kind == AE_MAX ? "max(" : "min(");
    pe(b, e->lhs, false, nm);
    hb_sb_puts(b, ", ");
    pe(b, e->rhs, false, nm);
    hb_sb_putc(b, ')');
    return;
  case AE_ADD: {
    if (wrap) hb_sb_putc(b, '(');
    const ae *r = e->rhs;
    if (r->kind == AE_MUL && r->rhs->kind == AE_CONST && r->rhs->value <= -1) {
      pe(b, e->lhs, false, nm);
      hb_sb_puts(b, " - ");
      if (r->rhs->value == -1) {
        pe(b, r->lhs, r->lhs->kind == AE_ADD, nm);
      } else {
        pe(b, r->lhs, true, nm);
        hb_sb_puts(b, " * ");
        put_neg_abs(b, r->rhs->value);
      }
    } else if (r->kind == AE_CONST && r->value < 0) {
      pe(b, e->lhs, false, nm);
      hb_sb_puts(b, " - ");
      put_neg_abs(b, r->value);
    } else {
      pe(b, e->lhs, false, nm);
      hb_sb_puts(b, " + ");
      pe(b, r, false, nm);
    }
    if (wrap) hb_sb_putc(b, ')');
    return;
  }
  default: break;
  }
  if (wrap) hb_sb_putc(b, '(');
  if (e->kind == AE_MUL && ae_is_const_value(e->rhs, -1)) {
    hb_sb_putc(b, '-');
    pe(b, e->lhs, true, nm);
  } else {
    static const char *const ops[] = {[AE_MUL] = " * ", [AE_MOD] = " mod ", [AE_FLOORDIV] = " floordiv ",
                                      [AE_CEILDIV] = " ceildiv "};
    pe(b, e->lhs, true, nm);
    hb_sb_puts(b, ops[e->kind]);
    pe(b, e->rhs, true, nm);
  }
  if (wrap) hb_sb_putc(b, ')');
}

void map_print_expr(hb_strbuf *b, const ae *e, uint32_t nrange) {
  pnames nm = {NULL, 0, nrange, 0};
  pe(b, e, false, &nm);
}

void map_print_interval(hb_strbuf *b, interval iv) {
  hb_sb_putc(b, '[');
  hb_sb_put_i64(b, iv.lo);
  hb_sb_puts(b, ", ");
  hb_sb_put_i64(b, iv.hi);
  hb_sb_putc(b, ']');
}

static void put_constraint(hb_strbuf *b, const ae *e, interval iv, const pnames *nm) {
  pe(b, e, false, nm);
  hb_sb_puts(b, " in ");
  map_print_interval(b, iv);
}

void map_print_constraint(hb_strbuf *b, const ae *e, interval iv, uint32_t nrange) {
  pnames nm = {NULL, 0, nrange, 0};
  put_constraint(b, e, iv, &nm);
}

static void put_header(hb_strbuf *b, const imap *m, const pnames *nm) {
  hb_sb_putc(b, '(');
  for (uint32_t i = 0; i < m->ndims; i++) {
    if (i) hb_sb_puts(b, ", ");
    put_dim(b, i, nm);
  }
  hb_sb_putc(b, ')');
  if (m->nrange) {
    hb_sb_putc(b, '[');
    for (uint32_t i = 0; i < m->nrange; i++) {
      if (i) hb_sb_puts(b, ", ");
      put_sym(b, i, nm);
    }
    hb_sb_putc(b, ']');
  }
  if (m->nrt) {
    hb_sb_putc(b, '{');
    for (uint32_t i = 0; i < m->nrt; i++) {
      if (i) hb_sb_puts(b, ", ");
      put_sym(b, (int64_t)m->nrange + i, nm);
    }
    hb_sb_putc(b, '}');
  }
  hb_sb_puts(b, " -> (");
  for (uint32_t i = 0; i < m->nresults; i++) {
    if (i) hb_sb_puts(b, ", ");
    pe(b, m->results[i], false, nm);
  }
  hb_sb_putc(b, ')');
}

void map_print_header(hb_strbuf *b, const imap *m) {
  pnames nm = {NULL, m->ndims, m->nrange, imap_nsyms(m)};
  put_header(b, m, &nm);
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = hb_malloc(n);
  memcpy(p, s, n);
  return p;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void print_map(hb_strbuf *b, const imap *m, const map_print_opts *o, const pnames *nm) {
  static const map_print_opts dflt = {false, 0};
  if (!o) o = &dflt;
  int ind = o->multiline ? o->indent : 0;
  if (o->multiline) hb_sb_indent(b, ind);
  if (m->undefined) {
    hb_sb_puts(b, "UNDEFINED");
    return;
  }
  if (m->known_empty) {
    hb_sb_puts(b, "KNOWN EMPTY");
    return;
  }
  put_header(b, m, nm);
  uint32_t nsyms = imap_nsyms(m);
  if (m->ndims + nsyms == 0) return;
  const char *sep = o->multiline ? ",\n" : ", ";
  hb_sb_puts(b, sep);
  if (o->multiline) hb_sb_indent(b, ind);
  hb_sb_puts(b, o->multiline ? "domain:\n" : "domain: ");
  /* the variables in order, written directly */
  uint32_t nv = m->ndims + nsyms;
  for (uint32_t i = 0; i < nv; i++) {
    if (o->multiline) hb_sb_indent(b, ind);
    if (i < m->ndims) put_dim(b, i, nm);
    else put_sym(b, i - m->ndims, nm);
    hb_sb_puts(b, " in ");
    map_print_interval(b, i < m->ndims ? m->dim_iv[i] : m->sym_iv[i - m->ndims]);
    if (i + 1 < nv || m->ncons) hb_sb_puts(b, sep);
  }
  if (m->ncons == 0) return;
  /* the constraints sorted by their text (strcmp, §2.3) */
  char **ent = hb_malloc(m->ncons * sizeof *ent);
  hb_strbuf t = HB_STRBUF_INIT;
  for (uint32_t i = 0; i < m->ncons; i++) {
    hb_sb_reset(&t);
    put_constraint(&t, m->cons[i].expr, m->cons[i].iv, nm);
    ent[i] = xstrdup(hb_sb_str(&t));
  }
  if (m->ncons > 1) qsort(ent, m->ncons, sizeof *ent, cmp_str);
  for (uint32_t i = 0; i < m->ncons; i++) {
    if (o->multiline) hb_sb_indent(b, ind);
    hb_sb_puts(b, ent[i]);
    if (i + 1 < m->ncons) hb_sb_puts(b, sep);
    free(ent[i]);
  }
  free(ent);
  hb_sb_free(&t);
}

void map_print(hb_strbuf *b, const imap *m, const map_print_opts *o) {
  pnames nm = {NULL, m->ndims, m->nrange, imap_nsyms(m)};
  print_map(b, m, o, &nm);
}

void map_print_named(hb_strbuf *b, const imap *m, const map_names *n, const map_print_opts *o) {
  if (map_names_all_default(m, n) || m->undefined) {
    map_print(b, m, o);
    return;
  }
  hb_arena *a = hb_arena_new();
  pnames nm = {map_names_resolve(a, m, n), m->ndims, m->nrange, imap_nsyms(m)};
  print_map(b, m, o, &nm);
  hb_arena_free(a);
}

void map_print_expr_names(hb_strbuf *b, const ae *e, const imap *m, const char *const *names) {
  pnames nm = {names, m->ndims, m->nrange, imap_nsyms(m)};
  pe(b, e, false, &nm);
}

void map_print_operand_header(hb_strbuf *b, uint32_t id, const map_print_opts *o) {
  if (o && o->multiline) hb_sb_indent(b, o->indent);
  hb_sb_puts(b, "operand id = ");
  hb_sb_put_u64(b, id);
  hb_sb_putc(b, o && o->multiline ? '\n' : ' ');
}

void map_print_indexing(hb_strbuf *b, const imap *m, const map_rt_desc *rts, uint32_t nrt, const imap *replica,
                        const map_print_opts *o) {
  static const map_print_opts dflt = {false, 0};
  if (!o) o = &dflt;
  bool ml = o->multiline;
  if (m->undefined) {
    if (ml) hb_sb_indent(b, o->indent);
    hb_sb_puts(b, "unknown indexing\n");
    return;
  }
  map_print(b, m, o);
  if (nrt > 0) {
    hb_sb_putc(b, '\n');
    if (ml) hb_sb_indent(b, o->indent);
    hb_sb_puts(b, ml ? "runtime variables:\n" : "runtime variables:\n\n");
    for (uint32_t j = 0; j < nrt; j++) {
      if (j && !ml) hb_sb_putc(b, '\n');
      if (ml) hb_sb_indent(b, o->indent);
      hb_sb_puts(b, "rt");
      hb_sb_put_u64(b, j);
      hb_sb_puts(b, ": ");
      hb_sb_puts(b, rts[j].instr ? rts[j].instr : "");
      hb_sb_puts(b, ml ? ";\n" : "; ");
      map_print_opts sub = {ml, o->indent + 2};
      map_print(b, rts[j].map, &sub);
      if (ml && j + 1 < nrt) hb_sb_putc(b, '\n');
    }
  }
  if (replica) {
    hb_sb_putc(b, '\n');
    if (ml) hb_sb_indent(b, o->indent);
    hb_sb_puts(b, "replica id:\n");
    map_print_opts sub = {ml, o->indent + (ml ? 2 : 0)};
    map_print(b, replica, &sub);
  }
  hb_sb_putc(b, '\n');
}

/* Rank of a character outside a digit run: the end of the text and the
 * characters that end an expression first, then the others by byte. */
static int text_rank(unsigned char c) {
  if (c == 0) return 0;
  if (c == ')' || c == ']' || c == ',' || c == '}') return 1;
  return 2 + c;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

int map_text_order(const char *a, const char *b) {
  for (;;) {
    while (*a == ' ') a++;
    while (*b == ' ') b++;
    if (is_digit(*a) && is_digit(*b)) {
      while (*a == '0' && is_digit(a[1])) a++;
      while (*b == '0' && is_digit(b[1])) b++;
      size_t na = 0, nb = 0;
      while (is_digit(a[na])) na++;
      while (is_digit(b[nb])) nb++;
      if (na != nb) return na < nb ? -1 : 1;
      int c = memcmp(a, b, na);
      if (c) return c < 0 ? -1 : 1;
      a += na;
      b += nb;
      continue;
    }
    int ra = text_rank((unsigned char)*a), rb = text_rank((unsigned char)*b);
    if (ra != rb) return ra < rb ? -1 : 1;
    if (!*a) return 0;
    a++;
    b++;
  }
}
