# kdesched_add_plugin(<target> <sources>...)
# Builds a kdesched plugin library: a MODULE linked against the SDK only, exporting nothing but
# the kdesched_module entry point (hidden visibility), with -fno-gnu-unique so that unloading it
# really unmaps it.
function(kdesched_add_plugin target)
  add_library(${target} MODULE ${ARGN})
  target_link_libraries(${target} PRIVATE kdesched::sdk)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -fno-gnu-unique)
  endif()
endfunction()
