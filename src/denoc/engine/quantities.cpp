#include "denoc/engine/quantities.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "denoc/engine/dynamics.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/saha/reactions.hpp"

namespace denoc {

namespace {

// How the entries of a quantity's row are laid out (docs/csv.md); nv = n, or 6 + n with a floating
// base.
enum class Layout {
  forces,     // nv forces: the base's six first (docs/floating-base.md), then P1..Pn
  square,     // an nv x nv matrix row by row: P_i_j
  udu,        // U as a square, then the diagonal of D: D_1..D_nv
  pose,       // the origin x, y, z, then R row by row: R_i_j
  rectangle,  // a matrix of `rows` rows and nv columns, row by row: P_i_j
  reactions,  // each joint's force and moment: f1_x .. n1_z, f2_x ..
  named,      // the columns `named`
};

// One quantity, as every part of the suite reads it: ridim's --quantity name, the layout of its
// row and the prefix of its columns, and what it asks of the run.
struct QuantityFacts {
  Quantity quantity;
  const char* name;
  Layout layout;
  const char* prefix = "";
  int rows = 0;                        // of a rectangle
  std::array<const char*, 7> named{};  // the named columns, nullptr after the last
  bool of_frame = false;               // of a frame: the tool frame unless one is chosen
  bool of_motion = false;  // the bodies' motion in the world frame (motion/, docs/legged.md)
};

// In the order of ridim --help and docs/csv.md.
const std::array<QuantityFacts, 16> kQuantities{{
    {Quantity::torques, "torques", Layout::forces, "tau"},
    {Quantity::mass_matrix, "mass-matrix", Layout::square, "M"},
    {Quantity::inverse_mass_matrix, "inverse-mass-matrix", Layout::square, "Minv"},
    {Quantity::bias, "bias", Layout::forces, "h"},
    {Quantity::gravity, "gravity", Layout::forces, "g"},
    {Quantity::pose, "pose", Layout::pose, "R", 0, {}, true},
    {Quantity::jacobian, "jacobian", Layout::rectangle, "J", 6, {}, true},
    {Quantity::reactions, "reactions", Layout::reactions},
    {Quantity::coriolis, "coriolis", Layout::square, "C"},
    {Quantity::udu, "udu", Layout::udu, "U"},
    {Quantity::frame_velocity,
     "frame-velocity",
     Layout::named,
     "",
     0,
     {"vx", "vy", "vz", "wx", "wy", "wz"},
     true,
     true},
    {Quantity::frame_acceleration,
     "frame-acceleration",
     Layout::named,
     "",
     0,
     {"ax", "ay", "az", "alpha_x", "alpha_y", "alpha_z"},
     true,
     true},
    {Quantity::com,
     "com",
     Layout::named,
     "",
     0,
     {"mass", "com_x", "com_y", "com_z", "com_vx", "com_vy", "com_vz"},
     false,
     true},
    {Quantity::com_jacobian, "com-jacobian", Layout::rectangle, "Jc", 3, {}, false, true},
    {Quantity::centroidal_momentum,
     "centroidal-momentum",
     Layout::named,
     "",
     0,
     {"hg_x", "hg_y", "hg_z", "kg_x", "kg_y", "kg_z"},
     false,
     true},
    {Quantity::centroidal_matrix, "centroidal-matrix", Layout::rectangle, "Ag", 6, {}, false, true},
}};

const QuantityFacts& facts(Quantity quantity) {
  for (const QuantityFacts& f : kQuantities)
    if (f.quantity == quantity) return f;
  throw std::invalid_argument("quantity " + std::to_string(static_cast<int>(quantity)) +
                              " is not one of the suite's");
}

int named_count(const QuantityFacts& f) {
  return static_cast<int>(std::find(f.named.begin(), f.named.end(), nullptr) - f.named.begin());
}

bool of_motion(Quantity quantity) {
  return facts(quantity).of_motion;
}

// The entries of a row of `quantity` (docs/csv.md), as quantity_columns names them.
Eigen::Index row_size(Quantity quantity, int n, bool floating) {
  const QuantityFacts& f = facts(quantity);
  const Eigen::Index nv = floating ? n + 6 : n;
  switch (f.layout) {
    case Layout::forces:
      return nv;
    case Layout::square:
      return nv * nv;
    case Layout::udu:
      return nv * nv + nv;
    case Layout::pose:
      return 12;
    case Layout::rectangle:
      return f.rows * nv;
    case Layout::reactions:
      return 6 * Eigen::Index{n};
    case Layout::named:
      return named_count(f);
  }
  return 0;
}

// The base's generalized forces, first with a floating base (docs/floating-base.md).
constexpr std::array<const char*, 6> kBaseForces{"base_fx", "base_fy", "base_fz",
                                                 "base_nx", "base_ny", "base_nz"};

}  // namespace

const std::vector<std::pair<std::string, Quantity>>& quantity_names() {
  static const std::vector<std::pair<std::string, Quantity>> names = [] {
    std::vector<std::pair<std::string, Quantity>> all;
    for (const QuantityFacts& f : kQuantities)
      all.emplace_back(f.name, f.quantity);
    return all;
  }();
  return names;
}

std::string quantity_name(Quantity quantity) {
  return facts(quantity).name;
}

bool takes_frame(Quantity quantity) {
  return facts(quantity).of_frame;
}

std::vector<std::string> quantity_columns(Quantity quantity, int n, bool floating) {
  const QuantityFacts& f = facts(quantity);
  const std::string prefix = f.prefix;
  const int nv = floating ? n + 6 : n;
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(row_size(quantity, n, floating)));
  auto matrix = [&](int rows) {
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j <= nv; ++j)
        names.push_back(prefix + "_" + std::to_string(i) + "_" + std::to_string(j));
    }
  };
  switch (f.layout) {
    case Layout::forces:
      if (floating) {  // the torques' base columns carry no prefix
        for (const char* base : kBaseForces)
          names.push_back(quantity == Quantity::torques ? base : prefix + "_" + base);
      }
      for (int i = 1; i <= n; ++i)
        names.push_back(prefix + std::to_string(i));
      break;
    case Layout::square:
      matrix(nv);
      break;
    case Layout::udu:
      matrix(nv);
      for (int i = 1; i <= nv; ++i)
        names.push_back("D_" + std::to_string(i));
      break;
    case Layout::pose:
      names.insert(names.end(), {"x", "y", "z"});
      for (int i = 1; i <= 3; ++i) {
        for (int j = 1; j <= 3; ++j)
          names.push_back(prefix + "_" + std::to_string(i) + "_" + std::to_string(j));
      }
      break;
    case Layout::rectangle:
      matrix(f.rows);
      break;
    case Layout::reactions:
      for (int i = 1; i <= n; ++i) {
        for (const char* part : {"f", "n"}) {
          for (const char* axis : {"_x", "_y", "_z"})
            names.push_back(part + std::to_string(i) + axis);
        }
      }
      break;
    case Layout::named:
      names.assign(f.named.begin(), f.named.begin() + named_count(f));
      break;
  }
  return names;
}

