# --map: 4097 constraints, one more than MAP_READ_MAX_VARS: rejected at the
# 4097th.
set(cons "")
foreach(i RANGE 2 4098)
  string(APPEND cons ", d0 * ${i} in [0, 10]")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(d0) -> (d0), domain: d0 in [0, 1]${cons}\n")
