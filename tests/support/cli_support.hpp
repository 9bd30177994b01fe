// What the end-to-end tests of ridim and rfdsim share: run an executable through the shell in a
// scratch directory of its own, capture its exit status, standard output and standard error,
// and read CSV text back.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"

namespace cli {

namespace fs = std::filesystem;

struct Result {
  int status;
  std::string out, err;
};

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

inline std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');)
    fields.push_back(field);
  return fields;
}

inline std::vector<double> numbers_of(const std::string& line) {
  std::vector<double> values;
  for (const std::string& field : fields_of(line)) {
    double x;
    EXPECT_TRUE(denoc::parse_double(field, x)) << field;
    values.push_back(x);
  }
  return values;
}

// A scratch directory per test, removed afterwards; commands run with it as working directory.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / (std::string(info->test_suite_name()) + "_" +
                                        std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `exe` with `args` (shell words), feeding `input` on standard input.
  Result run(const std::string& exe, const std::string& args, const std::string& input = "") {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr", in = dir_ / "stdin";
    std::ofstream(in) << input;
    const std::string command = "cd '" + dir_.string() + "' && '" + exe + "' " + args + " < '" +
                                in.string() + "' > '" + out.string() + "' 2> '" + err.string() +
                                "'";
    const int raw = std::system(command.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
  }

  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  std::string read(const std::string& name) const { return slurp(dir_ / name); }

  fs::path dir_;
};

// A random trajectory CSV for an n-joint robot, rows 0.01 s apart written at full precision, and
// the states it holds (appended to `states`).
inline std::string random_trajectory(int n, int rows, std::vector<denoc::VecX<double>>& states,
                                     unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::ostringstream csv;
  std::vector<std::string> header{"t"};
  for (const char* part : {"q", "qd", "qdd"}) {
    for (int i = 1; i <= n; ++i)
      header.push_back(part + std::to_string(i));
  }
  denoc::CsvWriter writer(csv);
  writer.header(header);
  for (int r = 0; r < rows; ++r) {
    denoc::VecX<double> state(3 * n);
    for (int i = 0; i < 3 * n; ++i)
      state[i] = u(rng);
    writer.row(0.01 * r, state);
    states.push_back(state);
  }
  writer.flush();
  return csv.str();
}

}  // namespace cli
