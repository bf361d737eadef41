/* The pointer map of the memo tables (ptrmap.h): lookups after every
 * insertion while it grows from its inline slots to heap tables, updates,
 * clear and reuse, and a by-value copy of a small map (its slots live in
 * the struct, so the copy must work on its own). */
#include "../../parser/base/ptrmap.h"
#include "test_util.h"

static char keys[1000]; /* distinct addresses */

/* Every key below N maps to (i, -i), none at or above it. */
static bool holds(const hb_ptrmap *m, int n) {
  for (int i = 0; i < 1000; i++) {
    hb_ptrmap_val *v = hb_ptrmap_get(m, &keys[i]);
    if (i < n ? !v || v->a != i || v->b != -i : v != NULL) return false;
  }
  return true;
}

int main(void) {
  hb_ptrmap m;
  hb_ptrmap_init(&m);
  CHECK(hb_ptrmap_get(&m, &keys[0]) == NULL && m.len == 0, "empty map");
  for (int i = 0; i < 1000; i++) {
    hb_ptrmap_put(&m, &keys[i], (hb_ptrmap_val){i, -i});
    if (i < 40 || i % 97 == 0) CHECK(holds(&m, i + 1) && m.len == (size_t)i + 1, "after %d insertions", i + 1);
  }
  CHECK(holds(&m, 1000) && m.cap > HB_PTRMAP_SMALL, "1000 keys, heap tables");
  hb_ptrmap_put(&m, &keys[5], (hb_ptrmap_val){7, 8});
  hb_ptrmap_val *v = hb_ptrmap_get(&m, &keys[5]);
  CHECK(v && v->a == 7 && v->b == 8 && m.len == 1000, "an update keeps the count");
  hb_ptrmap_clear(&m);
  CHECK(holds(&m, 0) && m.len == 0, "cleared");
  for (int i = 0; i < 10; i++) hb_ptrmap_put(&m, &keys[i], (hb_ptrmap_val){i, -i});
  CHECK(holds(&m, 10), "reused after clear");
  hb_ptrmap_free(&m);
  CHECK(holds(&m, 0) && m.cap == 0, "freed");

  hb_ptrmap small;
  hb_ptrmap_init(&small);
  for (int i = 0; i < 5; i++) hb_ptrmap_put(&small, &keys[i], (hb_ptrmap_val){i, -i});
  CHECK(small.cap == HB_PTRMAP_SMALL, "five keys stay in the inline slots");
  hb_ptrmap copy = small;
  hb_ptrmap_put(&small, &keys[5], (hb_ptrmap_val){5, -5});
  CHECK(holds(&copy, 5) && holds(&small, 6), "a copy of a small map is a map of its own");
  for (int i = 6; i < 100; i++) hb_ptrmap_put(&copy, &keys[i - 1], (hb_ptrmap_val){i - 1, 1 - i});
  CHECK(holds(&copy, 99) && holds(&small, 6), "the copy grows on its own");
  hb_ptrmap_free(&copy);
  hb_ptrmap_free(&small);
  return t_finish("ptrmap");
}
