"""The module imported from an installed prefix (cmake --install), not from the build tree: the
package in PREFIX/lib/python3/dist-packages/denoc with its stubs."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROBOTS


def test_import_from_an_installed_prefix(tmp_path):
    build = os.environ["DENOC_BUILD"]
    cmake = os.environ.get("DENOC_CMAKE", "cmake")
    subprocess.run([cmake, "--install", build, "--prefix", tmp_path / "prefix"], check=True,
                   capture_output=True)
    package = tmp_path / "prefix" / "lib" / "python3" / "dist-packages" / "denoc"
    for name in ["__init__.py", "__init__.pyi", "py.typed"]:
        assert (package / name).is_file(), name
    assert any(p.name.startswith("_denoc") and p.suffix == ".so" for p in package.iterdir())
    script = (
        "import denoc, numpy as np\n"
        f"robot = denoc.Robot({str(ROBOTS / 'stanford.yaml')!r})\n"
        "print(denoc.__file__)\n"
        "print(repr(robot.gravity(np.full(6, 0.5))[1]))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(package.parent)
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True,
                         text=True, cwd=tmp_path).stdout.splitlines()
    assert Path(out[0]).resolve().parent == package.resolve()
    import denoc  # the build tree's, for comparison
    import numpy as np
    assert out[1] == repr(denoc.Robot(ROBOTS / "stanford.yaml").gravity(np.full(6, 0.5))[1])


def test_a_venv_interpreter_chosen_for_the_build(tmp_path):
    """docs/python.md, "Another Python": a venv made with --system-site-packages (Debian's numpy)
    and CMake configured with -DPython3_EXECUTABLE=VENV/bin/python builds the module for that
    interpreter; the build tree's module, built for the same CPython, imports there."""
    build = Path(os.environ["DENOC_BUILD"])
    cmake = os.environ.get("DENOC_CMAKE", "cmake")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    venv], check=True, capture_output=True)
    python = venv / "bin" / "python"
    source = Path(__file__).resolve().parents[2]
    configured = subprocess.run([cmake, "-S", source, "-B", tmp_path / "build",
                                 f"-DPython3_EXECUTABLE={python}"],
                                check=True, capture_output=True, text=True).stdout
    assert f"Python module denoc: ON (for {python})" in configured, configured
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(build / "python")
    script = ("import sys, denoc\n"
              "print(sys.prefix)\n"
              f"print(denoc.Robot({str(ROBOTS / 'planar3.yaml')!r}).n)\n")
    out = subprocess.run([python, "-c", script], env=env, check=True, capture_output=True,
                         text=True, cwd=tmp_path).stdout.splitlines()
    assert Path(out[0]) == venv
    assert out[1] == "3"


def test_pip_install_into_a_venv(tmp_path):
    """docs/python.md, "pip install": pip install . with Debian's pip and setuptools
    (--no-build-isolation: offline) into a venv made with --system-site-packages; setup.py brings
    DENOC_CMAKE_BUILD (the tests' build, configured for this CPython) up to date and packages its
    module. The venv imports it from its own site-packages, without PYTHONPATH."""
    build = Path(os.environ["DENOC_BUILD"])
    source = Path(__file__).resolve().parents[2]
    work = tmp_path / "source"  # what pip packages, copied so that its build files stay here
    work.mkdir()
    for name in ["setup.py", "pyproject.toml", "CMakeLists.txt"]:
        shutil.copy(source / name, work / name)
    shutil.copytree(source / "python" / "denoc", work / "python" / "denoc")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    venv], check=True, capture_output=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["DENOC_CMAKE_BUILD"] = str(build)
    installed = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                                "--no-deps", "--no-index", str(work)], env=env,
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    del env["DENOC_CMAKE_BUILD"]
    script = ("import denoc\n"
              "print(denoc.__file__)\n"
              f"print(denoc.Robot({str(ROBOTS / 'planar3.yaml')!r}).n)\n")
    out = subprocess.run([python, "-c", script], env=env, check=True, capture_output=True,
                         text=True, cwd=tmp_path).stdout.splitlines()
    assert Path(out[0]).resolve().is_relative_to(venv.resolve()), out[0]
    assert out[1] == "3"
