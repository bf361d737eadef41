#include "map_names.h"

#include <stdio.h>
#include <string.h>

bool map_name_is_default(const char *s, size_t len, bool is_dim, uint32_t pos, uint32_t nrange) {
  char buf[24];
  int n;
  if (is_dim) n = snprintf(buf, sizeof buf, "d%u", pos);
  else if (pos < nrange) n = snprintf(buf, sizeof buf, "s%u", pos);
  else n = snprintf(buf, sizeof buf, "rt%u", pos - nrange);
  return (size_t)n == len && memcmp(buf, s, len) == 0;
}

bool map_names_all_default(const imap *m, const map_names *n) {
  if (!n) return true;
  for (uint32_t i = 0; n->dims && i < m->ndims; i++)
    if (n->dims[i]) return false;
  for (uint32_t i = 0; n->syms && i < imap_nsyms(m); i++)
    if (n->syms[i]) return false;
  return true;
}

map_names map_names_new(hb_arena *a, uint32_t ndims, uint32_t nsyms) {
  map_names n;
  n.dims = hb_arena_zalloc(a, (ndims ? ndims : 1) * sizeof *n.dims);
  n.syms = hb_arena_zalloc(a, (nsyms ? nsyms : 1) * sizeof *n.syms);
  return n;
}

static char *default_name(hb_arena *a, bool is_dim, uint32_t pos, uint32_t nrange) {
  char buf[24];
  if (is_dim) snprintf(buf, sizeof buf, "d%u", pos);
  else if (pos < nrange) snprintf(buf, sizeof buf, "s%u", pos);
  else snprintf(buf, sizeof buf, "rt%u", pos - nrange);
  size_t len = strlen(buf) + 1;
  char *s = hb_arena_alloc(a, len);
  memcpy(s, buf, len);
  return s;
}

/* Open-addressing set of the names handed out so far. */
typedef struct {
  const char **slot;
  size_t cap;
} name_set;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* Inserts s; false when it was there already. */
static bool set_insert(name_set *t, const char *s) {
  size_t i = (size_t)hash_str(s) & (t->cap - 1);
  for (; t->slot[i]; i = (i + 1) & (t->cap - 1))
    if (!strcmp(t->slot[i], s)) return false;
  t->slot[i] = s;
  return true;
}

const char **map_names_resolve(hb_arena *a, const imap *m, const map_names *n) {
  uint32_t nd = m->ndims, ns = imap_nsyms(m), nv = nd + ns;
  const char **out = hb_arena_array(a, nv ? nv : 1, sizeof *out);
  name_set set = {NULL, 16};
  /* room for the names and every probe of the suffixes below */
  while (set.cap < 4 * (size_t)nv) set.cap *= 2;
  set.slot = hb_arena_zalloc(a, set.cap * sizeof *set.slot);
  for (uint32_t i = 0; i < nv; i++) {
    bool is_dim = i < nd;
    uint32_t pos = is_dim ? i : i - nd;
    const char *given = is_dim ? (n && n->dims ? n->dims[pos] : NULL) : (n && n->syms ? n->syms[pos] : NULL);
    const char *s = given ? given : default_name(a, is_dim, pos, m->nrange);
    if (!set_insert(&set, s)) {
      size_t len = strlen(s);
      char *t = hb_arena_alloc(a, len + 24);
      for (uint64_t k = 1;; k++) {
        snprintf(t, len + 24, "%s_%llu", s, (unsigned long long)k);
        /* a probe that fails leaves the set as it was */
        size_t j = (size_t)hash_str(t) & (set.cap - 1);
        bool taken = false;
        for (; set.slot[j]; j = (j + 1) & (set.cap - 1))
          if (!strcmp(set.slot[j], t)) taken = true;
        if (!taken) break;
      }
      set_insert(&set, t);
      s = t;
    }
    out[i] = s;
  }
  return out;
}
