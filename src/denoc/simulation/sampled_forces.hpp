// Joint forces given as samples t,tau1..taun (rfdsim --torques, docs/command-line.md): linear
// interpolation between samples, the first sample held before it and the last held after it. The
// file is read as the integration advances and samples it has passed are dropped, so memory does
// not grow with the length of the file.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"
#include "denoc/simulation/simulation.hpp"

namespace denoc {

// The header of a --wrench file (docs/robot-file.md).
inline const std::vector<std::string> kWrenchHeader = {"t", "fx", "fy", "fz", "nx", "ny", "nz"};

class SampledForces : public JointForces {
 public:
  // Reads the header (1 + n columns) and the first sample; throws InputError naming `name` and
  // the line for a bad header, a bad row, no samples, or times that do not increase.
  SampledForces(std::istream& in, const std::string& name, int n);
  // The same with the header given in full (t first), e.g. the wrench file's t,fx,...,nz.
  SampledForces(std::istream& in, const std::string& name, const std::vector<std::string>& header);

  void at(double t, Eigen::Ref<VecX<double>> tau) override;
  void release_before(double t) override;
  double next_kink(double t) override;  // the first sample time after t

 private:
  bool read_sample();  // appends the next sample; false at the end of the file
  double time(std::size_t k) const { return times_[k]; }
  const double* values(std::size_t k) const { return values_.data() + k * n_; }

  CsvReader reader_;
  std::size_t n_;
  VecX<double> row_;
  bool at_end_ = false;
  std::vector<double> times_;   // buffered samples, in increasing time
  std::vector<double> values_;  // their forces, n per sample
  std::size_t first_ = 0;       // samples before this one are no longer needed
};

}  // namespace denoc
