/* Tokens of the HLO text format and the re2c lexer that produces them.
 *
 * A token is a slice (ptr, len) of the input buffer plus its byte offset;
 * the lexer never copies or allocates. The input buffer must be followed by
 * a NUL byte (data[len] == '\0'); a NUL byte before that is an error.
 * See shared/docs/hlo-text-format.md §2 for the lexical rules. */
#ifndef HLOIDX_HLO_TOKEN_H
#define HLOIDX_HLO_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hlo_tok_kind {
  HT_EOF = 0,     /* end of input */
  HT_ERROR,       /* lexical error: see hlo_token.msg */
  HT_SEP,         /* a line that is exactly "// -----": module separator */
  HT_PCT_NAME,    /* %name (the slice excludes the '%') */
  HT_NAME_COLON,  /* name: (the slice excludes the ':') */
  HT_ATTR_NAME,   /* name= (the slice excludes the '=') */
  HT_NAME_DEF,    /* "name =" or "%name =", blanks allowed before '=': an instruction's name (the slice is the name) */
  HT_PRIM_TYPE,   /* element-type word; hlo_token.sub is the hlo_elem_type number */
  HT_IDENT,       /* any other identifier-shaped word */
  HT_INT,         /* -?[0-9]+, range-checked; see hlo_token.u / neg */
  HT_FLOAT,       /* decimal float, nan, -nan, nan(0x..) */
  HT_NEG_INF,     /* -inf */
  HT_DIM_LABELS,  /* b01f_01io->b01f */
  HT_DXD,         /* 3x3 */
  HT_PAD,         /* 0_1x2_3_4 */
  HT_STRING,      /* "..." or '...' including the quotes (escapes not decoded) */
  HT_RAW_DICT,    /* balanced {...} captured raw (only via hlo_lex_raw_dict) */
  HT_METADATA,    /* a metadata={...} payload of the usual spelling (only via hlo_lex_metadata) */
  HT_INT_LIST,    /* {1,0}, {}: plain integers in braces, without blanks (only via hlo_lex_int_brace) */
  HT_SLICES,      /* {[0:8], [0:4:2]}: slice ranges of plain integers (only via hlo_lex_int_brace) */
  HT_ARROW,       /* -> */
  HT_LEQ,         /* <= */
  HT_DOTS,        /* ... */
  HT_B_PAREN,     /* the word b directly followed by '(' (buffer shape) */
  HT_EQ,          /* = */
  HT_COMMA,       /* , */
  HT_COLON,       /* : */
  HT_STAR,        /* * */
  HT_QUESTION,    /* ? */
  HT_HASH,        /* # */
  HT_PLUS,        /* + */
  HT_TILDE,       /* ~ */
  HT_LBRACKET,    /* [ */
  HT_RBRACKET,    /* ] */
  HT_LBRACE,      /* { */
  HT_RBRACE,      /* } */
  HT_LPAREN,      /* ( */
  HT_RPAREN,      /* ) */
  /* keywords (identifier-shaped words matched whole by the lexer, §2.9) */
  HT_KW_TRUE,
  HT_KW_FALSE,
  HT_KW_INF,
  HT_KW_HLOMODULE,
  HT_KW_ENTRY,
  HT_KW_ROOT,
  HT_KW_FILENAMES,
  HT_KW_FUNCTIONNAMES,
  HT_KW_FILELOCATIONS,
  HT_KW_STACKFRAMES,
  HT_KW_MAXIMAL,
  HT_KW_REPLICATED,
  HT_KW_MANUAL,
  HT_KW_UNKNOWN,
  HT_KW_UNREDUCED,
  HT_KW_LAST_TILE_DIM_REPLICATE,
  HT_KW_SHARD_AS,
  HT_KW_SHARD_LIKE,
  HT_KW_CONSTANT,  /* the exact word "constant" */
  HT_KW_PARAMETER, /* the exact word "parameter" */
  HT_KIND_COUNT
} hlo_tok_kind;

