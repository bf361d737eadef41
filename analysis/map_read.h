/* Reader for XLA's indexing-map text (indexing-semantics.md §2.3, §2.8).
 *
 * Accepted: `<header>, domain: <entries>` with one `NAME in [lo, hi]` entry
 * per variable in declaration order (names as in the header; any
 * identifiers), then constraints `<expr> in [lo, hi]`; `() -> (...)` maps
 * without variables need no domain; `UNDEFINED`. Leniencies from older
 * formats (§2.9): a trailing comma after the last entry, missing commas
 * between entries or before `domain:`, and a trailing `is_simplified: true|false`.
 * The MLIR attribute form `#xla.indexing_map<"TEXT">` (what --format=mlir
 * prints) reads as TEXT. Whitespace is free; `//` starts a comment that runs to the end of the line.
 *
 * Expressions: MLIR's grammar (`+`/`-` loosest and left-associative; `*`,
 * `floordiv`, `ceildiv`, `mod` tighter and left-associative; parentheses;
 * `2 * d0` with the constant on the left) plus the shorthand of XLA's docs:
 * `100d0` (an integer immediately followed by a name means a product) and
 * `floorDiv` / `ceilDiv`. A unary minus at the start of a term negates the
 * whole term (`-x floordiv 11` is `-(x floordiv 11)`, as XLA's docs mean it);
 * after a tight operator it negates one operand (`d0 * -2`). XLA's printer
 * never prints text where the two readings differ. Every node is built
 * through the smart constructors (§6.1). `max(a, b)` and `min(a, b)`
 * (XLA's symbolic expressions, V2) are read where a name `max` / `min` is
 * followed by '('. Products of two dimension-containing
 * operands and divisors that contain dimensions are rejected, as in MLIR.
 * Constraints are added with the §1.3 procedure. */
#ifndef HLOIDX_MAP_READ_H
#define HLOIDX_MAP_READ_H

#include <stddef.h>

#include "indexing_map.h"
#include "map_names.h"

typedef struct {
  size_t offset; /* byte offset of the problem within the text */
  char message[200];
} map_read_error;

/* Nesting limit for parentheses / unary minus, and depth limit of the
 * expressions built. */
#define MAP_READ_MAX_NESTING 256
#define MAP_READ_MAX_DEPTH 1000
/* Variables of one map: at most this many dimensions, and this many symbols
 * (range and runtime variables together); also the limit on results and on
 * constraints. (The analysis produces at most HLO_MAX_RANK = 1024 dimensions;
 * the simplifier's cost grows faster than linearly with these counts.) */
#define MAP_READ_MAX_VARS 4096

/* Reads exactly one map from text[start, end) (anything but whitespace and
 * comments after it is an error). Returns NULL and fills *err on error.
 * The map is allocated in `a`, its expressions in `ctx`. */
imap *map_read(hb_arena *a, ae_ctx *ctx, const char *text, size_t start, size_t end, map_read_error *err);
/* The same, and the variables' names as written (map_names.h), allocated in
 * a, when names is not NULL. */
imap *map_read_named(hb_arena *a, ae_ctx *ctx, const char *text, size_t start, size_t end, map_names *names,
                     map_read_error *err);

/* Splits a text holding several maps separated by blank lines (lines of
 * whitespace only; a line ends at \n, \r\n or a bare \r), as hloidx --map
 * reads its input: finds the first chunk at or after *pos that holds more
 * than whitespace and // comments, sets [*start, *end) to it and *pos past
 * it, and returns true; false when there is none. */
bool map_read_next_chunk(const char *text, size_t len, size_t *pos, size_t *start, size_t *end);

/* Reads one expression over the canonical names d<i> (i < ndims), s<j>
 * (j < nrange) and rt<k> (k < nrt); for tests and tools. */
const ae *map_read_expr(ae_ctx *ctx, const char *text, uint32_t ndims, uint32_t nrange, uint32_t nrt,
                        map_read_error *err);

#endif
