/* The output tile sizes XLA's Triton emitters chose for a fusion, read from
 * its backend_config: fusion_backend_config.block_level_fusion_config
 * .output_tiles[N].sizes (N = the output; sizes written as numbers or as
 * decimal strings). backend_config is opaque to the grammar (a raw value);
 * this reads the JSON of GPU dumps and the protobuf-text-like form of
 * XLA's tests (unquoted keys, commas optional), also inside a quoted
 * string. */
#ifndef HLOIDX_BACKEND_CONFIG_H
#define HLOIDX_BACKEND_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "hlo_ir.h"

typedef enum {
  BC_ABSENT = 0, /* no backend_config, or no output_tiles for this output */
  BC_FOUND = 1,
  BC_MALFORMED = 2, /* `why` says what */
} bc_status;

/* Sizes (in the arena) of output OUTPUT's tile, *n of them. */
bc_status bc_output_tile(hb_arena *a, const hlo_instr *in, int64_t output, int64_t **sizes, uint32_t *n, char *why,
                         size_t why_cap);

#endif
