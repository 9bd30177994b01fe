"""A Monte-Carlo payload sweep on a process pool: the planar arm with drives carries a payload whose
mass and mass centre are known only roughly; for 64 draws, the peak joint forces along the robot
file's trajectory, each draw a Robot built with set= and sent to a worker process by pickle.

    python3 examples/python/payload_monte_carlo.py [WORKERS]

The same pool serves a cluster through Dask's or joblib's process backends; a grid too large for
one machine goes to Slurm through scripts/sweep (docs/python.md, "Many cores, many processes").
"""
import concurrent.futures
import multiprocessing
import sys
from pathlib import Path

import numpy as np

import denoc

ROBOT = Path(__file__).resolve().parents[2] / "robots" / "planar3_drives.yaml"


def peak_forces(robot):
    """The largest |tau| of each joint along the robot file's trajectory (one batch call)."""
    t, q, qd, qdd = robot.trajectory()
    return np.abs(robot.inverse_dynamics(q, qd, qdd, threads=1)).max(axis=0)


def main():
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rng = np.random.default_rng(2026)
    draws = [{"payload.mass": rng.uniform(0.5, 1.5), "payload.com[0]": rng.normal(0.02, 0.01)}
             for _ in range(64)]
    robots = [denoc.Robot(ROBOT, set=draw) for draw in draws]
    # spawn: each worker starts afresh, so the robots reach it only through pickle (as on
    # another machine).
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        peaks = np.array(list(pool.map(peak_forces, robots)))
    assert np.array_equal(peaks[:4], np.array([peak_forces(r) for r in robots[:4]]))
    nominal = peak_forces(denoc.Robot(ROBOT))
    low, high = np.percentile(peaks, [5, 95], axis=0)
    for i in range(peaks.shape[1]):
        print(f"joint {i + 1}: peak |tau| {nominal[i]:.3f} N m nominal, "
              f"{low[i]:.3f} to {high[i]:.3f} for 90% of {len(draws)} payloads")


if __name__ == "__main__":
    main()
