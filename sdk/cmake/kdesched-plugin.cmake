# kdesched_add_plugin(<target> <sources>...)
# Builds a kdesched plugin library: a MODULE linked against the SDK only, exporting nothing but
# the kdesched_module entry point (hidden visibility), with -fno-gnu-unique so that unloading it
# really unmaps it. When the variable KDESCHED_TARGET_API_MINOR is set (-D on the command line or
# set() before the call), the plugin targets that host API minor (kdesched_target_api below).
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
  if(NOT "${KDESCHED_TARGET_API_MINOR}" STREQUAL "")
    kdesched_target_api(${target} ${KDESCHED_TARGET_API_MINOR})
  endif()
endfunction()

# kdesched_target_api(<target> <minor>)
# The oldest host the plugin is for: its module claims plugin API 1.<minor>, so every kdesched
# host of that minor or newer loads it, and the SDK members newer hosts added without a fallback
# do not compile (plugin.hpp says which). Without it a plugin claims the SDK's own minor, and a
# host older than the SDK refuses it — whatever find_package asked for.
function(kdesched_target_api target minor)
  if(NOT minor MATCHES "^[0-9]+$")
    message(FATAL_ERROR "kdesched_target_api(${target} ${minor}): the minor is a number, e.g. 0 for API 1.0")
  endif()
  target_compile_definitions(${target} PRIVATE KDESCHED_TARGET_API_MINOR=${minor})
endfunction()
