# Runs one golden test:  cmake -DHLOIDX=... -DINPUT=... -P run_golden.cmake
#
# INPUT's first lines may hold the command line as comments:
#     // ARGS: --direction=out2in --output=0
# hloidx is run in INPUT's directory with those arguments followed by the
# file name (relative, so diagnostics print a stable path), or with the file
# on standard input and '-' when the ARGS line ends in ' -'. A line
#     // STDIN: OTHER.hlo
# gives OTHER.hlo (in INPUT's directory) on standard input, the file name
# still following the arguments (`--compare=- B.hlo`).
# Expected results sit next to INPUT:
#     NAME.out  stdout (required)
#     NAME.err  stderr (optional; absent means stderr must be empty)
#     NAME.rc   exit status (optional; default 1 when NAME.err exists, else 0)
# With the environment variable HLOIDX_UPDATE_GOLDEN=1 the files are
# rewritten from the actual output instead; review the diff before committing.
cmake_minimum_required(VERSION 3.20)

get_filename_component(dir "${INPUT}" DIRECTORY)
get_filename_component(file "${INPUT}" NAME)
if(DEFINED GOLDEN)
  set(stem "${GOLDEN}") # generated inputs (run_generated.cmake): goldens in the source tree
else()
  string(REGEX REPLACE "\\.[^.]*$" "" stem "${INPUT}")
endif()

if(DEFINED GEN_ARGS)
  set(args ${GEN_ARGS}) # set by a generator whose input should not be scanned
else()
  file(STRINGS "${INPUT}" arg_lines REGEX "^// ARGS:")
  set(args "")
  foreach(line IN LISTS arg_lines)
    string(REGEX REPLACE "^// ARGS:[ ]*" "" line "${line}")
    separate_arguments(more UNIX_COMMAND "${line}")
    list(APPEND args ${more})
  endforeach()
endif()

# A generator may set GEN_ULIMIT_V (KiB): hloidx then runs under that
# `ulimit -v` (through sh), to test running out of memory.
set(launcher "")
if(DEFINED GEN_ULIMIT_V)
  set(launcher sh -c "ulimit -v ${GEN_ULIMIT_V} && exec \"$0\" \"$@\"")
endif()

set(stdin_file "")
if(NOT DEFINED GEN_ARGS)
  file(STRINGS "${INPUT}" stdin_lines REGEX "^// STDIN:")
  foreach(line IN LISTS stdin_lines)
    string(REGEX REPLACE "^// STDIN:[ ]*" "" stdin_file "${line}")
    set(stdin_file "${dir}/${stdin_file}")
  endforeach()
endif()

list(LENGTH args nargs)
set(use_stdin FALSE)
if(nargs GREATER 0)
  list(GET args -1 last)
  if(last STREQUAL "-")
    set(use_stdin TRUE)
  endif()
endif()

# standard input: INPUT itself (ARGS ending in ' -', no file name after
# them), the STDIN line's file, or none
set(cmd ${launcher} "${HLOIDX}" ${args})
set(stdin_opt "")
if(use_stdin)
  set(stdin_opt INPUT_FILE "${INPUT}")
else()
  list(APPEND cmd "${file}")
  if(NOT stdin_file STREQUAL "")
    set(stdin_opt INPUT_FILE "${stdin_file}")
  endif()
endif()
execute_process(COMMAND ${cmd} WORKING_DIRECTORY "${dir}" ${stdin_opt}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)

if("$ENV{HLOIDX_UPDATE_GOLDEN}" STREQUAL "1" AND DEFINED GEN_EXPECTED_OUT)
  message(STATUS "${file}: its expected output is derived by its generator, not updated")
  return()
endif()
if("$ENV{HLOIDX_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${stem}.out" "${out}")
  if(NOT err STREQUAL "")
    file(WRITE "${stem}.err" "${err}")
  elseif(EXISTS "${stem}.err")
    file(REMOVE "${stem}.err")
  endif()
  set(default_rc 0)
  if(NOT err STREQUAL "")
    set(default_rc 1)
  endif()
  if(NOT rc STREQUAL "${default_rc}")
    file(WRITE "${stem}.rc" "${rc}\n")
  elseif(EXISTS "${stem}.rc")
    file(REMOVE "${stem}.rc")
  endif()
  message(STATUS "updated ${stem}.out")
  return()
endif()

set(fail "")
if(DEFINED GEN_EXPECTED_OUT)
  file(READ "${GEN_EXPECTED_OUT}" want_out) # derived by its generator (run_generated.cmake)
else()
  file(READ "${stem}.out" want_out)
endif()
if(NOT out STREQUAL want_out)
  string(APPEND fail "stdout differs from ${stem}.out\n--- expected\n${want_out}\n--- actual\n${out}\n")
endif()
set(want_err "")
set(want_rc 0)
if(EXISTS "${stem}.err")
  file(READ "${stem}.err" want_err)
  set(want_rc 1)
endif()
if(EXISTS "${stem}.rc")
  file(READ "${stem}.rc" want_rc)
  string(STRIP "${want_rc}" want_rc)
endif()
if(NOT err STREQUAL want_err)
  string(APPEND fail "stderr differs\n--- expected\n${want_err}\n--- actual\n${err}\n")
endif()
if(NOT rc STREQUAL want_rc)
  string(APPEND fail "exit status ${rc}, expected ${want_rc}\n")
endif()
if(NOT fail STREQUAL "")
  message(FATAL_ERROR "${file}: ${fail}")
endif()
