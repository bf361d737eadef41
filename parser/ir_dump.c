#include "ir_dump.h"

#include <inttypes.h>
#include <string.h>

/* The text being dumped, and where pos counted lines to last. */
typedef struct dump_ctx {
  const char *data;
  size_t off, line, start; /* the last offset asked for, its line and the line's start */
} dump_ctx;

/* line:column of OFF (lines end at '\n', '\r\n' or '\r'). The offsets
 * come mostly in increasing order: the count goes on from the last one. */
static void pos(FILE *f, dump_ctx *d, size_t off) {
  size_t i = 0, line = 1, start = 0;
  if (off >= d->off) {
    i = d->off;
    line = d->line;
    start = d->start;
  }
  for (; i < off; i++) {
    char c = d->data[i];
    if (c == '\n' || (c == '\r' && d->data[i + 1] != '\n')) {
      line++;
      start = i + 1;
    }
  }
  d->off = off;
  d->line = line;
  d->start = start;
  size_t col = 1;
  for (size_t k = start; k < off; k++) col += d->data[k] != '\r';
  fprintf(f, "@%zu:%zu", line, col);
}

static void shape(FILE *f, const hlo_shape *s) {
  if (!s) {
    fputs("(none)", f);
    return;
  }
  char buf[4096];
  size_t n = hlo_shape_format(s, buf, sizeof buf);
  fputs(buf, f);
  if (n >= sizeof buf) fputs("...", f);
  if (hlo_elem_type_is_array(s->type) && !s->layout.explicit_layout && s->rank > 1) {
    fputs("{default:", f);
    for (int i = 0; i < s->layout.n_minor_to_major; i++) fprintf(f, "%s%" PRId64, i ? "," : "", s->layout.minor_to_major[i]);
    fputc('}', f);
  }
}

static void ints(FILE *f, hlo_ints l) {
  fputc('{', f);
  for (int i = 0; i < l.n; i++) fprintf(f, "%s%" PRId64, i ? "," : "", l.v[i]);
  fputc('}', f);
}

/* Bytes as written, with control bytes escaped (values may span lines). */
static void text(FILE *f, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n') fputs("\\n", f);
    else if (c == '\r') fputs("\\r", f);
    else if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
    else fputc(c, f);
  }
}

static const char *const roles[] = {
    "to_apply", "calls", "condition", "body", "select", "scatter", "true_computation", "false_computation",
    "branch_computations", "called_computations",
};

/* (An instruction's attributes without their place: instructions written
 * alike share one list, cold_share.c, which holds the first one's.) */
static void attrs(FILE *f, const hlo_attr *a, int n, dump_ctx *data, const char *indent) {
  for (int i = 0; i < n; i++) {
    fprintf(f, "%sattr %s", indent, a[i].name);
    if (data) pos(f, data, a[i].offset);
    fputs(" = ", f);
    text(f, a[i].value, a[i].value_len);
    fputc('\n', f);
  }
}

