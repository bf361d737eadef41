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
