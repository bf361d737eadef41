#include "affine_expr.h"

#include <stdlib.h>
#include <string.h>

#include "../parser/base/arena.h"
#include "../parser/base/checked.h"
#include "../parser/base/oom.h"
#include "../parser/base/ptrmap.h"
#include "../parser/base/vec.h"

struct ae_ctx {
  hb_arena *arena;
  hb_arena *outer, *scope; /* in a scope (ae_ctx_scope_begin): the nodes' own arena, the scope's */
  size_t scope_len;        /* nodes before the scope began */
  int scope_depth;         /* begins not ended (the outermost one counts) */
  hb_vec scope_slots;      /* size_t: the table slot each node of the scope took, in order */
  bool scope_grew;         /* the table was rebuilt in the scope: its slots moved */
  ae **table; /* open addressing, power-of-two capacity */
  size_t cap, len;
  size_t limit;
  uint32_t max_depth;
  unsigned status;
  const ae *dims[16], *syms[16], *small[33]; /* caches for common leaves; small[i] = const i-16 */
};

/* ---- hash-consing --------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

static uint64_t node_hash(int kind, int64_t value, const ae *l, const ae *r) {
  uint64_t h = mix(0x1234567u, (uint64_t)kind);
  h = mix(h, (uint64_t)value);
  h = mix(h, l ? l->hash : 0);
  h = mix(h, r ? r->hash : 0);
  return h;
}

ae_ctx *ae_ctx_new(void) {
  ae_ctx *c = hb_calloc(1, sizeof *c);
  c->arena = hb_arena_new();
  c->cap = 1024;
  c->table = hb_calloc(c->cap, sizeof *c->table);
  c->max_depth = AE_DEFAULT_MAX_DEPTH;
  return c;
}

void ae_ctx_free(ae_ctx *c) {
  if (!c) return;
  if (c->outer) hb_arena_free(c->outer); /* (freed inside a scope: its nodes are in c->scope) */
  hb_arena_free(c->arena == c->scope ? NULL : c->arena);
  hb_arena_free(c->scope);
  hb_vec_free(&c->scope_slots);
  free(c->table);
  free(c);
}

size_t ae_ctx_node_count(const ae_ctx *c) { return c->len; }

static void rehash(ae_ctx *c, size_t ncap, size_t len);

void ae_ctx_scope_begin(ae_ctx *c) {
  if (c->scope_depth++ > 0) return; /* (the outer scope holds) */
  if (!c->scope) c->scope = hb_arena_new();
  c->outer = c->arena;
  c->arena = c->scope;
  c->scope_len = c->len;
  c->scope_slots.n = 0;
  c->scope_grew = false;
}

void ae_ctx_scope_end(ae_ctx *c) {
  if (c->scope_depth == 0 || --c->scope_depth > 0) return;
  if (!c->scope_grew) {
    /* Linear probing: taking the nodes out newest first, each from the
     * slot it took, gives back the table as it was before each went in. */
    for (size_t k = c->scope_slots.n; k-- > 0;) c->table[HB_AT(c->scope_slots, size_t, k)] = NULL;
  } else { /* (rehashed in between: the table without them, built again) */
    rehash(c, c->cap, c->scope_len);
  }
  const ae **caches[] = {c->dims, c->syms, c->small};
  size_t ncache[] = {16, 16, 33};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < ncache[k]; i++)
      if (caches[k][i] && caches[k][i]->id >= c->scope_len) caches[k][i] = NULL;
  c->len = c->scope_len;
  c->arena = c->outer;
  c->outer = NULL;
  hb_arena_reset_keep(c->scope);
}
void ae_ctx_set_node_limit(ae_ctx *c, size_t limit) { c->limit = limit; }
size_t ae_ctx_node_limit(const ae_ctx *c) { return c->limit; }
void ae_ctx_set_max_depth(ae_ctx *c, uint32_t d) { c->max_depth = d; }
unsigned ae_ctx_status(const ae_ctx *c) { return c->status; }
void ae_ctx_clear_status(ae_ctx *c) { c->status = AE_STATUS_OK; }