std::vector<Route> algorithms_for(Quantity quantity) {
  if (quantity == Quantity::inverse_mass_matrix) {
    // udu first: the fastest of the three on the Stanford arm (docs/performance.md).
    return inverse_inertia_routes();
  }
  if (quantity == Quantity::pose || quantity == Quantity::jacobian ||
      quantity == Quantity::reactions || of_motion(quantity)) {
    return {Route::denoc};  // from the DeNOC joint frames and backward recursion
  }
  if (quantity == Quantity::coriolis) return {Route::denoc};  // Saha (1999) Eqs. (25)-(29)
  if (quantity == Quantity::udu) return {Route::udu};         // the factors that route solves with
  return inverse_dynamics_routes();
}

namespace {

// The routes that carry no floating base (docs/floating-base.md): InputError naming them.
void check_floating_base(Route chosen) {
  if (chosen == Route::gibbs_appell || chosen == Route::fixman)
    throw InputError(mention(Parameter::algorithm, route_name(chosen)) +
                     ": the route carries no floating base (its recursions start from a fixed "
                     "one); the robot's base is floating (docs/floating-base.md)");
}

void check_fixman(Route chosen, const RobotFile& robot) {
  if (chosen == Route::fixman && !fixman_supports(robot.model))
    throw InputError(robot.path + ": " + mention(Parameter::algorithm, "fixman") + ": " +
                     fixman_unsupported_reason(robot.model) + "; " +
                     mention(Parameter::algorithm, "udu") + " and " +
                     mention(Parameter::algorithm, "cholesky") + " take this robot");
}

// A matrix written row by row into `row`.
template <typename Matrix>
void put_matrix(const Matrix& m, Eigen::Ref<VecX<double>> row) {
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      row.data(), m.rows(), m.cols()) = m;
}

}  // namespace

