# --map: parentheses nested 50,000 deep: rejected at level 257 (MAP_READ_MAX_NESTING).
string(REPEAT "(" 50000 open)
string(REPEAT ")" 50000 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${open}d0${close}), domain: d0 in [0, 3]\n")
