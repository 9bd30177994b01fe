// The checks that every public function of the library makes on its arguments, in Release too,
// since the algorithms are compiled into the library and a caller's Debug build does not reach
// them: the length of each vector against the model (n joints; 7 + n coordinates and 6 + n rates
// with a floating base, docs/floating-base.md), the workspace against the model it was built for,
// and the model's kind against the function's (a fixed base). Each
// throws std::invalid_argument naming the function and the argument. A few comparisons per call:
// the benchmarks do not tell the difference (docs/library.md).
#pragma once

#include <stdexcept>
#include <string>

#include "denoc/model/model.hpp"

namespace denoc {

namespace arguments_detail {
[[noreturn]] inline void wrong_length(const char* function, const char* argument, Eigen::Index got,
                                      Eigen::Index expected, const char* of_what) {
  throw std::invalid_argument(std::string(function) + ": " + argument + " has " +
                              std::to_string(got) + " entries, and the model " +
                              std::to_string(expected) + " " + of_what);
}
}  // namespace arguments_detail

// A vector of one entry per joint: n.
template <typename S, typename Vector>
void require_joint_values(const Model<S>& model, const char* function, const char* argument,
                          const Vector& v) {
  if (v.size() != model.dof())
    arguments_detail::wrong_length(function, argument, v.size(), model.dof(), "joints");
}

// The coordinates q of the model, n (7 + n with a floating base); its rates (or forces), n
// (6 + n with a floating base).
template <typename S, typename Vector>
void require_coordinates(const Model<S>& model, const char* function, const char* argument,
                         const Vector& q) {
  if (q.size() != model.nq())
    arguments_detail::wrong_length(
        function, argument, q.size(), model.nq(),
        model.floating() ? "coordinates (7 of the base and one per joint)" : "joints");
}
template <typename S, typename Vector>
void require_rates(const Model<S>& model, const char* function, const char* argument,
                   const Vector& v) {
  if (v.size() != model.nv())
    arguments_detail::wrong_length(
        function, argument, v.size(), model.nv(),
        model.floating() ? "rates (6 of the base and one per joint)" : "joints");
}

// A function that takes a fixed base only.
template <typename S>
void require_fixed_base(const Model<S>& model, const char* function) {
  if (model.floating())
    throw std::invalid_argument(std::string(function) +
                                " takes a fixed base, and the model's base is floating");
}

// A frame fixed to the base (link -1) or to one of the model's links.
template <typename S>
void require_frame(const Model<S>& model, const BodyFrame<S>& frame, const char* function) {
  if (frame.link < -1 || frame.link >= model.dof())
    throw std::invalid_argument(std::string(function) + ": the frame is on link " +
                                std::to_string(frame.link + 1) + ", and the model has links 1 to " +
                                std::to_string(model.dof()) + " (0 the base)");
}

// A workspace built for another model (another number of joints, or a chain's workspace given a
// tree, whose recursions keep per-joint sums the chain's does not size).
[[noreturn]] inline void wrong_workspace(const char* function) {
  throw std::invalid_argument(std::string(function) +
                              ": the workspace was built for another model");
}

}  // namespace denoc
