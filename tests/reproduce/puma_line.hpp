// Mata et al. (2002) §5.2, Tables 6-7: the PUMA 560's tool along a straight line, by inverse
// kinematics with the suite's pose and Jacobian (model/kinematics.hpp), shared by the
// denoc_reproduce tool (which writes the trajectory for ridim and rfdsim) and by
// tests/test_reproduce.cpp.
//
// The paper's line: from [0.50 0.00 0.05] m at t = 0 to [0.62 0.30 0.11] m at t = 5 s, the
// attitude of body 6 constant, ZYZ Euler angles [0 90 180] deg. It also says "constant velocity
// of 0.1 m/s", which the two end points and 5 s contradict (0.3286 m in 5 s is 0.0657 m/s); we
// keep the end points and the time, at constant velocity from t = 0 (no ramp: the paper names
// none). The TCP is body 6's frame origin (the wrist centre of a Puma 560: the paper gives no
// tool), and the base frame is the model's (on axis 1, at the shoulder's height).
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/simulation/simulation.hpp"

namespace denoc::reproduce {

struct PumaLine {
  Vec3<double> p0{0.50, 0.00, 0.05};  // m, t = 0
  Vec3<double> p1{0.62, 0.30, 0.11};  // m, t = T
  double T = 5.0;                     // s
  // ZYZ Euler angles (0, 90, 180) deg: R = Rz(0) Ry(90) Rz(180).
  Mat3<double> R = (Eigen::AngleAxisd(0.0, Vec3<double>::UnitZ()) *
                    Eigen::AngleAxisd(M_PI / 2, Vec3<double>::UnitY()) *
                    Eigen::AngleAxisd(M_PI, Vec3<double>::UnitZ()))
                       .toRotationMatrix();
  Vec3<double> position(double t) const { return p0 + (p1 - p0) * (t / T); }
  Vec3<double> velocity() const { return (p1 - p0) / T; }
};

// The pose error of the tool frame against (p, R) as one 6-vector [dp; dphi]: dp = p - p_tool,
// dphi = (x_t x x_d + y_t x y_d + z_t x z_d) / 2, the rotation vector that turns the tool's
// axes onto the desired ones to first order.
inline Vec6<double> pose_error(const Transform<double>& tool, const Vec3<double>& p,
                               const Mat3<double>& R) {
  Vec3<double> dphi = Vec3<double>::Zero();
  for (int k = 0; k < 3; ++k)
    dphi += tool.R.col(k).cross(R.col(k)) / 2;
  Vec6<double> e;
  e << p - tool.p, dphi;
  return e;
}

// Newton's method on the pose: J dq = e, from `q` (updated in place). True when the pose error
// falls below `tol` (m, rad) within `iterations`.
inline bool solve_pose(const Model<double>& model, Workspace<double>& ws, VecX<double>& q,
                       const Vec3<double>& p, const Mat3<double>& R, double tol = 1e-13,
                       int iterations = 60) {
  for (int it = 0; it < iterations; ++it) {
    const MatX<double> J = tool_jacobian(model, ws, q);  // also ws.tool_pose
    const Vec6<double> e = pose_error(ws.tool_pose, p, R);
    if (e.norm() < tol) return true;
    VecX<double> dq = J.fullPivLu().solve(e);
    const double step = dq.cwiseAbs().maxCoeff();
    if (!std::isfinite(step)) return false;
    if (step > 0.3) dq *= 0.3 / step;  // far from the solution: short steps, stay on a branch
    q += dq;
  }
  return false;
}

struct LineTrajectory {
  std::vector<double> t;
  std::vector<VecX<double>> q, qd, qdd;
  double max_position_error = 0;     // |p_tool - p_line| over the samples, m
  double max_orientation_error = 0;  // |dphi|, rad
  double max_velocity_error = 0;     // |J qd - [v; 0]|, m/s and rad/s
};

// The joint state on the line at t: q by Newton from `q` (updated in place), qd from
// J qd = [v; 0], qdd from J qdd = -Jdot qd (the line's acceleration is zero), Jdot qd as the
// central difference of J along qd. Returns the pose error [dp; dphi] left.
inline Vec6<double> line_state(const Model<double>& model, Workspace<double>& ws,
                               const PumaLine& line, double t, VecX<double>& q, VecX<double>& qd,
                               VecX<double>& qdd) {
  if (!solve_pose(model, ws, q, line.position(t), line.R))
    throw std::runtime_error("puma line: inverse kinematics failed at t = " + std::to_string(t));
  Vec6<double> twist;
  twist << line.velocity(), Vec3<double>::Zero();
  const MatX<double> J = tool_jacobian(model, ws, q);
  const Vec6<double> e = pose_error(ws.tool_pose, line.position(t), line.R);
  const Eigen::FullPivLU<MatX<double>> lu(J);
  qd = lu.solve(twist);
  const double h = 1e-5 / std::max(qd.norm(), 1e-12);
  const VecX<double> qp = q + h * qd, qm = q - h * qd;
  const MatX<double> Jp = tool_jacobian(model, ws, qp);
  const MatX<double> Jm = tool_jacobian(model, ws, qm);
  const VecX<double> jdot_qd = (Jp - Jm) * qd / (2 * h);
  qdd = lu.solve(VecX<double>(-jdot_qd));
  return e;
}

// The inverse kinematics along the line, every dt, each sample's Newton started from the
// previous one (the first from `seed`).
inline LineTrajectory puma_line_ik(const Model<double>& model, const VecX<double>& seed,
                                   const PumaLine& line = {}, double dt = 0.01) {
  Workspace<double> ws(model);
  LineTrajectory out;
  VecX<double> q = seed, qd, qdd;
  Vec6<double> twist;
  twist << line.velocity(), Vec3<double>::Zero();
  const long samples = std::lround(line.T / dt);
  for (long k = 0; k <= samples; ++k) {
    const double t = static_cast<double>(k) * dt;
    const Vec6<double> e = line_state(model, ws, line, t, q, qd, qdd);
    out.max_position_error = std::max(out.max_position_error, e.head<3>().norm());
    out.max_orientation_error = std::max(out.max_orientation_error, e.tail<3>().norm());
    out.max_velocity_error =
        std::max(out.max_velocity_error, (tool_jacobian(model, ws, q) * qd - twist).norm());
    out.t.push_back(t);
    out.q.push_back(q);
    out.qd.push_back(qd);
    out.qdd.push_back(qdd);
    q += dt * qd;  // the next sample's seed
  }
  return out;
}

// The joint forces of the line as a smooth function of t, as the paper's integrator must have
// had them: at every t the integrator asks, the inverse kinematics (Newton from the nearest
// sample of `seeds`) and the inverse dynamics. No kinks, so adaptive steps are limited by the
// motion alone.
class LineTorques : public JointForces {
 public:
  LineTorques(const Model<double>& model, const LineTrajectory& seeds, const PumaLine& line = {})
      : model_(model), ws_(model), seeds_(seeds), line_(line) {}
  void at(double t, Eigen::Ref<VecX<double>> tau) override {
    const double dt = seeds_.t[1] - seeds_.t[0];
    const auto k = static_cast<std::size_t>(
        std::clamp(std::lround(t / dt), 0L, static_cast<long>(seeds_.t.size() - 1)));
    q_ = seeds_.q[k] + (t - seeds_.t[k]) * seeds_.qd[k];
    line_state(model_, ws_, line_, std::clamp(t, 0.0, line_.T), q_, qd_, qdd_);
    tau = inverse_dynamics(model_, ws_, q_, qd_, qdd_);
  }

 private:
  const Model<double>& model_;
  Workspace<double> ws_;
  const LineTrajectory& seeds_;
  PumaLine line_;
  VecX<double> q_, qd_, qdd_;
};

// The seed of the first sample, modified DH (Armstrong, Khatib and Burdick's frames,
// robots/puma560_akb.yaml): right arm (q1 near 0), elbow up (joint 3 above the shoulder), wrist
// roll |q4| < 90 deg; the other seven solutions at the line's start are the usual Puma
// branches. The paper's Fig. 3 shows the arm, not its angles; its joint errors do not tell the
// branch either.
inline VecX<double> puma_line_seed() {
  VecX<double> seed(6);
  seed << -17.5, -62.5, -154.6, -21.5, -54.8, -167.2;
  return seed * (M_PI / 180);
}

}  // namespace denoc::reproduce
