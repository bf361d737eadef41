/* --check on several threads: a large text of several modules is cut at
 * "// -----" separator lines into spans of modules, and the spans are
 * parsed and verified side by side (each module is independent of the
 * others: its own arena and names; the shape cache, which only saves
 * parsing a shape text again, goes from one span to the next on the same
 * thread).
 *
 * Why this is exact: a span is parsed from the end of a separator line's
 * text, in the state the one-pass parse is in after that separator token,
 * and must end at the separator token where the next span starts
 * (hlo_parse_span checks it; a "// -----" line inside a comment or a string
 * fails there). So when every span succeeds the one-pass parse succeeds too;
 * when any span fails, the text is parsed again in one pass, which reports
 * the same first error as without threads. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "hlo_ir.h"
#include "base/oom.h"

/* The smallest span; a text shorter than 8 of them is not worth a thread. */
#define MIN_SPAN ((size_t)1 << 18)
#define MAX_JOBS 256
#define MAX_SPANS 1024

typedef struct {
  size_t start, stop;
} span;

typedef struct {
  const char *data;
  size_t len;
  const span *spans;
  int n_spans;
  bool stop_at_warnings; /* a module with warnings fails its span (they are reported by the one-pass parse) */
  atomic_int next;
  atomic_bool failed;
} check_job;

static int drop_unless_warned(hlo_module *m, void *ctx) {
  (void)ctx;
  int warned = m->n_warnings > 0;
  hlo_module_free(m);
  return warned ? 2 : 0;
}

typedef struct {
  void (*warn)(const hlo_module *m, void *ctx);
  void *ctx;
} warn_each;

static int warn_then_drop(hlo_module *m, void *arg) {
  warn_each *w = arg;
  if (m->n_warnings) w->warn(m, w->ctx);
  hlo_module_free(m);
  return 0;
}

/* The separator line starting at P (after a '\n'): "// -----" alone on its
 * line, blanks after it at most (the lexer's is_separator). Returns the end
 * of the line's text (where the lexer goes on), or NULL. DATA[LEN] is '\0',
 * so the comparison stops there. */
static const char *separator_end(const char *p) {
  if (strncmp(p, "// -----", 8) != 0) return NULL;
  const char *e = p + 8;
  while (*e == ' ' || *e == '\t') e++;
  return *e == '\n' || *e == '\r' || *e == '\0' ? e : NULL;
}

/* The first separator line starting after a '\n' at or after FROM; its
 * offset in *AT and the end of its text in *END. (A separator after a bare
 * '\r' is not found: one cut fewer, nothing else.) */
/* Whether [P, LIM) holds nothing but blanks and '//' lines: what follows
 * the last separator of a dump gets no span of its own (it would hold no
 * module, and fail). Not cutting is always exact. */
