# Writes a module of DEPTH fusions, each calling the next, around one
# negate (shared by fusion_nesting_200 and fusion_nesting_201); with CALL
# set, of DEPTH calls (call_nesting_201).
if(CALL)
  set(op "call(p), to_apply=fu")
  set(eop "call(a), to_apply=fu")
else()
  set(op "fusion(p), kind=kLoop, calls=fu")
  set(eop "fusion(a), kind=kLoop, calls=fu")
endif()
set(text "HloModule deep\n\nfu${DEPTH} {\n  p = f32[4] parameter(0)\n  ROOT n = f32[4] negate(p)\n}\n")
math(EXPR last "${DEPTH} - 1")
foreach(i RANGE ${last} 1 -1)
  math(EXPR next "${i} + 1")
  string(APPEND text "\nfu${i} {\n  p = f32[4] parameter(0)\n  ROOT f = f32[4] ${op}${next}\n}\n")
endforeach()
string(APPEND text "\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT f = f32[4] ${eop}1\n}\n")
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --direction=out2in\n${text}")
