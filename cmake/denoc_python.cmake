# The Python module's dependencies, from Debian's packages (pybind11-dev, python3-dev,
# python3-numpy): DENOC_PYTHON=AUTO builds the module when they are found, ON requires them, OFF
# leaves it out. Not in the sanitizer and fuzzing builds (an instrumented module cannot be loaded
# by an uninstrumented python3). Sets DENOC_WITH_PYTHON.
set(DENOC_WITH_PYTHON OFF)
if(DENOC_PYTHON STREQUAL "ON")
  set(denoc_python_required REQUIRED)
elseif(NOT DENOC_PYTHON STREQUAL "AUTO" OR DENOC_SANITIZE OR DENOC_FUZZ)
  return()
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
message(STATUS "Python module denoc: ${DENOC_WITH_PYTHON} (DENOC_PYTHON=${DENOC_PYTHON})")
