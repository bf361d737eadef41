/* Tiled physical shape and buffer sizes of an array layout (see
 * tiled_layout.h for the model). */
#include "tiled_layout.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../parser/base/checked.h"

__attribute__((format(printf, 3, 4))) static bool fail(tl_error *err, tl_status st, const char *fmt, ...) {
  err->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return false;
}

static bool product(const int64_t *v, int n, int64_t *out) {
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    if (!hb_ck_mul(p, v[i], &p)) return false;
  *out = p;
  return true;
}

/* ceil(n * bits / 8) without overflow in the intermediate product when the
 * result fits. */
static bool bits_to_bytes(int64_t n, int64_t bits, int64_t *out) {
  /* n * bits / 8 = (n / 8) * bits + ceil((n % 8) * bits / 8) */
  int64_t q = n / 8, r = n % 8, a, b;
  if (!hb_ck_mul(q, bits, &a) || !hb_ck_mul(r, bits, &b)) return false;
  return hb_ck_ceildiv(b, 8, &b) && hb_ck_add(a, b, out);
}

/* Applies tiling level LV (tile T) to the shape cur[0..ncur). */
static bool apply_level(hb_arena *a, const int64_t *cur, int ncur, const hlo_tile *t, int tile_index, tl_level *lv,
                        tl_error *err) {
  int k = t->n_dims;
  memset(lv, 0, sizeof *lv);
  lv->tile_index = tile_index;
  lv->nimplicit = k > ncur ? k - ncur : 0;
  lv->nin = ncur + lv->nimplicit;
  int64_t *in = hb_arena_array(a, (size_t)lv->nin + 1, sizeof *in);
  for (int i = 0; i < lv->nimplicit; i++) in[i] = 1;
  if (ncur) memcpy(in + lv->nimplicit, cur, (size_t)ncur * sizeof *in);
  lv->in = in;
  lv->nlead = lv->nin - k;
  if (k > 0 && t->dims[k - 1] == HLO_TILE_COMBINE)
    return fail(err, TL_BAD_LAYOUT, "tile %d ends with '*': there is no more-minor dimension to merge into",
                tile_index + 1);
  int ng = 0;
  for (int j = 0; j < k; j++)
    if (t->dims[j] != HLO_TILE_COMBINE) ng++;
  lv->ntiled = ng;
  int *gf = hb_arena_array(a, (size_t)ng + 1, sizeof *gf);
  int *gl = hb_arena_array(a, (size_t)ng + 1, sizeof *gl);
  int64_t *gs = hb_arena_array(a, (size_t)ng + 1, sizeof *gs);
  int64_t *ts = hb_arena_array(a, (size_t)ng + 1, sizeof *ts);
  int g = 0, first = lv->nlead;
  int64_t size = 1;
  for (int j = 0; j < k; j++) {
    int d = lv->nlead + j;
    if (!hb_ck_mul(size, in[d], &size))
      return fail(err, TL_OVERFLOW, "tile %d: merged dimension size overflows int64", tile_index + 1);
    if (t->dims[j] == HLO_TILE_COMBINE) continue;
    if (t->dims[j] <= 0) return fail(err, TL_BAD_LAYOUT, "tile %d: sizes must be positive", tile_index + 1);
    gf[g] = first;
    gl[g] = d;
    gs[g] = size;
    ts[g] = t->dims[j];
    g++;
    first = d + 1;
    size = 1;
  }
  lv->group_first = gf;
  lv->group_last = gl;
  lv->group_size = gs;
  lv->tile = ts;
  lv->nout = lv->nlead + 2 * ng;
  int64_t *out = hb_arena_array(a, (size_t)lv->nout + 1, sizeof *out);
  for (int i = 0; i < lv->nlead; i++) out[i] = in[i];
  for (g = 0; g < ng; g++) {
    out[lv->nlead + g] = gs[g] / ts[g] + (gs[g] % ts[g] != 0); /* ceil; ts > 0, gs >= 0 */
    out[lv->nlead + ng + g] = ts[g];
  }
  lv->out = out;
  int64_t total;
  if (!product(out, lv->nout, &total))
    return fail(err, TL_OVERFLOW, "tile %d: the tiled shape has more than 2^63-1 elements", tile_index + 1);
  return true;
}

