"""Identification of the mass and principal moments of the Stanford arm's boom from its joint
torques: the torques are linear in a link's mass and inertia (its centre of mass fixed), so least
squares on a regressor built from a guessed model recovers the robot file's values.

    python3 examples/python/identify_link.py
"""
from pathlib import Path

import numpy as np

import denoc

path = Path(__file__).resolve().parents[2] / "robots" / "stanford.yaml"
keys = ["links[2].mass", "links[2].inertia.xx", "links[2].inertia.yy", "links[2].inertia.zz"]
guess = np.array([5.0, 0.5, 0.5, 0.02])           # a wrong model of the boom

arm = denoc.Robot(path)                            # the real one: its torques are "measured"
t, q, qd, qdd = arm.trajectory()
measured = arm.inverse_dynamics(q, qd, qdd).ravel()


def torques(params):
    robot = denoc.Robot(path, set=dict(zip(keys, params)))
    return robot.inverse_dynamics(q, qd, qdd).ravel()


delta = 1e-3
Y = np.column_stack([(torques(guess + delta * e) - torques(guess)) / delta for e in np.eye(4)])
rest = torques(guess) - Y @ guess                  # what the other links and gravity give
found = np.linalg.lstsq(Y, measured - rest, rcond=None)[0]
for key, value in zip(keys, found):
    print(f"{key:22} {value:.9g}")
