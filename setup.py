"""pip install . (docs/python.md, "pip install"): the Python module built by the project's CMake
build for the interpreter that runs pip, then packaged with python/denoc by setuptools.

The CMake build goes to build-pip/cmake (configured with -DPython3_EXECUTABLE set to that
interpreter, -DDENOC_PYTHON=ON), or to DENOC_CMAKE_BUILD: a build folder already configured for
that interpreter, which is then only brought up to date (`cmake --build DIR --target _denoc`).
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = Path(__file__).resolve().parent
(SOURCE / "build-pip").mkdir(exist_ok=True)  # setuptools' build and egg-info go there


def version():
    """The suite's version, as CMakeLists.txt's project() gives it."""
    text = (SOURCE / "CMakeLists.txt").read_text() if (SOURCE / "CMakeLists.txt").exists() else ""
    found = re.search(r"project\(\S+ VERSION ([0-9.]+)", text)
    return found.group(1) if found else os.environ.get("DENOC_VERSION", "0")


class CMakeModule(Extension):
    def __init__(self):
        super().__init__("denoc._denoc", sources=[])


class BuildWithCMake(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("DENOC_CMAKE_BUILD")
        build = Path(given) if given else SOURCE / "build-pip" / "cmake"
        if not given:
            subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(build),
                            f"-DPython3_EXECUTABLE={sys.executable}", "-DDENOC_PYTHON=ON",
                            "-DCMAKE_BUILD_TYPE=Release"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_denoc", "-j",
                        str(os.cpu_count() or 1)], check=True)
        built = sorted((build / "python" / "denoc").glob("_denoc*.so"))
        if not built:
            sys.exit(f"setup.py: no _denoc module under {build}/python/denoc")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(
    name="denoc",
    version=version(),
    description="Robot dynamics by the decoupled natural orthogonal complement (DeNOC)",
    packages=["denoc"],
    package_dir={"denoc": "python/denoc"},
    package_data={"denoc": ["__init__.pyi", "py.typed"]},
    ext_modules=[CMakeModule()],
    cmdclass={"build_ext": BuildWithCMake},
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
    python_requires=">=3.7",
    install_requires=["numpy"],
    zip_safe=False,
)
