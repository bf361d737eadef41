/* Public helpers of the IR (hlo_ir.h): element types, opcodes, shapes,
 * lookups and constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "hlo_ir.h"
#include "name_table.h"

/* ---- element types ------------------------------------------------------ */

static const char *const elem_names[HLO_ELEM_TYPE_COUNT] = {
    [HLO_ELEM_INVALID] = "invalid",
#define X_(e, s, b) [HLO_##e] = s,
    HLO_ELEM_TYPES(X_)
#undef X_
    [HLO_TUPLE] = "tuple",
    [HLO_BUFFER] = "buffer",
};

static const int elem_bits[HLO_ELEM_TYPE_COUNT] = {
#define X_(e, s, b) [HLO_##e] = b,
    HLO_ELEM_TYPES(X_)
#undef X_
};

const char *hlo_elem_type_name(hlo_elem_type t) {
  return (unsigned)t < HLO_ELEM_TYPE_COUNT ? elem_names[t] : "invalid";
}

int hlo_elem_type_bits(hlo_elem_type t) { return (unsigned)t < HLO_ELEM_TYPE_COUNT ? elem_bits[t] : 0; }

bool hlo_elem_type_is_signed_int(hlo_elem_type t) { return t >= HLO_S1 && t <= HLO_S64; }
bool hlo_elem_type_is_unsigned_int(hlo_elem_type t) { return t >= HLO_U1 && t <= HLO_U64; }
bool hlo_elem_type_is_integral(hlo_elem_type t) { return t >= HLO_S1 && t <= HLO_U64; }
bool hlo_elem_type_is_float(hlo_elem_type t) { return t >= HLO_F16 && t <= HLO_F4E2M1FN; }
bool hlo_elem_type_is_complex(hlo_elem_type t) { return t == HLO_C64 || t == HLO_C128; }

/* ---- opcodes ------------------------------------------------------------ */

static const char *const op_names[HLO_OP_COUNT] = {
    [HLO_OP_UNKNOWN] = "unknown",
#define X_(e, s, ...) [HLO_OP_##e] = s,
    HLO_OPCODES(X_)
#undef X_
};

const char *hlo_opcode_name(hlo_opcode op) {
  return (unsigned)op < HLO_OP_COUNT ? op_names[op] : "unknown";
}

/* Filled once, on first use (pthread_once: several threads may parse). */
_Static_assert(HLO_OP_COUNT < NAME_TABLE_SLOTS / 4, "the opcodes outgrew name_table");
static name_table op_table;
static pthread_once_t op_table_once = PTHREAD_ONCE_INIT;

static const char *known_op_name(int i) { return op_names[i + 1]; } /* without HLO_OP_UNKNOWN */

static void fill_ops(void) { name_table_fill(&op_table, HLO_OP_COUNT - 1, known_op_name); }

hlo_opcode hlo_opcode_from_name(const char *s, size_t len) {
  pthread_once(&op_table_once, fill_ops);
  int i = name_table_find(&op_table, s, len, known_op_name);
  return i < 0 ? HLO_OP_UNKNOWN : (hlo_opcode)(i + 1);
}

/* The SHAPE column of HLO_OPCODES. */
enum { OPK_NA, OPK_EW1, OPK_EW2 };
static const unsigned char op_shape_kind[HLO_OP_COUNT] = {
#define X_(e, s, kind, ...) [HLO_OP_##e] = OPK_##kind,
    HLO_OPCODES(X_)
#undef X_
};

bool hlo_opcode_is_elementwise_unary(hlo_opcode op) {
  return (unsigned)op < HLO_OP_COUNT && op_shape_kind[op] == OPK_EW1;
}

bool hlo_opcode_is_elementwise_binary(hlo_opcode op) {
  return (unsigned)op < HLO_OP_COUNT && op_shape_kind[op] == OPK_EW2;
}

/* ---- shapes -------------------------------------------------------------- */

