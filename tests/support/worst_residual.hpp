// The largest residual of one quantity over all the cases of a test: each case over its
// tolerance fails (NaN too, since NaN <= x is false), and one summary line names the worst case,
// so that a log shows how close to its tolerance every quantity runs.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>

namespace denoc_test {

class WorstResidual {
 public:
  explicit WorstResidual(std::string what, double tolerance = 0)
      : what_(std::move(what)), tolerance_(tolerance) {}
  // key: also recorded as a property of the test (in the XML report) by report().
  WorstResidual(std::string what, std::string key, double tolerance)
      : what_(std::move(what)), key_(std::move(key)), tolerance_(tolerance) {}
  WorstResidual(const WorstResidual&) = delete;
  WorstResidual& operator=(const WorstResidual&) = delete;
  ~WorstResidual() {
    if (!reported_) report();
  }

  void check(double residual, const std::string& where) { check(residual, tolerance_, where); }
  void check(double residual, double tolerance, const std::string& where) {
    ++cases_;
    if (!(residual <= worst_)) note_worst(residual, tolerance, where);
    EXPECT_LE(residual, tolerance) << what_ << " at " << where;
  }
  // For a measure whose smallest value is the worst (an eigenvalue that must stay positive).
  void check_min(double value, const std::string& where) {
    ++cases_;
    if (cases_ == 1 || !(value >= worst_)) note_worst(value, tolerance_, where);
    EXPECT_GT(value, tolerance_) << what_ << " at " << where;
  }

  // The summary line, tagged with the test's name; measure says what the number is.
  void report(const char* measure = "max") {
    reported_ = true;
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    char line[768];
    std::snprintf(line, sizeof line, "[%s] %s  %s %.1e  (tol %.1e, %d cases, worst: %s)",
                  test != nullptr ? test->name() : "-", what_.c_str(), measure, worst_,
                  worst_tolerance_, cases_, where_.c_str());
    std::cout << line << std::endl;
    if (!key_.empty()) {
      char value[32];
      std::snprintf(value, sizeof value, "%.3e", worst_);
      ::testing::Test::RecordProperty(key_, value);
    }
  }

 private:
  void note_worst(double value, double tolerance, const std::string& where) {
    worst_ = value;
    worst_tolerance_ = tolerance;
    where_ = where;
  }

  std::string what_, key_;
  double tolerance_;
  double worst_ = 0, worst_tolerance_ = 0;
  int cases_ = 0;
  std::string where_ = "-";
  bool reported_ = false;
};

}  // namespace denoc_test
