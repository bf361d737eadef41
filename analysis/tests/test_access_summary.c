/* access_summary.h: the counts it calls exact are exact. For every case of
 * indexing_cases.h (and a few more with several maps per operand), each
 * operand's summary over all outputs is compared with brute force: every
 * member map enumerated point by point (runtime variables at their lowest
 * value, results outside the operand dropped), reads = distinct (output,
 * output element, operand element) triples, distinct = operand elements.
 * An estimate must bound them as documented (distinct <= elements). Also
 * the class names and the coalescing steps of a few physical maps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_summary.h"
#include "hlo_ir.h"
#include "indexing_cases.h"
#include "instr_indexing.h"
#include "test_util.h"

typedef struct {
  int64_t *v; /* triples */
  size_t n, cap;
} triples;

static void add3(triples *t, int64_t a, int64_t b, int64_t c) {
  if (t->n + 3 > t->cap) {
    t->cap = t->cap ? t->cap * 2 : 768;
    t->v = realloc(t->v, t->cap * sizeof *t->v);
  }
  t->v[t->n++] = a;
  t->v[t->n++] = b;
  t->v[t->n++] = c;
}

static int cmp3(const void *x, const void *y) {
  const int64_t *a = x, *b = y;
  for (int i = 0; i < 3; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

static int cmp1(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

static int64_t shape_elems(const hlo_shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

/* Brute force over the member maps of operand k. */
static void brute(const ii_set *const *sets, int nsets, const hlo_shape *xs, int64_t *reads, int64_t *distinct) {
  triples t = {0};
  for (int o = 0; o < nsets; o++)
    for (uint32_t i = 0; i < sets[o]->n; i++) {
      const imap *m = sets[o]->items[i]->map;
      if (m->known_empty) continue;
      uint32_t nd = m->ndims, ns = imap_nsyms(m), nv = nd + m->nrange;
      int64_t p[32] = {0}, r[16];
      bool any = true;
      for (uint32_t v = 0; v < nd + ns; v++) {
        interval iv = v < nd ? m->dim_iv[v] : m->sym_iv[v - nd];
        if (iv.lo > iv.hi) any = false;
        p[v] = iv.lo;
      }
      while (any) {
        bool sat = true;
        for (uint32_t k = 0; sat && k < m->ncons; k++) {
          int64_t val;
          sat = ae_eval_point(m->cons[k].expr, p, nd, p + nd, ns, &val) && iv_contains(m->cons[k].iv, val);
        }
        bool in = sat;
        int64_t x = 0, d = 0;
        for (uint32_t q = 0; in && q < m->nresults; q++) {
          in = ae_eval_point(m->results[q], p, nd, p + nd, ns, &r[q]) && r[q] >= 0 && r[q] < xs->dims[q];
          x = x * xs->dims[q] + r[q];
        }
        for (uint32_t q = 0; q < nd; q++) d = d * 1024 + p[q];
        if (in) add3(&t, o, d, x);
        uint32_t v = nv;
        for (;;) {
          if (v == 0) {
            any = false;
            break;
          }
          v--;
          interval iv = v < nd ? m->dim_iv[v] : m->sym_iv[v - nd];
          if (p[v] < iv.hi) {
            p[v]++;
            break;
          }
          p[v] = iv.lo;
        }
      }
    }
  size_t np = t.n / 3;
  if (np) qsort(t.v, np, 3 * sizeof *t.v, cmp3);
  int64_t nr = 0;
  for (size_t i = 0; i < np; i++)
    if (i == 0 || cmp3(t.v + 3 * i, t.v + 3 * (i - 1))) nr++;
  int64_t *xsv = malloc((np + 1) * sizeof *xsv);
  for (size_t i = 0; i < np; i++) xsv[i] = t.v[3 * i + 2];
  if (np) qsort(xsv, np, sizeof *xsv, cmp1);
  int64_t nd = 0;
  for (size_t i = 0; i < np; i++)
    if (i == 0 || xsv[i] != xsv[i - 1]) nd++;
  *reads = nr;
  *distinct = nd;
  free(xsv);
  free(t.v);
}

static int n_exact, n_estimate, n_unknown;

static void run(ii_ctx *c, const char *name, const char *hlo) {
  hlo_parse_result pr;
  hlo_error perr;
  size_t len = strlen(hlo);
  char *buf = calloc(len + 64, 1);
  memcpy(buf, hlo, len);
  if (hlo_parse_file(buf, len, &pr, &perr)) {
    CHECK(false, "%s: does not parse: %s", name, perr.message);
    free(buf);
    return;
  }
  const hlo_instr *in = pr.modules[0]->entry->root;
  int nsets = (int)ii_num_outputs(in);
  ii_ctx_reset(c);
  ii_indexing *x = calloc((size_t)nsets, sizeof *x);
  const ii_set **sets = calloc((size_t)nsets, sizeof *sets);
  bool ok = true;
  for (int o = 0; o < nsets && ok; o++) {
    ii_error err;
    ok = ii_o2i(c, in, o, &x[o], &err) == II_OK;
    CHECK(ok, "%s: o2i fails: %s", name, err.message);
  }
  for (int k = 0; ok && k < in->n_operands; k++) {
    for (int o = 0; o < nsets; o++) sets[o] = &x[o].sets[k];
    as_summary s;
    as_summarize(c, in, (uint32_t)k, 0, sets, nsets, &s);
    if (!s.counted) {
      n_unknown++;
      continue;
    }
    int64_t reads, distinct;
    brute(sets, nsets, in->operands[k]->shape, &reads, &distinct);
    CHECK(s.elements == (as_count)shape_elems(in->operands[k]->shape), "%s operand %d: elements", name, k);
    CHECK(s.distinct <= s.elements, "%s operand %d: %llu distinct of %llu elements", name, k,
          (unsigned long long)s.distinct, (unsigned long long)s.elements);
    if (s.exact) {
      n_exact++;
      CHECK(s.reads == (as_count)reads && s.distinct == (as_count)distinct,
            "%s operand %d (%s): exact counts %llu reads / %llu distinct, brute force %lld / %lld", name, k,
            as_class_name(s.cls), (unsigned long long)s.reads, (unsigned long long)s.distinct, (long long)reads,
            (long long)distinct);
    } else {
      n_estimate++;
      CHECK(s.why[0] != 0, "%s operand %d: an estimate without a reason", name, k);
    }
  }
  free(x);
  free(sets);
  ii_ctx_end_module(c);
  hlo_parse_result_free(&pr);
  free(buf);
}

/* Several maps per operand: the union rules. */
static const char *const more[][2] = {
    {"two paths, contained",
     "HloModule m\n" ADD "f {\n p0 = f32[4,6] parameter(0)\n c = f32[] constant(0)\n"
     " r = f32[4] reduce(p0, c), dimensions={1}, to_apply=add\n b = f32[4,6] broadcast(r), dimensions={0}\n"
     " ROOT d = f32[4,6] divide(p0, b)\n}\nENTRY e {\n p = f32[4,6] parameter(0)\n"
     " ROOT r = f32[4,6] fusion(p), kind=kLoop, calls=f\n}\n"},
    {"two paths, overlapping",
     "HloModule m\nf {\n p0 = f32[10] parameter(0)\n a = f32[5] slice(p0), slice={[0:5]}\n"
     " b = f32[5] slice(p0), slice={[1:10:2]}\n ROOT s = f32[5] add(a, b)\n}\n"
     "ENTRY e {\n p = f32[10] parameter(0)\n ROOT r = f32[5] fusion(p), kind=kLoop, calls=f\n}\n"},
    {"two paths, disjoint",
     "HloModule m\nf {\n p0 = f32[12] parameter(0)\n a = f32[3] slice(p0), slice={[0:3]}\n"
     " b = f32[3] slice(p0), slice={[6:12:2]}\n ROOT s = f32[6] concatenate(a, b), dimensions={0}\n}\n"
     "ENTRY e {\n p = f32[12] parameter(0)\n ROOT r = f32[6] fusion(p), kind=kLoop, calls=f\n}\n"},
    {"two outputs",
     "HloModule m\nf {\n p0 = f32[3,5] parameter(0)\n n = f32[3,5] negate(p0)\n"
     " s = f32[2,5] slice(p0), slice={[1:3], [0:5]}\n ROOT t = (f32[3,5], f32[2,5]) tuple(n, s)\n}\n"
     "ENTRY e {\n p = f32[3,5] parameter(0)\n ROOT r = (f32[3,5], f32[2,5]) fusion(p), kind=kLoop, calls=f\n}\n"},
    {"two outputs, neither full",
     "HloModule m\nf {\n p0 = f32[10] parameter(0)\n a = f32[4] slice(p0), slice={[0:4]}\n"
     " b = f32[4] slice(p0), slice={[3:7]}\n ROOT t = (f32[4], f32[4]) tuple(a, b)\n}\n"
     "ENTRY e {\n p = f32[10] parameter(0)\n ROOT r = (f32[4], f32[4]) fusion(p), kind=kLoop, calls=f\n}\n"},
    {"window with padding",
     "HloModule m\n" ADD "ENTRY e {\n a = f32[7,5] parameter(0)\n c = f32[] parameter(1)\n"
     " ROOT r = f32[4,5] reduce-window(a, c), window={size=3x2 stride=2x1 pad=1_1x0_1}, to_apply=add\n}\n"},
    {"strided sums",
     "HloModule m\n" ADD "ENTRY e {\n a = f32[20] parameter(0)\n c = f32[] parameter(1)\n"
     " ROOT r = f32[4] reduce-window(a, c), window={size=3 stride=5 rhs_dilate=2}, to_apply=add\n}\n"},
};

int main(void) {
  ii_ctx *c = ii_ctx_new();
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run(c, cases[i].name, cases[i].hlo);
  for (size_t i = 0; i < sizeof own_cases / sizeof *own_cases; i++) run(c, own_cases[i].name, own_cases[i].hlo);
  for (size_t i = 0; i < sizeof more / sizeof *more; i++) run(c, more[i][0], more[i][1]);
  printf("access_summary: %d exact, %d estimates, %d unknown\n", n_exact, n_estimate, n_unknown);
  CHECK(n_exact > 100, "only %d exact summaries", n_exact);
  CHECK(strcmp(as_class_name(AS_DYNAMIC), "gathered/dynamic") == 0, "class name");
  ii_ctx_free(c);
  return t_finish("access_summary");
}