/* The table at capacity NCAP with the nodes made before the LEN-th. */
static void rehash(ae_ctx *c, size_t ncap, size_t len) {
  ae **nt = hb_calloc(ncap, sizeof *nt);
  for (size_t i = 0; i < c->cap; i++) {
    ae *n = c->table[i];
    if (!n || n->id >= len) continue;
    size_t j = (size_t)n->hash & (ncap - 1);
    while (nt[j]) j = (j + 1) & (ncap - 1);
    nt[j] = n;
  }
  free(c->table);
  c->table = nt;
  c->cap = ncap;
}

static void table_grow(ae_ctx *c) {
  rehash(c, c->cap * 2, c->len);
  c->scope_grew |= c->outer != NULL;
}

static int64_t lkd_of(int kind, int64_t value, const ae *l, const ae *r) {
  int64_t g;
  switch (kind) {
  case AE_DIM:
  case AE_SYM: return 1;
  case AE_CONST: {
    uint64_t u = hb_ck_uabs(value);
    return u > (uint64_t)INT64_MAX ? 1 : (int64_t)u; /* |INT64_MIN|: 1 is a safe divisor */
  }
  case AE_MUL: {
    int64_t p;
    return hb_ck_mul(l->lkd, r->lkd, &p) ? p : 1;
  }
  case AE_ADD:
  case AE_MOD:
  case AE_MAX: /* the value is one of the operands */
  case AE_MIN: return hb_ck_gcd(l->lkd, r->lkd, &g) ? g : 1;
  case AE_FLOORDIV:
  case AE_CEILDIV:
    if (r->kind == AE_CONST && r->value != 0 && hb_ck_divisible(l->lkd, r->value)) {
      int64_t q;
      if (hb_ck_div_trunc(l->lkd, r->value, &q)) {
        uint64_t u = hb_ck_uabs(q);
        if (u <= (uint64_t)INT64_MAX) return (int64_t)u;
      }
    }
    return 1;
  }
  return 1;
}

_Static_assert(sizeof(ae) == 56, "an expression node is 56 bytes: hundreds of thousands are held");

static const ae *intern(ae_ctx *c, int kind, int64_t value, const ae *l, const ae *r) {
  uint64_t h = node_hash(kind, value, l, r);
  size_t i = (size_t)h & (c->cap - 1);
  for (ae *n; (n = c->table[i]); i = (i + 1) & (c->cap - 1)) {
    if (n->hash == h && n->kind == kind && n->value == value && n->lhs == l && n->rhs == r) return n;
  }
  ae *n = hb_arena_alloc_small(c->arena, sizeof *n); /* (56 bytes, no 16-byte member: not rounded to 64) */
  memset(n, 0, sizeof *n);
  n->hash = h;
  n->kind = (uint8_t)kind;
  n->value = value;
  n->lhs = l;
  n->rhs = r;
  n->id = (uint32_t)c->len;
  if (l) {
    n->flags = l->flags | r->flags | (kind >= AE_MAX ? AE_F_MINMAX : 0);
    n->depth = 1 + (l->depth > r->depth ? l->depth : r->depth);
    uint64_t t = (uint64_t)l->tree_size + r->tree_size + 1;
    n->tree_size = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t; /* saturate */
  } else {
    n->flags = kind == AE_DIM ? AE_F_DIM : kind == AE_SYM ? AE_F_SYM : 0;
    n->depth = 1;
    n->tree_size = 1;
  }
  n->lkd = lkd_of(kind, value, l, r);
  c->table[i] = n;
  c->len++;
  if (c->outer) HB_PUSH(c->scope_slots, size_t, i);
  if (c->len * 4 > c->cap * 3) table_grow(c);
  if (c->limit && c->len > c->limit) c->status |= AE_STATUS_TOO_MANY_NODES;
  if (n->depth > c->max_depth) c->status |= AE_STATUS_TOO_DEEP;
  return n;
}

const ae *ae_raw(ae_ctx *c, ae_kind k, const ae *a, const ae *b) { return intern(c, k, 0, a, b); }

const ae *ae_const(ae_ctx *c, int64_t v) {
  if (v >= -16 && v <= 16) {
    const ae **slot = &c->small[v + 16];
    if (!*slot) *slot = intern(c, AE_CONST, v, NULL, NULL);
    return *slot;
  }
  return intern(c, AE_CONST, v, NULL, NULL);
}

