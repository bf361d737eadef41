/* JSON string literals for --format=json. */
#ifndef HLOIDX_JSON_STR_H
#define HLOIDX_JSON_STR_H

#include <stdbool.h>
#include <stddef.h>

#include "../parser/base/strbuf.h"

/* Appends S (N bytes, any content) as a JSON string literal, quotes
 * included, that is valid JSON and valid UTF-8 whatever the bytes: '"' and
 * '\' are escaped, control characters (U+0000..U+001F, and U+007F) become
 * \n, \t, \r, \b, \f or \u00XX, well-formed UTF-8 sequences are copied, and
 * every byte that is not part of one (a stray continuation byte, a
 * truncated or overlong sequence, a surrogate or a code point above
 * U+10FFFF) becomes U+FFFD, written \ufffd. */
void json_str(hb_strbuf *b, const char *s, size_t n);
/* The same for a NUL-terminated string. */
void json_cstr(hb_strbuf *b, const char *s);
/* Length of the well-formed UTF-8 sequence at S (at most N > 0 bytes), or 0
 * (also used for the text output's copies of input lines). */
size_t utf8_len(const unsigned char *s, size_t n);
/* Appends S (N bytes, any content) kept printable UTF-8: well-formed
 * sequences and tabs copied, newlines too when NEWLINES, '?' for any other
 * control byte and for a byte outside a well-formed sequence. */
void put_printable(hb_strbuf *b, const char *s, size_t n, bool newlines);

#endif
