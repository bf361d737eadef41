# Both directions of a fusion whose root concatenates its N = 4100
# parameters f32[2] (f32[8200]): from 4096 operands the composition takes
# the concatenate's out2in entries a part of 256 at a time (fusion.c's
# compose_in_parts); what is printed must not change. Derived (§3.6 and
# the identity of the root): output element i reads element i - 2k of
# operand k for i in [2k, 2k + 1]; in2out, operand k's element j feeds
# output element j + 2k.
set(N 4100)
math(EXPR last "${N} - 1")
math(EXPR width "2 * ${N}")
set(fused_params "")
set(qs "")
set(entry_params "")
set(ps "")
set(header "")
set(o2i "")
set(i2o "")
# the fusion's line: HloModule, "fused {", N parameters, the concatenate,
# "}", "ENTRY e {", N parameters, then it
math(EXPR line "2 * ${N} + 6")
set(where "#   fusion f32[${width}] in e, ${GEN_NAME}.hlo:${line}\n")
foreach(k RANGE 0 ${last})
  string(APPEND fused_params "  q${k} = f32[2] parameter(${k})\n")
  string(APPEND entry_params "  p${k} = f32[2] parameter(${k})\n")
  if(k EQUAL 0)
    set(qs "q0")
    set(ps "p0")
    set(o2i_map "(d0) -> (d0)")
    set(i2o_map "(d0) -> (d0)")
  else()
    string(APPEND qs ", q${k}")
    string(APPEND ps ", p${k}")
    math(EXPR off "2 * ${k}")
    set(o2i_map "(d0) -> (d0 - ${off})")
    set(i2o_map "(d0) -> (d0 + ${off})")
  endif()
  math(EXPR lo "2 * ${k}")
  math(EXPR hi "2 * ${k} + 1")
  string(APPEND header "#   operand ${k}: p${k} f32[2]\n")
  string(APPEND o2i "operand id = ${k}\n  ${o2i_map},\n  domain:\n  d0 in [${lo}, ${hi}]\n")
  string(APPEND i2o "# f (in2out, input operand ${k})\n${where}#   operand ${k}: p${k} f32[2]\noutput id = 0\n  ${i2o_map},\n  domain:\n  d0 in [0, 1]\n")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "HloModule m\nfused {\n${fused_params}  ROOT c = f32[${width}] concatenate(${qs}), dimensions={0}\n}\nENTRY e {\n${entry_params}  ROOT f = f32[${width}] fusion(${ps}), kind=kLoop, calls=fused\n}\n")
set(GEN_ARGS "")
set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
file(WRITE "${GEN_EXPECTED_OUT}" "# f (out2in, output 0)\n${where}${header}${o2i}${i2o}")
