/* Element types of the text format (shared/docs/hlo-text-format.md §4.1):
 * one X-macro gives the lexer's element-type numbers (hlo_token.sub of an
 * HT_PRIM_TYPE token) and the IR's enum (parser/hlo_ir.h), so they cannot
 * drift apart. lexer/words checks that every spelling lexes to its own
 * number. */
#ifndef HLOIDX_ELEM_TYPES_H
#define HLOIDX_ELEM_TYPES_H

/* X(enum suffix, text spelling, natural storage bits) */
#define HLO_ELEM_TYPES(X)                                                   \
  X(PRED, "pred", 8)                                                        \
  X(S1, "s1", 1) X(S2, "s2", 2) X(S4, "s4", 4) X(S8, "s8", 8)               \
  X(S16, "s16", 16) X(S32, "s32", 32) X(S64, "s64", 64)                     \
  X(U1, "u1", 1) X(U2, "u2", 2) X(U4, "u4", 4) X(U8, "u8", 8)               \
  X(U16, "u16", 16) X(U32, "u32", 32) X(U64, "u64", 64)                     \
  X(F16, "f16", 16) X(BF16, "bf16", 16) X(F32, "f32", 32) X(F64, "f64", 64) \
  X(F8E5M2, "f8e5m2", 8) X(F8E4M3, "f8e4m3", 8) X(F8E4M3FN, "f8e4m3fn", 8)  \
  X(F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8) X(F8E3M4, "f8e3m4", 8)               \
  X(F8E5M2FNUZ, "f8e5m2fnuz", 8) X(F8E4M3FNUZ, "f8e4m3fnuz", 8)             \
  X(F8E8M0FNU, "f8e8m0fnu", 8) X(F6E2M3FN, "f6e2m3fn", 6)                   \
  X(F6E3M2FN, "f6e3m2fn", 6) X(F4E2M1FN, "f4e2m1fn", 4)                     \
  X(C64, "c64", 64) X(C128, "c128", 128)                                    \
  X(TOKEN, "token", 0) X(OPAQUE, "opaque", 0)

typedef enum hlo_elem_type {
  HLO_ELEM_INVALID = 0, /* "none" (e.g. no #(type) in a layout) */
#define HLO_X_(e, s, b) HLO_##e,
  HLO_ELEM_TYPES(HLO_X_)
#undef HLO_X_
  HLO_TUPLE,  /* a tuple shape: (a, b, ...) */
  HLO_BUFFER, /* a buffer shape b(shape): one element, the buffered shape */
  HLO_ELEM_TYPE_COUNT
} hlo_elem_type;

#endif
