// Ascher et al.'s badly conditioned two-link arm as Mata et al. (2002) Sec. 5.1 and Table 5 run
// it: a short light link (0.02 m, 0.1 kg) and a long heavy one (2 m, 10 kg), bars 0.02 m wide,
// gravity (9.81 m/s^2) across the links along -y; standard DH, the frames at the far ends of the
// links. In single precision the routes that form and factor the inertia matrix lose more of
// qdd_2 than the articulated-body route.
#pragma once

#include <vector>

#include "denoc/denoc.hpp"

namespace denoc_test {

// The arm's data (lengths, masses, mass centres, inertias, gravity) are computed and stored in
// Data, then converted to S: ascher_arm<double, float> is the float arm's data in double.
template <typename S, typename Data = S>
denoc::Model<S> ascher_arm() {
  using namespace denoc;
  std::vector<DhLink<S>> rows(2);
  const Data width = Data(0.02), length[2] = {Data(0.02), Data(2.0)},
             mass[2] = {Data(0.1), Data(10.0)};
  for (int i = 0; i < 2; ++i) {
    const Data l = length[i], m = mass[i];
    rows[i].a = S(l);
    rows[i].mass = S(m);
    rows[i].com = Vec3<S>(S(-l / 2), 0, 0);  // standard DH: the frame is at the far end
    const Data inertia[3] = {m * width * width / 12, m * l * l / 12,
                             m * (l * l + width * width) / 12};
    rows[i].inertia = Vec3<S>(S(inertia[0]), S(inertia[1]), S(inertia[2])).asDiagonal();
  }
  return Model<S>(links_from_dh(DhConvention::standard, rows), Vec3<S>(0, S(Data(-9.81)), 0));
}

}  // namespace denoc_test
