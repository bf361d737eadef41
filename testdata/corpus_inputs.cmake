# Shared by the scripts that run hloidx over a whole directory of inputs
# (json_valid.cmake, fusion_cache_same.cmake), so that both pick the same
# files and skip the same way:
#   include(${CMAKE_CURRENT_LIST_DIR}/corpus_inputs.cmake)
#   corpus_inputs_or_skip(inputs)
# sets `inputs` to every .hlo/.txt file under DIR (recursively, sorted).
# When DIR does not exist (the shared corpus is optional) it prints
# "SKIPPED: ..." and returns from the calling script, which then passes
# (the tests' SKIP_REGULAR_EXPRESSION makes ctest show it as skipped). A
# macro, not a function, so that its return() leaves the caller.
macro(corpus_inputs_or_skip var)
  if(NOT IS_DIRECTORY "${DIR}")
    message("SKIPPED: no directory ${DIR}")
    return()
  endif()
  file(GLOB_RECURSE ${var} "${DIR}/*.hlo" "${DIR}/*.txt")
  list(SORT ${var})
endmacro()
