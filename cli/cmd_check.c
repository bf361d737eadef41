/* --check: parse and verify every input; print nothing when all are valid.
 *
 * One file: its modules may be checked on several threads (--jobs; see
 * parser/parse_parallel.c). Several files (a dump folder): the files are
 * checked side by side, one worker thread per job, each file on
 * jobs / workers threads. Workers print nothing. When they are done, the
 * files are gone through in command-line order: each one that failed is
 * checked again on this thread, which prints its diagnostic, so the output
 * and the exit status are those of checking one file after the other:
 * every failing file is reported, whatever --jobs. Standard input ('-') is
 * read on this thread, in its turn. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "hlo_ir.h"
#include "../parser/base/oom.h"
#include "source.h"

#define MAX_FILE_WORKERS 16

/* Default --jobs: one thread per processor, at most 16. */
static int default_jobs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

static void print_warnings(const hlo_module *m, void *src) { diag_module_warnings(src, m); }

/* A worker's check: a file with warnings counts as failed, for check_one to
 * print them in their turn. */
static void note_warnings(const hlo_module *m, void *warned) {
  (void)m;
  *(bool *)warned = true;
}

static int check_one(const char *path, int jobs) {
  source_file src;
  if (source_read(path, &src)) return 1;
  hlo_error err;
  int rc = 0;
  if (hlo_check_text_warn(src.data, src.len, jobs, print_warnings, &src, &err)) {
    diag_parse_error(&src, &err);
    rc = 1;
  }
  source_free(&src);
  return rc;
}

static bool is_stdin(const char *path) { return strcmp(path, "-") == 0; }

typedef struct {
  const hloidx_options *o;
  int inner_jobs;       /* threads per file */
  atomic_int next;      /* the next file to take */
  unsigned char *ok;    /* per file: 1 when it was checked and is valid */
} file_pool;

static void *file_worker(void *arg) {
  file_pool *F = arg;
  for (;;) {
    int i = atomic_fetch_add(&F->next, 1);
    if (i >= F->o->nfiles) break;
    const char *path = F->o->files[i];
    if (is_stdin(path)) continue; /* this thread's, in its turn */
    source_file src;
    hlo_error err;
    bool ok = source_read_quiet(path, &src) == 0, warned = false;
    if (ok) {
      ok = hlo_check_text_warn(src.data, src.len, F->inner_jobs, note_warnings, &warned, &err) == 0;
      source_free(&src);
    }
    F->ok[i] = ok && !warned; /* (a file with warnings: they are printed in its turn) */
  }
  return NULL;
}

/* Checks o->files side by side on WORKERS threads (this one included). */
static int check_files(const hloidx_options *o, int jobs, int workers) {
  file_pool F = {.o = o, .inner_jobs = jobs / workers > 0 ? jobs / workers : 1};
  atomic_init(&F.next, 0);
  F.ok = hb_calloc((size_t)o->nfiles, 1);
  pthread_t th[MAX_FILE_WORKERS];
  int started = 0;
  for (int t = 1; t < workers && t < MAX_FILE_WORKERS; t++) {
    if (pthread_create(&th[started], NULL, file_worker, &F) != 0) break; /* fewer threads */
    started++;
  }
  file_worker(&F);
  for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
  int rc = 0;
  for (int i = 0; i < o->nfiles; i++)
    if (!F.ok[i]) rc |= check_one(o->files[i], jobs); /* stdin, or a failure: reported from here */
  free(F.ok);
  return rc;
}

int cmd_check(const hloidx_options *o) {
  int jobs = o->jobs > 0 ? o->jobs : default_jobs();
  if (o->nfiles == 0) return check_one("-", jobs);
  int workers = jobs < o->nfiles ? jobs : o->nfiles;
  if (workers > 1) return check_files(o, jobs, workers);
  int rc = 0;
  for (int i = 0; i < o->nfiles; i++) rc |= check_one(o->files[i], jobs);
  return rc;
}
