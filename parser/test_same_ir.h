/* Whether two parses of the same text built the same modules: for the
 * unit tests that hold a fast path (a folded token) to the token-by-token
 * parse. Texts, values and offsets are compared (attribute values by
 * their bytes: the two parses may read two copies of the text). */
#ifndef HLOIDX_TEST_SAME_IR_H
#define HLOIDX_TEST_SAME_IR_H

#include <stdbool.h>
#include <string.h>

#include "hlo_ir.h"

static bool same_str(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static bool same_attrs(const hlo_attr *a, int na, const hlo_attr *b, int nb) {
  if (na != nb) return false;
  for (int i = 0; i < na; i++)
    if (!same_str(a[i].name, b[i].name) || a[i].value_len != b[i].value_len ||
        memcmp(a[i].value, b[i].value, a[i].value_len) != 0 || a[i].offset != b[i].offset)
      return false;
  return true;
}

static bool same_opt_shape(const hlo_shape *a, const hlo_shape *b) {
  return a == b || (a && b && hlo_shape_equal(a, b));
}

static bool same_literal(const hlo_literal *a, const hlo_literal *b) {
  if (!a || !b) return a == b;
  return a->len == b->len && memcmp(a->text, b->text, a->len) == 0 && a->elided == b->elided &&
         a->is_scalar == b->is_scalar && a->n_elements == b->n_elements;
}

static bool same_instr(const hlo_instr *x, const hlo_instr *y) {
  if (!same_str(x->name, y->name) || !same_str(x->opcode_text, y->opcode_text) || x->op != y->op ||
      x->async_wrapped != y->async_wrapped || x->offset != y->offset || x->index != y->index ||
      x->is_root != y->is_root || x->root_marked != y->root_marked ||
      x->parameter_number != y->parameter_number || x->n_operands != y->n_operands ||
      x->n_called != y->n_called || x->ext->n_control_predecessors != y->ext->n_control_predecessors ||
      !hlo_shape_equal(x->shape, y->shape) || !same_attrs(x->attrs, x->n_attrs, y->attrs, y->n_attrs) ||
      x->has_tuple_index != y->has_tuple_index || x->tuple_index != y->tuple_index ||
      x->has_dimensions != y->has_dimensions || x->fusion_kind != y->fusion_kind ||
      !same_str(x->ext->custom_call_target, y->ext->custom_call_target) ||
      !same_str(x->ext->async_execution_thread, y->ext->async_execution_thread) || !same_literal(x->literal, y->literal))
    return false;
  for (int i = 0; i < x->n_operands; i++)
    if (!same_str(x->operands[i]->name, y->operands[i]->name)) return false;
  for (int i = 0; i < x->n_called; i++)
    if (!same_str(x->called[i]->name, y->called[i]->name) || x->called_role[i] != y->called_role[i]) return false;
  for (int i = 0; i < x->ext->n_control_predecessors; i++)
    if (!same_str(x->ext->control_predecessors[i]->name, y->ext->control_predecessors[i]->name)) return false;
  return true;
}

static bool same_computation(const hlo_computation *a, const hlo_computation *b) {
  if (!same_str(a->name, b->name) || a->n_instrs != b->n_instrs || a->n_params != b->n_params ||
      a->is_entry != b->is_entry || a->entry_marked != b->entry_marked || a->offset != b->offset ||
      a->index != b->index || !same_str(a->execution_thread, b->execution_thread) ||
      !same_opt_shape(a->signature_result, b->signature_result) || !same_str(a->root->name, b->root->name))
    return false;
  for (int i = 0; i < a->n_instrs; i++)
    if (!same_instr(a->instrs[i], b->instrs[i])) return false;
  return true;
}

static bool same_module(const hlo_module *a, const hlo_module *b) {
  if (!same_str(a->name, b->name) || a->offset != b->offset || a->n_computations != b->n_computations ||
      !same_str(a->entry->name, b->entry->name) || !same_attrs(a->attrs, a->n_attrs, b->attrs, b->n_attrs) ||
      a->has_entry_layout != b->has_entry_layout || a->is_scheduled != b->is_scheduled ||
      a->replica_count != b->replica_count || a->num_partitions != b->num_partitions ||
      a->n_entry_params != b->n_entry_params || !same_opt_shape(a->entry_result, b->entry_result))
    return false;
  for (int i = 0; i < a->n_entry_params; i++)
    if (!hlo_shape_equal(a->entry_params[i], b->entry_params[i])) return false;
  for (int c = 0; c < a->n_computations; c++)
    if (!same_computation(a->computations[c], b->computations[c])) return false;
  return true;
}

#endif
