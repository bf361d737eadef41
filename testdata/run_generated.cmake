# Runs one golden test whose input is generated at test time (inputs too big
# to commit: deep nesting, a 1 MB line, a file beyond the size limit):
#     cmake -DHLOIDX=... -DGEN=DIR/NAME.gen.cmake -DGEN_DIR=... -P run_generated.cmake
#
# NAME.gen.cmake is included with GEN_DIR (an empty folder for it) and
# GEN_NAME (NAME) set; it writes the input file there and sets INPUT to its
# path (and optionally GEN_ARGS, the arguments, instead of an `// ARGS:` line
# in the input). The goldens DIR/NAME.out, .err, .rc are then checked as by
# run_golden.cmake, with hloidx run in GEN_DIR on the generated file; a
# generator that derives the expected output itself (too large to commit:
# a formula per entry) writes it and sets GEN_EXPECTED_OUT to its path.
cmake_minimum_required(VERSION 3.20)

get_filename_component(gen_src_dir "${GEN}" DIRECTORY)
get_filename_component(GEN_NAME "${GEN}" NAME)
string(REGEX REPLACE "\\.gen\\.cmake$" "" GEN_NAME "${GEN_NAME}")
file(REMOVE_RECURSE "${GEN_DIR}")
file(MAKE_DIRECTORY "${GEN_DIR}")
unset(INPUT)
include("${GEN}")
if(NOT DEFINED INPUT OR NOT EXISTS "${INPUT}")
  message(FATAL_ERROR "${GEN} did not generate its input")
endif()
set(GOLDEN "${gen_src_dir}/${GEN_NAME}")
include("${CMAKE_CURRENT_LIST_DIR}/run_golden.cmake")
file(REMOVE_RECURSE "${GEN_DIR}")
