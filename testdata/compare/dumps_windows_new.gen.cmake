# The same two dumps the other way (entries and blocks new): expected
# output derived in dumps_windows.cmake.
set(ORDER small_big)
include(${CMAKE_CURRENT_LIST_DIR}/dumps_windows.cmake)
