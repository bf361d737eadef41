# The out2in block of a concatenate of 5000 operands, in parts (compare):
# expected output derived entry by entry in concat_parts.cmake.
set(MODE compare)
set(GEN_ARGS --direction=out2in --compare=golden.txt)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
