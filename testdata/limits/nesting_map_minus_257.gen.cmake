# --map: 257 unary minus signs in a row, one over MAP_READ_MAX_NESTING
# (each '-' one level, as each '('): rejected at the 257th '-' (column
# 9 + 2 * 256 + 1 = 522); 256 of them read as d0 (nesting_map_minus_256).
string(REPEAT "- " 257 minus)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (${minus}d0), domain: d0 in [0, 3]\n")
