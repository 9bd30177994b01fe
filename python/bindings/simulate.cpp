// denoc.simulate (docs/python.md): the simulation of rfdsim (denoc/simulation) with the initial
// state, the joint forces (none, a table t,tau1..taun, or a Python callable f(t, q, qd) -> tau in
// closed loop) and the integrator's settings given as arguments, and its rows (output_row) as
// one array. The integration runs with the GIL released; a callable takes it for each call.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <cmath>

#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/engine/run_checks.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/number.hpp"
#include "denoc/simulation/sampled_forces.hpp"
#include "robot.hpp"

namespace denoc::python {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// tau = f(t, q, qd): the joints' n forces (or a wrench's 6 numbers) from a Python callable, the
// state copied into new arrays (the callable may keep them). `name` names it in messages.
class CallableForces : public JointForces {
 public:
  CallableForces(py::function f, int n, std::string name = "torques",
                 std::string what = "joint forces")
      : f_(std::move(f)), n_(n), name_(std::move(name)), what_(std::move(what)) {}

  void at(double, Eigen::Ref<VecX<double>> tau) override { tau.setZero(); }  // not called

  void at_state(double t, ConstVectorRef<double> q, ConstVectorRef<double> v,
                Eigen::Ref<VecX<double>> tau) override {
    py::gil_scoped_acquire gil;
    py::array_t<double> q_array(q.size()), v_array(v.size());
    std::copy(q.data(), q.data() + q.size(), q_array.mutable_data());
    std::copy(v.data(), v.data() + v.size(), v_array.mutable_data());
    const Array result = Array::ensure(f_(t, q_array, v_array));
    require(result && result.ndim() == 1 && result.shape(0) == n_,
            name_ + ": the callable returned " +
                (result ? "an array of shape (" + std::to_string(result.size()) + ")"
                        : std::string("something that is not an array of numbers")) +
                " at t = " + shortest(t) + "; expected " + std::to_string(n_) + " " + what_);
    for (int i = 0; i < n_; ++i) {
      require(std::isfinite(result.data()[i]),
              name_ + ": the callable returned a value that is not finite at t = " + shortest(t) +
                  " (entry " + std::to_string(i) + ")");
    }
    tau = Eigen::Map<const VecX<double>>(result.data(), n_);
  }

