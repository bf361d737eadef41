# Writes ${GEN_DIR}/${GEN_NAME}.hlo, a fusion of N + 1 = 4101 operands
# (past 4096: composed a part of 256 operands at a time, each part only
# through the instructions that reach its operands, fusion.c's
# ii_fusion_o2i_range), and the expected output of --all --verify on it,
# every entry ok. Fused: q0..q4099 f32[2] concatenated plus a broadcast of
# the scalar s (every output element reads it): a = their sum. With
# TUPLE, a second output n = negate(s) (the root a tuple: each part
# composes both outputs). Operands repeated across parts: operand 4097 is
# p0 (part 16 and part 0) and operand 300 is p5 (part 1 and part 0), so a
# part's walk must also take the parameters bound to the same instruction
# elsewhere: p0's maps are those of q0 and q4097, in both of its entries.
# Derived: output 0 reads every operand, output 1 only s; operand
# k < 4100 feeds output 0, s every output.
set(N 4100)
math(EXPR last "${N} - 1")
math(EXPR width "2 * ${N}")
set(fused "")
set(entry "")
set(qs "")
set(ops "")
set(o2i_line "# f (out2in, output 0): ")
set(i2o "")
set(unreached "")
if(TUPLE)
  set(unreached "; output 1 not reached from this operand")
endif()
foreach(k RANGE 0 ${last})
  string(APPEND fused "  q${k} = f32[2] parameter(${k})\n")
  string(APPEND entry "  p${k} = f32[2] parameter(${k})\n")
  set(p "p${k}")
  if(k EQUAL 4097)
    set(p "p0")
  elseif(k EQUAL 300)
    set(p "p5")
  endif()
  if(k EQUAL 0)
    set(qs "q0")
    set(ops "${p}")
  else()
    string(APPEND qs ", q${k}")
    string(APPEND ops ", ${p}")
  endif()
  string(APPEND o2i_line "operand ${k}: ok; ")
  string(APPEND i2o "# f (in2out, input operand ${k}): output 0: ok${unreached}\n")
endforeach()
string(APPEND o2i_line "operand ${N}: ok\n")
set(body "  s = f32[] parameter(${N})\n  c = f32[${width}] concatenate(${qs}), dimensions={0}\n  b = f32[${width}] broadcast(s), dimensions={}\n")
if(TUPLE)
  set(shape "(f32[${width}], f32[])")
  string(APPEND body "  a = f32[${width}] add(c, b)\n  n = f32[] negate(s)\n  ROOT t = ${shape} tuple(a, n)\n")
  string(APPEND o2i_line "# f (out2in, output 1): operand ${N}: ok; operands 0-${last} not read by this output\n")
  string(APPEND i2o "# f (in2out, input operand ${N}): output 0: ok; output 1: ok\n")
  math(EXPR entries "2 * ${N} + 4")
else()
  set(shape "f32[${width}]")
  string(APPEND body "  ROOT a = f32[${width}] add(c, b)\n")
  string(APPEND i2o "# f (in2out, input operand ${N}): output 0: ok\n")
  math(EXPR entries "2 * ${N} + 2")
endif()
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "HloModule m\nfused {\n${fused}${body}}\nENTRY e {\n${entry}  ps = f32[] parameter(${N})\n  ROOT f = ${shape} fusion(${ops}, ps), kind=kLoop, calls=fused\n}\n")
set(GEN_ARGS --all --verify)
set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
file(WRITE "${GEN_EXPECTED_OUT}" "## module m (${GEN_NAME}.hlo)\n## computation e\n${o2i_line}${i2o}verify: ${entries} entries, ${entries} ok (0 by coverage, 0 sampled, 0 with runtime variables bound), 0 mismatches; not checked: 0 unknown indexing, 0 without reference, 0 too large, 0 not analyzed\n")
