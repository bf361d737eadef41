# The first tiling of a concatenate of 5000 operands, in parts (one line: written as it goes):
# expected output derived in concat_parts.cmake.
set(MODE tilings)
set(MAX_TILINGS 1)
set(GEN_ARGS --tilings --max-tilings=1)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
