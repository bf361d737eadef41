/* Skipping bytes up to the first of a few, in the NUL-terminated input
 * buffer: 16 bytes at a time with SSE2 where the compiler targets it (every
 * x86-64), else 8 at a time in a 64-bit word. Metadata strings, tuple
 * shape texts and backend_config dictionaries are long runs of bytes that
 * only need to be stepped over. Names are runs of id bytes, skipped the
 * same way (SSE2 only: the word version's tests would cost more than the
 * byte loop). */
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

/* A later byte of the lexer's id, [A-Za-z0-9_.\-] (lexer/hlo_lexer.re). */
static inline int pc_id_tail_byte(unsigned char c) {
  return (unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10 || c == '_' || c == '.' || c == '-';
}

/* The end of the run of id bytes [A-Za-z0-9_.\-] starting at P: names are
 * read a block at a time (their bytes are most of an instruction line's
 * words), ending where a block holds another byte. LIM is the buffer's
 * final NUL: blocks stop before it and the rest is read byte by byte. */
static inline const char *pc_skip_id_tail(const char *p, const char *lim) {
#ifdef PC_SCAN_SSE2
  const __m128i k20 = _mm_set1_epi8(0x20), ka = _mm_set1_epi8('a'), k25 = _mm_set1_epi8(25),
                k0 = _mm_set1_epi8('0'), k9 = _mm_set1_epi8(9), ku = _mm_set1_epi8('_'), kd = _mm_set1_epi8('.'),
                km = _mm_set1_epi8('-');
  while (p + 16 <= lim) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* unsigned x <= n as min(x, n) == x: letters (either case) and digits */
    __m128i l = _mm_sub_epi8(_mm_or_si128(v, k20), ka), d = _mm_sub_epi8(v, k0);
    __m128i ok = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(l, k25), l), _mm_cmpeq_epi8(_mm_min_epu8(d, k9), d));
    ok = _mm_or_si128(ok, _mm_or_si128(_mm_cmpeq_epi8(v, ku), _mm_or_si128(_mm_cmpeq_epi8(v, kd), _mm_cmpeq_epi8(v, km))));
    unsigned bits = ~(unsigned)_mm_movemask_epi8(ok) & 0xffffu;
    if (bits) return p + __builtin_ctz(bits);
    p += 16;
  }
#else
  (void)lim;
#endif
  while (pc_id_tail_byte((unsigned char)*p)) p++;
  return p;
}

#endif
