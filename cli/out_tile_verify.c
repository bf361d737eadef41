/* --tiles --verify: the enumeration check of the operand tiles
 * (analysis/tile_verify.h) instead of the report. One line per output:
 *
 *     # NAME (output N): tile 8x128 (given): operand 0: ok; operand 1: ok (overhang)
 *
 * Without tile sizes, the first --max-tilings valid tilings in XLA's order
 * (analysis/tilings.h; valid for the maps that have a tile) are checked: `# NAME (output N): 12 tilings: ...`.
 * Per operand map: `ok`, `ok (overhang)` (the last tiles' boxes reach
 * elements those tiles do not read), `MISMATCH at TILING: WHAT`, `skipped:
 * WHY`, `no symbolic tile`. The run ends with a tally:
 *
 *     verify tiles: E entries, O ok, M mismatches; not checked: S skipped, T without tile, A not analyzed
 *
 * Exit status 3 when an entry mismatches. */
#include <stdio.h>

#include "../parser/base/oom.h"
#include "tile_run.h"
#include "tile_verify.h"
#include "tilings.h"

typedef struct {
  unsigned long entries, ok, mismatch, skipped, no_tile, not_analyzed;
} tally;

/* Per entry over the tilings checked: the worst result so far. */
typedef struct {
  tv_result r;
  bool any;              /* checked at least once (not skipped) */
  char at[96];           /* the tiling of a mismatch */
} entry_state;

static void put_sizes(char *buf, size_t cap, const int64_t *ts, uint32_t n) {
  size_t w = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < n && w < cap; i++) w += (size_t)snprintf(buf + w, cap - w, "%s%lld", i ? "x" : "", (long long)ts[i]);
  if (n == 0) snprintf(buf, cap, "()");
}

static void check_tiling(const ft_tiling *t, entry_state *es) {
  for (uint32_t i = 0; i < t->nentries; i++) {
    entry_state *s = &es[i];
    if (s->r.status == TV_MISMATCH) continue;
    tv_result r;
    tv_check(t, &t->entries[i], &r);
    if (r.status == TV_SKIPPED) {
      if (!s->any) s->r = r;
      continue;
    }
    if (!s->any || r.status > s->r.status) {
      s->r = r;
      if (r.status == TV_MISMATCH) put_sizes(s->at, sizeof s->at, t->ts, t->rank);
    }
    s->any = true;
  }
}

static void block(index_run *r, const hlo_instr *in, int64_t out, const tile_block *blk) {
  tally *v = r->state;
  hb_strbuf *b = &r->out;
  hb_sb_printf(b, "# %s (output %lld)", in->name, (long long)out);
  if (blk->status != II_OK) {
    hb_sb_printf(b, ": not analyzed: %s\n", blk->err.message);
    v->not_analyzed++;
    return;
  }
  ft_tiling *t = (ft_tiling *)&blk->t;
  entry_state *es = hb_calloc(t->nentries + 1, sizeof *es);
  for (uint32_t i = 0; i < t->nentries; i++) es[i].r.status = TV_SKIPPED;
  char sizes[96];
  if (blk->sized) {
    put_sizes(sizes, sizeof sizes, t->ts, t->rank);
    hb_sb_printf(b, ": tile %s (%s)", sizes, blk->from);
    check_tiling(t, es);
  } else {
    tg_iter it;
    tg_begin(ii_ctx_arena(r->ctx), t, true, &it);
    int64_t *ts = hb_calloc(t->rank + 1, sizeof *ts);
    long n = 0;
    while (n < r->o->max_tilings && tg_next(&it, ts)) {
      ft_instantiate(r->ctx, t, ts);
      check_tiling(t, es);
      n++;
    }
    free(ts);
    hb_sb_printf(b, ": %ld tiling%s", n, n == 1 ? "" : "s");
  }
  if (t->nentries == 0) hb_sb_puts(b, ": no operands read");
  for (uint32_t i = 0; i < t->nentries; i++) {
    const ft_entry *e = &t->entries[i];
    const entry_state *s = &es[i];
    hb_sb_printf(b, "%s operand %u", i ? ";" : ":", e->operand);
    if (e->nmaps > 1) hb_sb_printf(b, " map %u", e->map + 1);
    hb_sb_puts(b, ": ");
    v->entries++;
    if (e->status != ST_OK) {
      hb_sb_puts(b, "no symbolic tile");
      v->no_tile++;
      continue;
    }
    switch (s->r.status) {
    case TV_OK:
    case TV_OK_OVERHANG:
      hb_sb_puts(b, s->r.status == TV_OK ? "ok" : "ok (overhang)");
      if (s->r.sampled_of) {
        hb_sb_puts(b, " (sampled tiles of ");
        hb_sb_put_u128(b, s->r.sampled_of);
        hb_sb_putc(b, ')');
      }
      v->ok++;
      break;
    case TV_MISMATCH: hb_sb_printf(b, "MISMATCH at %s: %s", s->at, s->r.message); v->mismatch++; break;
    case TV_SKIPPED: hb_sb_printf(b, "skipped: %s", s->r.message[0] ? s->r.message : "no valid tiling"); v->skipped++; break;
    }
  }
  hb_sb_putc(b, '\n');
  free(es);
}

static void instr(index_run *r, const hlo_instr *in) {
  if (tile_selected(r, in)) tile_each_output(r, in, block);
}

static void begin(index_run *r) { r->state = hb_calloc(1, sizeof(tally)); }

static void end(index_run *r) {
  tally *v = r->state;
  hb_sb_printf(&r->out,
            "verify tiles: %lu entries, %lu ok, %lu mismatches; not checked: %lu skipped, %lu without tile, %lu not "
            "analyzed\n",
            v->entries, v->ok, v->mismatch, v->skipped, v->no_tile, v->not_analyzed);
  if (v->mismatch) r->rc = 3;
  free(v);
  r->state = NULL;
}

const index_report index_report_tile_verify = {begin, index_module_header, index_computation_header, instr, NULL, end};
