# --map: parentheses nested 257 deep, one over MAP_READ_MAX_NESTING: rejected
# at the 257th '(' (column 9 + 257), each '(' one level.
string(REPEAT "(" 257 open)
string(REPEAT ")" 257 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${open}d0${close}), domain: d0 in [0, 3]\n")
