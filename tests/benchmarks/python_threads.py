#!/usr/bin/env python3
"""How a batch call scales with threads= (docs/python.md, "Many cores, many processes"): the
Stanford arm and the simple humanoid on a floating base, each quantity timed on 1 thread and on
THREADS threads in turns, 7 rounds; per quantity the medians' ns per sample and the speed-up
per round (median, range).

    python3 tests/benchmarks/python_threads.py [THREADS]

Needs the module on PYTHONPATH (BUILD/python).
"""
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import denoc

ROBOTS = Path(__file__).resolve().parents[2] / "robots"


def timed(call, repeats=3):
    call()
    laps = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        laps.append(time.perf_counter() - start)
    return statistics.median(laps)


def states(robot, count, rng):
    q = rng.uniform(-1, 1, (count, robot.nq))
    if robot.floating_base:
        quaternion = rng.normal(size=(count, 4))
        q[:, 3:7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    return (q, rng.uniform(-1, 1, (count, robot.nv)), rng.uniform(-1, 1, (count, robot.nv)),
            rng.uniform(-1, 1, (count, robot.n)))


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rng = np.random.default_rng(1)
    for name, robot, count in (
            ("Stanford arm", denoc.Robot(ROBOTS / "stanford.yaml"), 200000),
            ("simple humanoid, floating", denoc.Robot(ROBOTS / "simple_humanoid.urdf",
                                                      floating_base=True), 20000)):
        q, qd, qdd, tau = states(robot, count, rng)
        few = slice(0, count // 10)  # the inertia matrix, heavier per sample
        cases = (("inverse_dynamics", count, lambda t: robot.inverse_dynamics(q, qd, qdd, threads=t)),
                 ("mass_matrix", count // 10, lambda t: robot.mass_matrix(q[few], threads=t)),
                 ("forward_dynamics", count, lambda t: robot.forward_dynamics(q, qd, tau, threads=t)))
        for quantity, n, call in cases:
            one, many, ratios = [], [], []
            for _ in range(7):
                t1, tk = timed(lambda: call(1)), timed(lambda: call(threads))
                one.append(t1)
                many.append(tk)
                ratios.append(t1 / tk)
            print(f"{name:27s} {quantity:17s} N = {n:6d}: 1 thread "
                  f"{statistics.median(one) / n * 1e9:7.1f} ns/sample, {threads} threads "
                  f"{statistics.median(many) / n * 1e9:7.1f}; speed-up "
                  f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
