// A Dynamics bundle owns each family's workspace for one model, built when a route first needs
// it, and the functions below dispatch a Route (routes.hpp) to the family that computes it. The
// apps, the simulation and the reproduction tool go through here; the benchmarks and the tests
// call the families' functions directly. The dispatch is a switch, compiled where it is called;
// the families it calls are compiled once, in the library (families.hpp).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "denoc/engine/routes.hpp"
#include "denoc/families.hpp"

namespace denoc {

// Each family's workspace for one model, built at the first call that needs it (the DeNOC one
// at once: every route reads its joint frames or its bias forces). It shares the model (or owns
// the copy it was given), so that it may be built from a temporary and outlive the caller's.
template <typename S>
class Dynamics {
 public:
  explicit Dynamics(std::shared_ptr<const Model<S>> model)
      : model_(require_model(std::move(model))), denoc_(*model_) {}
  explicit Dynamics(Model<S> model)
      : Dynamics(std::make_shared<const Model<S>>(std::move(model))) {}

  const Model<S>& model() const { return *model_; }
  Workspace<S>& denoc() { return denoc_; }
  GibbsAppellWorkspace<S>& gibbs_appell() {
    if (!gibbs_appell_) gibbs_appell_.emplace(*model_);
    return *gibbs_appell_;
  }
  FixmanWorkspace<S>& fixman() {
    if (!fixman_) fixman_.emplace(*model_);
    return *fixman_;
  }
  DerivativesWorkspace<S>& derivatives() {
    if (!derivatives_) derivatives_.emplace(*model_);
    return *derivatives_;
  }

 private:
  static std::shared_ptr<const Model<S>> require_model(std::shared_ptr<const Model<S>> model) {
    if (!model) throw std::invalid_argument("Dynamics: the model is null");
    return model;
  }

