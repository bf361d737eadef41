# The out2in block of a concatenate of 5000 operands, in parts (json):
# expected output derived entry by entry in concat_parts.cmake.
set(MODE json)
set(GEN_ARGS --direction=out2in --format=json)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
