# cp_set_warnings(<target>): the project's warning set, applied per target so that
# third-party code (moc output, generated embeds) is not held to it.
function(cp_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
      -Wcast-align -Woverloaded-virtual -Wdouble-promotion
      -Wimplicit-fallthrough)
    # GCC 12 reports -Wrestrict inside libstdc++'s operator+(const char*, std::string&&)
    # at -O2 (GCC bug 105329, fixed in 13); it is not about our code, and -Werror would
    # otherwise reject ordinary string concatenation.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(CLUSTERPLAN_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
