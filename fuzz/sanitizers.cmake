# Included by the top-level CMakeLists.txt when SENET_FUZZ is ON: every library is compiled
# with libFuzzer's coverage instrumentation, AddressSanitizer and UndefinedBehaviorSanitizer
# (any undefined behaviour aborts, so the fuzzer reports it as a crash).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SENET_FUZZ needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++-14); this is ${CMAKE_CXX_COMPILER_ID}")
endif()
set(SENET_SANITIZE -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_compile_options(-fsanitize=fuzzer-no-link ${SENET_SANITIZE} -g)
add_link_options(${SENET_SANITIZE})
# No link-time optimisation: clang's needs lld or the gold plugin, and it adds nothing here.
set(CMAKE_INTERPROCEDURAL_OPTIMIZATION OFF)
