# The Python module's dependencies, from Debian's packages (pybind11-dev, python3-dev,
# python3-numpy): DENOC_PYTHON=AUTO builds the module when they are found, ON requires them, OFF
# leaves it out. Not in the fuzzing build. In the sanitizer build an uninstrumented python3 loads
# the instrumented module with the sanitizers' runtime preloaded (DENOC_SANITIZER_RUNTIME, for
# the tests' LD_PRELOAD); without that runtime the module is left out. Sets DENOC_WITH_PYTHON.
set(DENOC_WITH_PYTHON OFF)
if(DENOC_PYTHON STREQUAL "ON")
  set(denoc_python_required REQUIRED)
elseif(NOT DENOC_PYTHON STREQUAL "AUTO" OR DENOC_FUZZ)
  return()
endif()
if(DENOC_SANITIZE)
  # clang's AddressSanitizer runtime holds UndefinedBehaviorSanitizer's; g++ has two.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(denoc_runtimes libclang_rt.asan-x86_64.so)
  else()
    set(denoc_runtimes libasan.so libubsan.so)
  endif()
  set(DENOC_SANITIZER_RUNTIME "")
  foreach(runtime ${denoc_runtimes})
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${runtime}
      OUTPUT_VARIABLE denoc_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${denoc_runtime}" OR NOT EXISTS "${denoc_runtime}")
      message(STATUS "Python module denoc: OFF (no ${runtime} to preload under the sanitizers)")
      return()
    endif()
    list(APPEND DENOC_SANITIZER_RUNTIME ${denoc_runtime})
  endforeach()
  string(REPLACE ";" ":" DENOC_SANITIZER_RUNTIME "${DENOC_SANITIZER_RUNTIME}")
endif()
# Debian's python3 first (/usr/bin ahead of PATH, as the tests find it), whose dist-packages hold
# its numpy and pytest.
find_program(DENOC_PYTHON3 python3 HINTS /usr/bin)
if(NOT DEFINED Python3_EXECUTABLE AND DENOC_PYTHON3)
  set(Python3_EXECUTABLE ${DENOC_PYTHON3})
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module ${denoc_python_required})
if(Python3_FOUND)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 CONFIG ${denoc_python_required})
endif()
if(Python3_FOUND AND pybind11_FOUND)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy"
    RESULT_VARIABLE denoc_numpy_missing OUTPUT_QUIET ERROR_QUIET)
  if(denoc_numpy_missing AND denoc_python_required)
    message(FATAL_ERROR "DENOC_PYTHON=ON: ${Python3_EXECUTABLE} cannot import numpy "
      "(install python3-numpy)")
  endif()
  if(NOT denoc_numpy_missing)
    set(DENOC_WITH_PYTHON ON)
  endif()
endif()
if(DENOC_WITH_PYTHON)
  message(STATUS "Python module denoc: ON (for ${Python3_EXECUTABLE})")
else()
  message(STATUS "Python module denoc: OFF (DENOC_PYTHON=${DENOC_PYTHON})")
endif()
