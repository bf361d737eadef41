# Writes ${GEN_DIR}/${GEN_NAME}.hlo: a fusion of 3 operands over f32[8]
# whose fused computation is a chain of 1,000 adds, x_k = x_{k-1} +
# reverse(x_{k-100}) (reverse(q2) for k < 100), x_0 = q0 + q1: 2,003
# instructions, enough for the composition to drop the groups of the
# instructions it has passed while each x_k's group waits 100 steps for
# its second user. Every operand is read both as is and reversed (the
# paths through an even and an odd number of reverses), so each has the
# two maps (d0) -> (d0) and (d0) -> (-d0 + 7).
set(N 1000)
set(S 100)
set(body "  q0 = f32[8]{0} parameter(0)\n  q1 = f32[8]{0} parameter(1)\n  q2 = f32[8]{0} parameter(2)\n")
string(APPEND body "  x0 = f32[8]{0} add(q0, q1)\n")
foreach(k RANGE 1 ${N})
  math(EXPR back "${k} - ${S}")
  if(back LESS 0)
    set(src q2)
  else()
    set(src x${back})
  endif()
  math(EXPR prev "${k} - 1")
  set(root "")
  if(k EQUAL N)
    set(root "ROOT ")
  endif()
  string(APPEND body "  r${k} = f32[8]{0} reverse(${src}), dimensions={0}\n  ${root}x${k} = f32[8]{0} add(x${prev}, r${k})\n")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "HloModule m\n\nfused {\n${body}}\n\nENTRY e {\n  a = f32[8]{0} parameter(0)\n  b = f32[8]{0} parameter(1)\n  c = f32[8]{0} parameter(2)\n  ROOT f = f32[8]{0} fusion(a, b, c), kind=kLoop, calls=fused\n}\n")
