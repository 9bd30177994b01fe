"""Batches on several threads, robots across processes (pickle), external wrenches at frames,
float32 input (docs/python.md, "Many cores, many processes")."""
import concurrent.futures
import multiprocessing
import pickle
import shutil

import numpy as np
import pytest

import denoc
from conftest import ROBOTS, random_states


@pytest.fixture(scope="module")
def stanford():
    return denoc.Robot(ROBOTS / "stanford.yaml")


@pytest.fixture(scope="module")
def solo():
    return denoc.Robot(ROBOTS / "solo12.urdf", floating_base=True)


# Threads --------------------------------------------------------------------------------------

def test_every_thread_count_gives_the_same_numbers_to_the_last_bit(stanford, solo):
    """A batch split over threads evaluates each sample as one thread does: packs of samples keep
    their grouping (shares are whole packs), each thread its own workspace."""
    for robot in (stanford, solo):
        q, qd, qdd = random_states(robot, 1001, seed=5)
        calls = {
            "torques": lambda t: robot.inverse_dynamics(q, qd, qdd, threads=t),
            "mass matrix": lambda t: robot.mass_matrix(q, threads=t),
            "inverse": lambda t: robot.inverse_mass_matrix(q, threads=t),
            "forward": lambda t: robot.forward_dynamics(q, qd, qdd[:, -robot.n:], threads=t),
            "jacobian": lambda t: robot.jacobian(q, frame=robot.link_names[-1], threads=t),
        }
        for name, call in calls.items():
            one = call(1)
            for threads in (2, 3, 7, None):
                np.testing.assert_array_equal(call(threads), one, err_msg=f"{name}, {threads}")


def test_threads_must_be_a_positive_count(stanford):
    q = np.zeros((10, 6))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(denoc.InputError, match="threads: .* is not a number of threads"):
            stanford.gravity(q, threads=bad)


def test_a_failure_names_the_first_sample_that_fails_whatever_the_threads(tmp_path):
    text = (ROBOTS / "planar3.yaml").read_text().replace("    mass: 2\n", "    mass: 0\n").replace(
        "inertia: {yy: 0.006666666666666667, zz: 0.006666666666666667}", "inertia: {}")
    (tmp_path / "singular.yaml").write_text("inertia_checks: warn\n" + text)
    with pytest.warns(UserWarning):
        robot = denoc.Robot(tmp_path / "singular.yaml")
    q = np.zeros((500, 3))
    for threads in (1, 4):
        with pytest.raises(denoc.ComputeError, match="^sample 0: the inertia matrix is not"):
            robot.inverse_mass_matrix(q, threads=threads)


# Processes ------------------------------------------------------------------------------------

def torques_of(robot, q, qd, qdd):
    return robot.inverse_dynamics(q, qd, qdd)


def test_a_pickled_robot_is_the_same_robot_without_its_file(tmp_path):
    """Pickled with its file's text and options: a worker that cannot read the file (another
    machine) rebuilds it, and its messages still name the file."""
    shutil.copy(ROBOTS / "solo12.urdf", tmp_path / "solo.urdf")
    robot = denoc.Robot(tmp_path / "solo.urdf", floating_base=True,
                        set={"links[2].mass": 0.25})
    data = pickle.dumps(robot)
    (tmp_path / "solo.urdf").unlink()
    copy = pickle.loads(data)
    assert repr(copy) == repr(robot)
    assert copy.path == str(tmp_path / "solo.urdf")
    q, qd, qdd = random_states(robot, 20, seed=2)
    np.testing.assert_array_equal(copy.inverse_dynamics(q, qd, qdd),
                                  robot.inverse_dynamics(q, qd, qdd))
    with pytest.raises(denoc.InputError, match=r"solo.urdf: frame='nowhere'"):
        copy.pose(q[0], frame="nowhere")


@pytest.mark.parametrize("executor", ["multiprocessing.Pool", "ProcessPoolExecutor"])
def test_process_pools_take_robots(solo, executor):
    """The robot goes to each worker by pickle; spawned workers start afresh, so nothing reaches
    them but what pickle carries."""
    q, qd, qdd = random_states(solo, 40, seed=4)
    chunks = [(solo, q[k:k + 10], qd[k:k + 10], qdd[k:k + 10]) for k in range(0, 40, 10)]
    context = multiprocessing.get_context("spawn")
    if executor == "multiprocessing.Pool":
        with context.Pool(2) as pool:
            results = pool.starmap(torques_of, chunks)
    else:
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            results = list(pool.map(torques_of, *zip(*chunks)))
    np.testing.assert_array_equal(np.vstack(results), solo.inverse_dynamics(q, qd, qdd))


