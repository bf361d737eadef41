# 1000 slices of a map() of 70 copies of one parameter: 1000 maps for the
# map()'s result, composed through each of its 70 operands, 70,000
# compositions (into the same 1000 maps). More than II_MAX_COMPOSE (65536):
# reported instead of running on (with 20,000 slices and 1000 copies this
# ran for minutes).
set(n 1000)
set(k 70)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
set(text "// ARGS: --direction=out2in\nHloModule m\n\ncomb {\n")
math(EXPR klast "${k} - 1")
set(copies "")
foreach(i RANGE 0 ${klast})
  string(APPEND text "  a${i} = f32[] parameter(${i})\n")
  list(APPEND copies "p")
endforeach()
list(JOIN copies ", " copies)
string(APPEND text "  ROOT r = f32[] add(a0, a1)\n}\n\nfused {\n  p = f32[${n}] parameter(0)\n"
                   "  m = f32[${n}] map(${copies}), dimensions={0}, to_apply=comb\n")
math(EXPR last "${n} - 1")
set(names "")
foreach(j RANGE 0 ${last})
  math(EXPR j1 "${j} + 1")
  string(APPEND text "  x${j} = f32[1] slice(m), slice={[${j}:${j1}]}\n")
  list(APPEND names "x${j}")
endforeach()
list(JOIN names ", " operands)
string(APPEND text "  ROOT c = f32[${n}] concatenate(${operands}), dimensions={0}\n}\n\n"
                   "ENTRY e {\n  a = f32[${n}] parameter(0)\n  ROOT f = f32[${n}] fusion(a), kind=kLoop, calls=fused\n}\n")
file(WRITE "${INPUT}" "${text}")
