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
foreach(file bin/ridim bin/rfdsim bin/sweep include/denoc/denoc.hpp include/denoc/version.hpp
             include/denoc/io/robot_file.hpp lib/cmake/denoc/denocConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
step(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -DCMAKE_PREFIX_PATH=${WORK}/prefix
     -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK}/build)
step(${WORK}/build/consumer ${ROBOT})
step(${WORK}/prefix/bin/ridim --version)
file(REMOVE_RECURSE ${WORK})
