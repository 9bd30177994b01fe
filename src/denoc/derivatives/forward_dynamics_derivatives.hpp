// The partial derivatives of the forward dynamics qdd = FD(q, v, tau), Eq. (D10) of
// docs/derivatives.md: at the acceleration a = FD(q, v, tau), tau = ID(q, v, a) holds on a
// neighbourhood, so
//   d qdd / d q = -M^-1 d tau / d q,   d qdd / d v = -M^-1 d tau / d v,   d qdd / d tau = M^-1,
// with d tau / d q and d tau / d v those of the inverse dynamics at (q, v, a) and M^-1 the O(n^2)
// inverse from the U D U^T factors (Saha 1999, Eqs. 46-54; saha/inverse_inertia.hpp).
#pragma once

#include "denoc/derivatives/inverse_dynamics_derivatives.hpp"
#include "denoc/saha/inverse_inertia.hpp"

namespace denoc {

// d qdd / d q and d qdd / d v into ws.dqdd_dq and ws.dqdd_dv (nv x nv) at (q, v) and the
// accelerations `a` that the forward dynamics gives for the forces (with friction when `friction`
// is set, as add_friction_derivatives takes it); ws.dtau_dq and ws.dtau_dv hold the inverse
// dynamics' at (q, v, a). Returns M^-1 (d qdd / d tau), held in `denoc`. NaN entries when the
// inertia matrix is not positive definite.
template <typename S>
const MatX<S>& forward_dynamics_derivatives(const Model<S>& model, Workspace<S>& denoc,
                                            DerivativesWorkspace<S>& ws, ConstVectorRef<S> q,
                                            ConstVectorRef<S> v, ConstVectorRef<S> a,
                                            bool friction = false) {
  inverse_dynamics_derivatives(model, ws, q, v, a, friction);
  const MatX<S>& minv = inverse_inertia_udu(model, denoc, q);
  negated_product(minv, ws.dtau_dq, ws.dqdd_dq, ws.product);
  negated_product(minv, ws.dtau_dv, ws.dqdd_dv, ws.product);
  return minv;
}

}  // namespace denoc
