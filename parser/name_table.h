/* A fixed set of names (the opcodes, the attribute catalogue) looked up by
 * text: open addressing over the names' hashes, filled once. A lookup is
 * one hash and, almost always, one comparison; a binary search of the
 * sorted names took about seven string comparisons, each a library call
 * with a hard-to-predict result, and every module does these lookups
 * again (its strings are its own). */
#ifndef HLOIDX_NAME_TABLE_H
#define HLOIDX_NAME_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NAME_TABLE_SLOTS 1024 /* a power of two, over four times the names */

typedef struct name_table {
  struct {
    uint32_t hash;
    uint16_t len;
    uint16_t index; /* the name's index + 1; 0 = empty */
  } slot[NAME_TABLE_SLOTS];
} name_table;

/* Fills T with NAMES(0) ... NAMES(N - 1): distinct, N < NAME_TABLE_SLOTS / 4
 * (callers check it at compile time). */
void name_table_fill(name_table *t, int n, const char *(*names)(int));
/* The index of the name S[0..len), or -1. */
int name_table_find(const name_table *t, const char *s, size_t len, const char *(*names)(int));

/* The name among NAMES(0) ... NAMES(N - 1) closest to S[0..len) by edit
 * distance (insertions, deletions, substitutions and transpositions of
 * neighbours), when it is close enough to be a likely misspelling (at most
 * a quarter of the length, and at least one); ties go to the first. Only
 * names for which OK(i, CTX) holds count (OK NULL: all). -1 if none. For
 * "did you mean" in messages: not fast. */
int name_table_closest(const char *s, size_t len, int n, const char *(*names)(int), bool (*ok)(int, void *),
                       void *ctx);

#endif
