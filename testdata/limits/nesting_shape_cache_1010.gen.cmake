# Nesting through the shape cache: parameter i has the shape of parameter
# i - 1 in one more pair of parentheses, so each line's text holds the one
# before it, which the shape cache knows. The limit (HLO_MAX_NESTING) still
# holds: line 1002 is parameter p998, whose 999 parentheses inside the
# body's '{' bring the '[' of f32[] to level 1001 (column 12 + 999 + 1).
set(lines "HloModule m\nENTRY e {\n")
set(s "f32[]")
foreach(i RANGE 0 1009)
  set(s "(${s})")
  string(APPEND lines "  p${i} = ${s} parameter(${i})\n")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --check\n${lines}  ROOT c = f32[] constant(0)\n}\n")
