/* Unit test of the metadata fast path (metadata_scan.c): pc_metadata_scan
 * at the start of a metadata={...} value. For each text: whether the value
 * conforms, and then its extent; the keys the byte scan compares a word at
 * a time (op_type, op_name, source_file, source_line) next to keys that
 * only start like them, and values that end close to the end of the text.
 * (Where the byte scan gives up, the token-level check decides: the cases
 * check the result, whichever path gave it.)
 * Run by CTest as parser/metadata_scan. */
#include <stdlib.h>
#include <string.h>

#include "test_check.h"
#include "test_scan_ctx.h"

typedef struct {
  const char *text;  /* the bytes after 'metadata=' */
  const char *value; /* the value's text, or NULL when it does not conform */
} md_case;

static const md_case cases[] = {
    {"{op_type=\"add\" op_name=\"jit(f)/add\" source_file=\"/a/b.py\" source_line=12}, x=1",
     "{op_type=\"add\" op_name=\"jit(f)/add\" source_file=\"/a/b.py\" source_line=12}"},
    {" {source_line=7}", "{source_line=7}"},
    {"{source_file=\"f\"}", "{source_file=\"f\"}"},
    {"{op_name=\"a\"}", "{op_name=\"a\"}"},
    /* keys that only start like the usual four are other keys */
    {"{op_type_x=\"a\" op_names=\"b\" source_files=\"c\" source_lines=1}",
     "{op_type_x=\"a\" op_names=\"b\" source_files=\"c\" source_lines=1}"},
    {"{source_fine=1 source_lile=2 op_typ=3}", "{source_fine=1 source_lile=2 op_typ=3}"},
    {"{a=1}", "{a=1}"}, /* shorter than a word */
    {"{profile_type={1,2} deduplicated_name=\"d\" stack_frame_id=3}",
     "{profile_type={1,2} deduplicated_name=\"d\" stack_frame_id=3}"},
    {"{{op_type=\"a\"}, {op_name=\"b\" source_line=2}}", "{{op_type=\"a\"}, {op_name=\"b\" source_line=2}}"},
    {"{}", "{}"},
    /* not conforming */
    {"{op_type =\"a\"}", NULL},
    {"{op_type=}", NULL},
    {"{source_line=}", NULL},
    {"{source_file=x}", NULL},
    {"{op_name=\"a\"", NULL},
    {"{9op_type=\"a\"}", NULL},
    {"op_type=\"a\"", NULL},
};

static void test_case(const md_case *c) {
  int before = failures;
  size_t len = strlen(c->text);
  char *copy = malloc(len + 1); /* exactly the text and its NUL: reads past it are ASan's to see */
  if (!copy) abort();
  memcpy(copy, c->text, len + 1);
  parse_ctx *P = scan_ctx_new(copy, len, 1);
  const char *start = NULL, *end = NULL;
  bool ok = pc_metadata_scan(&P->lx, &start, &end);
  CHECK(ok == (c->value != NULL));
  if (ok && c->value) {
    const char *at = strstr(copy, c->value);
    CHECK(at != NULL && start == at);
    CHECK(at != NULL && end == at + strlen(c->value));
  }
  if (failures > before) fprintf(stderr, "  in case \"%s\"\n", c->text);
  scan_ctx_free(P);
  free(copy);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) test_case(&cases[i]);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
