# --map: 256 unary minus signs in a row, the limit: accepted, an even count
# of negations is d0.
string(REPEAT "- " 256 minus)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${minus}d0), domain: d0 in [0, 3]\n")
