/* IR construction: the actions of hlo_parser.y, name scopes and resolution,
 * and the hlo_parse_file driver. */
#include <assert.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_parser.h"
#include "name_table.h"
#include "base/oom.h"
#include "parse_ctx.h"

/* ---- errors ---------------------------------------------------------- */

int pc_error(parse_ctx *P, size_t off, const char *fmt, ...) {
  if (P->failed) return -1;
  P->failed = true;
  P->err->offset = off;
  P->err->note[0] = '\0';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(P->err->message, sizeof P->err->message, fmt, ap);
  va_end(ap);
  return -1;
}

void pc_note(parse_ctx *P, size_t off, const char *fmt, ...) {
  P->err->note_offset = off;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(P->err->note, sizeof P->err->note, fmt, ap);
  va_end(ap);
}

void pc_warn(parse_ctx *P, size_t off, const char *fmt, ...) {
  char buf[HLO_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  HB_PUSH(P->warnings, hlo_warning, ((hlo_warning){off, hb_arena_strndup(P->a, buf, strlen(buf))}));
}

/* ---- options ------------------------------------------------------------------ */

static hlo_parse_options options;

void hlo_parse_set_options(const hlo_parse_options *o) { options = *o; }

const hlo_parse_options *hlo_parse_get_options(void) { return &options; }

static int64_t tok_i64(parse_ctx *P, const pc_tok *t, bool *ok) {
  *ok = true;
  if (t->neg) return t->u == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)t->u;
  if (t->u > (uint64_t)INT64_MAX) {
    pc_error(P, t->off, "integer %.*s is too large (more than 2^63-1)", (int)t->len, t->ptr);
    *ok = false;
    return 0;
  }
  return (int64_t)t->u;
}

/* ---- modules -------------------------------------------------------------- */

void pc_module_begin_if_needed(parse_ctx *P, size_t off) {
  if (P->mod) return;
  hb_arena *a = hb_arena_new();
  hlo_module *m = hb_arena_zalloc(a, sizeof *m);
  m->arena = a;
  m->offset = off;
  m->replica_count = 1;
  m->num_partitions = 1;
  P->mod = m;
  P->a = a;
  if (P->in) hlo_intern_reset(P->in, a);
  else P->in = hlo_intern_new(a); /* one table for all the modules (intern.h) */
  hb_ptrmap_free(&P->comp_names); /* (back to its inline slots: clearing a grown one costs more) */
  hb_ptrmap_free(&P->anon_next);
  hb_ptrmap_free(&P->hints);
  hb_ptrmap_free(&P->cold_shared);
  P->comps.n = 0;
  P->called_pending.n = 0;
  P->async_checks.n = 0;
  P->n_shapeless = 0;
  P->declchecks.n = 0;
  P->entry_marked = NULL;
  P->warnings.n = 0;
  P->last_def = NULL; /* (the strings of the last module are gone) */
  memset(P->words, 0, sizeof P->words);
  pc_shape_cache_reset(P);
}

void pc_module_name(parse_ctx *P, const pc_tok *t) {
  P->mod->name = hlo_intern_str(P->in, t->ptr, t->len);
}

int pc_header_done(parse_ctx *P) {
  int rc = pc_header_apply(P, (const pc_attr *)P->attrs.p, (int)P->attrs.n);
  pc_comprefs_drop(P, (const pc_attr *)P->attrs.p, (int)P->attrs.n);
  P->attrs.n = 0;
  return rc;
}

/* ---- shapes ---------------------------------------------------------------- */

const bool pc_zero_flags[HLO_MAX_RANK];

static void default_layout_in(hb_arena *a, hlo_shape *s) {
  memset(&s->layout, 0, sizeof s->layout);
  s->layout.n_minor_to_major = s->rank;
  int64_t *v = hb_arena_array(a, (size_t)s->rank, sizeof *v);
  for (int i = 0; i < s->rank; i++) v[i] = s->rank - 1 - i;
  s->layout.minor_to_major = v;
  s->layout.tail_padding_alignment = 1;
}

void pc_default_layout(parse_ctx *P, hlo_shape *s) { default_layout_in(P->a, s); }

int pc_push_dim(parse_ctx *P, const pc_tok *t, int form, pc_range *r) {
  pc_dim d = {0, 0};
  if (form == 2) {
    d.v = HLO_DIM_UNBOUNDED;
    d.flags = 3;
  } else {
    if (t->neg) return pc_error(P, t->off, "dimension size must be non-negative, found %.*s", (int)t->len, t->ptr);
    bool ok;
    d.v = tok_i64(P, t, &ok);
    if (!ok) return -1;
    d.flags = form == 1 ? 1 : 0;
  }
  HB_PUSH(P->dims, pc_dim, d);
  if (r) *r = (pc_range){(uint32_t)P->dims.n - 1, (uint32_t)P->dims.n};
  return 0;
}

static size_t fmt_ints(char *buf, size_t cap, const int64_t *v, int n) {
  size_t w = 0;
  if (cap) buf[0] = '\0'; /* n == 0: an empty list, not stack garbage */
  for (int i = 0; i < n && w < cap; i++) w += (size_t)snprintf(buf + w, cap - w, "%s%lld", i ? "," : "", (long long)v[i]);
  if (w >= cap && cap > 4) strcpy(buf + cap - 4, "...");
  return w;
}

