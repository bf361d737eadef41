# 201 nested calls: the analysis goes into each callee as into a fused
# computation and stops at the same 200 (II_MAX_NESTING).
set(DEPTH 201)
set(CALL ON)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_chain.cmake)