Route choose_route(Quantity quantity, std::optional<Route> chosen_route, const RobotFile& robot) {
  const std::vector<Route> allowed = algorithms_for(quantity);
  const Route chosen = chosen_route.value_or(allowed.front());
  if (std::find(allowed.begin(), allowed.end(), chosen) == allowed.end()) {
    std::string names;
    for (Route a : allowed)
      names += (names.empty() ? "" : ", ") + route_name(a);
    throw InputError(mention(Parameter::algorithm, route_name(chosen)) + " does not compute " +
                     mention(Parameter::quantity, quantity_name(quantity)) +
                     "; the routes for it are " + names);
  }
  if (robot.model.floating()) check_floating_base(chosen);
  check_fixman(chosen, robot);
  return chosen;
}

void check_forward_route(Route route, const RobotFile& robot) {
  if (robot.model.floating()) check_floating_base(route);
  check_fixman(route, robot);
}

std::optional<BodyFrame<double>> choose_frame(Quantity quantity, const std::string& name,
                                              bool wrench, const RobotFile& robot) {
  const bool pose = takes_frame(quantity);
  return frame_or_tool(
      robot, name, pose || wrench,
      pose ? mention(Parameter::quantity, quantity_name(quantity)) : mention(Parameter::wrench));
}

SampleQuantities::SampleQuantities(const RobotFile& robot, Quantity quantity, Route route,
                                   const QuantitySettings& settings)
    : dynamics_(robot.model),
      model_(dynamics_.model()),
      ws_(dynamics_.denoc()),
      quantity_(quantity),
      route_(route),
      friction_(settings.friction && robot.model.has_friction()),
      wrench_in_tool_frame_(settings.wrench_in_tool_frame),
      frame_(settings.frame.value_or(robot.model.tool_frame())),
      size_(row_size(quantity, robot.model.dof(), robot.model.floating())),
      friction_forces_(VecX<double>::Zero(robot.dof())),
      wrench_forces_(VecX<double>::Zero(robot.model.nv())),
      check_positive_definite_(
          robot, model_, quantity == Quantity::inverse_mass_matrix || quantity == Quantity::udu) {
  if (LaneDynamics::supports(quantity, route, robot.model))
    lanes_ = std::make_unique<LaneDynamics>(robot.model);
  if (of_motion(quantity)) centroidal_ = std::make_unique<CentroidalWorkspace<double>>(model_);
}

void SampleQuantities::evaluate_samples(int count, const LanePointers& samples) {
  const Eigen::Index nq = model_.nq(), nv = model_.nv();
  if (!lanes_) {
    for (int k = 0; k < count; ++k) {
      evaluate(Eigen::Map<const VecX<double>>(samples.q[k], nq),
               Eigen::Map<const VecX<double>>(samples.qd[k], nv),
               Eigen::Map<const VecX<double>>(samples.qdd[k], nv),
               Eigen::Map<VecX<double>>(samples.out[k], size_));
    }
    return;
  }
  for (int k = 0; k < count; ++k)
    check_positive_definite_.check(Eigen::Map<const VecX<double>>(samples.q[k], nq));
  lanes_->evaluate(quantity_, friction_, count, samples);
}

void SampleQuantities::evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                ConstVectorRef<double> qdd, Eigen::Ref<VecX<double>> row,
                                const Vec6<double>* wrench) {
  if (lanes_ && !wrench) {  // as one sample of a batch, so that both give the same numbers
    evaluate_samples(
        1, lane_pointers(0, 1, {q.data(), 0}, {qd.data(), 0}, {qdd.data(), 0}, {row.data(), 0}));
    return;
  }
  const FrameWrench<double> applied{frame_, wrench ? *wrench : Vec6<double>::Zero(),
                                    wrench_in_tool_frame_};
  evaluate(q, qd, qdd, row, &applied, wrench ? 1 : 0);
}

