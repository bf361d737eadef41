# 201 nested fusions: the analysis stops at 200 (II_MAX_NESTING) with
# "analysis too large for NAME".
set(DEPTH 201)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_chain.cmake)
