"""denoc.Robot's quantities: the same numbers as ridim to the last bit (the same code runs), the
shapes of single and batch calls, and the identities between them."""
import warnings

import numpy as np
import pytest

import denoc
from conftest import RFDSIM, RIDIM, ROBOTS, random_states, read_csv, run, state_header, write_csv

# Fixed and floating bases, YAML and URDF, chains and trees: (file, Robot's keywords, ridim's).
# The mechanisms with closed loops take the actuated joints' states: test_loops.py.
CASES = [(path.name, {}, []) for path in sorted(ROBOTS.iterdir())
         if path.name not in ("solo12.urdf", "simple_humanoid.urdf")
         and "\nloops:" not in path.read_text(encoding="utf-8")]
CASES += [(name, {"floating_base": True}, ["--floating-base"])
          for name in ("solo12.urdf", "simple_humanoid.urdf")]

QUANTITIES = {  # ridim's --quantity, the method, its arguments, how to flatten its result
    "torques": ("inverse_dynamics", 3),
    "bias": ("bias", 2),
    "gravity": ("gravity", 1),
    "mass-matrix": ("mass_matrix", 1),
    "inverse-mass-matrix": ("inverse_mass_matrix", 1),
    "coriolis": ("coriolis", 2),
    "jacobian": ("jacobian", 1),
    "reactions": ("reactions", 3),
    "frame-velocity": ("frame_velocity", 2),
    "frame-acceleration": ("frame_acceleration", 3),
    "com-jacobian": ("com_jacobian", 1),
    "centroidal-momentum": ("centroidal_momentum", 2),
    "centroidal-matrix": ("centroidal_matrix", 1),
}
OF_A_FRAME = ("jacobian", "frame-velocity", "frame-acceleration")


def ridim_rows(tmp_path, path, args, quantity, q, qd, qdd, robot):
    trajectory = tmp_path / "trajectory.csv"
    t = np.arange(len(q)) * 0.01
    write_csv(trajectory, state_header(robot), np.column_stack([t, q, qd, qdd]))
    out = run([RIDIM, path, trajectory, "--quantity", quantity, *args]).stdout
    return read_csv(out)[1][:, 1:]


@pytest.mark.parametrize("name,keywords,args", CASES, ids=[c[0] for c in CASES])
def test_every_quantity_is_ridims_to_the_last_bit(tmp_path, name, keywords, args):
    with warnings.catch_warnings():  # puma560.yaml's inertia_checks: warn
        warnings.simplefilter("ignore")
        robot = denoc.Robot(ROBOTS / name, **keywords)
    frame = [] if robot.is_chain else ["--frame", robot.link_names[-1]]
    q, qd, qdd = random_states(robot, 7)
    for quantity, (method, arity) in QUANTITIES.items():
        expected = ridim_rows(tmp_path, ROBOTS / name,
                              args + (frame if quantity in OF_A_FRAME else []),
                              quantity, q, qd, qdd, robot)
        call = getattr(robot, method)
        inputs = (q, qd, qdd)[:arity]
        if quantity in OF_A_FRAME and not robot.is_chain:
            got = call(*inputs, frame=frame[1])
        else:
            got = call(*inputs)
        np.testing.assert_array_equal(got.reshape(len(q), -1), expected, err_msg=quantity)
    com, com_velocity = robot.com(q, qd)
    mass = np.full((len(q), 1), robot.moving_mass)
    np.testing.assert_array_equal(np.hstack([mass, com, com_velocity]),
                                  ridim_rows(tmp_path, ROBOTS / name, args, "com", q, qd, qdd,
                                             robot), err_msg="com")


def test_pose_and_udu_are_ridims(tmp_path):
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    q, qd, qdd = random_states(robot, 5)
    pose = ridim_rows(tmp_path, ROBOTS / "stanford.yaml", [], "pose", q, qd, qdd, robot)
    T = robot.pose(q)
    np.testing.assert_array_equal(T[:, :3, 3], pose[:, :3])
    np.testing.assert_array_equal(T[:, :3, :3].reshape(5, 9), pose[:, 3:])
    np.testing.assert_array_equal(T[:, 3], np.tile([0, 0, 0, 1], (5, 1)))
    udu = ridim_rows(tmp_path, ROBOTS / "stanford.yaml", [], "udu", q, qd, qdd, robot)
    U, d = robot.udu(q)
    np.testing.assert_array_equal(U.reshape(5, -1), udu[:, :36])
    np.testing.assert_array_equal(d, udu[:, 36:])