 private:
  py::function f_;
  int n_;
  std::string name_, what_;
};

// q0 or qd0: the argument, else the robot file's initial state, else zero; a floating base's
// quaternion checked and normalised (docs/floating-base.md).
VecX<double> initial(const Robot& robot, const std::optional<Array>& given, bool rates) {
  const Model<double>& model = robot.file().model;
  if (!given) return robot.file().initial_state(rates);
  const Samples s{rates ? "qd0" : "q0", *given, rates ? model.nv() : model.nq()};
  require(check_samples({&s}).batch == false,
          std::string(s.name) + ": give one state, not a batch");
  VecX<double> x = s.row(0);
  if (model.floating() && !rates) normalise_base_quaternion(x, "q0");
  return x;
}

// torques=: None (free fall), a table of rows t,tau1..taun, or a callable.
std::unique_ptr<JointForces> joint_forces(const py::object& torques, int n) {
  if (torques.is_none()) return std::make_unique<ZeroForces>();
  if (py::isinstance<py::function>(torques))
    return std::make_unique<CallableForces>(torques.cast<py::function>(), n);
  const Array table = Array::ensure(torques);
  require(table && table.ndim() == 2 && table.shape(1) == n + 1,
          "torques: expected a callable f(t, q, qd) or an array of rows t,tau1..tau" +
              std::to_string(n) + " (shape (N, " + std::to_string(n + 1) + "))");
  return std::make_unique<TabulatedForces>("torques", table.data(),
                                           static_cast<std::size_t>(table.shape(0)),
                                           static_cast<std::size_t>(n));
}

// wrenches=: {frame: a table of rows t,fx,fy,fz,nx,ny,nz, or a callable f(t, q, qd) -> wrench},
// each in the base frame (the world frame with a floating base), at the frame's origin.
struct WrenchInputs {
  std::vector<std::unique_ptr<JointForces>> sources;
  std::vector<BodyFrame<double>> frames;
};

WrenchInputs wrench_inputs(const Robot& robot, const py::object& wrenches) {
  WrenchInputs inputs;
  if (wrenches.is_none()) return inputs;
  require(py::isinstance<py::dict>(wrenches),
          "wrenches: expected a dict {frame: table or callable}");
  for (const auto& [key, value] : wrenches.cast<py::dict>()) {
    const std::string name = py::str(key).cast<std::string>();
    const std::string what = "wrenches['" + name + "']";
    inputs.frames.push_back(find_frame(robot.file(), name));
    if (py::isinstance<py::function>(value)) {
      inputs.sources.push_back(std::make_unique<CallableForces>(
          py::reinterpret_borrow<py::function>(value), 6, what, "wrench components"));
      continue;
    }
    const Array table = Array::ensure(value);
    require(table && table.ndim() == 2 && table.shape(1) == 7,
            what +
                ": expected a callable f(t, q, qd) -> [fx, fy, fz, nx, ny, nz] or an array of "
                "rows t,fx,fy,fz,nx,ny,nz (shape (N, 7))");
    inputs.sources.push_back(std::make_unique<TabulatedForces>(
        what, table.data(), static_cast<std::size_t>(table.shape(0)), 6));
  }
  return inputs;
}

// contacts= (frame names) and ground=(k, c, mu) (docs/legged.md).
std::vector<BodyFrame<double>> contact_points(const Robot& robot, const py::object& contacts) {
  std::vector<BodyFrame<double>> points;
  if (contacts.is_none()) return points;
  require(!py::isinstance<py::str>(contacts),
          "contacts: expected a list of frame names, not one string");
  for (const py::handle& name : contacts)
    points.push_back(find_frame(robot.file(), py::str(name).cast<std::string>()));
  return points;
}

GroundSettings ground_settings(const py::object& ground) {
  GroundSettings settings;
  if (ground.is_none()) return settings;
  const std::vector<double> values = ground.cast<std::vector<double>>();
  require(values.size() == 3 || values.size() == 4,
          "ground: expected (k, c, mu) or (k, c, mu, v_s), three or four numbers; found " +
              std::to_string(values.size()));
  if (values.size() == 4) settings.slip_velocity = values[3];
  settings.stiffness = values[0];
  settings.damping = values[1];
  settings.friction = values[2];
  return settings;
}

struct Settings {
  double t_end, dt;
  IntegratorSettings integrator;
  Route route;
  FrictionSettings friction;
};

void check(const Settings& s) {
  require(std::isfinite(s.t_end) && s.t_end >= 0, "t_end: must be a time >= 0");
  require(std::isfinite(s.dt) && s.dt > 0, "dt: must be positive");
  require(std::isfinite(s.integrator.rtol) && s.integrator.rtol > 0, "rtol: must be positive");
  require(std::isfinite(s.integrator.atol) && s.integrator.atol > 0, "atol: must be positive");
  require(std::isfinite(s.integrator.step) && s.integrator.step >= 0, "step: must be >= 0");
  require(std::isfinite(s.integrator.min_step) && s.integrator.min_step >= 0,
          "min_step: must be >= 0");
  require(std::isfinite(s.friction.velocity_scale) && s.friction.velocity_scale > 0,
          "coulomb_velocity: must be positive");
  require(s.friction.coulomb != CoulombModel::stick_slip || s.integrator.method == Method::dopri5,
          "coulomb='stick-slip': locates its events on dopri5's dense output; use method='dopri5'");
  require(OutputTimes::count(s.t_end, s.dt) <= 1e8,
          "t_end " + shortest(s.t_end) + " with dt " + shortest(s.dt) +
              ": more than 10^8 output rows; raise dt or lower t_end");
}

// The rows of the simulation (output_row after t) and the integrator's counts.
py::tuple simulate(Robot& robot, double t_end, double dt, std::optional<Array> q0,
                   std::optional<Array> qd0, const py::object& torques, const std::string& method,
                   double rtol, double atol, const std::string& algorithm,
                   const std::string& coulomb, double coulomb_velocity, double step,
                   double min_step, const py::object& wrenches, const py::object& contacts,
                   const py::object& ground) {
  const RobotFile& file = robot.file();
  const Model<double>& model = file.model;
  Settings s{t_end, dt, {}, robot.route(algorithm), {}};
  s.integrator.method = find_name(method_names(), method, "method");
  s.integrator.rtol = rtol;
  s.integrator.atol = atol;
  s.integrator.step = step;
  s.integrator.min_step = min_step;
  s.friction.coulomb = find_name(coulomb_model_names(), coulomb, "coulomb");
  s.friction.velocity_scale = coulomb_velocity;
  check(s);
  check_forward_route(s.route, file);
  State x(static_cast<std::size_t>(model.nq() + model.nv() + 2), 0.0);  // q, qd, work, dissipated
  Eigen::Map<VecX<double>>(x.data(), model.nq()) = initial(robot, q0, false);
  Eigen::Map<VecX<double>>(x.data() + model.nq(), model.nv()) = initial(robot, qd0, true);
  // With loops (docs/loops.md): the actuated joints' forces, and q0, qd0 put on the loops.
  const bool loops = file.has_loops();
  const int forces_given = loops ? static_cast<int>(file.loops.actuated.size()) : file.dof();
  if (loops) {
    require(s.friction.coulomb != CoulombModel::stick_slip,
            "coulomb='stick-slip' locks joints of the spanning tree, which the loops already "
            "constrain; use coulomb='regularised' with loops");
    const int n = file.dof();
    ClosedLoopWorkspace<double> ws(model, file.loops);
    const ClosedState state =
        close_state(model, file.loops, ws, Eigen::Map<VecX<double>>(x.data(), n),
                    Eigen::Map<VecX<double>>(x.data() + n, n));
    require(state.closure.error <= kClosureTolerance,
            "q0: " + closure_failure(file.loops, state.closure) +
                ", the actuated joints held; give a q0 nearer a closed configuration");
    require(state.independent,
            "q0: the actuated joints do not fix the passive ones there (a singular configuration "
            "of the loops)");
  }
  const std::unique_ptr<JointForces> given = joint_forces(torques, forces_given);
  std::unique_ptr<ActuatedForces> actuated;
  if (loops) actuated = std::make_unique<ActuatedForces>(*given, file.loops.actuated);
  const WrenchInputs wrench = wrench_inputs(robot, wrenches);
  std::vector<JointForces*> wrench_sources;
  for (const std::unique_ptr<JointForces>& source : wrench.sources)
    wrench_sources.push_back(source.get());
  InputsWithWrenches inputs(actuated ? static_cast<JointForces&>(*actuated) : *given,
                            wrench_sources);
  const std::vector<BodyFrame<double>> points = contact_points(robot, contacts);
  const GroundSettings ground_law = ground_settings(ground);
  if (!points.empty()) GroundContact(model, points, ground_law);  // InputError before the GIL goes

  const OutputTimes times(t_end, dt);
  const Eigen::Index width = 1 + output_row_size(model, !points.empty()) +
                             (loops ? forces_given - file.dof() + 1 : 0);  // and `closure`
  std::vector<double> rows;
  rows.reserve(static_cast<std::size_t>(std::min<long>(times.size(), 1 << 20) * width));
  IntegrationStats stats;
  {
    py::gil_scoped_release release;
    ChainDynamics system(model, s.route, inputs);
    system.set_friction(s.friction);
    if (loops) system.set_loops(file.loops);
    for (std::size_t k = 0; k < wrench_sources.size(); ++k)
      system.add_wrench(*wrench_sources[k], wrench.frames[k], false);
    if (!points.empty()) system.set_ground_contact(points, ground_law);
    PositiveDefiniteCheck check_positive_definite(file);
    VecX<double> row(width);
    integrate(
        system, x, times, s.integrator,
        [&](double t, const State& state) {
          check_positive_definite(t, Eigen::Map<const VecX<double>>(state.data(), model.nq()));
          row[0] = t;
          output_row(system, t, state, row.tail(width - 1));
          rows.insert(rows.end(), row.data(), row.data() + width);
        },
        stats);
  }
  py::array_t<double> table(
      {static_cast<py::ssize_t>(rows.size() / width), static_cast<py::ssize_t>(width)});
  std::copy(rows.begin(), rows.end(), table.mutable_data());
  py::dict counts;
  counts["steps"] = stats.steps;
  counts["rejected"] = stats.rejected;
  counts["rhs_evaluations"] = stats.rhs_evaluations;
  counts["events"] = stats.events;
  counts["wall_seconds"] = stats.wall_seconds;
  return py::make_tuple(table, counts);
}

}  // namespace

void bind_simulate(py::module_& m) {
  m.def("_simulate", &simulate, py::arg("robot"), py::arg("t_end"), py::arg("dt"), py::arg("q0"),
        py::arg("qd0"), py::arg("torques"), py::arg("method"), py::arg("rtol"), py::arg("atol"),
        py::arg("algorithm"), py::arg("coulomb"), py::arg("coulomb_velocity"), py::arg("step"),
        py::arg("min_step"), py::arg("wrenches") = py::none(), py::arg("contacts") = py::none(),
        py::arg("ground") = py::none());
}

}  // namespace denoc::python
