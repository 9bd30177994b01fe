"""The Stanford arm along its built-in trajectory (Saha 1999, Section 6.2), once with ridim's
torques replayed open loop, as `rfdsim --torques` does, and once under a computed-torque
controller written in Python: tau = M(q) (qdd_d + Kd (qd_d - qd) + Kp (q_d - q)) + h(q, qd).
Open loop, the integration's tiny errors grow (nothing pulls the arm back to the plan); closed
loop, the arm stays on it. Prints the largest deviation of each at the end.

    python3 examples/python/stanford_computed_torque.py
"""
from pathlib import Path

import numpy as np

import denoc

robot = denoc.Robot(Path(__file__).resolve().parents[2] / "robots" / "stanford.yaml")
t, q_d, qd_d, qdd_d = robot.trajectory()  # the plan, sampled as ridim samples it
tau_d = robot.inverse_dynamics(q_d, qd_d, qdd_d)  # ridim's torques along it
t_end = 5.0


def plan(t_now):
    """The plan at t_now, linear between its samples (held after the end)."""
    return [np.array([np.interp(t_now, t, x[:, i]) for i in range(robot.n)])
            for x in (q_d, qd_d, qdd_d)]


kp, kd = 400.0, 40.0  # a critically damped error, 20 rad/s


def computed_torque(t_now, q, qd):
    q_ref, qd_ref, qdd_ref = plan(t_now)
    a = qdd_ref + kd * (qd_ref - qd) + kp * (q_ref - q)
    return robot.mass_matrix(q) @ a + robot.bias(q, qd)


open_loop = denoc.simulate(robot, t_end, 0.01, q0=q_d[0], qd0=qd_d[0],
                           torques=np.column_stack([t, tau_d]))
closed_loop = denoc.simulate(robot, t_end, 0.01, q0=q_d[0], qd0=qd_d[0], torques=computed_torque)
q_end = plan(t_end)[0]
for name, sim in (("open loop", open_loop), ("computed torque", closed_loop)):
    print(f"{name}: largest deviation from the plan at {t_end:g} s: "
          f"{np.abs(sim.q[-1] - q_end).max():.2e} (rad or m)")
