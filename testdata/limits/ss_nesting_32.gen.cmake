# --shape-stride: a layout nested 32 deep, SS_MAX_DEPTH: read (rank 1,
# depth 32).
string(REPEAT "(" 32 open)
string(REPEAT ")" 32 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.ss")
file(WRITE "${INPUT}" "// ARGS: --shape-stride\n${open}2${close}:${open}1${close}\n")
