# Nesting through the shape cache up to the limit: parameters p0 ... p997,
# each one pair of parentheses deeper than the one before (p997: 998 pairs,
# with the body's '{' and the '[' of f32[] 1000 levels, HLO_MAX_NESTING):
# accepted, as without the cache. (nesting_shape_cache_1010: one level more
# is rejected.)
set(lines "HloModule m\nENTRY e {\n")
set(s "f32[]")
foreach(i RANGE 0 997)
  set(s "(${s})")
  string(APPEND lines "  p${i} = ${s} parameter(${i})\n")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --check\n${lines}  ROOT c = f32[] constant(0)\n}\n")
