# --shape-stride: brackets nested 65 deep in an argument (a coalesce
# profile, which is no layout and has no depth limit of its own), one over
# the reader's SS_READ_MAX_NESTING (64), each '(' of a tuple and of a call
# one level: rejected at the profile's 64th '(' (the call's '(' is the
# first level), column 22 + 64.
string(REPEAT "(" 64 open)
string(REPEAT ")" 64 close)
set(INPUT "${GEN_DIR}/${GEN_NAME}.ss")
file(WRITE "${INPUT}" "// ARGS: --shape-stride\ncoalesce((2,2):(1,2), ${open}_${close})\n")