hlo_shape *pc_array_shape(parse_ctx *P, const pc_tok *type, pc_range dims, hlo_layout *lay) {
  int rank = (int)(dims.e - dims.b);
  if (rank > HLO_MAX_RANK) {
    pc_error(P, type->off, "shape has %d dimensions (the limit is %d)", rank, HLO_MAX_RANK);
    return NULL;
  }
  hb_arena *a = pc_shape_arena(P);
  hlo_shape *s = hb_arena_zalloc(a, sizeof *s);
  s->type = (hlo_elem_type)type->sub;
  s->rank = rank;
  if ((s->type == HLO_TOKEN || s->type == HLO_OPAQUE) && rank > 0) {
    pc_error(P, type->off, "%s shapes have no dimensions (write %s[])", hlo_elem_type_name(s->type),
             hlo_elem_type_name(s->type));
    return NULL;
  }
  int64_t *dv = hb_arena_array(a, (size_t)rank, sizeof *dv);
  bool any_dyn = false;
  const pc_dim *src = rank ? &HB_AT(P->dims, pc_dim, dims.b) : NULL; /* no dims: the vector may be empty (NULL) */
  int64_t elems = 1;
  bool overflow = false;
  for (int i = 0; i < rank; i++) {
    dv[i] = src[i].v;
    any_dyn |= src[i].flags != 0;
    if (!(src[i].flags & 2)) {
      if (dv[i] != 0 && elems > INT64_MAX / dv[i]) overflow = true;
      else elems *= dv[i];
    }
  }
  s->dims = dv;
  if (any_dyn) {
    bool *dyn = hb_arena_array(a, (size_t)rank, sizeof *dyn);
    bool *unb = hb_arena_array(a, (size_t)rank, sizeof *unb);
    for (int i = 0; i < rank; i++) {
      dyn[i] = src[i].flags != 0;
      unb[i] = (src[i].flags & 2) != 0;
    }
    s->dynamic = dyn;
    s->unbounded = unb;
  } else {
    s->dynamic = pc_zero_flags;
    s->unbounded = pc_zero_flags;
  }
  P->dims.n = dims.b;
  if (overflow) {
    pc_error(P, type->off, "shape has more than 2^63-1 elements");
    return NULL;
  }
  if (!lay) {
    default_layout_in(a, s);
    return s;
  }
  s->layout = *lay;
  if (s->layout.n_minor_to_major != rank && !(s->type == HLO_TOKEN || s->type == HLO_OPAQUE)) {
    char buf[64];
    fmt_ints(buf, sizeof buf, s->layout.minor_to_major, s->layout.n_minor_to_major);
    pc_error(P, type->off, "layout {%s} has %d minor_to_major entries, but the shape has rank %d", buf,
             s->layout.n_minor_to_major, rank);
    return NULL;
  }
  if (s->type == HLO_TOKEN || s->type == HLO_OPAQUE) {
    if (s->layout.n_minor_to_major != 0) {
      pc_error(P, type->off, "%s shapes have no layout", hlo_elem_type_name(s->type));
      return NULL;
    }
    return s;
  }
  /* permutation check */
  uint64_t small_seen = 0;
  bool *seen = rank > 64 ? hb_arena_zalloc(a, (size_t)rank) : NULL;
  for (int i = 0; i < rank; i++) {
    int64_t d = s->layout.minor_to_major[i];
    bool dup;
    if (d < 0 || d >= rank) {
      dup = true;
    } else if (seen) {
      dup = seen[d];
      seen[d] = true;
    } else {
      dup = (small_seen >> d) & 1;
      small_seen |= (uint64_t)1 << d;
    }
    if (dup) {
      char buf[64];
      fmt_ints(buf, sizeof buf, s->layout.minor_to_major, rank);
      pc_error(P, type->off, "layout minor_to_major {%s} is not a permutation of 0..%d", buf, rank - 1);
      return NULL;
    }
  }
  if (s->layout.n_dim_levels != 0 && s->layout.n_dim_levels != rank) {
    pc_error(P, type->off, "layout has %d dim level types, but the shape has rank %d", s->layout.n_dim_levels, rank);
    return NULL;
  }
  if (s->layout.physical_shape && !(s->layout.n_dim_levels > 0)) {
    pc_error(P, type->off, "layout with P(...) (physical shape) on a dense array shape");
    return NULL;
  }
  return s;
}

hlo_shape *pc_tuple_shape(parse_ctx *P, pc_range elems) {
  hlo_shape *s = hb_arena_zalloc(P->a, sizeof *s);
  s->type = HLO_TUPLE;
  s->n_elems = (int)(elems.e - elems.b);
  s->elems = hb_vec_take(P->a, &P->shapes, sizeof *s->elems, elems.b, elems.e);
  s->dims = NULL;
  s->dynamic = pc_zero_flags;
  s->unbounded = pc_zero_flags;
  return s;
}

hlo_shape *pc_buffer_shape(parse_ctx *P, const hlo_shape *inner) {
  hlo_shape *s = hb_arena_zalloc(P->a, sizeof *s);
  s->type = HLO_BUFFER;
  s->n_elems = 1;
  const hlo_shape **e = hb_arena_alloc(P->a, sizeof *e);
  e[0] = inner;
  s->elems = e;
  s->dynamic = pc_zero_flags;
  s->unbounded = pc_zero_flags;
  return s;
}

void pc_push_shape(parse_ctx *P, const hlo_shape *s, pc_range *r) {
  HB_PUSH(P->shapes, const hlo_shape *, s);
  if (r) *r = (pc_range){(uint32_t)P->shapes.n - 1, (uint32_t)P->shapes.n};
}

const hlo_shape **pc_shapes_take(parse_ctx *P, pc_range r) {
  return hb_vec_take(P->a, &P->shapes, sizeof(const hlo_shape *), r.b, r.e);
}

hlo_shape *pc_shape_clone_with_type(parse_ctx *P, const hlo_shape *s, hlo_elem_type t) {
  hlo_shape *c = hb_arena_dup(P->a, s, sizeof *s);
  c->type = t;
  return c;
}

const hlo_shape *pc_default_scalar(parse_ctx *P, hlo_elem_type t) {
  hlo_shape *s = hb_arena_zalloc(P->a, sizeof *s);
  s->type = t;
  s->dynamic = pc_zero_flags;
  s->unbounded = pc_zero_flags;
  pc_default_layout(P, s);
  return s;
}

/* ---- layouts ---------------------------------------------------------------- */

void pc_layout_begin(parse_ctx *P, size_t off) {
  pc_layout *l = hb_vec_push_raw(&P->lstack, sizeof *l);
  memset(l, 0, sizeof *l);
  l->lay.explicit_layout = true;
  l->lay.tail_padding_alignment = 1;
  l->off = off;
}

hlo_layout *pc_layout_end(parse_ctx *P, pc_range m2m) {
  pc_layout *l = &HB_AT(P->lstack, pc_layout, P->lstack.n - 1);
  hlo_layout *out = &P->lay_done; /* (pc_array_shape copies it at once) */
  *out = l->lay;
  out->minor_to_major = hb_vec_take(pc_shape_arena(P), &P->ints, sizeof(int64_t), m2m.b, m2m.e);
  out->n_minor_to_major = (int)(m2m.e - m2m.b);
  P->lstack.n--;
  return out;
}

int pc_push_int(parse_ctx *P, const pc_tok *t, pc_range *r, bool allow_neg) {
  if (t->neg && !allow_neg) return pc_error(P, t->off, "expected a non-negative integer, found %.*s", (int)t->len, t->ptr);
  bool ok;
  int64_t v = tok_i64(P, t, &ok);
  if (!ok) return -1;
  HB_PUSH(P->ints, int64_t, v);
  if (r) *r = (pc_range){(uint32_t)P->ints.n - 1, (uint32_t)P->ints.n};
  return 0;
}

int pc_push_tile_dim(parse_ctx *P, const pc_tok *t, bool star, pc_range *r) {
  if (star) {
    HB_PUSH(P->ints, int64_t, HLO_TILE_COMBINE);
    if (r) *r = (pc_range){(uint32_t)P->ints.n - 1, (uint32_t)P->ints.n};
    return 0;
  }
  if (t->neg || t->u == 0) return pc_error(P, t->off, "tile sizes must be positive, found %.*s", (int)t->len, t->ptr);
  return pc_push_int(P, t, r, false);
}

