# Dump mode on a concatenate of 5000 operands against one of 4998 (windows
# of blocks, the out2in block in parts): expected output derived in
# dumps_windows.cmake.
set(ORDER big_small)
include(${CMAKE_CURRENT_LIST_DIR}/dumps_windows.cmake)
