# --map: an expression deeper than MAP_READ_MAX_DEPTH (1000): the
# left-associative sum d0 * 2 + d1 * 2 + ... + d1 * 2 + d1 of 1002 terms.
# (Maps of real shapes stay far below: at most 62 dimensions of a shape can
# be larger than 1 before its element count overflows int64.)
set(e "d0")
foreach(i RANGE 1 1001)
  set(e "${e} * 2 + d1")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0, d1) -> (${e}), domain: d0 in [0, 1], d1 in [0, 1]\n")
