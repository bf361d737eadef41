# `--compare=-` without FILE: both sides would read standard input (no FILE
# is standard input), so it is a usage error, exit 2, whether standard input
# holds a golden or a dump (the second read found it empty: a golden was
# reported "missing" block by block, exit 1):
#     cmake -DHLOIDX=... -DDIR=testdata/compare -P stdin_no_file.cmake
cmake_minimum_required(VERSION 3.20)
set(want_err "hloidx: error: --compare=- reads the expected side from standard input; the other side must be a named file (not '-', nor no FILE, which is standard input too)\nTry 'hloidx --help' for more information.\n")
set(fail "")
foreach(input dumps_broadcast.out dumps_broadcast_a.hlo)
  execute_process(COMMAND "${HLOIDX}" --compare=- INPUT_FILE "${DIR}/${input}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "2" OR NOT err STREQUAL want_err OR NOT out STREQUAL "")
    string(APPEND fail "${input} on standard input: exit status ${rc} (expected 2), stdout:\n${out}\nstderr:\n${err}\n")
  endif()
endforeach()
if(NOT fail STREQUAL "")
  message(FATAL_ERROR "${fail}")
endif()
