// denoc_bench: the suite side by side with Orocos KDL, in one Google Benchmark binary.
//
//   denoc_bench --check           only the agreement check (suite against KDL), as a table
//   denoc_bench [--skip-check] [--benchmark_...]
//                                 the check (silent unless it fails: exit 1), then the benchmarks
//
// Benchmark names, for scripts/bench to parse:
//   suite/<quantity>/<double|float>/<model>   quantity: id gim bias gravity gim_inv gim_inv_udu
//                                             fd_udu fd_chol coriolis, and ga_id ga_gim ga_fd
//                                             (Gibbs-Appell, Mata 2002)
//   kdl/<quantity>/<model>                    quantity: id gim fd (Vereshchagin), and for
//                                             reference bias gravity gim_inv fd_chol
//   crossover/<fd_udu|fd_chol>/n:<n>          double, n = 2..100, 200, 400, 1000
//   crossover/<inv_udu|inv_chol>/n:<n>        the two inverse GIMs, double, the same n
//   pair/<id|gim|fd_udu>/<model>              suite (double) and KDL timed in turns, for the
//                                             target ratios (see register_pair)
//   pair/inv/<model>                          the O(n^2) inverse GIM (U D U^T) and the O(n^3) one
//                                             (Cholesky) timed in turns (register_inverse_pair)
//   race/<id|gim|fd|fd_chol|inv|coriolis|chol|id_derivatives|fd_derivatives>/<model>
//   race/<com|com_jacobian|centroidal_matrix|centroidal_momentum|frame_velocity|
//        frame_acceleration>/<tree model>   the legged robot's quantities against Pinocchio's
//                                             the suite (double) and every peer built in
//                                             (RBDL, Pinocchio LOCAL and WORLD conventions) timed
//                                             in turns (see register_race); only when a peer is
//                                             built (DENOC_RBDL_DIR, DENOC_PINOCCHIO_DIR). inv
//                                             the suite's O(n^2) inverse GIM against
//                                             Pinocchio's computeMinverse, the one peer route;
//                                             coriolis Saha's C against Pinocchio's
//                                             computeCoriolisMatrix; chol (trees) the sparse
//                                             factorisation against cholesky::decompose
//   model: stanford, n:<n> for the benchmark chains, solo12 and simple_humanoid for the trees
//          (robots/*.urdf, fixed base; the suite and Pinocchio only), solo12_floating and
//          simple_humanoid_floating for the same trees on a floating base (the suite's functions
//          with the base at the root, against Pinocchio's free-flyer root joint; race/ only: id fd
//          gim fd_chol inv chol, no coriolis).
//
//   denoc_bench --check also prints the agreement of the suite with the peers built in (the
//   floating-base trees also block by block: check_floating), and the check before timing fails
//   (exit 1) when they disagree. Saha's C is not Pinocchio's (the
//   Christoffel-symbol form): check_coriolis compares what must agree (docs/coriolis.md).
//   check_legged compares the centre of mass, its Jacobian, the centroidal momentum and its
//   matrix, and every link's velocity and acceleration on the trees (docs/legged.md).
//
// Every iteration takes the next entry of a pool of random states generated before timing, and
// its result goes through benchmark::DoNotOptimize, so nothing is constant-folded.
//
// How the DH rows become KDL segments (both sides are built from the same rows):
//   Segment(Joint(RotZ | TransZ), Frame::DH(a, alpha, b, theta), RigidBodyInertia(m, com, I_c)).
// A KDL segment's pose is joint.pose(q) * f_tip = Rz(q) Rz(theta) Tz(b) Tx(a) Rx(alpha) (or Tz(q)
// for a prismatic joint, which commutes with Rz(theta) Tz(b)), i.e. the standard DH transform
// with q added to theta (to b): its tip frame is the DH link frame F_i, the frame in which the
// robot file gives com and the inertia about the mass centre, which is what
// RigidBodyInertia(m, c, Ic) takes (it shifts Ic to the frame origin itself).
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#ifndef DENOC_BENCH_NO_KDL
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainhdsolver_vereshchagin.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/jntspaceinertiamatrix.hpp>
#endif
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../support/coriolis_forms.hpp"
#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/motion/centre_of_mass.hpp"
#include "peers.hpp"

