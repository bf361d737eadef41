# --shape-stride: a size of 2^62 + 1, one over the sizes' limit (2^62):
# rejected at the integer.
set(INPUT "${GEN_DIR}/${GEN_NAME}.ss")
file(WRITE "${INPUT}" "// ARGS: --shape-stride\n(4611686018427387905):(1)\n")
