// What the floating-base tests share: a random base body, and the system's mass and mass centre.
#pragma once

#include "denoc/denoc.hpp"
#include "support/random_trees.hpp"

namespace denoc_test {

// A base body of 1-10 kg, its mass centre within 0.2 m of the base origin, a full inertia.
inline denoc::RigidBody<double> random_base_body(TreeGenerator& gen) {
  denoc::RigidBody<double> body;
  body.mass = gen.uniform(1, 10);
  body.com =
      denoc::Vec3<double>(gen.uniform(-0.2, 0.2), gen.uniform(-0.2, 0.2), gen.uniform(-0.2, 0.2));
  const denoc::Mat3<double> R = gen.rotation();
  body.inertia = body.mass * R * denoc::Vec3<double>(0.05, 0.07, 0.1).asDiagonal() * R.transpose();
  return body;
}

// A floating-base model of the generator's tree, with a random base body.
// The base is drawn first (the order of a call's arguments is unspecified).
inline denoc::Model<double> floating_model(TreeGenerator& gen, const TreeShape& shape) {
  const denoc::RigidBody<double> base = random_base_body(gen);
  return denoc::Model<double>(gen.tree(shape), denoc::Vec3<double>(1.3, -4.2, -8.1),
                              denoc::Transform<double>(), denoc::Payload<double>(), base);
}

// The whole system's mass and its mass centre in the base frame, from the joint poses that
// joint_poses left in ws (the base body's, then every link's).
struct SystemMass {
  double mass = 0;
  denoc::Vec3<double> centre = denoc::Vec3<double>::Zero();
};

inline SystemMass system_mass(const denoc::Model<double>& model,
                              const denoc::Workspace<double>& ws) {
  SystemMass s;
  s.mass = model.base_body().mass;
  denoc::Vec3<double> first_moment = s.mass * model.base_body().com;
  for (int i = 0; i < model.dof(); ++i) {
    const double m = model.joint(i).M.mass;
    s.mass += m;
    first_moment += m * (ws.o_base[i] + ws.R_base[i] * model.joint(i).d);
  }
  s.centre = first_moment / s.mass;
  return s;
}

}  // namespace denoc_test
