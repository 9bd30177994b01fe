#!/usr/bin/env python3
"""The Python module's batch calls against the C++ loop they run (docs/python.md, Speed).

    python3 tests/benchmarks/python_batch.py BUILD [ROBOT] [--rounds R]

BUILD is a build with -DDENOC_BUILD_BENCHMARKS=ON and the module (targets denoc_batch_bench and
_denoc). Each round runs BUILD/tests/benchmarks/denoc_batch_bench (Google Benchmark: the loop of
SampleQuantities / ForwardDynamics over N samples into one array) and then times the same calls
from Python on the same samples (time.perf_counter, the median of repeats lasting 0.2 s or
more); the table gives, per quantity and N, the median over the rounds of Python's time / C++'s.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path


def samples(np, count, width, phase):
    """The rule of batch_bench.cpp: entry i of sample k is 1.5 sin(0.001 k + i + phase)."""
    k = np.arange(count, dtype=float)[:, None]
    i = np.arange(width, dtype=float)[None, :]
    return 1.5 * np.sin(0.001 * k + i + phase)


def cpp_times(build, robot):
    """Seconds per call of the C++ loop, by (quantity, N)."""
    out = subprocess.run([str(build / "tests" / "benchmarks" / "denoc_batch_bench"), str(robot),
                          "--benchmark_format=json", "--benchmark_min_time=0.2"],
                         check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        name, count = b["name"].split("/")
        assert b["time_unit"] == "ns"
        times[(name, int(count))] = b["real_time"] * 1e-9
    return times


def python_time(call, minimum=0.2):
    """The median time of call(), over repeats lasting `minimum` seconds or more in all."""
    call()
    laps, start = [], time.perf_counter()
    while time.perf_counter() - start < minimum or len(laps) < 3:
        t0 = time.perf_counter()
        call()
        laps.append(time.perf_counter() - t0)
    return statistics.median(laps)


def python_times(denoc, np, robot_path, cases):
    robot = denoc.Robot(robot_path)
    times = {}
    for name, count in cases:
        q, qd, x = (samples(np, count, robot.n, phase) for phase in (0, 1, 2))
        if count == 1:
            q, qd, x = q[0], qd[0], x[0]
        call = {
            "torques": lambda: robot.inverse_dynamics(q, qd, x),
            "mass-matrix": lambda: robot.mass_matrix(q),
            "forward-dynamics": lambda: robot.forward_dynamics(q, qd, x),
        }[name]
        times[(name, count)] = python_time(call)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("robot", type=Path, nargs="?",
                        default=Path(__file__).resolve().parents[2] / "robots" / "stanford.yaml")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(args.build / "python"))
    import numpy as np

    import denoc

    ratios, cpp = {}, {}
    for _ in range(args.rounds):
        c = cpp_times(args.build, args.robot)
        p = python_times(denoc, np, args.robot, sorted(c))
        for case in c:
            ratios.setdefault(case, []).append(p[case] / c[case])
            cpp.setdefault(case, []).append(c[case])
    print(f"Python batch call / C++ loop, {args.robot.name}, median of {args.rounds} rounds")
    print()
    print("| quantity | N | C++ loop per sample | Python / C++ |")
    print("|---|---|---|---|")
    for (name, count) in sorted(ratios, key=lambda c: (c[0], c[1])):
        per_sample = statistics.median(cpp[(name, count)]) / count * 1e9
        print(f"| {name} | {count} | {per_sample:.0f} ns | "
              f"{statistics.median(ratios[(name, count)]):.3f} |")


if __name__ == "__main__":
    main()
