# A 3 GiB input (a sparse file: no disk space, nothing is read): rejected by
# its size before reading, with the size in the message. Needs coreutils'
# truncate.
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
execute_process(COMMAND truncate -s 3G "${INPUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "truncate -s 3G failed (${rc})")
endif()
set(GEN_ARGS --check)
