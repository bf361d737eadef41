# The same fusion (fusion_dag.cmake), checked by enumeration: the maps
# read exactly what the fused computation reads.
set(GEN_ARGS --direction=out2in --verify)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_dag.cmake)
