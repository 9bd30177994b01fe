#!/usr/bin/env python3
"""What inertia_checks="warn" costs per sample (docs/robot-file.md, "Published parameter sets"):
a URDF whose inertias need warn, against the same robot with those inertias made physical (each
link's largest principal moment lowered to the sum of the other two), timed from Python in turns
on the same random samples.

    python3 tests/benchmarks/inertia_checks.py ROBOT.urdf [--floating-base] [--samples N]
        [--rounds R]

Needs the module on PYTHONPATH (BUILD/python). Prints, per quantity, microseconds per sample
under warn and under the strict checks (the medians over the rounds) and their ratio. Only what
factorises the inertia matrix (forward dynamics, the inverse) checks that it is positive
definite; the other quantities should cost the same under both.
"""
import argparse
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

import denoc


def made_physical(text):
    """The URDF with every inertia that breaks the triangle inequality (or is not positive
    semi-definite by rounding) replaced by the nearest one that keeps it, in its principal axes."""
    root = ET.fromstring(text)
    keys = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    for inertia in root.iter("inertia"):
        v = {k: float(inertia.get(k, 0)) for k in keys}
        I = np.array([[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
                      [v["ixz"], v["iyz"], v["izz"]]])
        moments, axes = np.linalg.eigh(I)
        scale = max(abs(moments).max(), 1e-9)
        moments = np.maximum(moments, 1e-3 * scale)
        if moments[2] > moments[0] + moments[1]:
            moments[2] = moments[0] + moments[1]
        fixed = axes @ np.diag(moments) @ axes.T
        for (i, j), k in zip([(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)], keys):
            inertia.set(k, repr(float(fixed[i, j])))
    return ET.tostring(root, encoding="unicode")


def per_sample(call, count, rounds_seconds=0.2):
    call()
    laps, start = [], time.perf_counter()
    while time.perf_counter() - start < rounds_seconds or len(laps) < 3:
        t0 = time.perf_counter()
        call()
        laps.append(time.perf_counter() - t0)
    return statistics.median(laps) / count * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("robot")
    parser.add_argument("--floating-base", action="store_true")
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    text = open(args.robot).read()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warn = denoc.Robot(args.robot, floating_base=args.floating_base, inertia_checks="warn")
    # Through a file, so that the script also times builds older than Robot.from_urdf_string.
    with tempfile.NamedTemporaryFile("w", suffix=".urdf") as physical:
        physical.write(made_physical(text))
        physical.flush()
        strict = denoc.Robot(physical.name, floating_base=args.floating_base)
    if not warn.warnings:
        sys.exit(f"{args.robot} passes the strict checks: nothing to compare")
    rng = np.random.default_rng(1)
    N = args.samples
    q = rng.uniform(-1, 1, (N, warn.nq))
    if warn.floating_base:
        quaternion = rng.normal(size=(N, 4))
        q[:, 3:7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    qd, qdd = rng.uniform(-1, 1, (N, warn.nv)), rng.uniform(-1, 1, (N, warn.nv))
    tau = rng.uniform(-1, 1, (N, warn.n))
    few = slice(0, max(1, N // 20))  # the O(n^2) and O(n^3) quantities on fewer samples
    cases = {
        "torques": (lambda r: r.inverse_dynamics(q, qd, qdd), N),
        "gravity": (lambda r: r.gravity(q), N),
        "mass matrix": (lambda r: r.mass_matrix(q[few]), len(q[few])),
        "forward dynamics": (lambda r: r.forward_dynamics(q, qd, tau), N),
        "inverse mass matrix": (lambda r: r.inverse_mass_matrix(q[few]), len(q[few])),
    }
    print(f"{args.robot}: n = {warn.n}{', floating base' if warn.floating_base else ''}, "
          f"{N} samples, {args.rounds} rounds in turns; us per sample, medians")
    print(f"{'quantity':<22}{'warn':>10}{'strict':>10}{'warn/strict':>13}")
    for name, (call, count) in cases.items():
        times = {"warn": [], "strict": []}
        for _ in range(args.rounds):
            for label, robot in (("warn", warn), ("strict", strict)):
                times[label].append(per_sample(lambda: call(robot), count))
        w, s = statistics.median(times["warn"]), statistics.median(times["strict"])
        print(f"{name:<22}{w:>10.3f}{s:>10.3f}{w / s:>13.2f}")


if __name__ == "__main__":
    main()
