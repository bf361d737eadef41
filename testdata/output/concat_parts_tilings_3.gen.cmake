# The first 3 tilings of a concatenate of 5000 operands, in parts (one batch of lines held):
# expected output derived in concat_parts.cmake.
set(MODE tilings)
set(MAX_TILINGS 3)
set(GEN_ARGS --tilings --max-tilings=3)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
