# Both directions of a fusion of 150 operands whose fused computation has
# 336 instructions (past 256, fusion.c keeps its groups by position, not
# in a hash map), with operands repeated: operand k is p(k mod 100), so
# p0..p49 are each passed twice (k and k + 100; the fusion's operand
# table chains the two), and more operands than the fusion cache keeps
# the in2out results of (II_FUSION_CACHE_MANY, 64).
#
# Fused: q0..q149 f32[8]; x_k = reverse(q_k) for k mod 4 = 3, else q_k;
# the root adds x_0..x_149 in a chain. Derived: output element i reads
# element i of every operand k, element 7 - i when k mod 4 = 3 (its
# reverse); k and k + 100 have the same k mod 4 (100 = 4 * 25), so a
# repeated p_j has one map. In2out, the inverses: operand element i feeds
# output i, or 7 - i (a reverse is its own inverse).
set(M 150)
set(N 100)
math(EXPR mlast "${M} - 1")
math(EXPR nlast "${N} - 1")
set(fused "")
set(prev "")
foreach(k RANGE 0 ${mlast})
  string(APPEND fused "  q${k} = f32[8] parameter(${k})\n")
endforeach()
set(root_line "")
foreach(k RANGE 0 ${mlast})
  math(EXPR r "${k} % 4")
  if(r EQUAL 3)
    string(APPEND fused "  r${k} = f32[8] reverse(q${k}), dimensions={0}\n")
    set(x "r${k}")
  else()
    set(x "q${k}")
  endif()
  if(prev STREQUAL "")
    set(prev "${x}")
  else()
    if(k EQUAL ${mlast})
      string(APPEND fused "  ROOT a${k} = f32[8] add(${prev}, ${x})\n")
    else()
      string(APPEND fused "  a${k} = f32[8] add(${prev}, ${x})\n")
    endif()
    set(prev "a${k}")
  endif()
endforeach()
set(entry "")
foreach(j RANGE 0 ${nlast})
  string(APPEND entry "  p${j} = f32[8] parameter(${j})\n")
endforeach()
set(ops "")
set(header "")
set(o2i "")
set(i2o "")
set(id "  (d0) -> (d0),\n  domain:\n  d0 in [0, 7]\n")
set(rev "  (d0) -> (-d0 + 7),\n  domain:\n  d0 in [0, 7]\n")
# the fusion's line: the HloModule line, "fused {", M parameters, 37
# reverses, M - 1 adds, "}", "ENTRY e {", N parameters, then it
set(line 0)
math(EXPR line "1 + 1 + ${M} + 37 + ${M} - 1 + 1 + 1 + ${N} + 1")
foreach(k RANGE 0 ${mlast})
  math(EXPR j "${k} % ${N}")
  math(EXPR r "${k} % 4")
  if(k EQUAL 0)
    string(APPEND ops "p${j}")
  else()
    string(APPEND ops ", p${j}")
  endif()
  string(APPEND header "#   operand ${k}: p${j} f32[8]\n")
  if(r EQUAL 3)
    set(map "${rev}")
  else()
    set(map "${id}")
  endif()
  string(APPEND o2i "operand id = ${k}\n${map}")
  string(APPEND i2o "# f (in2out, input operand ${k})\n#   fusion f32[8] in e, ${GEN_NAME}.hlo:${line}\n#   operand ${k}: p${j} f32[8]\noutput id = 0\n${map}")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "HloModule m\nfused {\n${fused}}\nENTRY e {\n${entry}  ROOT f = f32[8] fusion(${ops}), kind=kLoop, calls=fused\n}\n")
set(GEN_ARGS "")
set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
file(WRITE "${GEN_EXPECTED_OUT}" "# f (out2in, output 0)\n#   fusion f32[8] in e, ${GEN_NAME}.hlo:${line}\n${header}${o2i}${i2o}")
