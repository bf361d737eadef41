# An error at column 1,048,660 of a 1 MB line: reported with the right
# column, and the echoed line is a window around the column, not 1 MB.
string(REPEAT "0123456789abcdef" 65536 big)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --check\nHloModule m ENTRY e { p = f32[4,8] parameter(0), backend_config=\"${big}\" ROOT t = f32[8,4] transpose(p), dimensions={1,1} }\n")
