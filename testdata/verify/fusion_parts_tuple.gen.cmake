# The fusion of fusion_parts_shared with a second output that reads only
# s (fusion_parts.cmake): its in2out blocks still invert a part at a time
# (both outputs composed per part), its out2in blocks come whole (output
# 1 does not read operands 0-4099, which the block's first line says).
set(TUPLE ON)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_parts.cmake)
