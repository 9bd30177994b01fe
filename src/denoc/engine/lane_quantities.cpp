#include "denoc/engine/lane_quantities.hpp"

#include "denoc/derivatives/inverse_dynamics_derivatives.hpp"
#include "denoc/engine/quantity_table.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

template <typename T>
LaneDynamicsOf<T>::LaneDynamicsOf(const Model<T>& model)
    : model_lanes_(model.template cast<Pack>()),
      ws_(model_lanes_),
      q_(model.dof()),
      qd_(model.dof()),
      qdd_(model.dof()),
      friction_(model.dof()) {}

template <typename T>
bool LaneDynamicsOf<T>::supports(Quantity quantity, Route route, const Model<T>& model) {
  return !model.floating() && route == Route::denoc && computed_by_packs(quantity);
}

template <typename T>
bool LaneDynamicsOf<T>::supports_forward(Route route, const Model<T>& model) {
  return !model.floating() && route == Route::udu;
}

// The samples into the packs, lane k from sample k; the lanes beyond `count` repeat sample 0, so
// that every lane holds a valid state and no lane computes with garbage.
template <typename T>
void LaneDynamicsOf<T>::gather(int count, const Pointers& samples) {
  const auto from = [count](int lane) { return lane < count ? lane : 0; };
  for (int i = 0; i < model_lanes_.dof(); ++i) {
    q_[i] = Pack::generate([&](int lane) { return samples.q[from(lane)][i]; });
    qd_[i] = Pack::generate([&](int lane) { return samples.qd[from(lane)][i]; });
    qdd_[i] = Pack::generate([&](int lane) { return samples.qdd[from(lane)][i]; });
  }
}

// Lane k of `values` into samples.out[k], for the samples there are.
template <typename T>
void LaneDynamicsOf<T>::scatter(const VecX<Pack>& values, int count, const Pointers& samples) {
  for (int k = 0; k < count; ++k) {
    for (Eigen::Index i = 0; i < values.size(); ++i)
      samples.out[k][i] = values[i][k];
  }
}

template <typename T>
void LaneDynamicsOf<T>::scatter(const MatX<Pack>& values, Eigen::Index offset, int count,
                                const Pointers& samples) {
  for (int k = 0; k < count; ++k) {
    T* row = samples.out[k] + offset;
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
      for (Eigen::Index c = 0; c < values.cols(); ++c)
        *row++ = values(r, c)[k];
    }
  }
}

// The forces with the drives' friction G^2 B qd + |G| Tc(qd) (docs/robot-file.md), chosen lane
// by lane on the sign of qd, into the samples' rows.
template <typename T>
void LaneDynamicsOf<T>::scatter_forces(const VecX<Pack>& forces, bool friction, int count,
                                       const Pointers& samples) {
  if (!friction) return scatter(forces, count, samples);
  friction_forces(model_lanes_, qd_, friction_);
  friction_ += forces;
  scatter(friction_, count, samples);
}

template <typename T>
void LaneDynamicsOf<T>::evaluate(Quantity quantity, bool friction, int count,
                                 const Pointers& samples) {
  gather(count, samples);
  const int n = model_lanes_.dof();
  switch (quantity) {
    case Quantity::torques:
      scatter_forces(inverse_dynamics(model_lanes_, ws_, q_, qd_, qdd_), friction, count, samples);
      break;
    case Quantity::bias:
      scatter_forces(bias_forces(model_lanes_, ws_, q_, qd_), friction, count, samples);
      break;
    case Quantity::gravity:
      scatter_forces(gravity_forces(model_lanes_, ws_, q_), false, count, samples);
      break;
    case Quantity::mass_matrix:
      scatter(generalized_inertia(model_lanes_, ws_, q_), 0, count, samples);
      break;
    case Quantity::torque_derivatives: {  // d tau / d q, then d tau / d qd
      if (!derivatives_) derivatives_ = std::make_unique<DerivativesWorkspace<Pack>>(model_lanes_);
      inverse_dynamics_derivatives(model_lanes_, *derivatives_, q_, qd_, qdd_, friction);
      scatter(derivatives_->dtau_dq, 0, count, samples);
      scatter(derivatives_->dtau_dv, Eigen::Index{n} * n, count, samples);
      break;
    }
    default:
      throw std::logic_error("LaneDynamics::evaluate: not a quantity of the lanes");
  }
}

template <typename T>
void LaneDynamicsOf<T>::forward(bool friction, int count, const Pointers& samples) {
  gather(count, samples);  // tau in qdd_
  if (friction) {
    friction_forces(model_lanes_, qd_, friction_);
    qdd_ -= friction_;
  }
  scatter(forward_dynamics(model_lanes_, ws_, q_, qd_, qdd_), count, samples);
}

template <typename T>
void LaneDynamicsOf<T>::pivots(int sample, VecX<T>& m_hat) const {
  const VecX<Pack>& pivots = last_udu_pivots(model_lanes_, ws_).joints;
  m_hat.resize(pivots.size());
  for (Eigen::Index i = 0; i < m_hat.size(); ++i)
    m_hat[i] = pivots[i][sample];
}

template class LaneDynamicsOf<double>;
template class LaneDynamicsOf<float>;

}  // namespace denoc
