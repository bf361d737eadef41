# Included by released_text_*.gen.cmake (MODE list or errors).
# Text read again after its pages were given back (source_release): a file
# over 256 KiB is mapped, and each module's text is released once it is
# parsed. Two modules: the first of 12,000 negates (about 330 KB), the
# second small. --list names every instruction's line, counted over the
# released text; --operand=7 fails at each root (failing_block.hlo), and
# each error echoes its line, read from a released page.
set(INPUT "${GEN_DIR}/${GEN_NAME}.hlo")
set(N 12000)
set(text "HloModule big\nENTRY e {\n  p = f32[3] parameter(0)\n")
set(want_list "p\tparameter\tf32[3]\te\t${GEN_NAME}.hlo:3\n")
math(EXPR last "${N} - 1")
foreach(i RANGE 0 ${last})
  string(APPEND text "  n${i} = f32[3] negate(p)\n")
  math(EXPR line "${i} + 4")
  string(APPEND want_list "n${i}\tnegate\tf32[3]\te\t${GEN_NAME}.hlo:${line}\n")
endforeach()
# lines: 1 HloModule, 2 ENTRY, 3 p, 4 .. N + 3 the negates, then r
math(EXPR r1 "${N} + 4")
math(EXPR m2 "${N} + 7")
math(EXPR p2 "${m2} + 2")
math(EXPR r2 "${m2} + 3")
string(APPEND text "  ROOT r = f32[3] negate(n${last})\n}\n// -----\nHloModule small\nENTRY e {\n  q = f32[3] parameter(0)\n  ROOT s = f32[3] negate(q)\n}\n")
string(APPEND want_list "r\tnegate\tf32[3]\te\t${GEN_NAME}.hlo:${r1}\n")
string(APPEND want_list "q\tparameter\tf32[3]\te\t${GEN_NAME}.hlo:${p2}\n")
string(APPEND want_list "s\tnegate\tf32[3]\te\t${GEN_NAME}.hlo:${r2}\n")
file(WRITE "${INPUT}" "${text}")
if(MODE STREQUAL "list")
  set(GEN_ARGS --list)
  set(GEN_EXPECTED_OUT "${GEN_DIR}/expected.out")
  file(WRITE "${GEN_EXPECTED_OUT}" "${want_list}")
else()
  set(GEN_ARGS --operand=7) # (expected: released_text_errors.err, lines 12004 and 12010)
endif()
