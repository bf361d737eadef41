# -o FILE: the output goes to FILE (created, or truncated when it exists),
# nothing to standard output; the text is what standard output gets without
# -o. Run:  cmake -DHLOIDX=... -DDIR=testdata -DOUT=SCRATCH_FILE -P output_file.cmake
cmake_minimum_required(VERSION 3.20)
file(READ "${DIR}/examples/softmax_fusion.out" want)
file(WRITE "${OUT}" "old contents, longer than nothing: -o truncates the file\n")
execute_process(COMMAND "${HLOIDX}" -o "${OUT}" softmax_fusion.hlo
                WORKING_DIRECTORY "${DIR}/examples"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ "${OUT}" got)
file(REMOVE "${OUT}")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "hloidx -o: exit status ${rc}, stdout '${out}', stderr '${err}'")
endif()
if(NOT got STREQUAL want)
  message(FATAL_ERROR "-o ${OUT} holds\n${got}\nexpected (examples/softmax_fusion.out)\n${want}")
endif()
