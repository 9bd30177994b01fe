"""Batch inverse dynamics of a humanoid on a floating base: the simple humanoid (29 joints) of
example-robot-data bends its hips, knees and ankles and swings its arms while its base is held
still; one call computes the joint torques and the wrench that holds the base over 2,000
samples, on every core, and the legs' torques are plotted.

    python3 examples/python/humanoid_batch_torques.py [ROBOT.urdf] [OUTPUT.png]

Any humanoid URDF with the same leg joints' names works (TALOS from example-robot-data, for one:
its licence, CC BY-NC-ND, keeps it out of robots/).
"""
import re
import sys
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import denoc

path = sys.argv[1] if len(sys.argv) > 1 else (
    Path(__file__).resolve().parents[2] / "robots" / "simple_humanoid.urdf")
robot = denoc.Robot(path, floating_base=True)
names = robot.joint_names

# Hips, knees and ankles bend together (q = a (1 - cos w t)), the arms swing; the base is held
# still (its rates zero), so the forces on it are what holds it (a harness, or a fixture).
N, T = 2000, 4.0
t = np.linspace(0, T, N)
w = 2 * np.pi / 2.0
# The joints by their names: the simple humanoid's (RLEG_KNEE) or TALOS' (leg_right_4_joint).
PITCH = {"hip": r"HIP_P$|^leg_\w+_3_joint$", "knee": r"KNEE$|^leg_\w+_4_joint$",
         "ankle": r"ANKLE_P$|^leg_\w+_5_joint$", "shoulder": r"SHOULDER_P$|^arm_\w+_1_joint$"}
BEND = {"hip": -0.4, "knee": 0.8, "ankle": -0.4, "shoulder": 0.5}
amplitude = np.zeros(robot.n)
knees = []
for i, name in enumerate(names):
    for part, pattern in PITCH.items():
        if re.search(pattern, name):
            amplitude[i] = BEND[part]
            knees += [i] if part == "knee" else []
shape, rate, accel = 1 - np.cos(w * t), w * np.sin(w * t), w * w * np.cos(w * t)
q = np.zeros((N, robot.nq))
q[:, 6] = 1  # the base unturned (quaternion x y z w)
q[:, 7:] = shape[:, None] * amplitude
qd = np.zeros((N, robot.nv))
qd[:, 6:] = rate[:, None] * amplitude
qdd = np.zeros((N, robot.nv))
qdd[:, 6:] = accel[:, None] * amplitude

start = time.perf_counter()
tau = robot.inverse_dynamics(q, qd, qdd)  # (N, 6 + n): the base's wrench first
seconds = time.perf_counter() - start

legs = [i for i, name in enumerate(names) if "leg" in name.lower()]
for i in legs:
    plt.plot(t, tau[:, 6 + i], label=names[i])
plt.xlabel("t [s]")
plt.ylabel("joint torque [N m]")
plt.legend(fontsize=6, ncol=2)
plt.savefig(sys.argv[2] if len(sys.argv) > 2 else "humanoid_batch_torques.png")
weight = robot.inverse_dynamics(q[0], np.zeros(robot.nv), np.zeros(robot.nv))[2]  # held at rest
knee_peak = np.abs(tau[:, [6 + i for i in knees]]).max()
print(f"{N} samples of {robot.n} joints in {seconds * 1e3:.1f} ms; "
      f"vertical force holding the base {tau[:, 2].min():.1f} to {tau[:, 2].max():.1f} N "
      f"(weight {weight:.1f} N); peak knee torque {knee_peak:.1f} N m")
