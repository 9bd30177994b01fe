// No algorithm allocates per sample: every call of a route after its first runs with zero heap
// allocations (the first may size the route's n x n matrices, which the workspaces leave empty
// until a route needs them). The C allocator itself is interposed (glibc), so Eigen's
// aligned_malloc, which calls malloc directly, is counted; the global operator new is replaced as
// well, and counts on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/count_operations.hpp"
#include "denoc/engine/lane_quantities.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/simulation/simulation.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);

namespace {
std::atomic<long> allocations{0};
std::atomic<long> bytes_requested{0};  // by the C allocator (operator new below goes through it)
}  // namespace

void* malloc(std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(size);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(count * size);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(size);
  return __libc_realloc(p, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(size);
  return __libc_memalign(alignment, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(size);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  ++allocations;
  bytes_requested += static_cast<long>(size);
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : 12;  // ENOMEM
}
}

namespace {
std::atomic<long> news{0};
}

// g++ 12 inlines the replaced operator delete into a test and then reports its free() of the
// replaced operator new's malloc() as mismatched (-Werror broke the build); they are a pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  ++news;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
// Not inlined: g++ 12 would then see std::free meet a pointer from operator new and report a
// mismatch (-Wmismatched-new-delete) that is none, since the pair above allocates with malloc.
__attribute__((noinline)) void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

template <typename S>
denoc::Model<S> chain(int n) {
  std::vector<denoc::DhLink<S>> rows;
  for (int i = 0; i < n; ++i) {
    denoc::DhLink<S> row;
    row.type = i % 3 == 2 ? denoc::JointType::prismatic : denoc::JointType::revolute;
    row.a = S(0.1);
    row.b = S(0.05);
    row.alpha = i % 2 ? S(M_PI / 2) : S(-M_PI / 2);
    row.mass = 1;
    row.com = denoc::Vec3<S>(S(0.05), 0, 0);
    row.inertia = denoc::Vec3<S>(S(0.01), S(0.02), S(0.03)).asDiagonal();
    rows.push_back(row);
  }
  return denoc::Model<S>(denoc::links_from_dh(denoc::DhConvention::standard, rows));
}

// Allocations made while `f` runs: by malloc and its kin, or by operator new.
template <typename F>
long allocations_in(F&& f) {
  const long before = allocations.load() + news.load();
  f();
  return allocations.load() + news.load() - before;
}

// Allocations made by `f` once it has run a first time (which may size a route's matrices).
template <typename F>
long allocations_after_first(F&& f) {
  f();
  return allocations_in(f);
}

// Bytes requested from the allocator while `f` runs.
template <typename F>
long bytes_in(F&& f) {
  const long before = bytes_requested.load();
  f();
  return bytes_requested.load() - before;
}

template <typename S>
void expect_no_allocation(int n) {
  const denoc::Model<S> model = chain<S>(n);
  denoc::Workspace<S> ws(model);
  denoc::GibbsAppellWorkspace<S> ga(model);
  denoc::FixmanWorkspace<S> fx(model);
  const denoc::VecX<S> q = denoc::VecX<S>::LinSpaced(n, S(-1), S(1));
  const denoc::VecX<S> qd = denoc::VecX<S>::LinSpaced(n, S(0.5), S(-0.3));
  const denoc::VecX<S> qdd = denoc::VecX<S>::LinSpaced(n, S(2), S(1));
  S sink = 0;
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::inverse_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::bias_forces(model, ws, q, qd)[0]; }), 0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::gravity_forces(model, ws, q)[0]; }), 0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::generalized_inertia(model, ws, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::inverse_generalized_inertia(model, ws, q)(0, 0); }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::inverse_inertia_udu(model, ws, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::kinetic_energy(model, ws, q, qd); }), 0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::potential_energy(model, ws, q); }), 0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::forward_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_cholesky(model, ws, q, qd, qdd)[0]; }),
            0);
  EXPECT_EQ(allocations_after_first([&] {
              denoc::udu_factors(model, ws, q);
              sink += ws.articulated.U(0, 0);
            }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::convective_inertia(model, ws, q, qd)(0, 0); }),
      0);
  // The derivatives (derivatives/), up to 200 joints: past the order (about 127) where Eigen's own
  // product would take its packing buffers from the heap.
  if (n <= 200) {
    denoc::DerivativesWorkspace<S> d(model);
    EXPECT_EQ(allocations_after_first([&] {
                denoc::inverse_dynamics_derivatives(model, d, q, qd, qdd, true);
                sink += d.dtau_dq(0, 0);
              }),
              0);
    EXPECT_EQ(allocations_after_first([&] {
                sink += denoc::forward_dynamics_derivatives(model, ws, d, q, qd, qdd)(0, 0);
              }),
              0);
  }
  // Gibbs-Appell (Mata et al. 2002), in the workspace's own section.
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd)[0]; }),
            0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::gibbs_appell_bias(model, ga, q, qd)[0]; }),
            0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::gibbs_appell_gravity(model, ga, q)[0]; }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::gibbs_appell_inertia(model, ga, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_gibbs_appell(model, ga, q, qd, qdd)[0]; }),
            0);
  // The extended Fixman routes (lee/fixman.hpp).
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::fixman_solve(model, fx, q, qdd)[0]; }), 0);
  EXPECT_EQ(allocations_after_first([&] {
              denoc::fixman_factor(model, fx, q);
              sink += denoc::fixman_apply(model, fx, qd)[0];
            }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::fixman_inverse_inertia(model, fx, q)(0, 0); }),
      0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_fixman(model, ws, fx, q, qd, qdd)[0]; }),
            0);
  EXPECT_TRUE(std::isfinite(static_cast<double>(sink)));
}

