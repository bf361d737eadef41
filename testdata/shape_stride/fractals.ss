// ARGS: --shape-stride --grid --at=3,5
// The four Ascend fractal formats (CATLASS layout::zN, nZ, zZ, nN) of an
// 8 x 8 f64 matrix: C0 = 32 bytes = 4 elements, 2 C0 blocks per fractal:
// zN and zZ: 2 x 4 fractals (2 rows of C0), z = row-major inside;
// nZ and nN: 4 x 2 fractals (2 columns of C0), n = column-major inside.
// Between fractals: N = column-major, Z = row-major.
// Element (3,5), hand-derived (fractal index, then 8 offsets per fractal):
//   zN: fractal (1,1) of 4 x 2, inside (1,1) row-major: 1 * 4 + 1 = 5;
//       column-major among fractals: 1 * 4 + 1 = 5: 5 * 8 + 5 = 45
//   zZ: the same fractal, row-major among them: 1 * 2 + 1 = 3: 29
//   nZ: fractal (0,2) of 2 x 4, inside (3,1) column-major: 1 * 4 + 3 = 7;
//       row-major among fractals: 0 * 4 + 2 = 2: 2 * 8 + 7 = 23
//   nN: column-major among them: 2 * 2 + 0 = 4: 4 * 8 + 7 = 39
zN(f64, 8, 8, 2)
zZ(f64, 8, 8, 2)
nZ(f64, 8, 8, 2)
nN(f64, 8, 8, 2)
