# ctest: installs the suite from BUILD into a scratch prefix, configures and builds
# tests/consumer against it with find_package(denoc), and runs the result.
#   cmake -DBUILD=... -DSOURCE=... -DWORK=... -DROBOT=... -DURDF=... -P run.cmake
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
step(${WORK}/build/consumer ${ROBOT} ${URDF})
step(${WORK}/prefix/bin/ridim --version)
# The same program compiled as a user's controller may be, against the same installed library:
# for a newer CPU, and with AddressSanitizer. The package carries Eigen's layout of the library's
# build (cmake/denoc_eigen_abi.cmake); without it both crash. The AVX2 build runs only on a CPU
# that has it.
file(READ /proc/cpuinfo cpuinfo)
set(v3_runs FALSE)
if(cpuinfo MATCHES " avx2 " AND cpuinfo MATCHES " fma " AND cpuinfo MATCHES " bmi2 ")
  set(v3_runs TRUE)
endif()
foreach(variant x86-64-v3 asan)
  if(variant STREQUAL "asan")
    set(flags "-fsanitize=address -fno-omit-frame-pointer")
  else()
    set(flags "-march=x86-64-v3")
  endif()
  step(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build-${variant} -DCMAKE_PREFIX_PATH=${WORK}/prefix
       -DCMAKE_BUILD_TYPE=Release -DDENOC_CONSUMER_ALL_HEADERS=OFF "-DCMAKE_CXX_FLAGS=${flags}")
  step(${CMAKE_COMMAND} --build ${WORK}/build-${variant})
  if(variant STREQUAL "x86-64-v3" AND NOT v3_runs)
    message("not run: this CPU lacks AVX2, FMA or BMI2 (x86-64-v3)")
  else()
    step(${WORK}/build-${variant}/consumer ${ROBOT} ${URDF})
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