int pc_push_tile(parse_ctx *P, pc_range dims, pc_range *tiles) {
  hlo_tile tile;
  tile.n_dims = (int)(dims.e - dims.b);
  tile.dims = hb_vec_take(P->a, &P->ints, sizeof(int64_t), dims.b, dims.e);
  HB_PUSH(P->tiles, hlo_tile, tile);
  if (tiles) *tiles = (pc_range){(uint32_t)P->tiles.n - 1, (uint32_t)P->tiles.n};
  return 0;
}

int pc_push_split(parse_ctx *P, const pc_tok *dim, pc_range offs, pc_range *splits) {
  hlo_split_config sc;
  if (dim->neg) return pc_error(P, dim->off, "split dimension must be non-negative");
  bool ok;
  sc.dimension = tok_i64(P, dim, &ok);
  if (!ok) return -1;
  sc.offsets.n = (int)(offs.e - offs.b);
  sc.offsets.v = hb_vec_take(P->a, &P->ints, sizeof(int64_t), offs.b, offs.e);
  HB_PUSH(P->splits, hlo_split_config, sc);
  if (splits) *splits = (pc_range){(uint32_t)P->splits.n - 1, (uint32_t)P->splits.n};
  return 0;
}

int pc_push_dlt(parse_ctx *P, const pc_tok *letter, int mods, pc_range *r) {
  hlo_dim_level d;
  char c = letter->len == 1 ? letter->ptr[0] : 0;
  switch (c) {
  case 'D': d.kind = HLO_DLT_DENSE; break;
  case 'C': d.kind = HLO_DLT_COMPRESSED; break;
  case 'S': d.kind = HLO_DLT_SINGLETON; break;
  case 'H': d.kind = HLO_DLT_LOOSE_COMPRESSED; break;
  default:
    return pc_error(P, letter->off, "expected a DimLevelType abbreviation (D, C, S or H), found '%.*s'",
                    (int)letter->len, letter->ptr);
  }
  d.not_unique = (mods & 1) != 0;
  d.not_ordered = (mods & 2) != 0;
  HB_PUSH(P->dlts, hlo_dim_level, d);
  if (r) *r = (pc_range){(uint32_t)P->dlts.n - 1, (uint32_t)P->dlts.n};
  return 0;
}

int pc_layout_field(parse_ctx *P, int field, const pc_tok *t, size_t off, const void *arg, pc_range r) {
  pc_layout *l = &HB_AT(P->lstack, pc_layout, P->lstack.n - 1);
  static const char order[] = "DT L#*ESCPM";
  const char *pos = strchr(order, field);
  unsigned bit = 1u << (pos ? pos - order : 0);
  if (l->seen & bit) {
    const char *nm = field == 'C' ? "SC" : (char[2]){(char)field, 0};
    return pc_error(P, off, "layout field %s given twice", field == 'C' ? "SC" : nm);
  }
  l->seen |= bit;
  hlo_layout *L = &l->lay;
  bool ok = true;
  switch (field) {
  case 'T':
    L->tiles = hb_vec_take(P->a, &P->tiles, sizeof(hlo_tile), r.b, r.e);
    L->n_tiles = (int)(r.e - r.b);
    break;
  case 'L': case 'E': case 'S': case 'M': {
    if (t->neg) return pc_error(P, t->off, "layout field %c(...) must be non-negative", field);
    int64_t v = tok_i64(P, t, &ok);
    if (!ok) return -1;
    if (field == 'L') L->tail_padding_alignment = v;
    else if (field == 'E') L->element_size_bits = v;
    else if (field == 'S') L->memory_space = v;
    else L->dynamic_shape_metadata_prefix_bytes = v;
    break;
  }
  case '#': L->index_primitive_type = (hlo_elem_type)t->sub; break;
  case '*': L->pointer_primitive_type = (hlo_elem_type)t->sub; break;
  case 'C':
    L->split_configs = hb_vec_take(P->a, &P->splits, sizeof(hlo_split_config), r.b, r.e);
    L->n_split_configs = (int)(r.e - r.b);
    break;
  case 'P': L->physical_shape = arg; break;
  case 'D':
    L->dim_levels = hb_vec_take(P->a, &P->dlts, sizeof(hlo_dim_level), r.b, r.e);
    L->n_dim_levels = (int)(r.e - r.b);
    break;
  }
  return 0;
}

/* ---- computations ------------------------------------------------------------ */

static pc_comp *top_comp(parse_ctx *P) { return &HB_AT(P->cstack, pc_comp, P->cstack.n - 1); }

hlo_computation *pc_comp_named(const parse_ctx *P, const hlo_istr *name) {
  bool found;
  return (hlo_computation *)hb_ptrmap_get_ptr(&P->comp_names, name, &found);
}

static int comp_open(parse_ctx *P, hlo_istr *name, size_t off, bool entry, const hlo_shape *sig) {
  if (pc_comp_named(P, name))
    return pc_error(P, off, "computation '%s' is already defined", hlo_istr_str(name));
  hlo_computation *c = hb_arena_zalloc(P->a, sizeof *c);
  c->name = hlo_istr_str(name);
  c->offset = off;
  c->module = P->mod;
  c->entry_marked = entry;
  c->execution_thread = "main";
  c->signature_result = sig;
  hb_ptrmap_put_ptr(&P->comp_names, name, c);
  pc_comp pc = {c, ++P->gen, P->instrs.n, P->pending.n, P->restore.n, NULL};
  HB_PUSH(P->cstack, pc_comp, pc);
  return 0;
}

int pc_comp_begin(parse_ctx *P, const pc_tok *entry, const pc_tok *name, const hlo_shape *sig) {
  hlo_istr *is = hlo_intern_get(P->in, name->ptr, name->len);
  if (entry) {
    if (P->entry_marked)
      return pc_error(P, entry->off, "a second ENTRY computation (the first is '%s')", P->entry_marked->name);
  }
  if (comp_open(P, is, name->off, entry != NULL, sig) < 0) return -1;
  if (entry) P->entry_marked = top_comp(P)->comp;
  return 0;
}

static hlo_computation *comp_close(parse_ctx *P);

int pc_bare_begin(parse_ctx *P) {
  size_t off = P->last->off; /* the lookahead: the first instruction */
  if (comp_open(P, hlo_intern_get(P->in, "entry", 5), off, true, NULL) < 0) return -1;
  P->entry_marked = top_comp(P)->comp;
  pc_warn(P, off, "instructions without a computation: read as the body of an ENTRY computation 'entry'");
  return 0;
}

int pc_bare_end(parse_ctx *P) { return comp_close(P) ? 0 : -1; }

int pc_inline_begin(parse_ctx *P, size_t off) {
  char buf[64];
  for (int k = 1;; k++) {
    snprintf(buf, sizeof buf, "inline_computation.%d", k);
    hlo_istr *is = hlo_intern_get(P->in, buf, strlen(buf));
    if (!pc_comp_named(P, is)) return comp_open(P, is, off, false, NULL);
  }
}

