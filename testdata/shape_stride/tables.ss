// ARGS: --shape-stride --grid
// Row-major and column-major 4 x 6 matrices: offset i * 6 + j and i + j * 4.
// Their XLA layouts: {1,0} and {0,1}; the inverse maps split the offset
// back: (o floordiv 6, o mod 6) and (o mod 4, o floordiv 4).
(4,6):(6,1)

(4,6):(1,4)

// A padded row pitch: rows 8 apart, 5 columns used: 15 of 24 offsets.
// XLA pads the minor dimension to 8 with a tile T(8) (one tile per row).
(3,5):(8,1)

// A 1-D layout draws one row.
(8):(2)
