// ARGS: --shape-stride
// Control bytes the HLO lexer skips as blanks (\v, \f) are echoed escaped.
f32[2,2]
f32[3]
