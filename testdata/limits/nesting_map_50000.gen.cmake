# --map: parentheses nested 50,000 deep: rejected at the 257th '(' (MAP_READ_MAX_NESTING, one level per parenthesis).
string(REPEAT "(" 50000 open)
string(REPEAT ")" 50000 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${open}d0${close}), domain: d0 in [0, 3]\n")
