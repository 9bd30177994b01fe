"""Robot dynamics by the decoupled natural orthogonal complement (docs/python.md).

The suite's C++ library from Python: load a robot file as ridim and rfdsim do, compute its
quantities on one sample or on N samples at once (the loop runs in C++ without the GIL), and
simulate it with a torque table or a Python controller in the loop.

    >>> import denoc
    >>> robot = denoc.Robot("robots/stanford.yaml")
    >>> tau = robot.inverse_dynamics(q, qd, qdd)      # q: (n,) or (N, n)

Every method takes one sample (1-D arrays) or N samples (2-D arrays, a row per sample) and
returns arrays of the matching shape, float64: other arrays (float32, int, lists) are converted
to float64 once, exactly, and computed in double precision. A batch runs on every core
(threads=None) or on `threads` threads, with the same numbers to the last bit. A Robot pickles
(by its file's text and options), so process pools, joblib and Dask can send it to workers. Bad
input raises InputError (a ValueError), a failure while computing ComputeError (a RuntimeError),
with the messages of the apps.
"""

from dataclasses import dataclass
from typing import Callable, Optional, Union

import numpy as np

from . import _denoc
from ._denoc import ComputeError, InputError

__version__ = _denoc.__version__
__all__ = ["Robot", "Simulation", "simulate", "InputError", "ComputeError"]


def _rows(values, batch_shape, shape):
    """values (N x width, or width) reshaped to batch_shape + shape."""
    return values.reshape(batch_shape + shape)


