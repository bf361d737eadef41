# The enumeration check of the operand tiles (hloidx --tiles --verify
# --all) over every .hlo/.txt file under DIR, in one run:
#   cmake -DHLOIDX=... -DDIR=... -P tiles_verify.cmake
# Fails on a mismatch (exit status 3) or a crash; inputs that do not parse
# (testdata has invalid ones on purpose) only make the run exit 1. Prints
# the tally line.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/corpus_inputs.cmake)

corpus_inputs(inputs)
execute_process(COMMAND "${HLOIDX}" --tiles --verify --all ${inputs}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX MATCH "verify tiles: [^\n]*" tally "${out}")
if(NOT (rc STREQUAL "0" OR rc STREQUAL "1") OR tally STREQUAL "")
  string(REGEX MATCHALL "[^\n]*MISMATCH[^\n]*" bad "${out}")
  message(FATAL_ERROR "hloidx --tiles --verify exited with ${rc}: ${tally}\n${bad}")
endif()
message(STATUS "${tally}")
