// The computation behind each of ridim's quantities (docs/csv.md), written once for every scalar:
// ridim and Python evaluate it on double (quantities.cpp), --count-operations on the counting
// scalar (count_quantity.cpp), so that what is counted is what ridim computes. What a front end
// adds around it, the drives' friction and the run's checks, is the caller's.
#pragma once

#include <memory>
#include <stdexcept>

#include "denoc/engine/dynamics.hpp"
#include "denoc/engine/quantity_table.hpp"
#include "denoc/motion/body_motion.hpp"
#include "denoc/motion/centre_of_mass.hpp"
#include "denoc/saha/reactions.hpp"

namespace denoc {

// A matrix written row by row into the contiguous entries of `row`.
template <typename Matrix, typename Row>
void put_matrix(const Matrix& m, Row&& row) {
  using S = typename Matrix::Scalar;
  Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      row.data(), m.rows(), m.cols()) = m;
}

// One quantity by one route on one model, row after row, into rows laid out as
// quantity_columns() names them. Owns the families' workspaces (dynamics.hpp) and those of the
// bodies' motion where the quantity needs them; allocates nothing per row.
template <typename S>
class QuantityRows {
 public:
  // `friction`: the derivatives carry the drives' friction (the forces' rows leave it to the
  // caller, who adds it to the row; a derivative of the forward dynamics cannot be mended so).
  QuantityRows(std::shared_ptr<const Model<S>> model, Quantity quantity, Route route,
               const BodyFrame<S>& frame, bool friction = false)
      : dynamics_(std::move(model)),
        quantity_(quantity),
        route_(route),
        frame_(frame),
        friction_(friction),
        wrench_forces_(VecX<S>::Zero(dynamics_.model().nv())) {
    if (of_motion(quantity))
      centroidal_ = std::make_unique<CentroidalWorkspace<S>>(dynamics_.model());
  }

  Dynamics<S>& dynamics() { return dynamics_; }
  const Model<S>& model() const { return dynamics_.model(); }
  const BodyFrame<S>& frame() const { return frame_; }

  // The quantity at (q, qd, qdd) (nq, nv, nv entries) into `row`. `count` wrenches act, each on
  // its frame: the forces (torques, bias) are the route's less J^T w of each, the reactions
  // carry them; the other quantities have no use for them.
  void operator()(ConstVectorRef<S> q, ConstVectorRef<S> qd, ConstVectorRef<S> qdd,
                  Eigen::Ref<VecX<S>> row, const FrameWrench<S>* wrenches = nullptr,
                  int count = 0) {
    switch (quantity_) {
      case Quantity::torques:
        forces_row(inverse_dynamics(route_, dynamics_, q, qd, qdd), q, wrenches, count, row);
        break;
      case Quantity::bias:
        forces_row(bias_forces(route_, dynamics_, q, qd), q, wrenches, count, row);
        break;
      case Quantity::gravity:
        row = gravity_forces(route_, dynamics_, q);
        break;
      case Quantity::mass_matrix:
        put_matrix(generalized_inertia(route_, dynamics_, q), row);
        break;
      case Quantity::inverse_mass_matrix:
        put_matrix(inverse_inertia(route_, dynamics_, q), row);
        break;
      case Quantity::pose: {  // x, y, z, then R row by row
        const Transform<S>& pose = frame_pose(dynamics_, frame_, q);
        row.template head<3>() = pose.p;
        put_matrix(pose.R, row.template tail<9>());
        break;
      }
      case Quantity::jacobian:
        put_matrix(frame_jacobian(dynamics_, frame_, q), row);
        break;
      case Quantity::reactions: {  // the recursions, then the joints' reactions
        const Model<S>& m = model();
        Workspace<S>& ws = dynamics_.denoc();
        inverse_dynamics(Route::denoc, dynamics_, q, qd, qdd);
        if (count > 0) apply_frame_wrenches(m, ws, q, wrenches, count);
        const auto& reactions = joint_reactions(m, ws, q.tail(m.dof()));
        row = Eigen::Map<const VecX<S>>(reactions.data(), reactions.size());
        break;
      }
      case Quantity::coriolis:
        put_matrix(convective_inertia(route_, dynamics_, q, qd), row);
        break;
      case Quantity::udu: {  // U row by row, then the diagonal of D
        const UduFactors<S> factors = udu_factors(route_, dynamics_, q);
        const Eigen::Index n = factors.U.rows();
        put_matrix(factors.U, row.head(n * n));
        row.tail(n) = factors.d;
        break;
      }
      case Quantity::torque_derivatives: {
        const DerivativesWorkspace<S>& d =
            inverse_dynamics_derivatives(route_, dynamics_, q, qd, qdd, friction_);
        partials_row(d.dtau_dq, d.dtau_dv, row);
        break;
      }
      case Quantity::acceleration_derivatives: {  // at the torques that give qdd
        forward_dynamics_derivatives(route_, dynamics_, q, qd, qdd, friction_);
        const DerivativesWorkspace<S>& d = dynamics_.derivatives();
        partials_row(d.dqdd_dq, d.dqdd_dv, row);
        break;
      }
      default:
        motion_row(q, qd, qdd, row);
    }
  }

