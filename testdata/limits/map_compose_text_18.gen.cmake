# --map --compose: 18 copies of (d0) -> (d0 * 3 + d0 floordiv 7) composed
# in one group. Each composition puts the map's result in for d0 twice, so
# the text of the result about doubles per map (17 copies print in 374 KB);
# with 18 it would pass 2^20 expression nodes: rejected, at the group's
# first map.
set(group "")
foreach(i RANGE 1 18)
  string(APPEND group "(d0) -> (d0 * 3 + d0 floordiv 7), domain: d0 in [0, 1000000000]\n\n")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map --compose\n${group}")
