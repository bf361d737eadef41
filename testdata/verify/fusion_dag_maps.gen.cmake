# The out2in maps of a fusion of 2,003 instructions whose groups wait
# long (fusion_dag.cmake): each operand, both maps.
set(GEN_ARGS --direction=out2in)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_dag.cmake)
