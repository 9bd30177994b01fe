"""The four closed-loop mechanisms of robots/ (docs/loops.md): the actuators' forces that drive
each along a smooth motion of its actuated joints (inverse dynamics of the closed system), and
the four-bar let go to swing under gravity with its loop held (its energy and closure error).
Plots them (loops.png) and prints a line per mechanism.

    python3 examples/python/loops.py
"""
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

import denoc

matplotlib.use("Agg")
robots = Path(__file__).resolve().parents[2] / "robots"
t = np.linspace(0.0, 1.0, 201)
w = 2 * np.pi  # one cycle a second


def sinusoids(robot, amplitude):
    """Each actuated joint about its initial value: q = q0 + a sin(w t + phase), with phase
    2 pi k / f for the k-th of f, and its exact rates."""
    q0 = robot.initial_q[np.array(robot.actuated) - 1]
    f = len(q0)
    phase = 2 * np.pi * np.arange(f) / f
    angle = w * t[:, None] + phase
    return (q0 + amplitude * np.sin(angle), amplitude * w * np.cos(angle),
            -amplitude * w * w * np.sin(angle))


figure, axes = plt.subplots(2, 2, figsize=(10, 7), constrained_layout=True)

# The crank of the four-bar and of the slider-crank at one turn a second.
for name, label in (("fourbar.yaml", "four-bar"), ("slider_crank.yaml", "slider-crank")):
    robot = denoc.Robot(robots / name)
    q = (w * t)[:, None]
    tau = robot.inverse_dynamics(q, np.full_like(q, w), np.zeros_like(q))
    axes[0, 0].plot(t, tau[:, 0], label=label)
    print(f"{label}: mobility {robot.mobility}, crank torque {tau.min():.3f} to {tau.max():.3f} N m")
axes[0, 0].set(title="crank at 1 rev/s", xlabel="t (s)", ylabel="crank torque (N m)")
axes[0, 0].legend()

# The 3-RRR's base joints swung by 0.2 rad, and the Stewart-Gough platform's legs by 2 cm.
for axis, name, amplitude, unit in ((axes[0, 1], "planar_3rrr.yaml", 0.2, "N m"),
                                    (axes[1, 0], "stewart_gough.yaml", 0.02, "N")):
    robot = denoc.Robot(robots / name)
    tau = robot.inverse_dynamics(*sinusoids(robot, amplitude))
    for k, joint in enumerate(robot.actuated):
        axis.plot(t, tau[:, k], label=f"joint {joint}")
    axis.set(title=robot.name, xlabel="t (s)", ylabel=f"actuator force ({unit})")
    axis.legend(fontsize="small", ncol=2)
    print(f"{robot.name}: mobility {robot.mobility}, actuators {np.abs(tau).max():.3f} {unit} "
          f"at most")

# The four-bar let go at its initial state (the crank at 1 rev/s), free under gravity.
robot = denoc.Robot(robots / "fourbar.yaml")
run = denoc.simulate(robot, t_end=2.0, dt=0.01, rtol=1e-10, atol=1e-10)
energy = run.kinetic + run.potential
drift = np.abs(energy - energy[0])
axes[1, 1].semilogy(run.t, np.maximum(drift, 1e-17), label="|energy - energy(0)| (J)")
axes[1, 1].semilogy(run.t, np.maximum(run.closure, 1e-17), label="closure error (m or rad)")
axes[1, 1].set(title="four-bar swinging freely", xlabel="t (s)")
axes[1, 1].legend(fontsize="small")
figure.savefig("loops.png", dpi=80)
print(f"four-bar free for 2 s: energy drift {drift.max():.1e} J, closure {run.closure.max():.1e}")
