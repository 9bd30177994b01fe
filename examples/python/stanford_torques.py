"""Joint torques of the Stanford arm along the trajectory of its robot file, plotted.

    python3 examples/python/stanford_torques.py [OUTPUT.png]
"""
import sys
from pathlib import Path

import matplotlib.pyplot as plt

import denoc

robot = denoc.Robot(Path(__file__).resolve().parents[2] / "robots" / "stanford.yaml")
t, q, qd, qdd = robot.trajectory()                # 1001 samples of Saha (1999) Eq. (38)
tau = robot.inverse_dynamics(q, qd, qdd)          # one call: (1001, 6)

for i, name in enumerate(robot.joint_names):
    plt.plot(t, tau[:, i], label=f"{i + 1}: {name}")
plt.xlabel("t [s]")
plt.ylabel("joint force [N m, N]")
plt.legend()
plt.savefig(sys.argv[1] if len(sys.argv) > 1 else "stanford_torques.png")
print(f"peak |tau| per joint: {abs(tau).max(axis=0).round(3)}")
