// The extension module denoc._denoc (docs/python.md): the robot and its quantities (robot.cpp),
// the simulation (simulate.cpp), and the apps' two kinds of failure as Python exceptions.
#include <pybind11/pybind11.h>

#include "denoc/io/errors.hpp"
#include "denoc/version.hpp"
#include "robot.hpp"
#include "wording.hpp"

namespace denoc::python {
void bind_simulate(py::module_& m);
}

PYBIND11_MODULE(_denoc, m) {
  namespace py = pybind11;
  m.doc() = "The suite's C++ library; use the package denoc, which wraps it.";
  // Bad input (exit status 2 in the apps) and a failure while computing (exit status 1), their
  // messages naming keyword arguments where the apps name options (errors.hpp).
  static py::exception<denoc::InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<denoc::RunError> compute_error(m, "ComputeError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const denoc::InputError& e) {
      input_error(e.worded(denoc::python::python_words).c_str());
    } catch (const denoc::RunError& e) {
      compute_error(e.worded(denoc::python::python_words).c_str());
    }
  });
  m.attr("__version__") = DENOC_VERSION;
  denoc::python::bind_robot(m);
  denoc::python::bind_simulate(m);
}
