// ARGS: --shape-stride --at=1,5 --at=((1,0),(1,1)) --at=21 --offset=37 --grid
// The TLA zN layout of the seed material: an 8 x 12 matrix in 4 x 4
// fractals, z (row-major) inside a fractal, N (column-major) between them.
//   row r = r0 + 4 * r1 -> r0 * 4 + r1 * 16;  column c = c0 + 4 * c1 -> c0 + c1 * 32
//   crd2offset((1,5)): r = 1 -> (1,0): 4; c = 5 -> (1,1): 1 + 32; 37.
//   ((1,0),(1,1)) is the same element written hierarchically: 37.
//   The 1-D index 21 is colexicographic: 21 mod 8 = 5 = row (1,1) (5 = 1 + 4);
//   21 div 8 = 2 = column (2,0): 4 + 16 + 2 = 22.
//   Offset 37 back: 37 = 32 + 4 + 1: c1 = 1, r0 = 1, c0 = 1: row 1, column 5.
// The grid is the seed's zN table: each 4 x 4 fractal holds 16 consecutive
// offsets row by row; the fractals of a column of fractals follow each
// other (0-15, 16-31), then the next column of fractals (32-63, 64-95).
// XLA layout: rows 0..7 of a 4-column block are 32 consecutive offsets,
// row-major inside the block: the tiling T(8,4) of a row-major 8 x 12 array.
((4,2),(4,3)):((4,16),(1,32))

// The same layout built from CATLASS's definition with f64 (32 bytes of C0
// hold 4 elements) and 4 C0 blocks per fractal (CATLASS uses 16).
zN(f64, 8, 12, 4)

// MakeLayoutTile with (4,4): the inner sizes and all strides stay, the
// outer sizes become ceil(4 / 4) = 1: one fractal.
make_layout_tile(((4,2),(4,3)):((4,16),(1,32)), (4,4))
