/* --format=filecheck: the text output as FileCheck directives, ready to
 * paste under an HLO test as XLA's lit tests check their output:
 *
 *     // CHECK-LABEL: ## module NAME         a module header
 *     // CHECK:       # NAME (out2in, ...)   a block or computation header,
 *                                            and the first line of the output
 *     // CHECK-NEXT:  operand id = 0         every other line (the context
 *                                            lines "#   ..." too)
 *     // CHECK-EMPTY:                        an empty line
 *
 * A line holding FileCheck's pattern brackets `{{` or `[[` has each of
 * them written as a regex that matches it (`{{[{][{]}}`, `{{[[][[]}}`),
 * so every directive matches exactly the line it was made from. Module
 * headers never name the file, and the context lines name it by its base
 * name after the pattern {{.*}}: lit runs a test from another path. */
#include "index_run.h"

static void put_escaped(hb_strbuf *b, const char *p, const char *end) {
  while (p < end) {
    if (*p == FILECHECK_ANY) {
      hb_sb_puts(b, "{{.*}}");
      p++;
    } else if (p + 1 < end && (p[0] == '{' || p[0] == '[') && p[1] == p[0]) {
      hb_sb_puts(b, p[0] == '{' ? "{{[{][{]}}" : "{{[[][[]}}");
      p += 2;
    } else {
      hb_sb_putc(b, *p++);
    }
  }
}

void filecheck_lines(hb_strbuf *dst, const char *text, size_t len, bool *first_done) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    const char *directive;
    bool context = eol - p >= 4 && !memcmp(p, "#   ", 4);
    if (eol - p >= 9 && !memcmp(p, "## module", 9)) directive = "// CHECK-LABEL: ";
    else if (!*first_done || (*p == '#' && !context)) directive = "// CHECK: ";
    else if (eol == p) directive = "// CHECK-EMPTY:";
    else directive = "// CHECK-NEXT: ";
    *first_done = true;
    hb_sb_puts(dst, directive);
    put_escaped(dst, p, eol);
    hb_sb_putc(dst, '\n');
    p = nl ? nl + 1 : end;
  }
}
