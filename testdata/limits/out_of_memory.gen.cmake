# Out of memory: 100,000 instructions (3 MB of text, whose IR and maps need
# several times that) analysed under `ulimit -v 16384` (16 MiB; hloidx
# itself starts in about 4 MiB). The failing allocation, wherever it is,
# ends the run with `hloidx: error: FILE: out of memory` and exit status 1,
# like an unreadable input. Not registered in sanitizer builds, whose
# shadow memory needs far more address space than any useful limit.
set(GEN_ULIMIT_V 16384)
set(block "")
foreach(i RANGE 999)
  string(APPEND block "  @${i} = f32[8,8] add(p, p)\n")
endforeach()
set(text "HloModule big\nENTRY e {\n  p = f32[8,8] parameter(0)\n")
foreach(k RANGE 99)
  string(REPLACE "@" "a${k}_" b "${block}")
  string(APPEND text "${b}")
endforeach()
string(APPEND text "  ROOT r = f32[8,8] add(p, p)\n}\n")
set(INPUT "${GEN_DIR}/big.hlo")
file(WRITE "${INPUT}" "${text}")
set(GEN_ARGS "") # the ENTRY root: the parse alone runs out of memory, nothing is printed
