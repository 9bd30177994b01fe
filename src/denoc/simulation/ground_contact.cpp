#include "denoc/simulation/ground_contact.hpp"

#include <cmath>
#include <utility>

#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"

namespace denoc {

GroundContact::GroundContact(const Model<double>& model, std::vector<BodyFrame<double>> points,
                             const GroundSettings& ground)
    : model_(model),
      points_(std::move(points)),
      ground_(ground),
      motion_(model),
      forces_(points_.size(), Vec3<double>::Zero()),
      pressing_(points_.size(), 0),
      mode_(points_.size(), 0),
      generalized_(VecX<double>::Zero(model.nv())) {
  const auto check = [](double value, const char* what) {
    if (!(std::isfinite(value) && value >= 0))
      throw InputError(std::string("ground contact: ") + what + " " + shortest(value) +
                       ": must be a finite number >= 0");
  };
  check(ground.stiffness, "stiffness k");
  check(ground.damping, "damping c");
  check(ground.friction, "friction coefficient mu");
  if (!(std::isfinite(ground.slip_velocity) && ground.slip_velocity > 0))
    throw InputError("ground contact: slip velocity v_s " + shortest(ground.slip_velocity) +
                     ": must be a finite number > 0");
}

void GroundContact::evaluate(ConstVectorRef<double> q, ConstVectorRef<double> v, bool modes) {
  body_poses(model_, motion_, q);
  body_velocities(model_, motion_, v);
  generalized_.setZero();
  stored_ = dissipated_ = 0;
  const double k = ground_.stiffness, c = ground_.damping;
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const BodyFrame<double>& frame = points_[p];
    const LinkMotion<double> link = link_motion(motion_, frame.link);
    const Vec3<double> point = link.o + link.R * frame.placement.p;
    const Vec6<double> twist = frame_velocity(motion_, frame);
    const Vec3<double> velocity = twist.head<3>();
    const double d = -point.z(), d_rate = -velocity.z();
    pressing_[p] = d > 0 && k * d + c * d_rate > 0;
    const bool pushes = modes ? mode_[p] != 0 : pressing_[p] != 0;
    const double normal = pushes ? k * d + c * d_rate : 0;
    Vec3<double>& force = forces_[p];
    force = Vec3<double>(0, 0, normal);
    const double speed = std::hypot(velocity.x(), velocity.y());
    if (speed > 0 && normal != 0) {
      const double slide =
          ground_.friction * normal * std::tanh(speed / ground_.slip_velocity) / speed;
      force.x() = -slide * velocity.x();
      force.y() = -slide * velocity.y();
    }
    const double spring = d > 0 ? k * d : 0;
    stored_ += spring * d / 2;
    dissipated_ += -force.dot(velocity) - spring * d_rate;
    if (pushes) add_generalized_force(frame, point, force);
  }
}

// J^T [F; 0] for the frame's origin `point`: for each joint on the path from the root to the
// frame's link, z . ((point - o) x F) (revolute) or z . F (prismatic), with the floating base's
// R^T F for its v and R^T ((point - p) x F) for its w (docs/floating-base.md: both in the base
// frame).
void GroundContact::add_generalized_force(const BodyFrame<double>& frame, const Vec3<double>& point,
                                          const Vec3<double>& force) {
  const int offset = model_.floating() ? 6 : 0;
  for (int i = frame.link; i >= 0; i = model_.parent(i)) {
    const Vec3<double> z = motion_.R[i].col(2);
    generalized_[offset + i] += model_.joint(i).type == JointType::revolute
                                    ? z.dot(cross(Vec3<double>(point - motion_.o[i]), force))
                                    : z.dot(force);
  }
  if (!model_.floating()) return;
  const Mat3<double>& R = motion_.base.R;
  generalized_.head<3>() += R.transpose() * force;
  generalized_.segment<3>(3) += R.transpose() * cross(Vec3<double>(point - motion_.base.p), force);
}

bool GroundContact::transition_due() const {
  for (std::size_t p = 0; p < points_.size(); ++p) {
    if ((pressing_[p] != 0) != (mode_[p] != 0)) return true;
  }
  return false;
}

long GroundContact::set_modes() {
  long changes = 0;
  for (std::size_t p = 0; p < points_.size(); ++p) {
    changes += (pressing_[p] != 0) != (mode_[p] != 0);
    mode_[p] = pressing_[p];
  }
  return changes;
}

}  // namespace denoc