bool tl_analyze(hb_arena *a, const hlo_shape *s, tl_layout *l, tl_error *err) {
  memset(l, 0, sizeof *l);
  memset(err, 0, sizeof *err);
  l->shape = s;
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER || !hlo_elem_type_is_array(s->type) ||
      hlo_elem_type_bits(s->type) == 0)
    return fail(err, TL_NOT_ARRAY, "%s shapes hold no array elements", hlo_elem_type_name(s->type));
  const hlo_layout *lay = &s->layout;
  for (int i = 0; i < s->rank; i++)
    if (s->unbounded[i] || s->dims[i] < 0)
      return fail(err, TL_UNBOUNDED, "dimension %d is unbounded ('?'): the layout has no static size", i);
  for (int i = 0; i < lay->n_dim_levels; i++)
    if (lay->dim_levels[i].kind != HLO_DLT_DENSE)
      return fail(err, TL_BAD_LAYOUT, "sparse layouts (D(...) with non-dense levels) are not modeled");
  if (lay->physical_shape) return fail(err, TL_BAD_LAYOUT, "sparse layouts (P(...)) are not modeled");
  if (lay->tail_padding_alignment < 1)
    return fail(err, TL_BAD_LAYOUT, "L(%" PRId64 ") is not a valid alignment", lay->tail_padding_alignment);
  if (lay->n_minor_to_major != s->rank)
    return fail(err, TL_BAD_LAYOUT, "minor_to_major has %d entries for rank %d", lay->n_minor_to_major, s->rank);

  int r = s->rank;
  l->rank = r;
  l->dims = s->dims;
  int *order = hb_arena_array(a, (size_t)r + 1, sizeof *order);
  bool *seen = hb_arena_zalloc(a, (size_t)r + 1);
  for (int k = 0; k < r; k++) {
    int64_t d = lay->minor_to_major[r - 1 - k];
    if (d < 0 || d >= r || seen[d]) return fail(err, TL_BAD_LAYOUT, "minor_to_major is not a permutation");
    seen[d] = true;
    order[k] = (int)d;
  }
  l->phys_order = order;
  if (!product(s->dims, r, &l->logical_elems))
    return fail(err, TL_OVERFLOW, "the shape has more than 2^63-1 elements");

  /* the tiling levels */
  int ncur = r;
  int64_t *cur = hb_arena_array(a, (size_t)r + 1, sizeof *cur);
  for (int k = 0; k < r; k++) cur[k] = s->dims[order[k]];
  tl_level *levels = hb_arena_array(a, (size_t)lay->n_tiles + 1, sizeof *levels);
  for (int t = 0; t < lay->n_tiles; t++) {
    if (!apply_level(a, cur, ncur, &lay->tiles[t], t, &levels[t], err)) return false;
    ncur = levels[t].nout;
    cur = (int64_t *)levels[t].out;
  }
  l->nlevels = lay->n_tiles;
  l->levels = levels;
  l->ntiled = ncur;
  l->tiled = cur;
  int64_t *strides = hb_arena_array(a, (size_t)ncur + 1, sizeof *strides);
  int64_t st = 1;
  for (int k = ncur - 1; k >= 0; k--) {
    strides[k] = st;
    if (!hb_ck_mul(st, cur[k], &st)) return fail(err, TL_OVERFLOW, "the tiled shape has more than 2^63-1 elements");
  }
  l->strides = strides;
  l->tiled_elems = st;

  /* sizes */
  l->alignment = lay->tail_padding_alignment;
  int64_t q = l->tiled_elems / l->alignment + (l->tiled_elems % l->alignment != 0), pe;
  if (!hb_ck_mul(q, l->alignment, &pe))
    return fail(err, TL_OVERFLOW, "L(%" PRId64 "): the padded element count overflows int64", l->alignment);
  l->physical_elems = pe;
  l->explicit_elem_bits = lay->element_size_bits != 0;
  if (l->explicit_elem_bits) {
    l->elem_bits = lay->element_size_bits;
  } else {
    int64_t nat = hlo_elem_type_bits(s->type);
    l->elem_bits = (nat + 7) / 8 * 8;
  }
  if (!bits_to_bytes(l->physical_elems, l->elem_bits, &l->bytes) ||
      !bits_to_bytes(l->logical_elems, l->elem_bits, &l->logical_bytes))
    return fail(err, TL_OVERFLOW, "the buffer has more than 2^63-1 bytes");
  l->memory_space = lay->memory_space;
  return true;
}

const char *tl_memory_space_name(int64_t space) {
  switch (space) {
  case 0: return "device default (HBM)";
  case 1: return "alternate (VMEM on TPU)";
  case 5: return "host";
  default: return "device-specific";
  }
}

void tl_overhead_print(hb_strbuf *b, const tl_layout *l) {
  if (l->logical_elems == 0) {
    hb_sb_puts(b, "n/a");
    return;
  }
  /* tenths of a percent, rounded half up: (pad * 1000 + log / 2) / log */
  __extension__ typedef unsigned __int128 u128;
  u128 pad = (u128)(uint64_t)(l->physical_elems - l->logical_elems);
  u128 lg = (u128)(uint64_t)l->logical_elems;
  u128 tenths = (pad * 1000u + lg / 2u) / lg; /* < 2^63 * 1000: fits */
  u128 whole = tenths / 10u;
  char digits[48];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(whole % 10u));
    whole /= 10u;
  } while (whole);
  while (n) hb_sb_putc(b, digits[--n]);
  hb_sb_putc(b, '.');
  hb_sb_putc(b, (char)('0' + (int)(tenths % 10u)));
  hb_sb_putc(b, '%');
}

int tl_overhead_compare(const tl_layout *a, const tl_layout *b) {
  __extension__ typedef unsigned __int128 u128;
  /* pa / la vs pb / lb; empty arrays: 0 / 1 */
  u128 pa = 0, la = 1, pb = 0, lb = 1;
  if (a->logical_elems) {
    pa = (uint64_t)(a->physical_elems - a->logical_elems);
    la = (uint64_t)a->logical_elems;
  }
  if (b->logical_elems) {
    pb = (uint64_t)(b->physical_elems - b->logical_elems);
    lb = (uint64_t)b->logical_elems;
  }
  u128 x = pa * lb, y = pb * la; /* each < 2^126 */
  return x > y ? -1 : x < y ? 1 : 0;
}
