# Orocos KDL from Debian (liborocos-kdl-dev) as the imported target denoc_kdl, for the benchmarks
# and the tree tests. Debian's orocos_kdl-config.cmake defines only variables (orocos_kdl_LIBRARIES
# = orocos-kdl, a bare library name), no imported target; make one. Fall back to pkg-config.
# Sets DENOC_KDL_FOUND. With REQUIRED, a missing KDL is an error.
function(denoc_find_kdl)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "REQUIRED" "" "")
  if(TARGET denoc_kdl)
    set(DENOC_KDL_FOUND TRUE PARENT_SCOPE)
    return()
  endif()
  find_package(orocos_kdl CONFIG QUIET)
  find_path(DENOC_KDL_INCLUDE_DIR kdl/chain.hpp HINTS ${orocos_kdl_INCLUDE_DIRS})
  find_library(DENOC_KDL_LIBRARY NAMES orocos-kdl ${orocos_kdl_LIBRARIES})
  if(DENOC_KDL_INCLUDE_DIR AND DENOC_KDL_LIBRARY)
    add_library(denoc_kdl INTERFACE IMPORTED GLOBAL)
    set_target_properties(denoc_kdl PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${DENOC_KDL_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${DENOC_KDL_LIBRARY};Eigen3::Eigen")
  else()
    find_package(PkgConfig)
    if(PkgConfig_FOUND)
      pkg_check_modules(OROCOS_KDL QUIET IMPORTED_TARGET GLOBAL orocos-kdl)
    endif()
    if(NOT OROCOS_KDL_FOUND)
      if(ARG_REQUIRED)
        message(FATAL_ERROR "Orocos KDL not found: scripts/install-deps installs liborocos-kdl-dev")
      endif()
      set(DENOC_KDL_FOUND FALSE PARENT_SCOPE)
      return()
    endif()
    add_library(denoc_kdl INTERFACE IMPORTED GLOBAL)
    set_target_properties(denoc_kdl PROPERTIES
      INTERFACE_LINK_LIBRARIES "PkgConfig::OROCOS_KDL;Eigen3::Eigen")
  endif()
  message(STATUS "denoc: KDL ${DENOC_KDL_LIBRARY} ${orocos_kdl_VERSION}")
  set(DENOC_KDL_FOUND TRUE PARENT_SCOPE)
endfunction()
