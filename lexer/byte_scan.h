/* Skipping bytes up to the first of a few, in the NUL-terminated input
 * buffer: 16 bytes at a time with SSE2 where the compiler targets it (every
 * x86-64), else 8 at a time in a 64-bit word. Metadata strings, tuple
 * shape texts and backend_config dictionaries are long runs of bytes that
 * only need to be stepped over. */
#ifndef HLOIDX_BYTE_SCAN_H
#define HLOIDX_BYTE_SCAN_H

#include <stdint.h>
#include <string.h>

/* Where SSE2 is used (here and by hlo_same_bytes in intern.h);
 * -DHLOIDX_NO_SIMD builds the word versions on x86-64 too, to test them. */
#if defined(__SSE2__) && defined(__GNUC__) && !defined(HLOIDX_NO_SIMD)
#include <emmintrin.h>
#define PC_SCAN_SSE2 1
#endif

/* A position at or after P with none of A, B, C and NUL in [P, it): the
 * first such byte, or where the blocks stopped (fewer than a block's bytes
 * before LIM, the buffer's final NUL, or a word holding one of them in the
 * word version). The caller goes on byte by byte from there. */
static inline const char *pc_skip_to3(const char *p, const char *lim, char a, char b, char c) {
#ifdef PC_SCAN_SSE2
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

#endif
