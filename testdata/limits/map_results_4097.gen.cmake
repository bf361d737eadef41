# --map: 4097 results, one more than MAP_READ_MAX_VARS: rejected at the
# 4097th (column 9 + 4 * 4096 + 1).
string(REPEAT "d0, " 4096 results)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${results}d0), domain: d0 in [0, 1]\n")