const ae *ae_dim(ae_ctx *c, uint32_t pos) {
  if (pos < 16) {
    if (!c->dims[pos]) c->dims[pos] = intern(c, AE_DIM, pos, NULL, NULL);
    return c->dims[pos];
  }
  return intern(c, AE_DIM, pos, NULL, NULL);
}

const ae *ae_sym(ae_ctx *c, uint32_t pos) {
  if (pos < 16) {
    if (!c->syms[pos]) c->syms[pos] = intern(c, AE_SYM, pos, NULL, NULL);
    return c->syms[pos];
  }
  return intern(c, AE_SYM, pos, NULL, NULL);
}

/* ---- smart constructors (§6.1) ----------------------------------------------- */

static bool const_rhs(const ae *e, int kind, int64_t *v) {
  if (e->kind != kind || e->rhs->kind != AE_CONST) return false;
  *v = e->rhs->value;
  return true;
}

const ae *ae_add(ae_ctx *c, const ae *a, const ae *b) {
  /* 1. constant folding */
  if (a->kind == AE_CONST && b->kind == AE_CONST) {
    int64_t s;
    if (hb_ck_add(a->value, b->value, &s)) return ae_const(c, s);
    return intern(c, AE_ADD, 0, a, b);
  }
  /* 2. constants right; a dimension-containing operand left of a symbolic one */
  if (a->kind == AE_CONST || (ae_is_symbolic(a) && !ae_is_symbolic(b))) return ae_add(c, b, a);
  /* 3. x + 0 */
  if (ae_is_const_value(b, 0)) return a;
  /* 4. (x + c1) + c2, when c1 + c2 folds (an overflowing sum stays as written: folding it would
   * only rebuild the same two additions, forever) */
  int64_t c1, c12;
  if (b->kind == AE_CONST && const_rhs(a, AE_ADD, &c1) && hb_ck_add(c1, b->value, &c12))
    return ae_add(c, a->lhs, ae_const(c, c12));
  /* 5. x*k1 + x*k2 */
  {
    const ae *x1 = a, *x2 = b, *k1 = NULL, *k2 = NULL;
    if (a->kind == AE_MUL && a->rhs->kind == AE_CONST) x1 = a->lhs, k1 = a->rhs;
    if (b->kind == AE_MUL && b->rhs->kind == AE_CONST) x2 = b->lhs, k2 = b->rhs;
    if (x1 == x2) {
      const ae *one = ae_const(c, 1);
      return ae_mul(c, x1, ae_add(c, k1 ? k1 : one, k2 ? k2 : one));
    }
  }
  /* 6. (x + c) + b -> (x + b) + c (b not a constant: that is rule 4, or an overflowing sum) */
  if (b->kind != AE_CONST && const_rhs(a, AE_ADD, &c1)) return ae_add(c, ae_add(c, a->lhs, b), a->rhs);
  /* 7. x - (x floordiv c) * c -> x mod c */
  if (!ae_is_binary(b)) return intern(c, AE_ADD, 0, a, b);
  const ae *p = b->lhs, *q = b->rhs;
  if (ae_is_const_value(q, -1) && p->kind == AE_MUL) {
    const ae *u = p->lhs, *v = p->rhs;
    if (u->kind != AE_FLOORDIV) return intern(c, AE_ADD, 0, a, b);
    if (u->rhs == v && u->lhs == a) return ae_mod(c, a, v);
  }
  if (b->kind == AE_MUL && p->kind == AE_FLOORDIV && p->rhs->kind == AE_CONST && p->rhs->value > 0 &&
      p->lhs == a && q->kind == AE_CONST && q->value == -p->rhs->value)
    return ae_mod(c, a, p->rhs);
  return intern(c, AE_ADD, 0, a, b);
}

