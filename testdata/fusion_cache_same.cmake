# The fusion cache (analysis/fusion_cache.c) must not change any output:
#   cmake -DHLOIDX=... -DDIR=... -DNAME=... -P fusion_cache_same.cmake
# runs `hloidx --all` over every .hlo/.txt file under DIR in one run, with
# the default options, --physical=tiled, --format=json and --summary
# --physical, once with the cache and once with HLOIDX_NO_FUSION_CACHE=1,
# and requires the same stdout and stderr.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/corpus_inputs.cmake)

corpus_inputs(inputs)
foreach(mode "" "--physical=tiled" "--format=json" "--summary --physical")
  separate_arguments(args UNIX_COMMAND "${mode}")
  execute_process(COMMAND "${HLOIDX}" --all ${args} ${inputs}
                  OUTPUT_VARIABLE out1 ERROR_VARIABLE err1 RESULT_VARIABLE rc1)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env HLOIDX_NO_FUSION_CACHE=1 "${HLOIDX}" --all ${args} ${inputs}
                  OUTPUT_VARIABLE out2 ERROR_VARIABLE err2 RESULT_VARIABLE rc2)
  if(NOT out1 STREQUAL out2 OR NOT err1 STREQUAL err2 OR NOT rc1 STREQUAL rc2)
    message(FATAL_ERROR "--all ${mode}: the output with the fusion cache differs from the output without it")
  endif()
  string(LENGTH "${out1}" n)
  message(STATUS "--all ${mode}: ${n} bytes, the same with and without the cache")
endforeach()