/* C's parameters, numbered 0..N-1, each once (an error otherwise).
 * When parameter(0..N-1) come first and in order (dumps, fused
 * computations), params[k] is instrs[k]: no array of its own. */
static bool comp_params(parse_ctx *P, hlo_computation *c, hlo_instr **v, size_t n, int64_t max_param) {
  if (max_param < 0) {
    c->params = hb_arena_alloc(P->a, sizeof *c->params);
    return true;
  }
  int count = 0, lead = 0;
  for (size_t i = 0; i < n; i++) count += v[i]->op == HLO_OP_PARAMETER;
  while (lead < count && v[lead]->op == HLO_OP_PARAMETER && v[lead]->parameter_number == lead) lead++;
  c->n_params = count;
  if (lead == count) {
    c->params = v;
    return true;
  }
  hlo_instr **params = hb_arena_zalloc(P->a, (size_t)count * sizeof *params);
  for (size_t i = 0; i < n; i++) {
    hlo_instr *in = v[i];
    if (in->op != HLO_OP_PARAMETER) continue;
    if (in->parameter_number >= count) {
      pc_error(P, in->offset,
               "parameter number %lld is out of range: computation '%s' has %d parameter(s), numbered 0..%d",
               (long long)in->parameter_number, c->name, count, count - 1);
      return false;
    }
    if (params[in->parameter_number]) {
      pc_error(P, in->offset, "duplicate parameter number %lld (also used by '%s')", (long long)in->parameter_number,
               params[in->parameter_number]->name);
      return false;
    }
    params[in->parameter_number] = in;
  }
  c->params = params;
  return true;
}

/* Resolves the names used in the innermost open computation and closes it. */
static hlo_computation *comp_close(parse_ctx *P) {
  pc_comp cc = *top_comp(P);
  hlo_computation *c = cc.comp;
  size_t n = P->instrs.n - cc.instr_base;
  if (n == 0) {
    pc_error(P, c->offset, "computation '%s' has no instructions", c->name);
    return NULL;
  }
  hlo_instr **v = hb_vec_take(P->a, &P->instrs, sizeof *v, cc.instr_base, P->instrs.n);
  c->instrs = v;
  c->n_instrs = (int)n;
  int64_t max_param = -1;
  for (size_t i = 0; i < n; i++) {
    v[i]->index = (int)i;
    v[i]->parent = c;
    if (v[i]->op == HLO_OP_PARAMETER && v[i]->parameter_number > max_param) max_param = v[i]->parameter_number;
  }
  c->root = cc.root ? cc.root : v[n - 1];
  c->root->is_root = true;
  if (!comp_params(P, c, v, n, max_param)) return NULL;
  if (P->failed) return NULL;
  /* operands and control predecessors; those resolved before (pc_rhs_op)
   * were defined before their user */
  c->operands_first = true;
  for (size_t i = cc.pend_base; i < P->pending.n; i++) {
    pc_pending *pd = &HB_AT(P->pending, pc_pending, i);
    hlo_instr *def = pd->name->def_gen == cc.gen ? pd->name->def : NULL;
    if (!def) {
      if (pd->kind == 0)
        pc_error(P, pd->off, "operand '%s' is not defined in computation '%s'", hlo_istr_str(pd->name), c->name);
      else
        pc_error(P, pd->off, "control predecessor '%s' is not defined in computation '%s'", hlo_istr_str(pd->name),
                 c->name);
      return NULL;
    }
    if (def->index >= pd->in->index) c->operands_first = false;
    if (pd->kind == 0) {
      pd->in->operands[pd->index] = def;
      if (pd->decl_shape)
        HB_PUSH(P->declchecks, pc_declcheck, ((pc_declcheck){pd->in, pd->index, pd->decl_shape, pd->off}));
    } else {
      pd->in->cold->ext->control_predecessors[pd->index] = def;
    }
  }
  /* names shadowed by an inline body get their outer definition back */
  for (size_t i = P->restore.n; i-- > cc.restore_base;) {
    pc_restore *r = &HB_AT(P->restore, pc_restore, i);
    r->name->def_gen = r->gen;
    r->name->def = r->def;
  }
  P->instrs.n = cc.instr_base;
  P->pending.n = cc.pend_base;
  P->restore.n = cc.restore_base;
  P->cstack.n--;
  c->index = (int)P->comps.n;
  HB_PUSH(P->comps, hlo_computation *, c);
  return c;
}

int pc_comp_end(parse_ctx *P) {
  return comp_close(P) ? 0 : -1;
}

hlo_computation *pc_inline_end(parse_ctx *P) { return comp_close(P); }

int pc_comp_trailer(parse_ctx *P, const pc_tok *name, pc_loc val) {
  hlo_computation *c = top_comp(P)->comp;
  if (name->len != 16 || memcmp(name->ptr, "execution_thread", 16) != 0)
    return pc_error(P, name->off, "unexpected attribute '%.*s' after computation '%s' (only execution_thread is allowed)",
                    (int)name->len, name->ptr, c->name);
  const char *v = P->data + val.first;
  if (*v != '"' && *v != '\'') return pc_error(P, val.first, "execution_thread expects a string");
  char *s = pc_decode_string(P, v, val.last - val.first, val.first);
  if (!s) return -1;
  c->execution_thread = s;
  return 0;
}

/* ---- instructions ------------------------------------------------------------ */

_Static_assert(HLO_OP_COUNT <= 255, "hlo_istr.opcode packs two opcodes in 16 bits");

hlo_opcode pc_opcode_of(hlo_istr *s, hlo_opcode *wrapped) {
  if (s->opcode != 0xffff) {
    *wrapped = (hlo_opcode)(s->opcode >> 8);
    return (hlo_opcode)(s->opcode & 0xff);
  }
  const char *t = hlo_istr_str(s);
  size_t len = s->len;
  hlo_opcode op = hlo_opcode_from_name(t, len), w = HLO_OP_UNKNOWN;
  if (op == HLO_OP_UNKNOWN) {
    static const struct { const char *suf; size_t n; hlo_opcode async; } sfx[] = {
        {"-start", 6, HLO_OP_ASYNC_START}, {"-update", 7, HLO_OP_ASYNC_UPDATE}, {"-done", 5, HLO_OP_ASYNC_DONE}};
    for (int i = 0; i < 3; i++) {
      if (len > sfx[i].n && memcmp(t + len - sfx[i].n, sfx[i].suf, sfx[i].n) == 0) {
        hlo_opcode inner = hlo_opcode_from_name(t, len - sfx[i].n);
        if (inner != HLO_OP_UNKNOWN) {
          op = sfx[i].async;
          w = inner;
        }
        break;
      }
    }
  }
  s->opcode = (uint16_t)(op | w << 8);
  *wrapped = w;
  return op;
}

/* The operand array of every instruction without operands (parameters,
 * constants: a large module has 100,000s of them): never written. */
