// The extension module denoc._denoc (docs/python.md): the robot and its quantities (robot.cpp),
// the simulation (simulate.cpp), and the apps' two kinds of failure as Python exceptions.
#include <pybind11/pybind11.h>

#include "denoc/io/errors.hpp"
#include "denoc/version.hpp"
#include "robot.hpp"

namespace denoc::python {
void bind_simulate(py::module_& m);
}

PYBIND11_MODULE(_denoc, m) {
  namespace py = pybind11;
  m.doc() = "The suite's C++ library; use the package denoc, which wraps it.";
  // Bad input (exit status 2 in the apps) and a failure while computing (exit status 1).
  py::register_exception<denoc::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<denoc::RunError>(m, "ComputeError", PyExc_RuntimeError);
  m.attr("__version__") = DENOC_VERSION;
  denoc::python::bind_robot(m);
  denoc::python::bind_simulate(m);
}
