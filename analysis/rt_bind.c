/* Runtime-variable descriptions in hloidx's semantics (instr_indexing.h,
 * ii_operand): description j stays bound to the map's symbol rt<j> through
 * every composition and every removal of unused symbols, and its map reads
 * the map's own variables. XLA's handling (--xla-compat) is in
 * instr_indexing.c: it lists the consumer's descriptions first while the
 * composed map numbers the producer's runtime variables first, and keeps
 * each description over the symbols of the map it was composed with, which
 * later removals renumber (openxla/xla#49119).
 *
 * Form of a description map: the operand map's dimensions (and their
 * intervals); no symbols when its results use none, else all the map's
 * symbols at the map's positions; no constraints (the map's domain says
 * where it applies). A description with symbols of its own ("any element
 * of this vector": ragged-all-to-all's offsets) is opaque: it is carried
 * along as XLA carries descriptions, and --verify does not bind it. */
#include <string.h>

#include "ii_internal.h"

bool ii_desc_opaque(const imap *d, const imap *m) { return imap_nsyms(d) > 0 && imap_nsyms(d) != imap_nsyms(m); }

imap *ii_desc_map(ii_ctx *c, const imap *m, uint32_t nres, const ae *const *res) {
  bool sym = false;
  for (uint32_t i = 0; i < nres; i++) sym |= ae_has_sym(res[i]);
  return imap_new(c->scratch, c->ae, m->ndims, sym ? m->nrange : 0, sym ? m->nrt : 0, m->dim_iv,
                  sym ? m->sym_iv : NULL, nres, res);
}

/* The results of d with its symbols replaced by syms (a description over
 * all the symbols of its map) and its dims by dims (NULL: kept). */
static const ae **desc_results(ii_ctx *c, const imap *d, const ae *const *dims, uint32_t ndims,
                               const ae *const *syms, uint32_t nsyms) {
  const ae **out = ii_exprs(c, d->nresults);
  bool own = imap_nsyms(d) > 0 && imap_nsyms(d) == nsyms;
  ae_subst_many(c->ae, d->nresults, d->results, out, dims, ndims, own ? syms : NULL, own ? nsyms : 0);
  return out;
}

/* compose(first, second) numbers the symbols [S.range | F.range | S.rt |
 * F.rt] (indexing_map.h); so are the descriptions: second's first. */
void ii_rt_compose(ii_ctx *c, const ii_operand *first, const ii_operand *second, ii_operand *x) {
  const imap *F = first->map, *Sm = second->map, *m = x->map;
  uint32_t Sr = Sm->nrange, St = Sm->nrt, Fr = F->nrange, Ft = F->nrt;
  const ae **fsym = ii_exprs(c, Fr + Ft), **ssym = ii_exprs(c, Sr + St);
  for (uint32_t p = 0; p < Fr; p++) fsym[p] = S(c, Sr + p);
  for (uint32_t q = 0; q < Ft; q++) fsym[Fr + q] = S(c, Sr + Fr + St + q);
  for (uint32_t p = 0; p < Sr; p++) ssym[p] = S(c, p);
  for (uint32_t q = 0; q < St; q++) ssym[Sr + q] = S(c, Sr + Fr + q);
  /* first's results over the composed map's symbols: second's dims */
  const ae **fres = desc_results(c, F, NULL, 0, fsym, Fr + Ft);
  x->nrt = second->nrt + first->nrt;
  x->rt = hb_arena_array(c->scratch, x->nrt ? x->nrt : 1, sizeof *x->rt);
  for (uint32_t j = 0; j < second->nrt; j++) {
    const imap *d = second->rt[j].map;
    x->rt[j] = second->rt[j];
    x->rt[j].map = ii_desc_opaque(d, Sm)
                       ? imap_compose(c->scratch, F, d)
                       : ii_desc_map(c, m, d->nresults, desc_results(c, d, fres, F->nresults, ssym, Sr + St));
  }
  for (uint32_t j = 0; j < first->nrt; j++) {
    const imap *d = first->rt[j].map;
    x->rt[second->nrt + j] = first->rt[j];
    if (!ii_desc_opaque(d, F))
      x->rt[second->nrt + j].map = ii_desc_map(c, m, d->nresults, desc_results(c, d, NULL, 0, fsym, Fr + Ft));
  }
}

/* A symbol that a kept runtime variable's description reads is used, even
 * where the map itself no longer mentions it (the variable's value depends
 * on it: `reduce` over a gather's batch dimension). */
ii_status ii_rt_remove_unused(ii_ctx *c, ii_operand *x) {
  imap *m = x->map;
  uint32_t ns = imap_nsyms(m), nr = m->nrange;
  bool *keep = hb_arena_zalloc(c->scratch, ns ? ns : 1), *used = hb_arena_zalloc(c->scratch, ns ? ns : 1);
  for (bool changed = true; changed;) {
    changed = false;
    memset(used, 0, ns);
    imap_used_symbols(m, keep, used);
    for (uint32_t j = 0; j < x->nrt && nr + j < ns; j++) {
      const imap *d = x->rt[j].map;
      if (!used[nr + j] || imap_nsyms(d) != ns) continue; /* (an opaque description reads its own symbols) */
      for (uint32_t i = 0; i < d->nresults; i++) ae_collect_vars(d->results[i], NULL, 0, used, ns);
    }
    for (uint32_t p = 0; p < ns; p++)
      if (used[p] && !keep[p]) keep[p] = changed = true;
  }
  int32_t *o2n = hb_arena_array(c->scratch, ns ? ns : 1, sizeof *o2n);
  imap_remove_unused_symbols_keep(m, keep, o2n);
  const ae **ren = ii_exprs(c, ns);
  for (uint32_t p = 0; p < ns; p++) ren[p] = o2n[p] >= 0 ? S(c, (uint32_t)o2n[p]) : K(c, 0);
  ii_rtvar *kept = hb_arena_array(c->scratch, x->nrt ? x->nrt : 1, sizeof *kept);
  uint32_t n = 0;
  for (uint32_t j = 0; j < x->nrt; j++) {
    if (nr + j < ns && o2n[nr + j] < 0) continue;
    const imap *d = x->rt[j].map;
    ii_rtvar v = x->rt[j];
    /* re-made even when nothing was removed: the map's intervals may have narrowed */
    if (imap_nsyms(d) == 0 || imap_nsyms(d) == ns)
      v.map = ii_desc_map(c, m, d->nresults, desc_results(c, d, NULL, 0, ren, ns));
    kept[n++] = v;
  }
  x->rt = kept;
  x->nrt = n;
  return ii_budget_status(c);
}