const ae *ae_mul(ae_ctx *c, const ae *a, const ae *b) {
  /* 1. */
  if (a->kind == AE_CONST && b->kind == AE_CONST) {
    int64_t p;
    if (hb_ck_mul(a->value, b->value, &p)) return ae_const(c, p);
    return intern(c, AE_MUL, 0, a, b);
  }
  /* 2. both contain dimensions: not affine, keep as is */
  if (!ae_is_symbolic(a) && !ae_is_symbolic(b)) return intern(c, AE_MUL, 0, a, b);
  /* 3. symbolic / constant operand to the right */
  if (!ae_is_symbolic(b) || a->kind == AE_CONST) return ae_mul(c, b, a);
  /* 4. */
  if (b->kind == AE_CONST) {
    if (b->value == 1) return a;
    if (b->value == 0) return b;
  }
  /* 5. (x * c1) * c2, when c1 * c2 folds (see ae_add rule 4) */
  int64_t c1, c12;
  if (b->kind == AE_CONST && const_rhs(a, AE_MUL, &c1) && hb_ck_mul(c1, b->value, &c12))
    return ae_mul(c, a->lhs, ae_const(c, c12));
  /* 6. (x * c1) * y -> (x * y) * c1 (y not a constant) */
  if (b->kind != AE_CONST && const_rhs(a, AE_MUL, &c1)) return ae_mul(c, ae_mul(c, a->lhs, b), a->rhs);
  return intern(c, AE_MUL, 0, a, b);
}

const ae *ae_floordiv(ae_ctx *c, const ae *a, const ae *b) {
  if (b->kind != AE_CONST || b->value == 0) return intern(c, AE_FLOORDIV, 0, a, b);
  int64_t d = b->value, v;
  if (a->kind == AE_CONST) {
    if (hb_ck_floordiv(a->value, d, &v)) return ae_const(c, v);
    return intern(c, AE_FLOORDIV, 0, a, b);
  }
  if (d == 1) return a;
  int64_t k;
  if (const_rhs(a, AE_MUL, &k) && hb_ck_divisible(k, d) && hb_ck_div_trunc(k, d, &v))
    return ae_mul(c, a->lhs, ae_const(c, v));
  if (a->kind == AE_ADD && (hb_ck_divisible(a->lhs->lkd, d) || hb_ck_divisible(a->rhs->lkd, d)))
    return ae_add(c, ae_floordiv(c, a->lhs, b), ae_floordiv(c, a->rhs, b));
  return intern(c, AE_FLOORDIV, 0, a, b);
}

const ae *ae_ceildiv(ae_ctx *c, const ae *a, const ae *b) {
  if (b->kind != AE_CONST || b->value == 0) return intern(c, AE_CEILDIV, 0, a, b);
  int64_t d = b->value, v;
  if (a->kind == AE_CONST) {
    if (hb_ck_ceildiv(a->value, d, &v)) return ae_const(c, v);
    return intern(c, AE_CEILDIV, 0, a, b);
  }
  if (d == 1) return a;
  int64_t k;
  if (const_rhs(a, AE_MUL, &k) && hb_ck_divisible(k, d) && hb_ck_div_trunc(k, d, &v))
    return ae_mul(c, a->lhs, ae_const(c, v));
  return intern(c, AE_CEILDIV, 0, a, b);
}

const ae *ae_mod(ae_ctx *c, const ae *a, const ae *b) {
  if (b->kind != AE_CONST || b->value < 1) return intern(c, AE_MOD, 0, a, b);
  int64_t m = b->value, v;
  if (a->kind == AE_CONST) {
    hb_ck_mod(a->value, m, &v); /* m >= 1: never fails */
    return ae_const(c, v);
  }
  if (a->lkd % m == 0) return ae_const(c, 0);
  if (a->kind == AE_ADD) {
    if (a->lhs->lkd % m == 0) return ae_mod(c, a->rhs, b);
    if (a->rhs->lkd % m == 0) return ae_mod(c, a->lhs, b);
  }
  int64_t k;
  if (const_rhs(a, AE_MOD, &k) && k >= 1 && k % m == 0) return ae_mod(c, a->lhs, b);
  return intern(c, AE_MOD, 0, a, b);
}

static const ae *minmax(ae_ctx *c, ae_kind k, const ae *a, const ae *b) {
  if (a->kind == AE_CONST && b->kind == AE_CONST)
    return ae_const(c, (k == AE_MAX) == (a->value > b->value) ? a->value : b->value);
  if (a == b) return a;
  if (a->kind == AE_CONST) return intern(c, k, 0, b, a);
  return intern(c, k, 0, a, b);
}