namespace {

using denoc::DhLink;
using denoc::JointType;
using denoc::MatX;
using denoc::Vec3;
using denoc::Vec6;
using denoc::VecX;

// ----------------------------------------------------------------------------------------------
// Models

struct ModelSpec {
  std::string name;                  // "stanford", "n:<n>", or a tree's name
  std::vector<DhLink<double>> rows;  // standard DH, SI units (the chains)
  std::string urdf;                  // the trees: the URDF file the suite and the peer read
  Vec3<double> gravity;
  denoc::Model<double> model;
  // The trees: every link of the URDF as a frame (io/frames.hpp), by name, and the frame raced
  // (a foot, an ankle).
  std::vector<std::pair<std::string, denoc::BodyFrame<double>>> frames;
  std::string race_frame;
  bool tree() const { return !urdf.empty(); }
  // A tree on a floating base (docs/floating-base.md): q has 7 + n entries, the rates 6 + n.
  bool floating() const { return model.floating(); }
};

// The benchmark chains: n revolute joints, standard DH, alternating alpha = -+90 deg,
// a = 0.1, b = 0.05, m = 1, com = (0.05, 0, 0), I = diag(0.01, 0.02, 0.03) about the mass
// centre, gravity (0, 0, -9.81).
ModelSpec chain_model(int n) {
  ModelSpec spec;
  spec.name = "n:" + std::to_string(n);
  spec.gravity = Vec3<double>(0, 0, -9.81);
  for (int i = 0; i < n; ++i) {
    DhLink<double> row;
    row.type = JointType::revolute;
    row.a = 0.1;
    row.b = 0.05;
    row.alpha = i % 2 ? M_PI / 2 : -M_PI / 2;
    row.theta = 0;
    row.mass = 1;
    row.com = Vec3<double>(0.05, 0, 0);
    row.inertia = Vec3<double>(0.01, 0.02, 0.03).asDiagonal();
    spec.rows.push_back(row);
  }
  spec.model = denoc::Model<double>(denoc::links_from_dh(denoc::DhConvention::standard, spec.rows),
                                    spec.gravity);
  return spec;
}

ModelSpec stanford_model() {
  const denoc::RobotFile robot = denoc::load_robot_file(DENOC_STANFORD_YAML);
  if (robot.convention != denoc::DhConvention::standard) {
    std::fprintf(stderr, "denoc_bench: %s: only standard DH maps onto KDL segments here\n",
                 DENOC_STANFORD_YAML);
    std::exit(2);
  }
  ModelSpec spec;
  spec.name = "stanford";
  spec.rows = robot.dh;
  spec.gravity = robot.model.gravity();
  spec.model = robot.model;
  return spec;
}

// The trees from the shipped URDFs: the quadruped Solo 12 (4 legs of 3 joints) and the simple
// humanoid (29 joints; the model of Pinocchio's own benchmarks), on a fixed base or (floating)
// a floating one, <name>_floating (the base link and the links fixed to it the base body, as
// Pinocchio's free-flyer root joint carries them). Timed against Pinocchio reading the same file
// (peers.hpp); KDL and RBDL take no part.
ModelSpec tree_model(const std::string& name, const std::string& file,
                     const std::string& race_frame, bool floating = false) {
  ModelSpec spec;
  spec.name = floating ? name + "_floating" : name;
  spec.urdf = std::string(DENOC_ROBOTS_DIR) + "/" + file;
  denoc::ChainSelection selection;
  selection.floating_base = floating;
  const denoc::RobotFile robot = denoc::load_robot_file(spec.urdf, {}, selection);
  spec.gravity = robot.model.gravity();
  spec.model = robot.model;
  std::vector<std::string> links = robot.link_names;
  for (const auto& fixed : robot.fixed_link_frames)
    links.push_back(fixed.name);
  for (const std::string& link : links)
    spec.frames.emplace_back(link, denoc::find_frame(robot, link));
  spec.race_frame = race_frame;
  return spec;
}

#ifndef DENOC_BENCH_NO_KDL
KDL::Vector kdl_vector(const Vec3<double>& v) {
  return KDL::Vector(v.x(), v.y(), v.z());
}

KDL::Chain kdl_chain(const ModelSpec& spec) {
  KDL::Chain chain;
  for (const DhLink<double>& r : spec.rows) {
    const KDL::Joint joint(r.type == JointType::revolute ? KDL::Joint::RotZ : KDL::Joint::TransZ);
    const KDL::Frame tip = KDL::Frame::DH(r.a, r.alpha, r.b, r.theta);
    const Eigen::Matrix3d& I = r.inertia;  // about the mass centre, in F_i
    const KDL::RotationalInertia Ic(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
    chain.addSegment(
        KDL::Segment(joint, tip, KDL::RigidBodyInertia(r.mass, kdl_vector(r.com), Ic)));
  }
  return chain;
}

#endif  // DENOC_BENCH_NO_KDL

// ----------------------------------------------------------------------------------------------
// Pools of random states, generated before any timing

template <typename S>
struct Pool {
  std::vector<VecX<S>> q, qd, qdd, tau;
  std::size_t size() const { return q.size(); }
};

int pool_entries(int n) {
  return n <= 64 ? 256 : std::max(16, 16384 / n);
}

// With a floating base, q = [position, unit quaternion (x y z w), joints] (7 + n), the rates and
// accelerations 6 + n (the base's first), and tau = [0_6; joint forces] (the base not actuated:
// the suite's floating forward dynamics takes its tail, Pinocchio's aba the whole).
Pool<double> make_pool(const ModelSpec& spec, int entries, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = spec.model.dof();
  const int base_q = spec.model.nq() - n, base_v = spec.model.nv() - n;
  Pool<double> pool;
  for (int k = 0; k < entries; ++k) {
    VecX<double> q(n + base_q), qd(n + base_v), qdd(n + base_v), tau(n + base_v);
    if (spec.floating()) {
      Eigen::Vector4d quaternion;
      do {
        for (int i = 0; i < 4; ++i)
          quaternion[i] = unit(rng);
      } while (quaternion.norm() < 0.1 || quaternion.norm() > 1);  // uniform on the sphere
      q.head<3>() = Vec3<double>(unit(rng), unit(rng), unit(rng));
      q.segment<4>(3) = quaternion.normalized();
      for (int i = 0; i < 6; ++i) {
        qd[i] = 2 * unit(rng);
        qdd[i] = 5 * unit(rng);
        tau[i] = 0;
      }
    }
    for (int i = 0; i < n; ++i) {
      const bool revolute = spec.model.joint(i).type == JointType::revolute;
      q[base_q + i] = revolute ? M_PI * unit(rng) : 0.5 * unit(rng);
      qd[base_v + i] = 2 * unit(rng);
      qdd[base_v + i] = 5 * unit(rng);
      tau[base_v + i] = 10 * unit(rng);
    }
    pool.q.push_back(q);
    pool.qd.push_back(qd);
    pool.qdd.push_back(qdd);
    pool.tau.push_back(tau);
  }
  return pool;
}

template <typename S>
Pool<S> cast_pool(const Pool<double>& p) {
  Pool<S> out;
  auto cast = [](const std::vector<VecX<double>>& in, std::vector<VecX<S>>& to) {
    for (const VecX<double>& v : in)
      to.push_back(v.cast<S>());
  };
  cast(p.q, out.q);
  cast(p.qd, out.qd);
  cast(p.qdd, out.qdd);
  cast(p.tau, out.tau);
  return out;
}

#ifndef DENOC_BENCH_NO_KDL
KDL::JntArray jnt(const VecX<double>& v) {
  KDL::JntArray a(static_cast<unsigned>(v.size()));
  a.data = v;
  return a;
}
#endif  // DENOC_BENCH_NO_KDL

// ----------------------------------------------------------------------------------------------
// Contexts: everything a benchmark touches, built once and never moved (the KDL solvers keep a
// reference to their chain).

template <typename S>
struct SuiteContext {
  denoc::Model<S> model;
  denoc::Workspace<S> ws;
  denoc::GibbsAppellWorkspace<S> ga;
  denoc::FixmanWorkspace<S> fx;
  denoc::CentroidalWorkspace<S> centroidal;
  denoc::DerivativesWorkspace<S> derivatives;
  Vec6<S> frame_motion;  // the frame races' result: a frame's velocity or acceleration
  VecX<S> qdd;           // the forward dynamics' accelerations, where their derivatives are taken
  Pool<S> pool;
  SuiteContext(const denoc::Model<S>& m, Pool<S> p)
      : model(m),
        ws(model),
        ga(model),
        fx(model),
        centroidal(model),
        derivatives(model),
        qdd(VecX<S>::Zero(model.nv())),
        pool(std::move(p)) {}
};

// The suite's route for a model, fixed base or floating (the same functions, the model's kind
// choosing): what the peers' check and the race call. With a floating base the rates, accelerations
// and forces have 6 + n entries and the forward dynamics take the joint forces alone, the tail of
// the pool's [0_6; tau]. suite_factor factors the inertia matrix the last suite_gim formed.
using SuiteModel = denoc::Model<double>;
using SuiteWorkspace = denoc::Workspace<double>;

const VecX<double>& suite_id(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q,
                             const VecX<double>& qd, const VecX<double>& qdd) {
  return denoc::inverse_dynamics(m, ws, q, qd, qdd);
}
const VecX<double>& suite_bias(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q,
                               const VecX<double>& qd) {
  return denoc::bias_forces(m, ws, q, qd);
}
const MatX<double>& suite_gim(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q) {
  return denoc::generalized_inertia(m, ws, q);
}
const VecX<double>& suite_fd(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q,
                             const VecX<double>& qd, const VecX<double>& tau) {
  return m.floating() ? denoc::forward_dynamics(m, ws, q, qd, tau.tail(m.dof()))
                      : denoc::forward_dynamics(m, ws, q, qd, tau);
}
const VecX<double>& suite_fd_chol(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q,
                                  const VecX<double>& qd, const VecX<double>& tau) {
  return m.floating() ? denoc::forward_dynamics_cholesky(m, ws, q, qd, tau.tail(m.dof()))
                      : denoc::forward_dynamics_cholesky(m, ws, q, qd, tau);
}
const MatX<double>& suite_inv(const SuiteModel& m, SuiteWorkspace& ws, const VecX<double>& q) {
  return denoc::inverse_inertia_udu(m, ws, q);
}
const MatX<double>& suite_factor(const SuiteModel& m, SuiteWorkspace& ws) {
  if (m.floating()) {
    denoc::unchecked::factor_floating_inertia(m, ws);
    return ws.inertia.L_floating;
  }
  denoc::factor_tree_inertia(m, ws);
  return ws.inertia.L;
}
// A frame's velocity [v; w] and classical acceleration [a; dw] at its origin, in the world frame
// (motion/body_motion.hpp): the bodies' motion outwards, then the frame's.
Vec6<double> suite_frame_velocity(const SuiteModel& m, denoc::CentroidalWorkspace<double>& ws,
                                  const VecX<double>& q, const VecX<double>& qd,
                                  const denoc::BodyFrame<double>& frame) {
  denoc::body_poses(m, ws.motion, q);
  denoc::body_velocities(m, ws.motion, qd);
  return denoc::frame_velocity(ws.motion, frame);
}
Vec6<double> suite_frame_acceleration(const SuiteModel& m, denoc::CentroidalWorkspace<double>& ws,
                                      const VecX<double>& q, const VecX<double>& qd,
                                      const VecX<double>& qdd,
                                      const denoc::BodyFrame<double>& frame) {
  denoc::body_poses(m, ws.motion, q);
  denoc::body_velocities(m, ws.motion, qd);
  denoc::body_accelerations(m, ws.motion, qd, qdd);
  return denoc::frame_acceleration(ws.motion, frame);
}

#ifndef DENOC_BENCH_NO_KDL
// KDL's RNE takes gravity; Vereshchagin takes the root acceleration, which is -gravity
// (the solver's header: "gravity acceleration with opposite sign compared to KDL's FD and RNE").
struct KdlContext {
  KDL::Chain chain;
  unsigned n;
  KDL::ChainIdSolver_RNE rne;
  KDL::ChainDynParam dyn;
  KDL::ChainHdSolver_Vereshchagin hd;
  KDL::ChainFdSolver_RNE fd;
  KDL::JntArray tau, qdd, zero, gravity_tau, constraint_tau, beta;
  KDL::Jacobian alfa;
  KDL::Wrenches f_ext;
  KDL::JntSpaceInertiaMatrix H;
  Eigen::LLT<Eigen::MatrixXd> llt;
  Eigen::MatrixXd H_inverse;
  std::vector<KDL::JntArray> q, qd, qdd_in, tau_in;

  KdlContext(const ModelSpec& spec, const Pool<double>& pool)
      : chain(kdl_chain(spec)),
        n(chain.getNrOfJoints()),
        rne(chain, kdl_vector(spec.gravity)),
        dyn(chain, kdl_vector(spec.gravity)),
        hd(chain, KDL::Twist(kdl_vector(-spec.gravity), KDL::Vector::Zero()), 0),
        fd(chain, kdl_vector(spec.gravity)),
        tau(n),
        qdd(n),
        zero(n),
        gravity_tau(n),
        constraint_tau(n),
        beta(0),
        alfa(0),
        f_ext(chain.getNrOfSegments(), KDL::Wrench::Zero()),
        H(n),
        llt(static_cast<Eigen::Index>(n)),
        H_inverse(Eigen::MatrixXd::Zero(n, n)) {
    for (std::size_t k = 0; k < pool.size(); ++k) {
      q.push_back(jnt(pool.q[k]));
      qd.push_back(jnt(pool.qd[k]));
      qdd_in.push_back(jnt(pool.qdd[k]));
      tau_in.push_back(jnt(pool.tau[k]));
    }
  }

  // Each returns the result (KDL's own storage), after checking the solver's status.
  const KDL::JntArray& id(std::size_t k) {
    ok(rne.CartToJnt(q[k], qd[k], qdd_in[k], f_ext, tau));
    return tau;
  }
  const KDL::JntArray& bias(std::size_t k) {
    ok(rne.CartToJnt(q[k], qd[k], zero, f_ext, tau));
    return tau;
  }
  const KDL::JntArray& gravity(std::size_t k) {
    ok(dyn.JntToGravity(q[k], gravity_tau));
    return gravity_tau;
  }
  const KDL::JntSpaceInertiaMatrix& gim(std::size_t k) {
    ok(dyn.JntToMass(q[k], H));
    return H;
  }
  const Eigen::MatrixXd& gim_inverse(std::size_t k) {  // as the suite does it: LLT, then solve I
    ok(dyn.JntToMass(q[k], H));
    llt.compute(H.data);
    H_inverse.setIdentity();
    llt.solveInPlace(H_inverse);
    return H_inverse;
  }
  const KDL::JntArray& fd_vereshchagin(std::size_t k) {  // 0 constraints: alfa, beta empty
    ok(hd.CartToJnt(q[k], qd[k], qdd, alfa, beta, f_ext, tau_in[k], constraint_tau));
    return qdd;
  }
  const KDL::JntArray& fd_rne(std::size_t k) {
    ok(fd.CartToJnt(q[k], qd[k], tau_in[k], f_ext, qdd));
    return qdd;
  }

  static void ok(int status) {
    if (status < 0) {
      std::fprintf(stderr, "denoc_bench: a KDL solver returned %d\n", status);
      std::abort();
    }
  }
};

#endif  // DENOC_BENCH_NO_KDL

// ----------------------------------------------------------------------------------------------
// Agreement check

double max_abs(const Eigen::Ref<const MatX<double>>& m) {
  return m.cwiseAbs().maxCoeff();
}

struct Agreement {
  double rel = 0, abs = 0;  // max over states of max|a - b| / max|b|, and of max|a - b|
  void add(const Eigen::Ref<const MatX<double>>& suite, const Eigen::Ref<const MatX<double>>& ref) {
    add_difference(suite - ref, max_abs(ref));
  }
  // A difference already formed, relative to `scale`.
  void add_difference(const Eigen::Ref<const MatX<double>>& difference, double scale) {
    const double d = max_abs(difference);
    abs = std::max(abs, d);
    rel = std::max(rel, d / std::max(scale, 1e-300));
  }
};

constexpr double kTolerance = 1e-12;
// Inverses of M: the bound they must meet. Two inverses may differ by up to about eps cond(M)
// relative; cond(M) is 1.6e6 at n = 384 here, where Pinocchio's and the suite's differ by 3e-13.
constexpr double kInverseTolerance = 1e-10;

#ifndef DENOC_BENCH_NO_KDL

// Compares the suite with KDL on a few random states of every model; prints a table when
// `verbose`. Returns false if a torque, the inertia matrix or a forward-dynamics residual differs
// by more than kTolerance (relative).
//
// Accelerations are compared in torque space: max|M (qdd_suite - qdd_KDL)| / max|tau - h|. The
// plain relative difference of qdd is bounded only by eps cond(M), which grows with the chain
// (the suite's own UDU^T and Cholesky routes differ by 2e-10 at n = 1000); it is printed too, with
// cond(M), for information.
bool check_agreement(const std::vector<ModelSpec>& specs, bool verbose) {
  bool all_ok = true;
  if (verbose) {
    std::printf(
        "Agreement of the suite with Orocos KDL, 3 random states per model. Relative: max|suite - "
        "KDL| / max|KDL|, over all entries and states; accelerations in torque space, max|M dqdd| "
        "/ "
        "max|tau - h|. Must be <= %.0e: every column up to 'M dqdd udu vs cholesky'.\n\n",
        kTolerance);
    std::printf(
        "| model | tau: ID vs RNE | tau max abs diff (N m) | bias vs RNE(qdd=0) | gravity vs "
        "JntToGravity | M vs JntToMass | M dqdd: udu vs Vereshchagin | M dqdd: cholesky vs "
        "ChainFdSolver_RNE | M dqdd: udu vs cholesky | qdd rel: udu vs Vereshchagin (info) | qdd "
        "rel: cholesky vs ChainFdSolver_RNE (info) | cond(M) (info) | float ID vs double (info) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  for (const ModelSpec& spec : specs) {
    if (spec.tree()) continue;  // KDL's chain solvers
    const Pool<double> pool =
        make_pool(spec, 3, 0xC0FFEEu + static_cast<unsigned>(spec.model.dof()));
    KdlContext kdl(spec, pool);
    denoc::Workspace<double> ws(spec.model);
    const denoc::Model<float> model_f = spec.model.cast<float>();
    denoc::Workspace<float> ws_f(model_f);
    Agreement tau, bias, grav, mass, res_udu, res_chol, res_udu_chol, qdd_udu, qdd_chol, flt;
    double cond = 0;
    for (std::size_t k = 0; k < pool.size(); ++k) {
      const VecX<double>&q = pool.q[k], &qd = pool.qd[k], &qdd = pool.qdd[k], &t = pool.tau[k];
      tau.add(denoc::inverse_dynamics(spec.model, ws, q, qd, qdd), kdl.id(k).data);
      const VecX<double> tau_d = ws.id.tau;
      const VecX<double> h = denoc::bias_forces(spec.model, ws, q, qd);
      bias.add(h, kdl.bias(k).data);
      grav.add(denoc::gravity_forces(spec.model, ws, q), kdl.gravity(k).data);
      const MatX<double> M = denoc::generalized_inertia(spec.model, ws, q);
      mass.add(M, kdl.gim(k).data);
      if (k == 0) {
        const Eigen::VectorXd ev =
            Eigen::SelfAdjointEigenSolver<MatX<double>>(M, Eigen::EigenvaluesOnly).eigenvalues();
        cond = ev.maxCoeff() / ev.minCoeff();
      }
      const VecX<double> phi = t - h;
      const VecX<double> a_udu = denoc::forward_dynamics(spec.model, ws, q, qd, t);
      const VecX<double> a_chol = denoc::forward_dynamics_cholesky(spec.model, ws, q, qd, t);
      const VecX<double> a_ver = kdl.fd_vereshchagin(k).data;
      const VecX<double> a_rne = kdl.fd_rne(k).data;
      const double phi_scale = max_abs(phi);
      res_udu.add_difference(M * (a_udu - a_ver), phi_scale);
      res_chol.add_difference(M * (a_chol - a_rne), phi_scale);
      res_udu_chol.add_difference(M * (a_udu - a_chol), phi_scale);
      qdd_udu.add(a_udu, a_ver);
      qdd_chol.add(a_chol, a_rne);
      const VecX<float> qf = q.cast<float>(), qdf = qd.cast<float>(), qddf = qdd.cast<float>();
      flt.add(denoc::inverse_dynamics(model_f, ws_f, qf, qdf, qddf).cast<double>(), tau_d);
    }
    const bool ok = tau.rel <= kTolerance && bias.rel <= kTolerance && grav.rel <= kTolerance &&
                    mass.rel <= kTolerance && res_udu.rel <= kTolerance &&
                    res_chol.rel <= kTolerance && res_udu_chol.rel <= kTolerance;
    all_ok = all_ok && ok;
    if (verbose || !ok) {
      std::FILE* out = verbose ? stdout : stderr;
      std::fprintf(out,
                   "| %s | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | "
                   "%.1e | %.1e |%s\n",
                   spec.name.c_str(), tau.rel, tau.abs, bias.rel, grav.rel, mass.rel, res_udu.rel,
                   res_chol.rel, res_udu_chol.rel, qdd_udu.rel, qdd_chol.rel, cond, flt.rel,
                   ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose) std::printf("\nagreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

#endif  // DENOC_BENCH_NO_KDL

// ----------------------------------------------------------------------------------------------
// The peers (RBDL, Pinocchio), built per model once and shared by the check and the
// races. Pinocchio only up to kPinocchioMaxDof joints (its Data's n^3 tensors).

struct PeerSet {
  std::vector<std::shared_ptr<denoc_bench::Peer>> peers;
};

// Standard DH rows as the peers take them (peers.hpp).
std::vector<denoc_bench::PeerLink> peer_links(const std::vector<DhLink<double>>& dh) {
  std::vector<denoc_bench::PeerLink> rows;
  for (const DhLink<double>& r : dh) {
    denoc_bench::PeerLink link;
    link.revolute = r.type == JointType::revolute;
    link.a = r.a;
    link.b = r.b;
    link.alpha = r.alpha;
    link.theta = r.theta;
    link.mass = r.mass;
    link.com = r.com;
    link.inertia = r.inertia;
    rows.push_back(link);
  }
  return rows;
}

PeerSet make_peers(const ModelSpec& spec) {
  PeerSet set;
  if (spec.tree()) {
    for (bool world : {false, true}) {
      if (auto p =
              denoc_bench::make_pinocchio_urdf(spec.urdf, spec.gravity, world, spec.floating()))
        set.peers.push_back(std::move(p));
    }
    return set;
  }
  const std::vector<denoc_bench::PeerLink> rows = peer_links(spec.rows);
  if (auto p = denoc_bench::make_rbdl(rows, spec.gravity)) set.peers.push_back(std::move(p));
  if (spec.model.dof() <= denoc_bench::kPinocchioMaxDof) {
    if (auto p = denoc_bench::make_pinocchio(rows, spec.gravity, false))
      set.peers.push_back(std::move(p));
    if (auto p = denoc_bench::make_pinocchio(rows, spec.gravity, true))
      set.peers.push_back(std::move(p));
  }
  return set;
}

// The suite against every peer on 3 random states per model (the floating-base trees too: the
// suite's functions on a floating base against Pinocchio's free-flyer root, check_floating has them
// block by block): torques, the inertia matrix (the full symmetric one), and both forward dynamics
// in torque space (max|M (qdd_suite - qdd_peer)| / max|tau - h|), against the suite's U D U^T (fd)
// and Cholesky (fd_chol) routes, and on the trees the sparse factor of M = L^T D L (the suite's
// tree_ltdl against the peer's U D U^T, which is the same factor with L = U^T). Returns false when
// any differs by more than kTolerance (relative).
bool check_peers(const std::vector<ModelSpec>& specs, const std::vector<PeerSet>& sets,
                 bool verbose) {
  bool all_ok = true, header = false;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    for (const auto& peer : sets[m].peers) {
      if (verbose && !header) {
        std::printf(
            "\nAgreement of the suite with the peers compiled in (%s%s%s), 3 random states per "
            "model. Relative, as above; accelerations in torque space. Must be <= %.0e.\n\n"
            "| model | peer | tau: ID vs RNEA | M vs CRBA | M dqdd: udu vs ABA | M dqdd: cholesky "
            "vs peer's | M^-1: udu vs peer's (<= 1e-10) | sparse L, D vs peer's U D U^T "
            "|\n|---|---|---:|---:|---:|---:|---:|---:|\n",
            denoc_bench::rbdl_version().c_str(),
            denoc_bench::rbdl_version().empty() || denoc_bench::pinocchio_version().empty() ? ""
                                                                                            : ", ",
            denoc_bench::pinocchio_version().c_str(), kTolerance);
        header = true;
      }
      const Pool<double> pool =
          make_pool(spec, 3, 0xBEEFu + static_cast<unsigned>(spec.model.nv()));
      const SuiteModel& model = spec.model;
      SuiteWorkspace ws(model);
      Agreement tau, mass, res_fd, res_chol, inverse, factor;
      const bool has_inverse = peer->has_minv(), has_factor = peer->has_sparse_factor();
      for (std::size_t k = 0; k < pool.size(); ++k) {
        const VecX<double>&q = pool.q[k], &qd = pool.qd[k], &qdd = pool.qdd[k], &t = pool.tau[k];
        tau.add(suite_id(model, ws, q, qd, qdd), peer->id(q, qd, qdd));
        const MatX<double> M = suite_gim(model, ws, q);
        mass.add(M, peer->gim_full(q));
        const VecX<double> phi = t - suite_bias(model, ws, q, qd);
        const double phi_scale = max_abs(phi);
        const VecX<double> a_udu = suite_fd(model, ws, q, qd, t);
        res_fd.add_difference(M * (a_udu - peer->fd(q, qd, t)), phi_scale);
        const VecX<double> a_chol = suite_fd_chol(model, ws, q, qd, t);
        res_chol.add_difference(M * (a_chol - peer->fd_chol(q, qd, t)), phi_scale);
        if (has_inverse) inverse.add(suite_inv(model, ws, q), peer->minv_full(q));
        if (has_factor) {
          suite_gim(model, ws, q);
          peer->prepare_factor(q);
          factor.add(suite_factor(model, ws).triangularView<Eigen::Lower>().toDenseMatrix(),
                     peer->factor_as_ltdl());
        }
      }
      const bool ok = tau.rel <= kTolerance && mass.rel <= kTolerance && res_fd.rel <= kTolerance &&
                      res_chol.rel <= kTolerance && inverse.rel <= kInverseTolerance &&
                      factor.rel <= kTolerance;
      all_ok = all_ok && ok;
      char inverse_cell[16] = "—", factor_cell[16] = "—";
      if (has_inverse) std::snprintf(inverse_cell, sizeof inverse_cell, "%.1e", inverse.rel);
      if (has_factor) std::snprintf(factor_cell, sizeof factor_cell, "%.1e", factor.rel);
      if (verbose || !ok)
        std::fprintf(verbose ? stdout : stderr,
                     "| %s | %s | %.1e | %.1e | %.1e | %.1e | %s | %s |%s\n", spec.name.c_str(),
                     peer->name().c_str(), tau.rel, mass.rel, res_fd.rel, res_chol.rel,
                     inverse_cell, factor_cell, ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose && header) std::printf("\npeer agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// The floating-base trees against the peers (Pinocchio's free-flyer root joint) block by block:
// the base's six entries apart from the joints', each block relative to its own largest
// reference entry, so that a convention (a sign, a frame, [linear; angular] for [angular;
// linear]) would show where it is. tau = [f; n; tau_joints] against rnea; M's base block, its
// coupling (the base's rows, the joints' columns) and the joints' block against crba
// (symmetrised); the accelerations [dv; dw; qdd] of aba given [0_6; tau_joints] against the
// suite's O(n) route, plainly relative (bounded by about eps cond(M), printed) and in torque space
// (max|M (qdd_suite - qdd_peer)| / max|tau - h|); M^-1 against computeMinverse. The suite's own
// two routes against each other (udu against cholesky, accelerations and M^-1) say how far apart
// two right answers are. Fails on tau or M beyond kTolerance, the torque-space residual beyond
// kTolerance, M^-1 beyond kInverseTolerance.
//
// The base's position coordinates are within +-1 m (make_pool), and that matters to two of
// Pinocchio's routes: computeMinverse and the WORLD convention's aba and crba work with the
// bodies' inertias about the world origin, and lose precision as |p|^2 grows (p the base
// position). On Solo 12 (light legs, cond(M) about 3e4), over 100 states, M^-1 against
// computeMinverse is 2e-14 with the base at the origin, 1e-12 within +-1 m, 6e-11 within +-10 m
// and 6e-9 within +-100 m, and WORLD's aba (in torque space) 3e-14, 3e-13, 2e-11, 2e-9. Against
// the inverse of the formed M in long double, the suite's M^-1 was within 4e-15 and Pinocchio's
// made the difference. The suite's base-frame recursions do not see p, nor does LOCAL aba.
bool check_floating(const std::vector<ModelSpec>& specs, const std::vector<PeerSet>& sets,
                    bool verbose) {
  bool all_ok = true, header = false;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    if (!spec.floating()) continue;
    const SuiteModel& model = spec.model;
    const int n = model.dof();
    for (const auto& peer : sets[m].peers) {
      if (verbose && !header) {
        std::printf(
            "\nThe floating-base trees against %s's free-flyer root joint, block by block, 3 "
            "random states per model (random unit quaternion, v, a). Relative: max|suite - peer| / "
            "max|peer| over the block and the states. tau, M and M dqdd must be <= %.0e, M^-1 <= "
            "%.0e; the plain accelerations are bounded by eps cond(M) only (info).\n\n"
            "| model | peer | tau base [f; n] | tau joints | M base 6x6 | M coupling 6xn "
            "| M joints | qdd base [dv; dw] (info) | qdd joints (info) | M dqdd: udu vs ABA "
            "| M^-1: udu vs computeMinverse | qdd: suite udu vs cholesky (info) "
            "| M^-1: suite udu vs cholesky (info) | cond(M) (info) |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            denoc_bench::pinocchio_version().c_str(), kTolerance, kInverseTolerance);
        header = true;
      }
      const Pool<double> pool = make_pool(spec, 3, 0xF10A7u + static_cast<unsigned>(model.nv()));
      SuiteWorkspace ws(model);
      Agreement tau_base, tau_joints, m_base, m_coupling, m_joints, qdd_base, qdd_joints, residual,
          inverse, qdd_self, inverse_self;
      double cond = 0;
      const bool has_inverse = peer->has_minv();
      for (std::size_t k = 0; k < pool.size(); ++k) {
        const VecX<double>&q = pool.q[k], &qd = pool.qd[k], &qdd = pool.qdd[k], &t = pool.tau[k];
        const VecX<double> tau = suite_id(model, ws, q, qd, qdd);
        const VecX<double> tau_peer = peer->id(q, qd, qdd);
        tau_base.add(tau.head<6>(), tau_peer.head<6>());
        tau_joints.add(tau.tail(n), tau_peer.tail(n));
        const MatX<double> M = suite_gim(model, ws, q);
        const MatX<double> M_peer = peer->gim_full(q);
        m_base.add(M.topLeftCorner<6, 6>(), M_peer.topLeftCorner<6, 6>());
        m_coupling.add(M.topRightCorner(6, n), M_peer.topRightCorner(6, n));
        m_joints.add(M.bottomRightCorner(n, n), M_peer.bottomRightCorner(n, n));
        const Eigen::VectorXd ev =
            Eigen::SelfAdjointEigenSolver<MatX<double>>(M, Eigen::EigenvaluesOnly).eigenvalues();
        cond = std::max(cond, ev.maxCoeff() / ev.minCoeff());
        const VecX<double> phi = t - suite_bias(model, ws, q, qd);
        const VecX<double> a = suite_fd(model, ws, q, qd, t);
        const VecX<double> a_peer = peer->fd(q, qd, t);
        qdd_base.add(a.head<6>(), a_peer.head<6>());
        qdd_joints.add(a.tail(n), a_peer.tail(n));
        residual.add_difference(M * (a - a_peer), max_abs(phi));
        qdd_self.add(a, suite_fd_chol(model, ws, q, qd, t));
        const MatX<double> M_inv = suite_inv(model, ws, q);
        if (has_inverse) inverse.add(M_inv, peer->minv_full(q));
        inverse_self.add(M_inv, denoc::inverse_generalized_inertia(model, ws, q));
      }
      const double tau_rel = std::max(tau_base.rel, tau_joints.rel);
      const double m_rel = std::max({m_base.rel, m_coupling.rel, m_joints.rel});
      const bool ok = tau_rel <= kTolerance && m_rel <= kTolerance && residual.rel <= kTolerance &&
                      inverse.rel <= kInverseTolerance;
      all_ok = all_ok && ok;
      char inverse_cell[16] = "—";
      if (has_inverse) std::snprintf(inverse_cell, sizeof inverse_cell, "%.1e", inverse.rel);
      if (verbose || !ok)
        std::fprintf(verbose ? stdout : stderr,
                     "| %s | %s | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e | %s | "
                     "%.1e | %.1e | %.1e |%s\n",
                     spec.name.c_str(), peer->name().c_str(), tau_base.rel, tau_joints.rel,
                     m_base.rel, m_coupling.rel, m_joints.rel, qdd_base.rel, qdd_joints.rel,
                     residual.rel, inverse_cell, qdd_self.rel, inverse_self.rel, cond,
                     ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose && header) std::printf("\nfloating-base agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// The legged robot's quantities on the trees (fixed and floating base) against the peer's
// (Pinocchio's centerOfMass, jacobianCenterOfMass, ccrba, computeCentroidalMomentum, and
// getFrameVelocity / getFrameClassicalAcceleration in LOCAL_WORLD_ALIGNED after forwardKinematics)
// on 3 random states: G, J_G, A_G, h_G, and the velocity and acceleration of every link of the
// URDF as a frame (the links merged through fixed joints too, the feet), all in the world frame.
// Each relative to its largest reference entry over the states (the frames' over every frame:
// the base link's velocity is zero on a fixed base); fails beyond kTolerance.
bool check_legged(const std::vector<ModelSpec>& specs, const std::vector<PeerSet>& sets,
                  bool verbose) {
  bool all_ok = true, header = false;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    if (!spec.tree()) continue;
    const SuiteModel& model = spec.model;
    const Eigen::Index nv = model.nv();
    const Eigen::Index frames = static_cast<Eigen::Index>(spec.frames.size());
    for (const auto& peer : sets[m].peers) {
      if (!peer->has_centroidal()) continue;
      if (verbose && !header) {
        std::printf(
            "\nThe legged robot's quantities on the trees against %s, world frame, 3 random "
            "states per model. Relative: max|suite - peer| / max|peer| over the states (the "
            "frames: "
            "over every link of the URDF as a frame). Must be <= %.0e.\n\n"
            "| model | peer | frames | G: centre_of_mass vs centerOfMass | J_G vs "
            "jacobianCenterOfMass | A_G vs ccrba | h_G vs computeCentroidalMomentum | frame "
            "velocities vs getFrameVelocity | frame accelerations vs "
            "getFrameClassicalAcceleration |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
            denoc_bench::pinocchio_version().c_str(), kTolerance);
        header = true;
      }
      const Pool<double> pool = make_pool(spec, 3, 0x1E66u + static_cast<unsigned>(nv));
      denoc::CentroidalWorkspace<double> ws(model);
      Agreement com, jacobian, matrix, momentum, velocity, acceleration;
      int missing = 0;
      MatX<double> v(6, frames), v_peer(6, frames), a(6, frames), a_peer(6, frames);
      for (std::size_t k = 0; k < pool.size(); ++k) {
        const VecX<double>&q = pool.q[k], &qd = pool.qd[k], &qdd = pool.qdd[k];
        com.add(denoc::centre_of_mass(model, ws, q), Eigen::Map<const Vec3<double>>(peer->com(q)));
        jacobian.add(denoc::centre_of_mass_jacobian(model, ws, q),
                     Eigen::Map<const MatX<double>>(peer->com_jacobian(q), 3, nv));
        matrix.add(denoc::centroidal_matrix(model, ws, q),
                   Eigen::Map<const MatX<double>>(peer->centroidal_matrix(q, qd), 6, nv));
        momentum.add(denoc::centroidal_momentum(model, ws, q, qd),
                     Eigen::Map<const Vec6<double>>(peer->centroidal_momentum(q, qd)));
        v_peer.setZero();
        a_peer.setZero();
        for (Eigen::Index f = 0; f < frames; ++f) {
          const auto& [name, frame] = spec.frames[static_cast<std::size_t>(f)];
          v.col(f) = suite_frame_velocity(model, ws, q, qd, frame);
          a.col(f) = suite_frame_acceleration(model, ws, q, qd, qdd, frame);
          const int id = peer->frame_id(name);
          if (id < 0) {
            ++missing;
            continue;
          }
          v_peer.col(f) = Eigen::Map<const Vec6<double>>(peer->frame_velocity(q, qd, id));
          a_peer.col(f) = Eigen::Map<const Vec6<double>>(peer->frame_acceleration(q, qd, qdd, id));
        }
        velocity.add(v, v_peer);
        acceleration.add(a, a_peer);
      }
      const bool ok = missing == 0 && std::max({com.rel, jacobian.rel, matrix.rel, momentum.rel,
                                                velocity.rel, acceleration.rel}) <= kTolerance;
      all_ok = all_ok && ok;
      if (verbose || !ok)
        std::fprintf(verbose ? stdout : stderr,
                     "| %s | %s | %d%s | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e |%s\n",
                     spec.name.c_str(), peer->name().c_str(), static_cast<int>(frames),
                     missing ? " (some unknown to the peer)" : "", com.rel, jacobian.rel,
                     matrix.rel, momentum.rel, velocity.rel, acceleration.rel,
                     ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose && header) std::printf("\nlegged agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// The derivatives of the dynamics (docs/derivatives.md) against Pinocchio's computeRNEADerivatives
// and computeABADerivatives on 3 random states of every model: d tau / d q, d tau / d v and the
// upper triangle of d tau / d a (the inertia matrix), to kTolerance; d qdd / d q, d qdd / d v and
// M^-1, through an inverse of M, to kInverseTolerance. Each relative to its largest reference
// entry over the states.
bool check_derivatives(const std::vector<ModelSpec>& specs, const std::vector<PeerSet>& sets,
                       bool verbose) {
  bool all_ok = true, header = false;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    const SuiteModel& model = spec.model;
    for (const auto& peer : sets[m].peers) {
      if (!peer->has_derivatives()) continue;
      if (verbose && !header) {
        std::printf(
            "\nThe derivatives against %s's computeRNEADerivatives and computeABADerivatives, 3 "
            "random states per model (a floating base in its tangent space). Relative: "
            "max|suite - peer| / max|peer| over the states. d tau must be <= %.0e, d qdd and "
            "M^-1 <= %.0e.\n\n"
            "| model | peer | dtau/dq | dtau/dv | dtau/da (upper) | dqdd/dq | dqdd/dv | M^-1 |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|\n",
            denoc_bench::pinocchio_version().c_str(), kTolerance, kInverseTolerance);
        header = true;
      }
      const Pool<double> pool = make_pool(spec, 3, 0xDE41u + static_cast<unsigned>(model.nv()));
      SuiteWorkspace ws(model);
      denoc::DerivativesWorkspace<double> d(model);
      Agreement by_q, by_v, by_a, fd_q, fd_v, inverse;
      for (std::size_t k = 0; k < pool.size(); ++k) {
        const VecX<double>&q = pool.q[k], &qd = pool.qd[k], &qdd = pool.qdd[k], &t = pool.tau[k];
        denoc::inverse_dynamics_derivatives(model, d, q, qd, qdd);
        peer->id_derivatives(q, qd, qdd);
        by_q.add(d.dtau_dq, peer->derivative(0));
        by_v.add(d.dtau_dv, peer->derivative(1));
        const MatX<double> M_upper = d.dtau_da.triangularView<Eigen::Upper>();
        const MatX<double> peer_upper = peer->derivative(2).triangularView<Eigen::Upper>();
        by_a.add(M_upper, peer_upper);
        const VecX<double> a = suite_fd(model, ws, q, qd, t);
        const MatX<double> minv = denoc::forward_dynamics_derivatives(model, ws, d, q, qd, a);
        peer->fd_derivatives(q, qd, t);
        fd_q.add(d.dqdd_dq, peer->derivative(3));
        fd_v.add(d.dqdd_dv, peer->derivative(4));
        inverse.add(minv, peer->derivative(5));
      }
      const bool ok = std::max({by_q.rel, by_v.rel, by_a.rel}) <= kTolerance &&
                      std::max({fd_q.rel, fd_v.rel, inverse.rel}) <= kInverseTolerance;
      all_ok = all_ok && ok;
      if (verbose || !ok)
        std::fprintf(verbose ? stdout : stderr,
                     "| %s | %s | %.1e | %.1e | %.1e | %.1e | %.1e | %.1e |%s\n", spec.name.c_str(),
                     peer->name().c_str(), by_q.rel, by_v.rel, by_a.rel, fd_q.rel, fd_v.rel,
                     inverse.rel, ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose && header) std::printf("\nderivatives agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// Closed loops (docs/loops.md) against RBDL's loop constraints: the four-bar and the slider-crank
// (chains in standard DH closed to the base), at 12 states along a turn of the crank. The
// suite's actuator force (ClosedLoopSamples, G^T tau_tree) against RBDL's
// InverseDynamicsConstraints at the suite's accelerations, and the suite's accelerations against
// RBDL's ForwardDynamicsConstraintsDirect under the suite's actuator force. RBDL takes the loops'
// independent directions only: for the four-bar the pin's in-plane offset (v_x, v_y), for the
// slider-crank the slider's offset across the guide and its turn (v_y, w_z). The base-side point
// does not enter (the base is still, and RBDL's position error feeds only Baumgarte
// stabilisation, off here); the body-side frame does: moved by 1 mm, the four-bar's forces differ
// by 1.3e-2 and the check fails.
bool check_loops(bool verbose) {
  struct Case {
    const char* file;
    std::vector<Eigen::Matrix<double, 6, 1>> axes;  // [w; v]
    Eigen::Vector3d p_base;
  };
  const auto axis = [](int k) {
    Eigen::Matrix<double, 6, 1> a = Eigen::Matrix<double, 6, 1>::Zero();
    a[k] = 1;
    return a;
  };
  const std::vector<Case> cases = {{"fourbar.yaml", {axis(3), axis(4)}, {0.35, 0, 0}},
                                   {"slider_crank.yaml", {axis(4), axis(2)}, {0, 0, 0}}};
  bool all_ok = true, header = false;
  for (const Case& c : cases) {
    const denoc::RobotFile robot =
        denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/" + c.file);
    const std::vector<denoc_bench::PeerLink> rows = peer_links(robot.dh);
    const int n = robot.dof();
    denoc_bench::PeerLoop loop;
    loop.p_base = c.p_base;
    loop.axes = c.axes;
    loop.actuated.assign(static_cast<std::size_t>(n), false);
    for (int i : robot.loops.actuated)
      loop.actuated[static_cast<std::size_t>(i)] = true;
    const auto peer = denoc_bench::make_rbdl_loop(rows, robot.model.gravity(), loop);
    if (!peer) return true;  // RBDL not built in
    if (verbose && !header) {
      std::printf(
          "\nClosed loops against %s's loop constraints, 12 states along a turn of the crank. "
          "Relative: max|suite - peer| / max|peer|; each must be <= %.0e.\n\n"
          "| mechanism | actuator force (InverseDynamicsConstraints) | qdd "
          "(ForwardDynamicsConstraintsDirect) |\n|---|---:|---:|\n",
          denoc_bench::rbdl_version().c_str(), kInverseTolerance);
      header = true;
    }
    denoc::ClosedLoopSamples states(robot, denoc::Quantity::joint_states, denoc::Route::denoc);
    denoc::ClosedLoopSamples torques(robot, denoc::Quantity::torques, denoc::Route::denoc);
    VecX<double> row(3 * n), tau_a(1);
    Agreement force, acceleration;
    for (int k = 0; k < 12; ++k) {
      const VecX<double> q_a = VecX<double>::Constant(1, 0.5 * k + 0.1);
      const VecX<double> qd_a = VecX<double>::Constant(1, 3 - 0.4 * k);
      const VecX<double> qdd_a = VecX<double>::Constant(1, 5 - k);
      states.evaluate(q_a, qd_a, qdd_a, row);
      torques.evaluate(q_a, qd_a, qdd_a, tau_a);
      const VecX<double> q = row.head(n), qd = row.segment(n, n), qdd = row.tail(n);
      const VecX<double> peer_tau = peer->inverse(q, qd, qdd);
      VecX<double> tau = VecX<double>::Zero(n);
      tau[robot.loops.actuated[0]] = tau_a[0];
      force.add(tau, peer_tau);
      acceleration.add(qdd, peer->forward(q, qd, tau));
    }
    const bool ok = std::max(force.rel, acceleration.rel) <= kInverseTolerance;
    all_ok = all_ok && ok;
    if (verbose || !ok)
      std::fprintf(verbose ? stdout : stderr, "| %s | %.1e | %.1e |%s\n", c.file, force.rel,
                   acceleration.rel, ok ? "" : "  <-- MISMATCH");
  }
  if (verbose && header) std::printf("\nloops agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// Saha's C (convective_inertia) against Pinocchio's computeCoriolisMatrix on 3 random states per
// model. They are different matrices (docs/coriolis.md): Pinocchio's is the Christoffel-symbol
// form, and C - C_P = D, the links' rotational terms (rotational_difference). What must agree:
// C qd (both are h - g), C - C_P - D (both to kTolerance, relative to max|C|), and
// dI/dt - 2 C skew-symmetric for each (dI/dt by central differences: kSkewTolerance). How far
// the two are apart, max|C - C_P| / max|C|, is reported.
constexpr double kSkewTolerance = 1e-6;

double skew_defect(const denoc::Model<double>& model, const VecX<double>& q, const VecX<double>& qd,
                   const MatX<double>& C) {
  const MatX<double> K = denoc_test::inertia_rate(model, q, qd) - 2 * C;
  return max_abs(K + K.transpose()) / std::max(max_abs(K), 1.0);
}

bool check_coriolis(const std::vector<ModelSpec>& specs, const std::vector<PeerSet>& sets,
                    bool verbose) {
  bool all_ok = true, header = false;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    for (const auto& peer : sets[m].peers) {
      if (!peer->has_coriolis()) continue;
      if (verbose && !header) {
        std::printf(
            "\nSaha's C against %s's computeCoriolisMatrix C_P (the Christoffel-symbol form), 3 "
            "random states per model (docs/coriolis.md). C qd and C - C_P - D must agree to "
            "%.0e, the skew defects be <= %.0e.\n\n"
            "| model | C qd vs C_P qd | C - C_P - D | C vs C_P (apart by) | skew: dI/dt - 2 C | "
            "skew: dI/dt - 2 C_P |\n|---|---:|---:|---:|---:|---:|\n",
            denoc_bench::pinocchio_version().c_str(), kTolerance, kSkewTolerance);
        header = true;
      }
      const Pool<double> pool = make_pool(spec, 3, 0xC0u + static_cast<unsigned>(spec.model.dof()));
      denoc::Workspace<double> ws(spec.model);
      Agreement rates, difference, apart;
      double skew = 0, skew_peer = 0;
      for (std::size_t k = 0; k < pool.size(); ++k) {
        const VecX<double>&q = pool.q[k], &qd = pool.qd[k];
        const MatX<double> C = denoc::convective_inertia(spec.model, ws, q, qd);
        const MatX<double> C_P = *peer->coriolis(q, qd);
        rates.add(C * qd, C_P * qd);
        const MatX<double> D = denoc_test::rotational_difference(spec.model, q, qd);
        difference.add_difference(C - C_P - D, max_abs(C));
        apart.add_difference(C - C_P, max_abs(C));
        skew = std::max(skew, skew_defect(spec.model, q, qd, C));
        skew_peer = std::max(skew_peer, skew_defect(spec.model, q, qd, C_P));
      }
      const bool ok = rates.rel <= kTolerance && difference.rel <= kTolerance &&
                      skew <= kSkewTolerance && skew_peer <= kSkewTolerance;
      all_ok = all_ok && ok;
      if (verbose || !ok)
        std::fprintf(verbose ? stdout : stderr, "| %s | %.1e | %.1e | %.1e | %.1e | %.1e |%s\n",
                     spec.name.c_str(), rates.rel, difference.rel, apart.rel, skew, skew_peer,
                     ok ? "" : "  <-- MISMATCH");
    }
  }
  if (verbose && header) std::printf("\nCoriolis agreement: %s\n", all_ok ? "OK" : "FAILED");
  return all_ok;
}

// ----------------------------------------------------------------------------------------------
// Benchmarks

// One benchmark: each iteration calls `call(context, k)` on the next pool entry k (of `entries`).
template <typename Context, typename F>
void register_benchmark(const std::string& name, std::shared_ptr<Context> context,
                        std::size_t entries, int dof, F call) {
  benchmark::RegisterBenchmark(name.c_str(),
                               [context, entries, dof, call](benchmark::State& state) {
                                 Context& c = *context;
                                 std::size_t k = 0;
                                 for (auto _ : state) {
                                   const auto& result = call(c, k);
                                   benchmark::DoNotOptimize(result.data());
                                   benchmark::ClobberMemory();
                                   if (++k == entries) k = 0;
                                 }
                                 state.counters["dof"] = dof;
                               });
}

template <typename S>
void register_suite(const ModelSpec& spec, const Pool<double>& pool, const char* type) {
  auto c = std::make_shared<SuiteContext<S>>(spec.model.cast<S>(), cast_pool<S>(pool));
  const std::string tail = std::string("/") + type + "/" + spec.name;
  const int n = spec.model.dof();
  using C = SuiteContext<S>;
  const std::size_t e = pool.size();
  register_benchmark("suite/id" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::inverse_dynamics(x.model, x.ws, x.pool.q[k], x.pool.qd[k], x.pool.qdd[k]);
  });
  register_benchmark("suite/gim" + tail, c, e, n, [](C& x, std::size_t k) -> const MatX<S>& {
    return denoc::generalized_inertia(x.model, x.ws, x.pool.q[k]);
  });
  register_benchmark("suite/bias" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::bias_forces(x.model, x.ws, x.pool.q[k], x.pool.qd[k]);
  });
  register_benchmark("suite/gravity" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::gravity_forces(x.model, x.ws, x.pool.q[k]);
  });
  register_benchmark("suite/gim_inv" + tail, c, e, n, [](C& x, std::size_t k) -> const MatX<S>& {
    return denoc::inverse_generalized_inertia(x.model, x.ws, x.pool.q[k]);
  });
  register_benchmark("suite/gim_inv_udu" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const MatX<S>& {
                       return denoc::inverse_inertia_udu(x.model, x.ws, x.pool.q[k]);
                     });
  register_benchmark("suite/fd_udu" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::forward_dynamics(x.model, x.ws, x.pool.q[k], x.pool.qd[k], x.pool.tau[k]);
  });
  register_benchmark("suite/fd_chol" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::forward_dynamics_cholesky(x.model, x.ws, x.pool.q[k], x.pool.qd[k],
                                            x.pool.tau[k]);
  });
  register_benchmark("suite/ga_id" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::gibbs_appell_inverse_dynamics(x.model, x.ga, x.pool.q[k], x.pool.qd[k],
                                                x.pool.qdd[k]);
  });
  register_benchmark("suite/ga_gim" + tail, c, e, n, [](C& x, std::size_t k) -> const MatX<S>& {
    return denoc::gibbs_appell_inertia(x.model, x.ga, x.pool.q[k]);
  });
  register_benchmark("suite/ga_fd" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::forward_dynamics_gibbs_appell(x.model, x.ga, x.pool.q[k], x.pool.qd[k],
                                                x.pool.tau[k]);
  });
  // Saha's matrix of convective inertia terms, Eqs. (25)-(29).
  register_benchmark("suite/coriolis" + tail, c, e, n, [](C& x, std::size_t k) -> const MatX<S>& {
    return denoc::convective_inertia(x.model, x.ws, x.pool.q[k], x.pool.qd[k]);
  });
  // The extended Fixman route (Lee, Wang and Chirikjian 2007): M^-1 b, and the forward dynamics;
  // chains only (it refuses trees).
  if (spec.tree()) return;
  register_benchmark("suite/fixman_solve" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const VecX<S>& {
                       return denoc::fixman_solve(x.model, x.fx, x.pool.q[k], x.pool.tau[k]);
                     });
  register_benchmark("suite/fd_fixman" + tail, c, e, n, [](C& x, std::size_t k) -> const VecX<S>& {
    return denoc::forward_dynamics_fixman(x.model, x.ws, x.fx, x.pool.q[k], x.pool.qd[k],
                                          x.pool.tau[k]);
  });
  register_benchmark("suite/gim_inv_fixman" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const MatX<S>& {
                       return denoc::fixman_inverse_inertia(x.model, x.fx, x.pool.q[k]);
                     });
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

#ifndef DENOC_BENCH_NO_KDL
void register_kdl(const ModelSpec& spec, const Pool<double>& pool) {
  auto c = std::make_shared<KdlContext>(spec, pool);
  const std::string tail = "/" + spec.name;
  const int n = spec.model.dof();
  using C = KdlContext;
  const std::size_t e = pool.size();
  register_benchmark("kdl/id" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const Eigen::VectorXd& { return x.id(k).data; });
  register_benchmark("kdl/gim" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const Eigen::MatrixXd& { return x.gim(k).data; });
  register_benchmark("kdl/fd" + tail, c, e, n, [](C& x, std::size_t k) -> const Eigen::VectorXd& {
    return x.fd_vereshchagin(k).data;
  });
  register_benchmark("kdl/bias" + tail, c, e, n,
                     [](C& x, std::size_t k) -> const Eigen::VectorXd& { return x.bias(k).data; });
  register_benchmark(
      "kdl/gravity" + tail, c, e, n,
      [](C& x, std::size_t k) -> const Eigen::VectorXd& { return x.gravity(k).data; });
  register_benchmark(
      "kdl/gim_inv" + tail, c, e, n,
      [](C& x, std::size_t k) -> const Eigen::MatrixXd& { return x.gim_inverse(k); });
  register_benchmark(
      "kdl/fd_chol" + tail, c, e, n,
      [](C& x, std::size_t k) -> const Eigen::VectorXd& { return x.fd_rne(k).data; });
}

// Paired timing of a suite algorithm and its KDL counterpart, for the target ratios: the two
// take turns in short batches (a few tens of microseconds each, the order swapped every round),
// so that both see the same machine. A VM's speed drifts by tens of percent over seconds, which
// separately timed benchmarks turn into noise in the ratio. Counters: the medians over the
// rounds of ns per call (suite_ns, kdl_ns) and of the per-round ratio (ratio), and the fastest
// round of each (suite_min_ns, kdl_min_ns).
struct PairContext {
  SuiteContext<double> suite;
  KdlContext kdl;
  PairContext(const ModelSpec& spec, const Pool<double>& pool)
      : suite(spec.model, pool), kdl(spec, pool) {}
};

template <typename SuiteCall, typename KdlCall>
void register_pair(const std::string& name, std::shared_ptr<PairContext> context,
                   std::size_t entries, int dof, SuiteCall suite_call, KdlCall kdl_call) {
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    PairContext& c = *context;
    // About 4000 joint-calls per batch: tens of microseconds for either side.
    const int batch = std::max(2, 4000 / dof);
    std::vector<double> suite_ns, kdl_ns, ratio;
    std::size_t k = 0;
    auto time_batch = [&](auto&& call) {
      const auto start = std::chrono::steady_clock::now();
      for (int b = 0; b < batch; ++b) {
        const auto& result = call(k);
        benchmark::DoNotOptimize(result.data());
        benchmark::ClobberMemory();
        if (++k == entries) k = 0;
      }
      const std::chrono::duration<double, std::nano> elapsed =
          std::chrono::steady_clock::now() - start;
      return elapsed.count() / batch;
    };
    auto suite = [&](std::size_t j) -> decltype(auto) { return suite_call(c.suite, j); };
    auto kdl = [&](std::size_t j) -> decltype(auto) { return kdl_call(c.kdl, j); };
    bool suite_first = true;
    for (auto _ : state) {
      double s, q;
      if (suite_first) {
        s = time_batch(suite);
        q = time_batch(kdl);
      } else {
        q = time_batch(kdl);
        s = time_batch(suite);
      }
      suite_first = !suite_first;
      suite_ns.push_back(s);
      kdl_ns.push_back(q);
      ratio.push_back(s / q);
      state.SetIterationTime((s + q) * batch * 1e-9);
    }
    state.counters["suite_ns"] = median(suite_ns);
    state.counters["kdl_ns"] = median(kdl_ns);
    state.counters["ratio"] = median(ratio);
    state.counters["suite_min_ns"] = *std::min_element(suite_ns.begin(), suite_ns.end());
    state.counters["kdl_min_ns"] = *std::min_element(kdl_ns.begin(), kdl_ns.end());
    state.counters["rounds"] = static_cast<double>(ratio.size());
    state.counters["dof"] = dof;
  })->UseManualTime();
}

void register_pairs(const ModelSpec& spec, const Pool<double>& pool) {
  auto c = std::make_shared<PairContext>(spec, pool);
  const int n = spec.model.dof();
  const std::size_t e = pool.size();
  using C = SuiteContext<double>;
  using K = KdlContext;
  register_pair(
      "pair/id/" + spec.name, c, e, n,
      [](C& x, std::size_t k) -> const VecX<double>& {
        return denoc::inverse_dynamics(x.model, x.ws, x.pool.q[k], x.pool.qd[k], x.pool.qdd[k]);
      },
      [](K& x, std::size_t k) -> const Eigen::VectorXd& { return x.id(k).data; });
  register_pair(
      "pair/gim/" + spec.name, c, e, n,
      [](C& x, std::size_t k) -> const MatX<double>& {
        return denoc::generalized_inertia(x.model, x.ws, x.pool.q[k]);
      },
      [](K& x, std::size_t k) -> const Eigen::MatrixXd& { return x.gim(k).data; });
  register_pair(
      "pair/fd_udu/" + spec.name, c, e, n,
      [](C& x, std::size_t k) -> const VecX<double>& {
        return denoc::forward_dynamics(x.model, x.ws, x.pool.q[k], x.pool.qd[k], x.pool.tau[k]);
      },
      [](K& x, std::size_t k) -> const Eigen::VectorXd& { return x.fd_vereshchagin(k).data; });
}

#endif  // DENOC_BENCH_NO_KDL

// The O(n^2) inverse GIM from the U D U^T factors against the O(n^3) one (GIM, Cholesky,
// L^-T L^-1), timed in turns as register_pair times the suite and KDL: batches of about 10,000
// matrix entries of the O(n^2) route (at least one call), the order swapped every round. Timed by
// the thread's CPU clock, not the wall clock: a call of milliseconds (n = 1000) on a loaded
// machine is often preempted, and the wall clock then counts the other processes' time (medians
// of 11 ms against 2.7 ms of CPU time at n = 1000, load average 14 on 2 cores). Counters: the
// medians over the rounds of ns per call (udu_ns, cholesky_ns) and of the per-round ratio
// udu/cholesky (ratio), and the fastest round of each (udu_min_ns, cholesky_min_ns).
double thread_cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

void register_inverse_pair(const ModelSpec& spec, const Pool<double>& pool) {
  auto c = std::make_shared<SuiteContext<double>>(spec.model, pool);
  const int n = spec.model.dof();
  const std::size_t entries = pool.size();
  const std::string name = "pair/inv/" + spec.name;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    SuiteContext<double>& x = *c;
    const int batch = std::max(1, 10000 / (n * n));
    std::vector<double> udu_ns, cholesky_ns, ratio;
    std::size_t k = 0;
    auto time_batch = [&](bool udu) {
      const double start = thread_cpu_ns();
      for (int b = 0; b < batch; ++b) {
        const MatX<double>& result =
            udu ? denoc::inverse_inertia_udu(x.model, x.ws, x.pool.q[k])
                : denoc::inverse_generalized_inertia(x.model, x.ws, x.pool.q[k]);
        benchmark::DoNotOptimize(result.data());
        benchmark::ClobberMemory();
        if (++k == entries) k = 0;
      }
      return (thread_cpu_ns() - start) / batch;
    };
    bool udu_first = true;
    for (auto _ : state) {
      double u, h;
      if (udu_first) {
        u = time_batch(true);
        h = time_batch(false);
      } else {
        h = time_batch(false);
        u = time_batch(true);
      }
      udu_first = !udu_first;
      udu_ns.push_back(u);
      cholesky_ns.push_back(h);
      ratio.push_back(u / h);
      state.SetIterationTime((u + h) * batch * 1e-9);
    }
    state.counters["udu_ns"] = median(udu_ns);
    state.counters["cholesky_ns"] = median(cholesky_ns);
    state.counters["ratio"] = median(ratio);
    state.counters["udu_min_ns"] = *std::min_element(udu_ns.begin(), udu_ns.end());
    state.counters["cholesky_min_ns"] = *std::min_element(cholesky_ns.begin(), cholesky_ns.end());
    state.counters["rounds"] = static_cast<double>(ratio.size());
    state.counters["dof"] = n;
  })->UseManualTime();
}

// The race: the suite and every peer of the model take turns in batches (the order
// rotated every round), as register_pair times the suite and KDL, so that all see the same
// machine. A batch is about 30 us of the suite's calls, calibrated once (at least one call).
// Timed by the thread's CPU clock (see register_inverse_pair: a long call on a loaded machine is
// preempted). Counters: suite_ns and <peer>_ns, the medians over the rounds of ns per call;
// <peer>_ratio, the median of the per-round peer/suite ratios; best_ratio, the median of the
// per-round ratios of the fastest peer of that round to the suite (above 1: the suite is faster).
// chol, on the trees: the sparse factorisation of an inertia matrix formed before timing (the
// suite's tree_ltdl, Pinocchio's cholesky::decompose), the same matrix every call. On a floating
// base the suite's functions (suite_id etc.) against Pinocchio's free-flyer, no coriolis.
//
// The legged robot's quantities (com, com_jacobian, centroidal_matrix, centroidal_momentum,
// frame_velocity, frame_acceleration; the trees, the peers that have them): the suite's
// motion/ functions against Pinocchio's (check_legged), the frames' at spec.race_frame. Pinocchio's
// ccrba forms h_G = A_G v beside A_G; its frame routes start with forwardKinematics, as the
// suite's with the bodies' motion.
enum class Quantity {
  id,
  gim,
  fd,
  fd_chol,
  inv,
  coriolis,
  chol,
  com,
  com_jacobian,
  centroidal_matrix,
  centroidal_momentum,
  frame_velocity,
  frame_acceleration,
  id_derivatives,
  fd_derivatives
};

bool legged(Quantity q) {
  return q == Quantity::com || q == Quantity::com_jacobian || q == Quantity::centroidal_matrix ||
         q == Quantity::centroidal_momentum || q == Quantity::frame_velocity ||
         q == Quantity::frame_acceleration;
}

// The frame `name` of a tree's spec.
const denoc::BodyFrame<double>& spec_frame(const ModelSpec& spec, const std::string& name) {
  for (const auto& [link, frame] : spec.frames)
    if (link == name) return frame;
  throw std::runtime_error("denoc_bench: no frame " + name + " in " + spec.name);
}

void register_race(const ModelSpec& spec, const Pool<double>& pool, const PeerSet& set,
                   Quantity quantity, const char* label) {
  std::vector<std::shared_ptr<denoc_bench::Peer>> peers;
  for (const auto& p : set.peers) {
    if (quantity == Quantity::id && p->name() == "pinocchio_world") continue;  // one rnea
    if (quantity == Quantity::inv && !p->has_minv()) continue;                 // no inverse
    if (quantity == Quantity::coriolis && !p->has_coriolis()) continue;        // no C
    if (quantity == Quantity::chol && !p->has_sparse_factor()) continue;       // chains
    if (legged(quantity) && !p->has_centroidal()) continue;
    if ((quantity == Quantity::id_derivatives || quantity == Quantity::fd_derivatives) &&
        !p->has_derivatives())
      continue;
    peers.push_back(p);
  }
  if (peers.empty()) return;
  if (legged(quantity) && !spec.tree()) return;  // the peers' chains have no frames
  const denoc::BodyFrame<double> frame =
      legged(quantity) ? spec_frame(spec, spec.race_frame) : denoc::BodyFrame<double>{};
  const int peer_frame = legged(quantity) ? peers.front()->frame_id(spec.race_frame) : -1;
  if (quantity == Quantity::coriolis && spec.floating()) return;  // no floating-base C
  auto suite = std::make_shared<SuiteContext<double>>(spec.model, pool);
  const int n = spec.model.dof();
  const std::string name = std::string("race/") + label + "/" + spec.name;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    SuiteContext<double>& x = *suite;
    const std::size_t entries = x.pool.size();
    std::size_t k = 0;
    if (quantity == Quantity::chol) {
      suite_gim(x.model, x.ws, x.pool.q[0]);
      for (const auto& p : peers)
        p->prepare_factor(x.pool.q[0]);
    }
    // contestant 0 is the suite, 1.. the peers
    auto call = [&](std::size_t who) -> const double* {
      const VecX<double>&q = x.pool.q[k], &qd = x.pool.qd[k];
      if (who == 0) {
        switch (quantity) {
          case Quantity::id:
            return suite_id(x.model, x.ws, q, qd, x.pool.qdd[k]).data();
          case Quantity::gim:
            return suite_gim(x.model, x.ws, q).data();
          case Quantity::fd:
            return suite_fd(x.model, x.ws, q, qd, x.pool.tau[k]).data();
          case Quantity::fd_chol:
            return suite_fd_chol(x.model, x.ws, q, qd, x.pool.tau[k]).data();
          case Quantity::inv:
            return suite_inv(x.model, x.ws, q).data();
          case Quantity::coriolis:
            return denoc::convective_inertia(x.model, x.ws, q, qd).data();
          case Quantity::chol:
            return suite_factor(x.model, x.ws).data();
          case Quantity::com:
            return denoc::centre_of_mass(x.model, x.centroidal, q).data();
          case Quantity::com_jacobian:
            return denoc::centre_of_mass_jacobian(x.model, x.centroidal, q).data();
          case Quantity::centroidal_matrix:
            return denoc::centroidal_matrix(x.model, x.centroidal, q).data();
          case Quantity::centroidal_momentum:
            return denoc::centroidal_momentum(x.model, x.centroidal, q, qd).data();
          case Quantity::frame_velocity:
            x.frame_motion = suite_frame_velocity(x.model, x.centroidal, q, qd, frame);
            return x.frame_motion.data();
          case Quantity::frame_acceleration:
            x.frame_motion =
                suite_frame_acceleration(x.model, x.centroidal, q, qd, x.pool.qdd[k], frame);
            return x.frame_motion.data();
          case Quantity::id_derivatives:
            denoc::inverse_dynamics_derivatives(x.model, x.derivatives, q, qd, x.pool.qdd[k]);
            return x.derivatives.dtau_dq.data();
          case Quantity::fd_derivatives:  // the forward dynamics, then its derivatives there
            x.qdd = suite_fd(x.model, x.ws, q, qd, x.pool.tau[k]);
            denoc::forward_dynamics_derivatives(x.model, x.ws, x.derivatives, q, qd, x.qdd);
            return x.derivatives.dqdd_dq.data();
        }
      }
      denoc_bench::Peer& p = *peers[who - 1];
      switch (quantity) {
        case Quantity::id:
          return p.id(q, qd, x.pool.qdd[k]).data();
        case Quantity::gim:
          return p.gim(q).data();
        case Quantity::fd:
          return p.fd(q, qd, x.pool.tau[k]).data();
        case Quantity::fd_chol:
          return p.fd_chol(q, qd, x.pool.tau[k]).data();
        case Quantity::inv:
          return p.minv(q);
        case Quantity::coriolis:
          return p.coriolis(q, qd)->data();
        case Quantity::chol:
          return p.factor();
        case Quantity::com:
          return p.com(q);
        case Quantity::com_jacobian:
          return p.com_jacobian(q);
        case Quantity::centroidal_matrix:
          return p.centroidal_matrix(q, qd);
        case Quantity::centroidal_momentum:
          return p.centroidal_momentum(q, qd);
        case Quantity::frame_velocity:
          return p.frame_velocity(q, qd, peer_frame);
        case Quantity::frame_acceleration:
          return p.frame_acceleration(q, qd, x.pool.qdd[k], peer_frame);
        case Quantity::id_derivatives:
          return p.id_derivatives(q, qd, x.pool.qdd[k]);
        case Quantity::fd_derivatives:
          return p.fd_derivatives(q, qd, x.pool.tau[k]);
      }
      return nullptr;
    };
    auto time_batch = [&](std::size_t who, int batch) {
      const double start = thread_cpu_ns();
      for (int b = 0; b < batch; ++b) {
        benchmark::DoNotOptimize(call(who));
        benchmark::ClobberMemory();
        if (++k == entries) k = 0;
      }
      return (thread_cpu_ns() - start) / batch;
    };
    const std::size_t contestants = peers.size() + 1;
    for (std::size_t who = 0; who < contestants; ++who)
      time_batch(who, 2);  // warm up
    const int batch = std::max(1, static_cast<int>(30000.0 / std::max(1.0, time_batch(0, 3))));
    std::vector<std::vector<double>> ns(contestants), ratio(contestants);
    std::vector<double> best;
    std::vector<double> t(contestants);
    std::size_t first = 0;
    for (auto _ : state) {
      for (std::size_t j = 0; j < contestants; ++j) {
        const std::size_t who = (first + j) % contestants;
        t[who] = time_batch(who, batch);
      }
      first = (first + 1) % contestants;
      double fastest = t[1], total = t[0];
      for (std::size_t who = 1; who < contestants; ++who) {
        fastest = std::min(fastest, t[who]);
        total += t[who];
        ratio[who].push_back(t[who] / t[0]);
      }
      for (std::size_t who = 0; who < contestants; ++who)
        ns[who].push_back(t[who]);
      best.push_back(fastest / t[0]);
      state.SetIterationTime(total * batch * 1e-9);
    }
    state.counters["suite_ns"] = median(ns[0]);
    for (std::size_t who = 1; who < contestants; ++who) {
      const std::string peer = peers[who - 1]->name();
      state.counters[peer + "_ns"] = median(ns[who]);
      state.counters[peer + "_ratio"] = median(ratio[who]);
    }
    state.counters["best_ratio"] = median(best);
    state.counters["rounds"] = static_cast<double>(best.size());
    state.counters["dof"] = n;
  })->UseManualTime();
}

void register_races(const ModelSpec& spec, const Pool<double>& pool, const PeerSet& set) {
  register_race(spec, pool, set, Quantity::id, "id");
  register_race(spec, pool, set, Quantity::fd, "fd");
  register_race(spec, pool, set, Quantity::gim, "gim");
  register_race(spec, pool, set, Quantity::fd_chol, "fd_chol");
  register_race(spec, pool, set, Quantity::inv, "inv");
  register_race(spec, pool, set, Quantity::coriolis, "coriolis");
  register_race(spec, pool, set, Quantity::chol, "chol");
  register_race(spec, pool, set, Quantity::com, "com");
  register_race(spec, pool, set, Quantity::com_jacobian, "com_jacobian");
  register_race(spec, pool, set, Quantity::centroidal_matrix, "centroidal_matrix");
  register_race(spec, pool, set, Quantity::centroidal_momentum, "centroidal_momentum");
  register_race(spec, pool, set, Quantity::frame_velocity, "frame_velocity");
  register_race(spec, pool, set, Quantity::frame_acceleration, "frame_acceleration");
  register_race(spec, pool, set, Quantity::id_derivatives, "id_derivatives");
  register_race(spec, pool, set, Quantity::fd_derivatives, "fd_derivatives");
}

void register_crossover(const ModelSpec& spec, const Pool<double>& pool) {
  auto c = std::make_shared<SuiteContext<double>>(spec.model, pool);
  const int n = spec.model.dof();
  using C = SuiteContext<double>;
  const std::size_t e = pool.size();
  register_benchmark(
      "crossover/fd_udu/" + spec.name, c, e, n, [](C& x, std::size_t k) -> const VecX<double>& {
        return denoc::forward_dynamics(x.model, x.ws, x.pool.q[k], x.pool.qd[k], x.pool.tau[k]);
      });
  register_benchmark("crossover/fd_chol/" + spec.name, c, e, n,
                     [](C& x, std::size_t k) -> const VecX<double>& {
                       return denoc::forward_dynamics_cholesky(x.model, x.ws, x.pool.q[k],
                                                               x.pool.qd[k], x.pool.tau[k]);
                     });
  register_benchmark("crossover/inv_udu/" + spec.name, c, e, n,
                     [](C& x, std::size_t k) -> const MatX<double>& {
                       return denoc::inverse_inertia_udu(x.model, x.ws, x.pool.q[k]);
                     });
  register_benchmark("crossover/inv_chol/" + spec.name, c, e, n,
                     [](C& x, std::size_t k) -> const MatX<double>& {
                       return denoc::inverse_generalized_inertia(x.model, x.ws, x.pool.q[k]);
                     });
}

const std::vector<int> kChainLengths = {6, 12, 24, 48, 96, 192, 384, 1000};

std::vector<ModelSpec> suite_models() {
  std::vector<ModelSpec> specs;
  specs.push_back(stanford_model());
  for (int n : kChainLengths)
    specs.push_back(chain_model(n));
  specs.push_back(tree_model("solo12", "solo12.urdf", "FL_FOOT"));
  specs.push_back(tree_model("simple_humanoid", "simple_humanoid.urdf", "r_ankle"));
  specs.push_back(tree_model("solo12", "solo12.urdf", "FL_FOOT", true));
  specs.push_back(tree_model("simple_humanoid", "simple_humanoid.urdf", "r_ankle", true));
  return specs;
}

}  // namespace

int main(int argc, char** argv) {
  bool check_only = false, skip_check = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--check") == 0) {
      check_only = true;
    } else if (i > 0 && std::strcmp(argv[i], "--skip-check") == 0) {
      skip_check = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  const std::vector<ModelSpec> specs = suite_models();
  std::vector<PeerSet> peer_sets;
  for (const ModelSpec& spec : specs)
    peer_sets.push_back(make_peers(spec));
  if (check_only) {
#ifndef DENOC_BENCH_NO_KDL
    const bool kdl_ok = check_agreement(specs, true);
#else
    const bool kdl_ok = true;
    std::printf("KDL: not built in (DENOC_BENCH_KDL=OFF)\n");
#endif
    const bool peers_ok = check_peers(specs, peer_sets, true);
    const bool floating_ok = check_floating(specs, peer_sets, true);
    const bool coriolis_ok = check_coriolis(specs, peer_sets, true);
    const bool legged_ok = check_legged(specs, peer_sets, true);
    const bool derivatives_ok = check_derivatives(specs, peer_sets, true);
    const bool loops_ok = check_loops(true);
    return kdl_ok && peers_ok && floating_ok && coriolis_ok && legged_ok && derivatives_ok &&
                   loops_ok
               ? 0
               : 1;
  }
#ifndef DENOC_BENCH_NO_KDL
  if (!skip_check && !check_agreement(specs, false)) {
    std::fprintf(stderr, "denoc_bench: the suite and KDL disagree (see above): no benchmark\n");
    return 1;
  }
#endif
  if (!skip_check &&
      (!check_peers(specs, peer_sets, false) || !check_floating(specs, peer_sets, false) ||
       !check_coriolis(specs, peer_sets, false) || !check_legged(specs, peer_sets, false) ||
       !check_derivatives(specs, peer_sets, false))) {
    std::fprintf(stderr, "denoc_bench: the suite and a peer disagree (see above): no benchmark\n");
    return 1;
  }

  for (std::size_t m = 0; m < specs.size(); ++m) {
    const ModelSpec& spec = specs[m];
    const Pool<double> pool = make_pool(spec, pool_entries(spec.model.dof()), 12345u);
    register_races(spec, pool, peer_sets[m]);
    if (spec.floating()) continue;  // the race alone: suite/ and pair/ are the fixed-base routes
    register_suite<double>(spec, pool, "double");
    register_suite<float>(spec, pool, "float");
#ifndef DENOC_BENCH_NO_KDL
    if (!spec.tree()) {
      register_kdl(spec, pool);
      register_pairs(spec, pool);
    }
#endif
    register_inverse_pair(spec, pool);
  }
  std::vector<int> crossover;
  for (int n = 2; n <= 100; ++n)
    crossover.push_back(n);
  for (int n : {200, 400, 1000})
    crossover.push_back(n);
  for (int n : crossover) {
    const ModelSpec spec = chain_model(n);
    register_crossover(spec, make_pool(spec, pool_entries(n), 777u));
  }

  int bench_argc = static_cast<int>(args.size());
  benchmark::Initialize(&bench_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, args.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
