# 201 fusions, each calling the next: the analysis stops at 200 nested
# fusions (II_MAX_NESTING) with "analysis too large for NAME".
set(text "HloModule deep\n\nfu201 {\n  p = f32[4] parameter(0)\n  ROOT n = f32[4] negate(p)\n}\n")
foreach(i RANGE 200 1 -1)
  math(EXPR next "${i} + 1")
  string(APPEND text "\nfu${i} {\n  p = f32[4] parameter(0)\n  ROOT f = f32[4] fusion(p), kind=kLoop, calls=fu${next}\n}\n")
endforeach()
string(APPEND text "\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT f = f32[4] fusion(a), kind=kLoop, calls=fu1\n}\n")
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --direction=out2in\n${text}")
