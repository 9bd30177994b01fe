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
    with pytest.raises(denoc.InputError, match="--tip nowhere"):
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
    with pytest.raises(denoc.InputError, match="--algorithm udu does not compute --quantity"):
        robot.gravity(q, algorithm="udu")
    with pytest.raises(denoc.InputError, match="--frame elbow: no link of that name"):
        robot.pose(q, frame="elbow")


def test_a_floating_base_quaternion_far_from_unit_norm_is_refused():
    robot = denoc.Robot(ROBOTS / "space_manipulator.yaml")
    q = np.tile(robot.initial_q, (3, 1))
    q[1, 3:7] = [0, 0, 0, 2]
    with pytest.raises(denoc.InputError, match="q: sample 1: the base quaternion .* has norm 2"):
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
    with pytest.raises(denoc.ComputeError, match="sample 0: the inertia matrix is not positive "
                                                  "definite"):
        robot.mass_matrix(q)
    with pytest.raises(denoc.ComputeError, match="^the inertia matrix is not positive definite"):
        robot.forward_dynamics(q[0], q[0], q[0])
    with pytest.raises(denoc.ComputeError, match="at t = 0: the inertia matrix"):
        denoc.simulate(robot, 1, 0.1)
