# --map: 4097 dimension variables, one more than MAP_READ_MAX_VARS.
set(names "d0")
set(domain "d0 in [0, 1]")
foreach(i RANGE 1 4096)
  string(APPEND names ", d${i}")
  string(APPEND domain ", d${i} in [0, 1]")
endforeach()
set(INPUT "${GEN_DIR}/${GEN_NAME}.map")
file(WRITE "${INPUT}" "// ARGS: --map\n(${names}) -> (d0), domain: ${domain}\n")
