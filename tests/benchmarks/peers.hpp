// The peers in denoc_bench: RBDL and Pinocchio, compiled from the user's source
// checkouts with the suite's own compiler and flags (tests/benchmarks/CMakeLists.txt,
// DENOC_RBDL_DIR and DENOC_PINOCCHIO_DIR). Each peer sits in its own translation unit (its
// headers, warnings and compile time stay there); denoc_bench sees only this interface.
//
// Every peer is built from the same standard DH rows as the suite and KDL. Joint i of a peer is
// placed in body i-1 at C_{i-1} = Rz(theta) Tz(b) Tx(a) Rx(alpha) of row i-1 (the identity for
// i = 1), and body i's mass, centre of mass and inertia (given in the DH frame F_i = body i's
// frame times C_i) are moved into body i's frame by C_i. A revolute joint turns about z, a
// prismatic one slides along z, which commutes with Rz(theta) Tz(b). Three constructions
// independent of the suite's, so their agreement (denoc_bench --check) is a real check.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

namespace denoc_bench {

// One row of the standard DH table with the link's mass properties, as denoc::DhLink holds them
// (no denoc header here, so that the peers' slow translation units do not depend on the suite's
// sources): mass centre and inertia about it in the DH frame F_i.
struct PeerLink {
  bool revolute = true;
  double a = 0, b = 0, alpha = 0, theta = 0, mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

class Peer {
 public:
  virtual ~Peer() = default;
  virtual std::string name() const = 0;
  // Inverse dynamics with gravity (RNEA).
  virtual const Eigen::VectorXd& id(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                    const Eigen::VectorXd& qdd) = 0;
  // The joint-space inertia matrix. Pinocchio's crba fills only the upper triangle (and is timed
  // so); gim_full symmetrises it, for the agreement check.
  virtual const Eigen::MatrixXd& gim(const Eigen::VectorXd& q) = 0;
  virtual Eigen::MatrixXd gim_full(const Eigen::VectorXd& q) { return gim(q); }
  // O(n) forward dynamics (ABA).
  virtual const Eigen::VectorXd& fd(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                    const Eigen::VectorXd& tau) = 0;
  // Forward dynamics through the inertia matrix: bias forces, CRBA, Eigen's cache-blocked LLT in
  // place on storage allocated once, two triangular solves.
  virtual const Eigen::VectorXd& fd_chol(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         const Eigen::VectorXd& tau) = 0;
  // The inverse inertia matrix by the peer's own route: its storage, or null when it has none
  // (the inverse inertia matrix's peer is Pinocchio's O(n^2) computeMinverse, which fills the upper
  // triangle of a row-major matrix and is timed so; RBDL offers no inverse of its own). minv_full
  // gives the whole matrix, for the agreement check; has_minv says whether there is one.
  virtual bool has_minv() const { return false; }
  virtual const double* minv(const Eigen::VectorXd& q) {
    (void)q;
    return nullptr;
  }
  virtual Eigen::MatrixXd minv_full(const Eigen::VectorXd& q) {
    (void)q;
    return {};
  }
  // The matrix of convective inertia terms by the peer's own route, or null when it has none:
  // Pinocchio's computeCoriolisMatrix (the Christoffel-symbol form, docs/coriolis.md), which has
  // no convention argument, so the LOCAL peer alone offers it; RBDL has none.
  virtual bool has_coriolis() const { return false; }
  // On the trees, the sparse factorisation of M, the peer's own (Pinocchio's cholesky::decompose,
  // M = U D U^T with U unit upper triangular and as sparse as M): prepare_factor forms M at q
  // once, factor factors it again (what is timed), factor_as_ltdl gives the factor as the suite
  // keeps its M = L^T D L: D on the diagonal, L = U^T below it (for the agreement check).
  virtual bool has_sparse_factor() const { return false; }
  virtual void prepare_factor(const Eigen::VectorXd& q) { (void)q; }
  virtual const double* factor() { return nullptr; }
  virtual Eigen::MatrixXd factor_as_ltdl() { return {}; }
  virtual const Eigen::MatrixXd* coriolis(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    (void)q;
    (void)qd;
    return nullptr;
  }
  // The legged robot's quantities (docs/legged.md), by the peer's own routes, all in the world
  // frame: the centre of mass G (3), its Jacobian J_G (3 x nv, column-major), the centroidal
  // momentum matrix A_G (6 x nv, column-major, rows linear then angular) and momentum h_G (6), and
  // a frame's velocity and classical acceleration at its origin ([v; w] and [a; dw], 6 each). Each
  // returns the peer's storage (what is timed), null when the peer has none (has_centroidal);
  // frame_id is -1 for a frame the peer does not know. Pinocchio's centerOfMass,
  // jacobianCenterOfMass, ccrba, computeCentroidalMomentum, and forwardKinematics followed by
  // getFrameVelocity / getFrameClassicalAcceleration in LOCAL_WORLD_ALIGNED; RBDL offers none.
  // The derivatives of the dynamics (docs/derivatives.md): Pinocchio's computeRNEADerivatives
  // (d tau / d q, d tau / d v, and the upper triangle of d tau / d a = M) and
  // computeABADerivatives (the forward dynamics by the ABA, d qdd / d q, d qdd / d v and M^-1),
  // the base's columns in its tangent space. Each fills the peer's storage (what is timed) and
  // returns its first matrix; derivative(k) copies matrix k of the last calls (0, 1, 2: the inverse
  // dynamics' by q, v and a; 3, 4, 5: the forward dynamics' by q, v and tau).
  // RBDL has none.
  virtual bool has_derivatives() const { return false; }
  virtual const double* id_derivatives(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       const Eigen::VectorXd& qdd) {
    (void)q;
    (void)qd;
    (void)qdd;
    return nullptr;
  }
  virtual const double* fd_derivatives(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       const Eigen::VectorXd& tau) {
    (void)q;
    (void)qd;
    (void)tau;
    return nullptr;
  }
  virtual Eigen::MatrixXd derivative(int k) const {
    (void)k;
    return {};
  }
  virtual bool has_centroidal() const { return false; }
  virtual const double* com(const Eigen::VectorXd& q) {
    (void)q;
    return nullptr;
  }
  virtual const double* com_jacobian(const Eigen::VectorXd& q) {
    (void)q;
    return nullptr;
  }
  virtual const double* centroidal_matrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    (void)q;
    (void)qd;
    return nullptr;
  }
  virtual const double* centroidal_momentum(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    (void)q;
    (void)qd;
    return nullptr;
  }
  virtual int frame_id(const std::string& name) const {
    (void)name;
    return -1;
  }
  virtual const double* frame_velocity(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       int frame) {
    (void)q;
    (void)qd;
    (void)frame;
    return nullptr;
  }
  virtual const double* frame_acceleration(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& qdd, int frame) {
    (void)q;
    (void)qd;
    (void)qdd;
    (void)frame;
    return nullptr;
  }
};

// A closed loop (docs/loops.md) for a peer's loop constraints: the chain's last DH frame F_n,
// moved by (R_last, p_last), held to the base frame's (R_base, p_base) along `axes`, the loop's
// independent constrained directions as [w; v] in the base-side frame (a peer needs independent
// ones: a planar loop's in-plane directions only); `actuated` the driven joints.
struct PeerLoop {
  Eigen::Matrix3d R_last = Eigen::Matrix3d::Identity(), R_base = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p_last = Eigen::Vector3d::Zero(), p_base = Eigen::Vector3d::Zero();
  std::vector<Eigen::Matrix<double, 6, 1>> axes;
  std::vector<bool> actuated;
};

// The closed chain's inverse dynamics (the joints' forces, zero on the passive ones, that give qdd
// on the loop) and forward dynamics (qdd under the joints' forces tau, the loop held).
class LoopPeer {
 public:
  virtual ~LoopPeer() = default;
  virtual Eigen::VectorXd inverse(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                  const Eigen::VectorXd& qdd) = 0;
  virtual Eigen::VectorXd forward(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                  const Eigen::VectorXd& tau) = 0;
};

// Null when the benchmark was built without that peer (its *_DIR variable empty).
// RBDL's loop constraints: ConstraintSet::AddLoopConstraint, InverseDynamicsConstraints with the
// actuation map, ForwardDynamicsConstraintsDirect.
std::unique_ptr<LoopPeer> make_rbdl_loop(const std::vector<PeerLink>& rows,
                                         const Eigen::Vector3d& gravity, const PeerLoop& loop);
std::unique_ptr<Peer> make_rbdl(const std::vector<PeerLink>& rows, const Eigen::Vector3d& gravity);
// convention_world: Pinocchio's WORLD convention for crba and aba (LOCAL otherwise; rnea has
// only one). Its Data allocates four n^3 second-order derivative tensors (and zeroes them), 8 GB
// each at n = 1000: denoc_bench builds Pinocchio only up to kPinocchioMaxDof joints.
std::unique_ptr<Peer> make_pinocchio(const std::vector<PeerLink>& rows,
                                     const Eigen::Vector3d& gravity, bool convention_world);
constexpr int kPinocchioMaxDof = 400;
// Pinocchio's model read by its own URDF parser (pinocchio::urdf::buildModel, fixed base, built
// with Debian's urdfdom), for the trees: the suite reads the same file, and both number the joints
// depth-first with a link's children in the byte order of their joints' names (docs/urdf.md), so
// q means the same on both sides. Its fd_chol is Pinocchio's sparse route (cholesky::decompose
// and cholesky::solve), not a dense LLT. free_flyer: the root joint is Pinocchio's
// JointModelFreeFlyer (buildModel(path, JointModelFreeFlyer(), model)), the suite's floating base
// (docs/floating-base.md): q has 7 + n entries, the rates, accelerations and forces 6 + n, and
// fd takes the 6 + n forces [0_6; tau] (the base not actuated); no Coriolis matrix then (the
// suite has no floating-base one).
std::unique_ptr<Peer> make_pinocchio_urdf(const std::string& path, const Eigen::Vector3d& gravity,
                                          bool convention_world, bool free_flyer = false);

// "RBDL 3.3.1", "Pinocchio 3.7.0", or empty when not built.
std::string rbdl_version();
std::string pinocchio_version();

}  // namespace denoc_bench
