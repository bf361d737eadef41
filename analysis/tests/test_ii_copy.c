/* ii_indexing_copy keeps the sharing of its source: a member that several
 * sets hold (fusion.c's shared_copy gives the 10,000 parameters of an
 * elementwise fusion one map) is copied once, and members that are only
 * equal, not the same, stay apart. Every copy equals its source. */
#include <stdio.h>
#include <string.h>

#include "../ii_internal.h"
#include "test_util.h"

int main(void) {
  ii_ctx *c = ii_ctx_new();
  hb_arena *a = hb_arena_new();
  ii_operand *id = ii_wrap(c, rd(c->scratch, c->ae, "(d0) -> (d0), domain: d0 in [0, 7]"));
  ii_operand *rev = ii_wrap(c, rd(c->scratch, c->ae, "(d0) -> (-d0 + 7), domain: d0 in [0, 7]"));
  /* equal to ID, but its own operand */
  ii_operand *id2 = ii_wrap(c, rd(c->scratch, c->ae, "(d0) -> (d0), domain: d0 in [0, 7]"));

  /* sets: {id}, {id, rev}, {}, {id2}, {rev} */
  ii_indexing x;
  ii_indexing_init(c, &x, 5);
  ii_set_insert(c, &x.sets[0], id);
  ii_set_insert(c, &x.sets[1], id);
  ii_set_insert(c, &x.sets[1], rev);
  ii_set_insert(c, &x.sets[3], id2);
  ii_set_insert(c, &x.sets[4], rev);

  ii_indexing y;
  ii_indexing_copy(a, &x, &y, NULL, NULL);
  CHECK(y.n == 5, "entries: %u", y.n);
  for (uint32_t k = 0; k < 5; k++) {
    CHECK(y.sets[k].n == x.sets[k].n, "set %u: %u members, source %u", k, y.sets[k].n, x.sets[k].n);
    for (uint32_t i = 0; i < y.sets[k].n && i < x.sets[k].n; i++) {
      CHECK(y.sets[k].items[i] != x.sets[k].items[i], "set %u member %u: not copied", k, i);
      CHECK(ii_operand_equal(y.sets[k].items[i], x.sets[k].items[i]), "set %u member %u: %s, source %s", k, i,
            mstr(y.sets[k].items[i]->map), mstr(x.sets[k].items[i]->map));
    }
  }
  if (y.sets[0].n == 1 && y.sets[1].n == 2 && y.sets[3].n == 1 && y.sets[4].n == 1) {
    CHECK(y.sets[0].items[0] == y.sets[1].items[0], "ID in sets 0 and 1: one copy");
    CHECK(y.sets[1].items[1] == y.sets[4].items[0], "REV in sets 1 and 4: one copy");
    CHECK(y.sets[3].items[0] != y.sets[0].items[0], "ID2 (equal to ID, not the same): a copy of its own");
    CHECK(y.sets[0].items[0]->map != y.sets[1].items[1]->map, "ID and REV: two maps");
  }

  /* ii_set_copy alone: a copy per member, as before */
  ii_set s;
  ii_set_copy(a, &x.sets[1], &s, NULL, NULL);
  CHECK(s.n == 2 && s.items[0] != x.sets[1].items[0] && ii_operand_equal(s.items[0], id), "ii_set_copy");

  hb_arena_free(a);
  ii_ctx_free(c);
  return t_finish("ii_copy");
}