static void ext(FILE *f, const hlo_instr_ext *x) {
  if (x->has_slice) {
    fputs("    slice", f);
    for (int i = 0; i < x->n_slice; i++)
      fprintf(f, " [%" PRId64 ":%" PRId64 ":%" PRId64 "]", x->slice[i].start, x->slice[i].limit, x->slice[i].stride);
    fputc('\n', f);
  }
  if (x->has_padding) {
    fputs("    padding", f);
    for (int i = 0; i < x->n_padding; i++)
      fprintf(f, " %" PRId64 "_%" PRId64 "_%" PRId64, x->padding[i].lo, x->padding[i].hi, x->padding[i].interior);
    fputc('\n', f);
  }
  if (x->has_window) {
    fputs("    window", f);
    for (int i = 0; i < x->n_window; i++) {
      const hlo_window_dim *w = &x->window[i];
      fprintf(f, " {size=%" PRId64 " stride=%" PRId64 " pad=%" PRId64 "_%" PRId64 " lhs_dilate=%" PRId64
                 " rhs_dilate=%" PRId64 "%s}",
              w->size, w->stride, w->pad_lo, w->pad_hi, w->lhs_dilate, w->rhs_dilate, w->rhs_reversal ? " reversed" : "");
    }
    fputc('\n', f);
  }
  if (x->conv_dims) {
    const hlo_conv_dims *c = x->conv_dims;
    fprintf(f, "    conv %s spatial=%d input b=%" PRId64 " f=%" PRId64 " kernel i=%" PRId64 " o=%" PRId64
               " output b=%" PRId64 " f=%" PRId64 "\n",
            c->labels, c->n_spatial, c->input_batch, c->input_feature, c->kernel_input_feature,
            c->kernel_output_feature, c->output_batch, c->output_feature);
  }
  if (x->feature_group_count != 1 || x->batch_group_count != 1)
    fprintf(f, "    groups feature=%" PRId64 " batch=%" PRId64 "\n", x->feature_group_count, x->batch_group_count);
  if (x->dot) {
    fputs("    dot batch ", f);
    ints(f, x->dot->lhs_batch);
    ints(f, x->dot->rhs_batch);
    fputs(" contracting ", f);
    ints(f, x->dot->lhs_contracting);
    ints(f, x->dot->rhs_contracting);
    if (x->dot->lhs_ragged.n || x->dot->rhs_group.n) {
      fputs(" ragged ", f);
      ints(f, x->dot->lhs_ragged);
      ints(f, x->dot->rhs_group);
    }
    fputc('\n', f);
  }
  if (x->gather) {
    const hlo_gather_dims *g = x->gather;
    fputs("    gather offset", f);
    ints(f, g->offset_dims);
    fputs(" collapsed", f);
    ints(f, g->collapsed_slice_dims);
    fputs(" start_index_map", f);
    ints(f, g->start_index_map);
    fputs(" batching", f);
    ints(f, g->operand_batching_dims);
    ints(f, g->start_indices_batching_dims);
    fprintf(f, " index_vector_dim=%" PRId64 " slice_sizes", g->index_vector_dim);
    ints(f, g->slice_sizes);
    fprintf(f, "%s\n", g->indices_are_sorted ? " sorted" : "");
  }
  if (x->scatter) {
    const hlo_scatter_dims *s = x->scatter;
    fputs("    scatter update_window", f);
    ints(f, s->update_window_dims);
    fputs(" inserted", f);
    ints(f, s->inserted_window_dims);
    fputs(" to_operand", f);
    ints(f, s->scatter_dims_to_operand_dims);
    fputs(" batching", f);
    ints(f, s->input_batching_dims);
    ints(f, s->scatter_indices_batching_dims);
    fprintf(f, " index_vector_dim=%" PRId64 "%s%s\n", s->index_vector_dim, s->indices_are_sorted ? " sorted" : "",
            s->unique_indices ? " unique" : "");
  }
  if (x->has_dynamic_slice_sizes) {
    fputs("    dynamic_slice_sizes ", f);
    ints(f, x->dynamic_slice_sizes);
    fputc('\n', f);
  }
  if (x->has_iota_dimension) fprintf(f, "    iota_dimension %" PRId64 "\n", x->iota_dimension);
  if (x->custom_call_target) {
    fputs("    custom_call_target \"", f);
    text(f, x->custom_call_target, strlen(x->custom_call_target));
    fputs("\"\n", f);
  }
  if (x->replica_groups) {
    const hlo_replica_groups *g = x->replica_groups;
    fputs("    replica_groups", f);
    if (g->iota) {
      fprintf(f, " iota [%" PRId64 ",%" PRId64 "]<=", g->iota_n_groups, g->iota_group_size);
      ints(f, g->iota_reshape);
      fputs(" T", f);
      ints(f, g->iota_transpose);
    } else {
      for (int i = 0; i < g->n_groups; i++) {
        fputc(' ', f);
        ints(f, g->groups[i]);
      }
    }
    fputc('\n', f);
  }
  if (x->has_channel_id) fprintf(f, "    channel_id %" PRId64 "\n", x->channel_id);
  if (x->has_num_carries || x->is_reverse || x->is_associative)
    fprintf(f, "    scan num_carries=%" PRId64 "%s%s\n", x->num_carries, x->is_reverse ? " reverse" : "",
            x->is_associative ? " associative" : "");
  if (x->async_execution_thread) fprintf(f, "    async_execution_thread \"%s\"\n", x->async_execution_thread);
  if (x->n_parameter_replication) fprintf(f, "    parameter_replication %d entries\n", x->n_parameter_replication);
  if (x->outfeed_shape) {
    fputs("    outfeed_shape ", f);
    shape(f, x->outfeed_shape);
    fputc('\n', f);
  }
  if (x->operand_layout_constraints) {
    fputs("    operand_layout_constraints", f);
    for (int i = 0; i < x->n_operand_layout_constraints; i++) {
      fputc(' ', f);
      shape(f, x->operand_layout_constraints[i]);
    }
    fputc('\n', f);
  }
  if (x->n_control_predecessors) {
    fputs("    control-predecessors", f);
    for (int i = 0; i < x->n_control_predecessors; i++) fprintf(f, " %s", x->control_predecessors[i]->name);
    fputc('\n', f);
  }
}