static hlo_instr *no_operands[1];

static hlo_instr *new_instr(parse_ctx *P, size_t off) {
  hlo_instr *in = hb_arena_zalloc_small(P->a, sizeof *in);
  in->cold = &hlo_instr_cold_none;
  in->offset = (uint32_t)off; /* (the input is under 2 GiB) */
  in->parameter_number = -1;
  return in;
}

hlo_instr_cold *pc_instr_cold(parse_ctx *P, hlo_instr *in) {
  if (in->cold != &hlo_instr_cold_none) return (hlo_instr_cold *)in->cold; /* (its own, in the module's arena) */
  hlo_instr_cold *c = hb_arena_alloc_small(P->a, sizeof *c); /* (most instructions of a dump: inline) */
  *c = hlo_instr_cold_none;
  in->cold = c;
  return c;
}

hlo_instr_ext *pc_instr_ext(parse_ctx *P, hlo_instr *in) {
  hlo_instr_cold *c = pc_instr_cold(P, in);
  if (c->ext == &hlo_instr_ext_none) c->ext = hb_arena_dup(P->a, &hlo_instr_ext_none, sizeof hlo_instr_ext_none);
  return (hlo_instr_ext *)c->ext; /* (the instruction's own copy, in the module's arena) */
}

int pc_closest_name(parse_ctx *P, hlo_istr *word, int64_t what, int n, const char *(*names)(int),
                    bool (*ok)(int, void *), void *ctx) {
  hb_ptrmap_val *v = hb_ptrmap_get(&P->hints, word);
  if (v && v->b == what) return (int)v->a;
  int i = name_table_closest(hlo_istr_str(word), word->len, n, names, ok, ctx);
  hb_ptrmap_put(&P->hints, word, (hb_ptrmap_val){i, what});
  return i;
}

static const char *opcode_at(int i) { return hlo_opcode_name((hlo_opcode)(i + 1)); }

/* An opcode word that is none (IS): an error, or with allow_unknown a
 * warning (the instruction is then HLO_OP_UNKNOWN: unknown indexing). */
static int unknown_opcode(parse_ctx *P, const pc_tok *opcode, hlo_istr *is) {
  char hint[96] = "";
  int i = pc_closest_name(P, is, -1, HLO_OP_COUNT - 1, opcode_at, NULL, NULL);
  if (i >= 0) snprintf(hint, sizeof hint, "; did you mean '%s'?", opcode_at(i));
  if (!options.allow_unknown) return pc_error(P, opcode->off, "unknown opcode '%.64s'%s", hlo_istr_str(is), hint);
  pc_warn(P, opcode->off, "unknown opcode '%.64s'%s (read as an op without indexing rules)", hlo_istr_str(is), hint);
  return 0;
}

static hlo_instr *rhs_op(parse_ctx *P, const pc_tok *opcode, uint32_t first) {
  hlo_istr *is = pc_word(P, opcode->ptr, opcode->len);
  hlo_instr *in = new_instr(P, opcode->off);
  hlo_opcode wrapped;
  in->op = pc_opcode_of(is, &wrapped);
  if (in->op == HLO_OP_UNKNOWN && unknown_opcode(P, opcode, is) < 0) return NULL;
  if (in->op == HLO_OP_UNKNOWN || wrapped != HLO_OP_UNKNOWN) { /* the text is not the opcode's name */
    hlo_instr_cold *c = pc_instr_cold(P, in);
    c->opcode_text = hlo_istr_str(is);
    c->async_wrapped = wrapped;
  }
  size_t n = P->operands.n - first;
  in->n_operands = (int)n;
  in->operands = n ? hb_vec_take(P->a, &P->operands, sizeof *in->operands, first, P->operands.n) : no_operands;
  /* this list's unresolved operands: the top of op_pending (a nested
   * list's were taken by its own instruction), in order */
  size_t k = P->op_pending.n;
  while (k > 0 && (size_t)HB_AT(P->op_pending, pc_pending, k - 1).index >= first) k--;
  for (size_t j = k; j < P->op_pending.n; j++) {
    pc_pending pd = HB_AT(P->op_pending, pc_pending, j);
    pd.in = in;
    pd.index -= (int)first;
    HB_PUSH(P->pending, pc_pending, pd);
  }
  P->op_pending.n = k;
  P->operands.n = first;
  return in;
}

hlo_instr *pc_rhs_op(parse_ctx *P, const pc_tok *opcode, uint32_t first) { return rhs_op(P, opcode, first); }

hlo_instr *pc_rhs_parameter(parse_ctx *P, const pc_tok *kw, const pc_tok *num) {
  hlo_instr *in = new_instr(P, kw->off);
  in->op = HLO_OP_PARAMETER; /* (KW is "parameter") */
  if (num->neg) {
    pc_error(P, num->off, "parameter number must be non-negative, found %.*s", (int)num->len, num->ptr);
    return NULL;
  }
  if (num->u > (1u << 30)) {
    pc_error(P, num->off, "parameter number %.*s is too large", (int)num->len, num->ptr);
    return NULL;
  }
  in->parameter_number = (int32_t)num->u;
  in->operands = no_operands;
  return in;
}

hlo_instr *pc_rhs_constant(parse_ctx *P, const pc_tok *kw, pc_loc lit) {
  hlo_instr *in = new_instr(P, kw->off);
  in->op = HLO_OP_CONSTANT; /* (KW is "constant") */
  hlo_literal *l = hb_arena_zalloc(P->a, sizeof *l);
  l->text = P->data + lit.first;
  l->len = lit.last - lit.first;
  l->n_elements = -1;
  pc_instr_cold(P, in)->literal = l;
  in->operands = no_operands;
  return in;
}

int pc_operand_name(parse_ctx *P, const hlo_shape *decl, const pc_tok *name) {
  /* (an operand is most often the instruction defined last: compared
   * before the intern table is looked up) */
  hlo_istr *last = P->last_def;
  hlo_istr *is = last && last->len == name->len && hlo_same_bytes(hlo_istr_str(last), name->ptr, name->len)
                     ? last
                     : hlo_intern_get(P->in, name->ptr, name->len);
  /* A name defined before (the usual case) is resolved now, while its
   * definition is in the cache, and so is its declared shape's check when
   * it passes; comp_close resolves the others (later definitions,
   * undefined names) and pc_module_finish reports declared shapes in the
   * order it always does. comp_close would find this same definition:
   * a name is defined once per computation, and an inline body's
   * definitions are undone at its end. */
  hlo_instr *def = is->def_gen == top_comp(P)->gen ? is->def : NULL;
  if (def && (!decl || (def->shape && hlo_shape_compatible(decl, def->shape)))) {
    HB_PUSH(P->operands, hlo_instr *, def);
  } else {
    HB_PUSH(P->op_pending, pc_pending, ((pc_pending){NULL, 0, (int)P->operands.n, is, name->off, decl}));
    HB_PUSH(P->operands, hlo_instr *, NULL);
  }
  return 0;
}

