"""Forward dynamics on a floating base from the n joint forces or the 6 + n generalized forces
(docs/floating-base.md): both widths, one sample or a batch, give the same accelerations, and the
inverse dynamics of those accelerations gives the forces back. Run under AddressSanitizer too
(scripts/check): a tau of n entries was once read as 6 + n, past the end of its array."""
import numpy as np
import pytest

import denoc
from conftest import ROBOTS, random_states


@pytest.fixture(scope="module")
def solo():
    return denoc.Robot(ROBOTS / "solo12.urdf", floating_base=True)


def test_joint_forces_alone_leave_the_base_unactuated(solo):
    q, qd, _ = random_states(solo, 5, seed=3)
    tau = np.random.default_rng(4).uniform(-2, 2, (5, solo.n))
    wrench_and_tau = np.hstack([np.zeros((5, 6)), tau])
    batch = solo.forward_dynamics(q, qd, tau)
    assert batch.shape == (5, solo.nv)
    np.testing.assert_array_equal(batch, solo.forward_dynamics(q, qd, wrench_and_tau))
    for k in range(5):
        np.testing.assert_array_equal(solo.forward_dynamics(q[k], qd[k], tau[k]), batch[k])
        np.testing.assert_array_equal(
            solo.forward_dynamics(q[k], qd[k], wrench_and_tau[k]), batch[k])
    # The inverse dynamics of the result: no wrench on the base, the joints' forces back.
    forces = solo.inverse_dynamics(q, qd, batch)
    np.testing.assert_allclose(forces[:, :6], 0, atol=1e-10)
    np.testing.assert_allclose(forces[:, 6:], tau, atol=1e-10)


def test_zero_forces_give_the_same_accelerations_every_time(solo):
    q, qd, _ = random_states(solo, 3, seed=7)
    first = solo.forward_dynamics(q, qd, np.zeros((3, solo.n)))
    for _ in range(5):
        np.testing.assert_array_equal(solo.forward_dynamics(q, qd, np.zeros((3, solo.n))), first)


def test_other_widths_name_both_accepted_ones(solo):
    q, qd, _ = random_states(solo, 2)
    for width in (solo.n - 1, solo.n + 1, solo.nv + 1):
        with pytest.raises(denoc.InputError,
                           match=r"tau: shape .*; expected \(12,\) or \(N, 12\) for the joints' "
                                 r"forces, or \(18,\) or \(N, 18\) for the base's wrench"):
            solo.forward_dynamics(q, qd, np.zeros((2, width)))
        with pytest.raises(denoc.InputError, match=r"tau: shape \(%d,\); expected" % width):
            solo.forward_dynamics(q[0], qd[0], np.zeros(width))
