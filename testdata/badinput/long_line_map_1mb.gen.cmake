# --map: a 1 MB line (a sum of 65,536 terms in one constraint would be too
# deep; here a comment of 1 MB after the map on the same line).
string(REPEAT "0123456789abcdef" 65536 big)
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 3], d1 in [0, 3] // ${big}\n")
