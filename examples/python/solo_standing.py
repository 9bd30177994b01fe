"""Solo 12 (robots/solo12.urdf, a floating base) dropped on its feet onto compliant ground
(docs/legged.md): a PD controller holds the joints at a crouch, the four feet are the contact
points, and the robot lands and stands. Plots the feet's heights and the centre of mass against
time (solo_standing.png) and prints where it came to rest.

    python3 examples/python/solo_standing.py
"""
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

import denoc

matplotlib.use("Agg")
robot = denoc.Robot(Path(__file__).resolve().parents[2] / "robots" / "solo12.urdf",
                    floating_base=True)
feet = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
crouch = np.array([0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6])
kp, kd = 20.0, 0.5  # N m/rad and N m s/rad at each joint

# The base placed so that the feet start 3 cm above the ground, the robot at rest.
q0 = np.zeros(robot.nq)
q0[6] = 1.0
q0[7:] = crouch
lowest_foot = min(robot.pose(q0, frame=foot)[2, 3] for foot in feet)
q0[2] = 0.03 - lowest_foot


def hold_the_crouch(t, q, qd):
    return kp * (crouch - q[7:]) - kd * qd[6:]


sim = denoc.simulate(robot, t_end=1.5, dt=0.005, q0=q0, torques=hold_the_crouch, contacts=feet,
                     rtol=1e-6, atol=1e-6)
foot_heights = np.stack([robot.pose(sim.q, frame=foot)[:, 2, 3] for foot in feet], axis=1)
com = robot.com(sim.q)

figure, axes = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
for k, foot in enumerate(feet):
    axes[0].plot(sim.t, 1000 * foot_heights[:, k], label=foot)
axes[0].set_ylabel("foot height, mm")
axes[0].legend(ncol=4, fontsize="small")
axes[1].plot(sim.t, com[:, 2], label="centre of mass z")
axes[1].plot(sim.t, sim.q[:, 2], label="base origin z")
axes[1].set_ylabel("height, m")
axes[1].set_xlabel("t, s")
axes[1].legend(fontsize="small")
figure.suptitle("Solo 12 dropped 3 cm onto the ground, joints held by PD")
figure.tight_layout()
figure.savefig("solo_standing.png", dpi=100)

support = np.array([robot.pose(sim.q[-1], frame=foot)[:2, 3] for foot in feet])
inside = (support[:, 0].min() < com[-1, 0] < support[:, 0].max()
          and support[:, 1].min() < com[-1, 1] < support[:, 1].max())
print(f"standing after {sim.t[-1]:g} s: base at {sim.q[-1, 2]:.4f} m, feet "
      f"{1000 * foot_heights[-1].min():.3f} to {1000 * foot_heights[-1].max():.3f} mm, "
      f"speed {np.abs(sim.qd[-1]).max():.1e}, centre of mass over the feet: {inside}; "
      f"{sim.stats['events']} touch-downs and lift-offs, {sim.stats['steps']} steps")
