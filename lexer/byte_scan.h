/* Skipping runs of bytes in the NUL-terminated input buffer: 16 bytes at a
 * time with SSE2 where the compiler targets it (every x86-64). Metadata
 * strings, tuple shape texts and backend_config dictionaries are long runs
 * of bytes that only need to be stepped over up to the first of a few
 * (bs_skip_to3, else 8 at a time in a 64-bit word). Names, element types,
 * dimension lists and layouts are short runs of a class of bytes, read a
 * block at a time because a byte loop of varying length mispredicts its
 * end (SSE2 only: the word version reads them byte by byte). */
#ifndef HLOIDX_BYTE_SCAN_H
#define HLOIDX_BYTE_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Where SSE2 is used (here and by hlo_same_bytes in intern.h);
 * -DHLOIDX_NO_SIMD builds the word versions on x86-64 too, to test them. */
#if defined(__SSE2__) && defined(__GNUC__) && !defined(HLOIDX_NO_SIMD)
#include <emmintrin.h>
#define BS_SSE2 1
#endif

/* A position at or after P with none of A, B, C and NUL in [P, it): the
 * first such byte, or where the blocks stopped (fewer than a block's bytes
 * before LIM, the buffer's final NUL, or a word holding one of them in the
 * word version). The caller goes on byte by byte from there. */
static inline const char *bs_skip_to3(const char *p, const char *lim, char a, char b, char c) {
#ifdef BS_SSE2
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c), z = _mm_setzero_si128();
  while (p + 16 <= lim) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                             _mm_or_si128(_mm_cmpeq_epi8(v, vc), _mm_cmpeq_epi8(v, z)));
    unsigned bits = (unsigned)_mm_movemask_epi8(m);
    if (bits) return p + __builtin_ctz(bits);
    p += 16;
  }
#else
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  while (p + 8 <= lim) {
    uint64_t v, x = 0;
    memcpy(&v, p, 8);
    /* the bytes of v equal to 0, A, B or C get their high bit set (the first exactly) */
    uint64_t ya = v ^ (ones * (unsigned char)a), yb = v ^ (ones * (unsigned char)b), yc = v ^ (ones * (unsigned char)c);
    x |= (v - ones) & ~v;
    x |= (ya - ones) & ~ya;
    x |= (yb - ones) & ~yb;
    x |= (yc - ones) & ~yc;
    if (x & highs) break;
    p += 8;
  }
#endif
  return p;
}

#ifdef BS_SSE2
/* The blocks of 16 bytes from *P while one fits before LIM, each
 * classified by IN_RUN (a byte mask: 0xff where the run goes on): *P
 * becomes the first byte out of the run (returns true), or where the
 * blocks stopped (false: the caller reads the rest byte by byte). (IN_RUN
 * is a constant wherever this is inlined, and is inlined in turn.) */
static inline bool bs_skip_blocks(const char **pp, const char *lim, __m128i (*in_run)(__m128i)) {
  for (const char *p = *pp; p + 16 <= lim; p += 16) {
    unsigned bits = ~(unsigned)_mm_movemask_epi8(in_run(_mm_loadu_si128((const __m128i *)(const void *)p))) & 0xffffu;
    if (bits) {
      *pp = p + __builtin_ctz(bits);
      return true;
    }
    *pp = p + 16;
  }
  return false;
}
/* Unsigned byte ranges lo..lo + n (x - lo <= n as min(x - lo, n) == x - lo). */
static inline __m128i bs_in_range(__m128i v, char lo, char n) {
  __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(n)), d);
}
static inline __m128i bs_eq(__m128i v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); }
static inline __m128i bs_or3(__m128i a, __m128i b, __m128i c) { return _mm_or_si128(a, _mm_or_si128(b, c)); }
/* [A-Za-z0-9_.\-]: letters of either case are one range once 0x20 is set */
static inline __m128i bs_id_block(__m128i v) {
  return _mm_or_si128(bs_or3(bs_in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25), bs_in_range(v, '0', 9),
                             bs_eq(v, '_')),
                      _mm_or_si128(bs_eq(v, '.'), bs_eq(v, '-')));
}
static inline __m128i bs_lower_digit_block(__m128i v) { return _mm_or_si128(bs_in_range(v, 'a', 25), bs_in_range(v, '0', 9)); }
static inline __m128i bs_dims_block(__m128i v) {
  return _mm_or_si128(bs_or3(bs_in_range(v, '0', 9), bs_eq(v, ','), bs_eq(v, ' ')),
                      bs_or3(bs_eq(v, '<'), bs_eq(v, '='), bs_eq(v, '?')));
}
/* anything but the bytes that end or break a layout's text { } / \n " NUL */
static inline __m128i bs_layout_block(__m128i v) {
  __m128i stop = _mm_or_si128(bs_or3(bs_eq(v, '}'), bs_eq(v, '{'), bs_eq(v, '/')),
                              bs_or3(bs_eq(v, '\n'), bs_eq(v, '"'), bs_eq(v, '\0')));
  return _mm_xor_si128(stop, _mm_set1_epi8(-1));
}
#define BS_SKIP_BLOCKS(p, lim, in_run) bs_skip_blocks(&(p), (lim), (in_run))
#else
/* (the word version: the byte loops do all of it) */
#define BS_SKIP_BLOCKS(p, lim, in_run) ((void)(lim), false)
#endif

/* The bytes of a run that the scans below step over, one at a time (the
 * tail of a run, after the blocks). */
/* a later byte of the lexer's id, [A-Za-z0-9_.\-] (lexer/hlo_lexer.re) */
static inline int bs_id_tail_byte(unsigned char c) {
  return (unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10 || c == '_' || c == '.' || c == '-';
}
/* an array shape's element type [a-z0-9] and dimensions [0-9,<=? ] */
static inline int bs_lower_digit_byte(unsigned char c) { return (unsigned char)(c - 'a') < 26 || (unsigned char)(c - '0') < 10; }
static inline int bs_dims_byte(unsigned char c) {
  return (unsigned char)(c - '0') < 10 || c == ',' || c == ' ' || c == '<' || c == '=' || c == '?';
}

/* The end of the run of id bytes starting at P: names are read a block at
 * a time (their bytes are most of an instruction line's words), ending
 * where a block holds another byte; a byte loop of varying length
 * mispredicts its end. LIM is the buffer's final NUL: blocks stop before
 * it and the rest is read byte by byte. */
static inline const char *bs_skip_id_tail(const char *p, const char *lim) {
  if (BS_SKIP_BLOCKS(p, lim, bs_id_block)) return p; /* (the byte after the run is known not to be in it) */
  while (bs_id_tail_byte((unsigned char)*p)) p++;
  return p;
}

/* The same for an element type's bytes, and for a dimension list's. */
static inline const char *bs_skip_lower_digits(const char *p, const char *lim) {
  if (BS_SKIP_BLOCKS(p, lim, bs_lower_digit_block)) return p;
  while (bs_lower_digit_byte((unsigned char)*p)) p++;
  return p;
}
static inline const char *bs_skip_dims(const char *p, const char *lim) {
  if (BS_SKIP_BLOCKS(p, lim, bs_dims_block)) return p;
  while (bs_dims_byte((unsigned char)*p)) p++;
  return p;
}

/* A position at or after P with none of { } / \n " NUL in [P, it), as
 * bs_skip_to3 (SSE2 only: the word version returns P). */
static inline const char *bs_skip_layout_text(const char *p, const char *lim) {
  (void)BS_SKIP_BLOCKS(p, lim, bs_layout_block);
  return p;
}

#endif
