// Joints held still (model/reduced_model.hpp): with the locked joints at their values and at rest,
// the reduced model is the full one seen through its moving joints. Its inertia matrix is the
// full one's without the locked rows and columns, its joint forces are the full one's at the
// moving joints, and its tool sits where the full model's does; with a floating base too, where a
// link locked onto the base joins the base body.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "denoc/model/reduced_model.hpp"
#include "support/floating_bodies.hpp"
#include "support/random_trees.hpp"

namespace reduced_model_test {

using namespace denoc;
using denoc_test::relative_error;
using denoc_test::TreeGenerator;
using denoc_test::TreeShape;

// Some joints locked at random (never the last: the tool frame is on it), their values in q.
std::vector<LockedJoint<double>> lock_some(TreeGenerator& gen, int n, const VecX<double>& q) {
  std::vector<LockedJoint<double>> locked;
  for (int i = 0; i + 1 < n; ++i)
    if (gen.uniform(0, 1) < 0.4) locked.push_back({i, q[i]});
  return locked;
}

std::vector<int> moving(int n, const std::vector<LockedJoint<double>>& locked) {
  std::vector<int> kept;
  for (int i = 0; i < n; ++i)
    if (std::none_of(locked.begin(), locked.end(), [&](const auto& l) { return l.joint == i; }))
      kept.push_back(i);
  return kept;
}

// x at the indices `rows` (shifted by `offset`), after its first `head` entries.
VecX<double> pick(const VecX<double>& x, const std::vector<int>& rows, int head = 0,
                  int offset = 0) {
  VecX<double> y(head + static_cast<int>(rows.size()));
  y.head(head) = x.head(head);
  for (std::size_t k = 0; k < rows.size(); ++k)
    y[head + static_cast<int>(k)] = x[rows[k] + offset];
  return y;
}

MatX<double> pick(const MatX<double>& m, const std::vector<int>& rows, int head = 0) {
  const int size = head + static_cast<int>(rows.size());
  std::vector<int> all;
  for (int k = 0; k < head; ++k)
    all.push_back(k);
  for (int r : rows)
    all.push_back(r + head);
  MatX<double> y(size, size);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      y(i, j) = m(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
  return y;
}

TEST(ReducedModel, InertiaAndJointForcesAreTheFullModelsAtTheMovingJoints) {
  int cases = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    TreeGenerator gen(seed);
    const TreeShape shape{1 + static_cast<int>(seed % 4), 2 + static_cast<int>(seed % 6), 30};
    const Model<double> full = gen.model(gen.tree(shape));
    const int n = full.dof();
    const VecX<double> q = gen.positions(full);
    const std::vector<LockedJoint<double>> locked = lock_some(gen, n, q);
    if (locked.empty()) continue;
    const std::vector<int> kept = moving(n, locked);
    VecX<double> qd = gen.vector(n, 2), qdd = gen.vector(n, 3);
    for (const auto& l : locked)
      qd[l.joint] = qdd[l.joint] = 0;

    const Model<double> reduced = reduced_model(full, locked);
    ASSERT_EQ(reduced.dof(), static_cast<int>(kept.size())) << "seed " << seed;
    Workspace<double> ws_full(full), ws(reduced);
    const MatX<double> M_full = generalized_inertia(full, ws_full, q);
    const VecX<double> tau_full = inverse_dynamics(full, ws_full, q, qd, qdd);
    const VecX<double> qr = pick(q, kept);
    EXPECT_LT(relative_error(generalized_inertia(reduced, ws, qr), pick(M_full, kept)), 1e-12)
        << "seed " << seed;
    EXPECT_LT(relative_error(inverse_dynamics(reduced, ws, qr, pick(qd, kept), pick(qdd, kept)),
                             pick(tau_full, kept)),
              1e-12)
        << "seed " << seed;
    const Transform<double> tool_full = tool_pose(full, ws_full, q);
    const Transform<double> tool = tool_pose(reduced, ws, qr);
    EXPECT_LT((tool.R - tool_full.R).norm() + (tool.p - tool_full.p).norm(), 1e-12);
    ++cases;
  }
  EXPECT_GT(cases, 30);
}

// A floating base: the base's six rates come first and stay; a link locked onto the base joins
// the base body, which the base's rows of the inertia matrix and of the forces see.
TEST(ReducedModel, FloatingBaseTakesTheLinksLockedOntoIt) {
  int onto_base = 0;
  for (std::uint32_t seed = 1; seed <= 30; ++seed) {
    TreeGenerator gen(seed);
    const TreeShape shape{2 + static_cast<int>(seed % 3), 2 + static_cast<int>(seed % 4), 20};
    const Model<double> full = denoc_test::floating_model(gen, shape);
    const int n = full.dof();
    VecX<double> q(n + 7);
    q.head<3>() = gen.vector(3, 1);
    q.segment<4>(3) = Eigen::Quaterniond(gen.rotation()).coeffs();
    q.tail(n) = gen.positions(full);
    const std::vector<LockedJoint<double>> locked = lock_some(gen, n, q.tail(n));
    if (locked.empty()) continue;
    onto_base += std::count_if(locked.begin(), locked.end(),
                               [&](const auto& l) { return full.parent(l.joint) < 0; });
    const std::vector<int> kept = moving(n, locked);
    VecX<double> v = gen.vector(n + 6, 2), a = gen.vector(n + 6, 3);
    for (const auto& l : locked)
      v[6 + l.joint] = a[6 + l.joint] = 0;

    const Model<double> reduced = reduced_model(full, locked);
    Workspace<double> ws_full(full), ws(reduced);
    const MatX<double> M_full = generalized_inertia(full, ws_full, q);
    const VecX<double> tau_full = inverse_dynamics(full, ws_full, q, v, a);
    const VecX<double> qr = pick(q, kept, 7, 7);
    EXPECT_LT(relative_error(generalized_inertia(reduced, ws, qr), pick(M_full, kept, 6)), 1e-12)
        << "seed " << seed;
    EXPECT_LT(
        relative_error(inverse_dynamics(reduced, ws, qr, pick(v, kept, 6, 6), pick(a, kept, 6, 6)),
                       pick(tau_full, kept, 6, 6)),
        1e-12)
        << "seed " << seed;
  }
  EXPECT_GT(onto_base, 3);  // the base body's share was exercised
}

TEST(ReducedModel, RefusesWhatItCannotHold) {
  TreeGenerator gen(7);
  std::vector<LinkSpec<double>> links;
  for (int i = 0; i < 4; ++i)
    links.push_back(gen.link(i - 1));
  const Model<double> chain = gen.model(links);
  EXPECT_THROW(reduced_model(chain, {{4, 0.0}}), std::invalid_argument);   // no joint 5
  EXPECT_THROW(reduced_model(chain, {{-1, 0.0}}), std::invalid_argument);  // no joint 0
  EXPECT_THROW(reduced_model(chain, {{1, 0.1}, {1, 0.2}}), std::invalid_argument);
  EXPECT_THROW(reduced_model(chain, {{1, std::nan("")}}), std::invalid_argument);
  EXPECT_THROW(reduced_model(chain, {{0, 0.0}, {1, 0.0}, {2, 0.0}, {3, 0.0}}),
               std::invalid_argument);  // nothing left
  // The last link of a chain locked: the tool frame goes to the link before, the last one left.
  const Model<double> shorter = reduced_model(chain, {{3, 0.4}});
  VecX<double> q = gen.positions(chain);
  q[3] = 0.4;
  Workspace<double> ws_chain(chain), ws(shorter);
  EXPECT_LT((tool_pose(shorter, ws, q.head(3)).p - tool_pose(chain, ws_chain, q).p).norm(), 1e-12);
  // On a tree the last link's parent need not be the last link left: links 2 and 3 both on 1.
  const Model<double> tree = gen.model({gen.link(-1), gen.link(0), gen.link(0)});
  EXPECT_THROW(reduced_model(tree, {{2, 0.0}}), std::invalid_argument);
  EXPECT_NO_THROW(reduced_model(tree, {{1, 0.0}}));
}

}  // namespace reduced_model_test
