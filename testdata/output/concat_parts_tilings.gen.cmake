# The tilings of a concatenate of 5000 operands, in parts: expected output
# derived in concat_parts.cmake.
set(MODE tilings)
set(GEN_ARGS --tilings)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