@pytest.mark.parametrize("algorithm", ["gibbs-appell"])
def test_the_other_route_is_ridims(tmp_path, algorithm):
    robot = denoc.Robot(ROBOTS / "puma560.yaml")
    q, qd, qdd = random_states(robot, 4)
    expected = ridim_rows(tmp_path, ROBOTS / "puma560.yaml", ["--algorithm", algorithm], "torques",
                          q, qd, qdd, robot)
    np.testing.assert_array_equal(robot.inverse_dynamics(q, qd, qdd, algorithm=algorithm), expected)


def test_set_and_no_friction_are_ridims(tmp_path):
    path = ROBOTS / "planar3_drives.yaml"
    robot = denoc.Robot(path, set={"links[1].mass": 2.5, "links[0].a": "0.45"})
    same = denoc.Robot(path, set=["links[1].mass=2.5", "links[0].a=0.45"])
    q, qd, qdd = random_states(robot, 4)
    expected = ridim_rows(tmp_path, path, ["--set", "links[1].mass=2.5", "--set", "links[0].a=0.45",
                                           "--no-friction"], "torques", q, qd, qdd, robot)
    np.testing.assert_array_equal(robot.inverse_dynamics(q, qd, qdd, friction=False), expected)
    np.testing.assert_array_equal(same.inverse_dynamics(q, qd, qdd, friction=False), expected)
    assert not np.array_equal(robot.inverse_dynamics(q, qd, qdd), expected)  # the drives' friction


def test_one_sample_is_a_row_of_the_batch():
    robot = denoc.Robot(ROBOTS / "solo12.urdf", floating_base=True)
    q, qd, qdd = random_states(robot, 3)
    assert robot.nq == 19 and robot.nv == 18 and robot.n == 12
    shapes = {
        "inverse_dynamics": ((q, qd, qdd), (18,)),
        "mass_matrix": ((q,), (18, 18)),
        "inverse_mass_matrix": ((q,), (18, 18)),
        "coriolis": ((q, qd), (18, 18)),
        "reactions": ((q, qd, qdd), (12, 6)),
    }
    for method, (inputs, shape) in shapes.items():
        batch = getattr(robot, method)(*inputs)
        assert batch.shape == (3,) + shape, method
        for k in range(3):
            np.testing.assert_array_equal(getattr(robot, method)(*(x[k] for x in inputs)), batch[k])
    pose = robot.pose(q, frame="FL_UPPER_LEG")
    assert pose.shape == (3, 4, 4)
    assert robot.jacobian(q[0], frame="FL_UPPER_LEG").shape == (6, 18)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_tau_is_M_qdd_plus_h_and_forward_dynamics_inverts_it():
    for name, keywords, _ in CASES:
        robot = denoc.Robot(ROBOTS / name, **keywords)
        q, qd, qdd = random_states(robot, 6, seed=3)
        tau = robot.inverse_dynamics(q, qd, qdd)
        M, h = robot.mass_matrix(q), robot.bias(q, qd)
        scale = np.abs(tau).max()
        np.testing.assert_allclose(np.einsum("kij,kj->ki", M, qdd) + h, tau, atol=1e-12 * scale)
        C, g = robot.coriolis(q, qd), robot.gravity(q)
        np.testing.assert_allclose(np.einsum("kij,kj->ki", C, qd),
                                   robot.bias(q, qd, friction=False) - g, atol=1e-12 * scale)
        Minv = robot.inverse_mass_matrix(q)
        np.testing.assert_allclose(np.einsum("kij,kjl->kil", M, Minv),
                                   np.broadcast_to(np.eye(robot.nv), M.shape), atol=1e-9)
        for algorithm in ["udu", "cholesky"]:
            np.testing.assert_allclose(robot.forward_dynamics(q, qd, tau, algorithm), qdd,
                                       rtol=0, atol=1e-9 * np.abs(qdd).max(), err_msg=name)
        U, d = robot.udu(q)
        np.testing.assert_allclose(np.einsum("kij,kj,klj->kil", U, d, U), M, atol=1e-12 * np.abs(M).max())


def test_inputs_in_any_layout_give_the_same_numbers():
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    q, qd, qdd = random_states(robot, 5)
    expected = robot.inverse_dynamics(q, qd, qdd)
    np.testing.assert_array_equal(
        robot.inverse_dynamics(np.asfortranarray(q), qd.tolist(), tuple(map(tuple, qdd))), expected)
    np.testing.assert_array_equal(robot.inverse_dynamics(q[::-1][::-1], qd, qdd), expected)
    wide = np.zeros((5, 12))
    wide[:, ::2] = q
    np.testing.assert_array_equal(robot.inverse_dynamics(wide[:, ::2], qd, qdd), expected)


