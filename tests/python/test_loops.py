"""Closed loops from Python (docs/loops.md): the same robots load with their mobility and
actuated joints; assemble, inverse_dynamics and the loop quantities give ridim's numbers to the
last bit (the same code runs); simulate gives rfdsim's rows, the actuated joints' forces and the
closure column; bad input is InputError naming what is wrong."""
import numpy as np
import pytest

import denoc
from conftest import RFDSIM, RIDIM, ROBOTS, read_csv, run, write_csv


def crank_motion(count=6):
    t = np.arange(count) * 0.02
    w = 2 * np.pi
    return t, (w * t)[:, None], np.full((count, 1), w), np.full((count, 1), 3.0)


def ridim_rows(tmp_path, name, quantity, robot, t, q, qd, qdd):
    trajectory = tmp_path / "actuated.csv"
    header = ["t"] + [f"{p}{j}" for p in ("q", "qd", "qdd") for j in robot.actuated]
    write_csv(trajectory, header, np.column_stack([t, q, qd, qdd]))
    return read_csv(run([RIDIM, ROBOTS / name, trajectory, "--quantity", quantity]).stdout)


def test_the_mechanisms_load_with_their_mobility():
    for name, mobility, actuated in (("fourbar.yaml", 1, [1]), ("slider_crank.yaml", 1, [1]),
                                     ("planar_3rrr.yaml", 3, [1, 4, 6]),
                                     ("stewart_gough.yaml", 6, [3, 9, 12, 15, 18, 21])):
        robot = denoc.Robot(ROBOTS / name)
        assert robot.mobility == mobility
        assert robot.actuated == actuated
        assert robot.loop_names
    assert denoc.Robot(ROBOTS / "stanford.yaml").mobility == 6  # no loops: every joint
    assert denoc.Robot(ROBOTS / "stanford.yaml").loop_names == []


@pytest.mark.parametrize("quantity", ["torques", "joint-states", "constraint-forces",
                                      "mass-matrix"])
def test_the_quantities_are_ridims_to_the_last_bit(tmp_path, quantity):
    robot = denoc.Robot(ROBOTS / "fourbar.yaml")
    t, q, qd, qdd = crank_motion()
    header, rows = ridim_rows(tmp_path, "fourbar.yaml", quantity, robot, t, q, qd, qdd)
    got = robot._evaluate(quantity, None, True, None, q, qd, qdd, None, 1)
    np.testing.assert_array_equal(got, rows[:, 1:])
    if quantity == "torques":
        np.testing.assert_array_equal(robot.inverse_dynamics(q, qd, qdd), rows[:, 1:])
        assert header == ["t", "tau1"]
    if quantity == "joint-states":
        np.testing.assert_array_equal(robot.assemble(q), rows[:, 1:4])


def test_simulate_is_rfdsims_with_the_actuated_forces_and_the_closure(tmp_path):
    robot = denoc.Robot(ROBOTS / "slider_crank.yaml")
    torques = np.array([[0.0, 0.5], [0.2, -0.5], [0.4, 0.0]])
    run_ = denoc.simulate(robot, t_end=0.4, dt=0.1, torques=torques, rtol=1e-10, atol=1e-10)
    assert run_.tau.shape == (5, 1)
    assert run_.q.shape == (5, 3)
    assert run_.closure.max() < 1e-9
    torque_file = tmp_path / "tau.csv"
    write_csv(torque_file, ["t", "tau1"], torques)
    header, rows = read_csv(run([RFDSIM, ROBOTS / "slider_crank.yaml", "--torques", torque_file,
                                 "--t-end", "0.4", "--dt", "0.1", "--rtol", "1e-10", "--atol",
                                 "1e-10"]).stdout)
    assert header[-1] == "closure" and "tau1" in header and "tau2" not in header
    np.testing.assert_array_equal(rows[:, 1:4], run_.q)
    np.testing.assert_array_equal(rows[:, header.index("tau1")], run_.tau[:, 0])
    np.testing.assert_array_equal(rows[:, -1], run_.closure)
    # The work the crank did is the energy gained.
    gained = run_.kinetic + run_.potential - run_.kinetic[0] - run_.potential[0]
    np.testing.assert_allclose(gained, run_.work, rtol=0, atol=1e-8)


def test_bad_input_names_what_is_wrong():
    robot = denoc.Robot(ROBOTS / "fourbar.yaml")
    with pytest.raises(denoc.InputError, match="q: shape"):
        robot.inverse_dynamics(np.zeros(3), np.zeros(3), np.zeros(3))  # every joint, not one
    with pytest.raises(denoc.InputError, match="simulate"):
        robot.forward_dynamics(np.zeros(3), np.zeros(3), np.zeros(3))
    with pytest.raises(denoc.InputError, match="no loops"):
        denoc.Robot(ROBOTS / "stanford.yaml").assemble(np.zeros(6))
    with pytest.raises(denoc.InputError, match="of a robot with loops"):
        denoc.Robot(ROBOTS / "stanford.yaml")._evaluate("joint-states", None, True, None,
                                                        np.zeros(6), None, None, None, 1)
    # A coupler of 0.1 m reaches the rocker with the crank at 0, not at pi.
    short = denoc.Robot.from_yaml_string(
        (ROBOTS / "fourbar.yaml").read_text().replace("a: 0.4\n", "a: 0.1\n"), "short.yaml")
    with pytest.raises(denoc.ComputeError, match="sample 1: the loop 'ground_pivot' does not close"):
        short.assemble(np.array([[0.0], [3.1]]))