// A tree from the chain's links: a spine of the odd links on the base, each with one even link as
// a leaf, and link 0 a branch of its own (parents numbered depth-first).
template <typename S>
denoc::Model<S> tree(int n) {
  std::vector<denoc::LinkSpec<S>> links = chain<S>(n).links();
  for (int i = 0; i < n; ++i)
    links[static_cast<std::size_t>(i)].parent = i == 0 ? -1 : (i % 2 ? std::max(i - 2, -1) : i - 1);
  return denoc::Model<S>(links);
}

// The routes that run on trees allocate nothing per call there either (the tree code paths keep
// their per-joint entries in the workspaces, sized when they are built).
template <typename S>
void expect_no_allocation_on_tree(int n) {
  const denoc::Model<S> model = tree<S>(n);
  ASSERT_EQ(model.is_chain(), n == 1);
  denoc::Workspace<S> ws(model);
  denoc::GibbsAppellWorkspace<S> ga(model);
  const denoc::VecX<S> q = denoc::VecX<S>::LinSpaced(n, S(-1), S(1));
  const denoc::VecX<S> qd = denoc::VecX<S>::LinSpaced(n, S(0.5), S(-0.3));
  const denoc::VecX<S> qdd = denoc::VecX<S>::LinSpaced(n, S(2), S(1));
  S sink = 0;
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::inverse_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::forward_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(allocations_after_first([&] {
              denoc::udu_factors(model, ws, q);
              sink += ws.articulated.U(0, 0);
            }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::inverse_inertia_udu(model, ws, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd)[0]; }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::gibbs_appell_inertia(model, ga, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_gibbs_appell(model, ga, q, qd, qdd)[0]; }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::generalized_inertia(model, ws, q)(0, 0); }), 0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::inverse_generalized_inertia(model, ws, q)(0, 0); }),
            0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_cholesky(model, ws, q, qd, q)[0]; }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::convective_inertia(model, ws, q, qd)(0, 0); }),
      0);
  denoc::DerivativesWorkspace<S> d(model);
  EXPECT_EQ(allocations_after_first([&] {
              sink += denoc::forward_dynamics_derivatives(model, ws, d, q, qd, qdd)(0, 0);
            }),
            0);
  EXPECT_TRUE(std::isfinite(static_cast<double>(sink)));
}

