/* String interning: an open-addressing hash table whose strings live in an
 * arena. Each interned string is unique in its table until the table is
 * reset, so equal strings are equal pointers. Every string carries a small
 * header (hlo_istr) that the parser uses to cache facts about the word
 * (opcode, attribute kind) and the definitions that currently use it as a
 * name.
 *
 * The parser keeps one table for all the modules it reads and resets it at
 * each module, whose arena then receives the strings: a reset empties
 * the table's first 512 slots (4 KiB: the slots of a small module stay in
 * the cache from one module to the next) or gives back the larger buffer
 * a large module grew. */
#ifndef HLOIDX_INTERN_H
#define HLOIDX_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "byte_scan.h" /* BS_SSE2 */

typedef struct hb_arena hb_arena;
typedef struct hlo_intern hlo_intern;
struct hlo_instr;
struct hlo_shape;

/* (24 bytes: a module has a name per instruction. The rarer facts of a
 * word, the computation it names and the "<op>.anon" counter, are in the
 * parser's side tables.) */
typedef struct hlo_istr {
  uint32_t len;                  /* bytes, without the NUL */
  uint32_t def_gen;              /* scope generation in which def is valid */
  uint32_t attr_gen;             /* last attribute list that used this name (duplicate check) */
  uint16_t opcode;               /* cached opcode lookup (opcode | wrapped << 8): 0xffff = not looked up yet */
  int16_t attr;                  /* cached pc_attr_id: -1 = not looked up yet, PC_ATTR_NONE = not an attribute */
  struct hlo_instr *def;         /* the instruction with this name in scope def_gen */
  /* the NUL-terminated bytes follow */
} hlo_istr;

/* An empty table (malloc'd); strings go to A (which may be NULL until the
 * first hlo_intern_reset). */
hlo_intern *hlo_intern_new(hb_arena *a);
void hlo_intern_free(hlo_intern *t);
/* Forgets every string (they stay where they are, in their arena); new
 * ones go to A. */
void hlo_intern_reset(hlo_intern *t, hb_arena *a);
/* Empties a table grown past its first 512 slots and gives its buffers
 * back (a large module, finished); false, and nothing done, for a small
 * one. */
bool hlo_intern_shrink(hlo_intern *t);
/* Strings interned since the last reset. */
size_t hlo_intern_count(const hlo_intern *t);
/* The unique copy of S[0..len) (inserted when new). */
const char *hlo_intern_str(hlo_intern *t, const char *s, size_t len);
/* The same, returning the header. */
hlo_istr *hlo_intern_get(hlo_intern *t, const char *s, size_t len);
/* Header of an interned string, and back. */
static inline hlo_istr *hlo_istr_of(const char *interned) { return (hlo_istr *)(uintptr_t)interned - 1; }
static inline const char *hlo_istr_str(const hlo_istr *h) { return (const char *)(h + 1); }

static inline uint64_t hlo_hash_mix_(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

/* s == t for LEN bytes, without a library call: the texts compared while
 * parsing (names, shapes) are short, and the call's dispatch on the length
 * costs more than the comparison. Blocks of 16 bytes with SSE2 (from 16
 * bytes on), else words of eight; the last one overlaps the one before
 * instead of a loop over the remaining bytes. */
static inline bool hlo_same_bytes(const char *s, const char *t, size_t len) {
  uint64_t a, b;
#ifdef BS_SSE2
  if (len >= 16) { /* long tuple shape texts: 16 bytes at a time */
    size_t i = 0;
    for (; i + 16 < len; i += 16) {
      __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(t + i));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) != 0xffff) return false;
    }
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(t + len - 16));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
  }
#endif
  if (len >= 8) {
    size_t i = 0;
    for (; i + 8 < len; i += 8) {
      memcpy(&a, s + i, 8);
      memcpy(&b, t + i, 8);
      if (a != b) return false;
    }
    memcpy(&a, s + len - 8, 8);
    memcpy(&b, t + len - 8, 8);
    return a == b;
  }
  if (len >= 4) {
    uint32_t x, y, z, w;
    memcpy(&x, s, 4);
    memcpy(&y, t, 4);
    memcpy(&z, s + len - 4, 4);
    memcpy(&w, t + len - 4, 4);
    return x == y && z == w;
  }
  for (size_t i = 0; i < len; i++)
    if (s[i] != t[i]) return false;
  return true;
}

/* The hash used by the table (and by the shape cache): multiply-mixing of
 * 8-byte words; the last word overlaps the previous one instead of a loop
 * over the remaining bytes (names are short), and strings under 8 bytes
 * take two overlapping 4-byte loads or up to three bytes. Nothing outside
 * s[0..len) is read. Inline: it is on the path of every name and shape
 * lookup. */
static inline uint32_t hlo_hash_inline(const char *s, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull ^ len, w;
  uint32_t a, b;
  if (len >= 8) {
    size_t i = 0;
    for (; i + 8 < len; i += 8) {
      memcpy(&w, s + i, 8);
      h = hlo_hash_mix_(h, w);
    }
    memcpy(&w, s + len - 8, 8);
    h = hlo_hash_mix_(h, w);
  } else if (len >= 4) {
    memcpy(&a, s, 4);
    memcpy(&b, s + len - 4, 4);
    h = hlo_hash_mix_(h, (uint64_t)a << 32 | b);
  } else if (len > 0) {
    h = hlo_hash_mix_(h, (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[len / 2] << 8 |
                             (unsigned char)s[len - 1]);
  }
  return (uint32_t)((h * 0xff51afd7ed558ccdull) >> 32); /* the high half depends on every bit */
}

#endif
