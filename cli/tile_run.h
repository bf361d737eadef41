/* The instruction walk of the tile modes (--tiles, its --verify and
 * --tilings): which instructions and outputs, which tile sizes, and the
 * analysis of each (analysis/fusion_tiling.h), handed to a report.
 *
 * Instructions: those the selection picks (select.h; default the ENTRY
 * root); with --all every fusion among them (the unit XLA's emitters
 * tile). Outputs: every output, or --output. Tile sizes of output N:
 * --tile-sizes when it has one size per dimension of that output (on one
 * instruction a different count is an error), else the fusion's
 * backend_config output_tiles[N] (analysis/backend_config.h), else none:
 * the block then holds the symbolic tiles only. Module and computation
 * headers are the default mode's (index_module_header; each report opens
 * the computation before its block, index_open_computation). */
#ifndef HLOIDX_TILE_RUN_H
#define HLOIDX_TILE_RUN_H

#include "fusion_tiling.h"
#include "index_run.h"

typedef struct {
  ii_status status;      /* of the analysis; err when not II_OK */
  ii_error err;
  bool sized;            /* tile sizes known: t is instantiated (t.holds: every part's tiles hold) */
  const char *from;      /* where they come from: "given" or "backend_config" */
  char why_unsized[200]; /* when not sized: why */
  ft_tiling t;           /* the whole output's, or a part's (r->part) */
  /* the operands the output does not read, as tile_put_unread writes
   * them: complete with the block (INDEX_WHOLE) or its last part */
  hb_strbuf unread;
  uint32_t nunread, unread_from;
} tile_block;

typedef void (*tile_block_fn)(index_run *r, const hlo_instr *in, int64_t output, const tile_block *b);

/* Whether the tile modes analyse IN (--all: fusions only). */
bool tile_selected(const index_run *r, const hlo_instr *in);
/* Runs the analysis of each output of IN the options select and hands it
 * to FN (an analysis error has been reported first, as in the default
 * mode: index_report_error; when that stops the instruction, FN is not
 * called and nothing of IN is printed). */
void tile_each_output(index_run *r, const hlo_instr *in, tile_block_fn fn);
/* The same for a report that takes a block in parts (r->part: the first
 * has the header, the last closes it): an instruction of one output and
 * thousands of operands (tile_parts) comes a part at a time, its tiles
 * derived (and instantiated) for one part at once. */
void tile_each_output_parts(index_run *r, const hlo_instr *in, tile_block_fn fn);

/* The parts of the tiling of output 0 of an instruction of one output and
 * INDEX_PARTS_FROM operands or more: index_part's (a concatenate in
 * parts), or chunks of INDEX_PART_ENTRIES stored entries of its out2in
 * block computed whole (a fusion of thousands of parameters: the maps
 * held, each chunk's tiles derived in an expression scope and an arena of
 * their own). */
typedef struct {
  index_run *r;
  const hlo_instr *in;
  const hlo_shape *shape; /* output 0's */
  bool held;              /* chunks of x */
  ii_indexing x;          /* held: the whole block */
  hb_arena *a;            /* held: a chunk's tiling */
  uint32_t ids[INDEX_PART_ENTRIES];
} tile_parts;
/* Whether IN goes in parts (the options permitting): then P is set up
 * (tile_parts_end frees it). */
bool tile_parts_begin(index_run *r, const hlo_instr *in, tile_parts *p);
/* Operands (index_part) or stored entries (chunks) to go over. */
uint32_t tile_parts_total(const tile_parts *p);
/* The part from LO into *T (its symbolic tiles), the next from *HI; false
 * when a first part fails (only a first part can). tile_parts_done ends
 * the part. */
bool tile_parts_get(tile_parts *p, uint32_t lo, uint32_t *hi, ft_tiling *t);
void tile_parts_done(tile_parts *p);
void tile_parts_end(tile_parts *p);

/* A ratio num / den with two decimals ("20", "1.50"), "n/a" when den is 0. */
void tile_put_ratio(hb_strbuf *b, tf_count num, tf_count den);
/* The shape as XLA prints it. */
void tile_put_shape(hb_strbuf *b, const hlo_shape *s);
/* The operands of T's op its output does not read (they are not kept in
 * T), as `0, 2-5, 7` (runs of three or more as FIRST-LAST), added to B's
 * unread list: those before T's operands, and with LAST those after. */
void tile_add_unread(tile_block *b, const ft_tiling *t, bool last);

#endif