def _threads(threads):
    """threads= as the C++ side takes it: 0 for every core."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise InputError(f"threads: {threads!r} is not a number of threads (1 or more, or None "
                         "for every core)")
    return int(threads)


def _unpickle_robot(cls, text, format, name, base, tip, floating_base, inertia_checks, set):
    """A pickled Robot rebuilt from its file's text and options (Robot.__reduce__); the warnings
    its loading gave were given where it was first loaded."""
    robot = cls.__new__(cls)
    _denoc.Robot.__init__(robot, text, format, name, base, tip, floating_base, inertia_checks,
                          set)
    robot._loaded = True
    return robot


class Robot(_denoc.Robot):
    """A robot file loaded as ridim and rfdsim load it (docs/robot-file.md, docs/urdf.md).

    Robot(path, base=None, tip=None, floating_base=False, inertia_checks="strict", set=None)

    path           a robot YAML or a URDF
    base, tip      a URDF's chain: the link it starts from and the link whose frame is the
                   tool frame (ridim --base/--tip)
    floating_base  a URDF's base link moves freely (ridim --floating-base); a YAML says so itself
    inertia_checks "strict" or "warn" (URDF; a YAML has the key inertia_checks)
    set            overrides applied before the file is checked, as ridim --set: a dict
                   {"links[2].mass": 3.5} or a list of "KEY=VALUE" strings

    Attributes: n (joints), nq and nv (coordinates and rates: 7 + n and 6 + n with a floating
    base, the base's first), joint_names, link_names (the links the joints move), frame_names
    (what pose and jacobian take as frame=: "base", the links, and a URDF's links on fixed joints
    such as feet and tool0), chain_ends (a URDF chain that ends in several links side by side and
    so has no tool frame: pose and jacobian then need frame=), name, path, format, floating_base,
    is_chain, gravity_vector (the gravity acceleration [gx, gy, gz] in m/s^2, in the base frame,
    or the world frame with a floating base), warnings (what inertia_checks="warn" accepted).
    Raises InputError naming the file, the line or the key.

    Robot.from_urdf_string(text) and Robot.from_yaml_string(text) load a robot file's text.
    pickle.dumps(robot) holds the file's text and these options, so a worker process rebuilds the
    same robot without the file (its path still names it in messages).
    """

    def __init__(self, path, base=None, tip=None, floating_base=False, inertia_checks="strict",
                 set=None):
        super().__init__(str(path), base, tip, floating_base, inertia_checks, set)
        self._warn()

    def __repr__(self):
        # Only a robot whose loading succeeded has a C++ side to describe (a failed __init__
        # leaves the object behind, in a traceback's frames, without one).
        if not getattr(self, "_loaded", False):
            return "<denoc.Robot, not loaded>"
        return self._repr()

    def __reduce__(self):
        return (_unpickle_robot, (type(self),) + tuple(self._source()))

    def _warn(self):
        self._loaded = True
        import warnings as _warnings
        for warning in self.warnings:
            _warnings.warn(warning, stacklevel=3)

    @classmethod
    def _from_text(cls, text, format, name, base, tip, floating_base, inertia_checks, set):
        robot = cls.__new__(cls)
        _denoc.Robot.__init__(robot, text, format, name, base, tip, floating_base,
                              inertia_checks, set)
        robot._warn()
        return robot

    @classmethod
    def from_urdf_string(cls, text, name="<string>.urdf", base=None, tip=None,
                         floating_base=False, inertia_checks="strict", set=None):
        """A Robot from the text of a URDF (a str), as Robot(path) loads a file; `name` names it
        in messages. The other arguments are Robot's."""
        return cls._from_text(text, "urdf", name, base, tip, floating_base, inertia_checks, set)

    @classmethod
    def from_yaml_string(cls, text, name="<string>.yaml", set=None):
        """A Robot from the text of a robot YAML (a str), as Robot(path) loads a file; `name`
        names it in messages."""
        return cls._from_text(text, "yaml", name, None, None, False, "strict", set)

    def _vectors(self, quantity, algorithm, q, qd=None, qdd=None, friction=True, wrenches=None,
                 threads=None):
        return self._evaluate(quantity, algorithm, friction, None, q, qd, qdd, wrenches,
                              _threads(threads))

    def _matrices(self, quantity, algorithm, q, qd=None, threads=None):
        values = self._evaluate(quantity, algorithm, True, None, q, qd, None, None,
                                _threads(threads))
        return _rows(values, values.shape[:-1], (self.nv, self.nv))

    @property
    def initial_q(self):
        """The robot file's initial q, or zero (a floating base at the origin, unturned)."""
        return self._initial_state(False)

    @property
    def initial_qd(self):
        """The robot file's initial qd, or zero."""
        return self._initial_state(True)

    def trajectory(self):
        """The robot file's trajectory block (Saha 1999, Eqs. (38)-(39): cycloidal, rest to rest),
        sampled as ridim samples it without a trajectory CSV: t (N,), q, qd, qdd (N, n)."""
        return self._trajectory()

    def assemble(self, q):
        """With loops (docs/loops.md): every joint's q (n,) from the actuated joints' q
        (robot.actuated, shape (mobility,)), or (N, n) from (N, mobility), each row assembled from
        the last (the first from the robot file's initial q) with the actuated joints held.
        ComputeError when a loop does not close."""
        return self._assemble(q)

    def inverse_dynamics(self, q, qd, qdd, algorithm="denoc", friction=True, wrenches=None,
                         threads=None):
        """Joint forces tau(q, qd, qdd): Saha (1999) Eq. (30), or Mata et al. (2002) Eq. (17) with
        algorithm="gibbs-appell"; the drives' rotors included and, unless friction=False, their
        friction G^2 B qd + |G| Tc(qd). With a floating base the base's six forces come first.
        wrenches: external wrenches {frame: [fx, fy, fz, nx, ny, nz]} (or (N, 6), one per
        sample) that the environment exerts at each frame's origin (any of frame_names), in the
        base frame (the world frame with a floating base): tau then balances them, tau = M qdd + h
        - sum J^T w. threads: how many threads a batch runs on (None: every core).
        Shapes (nv,) or (N, nv). As ridim --quantity torques (and --wrench).
        With loops (docs/loops.md) q, qd, qdd are the actuated joints' (robot.actuated), rows one
        motion assembled in turn, and tau the actuators' forces, shape (mobility,) or
        (N, mobility)."""
        return self._vectors("torques", algorithm, q, qd, qdd, friction, wrenches, threads)

    def bias(self, q, qd, algorithm="denoc", friction=True, wrenches=None, threads=None):
        """h(q, qd) = tau(q, qd, 0): C(q, qd) qd and gravity, with the drives' friction unless
        friction=False, and wrenches as inverse_dynamics takes them. Shapes (nv,) or (N, nv). As
        ridim --quantity bias."""
        return self._vectors("bias", algorithm, q, qd, None, friction, wrenches, threads)

    def gravity(self, q, algorithm="denoc", threads=None):
        """g(q) = tau(q, 0, 0): the forces that hold the robot still. Shapes (nv,) or (N, nv)."""
        return self._vectors("gravity", algorithm, q, threads=threads)

    def mass_matrix(self, q, algorithm="denoc", threads=None):
        """The generalized inertia matrix I(q), Saha (1999) Eq. (24), or Mata et al. (2002)
        Eq. (19) with algorithm="gibbs-appell". Shapes (nv, nv) or (N, nv, nv)."""
        return self._matrices("mass-matrix", algorithm, q, threads=threads)

    def inverse_mass_matrix(self, q, algorithm="udu", threads=None):
        """I(q)^-1: "udu" (Saha's U D U^T, Eqs. (46)-(54), O(n^2)), "fixman" (Lee et al. 2007,
        O(n^2) by the extended Fixman theorem) or "cholesky". Shapes (nv, nv) or (N, nv, nv).
        Raises ComputeError if I is not positive definite."""
        return self._matrices("inverse-mass-matrix", algorithm, q, threads=threads)

    def coriolis(self, q, qd, threads=None):
        """Saha's matrix of convective inertia terms C(q, qd), Eqs. (25)-(29):
        C(q, qd) qd = h(q, qd) - g(q) without friction. Shapes (nv, nv) or (N, nv, nv)."""
        return self._matrices("coriolis", None, q, qd, threads=threads)

    def udu(self, q, threads=None):
        """The factors of I(q) = U D U^T, Saha (1999) Eqs. (46)-(54): U unit upper triangular,
        shapes (nv, nv) or (N, nv, nv), and the diagonal of D, shapes (nv,) or (N, nv)."""
        values = self._evaluate("udu", None, True, None, q, None, None, None, _threads(threads))
        batch, nv = values.shape[:-1], self.nv
        return (_rows(values[..., :nv * nv], batch, (nv, nv)), values[..., nv * nv:])

    def forward_dynamics(self, q, qd, tau, algorithm="udu", friction=True, threads=None):
        """qdd from I(q) qdd = tau - h(q, qd) - friction(qd): "udu" (Saha's O(n) recursion,
        Section 5.2 and Appendix B), "cholesky", "gibbs-appell" (Mata et al. 2002, Section 4.3) or
        "fixman" (Lee et al. 2007). The inverse of inverse_dynamics with the same friction.
        tau holds the n joint forces (the base unactuated), or with a floating base 6 + n (the
        base's wrench first). Shapes (nv,) or (N, nv)."""
        return self._forward(algorithm, friction, q, qd, tau, _threads(threads))

    def _partials(self, values):
        """A row of two nv x nv matrices (by q, then by qd) as the pair of arrays."""
        batch, nv = values.shape[:-1], self.nv
        return (_rows(values[..., :nv * nv], batch, (nv, nv)),
                _rows(values[..., nv * nv:], batch, (nv, nv)))

    def inverse_dynamics_derivatives(self, q, qd, qdd, friction=True, threads=None):
        """(dtau_dq, dtau_dqd): the partial derivatives of inverse_dynamics(q, qd, qdd), with its
        terms (the drives' rotors and, unless friction=False, their viscous friction; Coulomb
        friction is flat on each side of qd = 0 and adds nothing), by recursions over the tree
        (docs/derivatives.md). dtau/dqdd is mass_matrix(q). With a floating base the q-columns
        are taken along the base's tangent space: column j is d/de tau(integrate(q, e u_j)), the
        base moved by the SE(3) exponential of its six rates in its own frame, as Pinocchio's
        computeRNEADerivatives. Shapes (nv, nv) each, or (N, nv, nv). As ridim --quantity
        torque-derivatives."""
        return self._partials(self._evaluate("torque-derivatives", None, friction, None, q, qd,
                                             qdd, None, _threads(threads)))

    def forward_dynamics_derivatives(self, q, qd, tau, friction=True, threads=None):
        """(dqdd_dq, dqdd_dqd, minv): the partial derivatives of forward_dynamics(q, qd, tau)
        and dqdd/dtau = inverse_mass_matrix(q), as -M^-1 times inverse_dynamics_derivatives at
        the accelerations that tau gives (docs/derivatives.md); friction and tau's widths as
        forward_dynamics takes them. Shapes (nv, nv) each, or (N, nv, nv). As ridim --quantity
        acceleration-derivatives at the torques of its rows."""
        qdd = self._forward("udu", friction, q, qd, tau, _threads(threads))
        dq, dqd = self._partials(self._evaluate("acceleration-derivatives", None, friction, None,
                                                q, qd, qdd, None, _threads(threads)))
        return dq, dqd, self.inverse_mass_matrix(q, threads=threads)

    def pose(self, q, frame=None, threads=None):
        """The 4x4 homogeneous transform of the tool frame, or of the frame `frame` (any of
        frame_names), in the base frame (the world frame with a floating base). Shapes (4, 4) or
        (N, 4, 4)."""
        values = self._evaluate("pose", None, True, frame, q, None, None, None, _threads(threads))
        batch = values.shape[:-1]
        T = np.zeros(batch + (4, 4))
        T[..., :3, :3] = values[..., 3:].reshape(batch + (3, 3))
        T[..., :3, 3] = values[..., :3]
        T[..., 3, 3] = 1
        return T

    def jacobian(self, q, frame=None, threads=None):
        """The geometric Jacobian of the tool frame's origin (or of the frame `frame`'s), in the
        base frame (the world frame with a floating base): rows vx, vy, vz, wx, wy, wz.
        Shapes (6, nv) or (N, 6, nv)."""
        values = self._evaluate("jacobian", None, True, frame, q, None, None, None,
                                _threads(threads))
        return _rows(values, values.shape[:-1], (6, self.nv))

    def frame_velocity(self, q, qd, frame=None, threads=None):
        """The velocity of the frame's origin and its angular velocity, [vx, vy, vz, wx, wy, wz],
        in the world frame (the base frame with a fixed base; Pinocchio's LOCAL_WORLD_ALIGNED):
        jacobian(q, frame) @ qd. The tool frame unless `frame` names one (frame_names).
        Shapes (6,) or (N, 6)."""
        return self._evaluate("frame-velocity", None, True, frame, q, qd, None, None,
                              _threads(threads))

    def frame_acceleration(self, q, qd, qdd, frame=None, threads=None):
        """The time derivatives of frame_velocity: the classical acceleration of the frame's
        origin and the angular acceleration, [ax, ay, az, alpha_x, alpha_y, alpha_z], world frame,
        gravity not in them. Shapes (6,) or (N, 6)."""
        return self._evaluate("frame-acceleration", None, True, frame, q, qd, qdd, None,
                              _threads(threads))

    def com(self, q, qd=None, threads=None):
        """The centre of mass G of the bodies that move (a fixed base left out, a floating base's
        body in), world frame: shape (3,) or (N, 3); with qd, the pair (G, dG/dt). The mass
        counted is robot.moving_mass."""
        values = self._evaluate("com", None, True, None, q, qd, None, None, _threads(threads))
        if qd is None:
            return values[..., 1:4]
        return values[..., 1:4], values[..., 4:7]

    @property
    def moving_mass(self):
        """The mass of the bodies that move, those com() and the centroidal quantities count."""
        return float(self._evaluate("com", None, True, None, self.initial_q, None, None, None,
                                    1)[0])

    def com_jacobian(self, q, threads=None):
        """J_G with dG/dt = J_G @ qd, world frame. Shapes (3, nv) or (N, 3, nv)."""
        values = self._evaluate("com-jacobian", None, True, None, q, None, None, None,
                                _threads(threads))
        return _rows(values, values.shape[:-1], (3, self.nv))

    def centroidal_momentum(self, q, qd, threads=None):
        """h_G = [l; k_G]: the linear momentum and the angular momentum about the centre of mass,
        world axes (Pinocchio's computeCentroidalMomentum). Shapes (6,) or (N, 6)."""
        return self._evaluate("centroidal-momentum", None, True, None, q, qd, None, None,
                              _threads(threads))

    def centroidal_matrix(self, q, threads=None):
        """A_G with h_G = A_G @ qd (Orin's centroidal momentum matrix; Pinocchio's ccrba), rows
        linear then angular. Shapes (6, nv) or (N, 6, nv)."""
        values = self._evaluate("centroidal-matrix", None, True, None, q, None, None, None,
                                _threads(threads))
        return _rows(values, values.shape[:-1], (6, self.nv))

    def reactions(self, q, qd, qdd, wrenches=None, threads=None):
        """The wrench that each joint carries (docs/csv.md): rows f_x, f_y, f_z, n_x, n_y, n_z of
        joint i in frame i, with wrenches as inverse_dynamics takes them. Shapes (n, 6) or
        (N, n, 6)."""
        values = self._evaluate("reactions", None, True, None, q, qd, qdd, wrenches,
                                _threads(threads))
        return _rows(values, values.shape[:-1], (self.n, 6))

    def count_operations(self, quantity, algorithm=None, q=None, qd=None, qdd=None, frame=None):
        """The operations of one evaluation (docs/operation-counts.md), as ridim and rfdsim
        --count-operations: quantity is one of ridim's (torques, mass-matrix, inverse-mass-matrix,
        bias, gravity, pose, jacobian, reactions, coriolis, udu, frame-velocity,
        frame-acceleration, com, com-jacobian, centroidal-momentum, centroidal-matrix,
        torque-derivatives, acceleration-derivatives) or
        "forward-dynamics"; the state defaults to the robot file's initial one; the quantities of
        a frame count the tool frame's, or that of the link `frame` (as pose and jacobian take
        it). Returns a dict with multiplications, additions, divisions, square_roots and
        sines_cosines."""
        q = self.initial_q if q is None else q
        qd = self.initial_qd if qd is None else qd
        qdd = np.zeros(self.nv) if qdd is None else qdd
        return self._count(quantity, algorithm, q, qd, qdd, frame)


@dataclass
class Simulation:
    """The time histories of simulate(), one row per output time, as rfdsim's columns
    (docs/csv.md): t (N,), q (N, nq), qd and qdd (N, nv), tau (N, n), and the energies kinetic,
    potential, work (put in by tau and a wrench) and dissipated (by friction and the ground), each
    (N,); with ground contact also contact (the ground's springs' energy), else None. With loops
    (docs/loops.md) tau holds the actuated joints' forces (N, robot.mobility) and closure the
    loops' closure error (N,), else None.
    stats holds the integrator's steps, rejected, rhs_evaluations, events and wall_seconds."""
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    work: np.ndarray
    dissipated: np.ndarray
    stats: dict
    contact: Optional[np.ndarray] = None
    closure: Optional[np.ndarray] = None


def simulate(robot: Robot, t_end: float, dt: float, q0=None, qd0=None,
             torques: Union[None, np.ndarray, Callable] = None, method: str = "dopri5",
             rtol: float = 1e-9, atol: float = 1e-9, algorithm: str = "udu",
             coulomb: str = "regularised", coulomb_velocity: float = 1e-3,
             step: float = 0.0, min_step: float = 0.0, wrenches=None, contacts=None,
             ground=None) -> Simulation:
    """Integrates the robot's equations of motion from 0 to t_end as rfdsim does (Saha 1999,
    Section 5.2), reporting every dt.

    q0, qd0    the initial state (default: the robot file's, else zero); with loops
               (docs/loops.md) every joint's, q0 a guess assembled with the actuated joints held
               and qd0 made to obey the loops with the actuated rates held
    torques    None (free fall), an array of rows t,tau1..taun (interpolated linearly, held
               beyond its ends), or a callable f(t, q, qd) -> tau of n joint forces (closed-loop
               control; it is called at every evaluation of the dynamics); with loops the
               actuated joints' forces only (robot.actuated, in joint order)
    method     "dopri5", "cash-karp54", "fehlberg78" or "rk4" (fixed step `step`, default dt);
               rtol and atol bound each step's error; an adaptive step's first trial is `step`
               (default dt / 100), and below min_step (default: none) the integration fails
    algorithm  the forward dynamics: "udu", "cholesky", "gibbs-appell" or "fixman"
    coulomb    "regularised" (tanh with coulomb_velocity) or "stick-slip" (dopri5)
    wrenches   external wrenches {frame: table or callable}: rows t,fx,fy,fz,nx,ny,nz
               (interpolated as torques are), or f(t, q, qd) -> [fx, fy, fz, nx, ny, nz]; each
               at the frame's origin (any of robot.frame_names), in the base frame (the world
               frame with a floating base); their power is in the work column
    contacts   frame names (robot.frame_names) whose origins meet the ground, the plane z = 0
               of the world: compliant contact (docs/legged.md), touch-down and lift-off
               located as events on dopri5
    ground     (k, c, mu) or (k, c, mu, v_s): stiffness N/m, damping N s/m, friction
               coefficient, slip velocity m/s (default (1e5, 1e3, 0.8, 0.01)); the normal force
               k d + c d' never pulls, friction is mu N tanh(|v_t| / v_s)

    Returns a Simulation. Raises InputError for bad arguments and ComputeError when the
    integration fails."""
    table, stats = _denoc._simulate(robot, float(t_end), float(dt), q0, qd0, torques, method,
                                    float(rtol), float(atol), algorithm, coulomb,
                                    float(coulomb_velocity), float(step), float(min_step),
                                    wrenches,
                                    contacts if contacts is None or isinstance(contacts, str)
                                    else list(contacts),
                                    ground)
    nq, nv = robot.nq, robot.nv
    loops = bool(robot.loop_names)
    forces = len(robot.actuated) if loops else robot.n
    energies = (5 if contacts else 4) + (1 if loops else 0)
    columns = np.cumsum([1, nq, nv, nv, forces] + [1] * energies)
    t, q, qd, qdd, tau, kinetic, potential, *rest, _ = np.split(table, columns, axis=1)
    contact = rest.pop(0)[:, 0] if contacts else None
    closure = rest.pop()[:, 0] if loops else None
    work, dissipated = rest
    return Simulation(t[:, 0], q, qd, qdd, tau, kinetic[:, 0], potential[:, 0], work[:, 0],
                      dissipated[:, 0], stats, contact, closure)
