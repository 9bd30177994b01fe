// Compliant ground contact (docs/legged.md): points of the robot (frames' origins) against the
// plane z = 0 of the world. Where a point penetrates by d > 0 at the rate d' = -v_z, the ground
// pushes with the normal force N = k d + c d', never pulling (N = 0 where that is negative), and
// with regularised Coulomb friction -mu N tanh(|v_t| / v_s) v_t / |v_t| against the point's
// tangential velocity v_t. A foot that should stick creeps at about v_s atanh(|F_t| / (mu N)); a
// smaller v_s makes that slower and the equations stiffer (a light foot's tangential rate
// mu N / (v_s m) bounds an explicit method's step).
//
// Energy: the springs hold E_c = sum 1/2 k max(d, 0)^2, and the power the contacts take out of the
// robot and its springs, P = -sum F . v - dE_c/dt = sum (N - k d) d' + mu N tanh(..) |v_t| >= 0,
// is dissipated: kinetic + potential + E_c + dissipated - work stays constant.
//
// Touch-down and lift-off are events where the integrator locates them: each point is then in a
// mode (pressing or not) that holds between events, so that the force is smooth within a step;
// a point presses where d > 0 and k d + c d' > 0.
#pragma once

#include <vector>

#include "denoc/motion/body_motion.hpp"

namespace denoc {

// rfdsim --ground k,c,mu[,v_s]; the defaults make a quadruped or a humanoid stand
// (docs/legged.md).
struct GroundSettings {
  double stiffness = 1e5;       // k, N/m
  double damping = 1e3;         // c, N s/m
  double friction = 0.8;        // mu
  double slip_velocity = 0.01;  // v_s, m/s
};

class GroundContact {
 public:
  // `points`: the frames whose origins touch the ground. InputError for a negative k, c or mu, or
  // a v_s that is not positive.
  GroundContact(const Model<double>& model, std::vector<BodyFrame<double>> points,
                const GroundSettings& ground);

  // The contact forces at (q, v) (nq and nv entries); with `modes`, each point pushes as its mode
  // says (set_modes), else where it presses now. Afterwards generalized() holds their forces on
  // the nv rates, J^T F summed over the points.
  void evaluate(ConstVectorRef<double> q, ConstVectorRef<double> v, bool modes);
  const VecX<double>& generalized() const { return generalized_; }
  double stored_energy() const { return stored_; }    // E_c at the last evaluate
  double dissipation() const { return dissipated_; }  // P at the last evaluate
  const Vec3<double>& force(int k) const { return forces_[static_cast<std::size_t>(k)]; }
  int size() const { return static_cast<int>(points_.size()); }

  // After evaluate: whether some point's mode differs from whether it presses.
  bool transition_due() const;
  // Each point's mode set to whether it presses at the last evaluate; the changes counted.
  long set_modes();

 private:
  void add_generalized_force(const BodyFrame<double>& frame, const Vec3<double>& point,
                             const Vec3<double>& force);

  const Model<double>& model_;
  std::vector<BodyFrame<double>> points_;
  GroundSettings ground_;
  BodyMotionWorkspace<double> motion_;
  std::vector<Vec3<double>> forces_;
  std::vector<char> pressing_, mode_;
  VecX<double> generalized_;
  double stored_ = 0, dissipated_ = 0;
};

}  // namespace denoc
