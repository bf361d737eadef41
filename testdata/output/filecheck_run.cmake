# --format=filecheck against LLVM's FileCheck: the directives printed for
# INPUT must match the text output of the same run.
#     cmake -DHLOIDX=... -DFILECHECK=... -DINPUT=... -DCHECKS=SCRATCH -P filecheck_run.cmake
cmake_minimum_required(VERSION 3.20)
get_filename_component(dir "${INPUT}" DIRECTORY)
execute_process(COMMAND "${HLOIDX}" --all --format=filecheck "${INPUT}" OUTPUT_FILE "${CHECKS}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hloidx --format=filecheck ${INPUT}: exit status ${rc}")
endif()
execute_process(COMMAND "${HLOIDX}" --all "${INPUT}" COMMAND "${FILECHECK}" "${CHECKS}"
                RESULTS_VARIABLE rcs ERROR_VARIABLE err)
file(REMOVE "${CHECKS}")
if(NOT rcs STREQUAL "0;0")
  message(FATAL_ERROR "FileCheck rejects the directives for ${INPUT} (exit statuses ${rcs}):\n${err}")
endif()
