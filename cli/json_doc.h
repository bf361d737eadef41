/* The frame of hloidx's JSON documents (--format=json, --tiles
 * --format=json):
 *
 *   {HEAD,
 *    "modules": [{"name": NAME, "file": FILE | null, "ARRAY": [...]}, ...],
 *    "errors": [{"file", "line", "col", "message"}, ...]}
 *
 * "errors" lists every error the run reports on stderr while the document
 * is open (diag_set_sink), in order; line and col are null for an error
 * without a position (a file that cannot be read). */
#ifndef HLOIDX_JSON_DOC_H
#define HLOIDX_JSON_DOC_H

#include <stdbool.h>

#include "../parser/base/strbuf.h"

typedef struct {
  bool first_module;
  hb_strbuf errors; /* the "errors" array's elements so far */
} json_doc;

/* `{HEAD,\n "modules": [`; HEAD: the document's first fields. */
void json_doc_begin(json_doc *d, hb_strbuf *out, const char *head);
/* A module's element up to the opening of its ARRAY (FILE NULL: null). */
void json_doc_module(json_doc *d, hb_strbuf *out, const char *name, const char *file, const char *array);
/* Closes the module's ARRAY and element. */
void json_doc_module_end(hb_strbuf *out);
/* Closes "modules", writes "errors" and ends the document. */
void json_doc_end(json_doc *d, hb_strbuf *out);

#endif