void SampleQuantities::evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                ConstVectorRef<double> qdd, Eigen::Ref<VecX<double>> row,
                                const FrameWrench<double>* wrenches, int count) {
  check_positive_definite_.check(q);
  // With a floating base q has 7 + n entries, qd and qdd 6 + n, and the dynamics' dispatch
  // takes them (docs/floating-base.md).
  switch (quantity_) {
    case Quantity::torques:
      forces_row(inverse_dynamics(route_, dynamics_, q, qd, qdd), q, qd, wrenches, count, row);
      break;
    case Quantity::bias:
      forces_row(bias_forces(route_, dynamics_, q, qd), q, qd, wrenches, count, row);
      break;
    case Quantity::mass_matrix:
      put_matrix(generalized_inertia(route_, dynamics_, q), row);
      break;
    case Quantity::inverse_mass_matrix:
      put_matrix(inverse_mass_matrix(q), row);
      break;
    case Quantity::gravity:
      row = gravity_forces(route_, dynamics_, q);
      break;
    case Quantity::pose:
      pose_row(frame_pose(dynamics_, frame_, q), row);
      break;
    case Quantity::jacobian:
      put_matrix(frame_jacobian(dynamics_, frame_, q), row);
      break;
    case Quantity::reactions: {
      inverse_dynamics(Route::denoc, dynamics_, q, qd, qdd);
      if (count > 0) apply_frame_wrenches(model_, ws_, q, wrenches, count);
      const auto& reactions = joint_reactions(model_, ws_, q.tail(model_.dof()));
      row = Eigen::Map<const VecX<double>>(reactions.data(), reactions.size());
      break;
    }
    case Quantity::coriolis:
      put_matrix(convective_inertia(route_, dynamics_, q, qd), row);
      break;
    case Quantity::udu:
      udu_row(q, row);
      break;
    case Quantity::frame_velocity:
    case Quantity::frame_acceleration:
    case Quantity::com:
    case Quantity::com_jacobian:
    case Quantity::centroidal_momentum:
    case Quantity::centroidal_matrix:
      motion_row(q, qd, qdd, row);
      break;
  }
}

// The quantities of docs/legged.md, in the world frame.
void SampleQuantities::motion_row(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                  ConstVectorRef<double> qdd, Eigen::Ref<VecX<double>> row) {
  CentroidalWorkspace<double>& ws = *centroidal_;
  switch (quantity_) {
    case Quantity::frame_velocity:
      body_poses(model_, ws.motion, q);
      body_velocities(model_, ws.motion, qd);
      row = frame_velocity(ws.motion, frame_);
      break;
    case Quantity::frame_acceleration:
      body_poses(model_, ws.motion, q);
      body_velocities(model_, ws.motion, qd);
      body_accelerations(model_, ws.motion, qd, qdd);
      row = frame_acceleration(ws.motion, frame_);
      break;
    case Quantity::com:
      centre_of_mass_velocity(model_, ws, q, qd);
      row[0] = ws.mass;
      row.segment<3>(1) = ws.com;
      row.segment<3>(4) = ws.com_velocity;
      break;
    case Quantity::com_jacobian:
      put_matrix(centre_of_mass_jacobian(model_, ws, q), row);
      break;
    case Quantity::centroidal_momentum:
      row = centroidal_momentum(model_, ws, q, qd);
      break;
    case Quantity::centroidal_matrix:
      put_matrix(centroidal_matrix(model_, ws, q), row);
      break;
    default:
      throw std::logic_error("motion_row: not a quantity of the bodies' motion");
  }
}

// The route's forces `tau` less J^T w of the wrenches (docs/ridim.md), with the drives' friction
// G^2 B qd + |G| Tc(qd) (docs/robot-file.md) on the joints' entries, unless switched off.
void SampleQuantities::forces_row(const VecX<double>& tau, ConstVectorRef<double> q,
                                  ConstVectorRef<double> qd, const FrameWrench<double>* wrenches,
                                  int count, Eigen::Ref<VecX<double>> row) {
  row = tau;
  if (count > 0) {
    frame_wrench_forces(model_, ws_, q, wrenches, count, wrench_forces_);
    row -= wrench_forces_;
  }
  if (!friction_) return;
  friction_forces(model_, qd.tail(model_.dof()), friction_forces_);
  row.tail(model_.dof()) += friction_forces_;
}

// x, y, z, then R row by row.
void SampleQuantities::pose_row(const Transform<double>& pose, Eigen::Ref<VecX<double>> row) const {
  row.head<3>() = pose.p;
  put_matrix(pose.R, row.tail<9>());
}

