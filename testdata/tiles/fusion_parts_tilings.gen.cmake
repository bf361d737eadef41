# --tilings of a fusion of N = 4100 parameters (INDEX_PARTS_FROM or more:
# its tiles are derived a part at a time, cli/out_tilings.c) whose output
# f32[48] sums the reshapes of q0..q4099 f32[8,6] to f32[48]. Derived: a
# tile of T consecutive elements of a row-major [8,6] is a box when T
# divides 6 or 6 divides T (the constraint of a reshape's tile), so of the
# candidates 1, 2, 4, 8, 16, 32, 48 the valid ones are 1, 2 and 48; every
# tile loads its T elements of each operand once, so each operand moves its
# 48 * 4 = 192 bytes at every tiling (its layout {1,0} has no tiles: layout
# tiles are elements).
set(N 4100)
math(EXPR last "${N} - 1")
set(params "")
set(reshapes "")
set(adds "")
set(ops "")
set(bytes "")
foreach(k RANGE 0 ${last})
  string(APPEND params "  q${k} = f32[8,6]{1,0} parameter(${k})\n")
  string(APPEND reshapes "  r${k} = f32[48]{0} reshape(q${k})\n")
  string(APPEND bytes "; operand ${k}: 192 bytes (layout tiles: 192 bytes)")
  if(k EQUAL 0)
    string(APPEND ops "p${k}")
  else()
    string(APPEND ops ", p${k}")
    math(EXPR prev "${k} - 1")
    if(k EQUAL 1)
      set(lhs "r0")
    else()
      set(lhs "a${prev}")
    endif()
    if(k EQUAL last)
      string(APPEND adds "  ROOT a${k} = f32[48]{0} add(${lhs}, r${k})\n")
    else()
      string(APPEND adds "  a${k} = f32[48]{0} add(${lhs}, r${k})\n")
    endif()
  endif()
endforeach()
string(REPLACE "  q" "  p" entry_params "${params}")
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "HloModule m\nfused {\n${params}${reshapes}${adds}}\nENTRY e {\n${entry_params}  ROOT f = f32[48]{0} fusion(${ops}), kind=kLoop, calls=fused\n}\n")
set(GEN_ARGS --tilings)
set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
file(WRITE "${GEN_EXPECTED_OUT}" "# f (output 0): 3 of 7 tilings valid (d0: 1, 2, 4, 8, 16, 32, 48)\n  1: 48 tiles${bytes}\n  2: 24 tiles${bytes}\n  48: 1 tile${bytes}\n")
