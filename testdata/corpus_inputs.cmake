# Shared by the scripts that run hloidx over a whole directory of inputs
# (json_valid.cmake, fusion_cache_same.cmake, tiles_verify.cmake), so that
# they pick the same files:
#   include(${CMAKE_CURRENT_LIST_DIR}/corpus_inputs.cmake)
#   corpus_inputs(inputs)
# sets `inputs` to every .hlo/.txt file under DIR (recursively, sorted).
# CTest registers the corpus tests only when the corpus exists, so a
# missing DIR (a corpus removed since configuring) is an error.
macro(corpus_inputs var)
  if(NOT IS_DIRECTORY "${DIR}")
    message(FATAL_ERROR "no directory ${DIR} (removed since cmake configured the tests? run cmake again)")
  endif()
  file(GLOB_RECURSE ${var} "${DIR}/*.hlo" "${DIR}/*.txt")
  list(SORT ${var})
endmacro()