static bool only_blanks_and_lines(const char *p, const char *lim) {
  for (;;) {
    while (p < lim && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (p == lim) return true;
    if (lim - p < 2 || p[0] != '/' || p[1] != '/') return false;
    const char *nl = memchr(p, '\n', (size_t)(lim - p));
    if (!nl) return true;
    p = nl + 1;
  }
}

static bool next_separator(const char *data, size_t len, size_t from, size_t *at, size_t *end) {
  const char *p = data + from, *lim = data + len;
  while (p < lim && (p = memchr(p, '\n', (size_t)(lim - p))) != NULL) {
    p++;
    const char *e = separator_end(p);
    if (e) {
      *at = (size_t)(p - data);
      *end = (size_t)(e - data);
      return true;
    }
  }
  return false;
}

/* Cuts DATA into at most MAX spans, at separator lines, for JOBS threads
 * that take the next span when done with one. Each span is a share of the
 * text still left, 1 / (2 JOBS) of it but at least MIN_BYTES: the spans get
 * smaller toward the end, so the threads finish at about the same time
 * (with equal spans one thread idles while another parses the last one).
 * Returns the number of spans (1: no cut was found). */
static int cut_spans(const char *data, size_t len, size_t min_bytes, int jobs, span *spans, int max) {
  int n = 0;
  size_t start = 0, at, end;
  while (n < max - 1) {
    size_t share = (len - start) / (2 * (size_t)jobs);
    size_t want = start + (share > min_bytes ? share : min_bytes);
    if (want >= len || !next_separator(data, len, want, &at, &end)) break;
    if (only_blanks_and_lines(data + end, data + len)) break; /* the last span goes on to the end */
    spans[n++] = (span){start, at};
    start = end;
  }
  spans[n++] = (span){start, len};
  return n;
}

static void *check_worker(void *arg) {
  check_job *J = arg;
  hlo_parse_cache *cache = hlo_parse_cache_new(); /* shapes known from this thread's spans before */
  while (!atomic_load(&J->failed)) {
    int i = atomic_fetch_add(&J->next, 1);
    if (i >= J->n_spans) break;
    hlo_error err; /* not reported: a failure means the one-pass parse runs */
    if (hlo_parse_span(J->data, J->len, J->spans[i].start, J->spans[i].stop,
                       J->stop_at_warnings ? drop_unless_warned : hlo_module_drop, NULL, cache, &err))
      atomic_store(&J->failed, true);
  }
  hlo_parse_cache_free(cache);
  return NULL;
}

static atomic_ulong fallbacks; /* hlo_check_span_fallbacks */

/* Parses the spans of DATA (of at least MIN_BYTES) on JOBS threads;
 * returns whether all of them succeeded (and, with STOP_AT_WARNINGS, had
 * no module with warnings). */
static bool spans_ok(const char *data, size_t len, int jobs, size_t min_bytes, bool stop_at_warnings) {
  span *spans = hb_malloc(MAX_SPANS * sizeof *spans);
  int n = cut_spans(data, len, min_bytes, jobs, spans, MAX_SPANS);
  bool ok = false;
  if (n > 1) {
    check_job J = {.data = data, .len = len, .spans = spans, .n_spans = n, .stop_at_warnings = stop_at_warnings};
    atomic_init(&J.next, 0);
    atomic_init(&J.failed, false);
    pthread_t th[MAX_JOBS];
    int started = 0;
    for (int t = 1; t < jobs && t < n && t < MAX_JOBS; t++) {
      if (pthread_create(&th[started], NULL, check_worker, &J) != 0) break; /* fewer threads */
      started++;
    }
    check_worker(&J);
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    ok = !atomic_load(&J.failed);
    if (!ok) atomic_fetch_add_explicit(&fallbacks, 1, memory_order_relaxed);
  }
  free(spans);
  return ok;
}

unsigned long hlo_check_span_fallbacks(void) { return atomic_load_explicit(&fallbacks, memory_order_relaxed); }

int hlo_check_text(const char *data, size_t len, int jobs, hlo_error *err) {
  return hlo_check_text_warn(data, len, jobs, NULL, NULL, err);
}

int hlo_check_text_warn(const char *data, size_t len, int jobs, void (*warn)(const hlo_module *m, void *ctx), void *ctx,
                        hlo_error *err) {
  if (jobs > MAX_JOBS) jobs = MAX_JOBS;
  if (jobs > 1 && len >= 8 * MIN_SPAN && spans_ok(data, len, jobs, MIN_SPAN, warn != NULL)) return 0;
  warn_each w = {warn, ctx};
  return warn ? hlo_parse_file_each(data, len, warn_then_drop, &w, err)
              : hlo_parse_file_each(data, len, hlo_module_drop, NULL, err);
}

int hlo_check_text_spans(const char *data, size_t len, int jobs, size_t min_bytes, hlo_error *err) {
  if (jobs < 1) jobs = 1;
  if (jobs > MAX_JOBS) jobs = MAX_JOBS;
  if (spans_ok(data, len, jobs, min_bytes, false)) return 0;
  return hlo_parse_file_each(data, len, hlo_module_drop, NULL, err);
}
