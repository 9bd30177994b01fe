# Type stubs of the package denoc (docs/python.md), for editors' completion and type checkers.
from dataclasses import dataclass
from os import PathLike
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

ArrayLike = npt.ArrayLike
Controller = Callable[[float, np.ndarray, np.ndarray], ArrayLike]

class InputError(ValueError): ...
class ComputeError(RuntimeError): ...

class Robot:
    n: int
    nq: int
    nv: int
    name: str
    path: str
    format: str
    floating_base: bool
    is_chain: bool
    joint_names: List[str]
    link_names: List[str]
    frame_names: List[str]
    chain_ends: List[str]
    gravity_vector: List[float]
    warnings: List[str]
    mobility: int
    actuated: List[int]
    loop_names: List[str]
    def __init__(
        self,
        path: Union[str, PathLike],
        base: Optional[str] = ...,
        tip: Optional[str] = ...,
        floating_base: bool = ...,
        inertia_checks: str = ...,
        set: Union[None, Mapping[str, Union[float, str]], Sequence[str]] = ...,
    ) -> None: ...
    @classmethod
    def from_urdf_string(
        cls,
        text: str,
        name: str = ...,
        base: Optional[str] = ...,
        tip: Optional[str] = ...,
        floating_base: bool = ...,
        inertia_checks: str = ...,
        set: Union[None, Mapping[str, Union[float, str]], Sequence[str]] = ...,
    ) -> "Robot": ...
    @classmethod
    def from_yaml_string(
        cls,
        text: str,
        name: str = ...,
        set: Union[None, Mapping[str, Union[float, str]], Sequence[str]] = ...,
    ) -> "Robot": ...
    @property
    def initial_q(self) -> np.ndarray: ...
    @property
    def initial_qd(self) -> np.ndarray: ...
    def trajectory(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def assemble(self, q: ArrayLike) -> np.ndarray: ...
    def inverse_dynamics(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        qdd: ArrayLike,
        algorithm: str = ...,
        friction: bool = ...,
        wrenches: Optional[Mapping[str, ArrayLike]] = ...,
        threads: Optional[int] = ...,
    ) -> np.ndarray: ...
    def bias(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        algorithm: str = ...,
        friction: bool = ...,
        wrenches: Optional[Mapping[str, ArrayLike]] = ...,
        threads: Optional[int] = ...,
    ) -> np.ndarray: ...
    def gravity(self, q: ArrayLike, algorithm: str = ..., threads: Optional[int] = ...) -> np.ndarray: ...
    def mass_matrix(self, q: ArrayLike, algorithm: str = ..., threads: Optional[int] = ...) -> np.ndarray: ...
    def inverse_mass_matrix(
        self, q: ArrayLike, algorithm: str = ..., threads: Optional[int] = ...
    ) -> np.ndarray: ...
    def coriolis(self, q: ArrayLike, qd: ArrayLike, threads: Optional[int] = ...) -> np.ndarray: ...
    def udu(self, q: ArrayLike, threads: Optional[int] = ...) -> Tuple[np.ndarray, np.ndarray]: ...
    def forward_dynamics(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        tau: ArrayLike,
        algorithm: str = ...,
        friction: bool = ...,
        threads: Optional[int] = ...,
    ) -> np.ndarray: ...
    def inverse_dynamics_derivatives(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        qdd: ArrayLike,
        friction: bool = ...,
        threads: Optional[int] = ...,
    ) -> Tuple[np.ndarray, np.ndarray]: ...
    def forward_dynamics_derivatives(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        tau: ArrayLike,
        friction: bool = ...,
        threads: Optional[int] = ...,
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def pose(self, q: ArrayLike, frame: Optional[str] = ..., threads: Optional[int] = ...) -> np.ndarray: ...
    def jacobian(
        self, q: ArrayLike, frame: Optional[str] = ..., threads: Optional[int] = ...
    ) -> np.ndarray: ...
    def frame_velocity(
        self, q: ArrayLike, qd: ArrayLike, frame: Optional[str] = ..., threads: Optional[int] = ...
    ) -> np.ndarray: ...
    def frame_acceleration(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        qdd: ArrayLike,
        frame: Optional[str] = ...,
        threads: Optional[int] = ...,
    ) -> np.ndarray: ...
    @overload
    def com(self, q: ArrayLike, qd: None = ..., threads: Optional[int] = ...) -> np.ndarray: ...
    @overload
    def com(
        self, q: ArrayLike, qd: ArrayLike, threads: Optional[int] = ...
    ) -> Tuple[np.ndarray, np.ndarray]: ...
    @property
    def moving_mass(self) -> float: ...
    def com_jacobian(self, q: ArrayLike, threads: Optional[int] = ...) -> np.ndarray: ...
    def centroidal_momentum(
        self, q: ArrayLike, qd: ArrayLike, threads: Optional[int] = ...
    ) -> np.ndarray: ...
    def centroidal_matrix(self, q: ArrayLike, threads: Optional[int] = ...) -> np.ndarray: ...
    def reactions(
        self,
        q: ArrayLike,
        qd: ArrayLike,
        qdd: ArrayLike,
        wrenches: Optional[Mapping[str, ArrayLike]] = ...,
        threads: Optional[int] = ...,
    ) -> np.ndarray: ...
    def count_operations(
        self,
        quantity: str,
        algorithm: Optional[str] = ...,
        q: Optional[ArrayLike] = ...,
        qd: Optional[ArrayLike] = ...,
        qdd: Optional[ArrayLike] = ...,
        frame: Optional[str] = ...,
    ) -> Dict[str, Union[int, str]]: ...

@dataclass
class Simulation:
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    work: np.ndarray
    dissipated: np.ndarray
    stats: Dict[str, float]
    contact: Optional[np.ndarray]
    closure: Optional[np.ndarray]

def simulate(
    robot: Robot,
    t_end: float,
    dt: float,
    q0: Optional[ArrayLike] = ...,
    qd0: Optional[ArrayLike] = ...,
    torques: Union[None, ArrayLike, Controller] = ...,
    method: str = ...,
    rtol: float = ...,
    atol: float = ...,
    algorithm: str = ...,
    coulomb: str = ...,
    coulomb_velocity: float = ...,
    step: float = ...,
    min_step: float = ...,
    wrenches: Optional[Mapping[str, Union[ArrayLike, Controller]]] = ...,
    contacts: Optional[Sequence[str]] = ...,
    ground: Optional[Sequence[float]] = ...,
) -> Simulation: ...
