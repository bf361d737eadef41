# --shape-stride: a layout nested 33 deep, one over SS_MAX_DEPTH (32):
# rejected as a whole (32 deep reads: ss_nesting_32 in testdata/limits).
string(REPEAT "(" 33 open)
string(REPEAT ")" 33 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.ss")
file(WRITE "${INPUT}" "// ARGS: --shape-stride\n${open}2${close}:${open}1${close}\n")
