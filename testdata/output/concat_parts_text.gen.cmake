# The out2in block of a concatenate of 5000 operands, in parts (text):
# expected output derived entry by entry in concat_parts.cmake.
set(MODE text)
set(GEN_ARGS --direction=out2in)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
