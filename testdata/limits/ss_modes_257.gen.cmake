# --shape-stride: a layout of 257 modes, one over SS_MAX_LEAVES (256):
# rejected once the shape tuple has its 257th entry (at the ")" after it).
string(REPEAT "2," 256 sizes)
string(REPEAT "1," 256 strides)
set(INPUT "${GEN_DIR}/${GEN_NAME}.ss")
file(WRITE "${INPUT}" "// ARGS: --shape-stride\n(${sizes}2):(${strides}1)\n")
