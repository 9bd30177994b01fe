"""The derivatives of the dynamics from Python (docs/derivatives.md): ridim's numbers to the last
bit for the inverse dynamics' (the same code runs), the forward dynamics' against central
differences of forward_dynamics, d qdd / d tau against the inverse of the inertia matrix, and the
shapes of single and batch calls."""
import numpy as np
import pytest

import denoc
from conftest import RIDIM, ROBOTS, random_states, read_csv, run, state_header, write_csv

CASES = [("stanford.yaml", {}, []), ("planar3_drives.yaml", {}, []),
         ("solo12.urdf", {"floating_base": True}, ["--floating-base"])]


def ridim_rows(tmp_path, name, args, quantity, robot, q, qd, qdd):
    trajectory = tmp_path / "trajectory.csv"
    t = np.arange(len(q)) * 0.01
    write_csv(trajectory, state_header(robot), np.column_stack([t, q, qd, qdd]))
    return read_csv(run([RIDIM, ROBOTS / name, trajectory, "--quantity", quantity,
                         *args]).stdout)[1][:, 1:]


@pytest.mark.parametrize("name,keywords,args", CASES, ids=[c[0] for c in CASES])
def test_torque_derivatives_are_ridims_to_the_last_bit(tmp_path, name, keywords, args):
    robot = denoc.Robot(ROBOTS / name, **keywords)
    q, qd, qdd = random_states(robot, 4)
    dq, dqd = robot.inverse_dynamics_derivatives(q, qd, qdd)
    assert dq.shape == dqd.shape == (4, robot.nv, robot.nv)
    expected = ridim_rows(tmp_path, name, args, "torque-derivatives", robot, q, qd, qdd)
    np.testing.assert_array_equal(np.hstack([dq.reshape(4, -1), dqd.reshape(4, -1)]), expected)
    one = robot.inverse_dynamics_derivatives(q[1], qd[1], qdd[1])
    np.testing.assert_array_equal(one[0], dq[1])
    np.testing.assert_array_equal(one[1], dqd[1])
    # At the accelerations of the rows, ridim's forward dynamics' derivatives are Python's at the
    # torques of the rows.
    tau = robot.inverse_dynamics(q, qd, qdd)
    fdq, fdqd, minv = robot.forward_dynamics_derivatives(q, qd, tau)
    expected = ridim_rows(tmp_path, name, args, "acceleration-derivatives", robot, q, qd, qdd)
    got = np.hstack([fdq.reshape(4, -1), fdqd.reshape(4, -1)])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-8 * np.abs(expected).max())
    np.testing.assert_allclose(minv @ robot.mass_matrix(q), np.broadcast_to(np.eye(robot.nv),
                                                                            minv.shape),
                               atol=1e-9)


def test_forward_dynamics_derivatives_against_central_differences():
    robot = denoc.Robot(ROBOTS / "planar3_drives.yaml")  # rotors and friction
    q, qd, tau = (x[0] for x in random_states(robot, 1, seed=5))
    dq, dqd, minv = robot.forward_dynamics_derivatives(q, qd, tau)
    h = 1e-6
    for j in range(robot.nv):
        e = np.zeros(robot.nv)
        e[j] = h
        by_q = (robot.forward_dynamics(q + e, qd, tau) - robot.forward_dynamics(q - e, qd, tau)) / (2 * h)
        by_qd = (robot.forward_dynamics(q, qd + e, tau) - robot.forward_dynamics(q, qd - e, tau)) / (2 * h)
        by_tau = (robot.forward_dynamics(q, qd, tau + e) - robot.forward_dynamics(q, qd, tau - e)) / (2 * h)
        np.testing.assert_allclose(dq[:, j], by_q, atol=1e-6 * np.abs(dq).max())
        np.testing.assert_allclose(dqd[:, j], by_qd, atol=1e-6 * np.abs(dqd).max())
        np.testing.assert_allclose(minv[:, j], by_tau, atol=1e-6 * np.abs(minv).max())


def test_friction_false_leaves_the_viscous_slope_out():
    robot = denoc.Robot(ROBOTS / "planar3_drives.yaml")
    q, qd, qdd = (x[0] for x in random_states(robot, 1, seed=6))
    with_friction = robot.inverse_dynamics_derivatives(q, qd, qdd)[1]
    without = robot.inverse_dynamics_derivatives(q, qd, qdd, friction=False)[1]
    slope = np.diag(with_friction - without)
    assert np.all(slope > 0)
    np.testing.assert_allclose(with_friction - without, np.diag(slope), atol=1e-15)


def test_a_wrong_width_names_the_argument():
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    with pytest.raises(denoc.InputError, match="qdd"):
        robot.inverse_dynamics_derivatives(np.zeros(6), np.zeros(6), np.zeros(5))
