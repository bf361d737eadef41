#include "name_table.h"

#include <string.h>

#include "intern.h"

void name_table_fill(name_table *t, int n, const char *(*names)(int)) {
  memset(t, 0, sizeof *t);
  for (int i = 0; i < n; i++) {
    const char *s = names(i);
    size_t len = strlen(s);
    uint32_t h = hlo_hash_inline(s, len);
    size_t j = h & (NAME_TABLE_SLOTS - 1);
    while (t->slot[j].index) j = (j + 1) & (NAME_TABLE_SLOTS - 1);
    t->slot[j].hash = h;
    t->slot[j].len = (uint16_t)len;
    t->slot[j].index = (uint16_t)(i + 1);
  }
}

int name_table_find(const name_table *t, const char *s, size_t len, const char *(*names)(int)) {
  uint32_t h = hlo_hash_inline(s, len);
  for (size_t j = h & (NAME_TABLE_SLOTS - 1); t->slot[j].index; j = (j + 1) & (NAME_TABLE_SLOTS - 1)) {
    if (t->slot[j].hash == h && t->slot[j].len == len && hlo_same_bytes(names(t->slot[j].index - 1), s, len))
      return t->slot[j].index - 1;
  }
  return -1;
}

/* The optimal-string-alignment distance of A and B, or a value over MAX
 * once it is certain to be one (both short: names). */
static size_t edit_distance(const char *a, size_t n, const char *b, size_t m, size_t max) {
  enum { W = 64 };
  /* (the lengths alone can rule it out; a file of unknown words asks for
   * every occurrence of each) */
  if (n >= W || m >= W || (n > m ? n - m : m - n) > max) return max + 1;
  size_t d[W][W];
  for (size_t i = 0; i <= n; i++) d[i][0] = i;
  for (size_t j = 0; j <= m; j++) d[0][j] = j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[n][m];
}

int name_table_closest(const char *s, size_t len, int n, const char *(*names)(int), bool (*ok)(int, void *),
                       void *ctx) {
  size_t max = len / 4 > 1 ? len / 4 : 1, best_d = max + 1;
  int best = -1;
  for (int i = 0; i < n; i++) {
    if (ok && !ok(i, ctx)) continue;
    const char *t = names(i);
    size_t d = edit_distance(s, len, t, strlen(t), max);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}