// The extensions of docs/robot-file.md and docs/csv.md on a chain with drives, a tool and a
// payload.
template <typename S>
void expect_no_allocation_with_drives(int n) {
  std::vector<denoc::LinkSpec<S>> links = chain<S>(n).links();
  for (denoc::LinkSpec<S>& link : links) {
    link.drive.Jm = S(1e-4);
    link.drive.G = S(-30);
    link.drive.B = S(1e-3);
    link.drive.Tc_pos = S(0.1);
    link.drive.Tc_neg = S(-0.2);
  }
  denoc::Transform<S> tool;
  tool.p = denoc::Vec3<S>(0, 0, S(0.1));
  denoc::Payload<S> payload;
  payload.mass = 2;
  const denoc::Model<S> model(links, denoc::Vec3<S>(0, 0, S(-9.81)), tool, payload);
  denoc::Workspace<S> ws(model);
  const denoc::VecX<S> q = denoc::VecX<S>::LinSpaced(n, S(-1), S(1));
  const denoc::VecX<S> qd = denoc::VecX<S>::LinSpaced(n, S(0.5), S(-0.3));
  const denoc::VecX<S> qdd = denoc::VecX<S>::LinSpaced(n, S(2), S(1));
  denoc::VecX<S> friction(n);
  S sink = 0;
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::inverse_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(allocations_after_first([&] {
              denoc::friction_forces(model, qd, friction);
              sink += friction[0];
            }),
            0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::generalized_inertia(model, ws, q)(0, 0); }), 0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::forward_dynamics(model, ws, q, qd, qdd)[0]; }),
      0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_cholesky(model, ws, q, qd, qdd)[0]; }),
            0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::kinetic_energy(model, ws, q, qd); }), 0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::convective_inertia(model, ws, q, qd)(0, 0); }),
      0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::tool_pose(model, ws, q).p[0]; }), 0);
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::tool_jacobian(model, ws, q)(0, 0); }), 0);
  denoc::Vec6<S> w;
  w << 1, 2, 3, S(0.1), S(0.2), S(0.3);
  EXPECT_EQ(allocations_after_first([&] {
              denoc::inverse_dynamics(model, ws, q, qd, qdd);
              denoc::apply_tool_wrench(model, ws, w);
              sink += denoc::joint_reactions(model, ws, q)(0, 0);
            }),
            0);
  EXPECT_TRUE(std::isfinite(static_cast<double>(sink)));
}

// rfdsim's right-hand side with friction (both Coulomb models, joints locked) and a wrench.
class ConstantInput : public denoc::JointForces {
 public:
  void at(double, Eigen::Ref<denoc::VecX<double>> v) override { v.setConstant(0.5); }
};

TEST(Allocations, NoneInTheRightHandSideWithFrictionAndWrench) {
  for (int n : {1, 6, 40}) {
    std::vector<denoc::LinkSpec<double>> links = chain<double>(n).links();
    for (denoc::LinkSpec<double>& link : links) {
      link.drive.Jm = 1e-4;
      link.drive.G = 30;
      link.drive.B = 1e-3;
      link.drive.Tc_pos = 0.1;
      link.drive.Tc_neg = -0.1;
    }
    const denoc::Model<double> model(links);
    ConstantInput tau, wrench;
    for (denoc::CoulombModel coulomb :
         {denoc::CoulombModel::regularised, denoc::CoulombModel::stick_slip}) {
      denoc::ChainDynamics system(model, denoc::Route::udu, tau);
      denoc::FrictionSettings friction;
      friction.coulomb = coulomb;
      system.set_friction(friction);
      system.add_wrench(wrench, model.tool_frame(), true);
      denoc::State x(static_cast<std::size_t>(2 * n + 2), 0.0), dxdt(x.size());
      system.settle_modes(x, 0);  // joints at rest: some lock
      EXPECT_EQ(allocations_after_first([&] { system(x, dxdt, 0.0); }), 0);
      EXPECT_EQ(allocations_after_first([&] { system.transition_due(x, 0.0); }), 0);
    }
  }
}

// Closed loops (docs/loops.md): rfdsim's right-hand side and its projection onto the loops
// (assembly, the passive rates), and ridim's rows of the actuators' forces and the joints' states,
// on a revolute, a prismatic and spherical cut joints.
TEST(Allocations, NoneWithClosedLoops) {
  for (const char* name : {"fourbar.yaml", "slider_crank.yaml", "stewart_gough.yaml"}) {
    const denoc::RobotFile robot =
        denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/" + name);
    const int n = robot.dof(), f = static_cast<int>(robot.loops.actuated.size());
    ConstantInput tau;
    denoc::ChainDynamics system(robot.model, denoc::Route::udu, tau);
    system.set_loops(robot.loops);
    denoc::State x(static_cast<std::size_t>(2 * n + 2), 0.0), dxdt(x.size());
    for (int i = 0; i < n; ++i) {
      x[static_cast<std::size_t>(i)] = (*robot.initial_q)[i];
      x[static_cast<std::size_t>(n + i)] = (*robot.initial_qd)[i] + 0.1;
    }
    EXPECT_EQ(allocations_after_first([&] { system(x, dxdt, 0.0); }), 0) << name;
    EXPECT_EQ(allocations_after_first([&] { system.project(x); }), 0) << name;
    const denoc::VecX<double> q_a = denoc::VecX<double>::Constant(f, 0.01), qd_a = q_a;
    for (denoc::Quantity quantity : {denoc::Quantity::torques, denoc::Quantity::joint_states}) {
      denoc::ClosedLoopSamples samples(robot, quantity, denoc::Route::denoc);
      denoc::VecX<double> row(samples.size()), actuated = q_a;
      for (int k = 0; k < f; ++k)
        actuated[k] += (*robot.initial_q)[robot.loops.actuated[static_cast<std::size_t>(k)]];
      EXPECT_EQ(allocations_after_first([&] { samples.evaluate(actuated, qd_a, qd_a, row); }), 0)
          << name;
    }
  }
}

