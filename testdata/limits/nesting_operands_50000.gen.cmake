# Nested operands 50,000 deep (negate(negate(...(p)...))): rejected at the
# 1001st level, in every mode.
string(REPEAT "negate(" 50000 open)
string(REPEAT ")" 50000 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] ${open}p${close}\n}\n")
