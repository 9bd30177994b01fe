// Pinocchio (stack-of-tasks/pinocchio, 3.x) as a peer of denoc_bench, header-only:
// rnea, crba, aba, nonLinearEffects, cholesky, computeCoriolisMatrix, the derivatives of rnea and
// aba, and the centre of mass, centroidal and frame functions instantiated here with
// the suite's flags; its URDF parser compiled from its sources (tests/benchmarks/CMakeLists.txt);
// see peers.hpp for the models.
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/center-of-mass.hpp>
#include <pinocchio/algorithm/centroidal.hpp>
#include <pinocchio/algorithm/cholesky.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/kinematics.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <cmath>

#include "peers.hpp"

namespace denoc_bench {
namespace {

namespace P = pinocchio;

P::SE3 dh_placement(const PeerLink& r) {
  const Eigen::Matrix3d R = (Eigen::AngleAxisd(r.theta, Eigen::Vector3d::UnitZ()) *
                             Eigen::AngleAxisd(r.alpha, Eigen::Vector3d::UnitX()))
                                .toRotationMatrix();
  return P::SE3(R, Eigen::Vector3d(r.a * std::cos(r.theta), r.a * std::sin(r.theta), r.b));
}

// The chain of DH rows as Pinocchio joints and bodies (peers.hpp).
P::Model model_from_rows(const std::vector<PeerLink>& rows) {
  P::Model model;
  P::JointIndex parent = 0;
  P::SE3 placement = P::SE3::Identity();
  int i = 0;
  for (const PeerLink& r : rows) {
    const std::string name = "joint" + std::to_string(++i);
    if (r.revolute)
      parent = model.addJoint(parent, P::JointModelRZ(), placement, name);
    else
      parent = model.addJoint(parent, P::JointModelPZ(), placement, name);
    placement = dh_placement(r);
    // The inertia about the mass centre, in F_i; placed in the joint's frame by C_i.
    model.appendBodyToJoint(parent, P::Inertia(r.mass, r.com, r.inertia), placement);
  }
  return model;
}

// sparse: fd_chol by Pinocchio's sparse factorisation (the trees), else by Eigen's dense LLT on
// crba's upper triangle (the chains, as the suite's chain route). floating: a free-flyer root
// (no Coriolis matrix offered).
class Pinocchio final : public Peer {
 public:
  Pinocchio(P::Model model, const Eigen::Vector3d& gravity, bool world, bool sparse,
            bool floating = false)
      : convention_(world ? P::Convention::WORLD : P::Convention::LOCAL),
        sparse_(sparse),
        floating_(floating),
        model_(std::move(model)) {
    model_.gravity.linear(gravity);
    model_.gravity.angular().setZero();
    data_ = std::make_unique<P::Data>(model_);
    const Eigen::Index n = model_.nv;
    zero_ = Eigen::VectorXd::Zero(n);
    qdd_ = Eigen::VectorXd::Zero(n);
    llt_ = Eigen::LLT<Eigen::MatrixXd, Eigen::Upper>(n);
    for (Eigen::MatrixXd& m :
         partials_)  // computeRNEADerivatives leaves the zeros between branches
      m.setZero(n, n);
  }
  std::string name() const override {
    return convention_ == P::Convention::WORLD ? "pinocchio_world" : "pinocchio";
  }
  const Eigen::VectorXd& id(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& qdd) override {
    return P::rnea(model_, *data_, q, qd, qdd);
  }
  const Eigen::MatrixXd& gim(const Eigen::VectorXd& q) override {
    return P::crba(model_, *data_, q, convention_);
  }
  Eigen::MatrixXd gim_full(const Eigen::VectorXd& q) override {
    const Eigen::MatrixXd upper = gim(q);
    return upper.selfadjointView<Eigen::Upper>();
  }
  const Eigen::VectorXd& fd(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& tau) override {
    return P::aba(model_, *data_, q, qd, tau, convention_);
  }
  // Bias (nonLinearEffects), crba (upper triangle), then Eigen's LLT on the upper triangle or
  // (sparse) cholesky::decompose and cholesky::solve.
  const Eigen::VectorXd& fd_chol(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& tau) override {
    const Eigen::VectorXd& h = P::nonLinearEffects(model_, *data_, q, qd);
    P::crba(model_, *data_, q, convention_);
    qdd_ = tau - h;
    if (sparse_) {
      P::cholesky::decompose(model_, *data_);
      P::cholesky::solve(model_, *data_, qdd_);
    } else {
      llt_.compute(data_->M);
      llt_.solveInPlace(qdd_);
    }
    return qdd_;
  }
  bool has_sparse_factor() const override { return sparse_; }
  void prepare_factor(const Eigen::VectorXd& q) override {
    P::crba(model_, *data_, q, convention_);
  }
  const double* factor() override { return P::cholesky::decompose(model_, *data_).data(); }
  Eigen::MatrixXd factor_as_ltdl() override {
    P::cholesky::decompose(model_, *data_);
    Eigen::MatrixXd LD = data_->U.transpose().triangularView<Eigen::StrictlyLower>();
    LD.diagonal() = data_->D;
    return LD;
  }
  // computeMinverse (O(n^2), an articulated-body factorisation): the upper triangle of the
  // row-major data.Minv. It has no convention argument: the LOCAL peer alone offers it.
  bool has_minv() const override { return convention_ == P::Convention::LOCAL; }
  const double* minv(const Eigen::VectorXd& q) override {
    if (!has_minv()) return nullptr;
    return P::computeMinverse(model_, *data_, q).data();
  }
  Eigen::MatrixXd minv_full(const Eigen::VectorXd& q) override {
    const Eigen::MatrixXd upper = P::computeMinverse(model_, *data_, q);
    return upper.selfadjointView<Eigen::Upper>();
  }
  bool has_coriolis() const override { return convention_ == P::Convention::LOCAL && !floating_; }
  const Eigen::MatrixXd* coriolis(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) override {
    if (!has_coriolis()) return nullptr;
    return &P::computeCoriolisMatrix(model_, *data_, q, qd);
  }
  // No convention argument: the LOCAL peer alone offers them.
  bool has_derivatives() const override { return convention_ == P::Convention::LOCAL; }
  const double* id_derivatives(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               const Eigen::VectorXd& qdd) override {
    P::computeRNEADerivatives(model_, *data_, q, qd, qdd, partials_[0], partials_[1], partials_[2]);
    return partials_[0].data();
  }
  const double* fd_derivatives(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               const Eigen::VectorXd& tau) override {
    P::computeABADerivatives(model_, *data_, q, qd, tau, partials_[3], partials_[4], partials_[5]);
    return partials_[3].data();
  }
  Eigen::MatrixXd derivative(int k) const override { return partials_[k]; }
  // No convention here either: the LOCAL peer alone offers them.
  bool has_centroidal() const override { return convention_ == P::Convention::LOCAL; }
  const double* com(const Eigen::VectorXd& q) override {
    return P::centerOfMass(model_, *data_, q).data();
  }
  const double* com_jacobian(const Eigen::VectorXd& q) override {
    return P::jacobianCenterOfMass(model_, *data_, q).data();
  }
  // ccrba forms A_G and h_G = A_G v in one call.
  const double* centroidal_matrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) override {
    return P::ccrba(model_, *data_, q, qd).data();
  }
  const double* centroidal_momentum(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) override {
    momentum_ = P::computeCentroidalMomentum(model_, *data_, q, qd).toVector();
    return momentum_.data();
  }
  int frame_id(const std::string& name) const override {
    if (!model_.existFrame(name, P::BODY)) return -1;
    return static_cast<int>(model_.getFrameId(name, P::BODY));
  }
  const double* frame_velocity(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               int frame) override {
    P::forwardKinematics(model_, *data_, q, qd);
    motion_ = P::getFrameVelocity(model_, *data_, static_cast<P::FrameIndex>(frame),
                                  P::LOCAL_WORLD_ALIGNED)
                  .toVector();
    return motion_.data();
  }
  const double* frame_acceleration(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   const Eigen::VectorXd& qdd, int frame) override {
    P::forwardKinematics(model_, *data_, q, qd, qdd);
    motion_ = P::getFrameClassicalAcceleration(model_, *data_, static_cast<P::FrameIndex>(frame),
                                               P::LOCAL_WORLD_ALIGNED)
                  .toVector();
    return motion_.data();
  }

