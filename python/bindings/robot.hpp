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

#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"
#include "samples.hpp"

namespace denoc::python {

// What a robot was loaded from: its file's text and the options, so that another process can
// build the same robot (pickle) without the file.
struct RobotSource {
  std::string text;
  std::string format;  // "urdf" or "yaml"
  std::string name;    // the path given, for messages
  std::optional<std::string> base, tip;
  bool floating_base = false;
  std::string inertia_checks = "strict";
  std::vector<std::string> set;  // the overrides, KEY=VALUE
};

// What one thread of a batch evaluates with: its own engine (workspaces), its copy of a floating
// base's q (the quaternion normalised), and a sample's external wrenches.
template <typename Engine>
struct Worker {
  std::unique_ptr<Engine> engine;
  VecX<double> q;
  std::vector<FrameWrench<double>> wrenches;
};

// External wrenches given per frame (wrenches=): the frame, and one wrench for every sample or
// one per sample.
struct WrenchArgument {
  BodyFrame<double> frame;
  Array values;
  py::ssize_t stride;  // 0: the same wrench for every sample; 6: one row per sample
};

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
  // What it was loaded from, as a tuple for pickle: text, format, name, base, tip, floating_base,
  // inertia_checks, set.
  py::tuple source() const;
  // "<denoc.Robot 'name': n=..., nq=..., nv=..., chain|tree, fixed|floating base, FORMAT PATH>"
  std::string repr() const;
  std::vector<std::string> joint_names() const;
  // The frames pose and jacobian take (io/frames.hpp): base, the links, a URDF's fixed links.
  std::vector<std::string> frame_names() const;
  // The robot file's initial q (rates: qd), or zero (a floating base at the origin, unturned).
  py::array_t<double> initial_state(bool rates) const;
  // The robot file's trajectory block sampled as ridim samples it: t, q, qd, qdd.
  py::tuple trajectory() const;

  // A quantity of ridim (its --quantity name) at q, qd, qdd: rows of the entries of docs/csv.md,
  // with `wrenches` ({frame: wrench}, None: none) acting; `threads` as batch_threads takes it.
  py::array_t<double> evaluate(const std::string& quantity,
                               const std::optional<std::string>& algorithm, bool friction,
                               const std::optional<std::string>& frame, Array q,
                               std::optional<Array> qd, std::optional<Array> qdd,
                               const py::object& wrenches, int threads);
  // With loops (docs/loops.md): every joint's q from the actuated joints' (rows (f,) or (N, f)),
  // each row assembled from the last (the first from the file's initial q).
  py::array_t<double> assemble(Array q_actuated) const;
  // qdd at q, qd, tau (ForwardDynamics).
  py::array_t<double> forward(const std::optional<std::string>& algorithm, bool friction, Array q,
                              Array qd, Array tau, int threads);
  // The operations of one evaluation (docs/operation-counts.md), of `frame` where the quantity
  // has one, as a dict.
  py::dict count(const std::string& quantity, const std::optional<std::string>& algorithm, Array q,
                 Array qd, Array qdd, const std::optional<std::string>& frame);

  Route route(const std::string& name) const;

 private:
  // evaluate for a robot with loops: the actuated joints' q, qd, qdd, sample after sample.
  py::array_t<double> evaluate_closed(Quantity quantity,
                                      const std::optional<std::string>& algorithm, bool friction,
                                      const std::optional<std::string>& frame, Array q,
                                      std::optional<Array> qd, std::optional<Array> qdd);
  using QuantityKey = std::tuple<int, int, bool, std::string>;
  // The workers of a quantity, `count` of them built (at their first use).
  std::vector<Worker<SampleQuantities>>& quantities(Quantity quantity,
                                                    const std::optional<std::string>& algorithm,
                                                    bool friction,
                                                    const std::optional<std::string>& frame,
                                                    int count);
  std::vector<Worker<ForwardDynamics>>& forward_workers(Route route, bool friction, int count);
  // q of sample k, a floating base's quaternion normalised into `buffer`.
  ConstVectorRef<double> coordinates(const Samples& q, py::ssize_t k, bool batch,
                                     VecX<double>& buffer) const;
  Eigen::Index floating_forces_width(const Array& tau) const;
  std::vector<WrenchArgument> wrench_arguments(const py::object& wrenches,
                                               const Shape& shape) const;

  RobotSource source_;
  RobotFile file_;
  std::mutex workspaces_;  // held while a call computes (the GIL released)
  std::map<QuantityKey, std::vector<Worker<SampleQuantities>>> quantities_;
  std::map<std::tuple<int, bool>, std::vector<Worker<ForwardDynamics>>> forward_;
  VecX<double> zeros_;
};

void bind_robot(py::module_& m);

}  // namespace denoc::python
