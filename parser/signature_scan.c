/* The signature fast path: "(p0: f32[2]{0}, p1: (s32[], f32[])) -> f32[2]{0}"
 * after a computation's name, read as one token (SIGNATURE).
 *
 * Every computation of a dump has a signature. Token by token, the grammar
 * shifts a name, a shape and a comma per parameter, then ')', '->' and the
 * result shape, and reduces three rules per parameter; yet it keeps only
 * the result shape (the parameter instructions carry their own shapes).
 * Here a byte scan recognises the usual spelling: 'name:' (or '%name:'),
 * a shape whose text the shape cache has seen before, commas, single
 * spaces. Anything else (a comment, a line break, a shape not seen before)
 * makes it give up, and the signature is read token by token, which also
 * puts its shapes in the cache. The wrapper asks for it only for a '('
 * after a name outside any bracket, where only a signature may start; a
 * misplaced one is a syntax error that the token-by-token re-parse
 * reports.
 *
 * The module's entry_computation_layout={(shapes) -> shape} is read the
 * same way (pc_program_shape_scan), for the token wrapper's HDR_LAYOUT. */
#include "parse_ctx.h"

static const char *skip_spaces(const char *p) {
  while (*p == ' ') p++;
  return p;
}

/* The shape at P when the cache knows its text; its end in *END. */
static const hlo_shape *known_shape(parse_ctx *P, const char *p, const char **end) {
  if (!((*p >= 'a' && *p <= 'z') || *p == '(')) return NULL;
  return pc_shape_cache_find(P, p, *p == '(', end);
}

const hlo_shape *pc_signature_scan(parse_ctx *P, const char *open, const char **end) {
  const char *p = skip_spaces(open + 1), *q;
  if (*p != ')') {
    for (;;) {
      if (*p == '%') p++; /* '%name' ':' is a name and a colon: the grammar takes both */
      if (!pc_id_start(*p)) return NULL;
      p = pc_skip_id_tail(p + 1, P->data + P->len);
      if (*p != ':' || !known_shape(P, skip_spaces(p + 1), &q)) return NULL;
      p = skip_spaces(q);
      if (*p == ')') break;
      if (*p != ',') return NULL;
      p = skip_spaces(p + 1);
    }
  }
  p = skip_spaces(p + 1);
  if (p[0] != '-' || p[1] != '>') return NULL;
  return known_shape(P, skip_spaces(p + 2), end);
}

/* entry_computation_layout={(f32[2]{0}, s32[]) -> f32[2]{0}}: shapes the
 * cache knows, commas, blanks (a comment makes it give up). */
bool pc_program_shape_scan(parse_ctx *P, const char *open, const char **end, pc_range *shapes) {
  size_t base = P->shapes.n;
  const char *p = pc_skip_blanks(open + 1), *q;
  const hlo_shape *s;
  if (*p != '(') return false;
  p = pc_skip_blanks(p + 1);
  if (*p != ')') {
    for (;;) {
      if (!(s = known_shape(P, p, &q))) goto give_up;
      pc_push_shape(P, s, NULL);
      p = pc_skip_blanks(q);
      if (*p == ')') break;
      if (*p != ',') goto give_up;
      p = pc_skip_blanks(p + 1);
    }
  }
  p = pc_skip_blanks(p + 1);
  if (p[0] != '-' || p[1] != '>' || !(s = known_shape(P, pc_skip_blanks(p + 2), &q))) goto give_up;
  p = pc_skip_blanks(q);
  if (*p != '}') goto give_up;
  pc_push_shape(P, s, NULL);
  *shapes = (pc_range){(uint32_t)base, (uint32_t)P->shapes.n};
  *end = p + 1;
  return true;
give_up:
  P->shapes.n = base;
  return false;
}