 private:
  P::Convention convention_;
  bool sparse_, floating_;
  P::Model model_;
  std::unique_ptr<P::Data> data_;
  Eigen::VectorXd zero_, qdd_;
  Eigen::Matrix<double, 6, 1> momentum_, motion_;
  Eigen::LLT<Eigen::MatrixXd, Eigen::Upper> llt_;
  // computeRNEADerivatives' by q, v and a, then computeABADerivatives' by q, v and tau: apart,
  // since the first writes only the entries of rates on one path from the root.
  Eigen::MatrixXd partials_[6];
};

}  // namespace

std::unique_ptr<Peer> make_pinocchio(const std::vector<PeerLink>& rows,
                                     const Eigen::Vector3d& gravity, bool convention_world) {
  return std::make_unique<Pinocchio>(model_from_rows(rows), gravity, convention_world, false);
}

std::unique_ptr<Peer> make_pinocchio_urdf(const std::string& path, const Eigen::Vector3d& gravity,
                                          bool convention_world, bool free_flyer) {
  P::Model model;
  if (free_flyer)
    P::urdf::buildModel(path, P::JointModelFreeFlyer(), model);
  else
    P::urdf::buildModel(path, model);
  return std::make_unique<Pinocchio>(std::move(model), gravity, convention_world, true, free_flyer);
}

std::string pinocchio_version() {
  return "Pinocchio " PINOCCHIO_VERSION;
}

}  // namespace denoc_bench
