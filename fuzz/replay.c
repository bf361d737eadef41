/* Replay driver: runs a fuzz entry point on files, without libFuzzer.
 *
 *     fuzz_replay_TARGET [-v] PATH...
 *
 * Each PATH is a file or a directory (its regular files, not recursive,
 * in name order). Each input is given to LLVMFuzzerTestOneInput exactly as
 * libFuzzer would give it. A crash, a sanitizer report or an abort() in the
 * entry point ends the process with a failure; otherwise the exit status is
 * 0, or 1 when no input was found (a missing corpus must not pass as
 * "nothing crashed"). -v prints each file name and its time before running
 * it (the last one printed is the culprit of a crash). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz_common.h"

static int verbose;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    exit(2);
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = hb_malloc(cap);
  size_t n;
  while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) buf = hb_realloc(buf, cap *= 2);
  }
  fclose(f);
  /* an exact-size copy, so that ASan sees reads past the end */
  uint8_t *in = hb_malloc(len ? len : 1);
  if (len) memcpy(in, buf, len);
  free(buf);
  if (verbose) {
    fprintf(stderr, "replay: %s (%zu bytes)", path, len);
    fflush(stderr);
  }
  double t0 = now();
  LLVMFuzzerTestOneInput(in, len);
  if (verbose) fprintf(stderr, " %.3f s\n", now() - t0);
  free(in);
  return 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: no such file or directory: %s\n", path);
    exit(2);
  }
  if (!S_ISDIR(st.st_mode)) return run_file(path);
  DIR *d = opendir(path);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory %s\n", path);
    exit(2);
  }
  char **names = NULL;
  size_t nn = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (nn == cap) names = hb_realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[nn] = hb_malloc(len);
    snprintf(names[nn], len, "%s/%s", path, e->d_name);
    nn++;
  }
  closedir(d);
  qsort(names, nn, sizeof *names, cmp_str);
  int count = 0;
  for (size_t i = 0; i < nn; i++) {
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) count += run_file(names[i]);
    free(names[i]);
  }
  free(names);
  return count;
}

int main(int argc, char **argv) {
  int count = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0) verbose = 1;
    else count += run_path(argv[i]);
  }
  if (count == 0) {
    fprintf(stderr, "replay: no inputs\n");
    return 1;
  }
  printf("replay: %d inputs, no crash\n", count);
  return 0;
}
