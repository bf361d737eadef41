/* XLA's text for expressions and indexing maps (indexing-semantics.md
 * §2.1-§2.6, the V2 form). Output goes to a hb_strbuf; nothing is printed to
 * stdout. Two layouts with the same characters once whitespace is removed:
 *
 *   single line:  (d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 2]
 *   multi-line:   (d0)[s0] -> (d0 + s0),
 *                 domain:
 *                 d0 in [0, 9],
 *                 s0 in [0, 2]
 *
 * Every line of the multi-line form starts with `indent` spaces; no trailing
 * newline. Output is deterministic (constraints are sorted by strcmp of
 * their printed text, §2.3). `max(a, b)` and `min(a, b)` (XLA's symbolic
 * expressions) print as calls. */
#ifndef HLOIDX_MAP_PRINT_H
#define HLOIDX_MAP_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "indexing_map.h"
#include "map_names.h"
#include "../parser/base/strbuf.h"

typedef struct {
  bool multiline;
  int indent;
} map_print_opts;

/* §2.4. Symbol position p prints as s<p> if p < nrange, else rt<p-nrange>. */
void map_print_expr(hb_strbuf *b, const ae *e, uint32_t nrange);
/* `[lo, hi]`: the interval as the domain prints it (also used by the JSON
 * output, so that both write intervals the same way). */
void map_print_interval(hb_strbuf *b, interval iv);
/* `<expr> in [lo, hi]` */
void map_print_constraint(hb_strbuf *b, const ae *e, interval iv, uint32_t nrange);
/* `(d0, d1)[s0]{rt0} -> (results)` */
void map_print_header(hb_strbuf *b, const imap *m);
/* The whole map (§2.3); `UNDEFINED` / `KNOWN EMPTY` for the special states. */
void map_print(hb_strbuf *b, const imap *m, const map_print_opts *o);
/* The same with the variables' names (map_names.h; n may be NULL). */
void map_print_named(hb_strbuf *b, const imap *m, const map_names *n, const map_print_opts *o);

/* An expression of m with the names map_names_resolve gave (NULL: the
 * default names). */
void map_print_expr_names(hb_strbuf *b, const ae *e, const imap *m, const char *const *names);

/* Instruction indexing (§2.5, §2.6). */
typedef struct {
  const char *instr; /* V2 short text: "parameter(1)", "constant(99)", "constant", or a name */
  const imap *map;   /* the variable's own map (printed unsimplified) */
} map_rt_desc;

/* `operand id = N`, then a newline (multi-line) or one space (single line). */
void map_print_operand_header(hb_strbuf *b, uint32_t id, const map_print_opts *o);
/* One member of an operand entry, ending with a newline: `unknown indexing`
 * for an undefined map; otherwise the map, then if nrt > 0
 * `runtime variables:` and one `rt<j>: <instr>; <map>` per description, then
 * if replica != NULL `replica id:` and that map. In the single-line layout
 * the text is exactly XLA's (§2.6). */
void map_print_indexing(hb_strbuf *b, const imap *m, const map_rt_desc *rts, uint32_t nrt, const imap *replica,
                        const map_print_opts *o);

/* The order in which the maps of one entry are printed, on their
 * single-line texts (<0, 0, >0 as strcmp): blanks are skipped, runs of
 * digits compare as numbers (d9 before d10, 4 before 16), and a text whose
 * expression ends (at ')', ']', ',', '}' or the end) comes before one that
 * goes on (`d1 * 4` before `d1 * 4 + 1`); other characters compare as
 * bytes. Texts equal under these rules (leading zeros, blanks) return 0:
 * callers break the tie with strcmp. */
int map_text_order(const char *a, const char *b);

#endif
