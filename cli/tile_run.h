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
  bool sized;            /* tile sizes known: t is instantiated */
  const char *from;      /* where they come from: "given" or "backend_config" */
  char why_unsized[200]; /* when not sized: why */
  ft_tiling t;
} tile_block;

typedef void (*tile_block_fn)(index_run *r, const hlo_instr *in, int64_t output, const tile_block *b);

/* Whether the tile modes analyse IN (--all: fusions only). */
bool tile_selected(const index_run *r, const hlo_instr *in);
/* Runs the analysis of each output of IN the options select and hands it
 * to FN (an analysis error has been reported first, as in the default
 * mode: index_report_error; when that stops the instruction, FN is not
 * called and nothing of IN is printed). */
void tile_each_output(index_run *r, const hlo_instr *in, tile_block_fn fn);

/* A ratio num / den with two decimals ("20", "1.50"), "n/a" when den is 0. */
void tile_put_ratio(hb_strbuf *b, tf_count num, tf_count den);
/* The shape as XLA prints it. */
void tile_put_shape(hb_strbuf *b, const hlo_shape *s);

#endif
