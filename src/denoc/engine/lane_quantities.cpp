#include "denoc/engine/lane_quantities.hpp"

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
    case Quantity::mass_matrix: {
      const MatX<Pack>& I = generalized_inertia(model_lanes_, ws_, q_);
      for (int k = 0; k < count; ++k) {
        for (int r = 0; r < n; ++r) {
          for (int c = 0; c < n; ++c)
            samples.out[k][r * n + c] = I(r, c)[k];
        }
      }
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
