"""Shared fixtures of the Python module's tests (run by ctest: tests/CMakeLists.txt passes the
apps, the robots and the build through the environment)."""
import csv
import io
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

RIDIM = os.environ.get("DENOC_RIDIM", "ridim")
RFDSIM = os.environ.get("DENOC_RFDSIM", "rfdsim")
ROBOTS = Path(os.environ.get("DENOC_ROBOTS", Path(__file__).resolve().parents[2] / "robots"))


def run(args, stdin=None, check=True):
    """Runs an app; returns its standard output. Under the sanitizer build the module's runtime is
    preloaded into Python (tests/CMakeLists.txt); an app carries its own, so it is not passed on."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    result = subprocess.run([str(a) for a in args], input=stdin, capture_output=True, text=True,
                            env=env)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}: {result.stderr}")
    return result


def read_csv(text):
    """The header and the rows of a CSV written by the apps, as floats (exact: they write the
    shortest text that reads back to the same double)."""
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], np.array([[float(x) for x in row] for row in rows[1:]])


def write_csv(path, header, rows):
    """A CSV the apps read: numbers as Python's repr, which reads back exactly."""
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(repr(float(x)) for x in row) + "\n")


BASE_COLUMNS = {
    "q": ["base_x", "base_y", "base_z", "base_qx", "base_qy", "base_qz", "base_qw"],
    "qd": ["base_vx", "base_vy", "base_vz", "base_wx", "base_wy", "base_wz"],
    "qdd": ["base_dvx", "base_dvy", "base_dvz", "base_dwx", "base_dwy", "base_dwz"],
}


def state_header(robot, blocks=("q", "qd", "qdd")):
    """t and the state's columns (docs/csv.md; the base's first with a floating base)."""
    names = ["t"]
    for prefix in blocks:
        if robot.floating_base:
            names += BASE_COLUMNS[prefix]
        names += [f"{prefix}{i}" for i in range(1, robot.n + 1)]
    return names


def random_states(robot, count, seed=1):
    """count states q, qd, qdd (a floating base's quaternion of unit norm)."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1.5, 1.5, (count, robot.nq))
    if robot.floating_base:
        quaternion = rng.normal(size=(count, 4))
        q[:, 3:7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    return q, rng.uniform(-2, 2, (count, robot.nv)), rng.uniform(-3, 3, (count, robot.nv))


@pytest.fixture
def robots():
    return ROBOTS
