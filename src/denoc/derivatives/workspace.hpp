// The buffers of the derivatives of the dynamics (docs/derivatives.md), sized once from the model.
// The recursions run over bodies: with a floating base, body 0 is the base, whose six rates are
// its columns, and body 1 + i is link i; with a fixed base, body i is link i. Every column c of
// a body is one rate of v (one joint, or one of the base's six), in the order of v.
#pragma once

#include <vector>

#include "denoc/derivatives/inertia_variation.hpp"
#include "denoc/kernels/matrix_product.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

template <typename S>
struct DerivativesWorkspace {
  explicit DerivativesWorkspace(const Model<S>& model);

  int bodies() const { return static_cast<int>(parent_body.size()); }

  KinematicsWorkspace<S> kinematics;  // the joint frames and J_i in the base frame
  // What the model fixes: each body's parent body (-1 for the ground) and its columns,
  // first_column[b] .. first_column[b + 1] - 1.
  std::vector<int> parent_body, first_column;

  // Per body b, at the base origin in the base frame's axes (docs/derivatives.md, Eqs. D1-D4):
  // its velocity v_b and acceleration a_b (gravity in a_b as the ground's acceleration), and, once
  // the backward pass has summed them over its subtree, the composite inertia Ic_b, its variation
  // B_b and the composite force F_b.
  std::vector<Vec6<S>> v, a, F;
  std::vector<BodyInertia<S>> Ic;
  std::vector<InertiaVariation<S>> B;

  // Per column c: the motion axis s_c, and the columns of d v / d q, d a / d q and d a / d v
  // that the rate moves (Eq. D5).
  std::vector<Vec6<S>> axis, dv_dq, da_dq, da_dv;

  VecX<S> tau;                        // the forces themselves, as inverse_dynamics gives them
  MatX<S> dtau_dq, dtau_dv, dtau_da;  // nv x nv: the inverse dynamics' partial derivatives
  MatX<S> dqdd_dq, dqdd_dv;           // nv x nv: the forward dynamics'
  ProductScratch<S> product;          // the packing buffers of -M^-1 times those
};

template <typename S>
DerivativesWorkspace<S>::DerivativesWorkspace(const Model<S>& model)
    : kinematics(model.dof()),
      tau(VecX<S>::Zero(model.nv())),
      dtau_dq(MatX<S>::Zero(model.nv(), model.nv())),
      dtau_dv(dtau_dq),
      dtau_da(dtau_dq),
      dqdd_dq(dtau_dq),
      dqdd_dv(dtau_dq) {
  const int base = model.floating() ? 1 : 0;
  const int bodies = base + model.dof();
  if (base) parent_body.push_back(-1), first_column.push_back(0);
  for (int i = 0; i < model.dof(); ++i) {
    const int parent = model.parent(i);
    parent_body.push_back(parent >= 0 ? base + parent : base - 1);
    first_column.push_back(model.nv() - model.dof() + i);
  }
  first_column.push_back(model.nv());
  const auto nb = static_cast<std::size_t>(bodies), nv = static_cast<std::size_t>(model.nv());
  v.assign(nb, Vec6<S>::Zero());
  a = F = v;
  Ic.assign(nb, BodyInertia<S>());
  B.assign(nb, InertiaVariation<S>());
  axis.assign(nv, Vec6<S>::Zero());
  dv_dq = da_dq = da_dv = axis;
}

// The workspace was built for a model of model's kind and size (arguments.hpp).
template <typename S>
void require_workspace(const Model<S>& model, const DerivativesWorkspace<S>& ws,
                       const char* function) {
  require_workspace(model, ws.kinematics, function);
  if (ws.bodies() != model.dof() + (model.floating() ? 1 : 0) || ws.tau.size() != model.nv())
    wrong_workspace(function);
}

}  // namespace denoc
