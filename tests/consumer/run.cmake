# ctest: installs the suite from BUILD into a scratch prefix, configures and builds
# tests/consumer against it with find_package(denoc), and runs the result.
#   cmake -DBUILD=... -DSOURCE=... -DWORK=... -DROBOT=... -P run.cmake
file(REMOVE_RECURSE ${WORK})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "failed (${status}): ${shown}\n${out}")
  endif()
  message("${out}")
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
foreach(file bin/ridim bin/rfdsim bin/sweep lib/libdenoc.a include/denoc/denoc.hpp include/denoc/version.hpp
             include/denoc/io/robot_file.hpp lib/cmake/denoc/denocConfig.cmake
             share/man/man1/ridim.1 share/man/man1/rfdsim.1 share/man/man1/sweep.1)
  if(NOT EXISTS ${WORK}/prefix/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
# The command line (CLI11, the apps' code in apps/cli) stays out of the installed headers: the
# package does not find CLI11, and apps/cli is not installed.
file(GLOB_RECURSE installed_headers ${WORK}/prefix/include/denoc/*.hpp)
foreach(header IN LISTS installed_headers)
  file(STRINGS ${header} includes REGEX "^#include")
  foreach(line IN LISTS includes)
    if(line MATCHES "CLI/|\"cli/|denoc/apps/|progress.hpp|signals.hpp")
      message(FATAL_ERROR "${header} includes the command line: ${line}")
    endif()
  endforeach()
endforeach()
if(EXISTS ${WORK}/prefix/include/denoc/apps)
  message(FATAL_ERROR "installed: include/denoc/apps (the apps' code is not the library's)")
endif()
step(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -DCMAKE_PREFIX_PATH=${WORK}/prefix
     -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK}/build)
step(${WORK}/build/consumer ${ROBOT})
step(${WORK}/prefix/bin/ridim --version)
file(REMOVE_RECURSE ${WORK})
