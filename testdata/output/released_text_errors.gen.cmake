# --operand=7 of released_text.cmake: the errors echo lines of released text.
set(MODE errors)
include(${CMAKE_CURRENT_LIST_DIR}/released_text.cmake)