int64_t hlo_shape_elements(const hlo_shape *s) {
  if (!hlo_elem_type_is_array(s->type)) return -1;
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    if (s->unbounded[i]) return -1;
    if (s->dims[i] != 0 && n > INT64_MAX / s->dims[i]) return -1;
    n *= s->dims[i];
  }
  return n;
}

bool hlo_shape_compatible(const hlo_shape *a, const hlo_shape *b) {
  if (a == b) return true;
  if (a->type != b->type) return false;
  if (a->type == HLO_TUPLE || a->type == HLO_BUFFER) {
    if (a->n_elems != b->n_elems) return false;
    for (int i = 0; i < a->n_elems; i++)
      if (!hlo_shape_compatible(a->elems[i], b->elems[i])) return false;
    return true;
  }
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++) {
    if (a->unbounded[i] || b->unbounded[i]) continue;
    if (a->dims[i] != b->dims[i]) return false;
  }
  return true;
}

static bool ints_equal(const int64_t *a, int na, const int64_t *b, int nb) {
  return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

bool hlo_layout_equal(const hlo_layout *a, const hlo_layout *b) {
  if (!ints_equal(a->minor_to_major, a->n_minor_to_major, b->minor_to_major, b->n_minor_to_major)) return false;
  if (a->n_tiles != b->n_tiles) return false;
  for (int i = 0; i < a->n_tiles; i++)
    if (!ints_equal(a->tiles[i].dims, a->tiles[i].n_dims, b->tiles[i].dims, b->tiles[i].n_dims)) return false;
  if (a->tail_padding_alignment != b->tail_padding_alignment || a->element_size_bits != b->element_size_bits ||
      a->memory_space != b->memory_space || a->index_primitive_type != b->index_primitive_type ||
      a->pointer_primitive_type != b->pointer_primitive_type ||
      a->dynamic_shape_metadata_prefix_bytes != b->dynamic_shape_metadata_prefix_bytes)
    return false;
  if (a->n_split_configs != b->n_split_configs) return false;
  for (int i = 0; i < a->n_split_configs; i++)
    if (a->split_configs[i].dimension != b->split_configs[i].dimension ||
        !ints_equal(a->split_configs[i].offsets.v, a->split_configs[i].offsets.n, b->split_configs[i].offsets.v,
                    b->split_configs[i].offsets.n))
      return false;
  if ((a->physical_shape == NULL) != (b->physical_shape == NULL)) return false;
  if (a->physical_shape && !hlo_shape_equal(a->physical_shape, b->physical_shape)) return false;
  if (a->n_dim_levels != b->n_dim_levels) return false;
  for (int i = 0; i < a->n_dim_levels; i++)
    if (a->dim_levels[i].kind != b->dim_levels[i].kind || a->dim_levels[i].not_unique != b->dim_levels[i].not_unique ||
        a->dim_levels[i].not_ordered != b->dim_levels[i].not_ordered)
      return false;
  return true;
}

bool hlo_shape_equal(const hlo_shape *a, const hlo_shape *b) {
  if (a == b) return true;
  if (a->type != b->type) return false;
  if (a->type == HLO_TUPLE || a->type == HLO_BUFFER) {
    if (a->n_elems != b->n_elems) return false;
    for (int i = 0; i < a->n_elems; i++)
      if (!hlo_shape_equal(a->elems[i], b->elems[i])) return false;
    return true;
  }
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i] || a->dynamic[i] != b->dynamic[i] || a->unbounded[i] != b->unbounded[i]) return false;
  return hlo_layout_equal(&a->layout, &b->layout);
}

typedef struct {
  char *buf;
  size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *s) {
  size_t n = strlen(s);
  if (b->len + 1 < b->cap) {
    size_t room = b->cap - 1 - b->len;
    memcpy(b->buf + b->len, s, n < room ? n : room);
    b->buf[b->len + (n < room ? n : room)] = '\0';
  }
  b->len += n;
}

static void puti(sbuf *b, long long v) {
  char t[24];
  snprintf(t, sizeof t, "%lld", v);
  put(b, t);
}

