// denoc_bench_trajectory ROBOT.yaml ROWS OUT.csv
// Writes the robot file's cycloidal trajectory (its `trajectory` block, Saha 1999 Eqs. 38-39)
// sampled at ROWS evenly spaced times, as the CSV t,q1..qn,qd1..qdn,qdd1..qddn that ridim reads,
// numbers in the shortest form that reads back as the same double (the library's CsvWriter).
// For the ridim throughput run of scripts/bench: a python or awk generator of 10^6 rows takes
// longer than ridim itself.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"
#include "denoc/io/robot_file.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s ROBOT.yaml ROWS OUT.csv\n", argv[0]);
    return 2;
  }
  try {
    const denoc::RobotFile robot = denoc::load_robot_file(argv[1]);
    if (!robot.trajectory) {
      std::fprintf(stderr, "%s: no trajectory block\n", argv[1]);
      return 2;
    }
    denoc::CycloidalTrajectory<double> trajectory = *robot.trajectory;
    trajectory.samples = std::atol(argv[2]);
    if (trajectory.samples < 2) {
      std::fprintf(stderr, "ROWS must be at least 2\n");
      return 2;
    }
    const int n = robot.dof();
    std::ofstream file(argv[3], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "cannot write %s\n", argv[3]);
      return 2;
    }
    denoc::CsvWriter csv(file);
    std::vector<std::string> header{"t"};
    for (const char* prefix : {"q", "qd", "qdd"})
      for (int i = 1; i <= n; ++i)
        header.push_back(prefix + std::to_string(i));
    csv.header(header);
    denoc::VecX<double> row(3 * n);
    for (long k = 0; k < trajectory.samples; ++k) {
      const double t = trajectory.sample_time(k);
      trajectory.evaluate(t, row.segment(0, n), row.segment(n, n), row.segment(2 * n, n));
      csv.row(t, row);
    }
    csv.flush();
    return file ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
