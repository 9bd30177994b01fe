"""InputError and ComputeError: the apps' messages, naming the file, the key, the argument."""
import numpy as np
import pytest

import denoc
from conftest import ROBOTS


def test_exceptions_are_value_and_runtime_errors():
    assert issubclass(denoc.InputError, ValueError)
    assert issubclass(denoc.ComputeError, RuntimeError)


def test_a_bad_robot_file_names_the_file_the_line_and_the_key(tmp_path):
    with pytest.raises(denoc.InputError, match="missing.yaml: cannot open robot file"):
        denoc.Robot(tmp_path / "missing.yaml")
    text = (ROBOTS / "planar3.yaml").read_text().replace("    mass: 3\n", "    mass: -3\n")
    (tmp_path / "bad.yaml").write_text(text)
    with pytest.raises(denoc.InputError, match=r"bad.yaml: links\[1\].mass: must be positive \(line \d+\)"):
        denoc.Robot(tmp_path / "bad.yaml")
    with pytest.raises(denoc.InputError, match=r"links\[7\]"):
        denoc.Robot(ROBOTS / "planar3.yaml", set={"links[7].mass": 1})
    with pytest.raises(denoc.InputError, match="inertia_checks: 'loose' is not one of strict, warn"):
        denoc.Robot(ROBOTS / "panda.urdf", inertia_checks="loose")
    with pytest.raises(denoc.InputError, match="tip='nowhere': no link of that name"):
        denoc.Robot(ROBOTS / "panda.urdf", tip="nowhere")


def test_wrong_shapes_and_values_name_the_argument():
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    q, qd = np.zeros(6), np.zeros(6)
    with pytest.raises(denoc.InputError, match=r"qd: shape \(5,\); expected \(6,\) for one sample"):
        robot.bias(q, np.zeros(5))
    with pytest.raises(denoc.InputError, match=r"qd: shape \(3, 6\) does not match q's \(4, 6\)"):
        robot.bias(np.zeros((4, 6)), np.zeros((3, 6)))
    with pytest.raises(denoc.InputError, match=r"qd: shape \(6,\) does not match q's \(4, 6\)"):
        robot.bias(np.zeros((4, 6)), qd)
    with pytest.raises(denoc.InputError, match=r"q: shape \(2, 3, 6\)"):
        robot.gravity(np.zeros((2, 3, 6)))
    bad = np.zeros((4, 6))
    bad[2, 5] = np.inf
    with pytest.raises(denoc.InputError, match="qd: sample 2, entry 5 is inf, not a finite number"):
        robot.bias(np.zeros((4, 6)), bad)
    with pytest.raises(denoc.InputError, match="algorithm: 'rnea' is not one of denoc"):
        robot.gravity(q, algorithm="rnea")
    with pytest.raises(denoc.InputError,
                       match=r"algorithm='udu' does not compute gravity\(\); the routes for it"):
        robot.gravity(q, algorithm="udu")
    with pytest.raises(denoc.InputError, match="frame='elbow': no link of that name"):
        robot.pose(q, frame="elbow")


def test_a_floating_base_quaternion_far_from_unit_norm_is_refused():
    robot = denoc.Robot(ROBOTS / "space_manipulator.yaml")
    q = np.tile(robot.initial_q, (3, 1))
    q[1, 3:7] = [0, 0, 0, 2]
    with pytest.raises(denoc.InputError, match="q: sample 1: entries 3-6: the base quaternion .* has norm 2"):
        robot.gravity(q)
    q[1, 3:7] = [0, 0, 0, 1 + 1e-9]  # within 1e-6: normalised, as ridim does
    np.testing.assert_array_equal(robot.gravity(q)[1], robot.gravity(q[0]))


def test_a_singular_inertia_matrix_is_a_compute_error(tmp_path):
    text = (ROBOTS / "planar3.yaml").read_text()
    text = text.replace("    mass: 2\n", "    mass: 0\n").replace(
        "inertia: {yy: 0.006666666666666667, zz: 0.006666666666666667}", "inertia: {}")
    (tmp_path / "singular.yaml").write_text("inertia_checks: warn\n" + text)
    with pytest.warns(UserWarning, match="accepted by inertia_checks: warn"):
        robot = denoc.Robot(tmp_path / "singular.yaml")
    q = np.zeros((3, 3))
    # The inertia matrix needs no factorisation: it is computed (singular) as under strict checks.
    assert np.linalg.matrix_rank(robot.mass_matrix(q)[0]) == 2
    with pytest.raises(denoc.ComputeError, match="sample 0: the inertia matrix is not positive "
                                                  "definite"):
        robot.inverse_mass_matrix(q)
    with pytest.raises(denoc.ComputeError, match="^the inertia matrix is not positive definite"):
        robot.forward_dynamics(q[0], q[0], q[0])
    with pytest.raises(denoc.ComputeError, match="at t = 0: the inertia matrix"):
        denoc.simulate(robot, 1, 0.1)