static void fmt_shape(sbuf *b, const hlo_shape *s, int depth);

static void fmt_layout(sbuf *b, const hlo_shape *s, int depth) {
  const hlo_layout *l = &s->layout;
  put(b, "{");
  for (int i = 0; i < l->n_minor_to_major; i++) {
    if (i) put(b, ",");
    puti(b, l->minor_to_major[i]);
  }
  bool fields = l->n_dim_levels || l->n_tiles || l->tail_padding_alignment != 1 || l->index_primitive_type ||
                l->pointer_primitive_type || l->element_size_bits || l->memory_space || l->n_split_configs ||
                l->physical_shape || l->dynamic_shape_metadata_prefix_bytes;
  if (fields) {
    put(b, ":");
    if (l->n_dim_levels) {
      put(b, "D(");
      for (int i = 0; i < l->n_dim_levels; i++) {
        static const char *const k = "DCSH";
        char t[4] = {k[l->dim_levels[i].kind], 0, 0, 0};
        int j = 1;
        if (l->dim_levels[i].not_unique) t[j++] = '+';
        if (l->dim_levels[i].not_ordered) t[j++] = '~';
        if (i) put(b, ",");
        put(b, t);
      }
      put(b, ")");
    }
    if (l->n_tiles) {
      put(b, "T");
      for (int i = 0; i < l->n_tiles; i++) {
        put(b, "(");
        for (int j = 0; j < l->tiles[i].n_dims; j++) {
          if (j) put(b, ",");
          if (l->tiles[i].dims[j] == HLO_TILE_COMBINE) put(b, "*");
          else puti(b, l->tiles[i].dims[j]);
        }
        put(b, ")");
      }
    }
    if (l->tail_padding_alignment != 1) {
      put(b, "L(");
      puti(b, l->tail_padding_alignment);
      put(b, ")");
    }
    if (l->index_primitive_type) {
      put(b, "#(");
      put(b, hlo_elem_type_name(l->index_primitive_type));
      put(b, ")");
    }
    if (l->pointer_primitive_type) {
      put(b, "*(");
      put(b, hlo_elem_type_name(l->pointer_primitive_type));
      put(b, ")");
    }
    if (l->element_size_bits) {
      put(b, "E(");
      puti(b, l->element_size_bits);
      put(b, ")");
    }
    if (l->memory_space) {
      put(b, "S(");
      puti(b, l->memory_space);
      put(b, ")");
    }
    if (l->n_split_configs) {
      put(b, "SC");
      for (int i = 0; i < l->n_split_configs; i++) {
        put(b, "(");
        puti(b, l->split_configs[i].dimension);
        put(b, ":");
        for (int j = 0; j < l->split_configs[i].offsets.n; j++) {
          if (j) put(b, ",");
          puti(b, l->split_configs[i].offsets.v[j]);
        }
        put(b, ")");
      }
    }
    if (l->physical_shape) {
      put(b, "P(");
      fmt_shape(b, l->physical_shape, depth + 1);
      put(b, ")");
    }
    if (l->dynamic_shape_metadata_prefix_bytes) {
      put(b, "M(");
      puti(b, l->dynamic_shape_metadata_prefix_bytes);
      put(b, ")");
    }
  }
  put(b, "}");
}

static void fmt_shape(sbuf *b, const hlo_shape *s, int depth) {
  if (depth > HLO_MAX_NESTING + 8) {
    put(b, "...");
    return;
  }
  if (s->type == HLO_TUPLE || s->type == HLO_BUFFER) {
    put(b, s->type == HLO_BUFFER ? "b(" : "(");
    for (int i = 0; i < s->n_elems; i++) {
      if (i) put(b, ", ");
      fmt_shape(b, s->elems[i], depth + 1);
    }
    put(b, ")");
    return;
  }
  put(b, hlo_elem_type_name(s->type));
  put(b, "[");
  for (int i = 0; i < s->rank; i++) {
    if (i) put(b, ",");
    if (s->unbounded[i]) put(b, "?");
    else {
      if (s->dynamic[i]) put(b, "<=");
      puti(b, s->dims[i]);
    }
  }
  put(b, "]");
  if (s->layout.explicit_layout && s->type != HLO_TOKEN && s->type != HLO_OPAQUE) fmt_layout(b, s, depth);
}