static void instr(FILE *f, const hlo_instr *in, dump_ctx *data) {
  fprintf(f, "  %s%s", in->root_marked ? "ROOT " : in->is_root ? "(root) " : "", in->name);
  pos(f, data, in->offset);
  fputs(" = ", f);
  shape(f, in->shape);
  fprintf(f, " %s", hlo_instr_opcode_text(in));
  if (in->op == HLO_OP_UNKNOWN) fputs("[unknown]", f);
  else if (in->op == HLO_OP_ASYNC_START || in->op == HLO_OP_ASYNC_UPDATE || in->op == HLO_OP_ASYNC_DONE)
    fprintf(f, "[%s wrapping %s]", hlo_opcode_name(in->op), hlo_opcode_name(in->cold->async_wrapped));
  fputc('(', f);
  if (in->op == HLO_OP_PARAMETER) fprintf(f, "%" PRId32, in->parameter_number);
  for (int i = 0; i < in->n_operands; i++) fprintf(f, "%s%s", i ? ", " : "", in->operands[i]->name);
  fputs(")\n", f);
  if (in->cold->literal) {
    const hlo_literal *l = in->cold->literal;
    fputs("    literal ", f);
    text(f, l->text, l->len > 200 ? 200 : l->len);
    fprintf(f, "%s elements=%" PRId64 "%s", l->len > 200 ? "..." : "", l->n_elements, l->elided ? " elided" : "");
    if (l->is_scalar) {
      fputs(" scalar ", f);
      text(f, l->scalar_text, l->scalar_len);
      if (l->has_int) fprintf(f, " int=%" PRId64, l->int_value);
      if (l->has_float) fprintf(f, " float=%.17g", l->float_value);
    }
    fputc('\n', f);
  }
  if (in->cold->has_dimensions) {
    fputs("    dimensions ", f);
    ints(f, in->cold->dimensions);
    fputc('\n', f);
  }
  if (in->cold->has_tuple_index) fprintf(f, "    index %" PRId64 "\n", in->cold->tuple_index);
  if (in->cold->fusion_kind != HLO_FUSION_NONE) {
    static const char *const kinds[] = {"", "kLoop", "kInput", "kOutput", "kCustom"};
    fprintf(f, "    kind %s\n", kinds[in->cold->fusion_kind]);
  }
  for (int i = 0; i < in->cold->n_called; i++)
    fprintf(f, "    %s %s\n", roles[in->cold->called_role[i]], in->cold->called[i]->name);
  ext(f, in->cold->ext);
  attrs(f, in->cold->attrs, in->cold->n_attrs, NULL, "    ");
}

void hlo_ir_dump(FILE *f, const hlo_module *m, const char *text) {
  dump_ctx ctx = {text, 0, 1, 0}, *data = &ctx;
  fprintf(f, "module %s", m->name);
  pos(f, data, m->offset);
  fprintf(f, " entry=%s computations=%d", m->entry->name, m->n_computations);
  if (m->is_scheduled) fputs(" scheduled", f);
  if (m->replica_count != 1) fprintf(f, " replica_count=%" PRId64, m->replica_count);
  if (m->num_partitions != 1) fprintf(f, " num_partitions=%" PRId64, m->num_partitions);
  fputc('\n', f);
  if (m->has_entry_layout) {
    fputs("  entry_computation_layout (", f);
    for (int i = 0; i < m->n_entry_params; i++) {
      if (i) fputs(", ", f);
      shape(f, m->entry_params[i]);
    }
    fputs(") -> ", f);
    shape(f, m->entry_result);
    fputc('\n', f);
  }
  attrs(f, m->attrs, m->n_attrs, data, "  ");
  for (int i = 0; i < m->n_warnings; i++) {
    fputs("  warning", f);
    pos(f, data, m->warnings[i].offset);
    fprintf(f, " %s\n", m->warnings[i].message);
  }
  for (int c = 0; c < m->n_computations; c++) {
    const hlo_computation *comp = m->computations[c];
    fprintf(f, "computation %s", comp->name);
    pos(f, data, comp->offset);
    fprintf(f, "%s%s params=%d root=%s", comp->entry_marked ? " ENTRY" : comp->is_entry ? " (entry)" : "",
            comp->operands_first ? "" : " (forward references)", comp->n_params, comp->root->name);
    if (strcmp(comp->execution_thread, "main") != 0) fprintf(f, " execution_thread=\"%s\"", comp->execution_thread);
    if (comp->signature_result) {
      fputs(" -> ", f);
      shape(f, comp->signature_result);
    }
    fputc('\n', f);
    for (int i = 0; i < comp->n_instrs; i++) instr(f, comp->instrs[i], data);
  }
}
