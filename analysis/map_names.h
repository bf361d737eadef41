/* Variable names of an indexing map, as a map text wrote them.
 *
 * XLA keeps the names a map was written or built with (`(th_x, bl_x)`,
 * `[chunk_id]`) and prints them back; the analysis never names a variable,
 * so names live beside the map, not in it, and only the map reader and the
 * map operations (map_ops.h) carry them.
 *
 * A NULL entry is the default name of the variable's kind and position:
 * d<i> for dimension i, s<j> for range variable j, rt<k> for runtime
 * variable k. The reader stores a written name that equals that default as
 * NULL, so default names follow their variable when an operation renumbers
 * it (a removed d0 makes d1 the new d0), while other names stay as written.
 *
 * Printed names must be distinct for the text to read back; an operation
 * can make two equal (composing two maps that both name a variable th_x, a
 * symbol that becomes dimension d2 in a map whose first dimension is named
 * d2). map_names_resolve keeps the first of equal names and gives each later
 * one the suffix _N with the smallest N that makes it unique. */
#ifndef HLOIDX_MAP_NAMES_H
#define HLOIDX_MAP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/base/arena.h"
#include "indexing_map.h"

typedef struct {
  const char **dims; /* ndims entries, or NULL: all default */
  const char **syms; /* nrange + nrt entries (range first), or NULL: all default */
} map_names;

/* True when s[0, len) is the default name of a variable: d<i> when is_dim,
 * else s<j> when pos < nrange and rt<pos - nrange> otherwise (decimal, no
 * leading zeros). */
bool map_name_is_default(const char *s, size_t len, bool is_dim, uint32_t pos, uint32_t nrange);

/* True when every entry is NULL (or the arrays are). */
bool map_names_all_default(const imap *m, const map_names *n);

/* Empty names for a map of ndims dimensions and nsyms symbols (every entry
 * NULL), allocated in a. */
map_names map_names_new(hb_arena *a, uint32_t ndims, uint32_t nsyms);

/* The printed name of every variable of m (dimensions, then range, then
 * runtime variables), distinct as said above. Strings and the array live
 * in a. */
const char **map_names_resolve(hb_arena *a, const imap *m, const map_names *n);

#endif
