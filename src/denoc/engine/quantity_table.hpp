// The table of ridim's quantities (docs/csv.md), which every part of the suite reads: their
// names, the layout and names of their columns, what each asks of the run (a frame, the bodies'
// motion) and which of them the packs compute (lane_quantities.hpp).
#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

namespace denoc {

enum class Quantity {
  torques,
  mass_matrix,
  inverse_mass_matrix,
  bias,
  gravity,
  pose,       // docs/csv.md: the tool frame in the base frame
  jacobian,   // docs/csv.md: the geometric Jacobian of the tool frame origin
  reactions,  // docs/csv.md: the wrench that each joint carries
  coriolis,   // docs/csv.md: Saha's matrix of convective inertia terms C
  udu,        // docs/csv.md: the factors of the inertia matrix I = U D U^T
  // docs/legged.md, in the world frame: a frame's velocity and acceleration, the centre of mass
  // of the bodies that move with its velocity and Jacobian, the centroidal momentum and matrix.
  frame_velocity,
  frame_acceleration,
  com,
  com_jacobian,
  centroidal_momentum,
  centroidal_matrix,
  // docs/derivatives.md: d tau / d q and d tau / d qd; d qdd / d q and d qdd / d qd.
  torque_derivatives,
  acceleration_derivatives,
  joint_states,       // docs/loops.md: every joint's q, qd, qdd of a robot with loops
  constraint_forces,  // docs/loops.md: each cut joint's wrench
};

// The names accepted by ridim --quantity, and the Quantity each selects.
const std::vector<std::pair<std::string, Quantity>>& quantity_names();
std::string quantity_name(Quantity quantity);

// The quantities of a frame (the tool frame unless one is chosen): pose, jacobian and the frame's
// velocity and acceleration.
bool takes_frame(Quantity quantity);

// The quantities of the bodies' motion in the world frame (motion/, docs/legged.md).
bool of_motion(Quantity quantity);

// Of a robot with loops only (docs/loops.md): joint-states and constraint-forces, whose columns
// the loops decide (ClosedLoopSamples); quantity_columns gives none for them.
bool needs_loops(Quantity quantity);

// The quantities that the packs compute, many samples per instruction, on a fixed base by the
// DeNOC route (lane_quantities.hpp).
bool computed_by_packs(Quantity quantity);

// The columns of a row of `quantity` after t (docs/csv.md), for n joints: with a floating base
// the vectors start with the base's six forces and the matrices are (6 + n) x (6 + n)
// (docs/floating-base.md). quantity_row_size is their number.
std::vector<std::string> quantity_columns(Quantity quantity, int n, bool floating);
Eigen::Index quantity_row_size(Quantity quantity, int n, bool floating);

}  // namespace denoc
