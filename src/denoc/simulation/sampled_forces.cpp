#include "denoc/simulation/sampled_forces.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"

namespace denoc {

SampledForces::SampledForces(std::istream& in, const std::string& name, int n)
    : SampledForces(in, name, column_names({"tau"}, n)) {}

SampledForces::SampledForces(std::istream& in, const std::string& name,
                             const std::vector<std::string>& header)
    : TabulatedForces(header.size() - 1),
      reader_(in, name),
      row_(static_cast<Eigen::Index>(header.size())) {
  reader_.read_header(header);
  reader_.require_increasing_time();
  if (!read_sample()) reader_.fail_no_samples();
}

bool SampledForces::read_sample() {
  if (at_end_ || !reader_.next_row(row_)) {
    at_end_ = true;
    return false;
  }
  append(row_[0], row_.data() + 1);
  return true;
}

TabulatedForces::TabulatedForces(const std::string& name, const double* table, std::size_t rows,
                                 std::size_t n)
    : n_(n) {
  if (rows == 0) throw InputError(name + ": no samples");
  for (std::size_t k = 0; k < rows; ++k) {
    const double* row = table + k * (n + 1);
    for (std::size_t j = 0; j <= n; ++j) {
      if (!std::isfinite(row[j]))
        throw InputError(name + ": row " + std::to_string(k) + ", column " + std::to_string(j) +
                         " is " + shortest(row[j]) + ", not a finite number");
    }
    if (k > 0 && !(row[0] > times_.back()))
      throw InputError(name + ": row " + std::to_string(k) + ": time " + shortest(row[0]) +
                       " is not after the previous row's " + shortest(times_.back()));
    append(row[0], row + 1);
  }
}

void TabulatedForces::append(double t, const double* values) {
  times_.push_back(t);
  values_.insert(values_.end(), values, values + n_);
}

void TabulatedForces::at(double t, Eigen::Ref<VecX<double>> tau) {
  while (times_.back() < t && read_sample()) {
  }
  // The last buffered sample at or before t (held before the first sample).
  const auto begin = times_.begin() + static_cast<long>(first_);
  const auto after = std::upper_bound(begin, times_.end(), t);
  const std::size_t k =
      after == begin ? first_ : static_cast<std::size_t>(after - times_.begin()) - 1;
  const Eigen::Map<const VecX<double>> lower(values(k), static_cast<Eigen::Index>(n_));
  if (k + 1 == times_.size() || t <= time(k)) {
    tau = lower;  // held after the last sample (and before the first)
    return;
  }
  const Eigen::Map<const VecX<double>> upper(values(k + 1), static_cast<Eigen::Index>(n_));
  const double s = (t - time(k)) / (time(k + 1) - time(k));
  tau = lower + s * (upper - lower);
}

double TabulatedForces::next_kink(double t) {
  while (times_.back() <= t && read_sample()) {
  }
  const auto after = std::upper_bound(times_.begin() + static_cast<long>(first_), times_.end(), t);
  return after == times_.end() ? std::numeric_limits<double>::infinity() : *after;
}

void TabulatedForces::release_before(double t) {
  // Keep the sample at or before t: it is the lower end of the interval that holds t.
  while (first_ + 1 < times_.size() && times_[first_ + 1] <= t)
    ++first_;
  if (first_ < 4096 || 2 * first_ < times_.size()) return;
  times_.erase(times_.begin(), times_.begin() + static_cast<long>(first_));
  values_.erase(values_.begin(), values_.begin() + static_cast<long>(first_ * n_));
  first_ = 0;
}

}  // namespace denoc
