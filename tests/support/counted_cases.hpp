// The routes' quantities as the operation-count tests evaluate them, on double and on the counting
// scalar (count/counted.hpp) from one expression each, so that both run the same template.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "denoc/engine/count_operations.hpp"

namespace denoc_test {

using denoc::Counted;
using denoc::Dynamics;
using denoc::MatX;
using denoc::Route;
using denoc::VecX;

// One evaluation of a quantity by a route, on either scalar: the result as doubles.
template <typename S>
using Evaluation =
    std::function<MatX<double>(Dynamics<S>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)>;

template <typename S, typename Result>
inline MatX<double> as_doubles(const Result& x) {
  MatX<double> out(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      out(i, j) = static_cast<double>(x(i, j));
  return out;
}

// Each route's quantities, named as ridim and rfdsim name them, written once for both scalars.
struct Case {
  std::string name;
  int order;  // the power of n the counts grow with
  Evaluation<double> on_double;
  Evaluation<Counted> on_counted;
};

#define DENOC_CASE(NAME, ORDER, EXPR)                                                              \
  Case {                                                                                           \
    NAME, ORDER,                                                                                   \
        [](Dynamics<double>& d, const VecX<double>& q, [[maybe_unused]] const VecX<double>& qd,    \
           [[maybe_unused]] const VecX<double>& x) { return as_doubles<double>(EXPR); },           \
        [](Dynamics<Counted>& d, const VecX<Counted>& q, [[maybe_unused]] const VecX<Counted>& qd, \
           [[maybe_unused]] const VecX<Counted>& x) { return as_doubles<Counted>(EXPR); }          \
  }

inline std::vector<Case> counted_cases() {
  using namespace denoc;
  return {
      DENOC_CASE("torques denoc", 1, inverse_dynamics(Route::denoc, d, q, qd, x)),
      DENOC_CASE("torques gibbs-appell", 1, inverse_dynamics(Route::gibbs_appell, d, q, qd, x)),
      DENOC_CASE("bias denoc", 1, bias_forces(Route::denoc, d, q, qd)),
      DENOC_CASE("bias gibbs-appell", 1, bias_forces(Route::gibbs_appell, d, q, qd)),
      DENOC_CASE("gravity denoc", 1, gravity_forces(Route::denoc, d, q)),
      DENOC_CASE("gravity gibbs-appell", 1, gravity_forces(Route::gibbs_appell, d, q)),
      DENOC_CASE("forward-dynamics udu", 1, forward_dynamics(Route::udu, d, q, qd, x)),
      DENOC_CASE("forward-dynamics fixman", 1, forward_dynamics(Route::fixman, d, q, qd, x)),
      DENOC_CASE("mass-matrix denoc", 2, generalized_inertia(Route::denoc, d, q)),
      DENOC_CASE("mass-matrix gibbs-appell", 2, generalized_inertia(Route::gibbs_appell, d, q)),
      DENOC_CASE("coriolis denoc", 2, convective_inertia(Route::denoc, d, q, qd)),
      DENOC_CASE("udu udu", 2, udu_factors(Route::udu, d, q).U),
      DENOC_CASE("inverse-mass-matrix udu", 2, inverse_inertia(Route::udu, d, q)),
      DENOC_CASE("inverse-mass-matrix fixman", 2, inverse_inertia(Route::fixman, d, q)),
      DENOC_CASE("inverse-mass-matrix cholesky", 3, inverse_inertia(Route::cholesky, d, q)),
      DENOC_CASE("forward-dynamics cholesky", 3, forward_dynamics(Route::cholesky, d, q, qd, x)),
      DENOC_CASE("forward-dynamics gibbs-appell", 3,
                 forward_dynamics(Route::gibbs_appell, d, q, qd, x)),
      DENOC_CASE("pose denoc", 1, tool_pose(d.model(), d.denoc(), q).p),
      DENOC_CASE("jacobian denoc", 1, tool_jacobian(d.model(), d.denoc(), q)),
  };
}
#undef DENOC_CASE

}  // namespace denoc_test
