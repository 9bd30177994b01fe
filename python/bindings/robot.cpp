// denoc.Robot (docs/python.md): a robot file loaded as the apps load it, and the quantities of
// SampleQuantities (denoc/engine/quantities.hpp) and ForwardDynamics evaluated on one sample or a
// batch. Each robot keeps, per quantity and route, one workspace per thread a batch has used, built
// at its first use and locked while a call runs, so that Python threads may share a robot.
#include "robot.hpp"

#include <pybind11/stl.h>

#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/count_quantity.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/overrides.hpp"
#include "denoc/io/urdf.hpp"
#include "wording.hpp"

namespace denoc::python {

namespace {

// set=: a dict {key: value} or a list of "KEY=VALUE" strings, as --set takes them
// (docs/batches.md); a number is written as Python's repr writes it, which reads back exactly.
std::vector<Override> overrides_of(const py::object& set) {
  std::vector<Override> overrides;
  if (set.is_none()) return overrides;
  auto text_of = [](const py::handle& value) {
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    return py::repr(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  };
  if (py::isinstance<py::dict>(set)) {
    for (const auto& [key, value] : set.cast<py::dict>())
      overrides.push_back(parse_override(key.cast<std::string>() + "=" + text_of(value)));
    return overrides;
  }
  for (const py::handle& item : set)
    overrides.push_back(parse_override(item.cast<std::string>()));
  return overrides;
}

ChainSelection chain_of(const std::optional<std::string>& base,
                        const std::optional<std::string>& tip, bool floating_base,
                        const std::string& inertia_checks) {
  if (inertia_checks != "strict" && inertia_checks != "warn")
    throw InputError("inertia_checks: '" + inertia_checks + "' is not one of strict, warn");
  return {base.value_or(""), tip.value_or(""), inertia_checks == "warn", floating_base};
}

// A robot file's text as `format` says ("urdf", "yaml", or "" to tell by its content as
// load_robot_file does), as load_robot_file reads a file.
RobotFile robot_from_text(const std::string& text, const std::string& format,
                          const std::string& name, const std::vector<Override>& overrides,
                          const ChainSelection& chain) {
  if (format == "urdf") {
    RobotFile robot = parse_urdf(text, name, chain);
    apply_overrides(robot, overrides, chain.inertia_checks_warn);
    return robot;
  }
  if (format != "yaml" && !format.empty())
    throw InputError("format: '" + format + "' is not one of urdf, yaml");
  return parse_robot_file(text, name, overrides, chain);
}

}  // namespace

Robot::Robot(const std::string& path, const std::optional<std::string>& base,
             const std::optional<std::string>& tip, bool floating_base,
             const std::string& inertia_checks, const py::object& set)
    : Robot(read_robot_text(path), "", path, base, tip, floating_base, inertia_checks, set) {}

Robot::Robot(const std::string& text, const std::string& format, const std::string& name,
             const std::optional<std::string>& base, const std::optional<std::string>& tip,
             bool floating_base, const std::string& inertia_checks, const py::object& set)
    : source_{text, format, name, base, tip, floating_base, inertia_checks, {}} {
  const std::vector<Override> overrides = overrides_of(set);
  for (const Override& o : overrides)
    source_.set.push_back(o.key + "=" + o.value);
  file_ = robot_from_text(text, format, name, overrides,
                          chain_of(base, tip, floating_base, inertia_checks));
  source_.format = file_.format;
  zeros_ = VecX<double>::Zero(file_.model.nv());
}

py::tuple Robot::source() const {
  const RobotSource& s = source_;
  return py::make_tuple(py::bytes(s.text), s.format, s.name, s.base, s.tip, s.floating_base,
                        s.inertia_checks, s.set);
}

std::vector<std::string> Robot::frame_names() const {
  std::vector<std::string> names = file_.link_names;
  for (const RobotFile::LinkFrame& f : file_.fixed_link_frames)
    names.push_back(f.name);
  if (!file_.tip_link.empty() && std::count(names.begin(), names.end(), file_.tip_link) == 0)
    names.push_back(file_.tip_link);
  if (std::count(names.begin(), names.end(), "base") == 0) names.insert(names.begin(), "base");
  return names;
}

std::string Robot::repr() const {
  const Model<double>& m = file_.model;
  return "<denoc.Robot '" + file_.name + "': n=" + std::to_string(m.dof()) +
         ", nq=" + std::to_string(m.nq()) + ", nv=" + std::to_string(m.nv()) + ", " +
         (m.is_chain() ? "chain" : "tree") + ", " + (m.floating() ? "floating" : "fixed") +
         " base, " + (file_.format == "urdf" ? "URDF " : "robot YAML ") + file_.path + ">";
}

std::vector<std::string> Robot::joint_names() const {
  std::vector<std::string> names;
  for (int i = 0; i < file_.dof(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (k < file_.joint_names.size() && !file_.joint_names[k].empty()) {
      names.push_back(file_.joint_names[k]);
    } else if (k < file_.link_names.size() && !file_.link_names[k].empty()) {
      names.push_back(file_.link_names[k]);
    } else {
      names.push_back("joint" + std::to_string(i + 1));
    }
  }
  return names;
}

// The width of each sample of tau: n, or with a floating base n or 6 + n as given; InputError
// naming both widths when a floating base's tau has neither.
Eigen::Index Robot::floating_forces_width(const Array& tau) const {
  const Eigen::Index n = file_.dof(), nv = file_.model.nv();
  if (!file_.model.floating()) return n;
  const py::ssize_t given = tau.ndim() >= 1 ? tau.shape(tau.ndim() - 1) : -1;
  if ((tau.ndim() == 1 || tau.ndim() == 2) && (given == n || given == nv)) return given;
  std::string shape;
  for (py::ssize_t d = 0; d < tau.ndim(); ++d)
    shape += (d ? ", " : "") + std::to_string(tau.shape(d));
  throw InputError("tau: shape (" + shape + (tau.ndim() == 1 ? ",)" : ")") + "; expected (" +
                   std::to_string(n) + ",) or (N, " + std::to_string(n) +
                   ") for the joints' forces, or (" + std::to_string(nv) + ",) or (N, " +
                   std::to_string(nv) + ") for the base's wrench and the joints' forces");
}

Route Robot::route(const std::string& name) const {
  return find_name(route_names(), name, "algorithm");
}

// q of sample k, with a floating base's quaternion checked and normalised as ridim does
// (docs/floating-base.md), into `buffer`.
ConstVectorRef<double> Robot::coordinates(const Samples& q, py::ssize_t k, bool batch,
                                          VecX<double>& buffer) const {
  if (!file_.model.floating()) return q.row(k);
  buffer = q.row(k);
  normalise_base_quaternion(buffer, batch ? "q: sample " + std::to_string(k) : "q");
  return buffer;
}

std::vector<Worker<SampleQuantities>>& Robot::quantities(
    Quantity quantity, const std::optional<std::string>& algorithm, bool friction,
    const std::optional<std::string>& frame, int count) {
  const std::optional<Route> chosen =
      algorithm ? std::optional<Route>(route(*algorithm)) : std::nullopt;
  const Route r = choose_route(quantity, chosen, file_);
  const QuantitySettings settings{friction, false,
                                  choose_frame(quantity, frame.value_or(""), false, file_)};
  std::vector<Worker<SampleQuantities>>& workers = quantities_[std::make_tuple(
      static_cast<int>(quantity), static_cast<int>(r), friction, frame.value_or(""))];
  while (static_cast<int>(workers.size()) < count)
    workers.push_back({std::make_unique<SampleQuantities>(file_, quantity, r, settings), {}, {}});
  return workers;
}

std::vector<Worker<ForwardDynamics>>& Robot::forward_workers(Route route, bool friction,
                                                             int count) {
  std::vector<Worker<ForwardDynamics>>& workers =
      forward_[std::make_tuple(static_cast<int>(route), friction)];
  while (static_cast<int>(workers.size()) < count)
    workers.push_back({std::make_unique<ForwardDynamics>(file_, route, friction), {}, {}});
  return workers;
}

// wrenches=: {frame: [fx, fy, fz, nx, ny, nz]} (one for every sample) or {frame: (N, 6)} (one per
// sample), in the base frame (the world frame with a floating base), at the frame's origin.
std::vector<WrenchArgument> Robot::wrench_arguments(const py::object& wrenches,
                                                    const Shape& shape) const {
  std::vector<WrenchArgument> arguments;
  if (wrenches.is_none()) return arguments;
  if (!py::isinstance<py::dict>(wrenches))
    throw InputError(
        "wrenches: expected a dict {frame: wrench}, a wrench [fx, fy, fz, nx, ny, nz]");
  for (const auto& [key, value] : wrenches.cast<py::dict>()) {
    const std::string name = py::str(key).cast<std::string>();
    Array values = Array::ensure(value);
    const std::string what = "wrenches['" + name + "']";
    const bool one = values && values.ndim() == 1 && values.shape(0) == 6;
    const bool each = values && values.ndim() == 2 && values.shape(1) == 6 && shape.batch &&
                      values.shape(0) == shape.count;
    if (!one && !each) {
      throw InputError(what + ": expected a wrench of shape (6,) (fx, fy, fz, nx, ny, nz)" +
                       (shape.batch ? " or (" + std::to_string(shape.count) + ", 6), one per sample"
                                    : std::string()));
    }
    const Samples check{what.c_str(), values, 6};
    check_samples({&check});  // finite
    arguments.push_back({find_frame(file_, name), std::move(values), one ? 0 : 6});
  }
  return arguments;
}

py::array_t<double> Robot::evaluate(const std::string& quantity_text,
                                    const std::optional<std::string>& algorithm, bool friction,
                                    const std::optional<std::string>& frame, Array q_array,
                                    std::optional<Array> qd_array, std::optional<Array> qdd_array,
                                    const py::object& wrenches_given, int threads) {
  const Quantity quantity = find_name(quantity_names(), quantity_text, "quantity");
  if (file_.has_loops()) {
    if (!wrenches_given.is_none())
      throw InputError("wrenches: do not apply to a robot with loops (docs/loops.md)");
    return evaluate_closed(quantity, algorithm, friction, frame, std::move(q_array),
                           std::move(qd_array), std::move(qdd_array));
  }
  if (needs_loops(quantity))
    throw InputError("quantity '" + quantity_text +
                     "' is of a robot with loops (docs/loops.md); this one has none");
  const Samples q{"q", std::move(q_array), file_.model.nq()};
  const Samples qd{"qd", qd_array ? std::move(*qd_array) : Array(), file_.model.nv()};
  const Samples qdd{"qdd", qdd_array ? std::move(*qdd_array) : Array(), file_.model.nv()};
  const Shape shape = qdd_array  ? check_samples({&q, &qd, &qdd})
                      : qd_array ? check_samples({&q, &qd})
                                 : check_samples({&q});
  const std::vector<WrenchArgument> wrenches = wrench_arguments(wrenches_given, shape);
  const int workers = batch_threads(shape, threads);
  const std::unique_lock<std::mutex> lock = lock_workspaces(workspaces_);
  std::vector<Worker<SampleQuantities>>& pool =
      quantities(quantity, algorithm, friction, frame, workers);
  const Eigen::Index width = pool.front().engine->size();
  py::array_t<double> out = rows_array(shape, width);
  double* rows = out.mutable_data();
  // The rates a quantity does not take are zeros_ for every sample (stride 0).
  const auto rates = [this](const Samples& given, bool present) {
    return present ? Strided<const double>{given.array.data(), given.width}
                   : Strided<const double>{zeros_.data(), 0};
  };
  const Strided<const double> qd_rows = rates(qd, qd_array.has_value()),
                              qdd_rows = rates(qdd, qdd_array.has_value());
  // A floating base's quaternion is normalised into a copy, one sample a call (no packs for it),
  // and so are samples with wrenches.
  const bool floating = file_.model.floating();
  const int per_call = wrenches.empty() ? pool.front().engine->samples_per_call() : 1;
  for_each_call(shape, per_call, workers, [&](int w, py::ssize_t k, int count) {
    Worker<SampleQuantities>& worker = pool[static_cast<std::size_t>(w)];
    if (wrenches.empty()) {
      LanePointers p =
          lane_pointers(k, count, {q.array.data(), q.width}, qd_rows, qdd_rows, {rows, width});
      if (floating) p.q[0] = coordinates(q, k, shape.batch, worker.q).data();
      worker.engine->evaluate_samples(count, p);
      return;
    }
    worker.wrenches.resize(wrenches.size());  // no allocation after the first sample
    for (std::size_t i = 0; i < wrenches.size(); ++i) {
      worker.wrenches[i].frame = wrenches[i].frame;
      worker.wrenches[i].w =
          Eigen::Map<const Vec6<double>>(wrenches[i].values.data() + k * wrenches[i].stride);
    }
    worker.engine->evaluate(
        coordinates(q, k, shape.batch, worker.q),
        Eigen::Map<const VecX<double>>(qd_rows.data + k * qd_rows.stride, qd.width),
        Eigen::Map<const VecX<double>>(qdd_rows.data + k * qdd_rows.stride, qdd.width),
        Eigen::Map<VecX<double>>(rows + k * width, width), worker.wrenches.data(),
        static_cast<int>(worker.wrenches.size()));
  });
  return out;
}

// One sample after another: each is assembled from the last one's solution, so a batch is one
// motion, not independent samples, and runs on one thread without the GIL.
py::array_t<double> Robot::evaluate_closed(Quantity quantity,
                                           const std::optional<std::string>& algorithm,
                                           bool friction, const std::optional<std::string>& frame,
                                           Array q_array, std::optional<Array> qd_array,
                                           std::optional<Array> qdd_array) {
  const Eigen::Index f = static_cast<Eigen::Index>(file_.loops.actuated.size());
  const VecX<double> zeros = VecX<double>::Zero(f);
  const Samples q{"q", std::move(q_array), f};
  const Samples qd{"qd", qd_array ? std::move(*qd_array) : Array(), f};
  const Samples qdd{"qdd", qdd_array ? std::move(*qdd_array) : Array(), f};
  const Shape shape = qdd_array  ? check_samples({&q, &qd, &qdd})
                      : qd_array ? check_samples({&q, &qd})
                                 : check_samples({&q});
  const Route r =
      choose_route(quantity, algorithm ? std::optional(route(*algorithm)) : std::nullopt, file_);
  ClosedLoopSamples samples(
      file_, quantity, r,
      {friction, false, choose_frame(quantity, frame.value_or(""), false, file_)});
  const Eigen::Index width = samples.size();
  py::array_t<double> out = rows_array(shape, width);
  double* rows = out.mutable_data();
  {
    py::gil_scoped_release release;
    for (py::ssize_t k = 0; k < shape.count; ++k) {
      const auto row = [&](const Samples& s, bool present) {
        return present ? Eigen::Map<const VecX<double>>(s.array.data() + k * f, f)
                       : Eigen::Map<const VecX<double>>(zeros.data(), f);
      };
      try {
        samples.evaluate(row(q, true), row(qd, qd_array.has_value()),
                         row(qdd, qdd_array.has_value()),
                         Eigen::Map<VecX<double>>(rows + k * width, width));
      } catch (const RunError& e) {
        throw RunError((shape.batch ? "sample " + std::to_string(k) + ": " : std::string()) +
                       e.message());
      }
    }
  }
  return out;
}

py::array_t<double> Robot::assemble(Array q_array) const {
  if (!file_.has_loops()) throw InputError("assemble: the robot has no loops (docs/loops.md)");
  const Eigen::Index f = static_cast<Eigen::Index>(file_.loops.actuated.size());
  const Samples q{"q", std::move(q_array), f};
  const Shape shape = check_samples({&q});
  ClosedLoopSamples samples(file_, Quantity::joint_states, Route::denoc);
  const Eigen::Index n = file_.dof();
  py::array_t<double> out = rows_array(shape, n);
  double* rows = out.mutable_data();
  for (py::ssize_t k = 0; k < shape.count; ++k) {
    try {
      Eigen::Map<VecX<double>>(rows + k * n, n) =
          samples.assemble(Eigen::Map<const VecX<double>>(q.array.data() + k * f, f));
    } catch (const RunError& e) {
      throw RunError((shape.batch ? "sample " + std::to_string(k) + ": " : std::string()) +
                     e.message());
    }
  }
  return out;
}

py::array_t<double> Robot::forward(const std::optional<std::string>& algorithm, bool friction,
                                   Array q_array, Array qd_array, Array tau_array, int threads) {
  if (file_.has_loops())
    throw InputError(
        "forward_dynamics: the robot has loops, whose motion simulate() integrates with the loops "
        "held (docs/loops.md)");
  const Route r = route(algorithm.value_or("udu"));
  const Samples q{"q", std::move(q_array), file_.model.nq()};
  const Samples qd{"qd", std::move(qd_array), file_.model.nv()};
  // The joints' n forces, or with a floating base 6 + n, the base's six first
  // (docs/floating-base.md).
  const Eigen::Index tau_size = floating_forces_width(tau_array);
  const Samples tau{"tau", std::move(tau_array), tau_size};
  const Shape shape = check_samples({&q, &qd, &tau});
  const int workers = batch_threads(shape, threads);
  const std::unique_lock<std::mutex> lock = lock_workspaces(workspaces_);
  std::vector<Worker<ForwardDynamics>>& pool = forward_workers(r, friction, workers);
  const Eigen::Index width = file_.model.nv();
  py::array_t<double> out = rows_array(shape, width);
  double* rows = out.mutable_data();
  const auto not_positive_definite = [] {
    throw RunError(
        "the inertia matrix is not positive definite, so the accelerations are not defined");
  };
  const bool floating = file_.model.floating();  // as in evaluate
  const int per_call = pool.front().engine->samples_per_call();
  for_each_call(shape, per_call, workers, [&](int w, py::ssize_t k, int count) {
    Worker<ForwardDynamics>& worker = pool[static_cast<std::size_t>(w)];
    LanePointers p = lane_pointers(k, count, {q.array.data(), q.width}, {qd.array.data(), qd.width},
                                   {tau.array.data(), tau.width}, {rows, width});
    if (floating) p.q[0] = coordinates(q, k, shape.batch, worker.q).data();
    worker.engine->evaluate_samples(count, p, tau_size);
    if (!Eigen::Map<const VecX<double>>(rows + k * width, count * width).allFinite())
      not_positive_definite();
  });
  return out;
}

py::dict Robot::count(const std::string& quantity_text, const std::optional<std::string>& algorithm,
                      Array q_array, Array qd_array, Array qdd_array,
                      const std::optional<std::string>& frame) {
  const Samples q{"q", std::move(q_array), file_.model.nq()};
  const Samples qd{"qd", std::move(qd_array), file_.model.nv()};
  const Samples qdd{"qdd", std::move(qdd_array), file_.model.nv()};
  const Shape shape = check_samples({&q, &qd, &qdd});
  if (shape.batch) throw InputError("count_operations: give one sample, not a batch");
  OperationCounts counts;
  Route r;
  if (quantity_text == "forward-dynamics") {
    r = route(algorithm.value_or("udu"));
    check_forward_route(r, file_);
    VecX<double> buffer;
    counts = count_forward_dynamics(r, file_.model, coordinates(q, 0, false, buffer), qd.row(0));
  } else {
    const Quantity quantity = find_name(quantity_names(), quantity_text, "quantity");
    r = choose_route(quantity, algorithm ? std::optional<Route>(route(*algorithm)) : std::nullopt,
                     file_);
    VecX<double> buffer;
    counts =
        count_ridim_quantity(quantity, r, file_.model, coordinates(q, 0, false, buffer), qd.row(0),
                             qdd.row(0), choose_frame(quantity, frame.value_or(""), false, file_));
  }
  py::dict result;
  result["quantity"] = quantity_text;
  result["algorithm"] = route_name(r);
  result["n"] = file_.dof();
  result["multiplications"] = counts.multiplications;
  result["additions"] = counts.additions;
  result["divisions"] = counts.divisions;
  result["square_roots"] = counts.square_roots;
  result["sines_cosines"] = counts.sines_cosines;
  return result;
}

py::array_t<double> Robot::initial_state(bool rates) const {
  const VecX<double> x = file_.initial_state(rates);
  py::array_t<double> out(x.size());
  std::copy(x.data(), x.data() + x.size(), out.mutable_data());
  return out;
}

py::tuple Robot::trajectory() const {
  if (!file_.trajectory || file_.model.floating()) {
    throw InputError(file_.path + (file_.model.floating()
                                       ? ": the base is floating, and a trajectory block moves "
                                         "the joints only (docs/floating-base.md)"
                                       : ": trajectory: missing; the robot file has no "
                                         "trajectory block"));
  }
  const CycloidalTrajectory<double>& traj = *file_.trajectory;
  const int n = file_.dof();
  const py::ssize_t samples = traj.samples;
  py::array_t<double> t(samples), q({samples, static_cast<py::ssize_t>(n)}),
      qd({samples, static_cast<py::ssize_t>(n)}), qdd({samples, static_cast<py::ssize_t>(n)});
  for (py::ssize_t k = 0; k < samples; ++k) {
    t.mutable_data()[k] = traj.sample_time(k);
    traj.evaluate(t.data()[k], Eigen::Map<VecX<double>>(q.mutable_data() + k * n, n),
                  Eigen::Map<VecX<double>>(qd.mutable_data() + k * n, n),
                  Eigen::Map<VecX<double>>(qdd.mutable_data() + k * n, n));
  }
  return py::make_tuple(t, q, qd, qdd);
}

void bind_robot(py::module_& m) {
  py::class_<Robot>(m, "Robot", py::dynamic_attr())
      .def(py::init<const std::string&, const std::optional<std::string>&,
                    const std::optional<std::string>&, bool, const std::string&,
                    const py::object&>(),
           py::arg("path"), py::arg("base") = py::none(), py::arg("tip") = py::none(),
           py::arg("floating_base") = false, py::arg("inertia_checks") = "strict",
           py::arg("set") = py::none())
      .def(py::init<const std::string&, const std::string&, const std::string&,
                    const std::optional<std::string>&, const std::optional<std::string>&, bool,
                    const std::string&, const py::object&>(),
           py::arg("text"), py::arg("format"), py::arg("name"), py::arg("base"), py::arg("tip"),
           py::arg("floating_base"), py::arg("inertia_checks"), py::arg("set"))
      .def("_repr", &Robot::repr)
      .def_property_readonly("n", [](const Robot& r) { return r.file().dof(); })
      .def_property_readonly("nq", [](const Robot& r) { return r.file().model.nq(); })
      .def_property_readonly("nv", [](const Robot& r) { return r.file().model.nv(); })
      .def_property_readonly("name", [](const Robot& r) { return r.file().name; })
      .def_property_readonly("path", [](const Robot& r) { return r.file().path; })
      .def_property_readonly("format", [](const Robot& r) { return r.file().format; })
      .def_property_readonly("floating_base",
                             [](const Robot& r) { return r.file().model.floating(); })
      .def_property_readonly("is_chain", [](const Robot& r) { return r.file().model.is_chain(); })
      .def_property_readonly("joint_names", &Robot::joint_names)
      .def_property_readonly("link_names", [](const Robot& r) { return r.file().link_names; })
      .def_property_readonly("frame_names", &Robot::frame_names)
      .def_property_readonly("chain_ends", [](const Robot& r) { return r.file().chain_ends; })
      .def_property_readonly("warnings",
                             [](const Robot& r) {
                               std::vector<std::string> lines;
                               for (const std::string& w : r.file().warnings)
                                 lines.push_back(in_python(w));
                               return lines;
                             })
      .def_property_readonly("gravity_vector",
                             [](const Robot& r) {
                               const Vec3<double> g = r.file().model.gravity();
                               return std::vector<double>{g[0], g[1], g[2]};
                             })
      .def_property_readonly("mobility",
                             [](const Robot& r) {
                               return r.file().has_loops() ? r.file().mobility
                                                           : r.file().model.nv();
                             })
      .def_property_readonly("actuated",
                             [](const Robot& r) {
                               std::vector<int> joints;
                               for (int i : r.file().loops.actuated)
                                 joints.push_back(i + 1);
                               return joints;
                             })
      .def_property_readonly("loop_names",
                             [](const Robot& r) {
                               std::vector<std::string> names;
                               for (const auto& cut : r.file().loops.cuts)
                                 names.push_back(cut.name);
                               return names;
                             })
      .def("_assemble", &Robot::assemble, py::arg("q"))
      .def("_initial_state", &Robot::initial_state, py::arg("rates"))
      .def("_trajectory", &Robot::trajectory)
      .def("_evaluate", &Robot::evaluate, py::arg("quantity"), py::arg("algorithm"),
           py::arg("friction"), py::arg("frame"), py::arg("q"), py::arg("qd") = py::none(),
           py::arg("qdd") = py::none(), py::arg("wrenches") = py::none(), py::arg("threads") = 0)
      .def("_forward", &Robot::forward, py::arg("algorithm"), py::arg("friction"), py::arg("q"),
           py::arg("qd"), py::arg("tau"), py::arg("threads") = 0)
      .def("_source", &Robot::source)
      .def("_count", &Robot::count, py::arg("quantity"), py::arg("algorithm"), py::arg("q"),
           py::arg("qd"), py::arg("qdd"), py::arg("frame") = py::none());
}

}  // namespace denoc::python
