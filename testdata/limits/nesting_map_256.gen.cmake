# --map: parentheses nested 256 deep, the limit (MAP_READ_MAX_NESTING): accepted.
string(REPEAT "(" 256 open)
string(REPEAT ")" 256 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${open}d0${close}), domain: d0 in [0, 3]\n")
