// ARGS: --shape-stride folder
// --shape-stride reads files of layouts: a folder among its inputs is an
// error (exit status 1); the other inputs are still read (this file's
// layout below).
(2,2):(1,2)
