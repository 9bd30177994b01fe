// Many samples per instruction (src/denoc/lanes/): per sample, the scalar route and the packs on
// the same block of distinct samples, interleaved by Google Benchmark, for the inverse dynamics,
// the inertia matrix and the O(n) forward dynamics of a robot file (scripts/bench --lanes reports
// the ratios; docs/performance.md).
//   denoc_lanes_bench ROBOT [Google Benchmark options]
#include <benchmark/benchmark.h>

#include <cmath>
#include <iostream>
#include <string>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/lanes/lane_quantities.hpp"
#include "denoc/quantities.hpp"

namespace {

using denoc::MatX;
using denoc::VecX;

constexpr long kSamples = 4096;  // a block that stays in the cache, as ridim's blocks do

// Sample k's entry i (column k = sample k): smooth, in [-1.5, 1.5].
MatX<double> samples(long width, double phase) {
  MatX<double> x(width, kSamples);
  for (long k = 0; k < kSamples; ++k)
    for (long i = 0; i < width; ++i)
      x(i, k) = 1.5 * std::sin(0.37 * static_cast<double>(k) + static_cast<double>(i) + phase);
  return x;
}

enum class Kind { inverse_dynamics, mass_matrix, forward_dynamics };

// The scalar route: the saha/ functions on double, one sample after the other.
void run_scalar(benchmark::State& state, const denoc::Model<double>& model, Kind kind) {
  const int n = model.dof();
  const MatX<double> q = samples(n, 0), qd = samples(n, 1), x = samples(n, 2);
  denoc::Workspace<double> ws(model);
  MatX<double> out(kind == Kind::mass_matrix ? n * n : n, kSamples);
  for (auto _ : state) {
    for (long k = 0; k < kSamples; ++k) {
      switch (kind) {
        case Kind::inverse_dynamics:
          out.col(k) = denoc::inverse_dynamics(model, ws, q.col(k), qd.col(k), x.col(k));
          break;
        case Kind::mass_matrix:
          out.col(k) = denoc::generalized_inertia(model, ws, q.col(k)).reshaped();
          break;
        case Kind::forward_dynamics:
          out.col(k) = denoc::forward_dynamics(model, ws, q.col(k), qd.col(k), x.col(k));
          break;
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

// The packs: LaneDynamics, `width` samples per call, gathering and scattering included.
void run_lanes(benchmark::State& state, const denoc::Model<double>& model, Kind kind) {
  const int n = model.dof();
  const MatX<double> q = samples(n, 0), qd = samples(n, 1), x = samples(n, 2);
  denoc::LaneDynamics lanes(model);
  constexpr int width = denoc::LaneDynamics::width;
  MatX<double> out(kind == Kind::mass_matrix ? n * n : n, kSamples);
  for (auto _ : state) {
    for (long k = 0; k < kSamples; k += width) {
      const denoc::LanePointers p = denoc::lane_pointers(k, width, {q.data(), n}, {qd.data(), n},
                                                         {x.data(), n}, {out.data(), out.rows()});
      switch (kind) {
        case Kind::inverse_dynamics:
          lanes.evaluate(denoc::Quantity::torques, false, width, p);
          break;
        case Kind::mass_matrix:
          lanes.evaluate(denoc::Quantity::mass_matrix, false, width, p);
          break;
        case Kind::forward_dynamics:
          lanes.forward(false, width, p);
          break;
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::cerr << "usage: denoc_lanes_bench ROBOT [Google Benchmark options]\n";
    return 2;
  }
  static const denoc::RobotFile robot = denoc::load_robot_file(argv[1]);
  if (robot.model.floating()) {
    std::cerr << "denoc_lanes_bench: a fixed-base robot file, please\n";
    return 2;
  }
  std::cout << "lanes: " << denoc::LaneDynamics::width << " doubles per pack\n";
  for (const auto& [name, kind] :
       {std::pair{"id", Kind::inverse_dynamics}, std::pair{"gim", Kind::mass_matrix},
        std::pair{"fd", Kind::forward_dynamics}}) {
    benchmark::RegisterBenchmark(
        (std::string("scalar/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_scalar(s, robot.model, kind); });
    benchmark::RegisterBenchmark(
        (std::string("lanes/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_lanes(s, robot.model, kind); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