// The packs of samples (lanes/) allocate nothing per call either, with the drives' friction.
TEST(Allocations, NoneInThePacksOfSamples) {
  for (int n : {1, 6, 40}) {
    std::vector<denoc::LinkSpec<double>> links = chain<double>(n).links();
    for (denoc::LinkSpec<double>& link : links) {
      link.drive = {1e-4, 30, 1e-3, 0.1, -0.1};
    }
    const denoc::Model<double> model(links);
    denoc::LaneDynamics lanes(model);
    constexpr int width = denoc::LaneDynamics::width;
    std::vector<double> x(static_cast<std::size_t>(3 * n * width), 0.3);
    std::vector<double> out(static_cast<std::size_t>(n * n * width));
    const denoc::LanePointers p =
        denoc::lane_pointers(0, width, {x.data(), 3 * n}, {x.data() + n, 3 * n},
                             {x.data() + 2 * n, 3 * n}, {out.data(), n * n});
    for (denoc::Quantity quantity : {denoc::Quantity::torques, denoc::Quantity::bias,
                                     denoc::Quantity::gravity, denoc::Quantity::mass_matrix}) {
      EXPECT_EQ(allocations_after_first([&] { lanes.evaluate(quantity, true, width, p); }), 0)
          << denoc::quantity_name(quantity) << ", n = " << n;
    }
    EXPECT_EQ(allocations_after_first([&] { lanes.forward(true, width, p); }), 0) << n;
  }
}

TEST(Allocations, NoneWithDrivesToolAndPayload) {
  for (int n : {1, 6, 40, 200})
    expect_no_allocation_with_drives<double>(n);
  for (int n : {1, 6, 40})
    expect_no_allocation_with_drives<float>(n);
}

// The O(n) routes stay O(n) in memory: the workspaces and the routes that form no matrix take
// about ten times the bytes for ten times the joints (a single n x n matrix would be a hundred
// times), and the n x n buffers stay empty until a route that needs one runs.
template <typename S>
long bytes_of_linear_routes(int n) {
  const denoc::Model<S> model = chain<S>(n);
  const denoc::VecX<S> q = denoc::VecX<S>::LinSpaced(n, S(-1), S(1));
  const denoc::VecX<S> qd = denoc::VecX<S>::LinSpaced(n, S(0.5), S(-0.3));
  return bytes_in([&] {
    denoc::Dynamics<S> dynamics(model);
    denoc::Workspace<S>& ws = dynamics.denoc();
    denoc::inverse_dynamics(denoc::Route::denoc, dynamics, q, qd, q);
    denoc::inverse_dynamics(denoc::Route::gibbs_appell, dynamics, q, qd, q);
    for (denoc::Route route : {denoc::Route::udu, denoc::Route::fixman})
      denoc::forward_dynamics(route, dynamics, q, qd, q);
    denoc::tool_jacobian(model, ws, q);
    denoc::joint_reactions(model, ws, q);
    EXPECT_EQ(ws.inertia.I.size() + ws.inertia.L.size() + ws.inertia.inverse.size() +
                  ws.articulated.U.size() + ws.inverse.matrix.size() + ws.convective.C.size(),
              0);
    EXPECT_EQ(dynamics.gibbs_appell().D.size() + dynamics.gibbs_appell().L.size(), 0);
    EXPECT_EQ(dynamics.fixman().inverse.size(), 0);
    denoc::generalized_inertia(denoc::Route::denoc, dynamics, q);
    EXPECT_EQ(ws.inertia.I.rows(), n);  // sized by the route that forms it
    EXPECT_EQ(ws.inertia.I.cols(), n);
  });
}

