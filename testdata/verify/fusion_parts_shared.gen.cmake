# A fusion of 4101 operands in parts, one output (fusion_parts.cmake):
# its out2in block comes a part at a time, its in2out blocks invert the
# part that holds theirs; both checked by enumeration. (With only a
# part's own operand positions walked, operands 0, 5, 300 and 4097
# mismatch.)
set(TUPLE OFF)
include(${CMAKE_CURRENT_LIST_DIR}/fusion_parts.cmake)