def messages_of(calls):
    """The message of the error each call raises (each must raise InputError or ComputeError)."""
    found = []
    for call in calls:
        with pytest.raises((denoc.InputError, denoc.ComputeError)) as raised:
            call()
        found.append(str(raised.value))
    return found


def test_messages_name_keyword_arguments_never_command_line_options(tmp_path):
    """The library states facts; the module words the remedy in Python's terms (frame=, tip=,
    algorithm=, set=, inertia_checks=, floating_base=), never as the apps' options."""
    stanford = denoc.Robot(ROBOTS / "stanford.yaml")
    solo = denoc.Robot(ROBOTS / "solo12.urdf")
    q6, q12 = np.zeros(6), np.zeros(12)
    warned = (ROBOTS / "planar3.yaml").read_text().replace("    mass: 2\n", "    mass: 0\n").replace(
        "inertia: {yy: 0.006666666666666667, zz: 0.006666666666666667}", "inertia: {}")
    (tmp_path / "warned.yaml").write_text("inertia_checks: warn\n" + warned)  # M singular
    urdf = (ROBOTS / "panda.urdf").read_text()
    messages = messages_of([
        lambda: denoc.Robot(ROBOTS / "panda.urdf", tip="nowhere"),
        lambda: denoc.Robot(ROBOTS / "panda.urdf", base="nowhere"),
        lambda: denoc.Robot(ROBOTS / "panda.urdf", base="panda_link5", tip="panda_link2"),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", tip="link3"),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", floating_base=True),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", inertia_checks="warn"),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", set={"links[9].mass": 1}),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", set=["links[1].mass=heavy"]),
        lambda: denoc.Robot(ROBOTS / "stanford.yaml", set=["mass"]),
        lambda: denoc.Robot(ROBOTS / "panda.urdf", set={"links[1].colour": 1}),
        lambda: denoc.Robot.from_urdf_string(urdf, tip="nowhere"),
        lambda: stanford.gravity(q6, algorithm="udu"),
        lambda: stanford.pose(q6, frame="elbow"),
        lambda: solo.pose(q12),
        lambda: solo.jacobian(q12),
        lambda: solo.inverse_mass_matrix(q12, algorithm="fixman"),
        lambda: denoc.Robot(ROBOTS / "space_manipulator.yaml").mass_matrix(
            np.r_[0, 0, 0, 0, 0, 0, 1, np.zeros(3)], algorithm="gibbs-appell"),
        lambda: denoc.simulate(stanford, 1, 0.1, rtol=1e-30, atol=1e-30, min_step=0.1),
        lambda: denoc.Robot(tmp_path / "warned.yaml").inverse_mass_matrix(np.zeros(3)),
    ])
    for message in messages:
        assert "--" not in message, message
    assert "tip='nowhere'" in messages[0]
    assert "frame=" in messages[13]
    assert "set= key 'links[9].mass'" in messages[6]
    assert "algorithm='fixman'" in messages[15]
    assert "rtol=" in messages[17]
    broken = """<robot name="r"><link name="base"/>
      <joint name="j" type="revolute"><parent link="base"/><child link="l"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <link name="l"><inertial><mass value="1"/>
        <inertia ixx="0.01" iyy="0.01" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
    </robot>"""
    with pytest.raises(denoc.InputError, match="triangle inequality"):
        denoc.Robot.from_urdf_string(broken)
    with pytest.warns(UserWarning) as caught:
        denoc.Robot.from_urdf_string(broken, inertia_checks="warn")
        denoc.Robot(tmp_path / "warned.yaml")
    assert "accepted by inertia_checks='warn'" in str(caught[0].message)
    for warning in caught:
        assert "--" not in str(warning.message), warning.message


def test_repr_attributes_and_robots_from_text():
    robot = denoc.Robot(ROBOTS / "stanford.yaml")
    assert repr(robot) == ("<denoc.Robot 'Stanford arm': n=6, nq=6, nv=6, chain, fixed base, "
                           f"robot YAML {ROBOTS / 'stanford.yaml'}>")
    assert robot.gravity_vector == [0, 0, -9.81]
    assert robot.gravity(np.zeros(6)).shape == (6,)  # a method, not shadowed by the attribute
    text = (ROBOTS / "stanford.yaml").read_text()
    from_text = denoc.Robot.from_yaml_string(text)
    q = np.linspace(0.1, 0.6, 6)
    np.testing.assert_array_equal(from_text.mass_matrix(q), robot.mass_matrix(q))
    panda = (ROBOTS / "panda.urdf").read_text()
    with pytest.raises(denoc.InputError, match=r"^arm.urdf:"):
        denoc.Robot.from_urdf_string(panda.replace("<robot", "<robt", 1), name="arm.urdf")
    assert repr(denoc.Robot.from_urdf_string(panda)).endswith("URDF <string>.urdf>")