/* 32 bytes, the layout of the parser's token values (parse_ctx.h), which
 * take a token in one copy. */
typedef struct hlo_token {
  const char *ptr;  /* first byte of the token's value (after '%' for names) */
  uint32_t len;     /* bytes of the value (inputs are under 2 GiB) */
  uint8_t kind;     /* hlo_tok_kind */
  uint8_t sub;      /* HT_PRIM_TYPE: element type number (hlo_elem_type) */
  bool neg;         /* HT_INT: written with a leading '-' */
  size_t off;       /* byte offset of the token's first byte in the buffer */
  union {
    uint64_t u;      /* HT_INT: magnitude (up to 2^64-1); 0 for the other kinds */
    const char *msg; /* HT_ERROR: static description of the problem */
  };
} hlo_token;

typedef struct hlo_lexer {
  const char *base; /* start of the buffer; offsets are relative to it */
  const char *cur;  /* next byte to scan */
  const char *lim;  /* base + len; *lim == '\0' */
} hlo_lexer;

/* Starts scanning DATA (LEN bytes, DATA[LEN] == '\0') at byte offset START. */
void hlo_lexer_init(hlo_lexer *lx, const char *data, size_t len, size_t start);

/* Scans the next token. At the end of input returns HT_EOF (repeatedly). */
void hlo_lex(hlo_lexer *lx, hlo_token *t);

/* Skips blanks and comments and returns the next significant byte without
 * consuming anything ('\0' at the end of input or before a NUL byte).
 * *at receives its position. Inline for the usual case, the byte right
 * there or after one space. */
char hlo_lex_peek_slow(const hlo_lexer *lx, const char **at);
static inline char hlo_lex_peek(const hlo_lexer *lx, const char **at) {
  const char *p = lx->cur + (*lx->cur == ' ');
  char c = *p;
  if (c == ' ' || (unsigned char)(c - '\t') < 5 || c == '/') return hlo_lex_peek_slow(lx, at);
  *at = p;
  return c;
}

/* Skips blanks/comments up to the significant byte at AT (from hlo_lex_peek). */
static inline void hlo_lex_skip_to(hlo_lexer *lx, const char *at) { lx->cur = at; }

/* If the next significant byte is '{', scans a balanced {...} raw dictionary
 * (§2.8) into *t (HT_RAW_DICT, or HT_ERROR when unterminated) and returns
 * true; otherwise consumes nothing and returns false. */
bool hlo_lex_raw_dict(hlo_lexer *lx, hlo_token *t);

/* If the next significant bytes are a metadata value of the usual spelling
 * ('{' fields '}' or '{' such braces separated by ',' '}', whose fields are
 * 'key=' and a string with one-letter escapes, an integer of at most 18
 * digits or a brace of those integers), reads it into *t (HT_METADATA,
 * the text from '{' to '}') and returns true; otherwise consumes nothing
 * and returns false. The grammar's metadata rule accepts every such text
 * and decides on any other. */
bool hlo_lex_metadata(hlo_lexer *lx, hlo_token *t);

/* After an HT_LBRACE token *T: if the bytes right after it and a '}' are
 * integers of 1 to 18 digits separated by ',' (or none), or slice ranges
 * '[a:b]', '[a:b:c]' of such integers separated by ',' and spaces, without
 * other blanks or comments, extends *T over them (HT_INT_LIST or HT_SLICES,
 * the text from '{' to '}') and returns true; otherwise changes nothing
 * and returns false. hlo_lex reads the same text as brackets, INTs, ','s
 * and ':'s. */
bool hlo_lex_int_brace(hlo_lexer *lx, hlo_token *t);

/* For lexer/words: whether hlo_lex leaves the word S[0..N) to its
 * automaton (it may be a keyword, an element type, ...). */
bool hlo_lex_word_maybe_special(const char *s, size_t n);

/* Human-readable name of a token kind, for diagnostics ("identifier", "'{'"). */
const char *hlo_tok_kind_name(hlo_tok_kind k);

#endif