/* Puts NAME in the current computation's scope for IN. */
static int define_name(parse_ctx *P, hlo_istr *name, hlo_instr *in, size_t off) {
  pc_comp *cc = top_comp(P);
  if (name->def_gen == cc->gen)
    return pc_error(P, off, "instruction '%s' is already defined in computation '%s'", hlo_istr_str(name),
                    cc->comp->name);
  if (P->cstack.n > 1 && name->def_gen != 0)
    HB_PUSH(P->restore, pc_restore, ((pc_restore){name, name->def_gen, name->def}));
  name->def_gen = cc->gen;
  name->def = in;
  in->name = hlo_istr_str(name);
  P->last_def = name;
  return 0;
}

/* Common completion of top-level and nested instructions. */
static int finish_instr(parse_ctx *P, hlo_instr *in, const hlo_shape *shape) {
  in->shape = shape;
  /* what pc_module_finish looks at again: only these instructions */
  P->n_shapeless += !shape;
  if (in->op == HLO_OP_ASYNC_UPDATE || in->op == HLO_OP_ASYNC_DONE) HB_PUSH(P->async_checks, hlo_instr *, in);
  if (in->op == HLO_OP_CONSTANT) {
    if (!shape) return pc_error(P, in->offset, "constant '%s' needs an explicit shape", in->name);
    if (pc_literal_check(P, shape, (size_t)(in->cold->literal->text - P->data),
                         (size_t)(in->cold->literal->text - P->data) + in->cold->literal->len,
                         (hlo_literal *)in->cold->literal) < 0)
      return -1;
  }
  if (in->op == HLO_OP_PARAMETER && !shape)
    return pc_error(P, in->offset, "parameter '%s' needs an explicit shape", in->name);
  HB_PUSH(P->instrs, hlo_instr *, in);
  return 0;
}

int pc_operand_nested(parse_ctx *P, const hlo_shape *shape, hlo_instr *in) {
  /* "<opcode>.anon", then "<opcode>.anon.N": the base name's anon_next
   * remembers where to continue, so many nested operands stay linear */
  char buf[128];
  snprintf(buf, sizeof buf, "%.100s.anon", hlo_instr_opcode_text(in));
  hlo_istr *base = hlo_intern_get(P->in, buf, strlen(buf));
  hlo_istr *is = base;
  while (is->def_gen == top_comp(P)->gen) {
    hb_ptrmap_val *last = hb_ptrmap_get(&P->anon_next, base);
    int64_t k = (last ? last->a : 0) + 1;
    hb_ptrmap_put(&P->anon_next, base, (hb_ptrmap_val){k, 0});
    snprintf(buf, sizeof buf, "%.100s.anon.%lld", hlo_instr_opcode_text(in), (long long)k);
    is = hlo_intern_get(P->in, buf, strlen(buf));
  }
  if (define_name(P, is, in, in->offset) < 0) return -1;
  if (finish_instr(P, in, shape) < 0) return -1;
  HB_PUSH(P->operands, hlo_instr *, in);
  return 0;
}

int pc_instruction(parse_ctx *P, const pc_def *def, hlo_instr *in, pc_range attrs) {
  hlo_istr *is = hlo_intern_get(P->in, def->name, def->len);
  in->offset = def->off;
  if (define_name(P, is, in, in->offset) < 0) return -1;
  pc_comp *cc = top_comp(P);
  if (def->root_off) {
    if (cc->root)
      return pc_error(P, def->root_off - 1, "computation '%s' has more than one ROOT instruction (the first is '%s')",
                      cc->comp->name, cc->root->name);
    cc->root = in;
    in->root_marked = true;
  }
  /* (no attributes: the vector may still be unallocated, and NULL + 0 is undefined) */
  const pc_attr *av = attrs.e > attrs.b ? &HB_AT(P->attrs, pc_attr, attrs.b) : NULL;
  int n = (int)(attrs.e - attrs.b);
  bool share = pc_attrs_may_share(in, av, n);
  pc_cold_mark m = {0};
  if (share) m = (pc_cold_mark){hb_arena_mark_now(P->a), P->warnings.n, hlo_intern_count(P->in)};
  if (pc_attrs_apply(P, in, av, n) < 0) return -1;
  pc_comprefs_drop(P, av, n);
  if (share) pc_cold_share(P, in, m);
  P->attrs.n = attrs.b;
  return finish_instr(P, in, def->shape);
}

/* ---- attributes ----------------------------------------------------------------- */

int pc_attr_push(parse_ctx *P, const pc_tok *name, pc_loc val, int n, const void *ptr, const hlo_shape *shape2,
                 pc_range *r) {
  pc_attr a;
  a.name = name->is ? name->is : pc_word(P, name->ptr, name->len);
  a.id = pc_attr_id(a.name);
  a.off = name->off;
  a.vstart = val.first;
  a.vend = val.last;
  a.n = n;
  a.ptr = ptr;
  a.shape2 = shape2;
  a.cref = UINT32_MAX;
  HB_PUSH(P->attrs, pc_attr, a);
  if (r) *r = (pc_range){(uint32_t)P->attrs.n - 1, (uint32_t)P->attrs.n};
  return 0;
}

int pc_compref_push(parse_ctx *P, const pc_tok *name, hlo_computation *inline_comp, size_t off, pc_range *r) {
  pc_compref c = {name ? hlo_intern_get(P->in, name->ptr, name->len) : NULL, inline_comp, off};
  HB_PUSH(P->comprefs, pc_compref, c);
  if (r) *r = (pc_range){(uint32_t)P->comprefs.n - 1, (uint32_t)P->comprefs.n};
  return 0;
}

int pc_attr_push_comps(parse_ctx *P, const pc_tok *name, pc_loc val, pc_range r) {
  if (pc_attr_push(P, name, val, (int)(r.e - r.b), NULL, NULL, NULL) < 0) return -1;
  HB_AT(P->attrs, pc_attr, P->attrs.n - 1).cref = r.b;
  return 0;
}

void pc_comprefs_drop(parse_ctx *P, const pc_attr *attrs, int n) {
  /* (an inline body's lines dropped theirs: the line's are the top) */
  for (int i = 0; i < n; i++)
    if (attrs[i].cref < P->comprefs.n) P->comprefs.n = attrs[i].cref;
}

/* ---- module completion ------------------------------------------------------------ */

static int check_decl_shapes(parse_ctx *P) {
  for (size_t i = 0; i < P->declchecks.n; i++) {
    pc_declcheck *d = &HB_AT(P->declchecks, pc_declcheck, i);
    const hlo_shape *actual = d->in->operands[d->index]->shape;
    if (!actual) continue;
    if (!hlo_shape_compatible(d->decl, actual)) {
      char a[160], b[160];
      hlo_shape_format(d->decl, a, sizeof a);
      hlo_shape_format(actual, b, sizeof b);
      return pc_error(P, d->off,
                      "the declared operand shape %s is not compatible with the shape %s of instruction '%s'", a, b,
                      d->in->operands[d->index]->name);
    }
  }
  return 0;
}