def test_threads_share_a_robot():
    from concurrent.futures import ThreadPoolExecutor
    robot = denoc.Robot(ROBOTS / "puma560.yaml")
    q, qd, qdd = random_states(robot, 2000)
    expected = robot.inverse_dynamics(q, qd, qdd)
    masses = robot.mass_matrix(q)
    with ThreadPoolExecutor(4) as pool:
        jobs = [pool.submit(robot.inverse_dynamics, q, qd, qdd) if k % 2 == 0 else
                pool.submit(robot.mass_matrix, q) for k in range(16)]
        for k, job in enumerate(jobs):
            np.testing.assert_array_equal(job.result(), expected if k % 2 == 0 else masses)


def count_row(args):
    """The counts that --count-operations prints, by column name."""
    header, row = run(args).stdout.splitlines()
    return dict(zip(header.split(","), row.split(",")))


def test_count_operations_is_ridims_and_rfdsims(tmp_path):
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    q, qd, qdd = random_states(robot, 1)
    trajectory = tmp_path / "one.csv"
    write_csv(trajectory, state_header(robot), np.column_stack([[0.0], q, qd, qdd]))
    for quantity, algorithm in [("torques", "denoc"), ("mass-matrix", "gibbs-appell"),
                                ("inverse-mass-matrix", "fixman")]:
        expected = count_row([RIDIM, ROBOTS / "stanford.yaml", trajectory, "--quantity", quantity,
                              "--algorithm", algorithm, "--count-operations"])
        counts = robot.count_operations(quantity, algorithm, q[0], qd[0], qdd[0])
        assert {k: str(v) for k, v in counts.items()} == expected
    # a frame's quantity counted for the frame chosen, as ridim --frame counts it
    expected = count_row([RIDIM, ROBOTS / "stanford.yaml", trajectory, "--quantity", "jacobian",
                          "--frame", "shoulder", "--count-operations"])
    counts = robot.count_operations("jacobian", None, q[0], qd[0], qdd[0], frame="shoulder")
    assert {k: str(v) for k, v in counts.items()} == expected
    tool = robot.count_operations("jacobian", None, q[0], qd[0], qdd[0])
    assert counts["multiplications"] < tool["multiplications"]
    expected = count_row([RFDSIM, ROBOTS / "stanford.yaml", "--free-fall", "--count-operations"])
    counts = robot.count_operations("forward-dynamics")
    assert {k: str(v) for k, v in counts.items()} == expected
    assert counts["multiplications"] > 0 and counts["divisions"] > 0


def test_attributes_and_docstrings():
    robot = denoc.Robot(ROBOTS / "kuka_lbr_iiwa14.urdf")
    assert robot.format == "urdf" and robot.n == 7 and robot.nq == robot.nv == 7
    assert robot.joint_names[0] == "iiwa_joint_1"
    assert robot.is_chain and not robot.floating_base
    np.testing.assert_array_equal(robot.initial_q, np.zeros(7))
    for name in ["inverse_dynamics", "bias", "gravity", "mass_matrix", "inverse_mass_matrix",
                 "coriolis", "udu", "forward_dynamics", "pose", "jacobian", "reactions",
                 "count_operations"]:
        assert len(getattr(denoc.Robot, name).__doc__) > 60, name
    assert "Eq. (30)" in denoc.Robot.inverse_dynamics.__doc__
    assert "Section 5.2" in denoc.simulate.__doc__


@pytest.mark.parametrize("name,keywords", [("stanford.yaml", {}),
                                           ("solo12.urdf", {"floating_base": True})])
def test_world_frame_quantities_agree_with_their_jacobians(name, keywords):
    robot = denoc.Robot(ROBOTS / name, **keywords)
    q, qd, _ = random_states(robot, 4)
    frame = robot.frame_names[-1]
    for k in range(len(q)):
        np.testing.assert_allclose(robot.frame_velocity(q[k], qd[k], frame=frame),
                                   robot.jacobian(q[k], frame=frame) @ qd[k], rtol=0, atol=1e-12)
        _, com_velocity = robot.com(q[k], qd[k])
        np.testing.assert_allclose(robot.com_jacobian(q[k]) @ qd[k], com_velocity, rtol=0,
                                   atol=1e-12)
        np.testing.assert_allclose(robot.centroidal_matrix(q[k]) @ qd[k],
                                   robot.centroidal_momentum(q[k], qd[k]), rtol=0, atol=1e-11)
    assert robot.com(q).shape == (len(q), 3)
    assert robot.com_jacobian(q).shape == (len(q), 3, robot.nv)
    assert robot.centroidal_matrix(q).shape == (len(q), 6, robot.nv)
    np.testing.assert_allclose(robot.centroidal_momentum(q, qd)[:, :3],
                               robot.moving_mass * robot.com(q, qd)[1], rtol=1e-13, atol=1e-13)
