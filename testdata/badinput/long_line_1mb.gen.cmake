# A whole module on one line of more than 1 MB (a 1 MB backend_config
# string): accepted, the maps are printed as usual.
string(REPEAT "0123456789abcdef" 65536 big)
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
file(WRITE "${INPUT}" "// ARGS: --direction=out2in\nHloModule m ENTRY e { p = f32[4,8] parameter(0), backend_config=\"${big}\" ROOT t = f32[8,4] transpose(p), dimensions={1,0} }\n")
