# The C++ sources follow .clang-format (Google style, 100 columns): clang-format --dry-run
# --Werror over every tracked .cpp/.hpp of the core, CLI, binding, tests and benchmarks.
# Fix with: clang-format -i $(git ls-files '*.cpp' '*.hpp')
file(GLOB_RECURSE sources ${ROOT}/core/*.cpp ${ROOT}/core/*.hpp ${ROOT}/cli/*.cpp ${ROOT}/wasm/*.cpp
     ${ROOT}/tests/*.cpp ${ROOT}/tests/*.hpp ${ROOT}/bench/*.cpp)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources}
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  string(SUBSTRING "${errors}" 0 4000 shown)
  message(FATAL_ERROR "clang-format: sources differ from .clang-format:\n${shown}")
endif()
list(LENGTH sources n)
message(STATUS "clang-format: ${n} files clean")
