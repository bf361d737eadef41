#include "json_doc.h"

#include "json_str.h"
#include "source.h"

/* The diagnostics sink: each error becomes an element of "errors". */
static void record_error(void *arg, const diag_record *e) {
  strbuf *b = arg;
  sb_puts(b, b->len ? ",\n  {\"file\": " : "\n  {\"file\": ");
  json_cstr(b, e->file);
  if (e->line) sb_printf(b, ", \"line\": %zu, \"col\": %zu", e->line, e->col);
  else sb_puts(b, ", \"line\": null, \"col\": null");
  sb_puts(b, ", \"message\": ");
  json_cstr(b, e->message);
  sb_putc(b, '}');
}

void json_doc_begin(json_doc *d, strbuf *out, const char *head) {
  d->first_module = true;
  sb_init(&d->errors);
  diag_set_sink(record_error, &d->errors);
  sb_printf(out, "{%s,\n \"modules\": [", head);
}

void json_doc_module(json_doc *d, strbuf *out, const char *name, const char *file, const char *array) {
  if (!d->first_module) sb_putc(out, ',');
  d->first_module = false;
  sb_puts(out, "\n  {\"name\": ");
  json_cstr(out, name);
  sb_puts(out, ", \"file\": ");
  if (file) json_cstr(out, file);
  else sb_puts(out, "null");
  sb_printf(out, ",\n   \"%s\": [", array);
}

void json_doc_module_end(strbuf *out) { sb_puts(out, "]}"); }

void json_doc_end(json_doc *d, strbuf *out) {
  diag_set_sink(NULL, NULL);
  sb_puts(out, "],\n \"errors\": [");
  sb_putn(out, sb_str(&d->errors), d->errors.len);
  sb_puts(out, "]}\n");
  sb_free(&d->errors);
}
