// ARGS: --shape-stride --at=17,20 --offset=788
// CATLASS's defaults: f16 has C0 = 16 elements, a fractal 16 C0 blocks:
// 16 x 16. A 30 x 40 block is padded to 32 x 48: zN
// ((16,2),(16,3)):((16,256),(1,512)), strides 16 (a row of a fractal),
// 256 (a fractal), 1, and 512 = 32 * 16 (a column of fractals).
// (17,20): row 17 = (1,1): 16 + 256; column 20 = (4,1): 4 + 512; 788.
zN(f16, 30, 40)
// nZ of the same block: 16 x 16 fractals stored row-major (Z), each
// column-major (n): strides 1, 768 = 3 fractals, 16, 256.
// (17,20): row (1,1): 1 + 768; column (4,1): 64 + 256; 1089.
nZ(f16, 30, 40)