  std::shared_ptr<const Model<S>> model_;
  Workspace<S> denoc_;
  std::optional<GibbsAppellWorkspace<S>> gibbs_appell_;
  std::optional<FixmanWorkspace<S>> fixman_;
  std::optional<DerivativesWorkspace<S>> derivatives_;
};

namespace routes_detail {
[[noreturn]] inline void not_computed_by(Route route, const char* what) {
  throw std::invalid_argument("the route " + route_name(route) + " does not compute " + what);
}
// Until a family's recursion is extended to trees (docs/trees.md), it refuses them by name.
template <typename S>
void chain_only(const Dynamics<S>& d, Route route, const char* what) {
  if (!d.model().is_chain())
    throw std::invalid_argument("the route " + route_name(route) + " computes " + what +
                                " for serial chains only, and the robot is a tree");
}
// With a floating base (docs/floating-base.md), q has 7 + n entries and the rates 6 + n; the
// DeNOC routes take the base as their root, the others refuse it by name.
template <typename S>
void fixed_base_only(const Dynamics<S>& d, Route route, const char* what) {
  if (d.model().floating())
    throw std::invalid_argument("the route " + route_name(route) + " computes " + what +
                                " with a fixed base only, and the robot's base is floating");
}
}  // namespace routes_detail

// tau(q, qd, qdd), Saha (1999) Eq. (30) or Mata et al. (2002) Eq. (17), drives' rotors included.
template <typename S>
const VecX<S>& inverse_dynamics(Route route, Dynamics<S>& d, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> qdd) {
  if (route == Route::denoc) return inverse_dynamics(d.model(), d.denoc(), q, qd, qdd);
  routes_detail::fixed_base_only(d, route, "the inverse dynamics");
  if (route == Route::gibbs_appell)
    return gibbs_appell_inverse_dynamics(d.model(), d.gibbs_appell(), q, qd, qdd);
  routes_detail::not_computed_by(route, "the inverse dynamics");
}

// h(q, qd) = tau(q, qd, 0).
template <typename S>
const VecX<S>& bias_forces(Route route, Dynamics<S>& d, ConstVectorRef<S> q, ConstVectorRef<S> qd) {
  if (route == Route::denoc) return bias_forces(d.model(), d.denoc(), q, qd);
  routes_detail::fixed_base_only(d, route, "the bias forces");
  if (route == Route::gibbs_appell) return gibbs_appell_bias(d.model(), d.gibbs_appell(), q, qd);
  routes_detail::not_computed_by(route, "the bias forces");
}

// g(q) = tau(q, 0, 0).
template <typename S>
const VecX<S>& gravity_forces(Route route, Dynamics<S>& d, ConstVectorRef<S> q) {
  if (route == Route::denoc) return gravity_forces(d.model(), d.denoc(), q);
  routes_detail::fixed_base_only(d, route, "the gravity forces");
  if (route == Route::gibbs_appell) return gibbs_appell_gravity(d.model(), d.gibbs_appell(), q);
  routes_detail::not_computed_by(route, "the gravity forces");
}

// The generalized inertia matrix I(q): Saha (1999) Eq. (24) or Mata et al. (2002) Eq. (19).
template <typename S>
const MatX<S>& generalized_inertia(Route route, Dynamics<S>& d, ConstVectorRef<S> q) {
  if (route == Route::denoc) return generalized_inertia(d.model(), d.denoc(), q);
  routes_detail::fixed_base_only(d, route, "the inertia matrix");
  if (route == Route::gibbs_appell) return gibbs_appell_inertia(d.model(), d.gibbs_appell(), q);
  routes_detail::not_computed_by(route, "the inertia matrix");
}

// The matrix of convective inertia terms C(q, qd): Saha (1999) Eqs. (25)-(29).
template <typename S>
const MatX<S>& convective_inertia(Route route, Dynamics<S>& d, ConstVectorRef<S> q,
                                  ConstVectorRef<S> qd) {
  if (route == Route::denoc) return convective_inertia(d.model(), d.denoc(), q, qd);
  routes_detail::not_computed_by(route, "the matrix of convective inertia terms");
}

// The factors of I = U D U^T, Saha (1999) Eqs. (46)-(54).
template <typename S>
UduFactors<S> udu_factors(Route route, Dynamics<S>& d, ConstVectorRef<S> q) {
  if (route != Route::udu) routes_detail::not_computed_by(route, "the U D U^T factors");
  return udu_factors(d.model(), d.denoc(), q);
}

// I(q)^-1; NaN entries when I is not positive definite.
template <typename S>
const MatX<S>& inverse_inertia(Route route, Dynamics<S>& d, ConstVectorRef<S> q) {
  if (route == Route::udu) return inverse_inertia_udu(d.model(), d.denoc(), q);
  if (route == Route::cholesky) return inverse_generalized_inertia(d.model(), d.denoc(), q);
  routes_detail::fixed_base_only(d, route, "the inverse inertia matrix");
  if (route == Route::fixman) {
    routes_detail::chain_only(d, route, "the inverse inertia matrix");
    return fixman_inverse_inertia(d.model(), d.fixman(), q);
  }
  routes_detail::not_computed_by(route, "the inverse inertia matrix");
}

// The pose of `frame` (in the base frame; in the world frame with a floating base), and the
// geometric Jacobian of its origin (6 x n; 6 x (6 + n) with a floating base).
template <typename S>
const Transform<S>& frame_pose(Dynamics<S>& d, const BodyFrame<S>& frame, ConstVectorRef<S> q) {
  return frame_pose(d.model(), d.denoc(), frame, q);
}
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& frame_jacobian(Dynamics<S>& d, const BodyFrame<S>& frame,
                                                          ConstVectorRef<S> q) {
  return frame_jacobian(d.model(), d.denoc(), frame, q);
}

// d tau / d q and d tau / d qd (derivatives/inverse_dynamics_derivatives.hpp), the drives'
// viscous friction in the second when `friction` is set. One recursion serves: the denoc route.
template <typename S>
const DerivativesWorkspace<S>& inverse_dynamics_derivatives(Route route, Dynamics<S>& d,
                                                            ConstVectorRef<S> q,
                                                            ConstVectorRef<S> qd,
                                                            ConstVectorRef<S> qdd, bool friction) {
  if (route != Route::denoc)
    routes_detail::not_computed_by(route, "the derivatives of the inverse dynamics");
  inverse_dynamics_derivatives(d.model(), d.derivatives(), q, qd, qdd, friction);
  return d.derivatives();
}

// d qdd / d q and d qdd / d qd at the accelerations qdd of the forward dynamics
// (derivatives/forward_dynamics_derivatives.hpp), with M^-1 from the U D U^T factors: the udu
// route. Returns M^-1; the derivatives are in d.derivatives().
template <typename S>
const MatX<S>& forward_dynamics_derivatives(Route route, Dynamics<S>& d, ConstVectorRef<S> q,
                                            ConstVectorRef<S> qd, ConstVectorRef<S> qdd,
                                            bool friction) {
  if (route != Route::udu)
    routes_detail::not_computed_by(route, "the derivatives of the forward dynamics");
  return forward_dynamics_derivatives(d.model(), d.denoc(), d.derivatives(), q, qd, qdd, friction);
}

// qdd from I(q) qdd = tau - h(q, qd); NaN entries when I is not positive definite. `tau` must
// not be a vector of `d`'s workspaces.
template <typename S>
const VecX<S>& forward_dynamics(Route route, Dynamics<S>& d, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  if (route == Route::udu) return forward_dynamics(d.model(), d.denoc(), q, qd, tau);
  if (route == Route::cholesky) return forward_dynamics_cholesky(d.model(), d.denoc(), q, qd, tau);
  routes_detail::fixed_base_only(d, route, "the forward dynamics");
  switch (route) {
    case Route::gibbs_appell:
      return forward_dynamics_gibbs_appell(d.model(), d.gibbs_appell(), q, qd, tau);
    case Route::fixman:
      routes_detail::chain_only(d, route, "the forward dynamics");
      return forward_dynamics_fixman(d.model(), d.denoc(), d.fixman(), q, qd, tau);
    default:
      routes_detail::not_computed_by(route, "the forward dynamics");
  }
}

}  // namespace denoc
