"""The Puma 560 under a PD controller with gravity compensation, written in Python and called by
the integrator at every step, tracking a step from its home pose; plotted.

    python3 examples/python/puma_pd.py [OUTPUT.png]
"""
import sys
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import denoc

with warnings.catch_warnings():  # the file accepts Corke's two links that no rigid body has
    warnings.simplefilter("ignore")
    robot = denoc.Robot(Path(__file__).resolve().parents[2] / "robots" / "puma560.yaml")
target = robot.initial_q + np.array([0.3, -0.4, 0.5, 0.0, 0.2, 0.0])
kp, kd = 2500.0, 100.0


def pd(t, q, qd):
    return robot.gravity(q) + kp * (target - q) - kd * qd


sim = denoc.simulate(robot, t_end=2.0, dt=0.005, torques=pd)
plt.plot(sim.t, sim.q - target)
plt.xlabel("t [s]")
plt.ylabel("q - target [rad]")
plt.savefig(sys.argv[1] if len(sys.argv) > 1 else "puma_pd.png")
print(f"error after 2 s: {np.abs(sim.q[-1] - target).max():.2e} rad "
      f"({sim.stats['rhs_evaluations']} controller calls)")
