# Runs one IR golden test:  cmake -DDUMP=... -DINPUT=... -P run_ir_dump.cmake
#
# The parser goldens pin what was built, not only that the input was
# accepted: NAME.ir beside NAME.hlo holds the IR dump of its modules
# (hloidx-ir-dump, parser/ir_dump.h), compared as is. With the environment
# variable HLOIDX_UPDATE_GOLDEN=1 the file is rewritten instead; review the
# diff before committing.
cmake_minimum_required(VERSION 3.20)

get_filename_component(dir "${INPUT}" DIRECTORY)
get_filename_component(file "${INPUT}" NAME)
string(REGEX REPLACE "\\.[^.]*$" ".ir" golden "${INPUT}")
# the options of the input's ARGS line that change what the parser builds
file(STRINGS "${INPUT}" arg_lines REGEX "^// ARGS:")
set(opts "")
foreach(opt --allow-unknown --no-verify)
  if(arg_lines MATCHES "${opt}")
    list(APPEND opts ${opt})
  endif()
endforeach()
execute_process(COMMAND "${DUMP}" ${opts} "${file}" WORKING_DIRECTORY "${dir}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${file}: hloidx-ir-dump failed (${rc}):\n${out}${err}")
endif()
if("$ENV{HLOIDX_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${golden}" "${out}")
  message(STATUS "updated ${golden}")
  return()
endif()
file(READ "${golden}" want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "${file}: the IR differs from ${golden}\n--- expected\n${want}\n--- actual\n${out}")
endif()