// The extended Fixman routes bordered for point masses and thin rods (docs/fixman.md): links that
// alternate between the two.
template <typename S>
void expect_no_allocation_bordered(int n) {
  std::vector<denoc::DhLink<S>> rows;
  for (int i = 0; i < n; ++i) {
    denoc::DhLink<S> row;
    row.type = i % 3 == 2 ? denoc::JointType::prismatic : denoc::JointType::revolute;
    row.a = S(0.3), row.b = S(0.05), row.alpha = i % 2 ? S(M_PI / 3) : S(-M_PI / 4), row.mass = 1;
    row.com = denoc::Vec3<S>(S(-0.15), S(0.02), 0);
    if (i % 2) row.inertia = denoc::Vec3<S>(0, S(0.01), S(0.01)).asDiagonal();  // a rod along x
    rows.push_back(row);
  }
  const denoc::Model<S> model(denoc::links_from_dh(denoc::DhConvention::standard, rows));
  denoc::Workspace<S> ws(model);
  denoc::FixmanWorkspace<S> fx(model);
  ASSERT_TRUE(fx.bordered);
  const denoc::VecX<S> q = denoc::VecX<S>::LinSpaced(n, S(-1), S(1));
  const denoc::VecX<S> qd = denoc::VecX<S>::LinSpaced(n, S(0.5), S(-0.3));
  S sink = 0;
  EXPECT_EQ(allocations_after_first([&] { sink += denoc::fixman_solve(model, fx, q, qd)[0]; }), 0);
  EXPECT_EQ(
      allocations_after_first([&] { sink += denoc::fixman_inverse_inertia(model, fx, q)(0, 0); }),
      0);
  EXPECT_EQ(allocations_after_first(
                [&] { sink += denoc::forward_dynamics_fixman(model, ws, fx, q, qd, qd)[0]; }),
            0);
  EXPECT_TRUE(std::isfinite(static_cast<double>(sink)));
}

TEST(Allocations, NoneInTheBorderedFixmanRoutes) {
  for (int n : {1, 6, 40}) {
    expect_no_allocation_bordered<double>(n);
    expect_no_allocation_bordered<float>(n);
  }
}

TEST(Allocations, LinearRoutesTakeLinearMemory) {
  const long small = bytes_of_linear_routes<double>(100) - 100 * 100 * 8;  // less the one I
  const long large = bytes_of_linear_routes<double>(1000) - 1000 * 1000 * 8;
  EXPECT_GT(small, 0);
  EXPECT_LT(large, 15 * small) << small << " bytes at n = 100, " << large << " at n = 1000";
}

TEST(Allocations, CounterSeesOperatorNew) {
  const long before = news.load();
  std::vector<double>* volatile v = new std::vector<double>(8);  // volatile: not elided
  EXPECT_GT(news.load(), before);
  delete v;
}

TEST(Allocations, CounterSeesEigenAllocations) {
  // The counter must be able to fail: a dynamic Eigen vector does allocate.
  EXPECT_GT(allocations_in([] {
              denoc::VecX<double> v = denoc::VecX<double>::Ones(64);
              EXPECT_EQ(v.sum(), 64.0);
            }),
            0);
}

TEST(Allocations, NoneInAnyAlgorithmDouble) {
  for (int n : {1, 6, 40, 200, 1000})
    expect_no_allocation<double>(n);
}

// 200 joints: past the crossover to the blocked Cholesky (kernels/cholesky.hpp), which must take
// its packing buffers from the workspace in float too.
TEST(Allocations, NoneInAnyAlgorithmFloat) {
  for (int n : {1, 6, 40, 200})
    expect_no_allocation<float>(n);
}

TEST(Allocations, NoneOnTrees) {
  for (int n : {1, 7, 8, 40, 200}) {
    expect_no_allocation_on_tree<double>(n);
    expect_no_allocation_on_tree<float>(n);
    expect_no_allocation_on_tree<denoc::Counted>(n);
  }
}

// The counting scalar (--count-operations) runs the same routes, with the reference kernels
// (the column Cholesky at every order, the entry-by-entry inertia matrix): none allocates either.
TEST(Allocations, NoneInAnyAlgorithmCounted) {
  for (int n : {1, 6, 40, 200})
    expect_no_allocation<denoc::Counted>(n);
}

}  // namespace
