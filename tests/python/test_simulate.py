"""denoc.simulate: rfdsim's rows to the last bit for free fall and a torque table, a Python
controller in the loop against the same controller's torques given as a table, and the energy
balance with it."""
from pathlib import Path

import numpy as np
import pytest

import denoc
from conftest import RFDSIM, ROBOTS, read_csv, run, write_csv


def rfdsim_table(*args):
    return read_csv(run([RFDSIM, *args]).stdout)[1]


def table_of(sim):
    return np.column_stack([sim.t, sim.q, sim.qd, sim.qdd, sim.tau, sim.kinetic, sim.potential,
                            sim.work, sim.dissipated])


@pytest.mark.parametrize("name", ["stanford.yaml", "space_manipulator.yaml"])
def test_free_fall_is_rfdsims_to_the_last_bit(name):
    robot = denoc.Robot(ROBOTS / name)
    sim = denoc.simulate(robot, 0.5, 0.05, rtol=1e-10, atol=1e-10)
    expected = rfdsim_table(ROBOTS / name, "--free-fall", "--t-end", "0.5", "--dt", "0.05",
                            "--rtol", "1e-10", "--atol", "1e-10")
    np.testing.assert_array_equal(table_of(sim), expected)
    assert sim.stats["steps"] > 0 and sim.stats["rhs_evaluations"] > sim.stats["steps"]


def test_torque_table_stick_slip_and_initial_state_are_rfdsims(tmp_path):
    robot = denoc.Robot(ROBOTS / "planar3_drives.yaml")
    t = np.linspace(0, 1, 11)
    table = np.column_stack([t, 20 * np.sin(3 * t), 5 * np.cos(2 * t), 0.5 * t])
    write_csv(tmp_path / "tau.csv", ["t", "tau1", "tau2", "tau3"], table)
    q0, qd0 = [0.1, -0.2, 0.3], [0.0, 0.5, 0.0]
    sim = denoc.simulate(robot, 1.0, 0.1, q0=q0, qd0=qd0, torques=table, coulomb="stick-slip",
                         algorithm="cholesky")
    expected = rfdsim_table(ROBOTS / "planar3_drives.yaml", "--torques", tmp_path / "tau.csv",
                            "--t-end", "1", "--dt", "0.1", "--q0", "0.1,-0.2,0.3", "--qd0",
                            "0,0.5,0", "--coulomb", "stick-slip", "--algorithm", "cholesky")
    np.testing.assert_array_equal(table_of(sim), expected)
    assert sim.stats["events"] >= 0


def pd_controller(robot, target, kp, kd):
    """tau = g(q) + Kp (target - q) - Kd qd: a PD controller with gravity compensation."""
    def control(t, q, qd):
        return robot.gravity(q) + kp * (target - q) - kd * qd
    return control


def test_a_python_controller_tracks_a_step():
    robot = denoc.Robot(ROBOTS / "puma560.yaml")
    target = np.array([0.3, -0.4, 0.5, 0.0, 0.2, 0.0])
    seen = []
    control = pd_controller(robot, target, kp=2500.0, kd=100.0)

    def logged(t, q, qd):
        seen.append((t, q.copy(), qd.copy()))
        return control(t, q, qd)

    sim = denoc.simulate(robot, 2.0, 0.01, torques=logged)
    assert len(seen) == sim.stats["rhs_evaluations"] + len(sim.t)  # and once per output row
    # The controller sees the state: each output row's q and qd were passed at its time.
    rows = {t: (q, qd) for t, q, qd in seen}
    for k in range(0, len(sim.t), 20):
        np.testing.assert_array_equal(rows[sim.t[k]][0], sim.q[k])
        np.testing.assert_array_equal(rows[sim.t[k]][1], sim.qd[k])
    # Reached but for the drives' Coulomb friction, which a PD controller leaves as Tc / Kp.
    assert np.abs(sim.q[-1] - target).max() < 5e-3
    # Energy: what the controller put in, less what friction took, is what the robot gained.
    energy = sim.kinetic + sim.potential - sim.work + sim.dissipated
    assert np.abs(energy - energy[0]).max() < 1e-6 * np.abs(sim.work).max()


def test_a_controller_matches_its_torques_given_as_a_table():
    robot = denoc.Robot(ROBOTS / "planar3.yaml")
    control = pd_controller(robot, np.array([0.5, -0.5, 0.25]), kp=20.0, kd=2.0)
    # The controller's torques at the output times, given back as a table: the same motion but for
    # the linear interpolation between the samples, an error of second order in their interval.
    errors = []
    for dt in [0.001, 0.0005, 0.00025]:
        closed = denoc.simulate(robot, 1.0, dt, torques=control, rtol=1e-11, atol=1e-11)
        table = np.column_stack([closed.t, closed.tau])
        opened = denoc.simulate(robot, 1.0, dt, torques=table, rtol=1e-11, atol=1e-11)
        np.testing.assert_array_equal(opened.tau, closed.tau)  # at the samples themselves
        errors.append(np.abs(opened.q - closed.q).max())
    assert np.abs(closed.q[-1] - closed.q[0]).max() > 0.2  # it did move
    assert errors[-1] < 2e-3
    for coarse, fine in zip(errors, errors[1:]):
        assert 3.5 < coarse / fine < 4.5, errors


