// RBDL (rbdl/rbdl, 3.3.x) as a peer of denoc_bench; see peers.hpp for the model.
#include <rbdl/rbdl.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <cmath>

#include "peers.hpp"

namespace denoc_bench {
namespace {

namespace R = RigidBodyDynamics;

// C = Rz(theta) Tz(b) Tx(a) Rx(alpha): rotation and origin in the parent frame.
Eigen::Matrix3d dh_rotation(const PeerLink& r) {
  return (Eigen::AngleAxisd(r.theta, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(r.alpha, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}
Eigen::Vector3d dh_origin(const PeerLink& r) {
  return Eigen::Vector3d(r.a * std::cos(r.theta), r.a * std::sin(r.theta), r.b);
}

// The chain as RBDL bodies (peers.hpp): joint i in body i-1 at C_{i-1}, body i's mass properties
// moved from F_i into body i's frame by C_i.
void build_model(const std::vector<PeerLink>& rows, const Eigen::Vector3d& gravity,
                 R::Model& model) {
  model.gravity = R::Math::Vector3d(gravity.x(), gravity.y(), gravity.z());
  unsigned parent = 0;
  Eigen::Matrix3d R_prev = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p_prev = Eigen::Vector3d::Zero();
  for (const PeerLink& r : rows) {
    const Eigen::Matrix3d Rc = dh_rotation(r);
    const Eigen::Vector3d pc = dh_origin(r);
    const R::Math::Vector3d com = Rc * r.com + pc;
    const R::Math::Matrix3d Ic = Rc * r.inertia * Rc.transpose();
    const R::Joint joint = r.revolute ? R::Joint(R::JointTypeRevoluteZ)
                                      : R::Joint(R::JointTypePrismatic, R::Math::Vector3d(0, 0, 1));
    // SpatialTransform(E, r) takes E = R^T, the parent-to-child rotation.
    parent = model.AddBody(parent, R::Math::SpatialTransform(R_prev.transpose(), p_prev), joint,
                           R::Body(r.mass, com, Ic));
    R_prev = Rc;
    p_prev = pc;
  }
}

class Rbdl final : public Peer {
 public:
  Rbdl(const std::vector<PeerLink>& rows, const Eigen::Vector3d& gravity) {
    build_model(rows, gravity, model_);
    const Eigen::Index n = static_cast<Eigen::Index>(model_.dof_count);
    tau_ = Eigen::VectorXd::Zero(n);
    qdd_ = Eigen::VectorXd::Zero(n);
    bias_ = Eigen::VectorXd::Zero(n);
    H_ = Eigen::MatrixXd::Zero(n, n);
    llt_ = Eigen::LLT<Eigen::MatrixXd>(n);
  }
  std::string name() const override { return "rbdl"; }
  const Eigen::VectorXd& id(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& qdd) override {
    R::InverseDynamics(model_, q, qd, qdd, tau_);
    return tau_;
  }
  const Eigen::MatrixXd& gim(const Eigen::VectorXd& q) override {
    R::CompositeRigidBodyAlgorithm(model_, q, H_, true);
    return H_;
  }
  const Eigen::VectorXd& fd(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& tau) override {
    R::ForwardDynamics(model_, q, qd, tau, qdd_);
    return qdd_;
  }
  // RBDL's ForwardDynamicsLagrangian with LinearSolverLLT, minus its allocations: the bias
  // (NonlinearEffects), CRBA without a second kinematics pass, LLT into storage sized once.
  const Eigen::VectorXd& fd_chol(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& tau) override {
    R::NonlinearEffects(model_, q, qd, bias_);
    R::CompositeRigidBodyAlgorithm(model_, q, H_, false);
    llt_.compute(H_);
    qdd_ = tau - bias_;
    llt_.solveInPlace(qdd_);
    return qdd_;
  }

 private:
  R::Model model_;
  Eigen::VectorXd tau_, qdd_, bias_;
  Eigen::MatrixXd H_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

// The chain closed by RBDL's loop constraint between the base (predecessor) and the last body
// (successor), in the directions the loop constrains.
class RbdlLoop final : public LoopPeer {
 public:
  RbdlLoop(const std::vector<PeerLink>& rows, const Eigen::Vector3d& gravity,
           const PeerLoop& loop) {
    build_model(rows, gravity, model_);
    const Eigen::Matrix3d Rc = dh_rotation(rows.back());
    const Eigen::Vector3d pc = dh_origin(rows.back());
    const Eigen::Matrix3d R_last = Rc * loop.R_last;  // the frame in the last body's frame
    const Eigen::Vector3d p_last = Rc * loop.p_last + pc;
    for (const Eigen::Matrix<double, 6, 1>& axis : loop.axes) {
      constraints_.AddLoopConstraint(
          0, model_.dof_count, R::Math::SpatialTransform(loop.R_base.transpose(), loop.p_base),
          R::Math::SpatialTransform(R_last.transpose(), p_last), R::Math::SpatialVector(axis));
    }
    constraints_.Bind(model_);
    constraints_.SetActuationMap(model_, loop.actuated);
  }
  Eigen::VectorXd inverse(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                          const Eigen::VectorXd& qdd) override {
    R::Math::VectorNd qdd_out = qdd, tau = Eigen::VectorXd::Zero(q.size());
    R::InverseDynamicsConstraints(model_, q, qd, qdd, constraints_, qdd_out, tau);
    return tau;
  }
  Eigen::VectorXd forward(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                          const Eigen::VectorXd& tau) override {
    R::Math::VectorNd qdd = Eigen::VectorXd::Zero(q.size());
    R::ForwardDynamicsConstraintsDirect(model_, q, qd, tau, constraints_, qdd);
    return qdd;
  }

 private:
  R::Model model_;
  R::ConstraintSet constraints_;
};

}  // namespace

std::unique_ptr<LoopPeer> make_rbdl_loop(const std::vector<PeerLink>& rows,
                                         const Eigen::Vector3d& gravity, const PeerLoop& loop) {
  return std::make_unique<RbdlLoop>(rows, gravity, loop);
}

std::unique_ptr<Peer> make_rbdl(const std::vector<PeerLink>& rows, const Eigen::Vector3d& gravity) {
  return std::make_unique<Rbdl>(rows, gravity);
}

std::string rbdl_version() {
  constexpr int version = RBDL_API_VERSION;  // (major << 16) + (minor << 8) + patch, unbracketed
  return "RBDL " + std::to_string(version >> 16) + "." + std::to_string((version >> 8) & 0xff) +
         "." + std::to_string(version & 0xff);
}

}  // namespace denoc_bench
