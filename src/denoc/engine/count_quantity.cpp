#include "denoc/engine/count_quantity.hpp"

#include "denoc/engine/count_operations.hpp"
#include "denoc/motion/centre_of_mass.hpp"

namespace denoc {

OperationCounts count_ridim_quantity(Quantity quantity, Route route, const Model<double>& model,
                                     ConstVectorRef<double> q_double,
                                     ConstVectorRef<double> qd_double,
                                     ConstVectorRef<double> qdd_double) {
  CountingDynamics counting(model);
  Dynamics<Counted>& d = counting.dynamics;
  const Model<Counted>& m = counting.model;
  const VecX<Counted> q = counted(q_double), qd = counted(qd_double), qdd = counted(qdd_double);
  CentroidalWorkspace<Counted> centroidal(m);
  BodyMotionWorkspace<Counted>& motion = centroidal.motion;
  return count_operations([&] {
    switch (quantity) {
      case Quantity::torques:
        inverse_dynamics(route, d, q, qd, qdd);
        break;
      case Quantity::mass_matrix:
        generalized_inertia(route, d, q);
        break;
      case Quantity::inverse_mass_matrix:
        inverse_inertia(route, d, q);
        break;
      case Quantity::bias:
        bias_forces(route, d, q, qd);
        break;
      case Quantity::gravity:
        gravity_forces(route, d, q);
        break;
      case Quantity::pose:  // in the world frame with a floating base
        if (m.floating()) {
          frame_pose(d, m.tool_frame(), q);
        } else {
          tool_pose(m, d.denoc(), q);
        }
        break;
      case Quantity::jacobian:
        if (m.floating()) {
          frame_jacobian(d, m.tool_frame(), q);
        } else {
          tool_jacobian(m, d.denoc(), q);
        }
        break;
      case Quantity::coriolis:
        convective_inertia(route, d, q, qd);
        break;
      case Quantity::udu:
        udu_factors(route, d, q);
        break;
      case Quantity::reactions:  // as ridim computes them: the recursions, then the reactions
        inverse_dynamics(Route::denoc, d, q, qd, qdd);
        joint_reactions(m, d.denoc(), q.tail(m.dof()));
        break;
      case Quantity::frame_velocity:  // of the tool frame, as pose and jacobian
        body_poses(m, motion, q);
        body_velocities(m, motion, qd);
        frame_velocity(motion, m.tool_frame());
        break;
      case Quantity::frame_acceleration:
        body_poses(m, motion, q);
        body_velocities(m, motion, qd);
        body_accelerations(m, motion, qd, qdd);
        frame_acceleration(motion, m.tool_frame());
        break;
      case Quantity::com:
        centre_of_mass_velocity(m, centroidal, q, qd);
        break;
      case Quantity::com_jacobian:
        centre_of_mass_jacobian(m, centroidal, q);
        break;
      case Quantity::centroidal_momentum:
        centroidal_momentum(m, centroidal, q, qd);
        break;
      case Quantity::centroidal_matrix:
        centroidal_matrix(m, centroidal, q);
        break;
    }
  });
}

OperationCounts count_forward_dynamics(Route route, const Model<double>& model,
                                       ConstVectorRef<double> q_double,
                                       ConstVectorRef<double> qd_double) {
  CountingDynamics counting(model);
  const VecX<Counted> q = counted(q_double), qd = counted(qd_double);
  const VecX<Counted> tau = VecX<Counted>::Zero(model.dof());  // the joints'; a floating base free
  return count_operations([&] { forward_dynamics(route, counting.dynamics, q, qd, tau); });
}

std::string count_table(const std::string& quantity, Route route, int n, const OperationCounts& c) {
  return "quantity,algorithm,n,multiplications,additions,divisions,square_roots,sines_cosines\n" +
         quantity + "," + route_name(route) + "," + std::to_string(n) + "," +
         std::to_string(c.multiplications) + "," + std::to_string(c.additions) + "," +
         std::to_string(c.divisions) + "," + std::to_string(c.square_roots) + "," +
         std::to_string(c.sines_cosines) + "\n";
}

}  // namespace denoc
