# A tuple shape nested 50,000 deep: rejected at the 1001st level (HLO_MAX_NESTING),
# without recursing 50,000 times.
string(REPEAT "(" 50000 open)
string(REPEAT ")" 50000 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --check\nENTRY e {\n  ROOT p = ${open}f32[]${close} parameter(0)\n}\n")
