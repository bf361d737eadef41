# A closed standard output (`hloidx ... >&-`) in every mode:
#     cmake -DHLOIDX=... -DDIR=testdata -P closed_stdout.cmake
# A mode that has something to print exits with status 1 and
# `hloidx: error: <stdout>: cannot write: Bad file descriptor`; --check on a
# valid input prints nothing, so a closed stdout is no error there.
cmake_minimum_required(VERSION 3.20)
set(hlo "${DIR}/examples/softmax_fusion.hlo")
set(map "${DIR}/output/write_error_map.map")
set(fail "")
foreach(mode "--layout|${hlo}" "--map|${map}" "--all|${hlo}" "--format=json|${hlo}" "--format=mlir|${hlo}"
             "--summary|${hlo}" "--verify|${hlo}" "--list|${hlo}" "--layout --summary|${hlo}" "--check|${hlo}")
  string(REPLACE "|" ";" mode "${mode}")
  list(GET mode 0 flag)
  separate_arguments(flag UNIX_COMMAND "${flag}")
  list(GET mode 1 input)
  execute_process(COMMAND sh -c "exec \"$0\" \"$@\" >&-" "${HLOIDX}" ${flag} "${input}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(flag STREQUAL "--check")
    set(want_rc 0)
    set(want_err "")
  else()
    set(want_rc 1)
    set(want_err "hloidx: error: <stdout>: cannot write: Bad file descriptor\n")
  endif()
  if(NOT rc STREQUAL want_rc OR NOT err STREQUAL want_err)
    string(APPEND fail "${flag}: exit status ${rc} (expected ${want_rc}), stderr:\n${err}\n")
  endif()
endforeach()
if(NOT fail STREQUAL "")
  message(FATAL_ERROR "${fail}")
endif()