# Wrenches -------------------------------------------------------------------------------------

def test_wrenches_at_frames_are_balanced_through_the_jacobians(stanford, solo):
    """tau with wrenches w_k at frames = tau without - sum J_k^T w_k, J_k the frame's Jacobian
    (world frame, rows v then omega, as w = [f; n])."""
    cases = [(stanford, ["wrist yaw", "boom"]), (solo, ["FL_FOOT", "HR_FOOT", "base_link"])]
    for robot, frames in cases:
        q, qd, qdd = random_states(robot, 6, seed=8)
        rng = np.random.default_rng(3)
        wrenches = {frame: rng.uniform(-20, 20, (6, 6)) for frame in frames}
        expected = robot.inverse_dynamics(q, qd, qdd)
        for frame, w in wrenches.items():
            J = robot.jacobian(q, frame=frame)
            expected -= np.einsum("kij,ki->kj", J, w)
        got = robot.inverse_dynamics(q, qd, qdd, wrenches=wrenches, threads=2)
        np.testing.assert_allclose(got, expected, atol=1e-10 * np.abs(expected).max())
        # One wrench for every sample is the same as that row repeated.
        one = {frame: w[0] for frame, w in wrenches.items()}
        np.testing.assert_array_equal(
            robot.inverse_dynamics(q, qd, qdd, wrenches=one),
            robot.inverse_dynamics(q, qd, qdd, wrenches={f: np.tile(w, (6, 1))
                                                          for f, w in one.items()}))
    with pytest.raises(denoc.InputError, match=r"frame='hand': no link of that name"):
        stanford.inverse_dynamics(q[0][:6] * 0, np.zeros(6), np.zeros(6),
                                  wrenches={"hand": np.zeros(6)})
    with pytest.raises(denoc.InputError, match=r"wrenches\[.wrist yaw.\]: expected a wrench of shape"):
        stanford.inverse_dynamics(np.zeros(6), np.zeros(6), np.zeros(6),
                                  wrenches={"wrist yaw": np.zeros(3)})


def test_simulate_takes_wrenches_as_tables_and_as_controllers(stanford):
    """A constant push on the wrist, given as a table and as a callable, gives the same motion;
    its power is in the work column, which the energies balance."""
    push = np.array([0.0, 5.0, -3.0, 0.2, 0.0, 0.1])
    table = np.array([np.r_[0.0, push], np.r_[1.0, push]])
    common = dict(t_end=0.5, dt=0.05, rtol=1e-11, atol=1e-11)
    by_table = denoc.simulate(stanford, wrenches={"wrist yaw": table}, **common)
    by_callable = denoc.simulate(stanford, wrenches={"wrist yaw": lambda t, q, qd: push}, **common)
    np.testing.assert_allclose(by_callable.q, by_table.q, atol=1e-9)
    still = denoc.simulate(stanford, **common)
    assert np.abs(by_table.q[-1] - still.q[-1]).max() > 1e-3  # the push moves the arm
    assert np.abs(by_table.work).max() > 1e-3
    energy = by_table.kinetic + by_table.potential - by_table.work + by_table.dissipated
    np.testing.assert_allclose(energy, energy[0], atol=1e-7)
    with pytest.raises(denoc.InputError, match=r"wrenches\[.wrist yaw.\]: the callable returned"):
        denoc.simulate(stanford, wrenches={"wrist yaw": lambda t, q, qd: np.zeros(2)}, **common)


# float32 --------------------------------------------------------------------------------------

def test_float32_arrays_are_converted_exactly_and_computed_in_double(stanford):
    q, qd, qdd = (x.astype(np.float32) for x in random_states(stanford, 8, seed=9))
    tau = stanford.inverse_dynamics(q, qd, qdd)
    assert tau.dtype == np.float64
    np.testing.assert_array_equal(
        tau, stanford.inverse_dynamics(*(x.astype(np.float64) for x in (q, qd, qdd))))
