# Checks that --format=json output is one valid JSON document (strict:
# UTF-8, no NaN/Infinity), run as
#   cmake -DHLOIDX=... -DPYTHON=python3 -DDIR=... -DARGS="--all" -P json_valid.cmake
# on every .hlo/.txt file under DIR (recursively), all of them in one run
# (one document covering every file, invalid inputs included: their errors
# go to stderr and the document stays valid), then the same with --physical
# and with --physical=tiled.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/corpus_inputs.cmake)

corpus_inputs(inputs)
list(LENGTH inputs n)
if(n EQUAL 0)
  message(FATAL_ERROR "no inputs under ${DIR}")
endif()
separate_arguments(args UNIX_COMMAND "${ARGS}")

set(validator "import json, sys
def bad(c): sys.exit('non-standard constant ' + c)
with open(sys.argv[1], 'rb') as f:
    data = f.read().decode('utf-8')
doc = json.loads(data, parse_constant=bad)
if not isinstance(doc, dict) or 'modules' not in doc: sys.exit('not an hloidx document')
print(len(doc['modules']), 'modules')")

set(tmp "${CMAKE_CURRENT_BINARY_DIR}/json_valid_${NAME}.json")

function(check label)
  execute_process(COMMAND "${HLOIDX}" --format=json ${ARGN}
                  OUTPUT_FILE "${tmp}" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT (rc STREQUAL "0" OR rc STREQUAL "1"))
    message(FATAL_ERROR "${label}: hloidx exited with ${rc}\n${err}")
  endif()
  execute_process(COMMAND "${PYTHON}" -c "${validator}" "${tmp}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE perr RESULT_VARIABLE prc)
  if(NOT prc STREQUAL "0")
    message(FATAL_ERROR "${label}: invalid JSON (${tmp}):\n${perr}")
  endif()
  string(STRIP "${out}" out)
  message(STATUS "${label}: ${out}")
endfunction()

check("${n} files" ${args} ${inputs})
if(NOT LOGICAL_ONLY) # -DLOGICAL_ONLY=ON: modes without --physical (the tile modes)
  check("${n} files, --physical" ${args} --physical ${inputs})
  check("${n} files, --physical=tiled" ${args} --physical=tiled ${inputs})
endif()
file(REMOVE "${tmp}")
