# A literal nested 50,000 deep: rejected at the 1001st level.
string(REPEAT "{" 50000 open)
string(REPEAT "}" 50000 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --layout\nENTRY e {\n  ROOT c = f32[1] constant(${open}1${close})\n}\n")
