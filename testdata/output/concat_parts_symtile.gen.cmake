# The symbolic tiles of a concatenate of 5000 operands, in parts:
# expected output derived entry by entry in concat_parts.cmake.
set(MODE symtile)
set(GEN_ARGS --symbolic-tile)
include(${CMAKE_CURRENT_LIST_DIR}/concat_parts.cmake)
