// The C++ loop that a batch call of the Python module (docs/python.md) runs, timed by Google
// Benchmark on the same samples as tests/benchmarks/python_batch.py times the call: N samples of a
// robot file, evaluated by SampleQuantities (what ridim and the module run) or ForwardDynamics
// into the rows of one output array, as many per call as they take (packs of samples, lanes/).
//   batch_bench ROBOT [Google Benchmark options]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"

namespace {

using denoc::MatX;
using denoc::VecX;

// Sample k's entry i of a block (both sides use this rule): smooth, in [-1.5, 1.5].
MatX<double> samples(long count, long width, double phase) {
  MatX<double> x(width, count);  // column k = sample k, contiguous as a row of a C-order array
  for (long k = 0; k < count; ++k)
    for (long i = 0; i < width; ++i)
      x(i, k) = 1.5 * std::sin(0.001 * static_cast<double>(k) + static_cast<double>(i) + phase);
  return x;
}

void run_quantity(benchmark::State& state, const denoc::RobotFile& robot,
                  denoc::Quantity quantity) {
  const long count = state.range(0);
  const int n = robot.dof();
  const MatX<double> q = samples(count, n, 0), qd = samples(count, n, 1),
                     qdd = samples(count, n, 2);
  denoc::SampleQuantities quantities(robot, quantity,
                                     denoc::choose_route(quantity, std::nullopt, robot));
  MatX<double> out(quantities.size(), count);
  const int per_call = quantities.samples_per_call();  // packs of samples where they apply
  for (auto _ : state) {
    for (long k = 0; k < count; k += per_call) {
      const int samples = static_cast<int>(std::min<long>(per_call, count - k));
      quantities.evaluate_samples(
          samples, denoc::lane_pointers(k, samples, {q.data(), n}, {qd.data(), n}, {qdd.data(), n},
                                        {out.data(), out.rows()}));
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * count);
}

void run_forward(benchmark::State& state, const denoc::RobotFile& robot) {
  const long count = state.range(0);
  const int n = robot.dof();
  const MatX<double> q = samples(count, n, 0), qd = samples(count, n, 1),
                     tau = samples(count, n, 2);
  denoc::ForwardDynamics forward(robot, denoc::Route::udu);
  MatX<double> out(n, count);
  const int per_call = forward.samples_per_call();
  for (auto _ : state) {
    for (long k = 0; k < count; k += per_call) {
      const int samples = static_cast<int>(std::min<long>(per_call, count - k));
      forward.evaluate_samples(samples,
                               denoc::lane_pointers(k, samples, {q.data(), n}, {qd.data(), n},
                                                    {tau.data(), n}, {out.data(), n}),
                               n);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * count);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::cerr << "usage: batch_bench ROBOT [Google Benchmark options]\n";
    return 2;
  }
  static const denoc::RobotFile robot = denoc::load_robot_file(argv[1]);
  if (robot.model.floating()) {
    std::cerr << "batch_bench: a fixed-base robot file, please\n";
    return 2;
  }
  const std::vector<long> counts = {1, 100, 10000, 1000000};
  for (const auto& [name, quantity] : {std::pair{"torques", denoc::Quantity::torques},
                                       std::pair{"mass-matrix", denoc::Quantity::mass_matrix}}) {
    auto* b = benchmark::RegisterBenchmark(
        name, [quantity = quantity](benchmark::State& s) { run_quantity(s, robot, quantity); });
    for (long c : counts)
      b->Arg(c);
  }
  auto* b = benchmark::RegisterBenchmark("forward-dynamics",
                                         [](benchmark::State& s) { run_forward(s, robot); });
  for (long c : counts)
    b->Arg(c);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