 private:
  // The route's forces `tau` less J^T w of the wrenches (docs/ridim.md).
  void forces_row(const VecX<S>& tau, ConstVectorRef<S> q, const FrameWrench<S>* wrenches,
                  int count, Eigen::Ref<VecX<S>> row) {
    row = tau;
    if (count == 0) return;
    frame_wrench_forces(model(), dynamics_.denoc(), q, wrenches, count, wrench_forces_);
    row -= wrench_forces_;
  }

  // Two nv x nv matrices, the derivatives by q and by qd, one after the other.
  static void partials_row(const MatX<S>& by_q, const MatX<S>& by_qd, Eigen::Ref<VecX<S>> row) {
    const Eigen::Index size = by_q.size();
    put_matrix(by_q, row.head(size));
    put_matrix(by_qd, row.tail(size));
  }

  // The quantities of docs/legged.md, in the world frame.
  void motion_row(ConstVectorRef<S> q, ConstVectorRef<S> qd, ConstVectorRef<S> qdd,
                  Eigen::Ref<VecX<S>> row) {
    const Model<S>& m = model();
    CentroidalWorkspace<S>& ws = *centroidal_;
    switch (quantity_) {
      case Quantity::frame_velocity:
        body_poses(m, ws.motion, q);
        body_velocities(m, ws.motion, qd);
        row = frame_velocity(ws.motion, frame_);
        break;
      case Quantity::frame_acceleration:
        body_poses(m, ws.motion, q);
        body_velocities(m, ws.motion, qd);
        body_accelerations(m, ws.motion, qd, qdd);
        row = frame_acceleration(ws.motion, frame_);
        break;
      case Quantity::com:
        centre_of_mass_velocity(m, ws, q, qd);
        row[0] = ws.mass;
        row.template segment<3>(1) = ws.com;
        row.template segment<3>(4) = ws.com_velocity;
        break;
      case Quantity::com_jacobian:
        put_matrix(centre_of_mass_jacobian(m, ws, q), row);
        break;
      case Quantity::centroidal_momentum:
        row = centroidal_momentum(m, ws, q, qd);
        break;
      case Quantity::centroidal_matrix:
        put_matrix(centroidal_matrix(m, ws, q), row);
        break;
      default:
        throw std::logic_error("QuantityRows: a quantity without a row");
    }
  }

  Dynamics<S> dynamics_;
  Quantity quantity_;
  Route route_;
  BodyFrame<S> frame_;  // of pose, jacobian, the frame's velocity and acceleration
  bool friction_;       // of the derivatives
  VecX<S> wrench_forces_;
  std::unique_ptr<CentroidalWorkspace<S>> centroidal_;  // the quantities of docs/legged.md
};

}  // namespace denoc
