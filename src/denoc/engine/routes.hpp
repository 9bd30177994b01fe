// The routes through the dynamics, one enum for every family of algorithms, with the names the
// command lines use. dynamics.hpp dispatches on them.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace denoc {

enum class Route {
  denoc,         // Saha (1999): DeNOC recursions, composite-body inertia matrix
  gibbs_appell,  // Mata et al. (2002): the Gibbs function, its Hessian for the inertia matrix,
                 // then Cholesky for the forward dynamics (their Section 4.3)
  udu,           // Saha (1997, 1999): I = U D U^T, O(n) forward dynamics, O(n^2) inverse
  fixman,        // Lee, Wang and Chirikjian (2007): the extended Fixman theorem, O(n) solves
  cholesky       // form I (Eq. 24 of Saha 1999) and factor it, O(n^3)
};

// The command lines' names of the routes (--algorithm), in this order.
inline const std::vector<std::pair<std::string, Route>>& route_names() {
  static const std::vector<std::pair<std::string, Route>> names = {
      {"denoc", Route::denoc},
      {"gibbs-appell", Route::gibbs_appell},
      {"udu", Route::udu},
      {"fixman", Route::fixman},
      {"cholesky", Route::cholesky}};
  return names;
}

inline std::string route_name(Route route) {
  for (const auto& [name, value] : route_names())
    if (value == route) return name;
  return "?";
}

// The routes that compute each kind of quantity, the default first.
inline const std::vector<Route>& inverse_dynamics_routes() {  // tau, h, g and I itself
  static const std::vector<Route> routes = {Route::denoc, Route::gibbs_appell};
  return routes;
}
inline const std::vector<Route>& inverse_inertia_routes() {  // I^-1
  static const std::vector<Route> routes = {Route::udu, Route::fixman, Route::cholesky};
  return routes;
}
inline const std::vector<Route>& forward_dynamics_routes() {  // qdd
  static const std::vector<Route> routes = {Route::udu, Route::cholesky, Route::gibbs_appell,
                                            Route::fixman};
  return routes;
}

}  // namespace denoc
