// The cycloidal joint trajectory of Saha (1999) Eqs. (38)-(39), in the form of docs/robot-file.md:
//   q(t)   = q0 + (qT - q0) / T * (t - T / (2 pi) sin(2 pi t / T))
//   qd(t)  = (qT - q0) / T * (1 - cos(2 pi t / T))
//   qdd(t) = (qT - q0) / T * (2 pi / T) sin(2 pi t / T)
// so that the velocity and the acceleration vanish at both ends.
#pragma once

#include <cmath>

#include "denoc/model/spatial.hpp"

namespace denoc {

template <typename S>
struct CycloidalTrajectory {
  S duration = 1;
  VecX<S> from, to;
  long samples = 2;  // evenly spaced over [0, duration], both ends included

  S sample_time(long k) const {
    if (k == samples - 1) return duration;
    return duration * static_cast<S>(k) / static_cast<S>(samples - 1);
  }

  // Writes q, qd, qdd at time t into the three segments of a preallocated vector.
  template <typename Q, typename QD, typename QDD>
  void evaluate(S t, Q&& q, QD&& qd, QDD&& qdd) const {
    using std::cos;
    using std::sin;
    const S two_pi = S(2) * S(M_PI);
    const S phase = two_pi * t / duration;
    const S s = sin(phase), c = cos(phase);
    for (Eigen::Index i = 0; i < from.size(); ++i) {
      const S rate = (to[i] - from[i]) / duration;
      q[i] = from[i] + rate * (t - duration / two_pi * s);
      qd[i] = rate * (S(1) - c);
      qdd[i] = rate * two_pi / duration * s;
    }
  }
};

}  // namespace denoc
