// Many samples per instruction (src/denoc/lanes/): per sample, the scalar route and the packs on
// the same block of distinct samples, interleaved by Google Benchmark, for the inverse dynamics,
// the inertia matrix and the O(n) forward dynamics of a robot file, in double and in float
// (scalar/ and lanes/ for double, scalar_float/ and lanes_float/; docs/performance.md).
//   denoc_lanes_bench ROBOT [Google Benchmark options]
#include <benchmark/benchmark.h>

#include <cmath>
#include <iostream>
#include <string>

#include "denoc/denoc.hpp"
#include "denoc/engine/lane_quantities.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"

namespace {

using denoc::MatX;
using denoc::VecX;

constexpr long kSamples = 4096;  // a block that stays in the cache, as ridim's blocks do

// Sample k's entry i (column k = sample k): smooth, in [-1.5, 1.5].
template <typename T>
MatX<T> samples(long width, double phase) {
  MatX<T> x(width, kSamples);
  for (long k = 0; k < kSamples; ++k)
    for (long i = 0; i < width; ++i)
      x(i, k) = static_cast<T>(
          1.5 * std::sin(0.37 * static_cast<double>(k) + static_cast<double>(i) + phase));
  return x;
}

enum class Kind { inverse_dynamics, mass_matrix, forward_dynamics };

// The scalar route: the saha/ functions on T, one sample after the other.
template <typename T>
void run_scalar(benchmark::State& state, const denoc::Model<T>& model, Kind kind) {
  const int n = model.dof();
  const MatX<T> q = samples<T>(n, 0), qd = samples<T>(n, 1), x = samples<T>(n, 2);
  denoc::Workspace<T> ws(model);
  MatX<T> out(kind == Kind::mass_matrix ? n * n : n, kSamples);
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

// The packs: LaneDynamicsOf<T>, `width` samples per call, gathering and scattering included.
template <typename T>
void run_lanes(benchmark::State& state, const denoc::Model<T>& model, Kind kind) {
  const int n = model.dof();
  const MatX<T> q = samples<T>(n, 0), qd = samples<T>(n, 1), x = samples<T>(n, 2);
  denoc::LaneDynamicsOf<T> lanes(model);
  constexpr int width = denoc::LaneDynamicsOf<T>::width;
  MatX<T> out(kind == Kind::mass_matrix ? n * n : n, kSamples);
  for (auto _ : state) {
    for (long k = 0; k < kSamples; k += width) {
      const denoc::LanePointersOf<T> p = denoc::lane_pointers<T>(
          k, width, {q.data(), n}, {qd.data(), n}, {x.data(), n}, {out.data(), out.rows()});
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
  static const denoc::Model<float> model_float = robot.model.cast<float>();
  std::cerr << "lanes: " << denoc::LaneDynamics::width << " doubles, "
            << denoc::LaneDynamicsOf<float>::width << " floats per pack\n";
  for (const auto& [name, kind] :
       {std::pair{"id", Kind::inverse_dynamics}, std::pair{"gim", Kind::mass_matrix},
        std::pair{"fd", Kind::forward_dynamics}}) {
    benchmark::RegisterBenchmark(
        (std::string("scalar/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_scalar(s, robot.model, kind); });
    benchmark::RegisterBenchmark(
        (std::string("lanes/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_lanes(s, robot.model, kind); });
    benchmark::RegisterBenchmark(
        (std::string("scalar_float/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_scalar(s, model_float, kind); });
    benchmark::RegisterBenchmark(
        (std::string("lanes_float/") + name).c_str(),
        [kind = kind](benchmark::State& s) { run_lanes(s, model_float, kind); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
