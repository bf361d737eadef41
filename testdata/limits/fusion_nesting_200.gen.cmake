# 200 nested fusions: still within II_MAX_NESTING, the map composes through
# all of them.
set(DEPTH 200)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_chain.cmake)
