# --list of released_text.cmake: each line number counted over released text.
set(MODE list)
include(${CMAKE_CURRENT_LIST_DIR}/released_text.cmake)
