// ARGS: --shape-stride
// Lines that are not layouts: each an error at its column; the others print.
(2,4):(12,1)
(2,4)
(2,(4,1)):(12,1)
(2,0):(1,1)
composition((2,4):(1,2))
tile((2,4):(1,2), (2,2))
zN(q32, 4, 4)
f32[3,5]{1,0:T(2,2)
(2,4):(12,1) extra
coalesce((2,4):(1,2), (_,_,_))
(_,4):(1,2)
