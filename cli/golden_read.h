/* --compare's view of a run's maps: blocks of entries of map texts, read
 * from a golden file (golden_read.c) or collected from the current
 * analysis (cmd_compare.c). Everything lives in the document's arena; map
 * texts point into the golden's bytes where they were read from text.
 *
 * Golden forms read (detected from the content):
 *  - hloidx's text output, any version of its headers: `## module NAME`
 *    with or without ` (FILE)`, `## computation NAME` (ignored), block
 *    headers `# NAME (out2in, output N...)` / `# NAME (in2out, operand N...)`
 *    / `# NAME (in2out, input operand N...)` with `, physical` or `, tiled`
 *    among the items and any `: TAIL` (other `#` lines are comments); or
 *    no headers at all (one pinned block). Maps in the multi-line or the
 *    single-line layout;
 *    Entry lines `operand id = N`, or `output id = N` (in2out blocks of
 *    hloidx's later versions);
 *  - XLA's own text (HloInstructionIndexing::ToString): `operand id = N`
 *    followed on the same line by its maps, concatenated, `unknown
 *    indexing`, `KNOWN EMPTY`;
 *  - runtime variables in either version: `runtime variables:` then
 *    `rtJ: INSTR; MAP` with INSTR as XLA's V1 HLO text (`%p = s32[]
 *    parameter(1)`) or V2 short form (`parameter(1)`), and `replica id:`
 *    then a map;
 *  - --format=mlir (`#xla.indexing_map<"MAP">` wherever a map goes);
 *  - --format=json (the "text" of every map; errors ignored). */
#ifndef HLOIDX_GOLDEN_READ_H
#define HLOIDX_GOLDEN_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "map_relation.h"
#include "source.h"

typedef struct {
  const char *instr;      /* the producing instruction as printed (V1 or V2), trimmed */
  const char *instr_name; /* collected side: the instruction's name (V1 goldens name it); else NULL */
  mrel_text map;
} cmp_rt;

typedef struct { /* (fields by size: a golden can hold millions) */
  mrel_text map;
  mrel_text replica;
  cmp_rt *rt;
  uint32_t nrt;
  bool has_replica;
} cmp_member;

typedef struct {
  long id;        /* `operand id = N` */
  size_t offset;  /* golden: where it starts (for diagnostics) */
  uint32_t n, cap;
  cmp_member *m;
} cmp_entry;

enum { CMP_LAYOUT_UNKNOWN = -1, CMP_LOGICAL = 0, CMP_PHYSICAL = 1, CMP_TILED = 2 };

typedef struct { /* (fields by size) */
  const char *module; /* NULL: the golden names no module */
  const char *instr;  /* NULL: a golden without headers (one pinned block) */
  const char *tail;   /* the header's `: TAIL` ("not analyzed: ...", "no operands"), or NULL */
  size_t offset;
  cmp_entry *e;
  long id;            /* output (o2i) or operand (i2o); -1 when the header has none */
  int layout;         /* CMP_* */
  uint32_t n, cap;
  bool o2i;
  bool matched;
} cmp_block;

typedef struct {
  hb_arena *a;
  size_t n, cap;
  cmp_block *b;
} cmp_doc;

void cmp_doc_init(cmp_doc *d);
void cmp_doc_free(cmp_doc *d);
/* Empties D (its arena kept for the next blocks). */
void cmp_doc_clear(cmp_doc *d);
/* Appends an empty block / entry / member (pointers stay valid until the
 * next append to the same array). */
cmp_block *cmp_add_block(cmp_doc *d);
cmp_entry *cmp_add_entry(cmp_doc *d, cmp_block *b, long id);
cmp_member *cmp_add_member(cmp_doc *d, cmp_entry *e);
cmp_rt *cmp_add_rt(cmp_doc *d, cmp_member *m);

/* Whether SRC is an HLO dump (its first word, after blank lines and
 * comments, is HloModule) rather than a golden. */
bool cmp_is_hlo_dump(const source_file *src);

/* Reads the golden SRC into D. Returns 0, or 1 after a FILE:LINE:COL
 * diagnostic (text that is no golden hloidx wrote). */
int cmp_read_golden(const source_file *src, cmp_doc *d);

#endif