const ae *ae_max(ae_ctx *c, const ae *a, const ae *b) { return minmax(c, AE_MAX, a, b); }
const ae *ae_min(ae_ctx *c, const ae *a, const ae *b) { return minmax(c, AE_MIN, a, b); }

const ae *ae_binary(ae_ctx *c, ae_kind k, const ae *a, const ae *b) {
  switch (k) {
  case AE_ADD: return ae_add(c, a, b);
  case AE_MUL: return ae_mul(c, a, b);
  case AE_MOD: return ae_mod(c, a, b);
  case AE_FLOORDIV: return ae_floordiv(c, a, b);
  case AE_CEILDIV: return ae_ceildiv(c, a, b);
  case AE_MAX:
  case AE_MIN: return minmax(c, k, a, b);
  default: return intern(c, k, 0, a, b);
  }
}

const ae *ae_add_const(ae_ctx *c, const ae *a, int64_t v) { return ae_add(c, a, ae_const(c, v)); }
const ae *ae_mul_const(ae_ctx *c, const ae *a, int64_t v) { return ae_mul(c, a, ae_const(c, v)); }
const ae *ae_floordiv_const(ae_ctx *c, const ae *a, int64_t v) { return ae_floordiv(c, a, ae_const(c, v)); }
const ae *ae_ceildiv_const(ae_ctx *c, const ae *a, int64_t v) { return ae_ceildiv(c, a, ae_const(c, v)); }
const ae *ae_mod_const(ae_ctx *c, const ae *a, int64_t v) { return ae_mod(c, a, ae_const(c, v)); }
const ae *ae_neg(ae_ctx *c, const ae *a) { return ae_mul(c, a, ae_const(c, -1)); }
const ae *ae_sub(ae_ctx *c, const ae *a, const ae *b) { return ae_add(c, a, ae_neg(c, b)); }

/* ---- term order ------------------------------------------------------------------- */

int ae_term_compare(const ae *a, const ae *b) {
  while (a != b) {
    bool ac = a->kind == AE_CONST, bc = b->kind == AE_CONST;
    if (ac != bc) return ac ? 1 : -1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (!ae_is_binary(a)) return a->value < b->value ? -1 : a->value > b->value;
    if (a->lhs != b->lhs) {
      int r = ae_term_compare(a->lhs, b->lhs);
      if (r) return r;
    }
    a = a->rhs;
    b = b->rhs;
  }
  return 0;
}

/* ---- point evaluation --------------------------------------------------------------- */

typedef struct {
  const int64_t *dims, *syms;
  size_t nd, ns;
  hb_ptrmap *memo; /* NULL for small trees */
} point_ctx;

static bool eval_rec(const point_ctx *p, const ae *e, int64_t *out) {
  switch (e->kind) {
  case AE_CONST: *out = e->value; return true;
  case AE_DIM:
    if ((uint64_t)e->value >= p->nd) return false;
    *out = p->dims[e->value];
    return true;
  case AE_SYM:
    if ((uint64_t)e->value >= p->ns) return false;
    *out = p->syms[e->value];
    return true;
  default: break;
  }
  if (p->memo) {
    hb_ptrmap_val *v = hb_ptrmap_get(p->memo, e);
    if (v) {
      *out = v->a;
      return v->b != 0;
    }
  }
  int64_t l, r, res = 0;
  bool ok = eval_rec(p, e->lhs, &l) && eval_rec(p, e->rhs, &r);
  if (ok) {
    switch (e->kind) {
    case AE_ADD: ok = hb_ck_add(l, r, &res); break;
    case AE_MUL: ok = hb_ck_mul(l, r, &res); break;
    case AE_MOD: ok = hb_ck_mod(l, r, &res); break;
    case AE_FLOORDIV: ok = hb_ck_floordiv(l, r, &res); break;
    case AE_CEILDIV: ok = hb_ck_ceildiv(l, r, &res); break;
    case AE_MAX: res = l > r ? l : r; break;
    case AE_MIN: res = l < r ? l : r; break;
    default: ok = false;
    }
  }
  if (p->memo) hb_ptrmap_put(p->memo, e, (hb_ptrmap_val){res, ok});
  *out = res;
  return ok;
}