// U row by row, then the diagonal of D (docs/csv.md).
void SampleQuantities::udu_row(ConstVectorRef<double> q, Eigen::Ref<VecX<double>> row) {
  const UduFactors<double> factors = udu_factors(route_, dynamics_, q);
  const Eigen::Index n = factors.U.rows();
  put_matrix(factors.U, row.head(n * n));
  row.tail(n) = factors.d;
}

const MatX<double>& SampleQuantities::inverse_mass_matrix(ConstVectorRef<double> q) {
  const MatX<double>& inverse = inverse_inertia(route_, dynamics_, q);
  if (!inverse.allFinite())
    throw RunError("the inertia matrix is not positive definite, so it has no inverse");
  return inverse;
}

ForwardDynamics::ForwardDynamics(const RobotFile& robot, Route route, bool friction)
    : dynamics_(robot.model),
      model_(dynamics_.model()),
      route_(route),
      friction_(friction && robot.model.has_friction()),
      friction_forces_(VecX<double>::Zero(robot.dof())),
      generalized_(VecX<double>::Zero(robot.model.nv())),
      check_positive_definite_(robot, model_, true) {
  check_forward_route(route, robot);
  if (LaneDynamics::supports_forward(route, robot.model)) {
    lanes_ = std::make_unique<LaneDynamics>(robot.model);
    qdd_.resize(robot.dof());
  }
}

void ForwardDynamics::evaluate_samples(int count, const LanePointers& samples,
                                       Eigen::Index tau_size) {
  if (lanes_ && tau_size == model_.dof()) {
    lanes_->forward(friction_, count, samples);
    for (int k = 0; k < count && check_positive_definite_.on(); ++k) {
      lanes_->pivots(k, pivots_);
      check_positive_definite_.check_pivots(pivots_);
    }
    return;
  }
  const Eigen::Index nq = model_.nq(), nv = model_.nv();
  for (int k = 0; k < count; ++k) {
    Eigen::Map<VecX<double>>(samples.out[k], nv) =
        (*this)(Eigen::Map<const VecX<double>>(samples.q[k], nq),
                Eigen::Map<const VecX<double>>(samples.qd[k], nv),
                Eigen::Map<const VecX<double>>(samples.qdd[k], tau_size));
  }
}

const VecX<double>& ForwardDynamics::operator()(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                                ConstVectorRef<double> tau) {
  const Eigen::Index n = model_.dof(), nv = model_.nv();
  if (q.size() != model_.nq() || qd.size() != nv || (tau.size() != n && tau.size() != nv)) {
    throw InputError("forward dynamics: q, qd and tau have " + std::to_string(q.size()) + ", " +
                     std::to_string(qd.size()) + " and " + std::to_string(tau.size()) +
                     " entries; the robot takes " + std::to_string(model_.nq()) + ", " +
                     std::to_string(nv) + " and " +
                     (n == nv ? std::to_string(n)
                              : std::to_string(n) + " (the joints' forces) or " +
                                    std::to_string(nv) + " (the base's wrench first)"));
  }
  if (lanes_) {  // as one sample of a batch, so that both give the same numbers
    evaluate_samples(
        1, lane_pointers(0, 1, {q.data(), 0}, {qd.data(), 0}, {tau.data(), 0}, {qdd_.data(), 0}),
        n);
    return qdd_;
  }
  // Under inertia_checks: warn, M must be positive definite: the O(n) route's own pivots say so;
  // the other routes' factors are not read, and a factorisation of the check's own does.
  if (route_ != Route::udu) check_positive_definite_.check(q);
  // n forces with a floating base: the base unactuated, its six generalized forces zero.
  const bool joints_only = tau.size() != nv;
  if (joints_only) generalized_.tail(n) = tau;
  const ConstVectorRef<double> forces = joints_only ? ConstVectorRef<double>(generalized_) : tau;
  if (friction_) {
    net_ = forces;  // sized at the first call
    friction_forces(model_, qd.tail(n), friction_forces_);
    net_.tail(n) -= friction_forces_;
  }
  const VecX<double>& qdd =
      forward_dynamics(route_, dynamics_, q, qd, friction_ ? ConstVectorRef<double>(net_) : forces);
  if (route_ == Route::udu) check_positive_definite_.check_factors(dynamics_.denoc());
  return qdd;
}

}  // namespace denoc
