# cmake --install into a fresh prefix installs bin/hloidx (which runs and
# names its commit), the man page and the bash completion, and nothing else:
#     cmake -DBUILD=... -DPREFIX=SCRATCH -P install_check.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install: exit status ${rc}\n${out}${err}")
endif()
file(GLOB_RECURSE installed RELATIVE "${PREFIX}" "${PREFIX}/*")
list(SORT installed)
set(want "bin/hloidx;share/bash-completion/completions/hloidx;share/man/man1/hloidx.1")
if(NOT installed STREQUAL want)
  message(FATAL_ERROR "installed: ${installed}\nexpected: ${want}")
endif()
execute_process(COMMAND "${PREFIX}/bin/hloidx" --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^hloidx [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit ([0-9a-f]+(-dirty)?|unknown)\\)\n$")
  message(FATAL_ERROR "installed hloidx --version: exit status ${rc}, '${version}'")
endif()
file(REMOVE_RECURSE "${PREFIX}")