/* An async-update/-done runs on its chain's thread unless it says otherwise. */
static int async_thread(parse_ctx *P, hlo_instr *in) {
  const hlo_instr *start = in;
  for (int guard = 0; start && start->op != HLO_OP_ASYNC_START && guard < (1 << 20); guard++)
    start = (start->op == HLO_OP_ASYNC_UPDATE || start->op == HLO_OP_ASYNC_DONE) && start->n_operands == 1
                ? start->operands[0]
                : NULL;
  const char *want = start && start->op == HLO_OP_ASYNC_START ? start->cold->ext->async_execution_thread : "main";
  if (!in->cold->ext->async_execution_thread) pc_instr_ext(P, in)->async_execution_thread = want;
  else if (strcmp(in->cold->ext->async_execution_thread, want) != 0)
    return pc_error(P, in->offset, "expect async_execution_thread to be %s, but got %s", want,
                    in->cold->ext->async_execution_thread);
  return 0;
}

static void verify_warning(void *ctx, size_t off, const char *message) { pc_warn(ctx, off, "%s", message); }

/* Warnings in text order (the verifier's come after the parser's; stable:
 * they are few). */
static void sort_warnings(hlo_warning *w, size_t n) {
  for (size_t i = 1; i < n; i++) {
    hlo_warning x = w[i];
    size_t j = i;
    for (; j > 0 && w[j - 1].offset > x.offset; j--) w[j] = w[j - 1];
    w[j] = x;
  }
}

/* The parser's scratch vectors, into V (room for 32). */
static size_t vecs_of(parse_ctx *P, hb_vec **v) {
  hb_vec *all[] = {&P->lay_track, &P->brackets, &P->comps, &P->called_pending, &P->async_checks, &P->declchecks,
                   &P->modules, &P->dims, &P->ints, &P->tiles, &P->splits, &P->dlts, &P->shapes, &P->operands,
                   &P->op_pending, &P->attrs, &P->comprefs, &P->instrs, &P->pending, &P->restore, &P->cstack,
                   &P->lstack, &P->warnings};
  _Static_assert(sizeof all / sizeof *all <= 32, "vecs_of's room");
  memcpy(v, all, sizeof all);
  return sizeof all / sizeof *all;
}

/* A finished module goes to its reader (EACH) with the parser's memory
 * back to what a small module needs: the name table and the empty
 * scratch vectors a large module grew are given back, not held while
 * the module is analysed. */
static void release_large(parse_ctx *P) {
  hb_vec *vecs[32];
  for (size_t i = 0, n = vecs_of(P, vecs); i < n; i++)
    if (vecs[i]->n == 0 && vecs[i]->cap >= 16384) hb_vec_free(vecs[i]);
  hlo_intern_shrink(P->in); /* (the module's strings stay in its arena) */
}

int pc_module_finish(parse_ctx *P) {
  hlo_module *m = P->mod;
  m->n_computations = (int)P->comps.n;
  hlo_computation **cv = hb_arena_array(P->a, P->comps.n, sizeof *cv);
  memcpy(cv, P->comps.p, P->comps.n * sizeof *cv);
  m->computations = cv;
  for (size_t i = 0; i < P->called_pending.n; i++) {
    pc_pending *pd = &HB_AT(P->called_pending, pc_pending, i);
    hlo_computation *c = pc_comp_named(P, pd->name);
    if (!c)
      return pc_error(P, pd->off, "computation '%s' is not defined", hlo_istr_str(pd->name));
    pd->in->cold->called[pd->index] = c;
  }
  m->entry = P->entry_marked ? P->entry_marked : cv[m->n_computations - 1];
  m->entry->is_entry = true;
  if (!m->name) {
    char buf[256];
    snprintf(buf, sizeof buf, "module_%.240s", m->entry->name);
    m->name = hlo_intern_str(P->in, buf, strlen(buf));
  }
  for (size_t i = 0; i < P->async_checks.n; i++)
    if (async_thread(P, HB_AT(P->async_checks, hlo_instr *, i)) < 0) return -1;
  if (P->n_shapeless && pc_infer_shapes(P, m) < 0) return -1;
  if (check_decl_shapes(P) < 0) return -1;
  if (options.no_verify ? hlo_verify_module_lenient(m, P->err, verify_warning, P) : hlo_verify_module(m, P->err)) {
    P->failed = true;
    P->err->note[0] = '\0';
    return -1;
  }
  if (P->warnings.n) {
    size_t n = P->warnings.n;
    sort_warnings((hlo_warning *)P->warnings.p, n);
    m->warnings = hb_vec_take(P->a, &P->warnings, sizeof(hlo_warning), 0, n);
    m->n_warnings = (int)n;
  }
  m->end = (size_t)(P->lx.cur - P->lx.base);
  P->mod = NULL;
  P->lex_pending |= PC_PEND_MODULE;
  P->n_done++;
  release_large(P);
  if (P->each) {
    int rc = P->each(m, P->each_ctx);
    if (rc) {
      P->stopped = rc;
      return -1;
    }
  } else {
    HB_PUSH(P->modules, hlo_module *, m);
  }
  return 0;
}

/* ---- driver -------------------------------------------------------------------------- */

/* The same grammar with LAC (hlo_parser_lac.c; see hlo_parser.y). */
int hlo_yyparse_lac(parse_ctx *P);

/* The shape cache's part of parse_ctx, kept between spans. */
struct hlo_parse_cache {
  pc_shape_ent *scache;
  size_t scache_mask, scache_n;
  uint32_t scache_gen;
  hb_arena *scache_arena;
};

hlo_parse_cache *hlo_parse_cache_new(void) { return hb_calloc(1, sizeof(hlo_parse_cache)); }

void hlo_parse_cache_free(hlo_parse_cache *c) {
  if (!c) return;
  if (c->scache_arena) hb_arena_free(c->scache_arena);
  free(c->scache);
  free(c);
}

/* Parses DATA[START..] with PARSE: to the end of input, or (STOP < LEN) to
 * the separator token at offset STOP, where a span of modules ends (see
 * hlo_parse_span). *CHUNK_START: where the module being read when it ended
 * began. CACHE: NULL, or the shape cache to start from and to leave for the
 * next span. */
