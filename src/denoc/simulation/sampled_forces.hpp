// Joint forces given as samples t,tau1..taun (rfdsim --torques, docs/command-line.md, and the
// Python module's torque tables): linear interpolation between samples. A file is read as the
// integration advances and samples it has passed are dropped, so memory does not grow with the
// length of the file.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"
#include "denoc/simulation/simulation.hpp"

namespace denoc {

// The header of a --wrench file (docs/robot-file.md).
inline const std::vector<std::string> kWrenchHeader = {"t", "fx", "fy", "fz", "nx", "ny", "nz"};

// Forces given as samples t_k, f_k with t_k increasing: linear interpolation between samples, the
// first sample held before it and the last held after it; samples passed are dropped.
class TabulatedForces : public JointForces {
 public:
  // All the samples at once: `table` holds rows t,f_1..f_n. Throws InputError naming `name`, the
  // row and the column for a time that does not increase or a value that is not finite.
  TabulatedForces(const std::string& name, const double* table, std::size_t rows, std::size_t n);

  void at(double t, Eigen::Ref<VecX<double>> tau) override;
  void release_before(double t) override;
  double next_kink(double t) override;  // the first sample time after t

 protected:
  explicit TabulatedForces(std::size_t n) : n_(n) {}
  // Appends the next sample of a streamed source; false when there is none (all given at once).
  virtual bool read_sample() { return false; }
  void append(double t, const double* values);

 private:
  double time(std::size_t k) const { return times_[k]; }
  const double* values(std::size_t k) const { return values_.data() + k * n_; }

  std::size_t n_;
  std::vector<double> times_;   // buffered samples, in increasing time
  std::vector<double> values_;  // their forces, n per sample
  std::size_t first_ = 0;       // samples before this one are no longer needed
};

// The samples read from a CSV stream as the integration advances, so that memory does not grow
// with the length of the file.
class SampledForces : public TabulatedForces {
 public:
  // Reads the header (1 + n columns) and the first sample; throws InputError naming `name` and
  // the line for a bad header, a bad row, no samples, or times that do not increase.
  SampledForces(std::istream& in, const std::string& name, int n);
  // The same with the header given in full (t first), e.g. the wrench file's t,fx,...,nz.
  SampledForces(std::istream& in, const std::string& name, const std::vector<std::string>& header);

 private:
  bool read_sample() override;

  CsvReader reader_;
  VecX<double> row_;
  bool at_end_ = false;
};

}  // namespace denoc
