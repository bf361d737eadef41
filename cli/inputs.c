/* Directory inputs, dump stages and the terminal hint (inputs.h). */
#define _POSIX_C_SOURCE 200809L /* dirent, fileno, isatty */
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hlo_ir.h"
#include "../parser/base/oom.h"
#include "output.h"

bool inputs_stage_matches(const char *path, const char *stage) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base), n = strlen(stage);
  if (len < n || memcmp(base + len - n, stage, n) != 0) return false;
  if (len == n) return true;
  char before = base[len - n - 1];
  return before == '.' || before == '_' || before == '-';
}

/* Whether the file's first bytes are HLO text: after blanks, `//` and
 * block comments, the word HloModule or ENTRY. */
static bool looks_like_hlo(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return true; /* let the reader report why it cannot be read */
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  size_t i = 0;
  if (n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) i = 3;
  while (i < n) {
    char c = buf[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      i++;
    } else if (c == '/' && i + 1 < n && buf[i + 1] == '/') {
      while (i < n && buf[i] != '\n') i++;
    } else if (c == '/' && i + 1 < n && buf[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(buf[i] == '*' && buf[i + 1] == '/')) i++;
      i += 2;
    } else {
      break;
    }
  }
  static const char *const words[] = {"HloModule", "ENTRY"};
  for (int w = 0; w < 2; w++) {
    size_t k = strlen(words[w]);
    if (i + k <= n && !memcmp(buf + i, words[w], k) &&
        (i + k == n || buf[i + k] == ' ' || buf[i + k] == '\t' || buf[i + k] == '\n' || buf[i + k] == '\r'))
      return true;
  }
  return false;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct {
  char **v;
  int n, cap;
} list;

static void add(list *l, char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->v = hb_realloc(l->v, (size_t)l->cap * sizeof *l->v);
  }
  l->v[l->n++] = s;
}

/* The HLO files of DIR into OUT (their paths owned by O). */
static int read_dir(hloidx_options *o, const char *dir, list *out) {
  DIR *d = opendir(dir);
  if (!d) {
    char msg[256];
    snprintf(msg, sizeof msg, "cannot read the folder: %s", strerror(errno));
    diag_file_error(dir, msg);
    return 1;
  }
  list names = {0};
  struct dirent *e;
  size_t dlen = strlen(dir);
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ., .. and hidden files */
    size_t n = strlen(e->d_name);
    char *p = hb_malloc(dlen + n + 2);
    memcpy(p, dir, dlen);
    size_t at = dlen;
    if (dlen && dir[dlen - 1] != '/') p[at++] = '/';
    memcpy(p + at, e->d_name, n + 1);
    add(&names, p);
  }
  closedir(d);
  qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_names);
  int found = 0;
  for (int i = 0; i < names.n; i++) {
    char *p = names.v[i];
    struct stat st;
    bool keep = false;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      diag_file_note(p, "skipped: a folder (only the files directly in the folder named are read)");
    } else if (o->stage && !inputs_stage_matches(p, o->stage)) {
      /* another stage: left out without a word */
    } else if (!looks_like_hlo(p)) {
      diag_file_note(p, "skipped: not HLO text (it does not start with HloModule or ENTRY)");
    } else {
      keep = true;
    }
    if (keep) {
      add(out, p);
      o->owned = hb_realloc(o->owned, (size_t)(o->nowned + 1) * sizeof *o->owned);
      o->owned[o->nowned++] = p;
      found++;
    } else {
      free(p);
    }
  }
  free(names.v);
  if (!found) {
    char msg[HLO_ERROR_MESSAGE_MAX];
    if (o->stage) snprintf(msg, sizeof msg, "no HLO file of stage '%s' in this folder", o->stage);
    else snprintf(msg, sizeof msg, "no HLO file in this folder");
    diag_file_error(dir, msg);
    return 1;
  }
  return 0;
}

int inputs_expand(hloidx_options *o) {
  int rc = 0;
  list out = {0};
  for (int i = 0; i < o->nfiles; i++) {
    char *p = o->files[i];
    struct stat st;
    if (strcmp(p, "-") != 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      if (o->mode == MODE_MAP || o->map_input || o->mode == MODE_SHAPE_STRIDE) {
        diag_file_error(p, o->mode == MODE_SHAPE_STRIDE ? "a folder: --shape-stride reads files of layouts"
                                                        : "a folder: --map reads files of indexing maps");
        rc = 1;
        continue;
      }
      rc |= read_dir(o, p, &out);
    } else if (!o->stage || !strcmp(p, "-") || inputs_stage_matches(p, o->stage)) {
      add(&out, p);
    }
  }
  bool had = o->nfiles > 0;
  if (o->files_allocated) free(o->files);
  o->files = out.v;
  o->nfiles = out.n;
  o->files_allocated = true;
  if (had && out.n == 0) {
    if (!rc && o->stage) fprintf(stderr, "hloidx: error: no input file is of stage '%s'\n", o->stage);
    return 1;
  }
  bool from_stdin = !had;
  for (int i = 0; i < o->nfiles; i++) from_stdin |= !strcmp(o->files[i], "-");
  if (from_stdin && isatty(STDIN_FILENO))
    fprintf(stderr, "hloidx: reading %s from the terminal (standard input); end it with Ctrl-D, or name a FILE "
                    "(hloidx -h for help)\n", o->mode == MODE_MAP || o->map_input ? "indexing maps"
                    : o->mode == MODE_SHAPE_STRIDE ? "layouts"
                                                   : "HLO text");
  return rc;
}

int inputs_run_each(const hloidx_options *o, void (*fn)(inputs_run *r), void *cl) {
  inputs_run r = {.o = o, .ctx = ae_ctx_new(), .scratch = hb_arena_new(), .out = HB_STRBUF_INIT, .cl = cl};
  for (int i = 0; i < (o->nfiles ? o->nfiles : 1) && !output_failed(); i++) {
    source_file src;
    if (source_read(o->nfiles ? o->files[i] : "-", &src)) {
      r.rc = 1;
      continue;
    }
    r.src = &src;
    fn(&r);
    r.src = NULL;
    source_free(&src);
  }
  hb_sb_free(&r.out);
  hb_arena_free(r.scratch);
  ae_ctx_free(r.ctx);
  return r.rc;
}

void inputs_error(inputs_run *r, size_t offset, const char *message) {
  output_sync();
  diag_error(r->src, offset, message);
  r->rc = 1;
}

void inputs_emit(inputs_run *r) {
  if (r->nprinted++) output_write("\n", 1);
  output_write(r->out.data, r->out.len);
}
