// denoc.Robot's C++ side (docs/python.md); the Python class in python/denoc/__init__.py gives
// it its methods' names, shapes and docstrings.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "denoc/io/robot_file.hpp"
#include "denoc/quantities.hpp"
#include "samples.hpp"

namespace denoc::python {

class Robot {
 public:
  // Loads the file as the apps do (load_robot_file): base and tip choose a URDF's chain, set holds
  // --set overrides; InputError naming the file and the key.
  Robot(const std::string& path, const std::optional<std::string>& base,
        const std::optional<std::string>& tip, bool floating_base,
        const std::string& inertia_checks, const py::object& set);
  // The same from the text of a robot file ("urdf" or "yaml"); `name` names it in messages.
  Robot(const std::string& text, const std::string& format, const std::string& name,
        const std::optional<std::string>& base, const std::optional<std::string>& tip,
        bool floating_base, const std::string& inertia_checks, const py::object& set);

  const RobotFile& file() const { return file_; }
  // "<denoc.Robot 'name': n=..., nq=..., nv=..., chain|tree, fixed|floating base, FORMAT PATH>"
  std::string repr() const;
  std::vector<std::string> joint_names() const;
  // The frames pose and jacobian take (io/frames.hpp): base, the links, a URDF's fixed links.
  std::vector<std::string> frame_names() const;
  // The robot file's initial q (rates: qd), or zero (a floating base at the origin, unturned).
  py::array_t<double> initial_state(bool rates) const;
  // The robot file's trajectory block sampled as ridim samples it: t, q, qd, qdd.
  py::tuple trajectory() const;

  // A quantity of ridim (its --quantity name) at q, qd, qdd: rows of the entries of docs/csv.md.
  py::array_t<double> evaluate(const std::string& quantity,
                               const std::optional<std::string>& algorithm, bool friction,
                               const std::optional<std::string>& frame, Array q,
                               std::optional<Array> qd, std::optional<Array> qdd);
  // qdd at q, qd, tau (ForwardDynamics).
  py::array_t<double> forward(const std::optional<std::string>& algorithm, bool friction, Array q,
                              Array qd, Array tau);
  // The operations of one evaluation (docs/operation-counts.md), as a dict.
  py::dict count(const std::string& quantity, const std::optional<std::string>& algorithm, Array q,
                 Array qd, Array qdd);

  Route route(const std::string& name) const;

 private:
  SampleQuantities& quantities(Quantity quantity, const std::optional<std::string>& algorithm,
                               bool friction, const std::optional<std::string>& frame);
  ConstVectorRef<double> coordinates(const Samples& q, py::ssize_t k, bool batch);
  Eigen::Index floating_forces_width(const Array& tau) const;

  RobotFile file_;
  std::mutex workspaces_;  // held while a call computes (the GIL released)
  std::map<std::tuple<int, int, bool, std::string>, std::unique_ptr<SampleQuantities>> quantities_;
  std::map<std::tuple<int, bool>, std::unique_ptr<ForwardDynamics>> forward_;
  VecX<double> q_;  // a floating base's q, its quaternion normalised
  VecX<double> zeros_;
};

void bind_robot(py::module_& m);

}  // namespace denoc::python
