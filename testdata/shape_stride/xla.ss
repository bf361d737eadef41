// ARGS: --shape-stride --at=2,3 --at=3,0 --offset=17 --offset=9 --grid
// The tiled-layout example: f32[3,5]{1,0:T(2,2)}, padded to [4,6] in 2 x 2
// tiles stored row by row: element (2,3) is in tile (1,1) at (0,1):
// 1 * 12 + 1 * 4 + 0 * 2 + 1 = 17. (3,0) is outside the 3 rows. Offset 9
// is in tile 2 at (0,1): element (0,5), which is padding (5 columns).
// The inverse map excludes the padding with its constraints.
f32[3,5]{1,0:T(2,2)}

// TPU's bf16 packing: T(8,128)(2,1) pairs rows. Element (2,3): tile (0,0),
// in-tile (2,3): the pair (1,3) of pairs [4,128] at 1 * 128 * 2 + 3 * 2 = 262,
// and the row of the pair, 0: 262. (3,0): pair (1,0), row 1: 256 + 1 = 257.
bf16[8,128]{1,0:T(8,128)(2,1)}