def test_a_controller_that_fails_stops_the_simulation_with_its_exception():
    robot = denoc.Robot(ROBOTS / "planar3.yaml")

    def broken(t, q, qd):
        if t > 0.1:
            raise ZeroDivisionError("the controller's own error")
        return np.zeros(3)

    with pytest.raises(ZeroDivisionError, match="the controller's own error"):
        denoc.simulate(robot, 1.0, 0.01, torques=broken)
    with pytest.raises(denoc.InputError, match="expected 3 joint forces"):
        denoc.simulate(robot, 1.0, 0.01, torques=lambda t, q, qd: np.zeros(2))
    with pytest.raises(denoc.InputError, match="not finite at t = 0"):
        denoc.simulate(robot, 1.0, 0.01, torques=lambda t, q, qd: np.full(3, np.nan))


def test_bad_arguments_are_input_errors():
    robot = denoc.Robot(ROBOTS / "planar3.yaml")
    cases = [
        (dict(t_end=-1, dt=0.1), "t_end: must be a time >= 0"),
        (dict(t_end=1, dt=0), "dt: must be positive"),
        (dict(t_end=1, dt=0.1, method="euler"), "method: 'euler' is not one of dopri5"),
        (dict(t_end=1, dt=0.1, coulomb="stick-slip", method="rk4"), "use method='dopri5'"),
        (dict(t_end=1, dt=0.1, q0=[0, 0]), r"q0: shape \(2,\); expected \(3,\)"),
        (dict(t_end=1, dt=0.1, torques=np.zeros((3, 3))), r"shape \(N, 4\)"),
        (dict(t_end=1, dt=0.1, torques=np.array([[0, 1, 2, 3], [0, 1, 2, 3.0]])),
         "torques: row 1: time 0 is not after the previous row's 0"),
        (dict(t_end=1e9, dt=1e-3), "more than 10\\^8 output rows"),
    ]
    for kwargs, message in cases:
        with pytest.raises(denoc.InputError, match=message):
            denoc.simulate(robot, **kwargs)
    floating = denoc.Robot(ROBOTS / "space_manipulator.yaml")
    with pytest.raises(denoc.InputError, match="route carries no floating base"):
        denoc.simulate(floating, 1, 0.1, algorithm="gibbs-appell")


BOX = Path(__file__).resolve().parents[1] / "fixtures" / "box_corners.urdf"
CORNERS = ["corner_1", "corner_2", "corner_3", "corner_4"]


def test_ground_contact_is_rfdsims_to_the_last_bit_and_balances_the_energy():
    box = denoc.Robot(BOX, floating_base=True)
    q0 = [0.1, -0.2, 0.3, 0, 0, 0, 1]  # 0.2 m above the ground, turning as it falls
    qd0 = [0.5, 0, 0, 1, -2, 0.5]
    sim = denoc.simulate(box, 0.8, 0.01, q0=q0, qd0=qd0, contacts=CORNERS, ground=(1e4, 20, 0.6))
    contact_args = [a for c in CORNERS for a in ("--contact", c)]
    expected = rfdsim_table(BOX, "--floating-base", "--free-fall", "--t-end", "0.8", "--dt",
                            "0.01", "--q0", ",".join(repr(float(v)) for v in q0), "--qd0",
                            ",".join(repr(float(v)) for v in qd0), *contact_args,
                            "--ground", "1e4,20,0.6")
    table = np.column_stack([sim.t, sim.q, sim.qd, sim.qdd, sim.tau, sim.kinetic, sim.potential,
                             sim.contact, sim.work, sim.dissipated])
    np.testing.assert_array_equal(table, expected)
    total = sim.kinetic + sim.potential + sim.contact - sim.work + sim.dissipated
    assert np.abs(total - total[0]).max() < 1e-6 * abs(total[0])
    assert sim.contact.max() > 0.1 and sim.stats["events"] >= 4
    assert denoc.simulate(box, 0.1, 0.05).contact is None


def test_ground_contact_arguments_are_checked():
    box = denoc.Robot(BOX, floating_base=True)
    with pytest.raises(denoc.InputError, match="not one string"):
        denoc.simulate(box, 0.1, 0.05, contacts="corner_1")
    with pytest.raises(denoc.InputError, match="corner_9"):
        denoc.simulate(box, 0.1, 0.05, contacts=["corner_9"])
    with pytest.raises(denoc.InputError, match="three or four numbers"):
        denoc.simulate(box, 0.1, 0.05, contacts=CORNERS, ground=(1e4, 20))
    with pytest.raises(denoc.InputError, match="damping c -1"):
        denoc.simulate(box, 0.1, 0.05, contacts=CORNERS, ground=(1e4, -1, 0.5))
