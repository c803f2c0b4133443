# cp_set_warnings(<target>): the project's warning set, applied per target so that
# third-party code (moc output, generated embeds) is not held to it.
function(cp_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
      -Wcast-align -Woverloaded-virtual -Wdouble-promotion
      -Wimplicit-fallthrough)
    if(CLUSTERPLAN_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
