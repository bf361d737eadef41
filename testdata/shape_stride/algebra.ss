// ARGS: --shape-stride
// CuTe's layout algebra; the expected results are the examples of CuTe's
// layout-algebra documentation.
//
// coalesce: (2,(1,6)):(1,(6,2)) -> 12:1 (the size-1 mode goes; 2:1 then 6:2
// continue each other).
coalesce((2,(1,6)):(1,(6,2)))
// by mode: each top-level mode on its own: ((2,2),3):((1,2),4) -> (4,3):(1,4)
coalesce(((2,2),3):((1,2),4), (_,_))
// composition: (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
composition((6,2):(8,2), (4,3):(3,1))
// complement: (2,2):(1,6) in 24 -> (3,2):(2,12); 4:1 in 24 -> 6:4
complement((2,2):(1,6), 24)
complement(4:1, 24)
// logical divide and product
logical_divide((4,2,3):(2,1,8), 4:2)
logical_product((2,2):(4,1), 6:1)
// by mode (a tiler): the 8 x 12 zN layout divided into 4 x 4 tiles: mode 0
// (4,2):(4,16) by 4:1 -> ((4),(2)):((4),(16)); mode 1 (4,3):(1,32) by 4:1.
logical_divide(((4,2),(4,3)):((4,16),(1,32)), [4:1, 4:1])
// Not defined: the stride 3 and the mode 2:1 do not divide each other, and
// the 3 elements it reaches do not fit in that mode.
composition((2,4):(1,2), 3:3)
