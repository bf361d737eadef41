# A shape of rank 1025: one more than HLO_MAX_RANK.
string(REPEAT "1," 1024 dims)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --check\nENTRY e {\n  ROOT p = f32[${dims}1] parameter(0)\n}\n")