size_t hlo_shape_format(const hlo_shape *s, char *buf, size_t cap) {
  sbuf b = {buf, cap, 0};
  if (cap) buf[0] = '\0';
  fmt_shape(&b, s, 0);
  return b.len;
}

size_t hlo_layout_format(const hlo_shape *s, char *buf, size_t cap) {
  sbuf b = {buf, cap, 0};
  if (cap) buf[0] = '\0';
  if (hlo_elem_type_is_array(s->type)) fmt_layout(&b, s, 0);
  return b.len;
}

/* ---- lookups ------------------------------------------------------------ */

static const int64_t no_ints[1] = {0};
static hlo_instr *no_instrs[1]; /* (never written: there are 0 entries) */
const hlo_instr_ext hlo_instr_ext_none = {
    .feature_group_count = 1,
    .batch_group_count = 1,
    .dynamic_slice_sizes = {0, no_ints},
    .control_predecessors = no_instrs,
};

static hlo_computation *no_called[1];
static const hlo_call_role no_roles[1];
static const hlo_attr no_attrs[1];
const hlo_instr_cold hlo_instr_cold_none = {
    .called = no_called,
    .called_role = no_roles,
    .attrs = no_attrs,
    .ext = &hlo_instr_ext_none,
    .dimensions = {0, no_ints},
    .async_wrapped = HLO_OP_UNKNOWN,
    .fusion_kind = HLO_FUSION_NONE,
};

const hlo_attr *hlo_instr_find_attr(const hlo_instr *in, const char *name) {
  for (int i = 0; i < in->cold->n_attrs; i++)
    if (strcmp(in->cold->attrs[i].name, name) == 0) return &in->cold->attrs[i];
  return NULL;
}

/* (Linear: a lookup by name is made once per command, not per instruction.) */
hlo_computation *hlo_module_find_computation(const hlo_module *m, const char *name) {
  for (int i = 0; i < m->n_computations; i++)
    if (strcmp(m->computations[i]->name, name) == 0) return m->computations[i];
  return NULL;
}

hlo_instr *hlo_computation_find_instr(const hlo_computation *c, const char *name) {
  for (int i = 0; i < c->n_instrs; i++)
    if (strcmp(c->instrs[i]->name, name) == 0) return c->instrs[i];
  return NULL;
}

const hlo_attr *hlo_module_find_attr(const hlo_module *m, const char *name) {
  for (int i = 0; i < m->n_attrs; i++)
    if (strcmp(m->attrs[i].name, name) == 0) return &m->attrs[i];
  return NULL;
}

/* ---- constants ------------------------------------------------------------ */

bool hlo_constant_scalar_int(const hlo_instr *in, int64_t *out) {
  if (in->op != HLO_OP_CONSTANT || !in->cold->literal || !in->cold->literal->is_scalar || !in->cold->literal->has_int)
    return false;
  *out = in->cold->literal->int_value;
  return true;
}

bool hlo_constant_scalar_double(const hlo_instr *in, double *out) {
  if (in->op != HLO_OP_CONSTANT || !in->cold->literal || !in->cold->literal->is_scalar || !in->cold->literal->has_float)
    return false;
  *out = in->cold->literal->float_value;
  return true;
}

bool hlo_constant_scalar_text(const hlo_instr *in, const char **text, size_t *len) {
  if (in->op != HLO_OP_CONSTANT || !in->cold->literal || !in->cold->literal->is_scalar ||
      !in->cold->literal->scalar_text)
    return false;
  *text = in->cold->literal->scalar_text;
  *len = in->cold->literal->scalar_len;
  return true;
}
