# Writes two dumps into ${GEN_DIR}: big.hlo, a concatenate of 5000
# operands p0..p4999 f32[1,2] along dimension 1 (f32[1,10000]), and
# small.hlo, the same of the first 4998 (f32[1,9996]); then ${GEN_DIR}/
# expected.out, what --compare says of them in the order ORDER (big_small:
# --compare big.hlo small.hlo; small_big: the other way).
#
# Dump mode compares such an instruction a window of blocks at a time and
# its out2in block, in parts on both sides (index_run.h), a part at a
# time. Derived: operand k of either concatenate reads the output's
# columns [2k, 2k + 1] in both dumps, so the 4998 operands both have are
# equal (text) in the out2in block and in their in2out blocks, which -q
# (dump mode) does not print; operands 4998 and 4999, and their
# parameters, are in big.hlo only; the shape of c changes. Blocks: 1
# out2in (different: two entries in one dump only) + 5000 in2out.
set(N 5000)
math(EXPR last "${N} - 1")
math(EXPR small_last "${N} - 3")
foreach(side big small)
  set(body "")
  set(ops "")
  if(side STREQUAL "big")
    set(top ${last})
  else()
    set(top ${small_last})
  endif()
  foreach(k RANGE 0 ${top})
    string(APPEND body "  p${k} = f32[1,2] parameter(${k})\n")
    if(k EQUAL 0)
      string(APPEND ops "p${k}")
    else()
      string(APPEND ops ", p${k}")
    endif()
  endforeach()
  math(EXPR width "2 * (${top} + 1)")
  file(WRITE "${GEN_DIR}/${side}.hlo" "HloModule m\nENTRY e {\n${body}  ROOT c = f32[1,${width}] concatenate(${ops}), dimensions={1}\n}\n")
endforeach()
if(ORDER STREQUAL "big_small")
  set(INPUT "${GEN_DIR}/small.hlo")
  set(GEN_ARGS --compare=big.hlo)
  set(want "p4998: missing (in big.hlo only)\np4999: missing (in big.hlo only)\n")
  string(APPEND want "c: shape f32[1,10000] -> f32[1,9996]\n")
  string(APPEND want "c (out2in, output 0): different\n  operand 4998: missing (in big.hlo only)\n  operand 4999: missing (in big.hlo only)\n")
  string(APPEND want "c (in2out, input operand 4998): missing (in big.hlo only)\nc (in2out, input operand 4999): missing (in big.hlo only)\n")
  string(APPEND want "compare: 5001 instructions: 1 changed (shape, layout, memory space or padding), 2 only in big.hlo, 0 only in small.hlo; 5001 map blocks: 4998 equal, 1 different, 0 undecided, 2 missing, 0 new\n")
else()
  set(INPUT "${GEN_DIR}/big.hlo")
  set(GEN_ARGS --compare=small.hlo)
  set(want "c: shape f32[1,9996] -> f32[1,10000]\n")
  string(APPEND want "c (out2in, output 0): different\n  operand 4998: new (not in small.hlo)\n  operand 4999: new (not in small.hlo)\n")
  string(APPEND want "c (in2out, input operand 4998): new (not in small.hlo)\nc (in2out, input operand 4999): new (not in small.hlo)\n")
  string(APPEND want "p4998: new (not in small.hlo)\np4999: new (not in small.hlo)\n")
  string(APPEND want "compare: 4999 instructions: 1 changed (shape, layout, memory space or padding), 0 only in small.hlo, 2 only in big.hlo; 5001 map blocks: 4998 equal, 1 different, 0 undecided, 0 missing, 2 new\n")
endif()
set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
file(WRITE "${GEN_EXPECTED_OUT}" "${want}")