static int parse_with(int (*parse)(parse_ctx *), const char *data, size_t len, size_t start, size_t stop,
                      hlo_error *err, int (*each)(hlo_module *, void *), void *ctx, hlo_parse_cache *cache,
                      hb_vec *modules, int *stopped, size_t *chunk_start) {
  parse_ctx *P = hb_calloc(1, sizeof *P);
  P->data = data;
  P->len = len;
  P->err = err;
  P->each = each;
  P->each_ctx = ctx;
  P->borrow_kept = each != NULL; /* each module is freed before the next begins */
  P->stop_at = stop < len ? stop : SIZE_MAX;
  P->end_off = SIZE_MAX;
  P->last = &P->tokbuf[0];
  P->before_last = &P->tokbuf[1];
  if (start > 0) P->prev_kind = HT_SEP; /* a span starts right after a separator */
  P->chunk_start = start;
  P->coarse = parse != hlo_yyparse_lac; /* the diagnostic parse reads with the grammar alone */
  P->lex_pending = PC_PEND_MODULE | (P->coarse ? 0 : PC_PEND_MESSAGES);
  if (cache) { /* (the recent lists start empty: their generations would be stale) */
    P->scache = cache->scache;
    P->scache_mask = cache->scache_mask;
    P->scache_n = cache->scache_n;
    /* a new generation: the last span's module, whose shapes the entries
     * of its generation point to, is freed */
    P->scache_gen = cache->scache_gen + 1;
    P->scache_arena = cache->scache_arena;
  }
  err->offset = 0;
  err->message[0] = '\0';
  err->note[0] = '\0';
  hlo_lexer_init(&P->lx, data, len, start);
  int rc = parse(P);
  if (!P->stopped) {
    if (rc == 0 && !P->failed && P->n_done == 0) pc_error(P, len, "no HLO module found");
    if (rc != 0 && !P->failed) pc_error(P, P->last->off, "syntax error");
    /* The span must end at the separator it was cut at: if that line was
     * inside a comment or a string, the lexer went on past it. */
    if (rc == 0 && !P->failed && P->end_off != (stop < len ? stop : len))
      pc_error(P, P->end_off, "module span does not end at its separator");
  }
  /* every operand pushed was taken by its instruction (a leak here grows
   * the vector with the input) */
  assert(rc != 0 || P->failed || P->stopped || P->operands.n == 0);
  if (P->mod) hlo_module_free(P->mod); /* unfinished, or begun by an empty chunk */
  if (P->failed || P->stopped)
    for (size_t i = 0; i < P->modules.n; i++) hlo_module_free(HB_AT(P->modules, hlo_module *, i));
  else
    *modules = P->modules, P->modules = (hb_vec){0};
  if (cache) {
    cache->scache = P->scache;
    cache->scache_mask = P->scache_mask;
    cache->scache_n = P->scache_n;
    cache->scache_gen = P->scache_gen;
    cache->scache_arena = P->scache_arena;
  } else {
    pc_shape_cache_free(P);
  }
  hb_vec *vecs[32];
  for (size_t i = 0, n = vecs_of(P, vecs); i < n; i++) hb_vec_free(vecs[i]);
  hb_arena_free(P->stmp);
  hlo_intern_free(P->in);
  hb_ptrmap_free(&P->comp_names);
  hb_ptrmap_free(&P->anon_next);
  hb_ptrmap_free(&P->hints);
  hb_ptrmap_free(&P->cold_shared);
  int result = P->stopped ? P->stopped : P->failed ? 1 : 0;
  *stopped = P->stopped;
  *chunk_start = P->chunk_start;
  free(P);
  return result;
}

static atomic_ulong retries;

unsigned long hlo_parse_retries(void) { return atomic_load_explicit(&retries, memory_order_relaxed); }

/* parse_with the parser without LAC, with the coarse tokens; when that
 * fails, the input is parsed again with LAC and the grammar alone, and
 * that result is the one that counts. Both accept the same texts, but
 * without LAC a few default reductions (and their actions) may run before
 * a syntax error is seen, so its "expected" list can be short or an
 * action's error can come first, and a coarse token hides what could have
 * continued it. With EACH, the modules before the one that failed were
 * handed on already: the second parse starts at that module; otherwise at
 * the start. */
static int parse_all(const char *data, size_t len, size_t start, size_t stop, hlo_error *err,
                     int (*each)(hlo_module *, void *), void *ctx, hlo_parse_cache *cache, hb_vec *modules,
                     int *stopped) {
  size_t chunk_start;
  int rc = parse_with(hlo_yyparse, data, len, start, stop, err, each, ctx, cache, modules, stopped, &chunk_start);
  if (rc != 1 || *stopped) return rc;
  atomic_fetch_add_explicit(&retries, 1, memory_order_relaxed);
  return parse_with(hlo_yyparse_lac, data, len, each ? chunk_start : start, stop, err, each, ctx, cache, modules,
                    stopped, &chunk_start);
}

/* hlo_parse_file, with the coarse tokens (parse_all) or with the grammar
 * alone (GRAMMAR_ONLY). */
static int parse_file(const char *data, size_t len, bool grammar_only, hlo_parse_result *out, hlo_error *err) {
  hb_vec mods = {0};
  int stopped;
  size_t chunk_start;
  out->n_modules = 0;
  out->modules = NULL;
  if (grammar_only
          ? parse_with(hlo_yyparse_lac, data, len, 0, len, err, NULL, NULL, NULL, &mods, &stopped, &chunk_start)
          : parse_all(data, len, 0, len, err, NULL, NULL, NULL, &mods, &stopped))
    return 1;
  out->n_modules = (int)mods.n;
  out->modules = hb_malloc(mods.n * sizeof *out->modules);
  if (mods.n) memcpy(out->modules, mods.p, mods.n * sizeof *out->modules);
  hb_vec_free(&mods);
  return 0;
}

int hlo_parse_file(const char *data, size_t len, hlo_parse_result *out, hlo_error *err) {
  return parse_file(data, len, false, out, err);
}

int hlo_parse_file_grammar_only(const char *data, size_t len, hlo_parse_result *out, hlo_error *err) {
  return parse_file(data, len, true, out, err);
}

int hlo_parse_file_each(const char *data, size_t len, int (*each)(hlo_module *m, void *ctx), void *ctx,
                        hlo_error *err) {
  hb_vec mods = {0};
  int stopped;
  int rc = parse_all(data, len, 0, len, err, each, ctx, NULL, &mods, &stopped);
  hb_vec_free(&mods);
  return rc;
}

int hlo_parse_span(const char *data, size_t len, size_t start, size_t stop, int (*each)(hlo_module *m, void *ctx),
                   void *ctx, hlo_parse_cache *cache, hlo_error *err) {
  hb_vec mods = {0};
  int stopped;
  int rc = parse_all(data, len, start, stop, err, each, ctx, cache, &mods, &stopped);
  hb_vec_free(&mods);
  return rc;
}

void hlo_module_free(hlo_module *m) {
  if (m) hb_arena_free(m->arena);
}

int hlo_module_drop(hlo_module *m, void *ctx) {
  (void)ctx;
  hlo_module_free(m);
  return 0;
}

void hlo_parse_result_free(hlo_parse_result *r) {
  for (int i = 0; i < r->n_modules; i++) hlo_module_free(r->modules[i]);
  free(r->modules);
  r->modules = NULL;
  r->n_modules = 0;
}