bool ae_eval_point(const ae *e, const int64_t *dims, size_t ndims, const int64_t *syms, size_t nsyms,
                   int64_t *out) {
  point_ctx p = {dims, syms, ndims, nsyms, NULL};
  if (e->tree_size <= 512) return eval_rec(&p, e, out);
  hb_ptrmap memo;
  hb_ptrmap_init(&memo);
  p.memo = &memo;
  bool ok = eval_rec(&p, e, out);
  hb_ptrmap_free(&memo);
  return ok;
}

/* ---- substitution --------------------------------------------------------------------- */

typedef struct {
  ae_ctx *c;
  const ae *const *dims, *const *syms;
  size_t nd, ns;
  bool use_memo; /* false for small trees */
  hb_ptrmap memo;
} subst_ctx;

static const ae *subst_rec(subst_ctx *s, const ae *e) {
  switch (e->kind) {
  case AE_CONST: return e;
  case AE_DIM: return ((uint64_t)e->value < s->nd && s->dims[e->value]) ? s->dims[e->value] : e;
  case AE_SYM: return ((uint64_t)e->value < s->ns && s->syms[e->value]) ? s->syms[e->value] : e;
  default: break;
  }
  if (s->use_memo) {
    bool found;
    const ae *m = hb_ptrmap_get_ptr(&s->memo, e, &found);
    if (found) return m;
  }
  const ae *l = subst_rec(s, e->lhs), *r = subst_rec(s, e->rhs);
  const ae *res = (l == e->lhs && r == e->rhs) ? e : ae_binary(s->c, (ae_kind)e->kind, l, r);
  if (s->use_memo) hb_ptrmap_put_ptr(&s->memo, e, res);
  return res;
}

/* Shared sub-DAGs are substituted once through the memo; small inputs
 * (512 nodes in all when walked as trees, like ae_eval_point) are walked
 * without it, which is cheaper than its lookups. Hash-consing makes both
 * give the same nodes. */
void ae_subst_many(ae_ctx *c, size_t n, const ae *const *in, const ae **out, const ae *const *dims,
                   size_t ndims, const ae *const *syms, size_t nsyms) {
  uint64_t nodes = 0;
  for (size_t i = 0; i < n && nodes <= 512; i++) /* (tree sizes saturate: no sum of them) */
    nodes = in[i]->tree_size > 512 ? 513 : nodes + in[i]->tree_size;
  subst_ctx s = {c, dims, syms, dims ? ndims : 0, syms ? nsyms : 0, nodes > 512, {0}};
  hb_ptrmap_init(&s.memo);
  for (size_t i = 0; i < n; i++) out[i] = subst_rec(&s, in[i]);
  hb_ptrmap_free(&s.memo);
}

const ae *ae_subst(ae_ctx *c, const ae *e, const ae *const *dims, size_t ndims, const ae *const *syms,
                   size_t nsyms) {
  const ae *out;
  ae_subst_many(c, 1, &e, &out, dims, ndims, syms, nsyms);
  return out;
}

/* ---- variable collection -------------------------------------------------------------- */

typedef struct {
  bool *du, *su;
  size_t nd, ns;
  hb_ptrmap seen;
} collect_ctx;

static void collect_rec(collect_ctx *k, const ae *e) {
  if (!(e->flags & ((k->du ? AE_F_DIM : 0) | (k->su ? AE_F_SYM : 0)))) return;
  switch (e->kind) {
  case AE_DIM:
    if (k->du && (uint64_t)e->value < k->nd) k->du[e->value] = true;
    return;
  case AE_SYM:
    if (k->su && (uint64_t)e->value < k->ns) k->su[e->value] = true;
    return;
  case AE_CONST: return;
  default: break;
  }
  if (e->tree_size > 32) {
    if (hb_ptrmap_get(&k->seen, e)) return;
    hb_ptrmap_put(&k->seen, e, (hb_ptrmap_val){0, 0});
  }
  collect_rec(k, e->lhs);
  collect_rec(k, e->rhs);
}

void ae_collect_vars(const ae *e, bool *dims_used, size_t ndims, bool *syms_used, size_t nsyms) {
  collect_ctx k = {dims_used, syms_used, ndims, nsyms, {0}};
  hb_ptrmap_init(&k.seen);
  collect_rec(&k, e);
  hb_ptrmap_free(&k.seen);
}
