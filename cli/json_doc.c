#include "json_doc.h"

#include "json_str.h"
#include "source.h"

/* The diagnostics sink: each error becomes an element of "errors". */
static void record_error(void *arg, const diag_record *e) {
  hb_strbuf *b = arg;
  hb_sb_puts(b, b->len ? ",\n  {\"file\": " : "\n  {\"file\": ");
  json_cstr(b, e->file);
  if (e->line) hb_sb_printf(b, ", \"line\": %zu, \"col\": %zu", e->line, e->col);
  else hb_sb_puts(b, ", \"line\": null, \"col\": null");
  hb_sb_puts(b, ", \"message\": ");
  json_cstr(b, e->message);
  hb_sb_putc(b, '}');
}

void json_doc_begin(json_doc *d, hb_strbuf *out, const char *head) {
  d->first_module = true;
  hb_sb_init(&d->errors);
  diag_set_sink(record_error, &d->errors);
  hb_sb_printf(out, "{%s,\n \"modules\": [", head);
}

void json_doc_module(json_doc *d, hb_strbuf *out, const char *name, const char *file, const char *array) {
  if (!d->first_module) hb_sb_putc(out, ',');
  d->first_module = false;
  hb_sb_puts(out, "\n  {\"name\": ");
  json_cstr(out, name);
  hb_sb_puts(out, ", \"file\": ");
  if (file) json_cstr(out, file);
  else hb_sb_puts(out, "null");
  hb_sb_printf(out, ",\n   \"%s\": [", array);
}

void json_doc_module_end(hb_strbuf *out) { hb_sb_puts(out, "]}"); }

void json_doc_end(json_doc *d, hb_strbuf *out) {
  diag_set_sink(NULL, NULL);
  hb_sb_puts(out, "],\n \"errors\": [");
  hb_sb_putn(out, hb_sb_str(&d->errors), d->errors.len);
  hb_sb_puts(out, "]}\n");
  hb_sb_free(&d->errors);
}
