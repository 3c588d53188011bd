"""The repository's pyproject.toml (`pip install .`): what it names exists.

The quick checks read the file and the CMake sources it refers to; they
cost nothing. The full build (a fresh venv, `pip install .` of this
checkout, import and compile outside the source tree) takes about 2.5
minutes on two cores and fetches scikit-build-core from PyPI, so it runs
only with VNM_TEST_PIP_INSTALL=1.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pyproject():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def skbuild(pyproject):
    return pyproject["tool"]["scikit-build"]


def test_one_pyproject_at_the_root():
    assert not (ROOT / "python" / "pyproject.toml").exists()


def test_project_metadata(pyproject):
    project = pyproject["project"]
    assert project["name"] == "vnm"
    assert project["dynamic"] == ["version"]
    assert (ROOT / project["readme"]).is_file()
    assert pyproject["build-system"]["build-backend"] == "scikit_build_core.build"
    packaging_requirements = pytest.importorskip("packaging.requirements")
    for requirement in project["dependencies"] + pyproject["build-system"]["requires"]:
        packaging_requirements.Requirement(requirement)  # raises if malformed


def test_version_comes_from_the_package(skbuild, pyproject):
    version = pyproject["tool"]["scikit-build"]["metadata"]["version"]
    assert version["provider"] == "scikit_build_core.metadata.regex"
    text = (ROOT / version["input"]).read_text()
    # scikit-build-core's default regex for the regex provider.
    match = re.search(r"""(?i)^(__version__|VERSION)(?: ?: ?str)? *= *(['"])v?(?P<value>.+?)\2""",
                      text, re.MULTILINE)
    assert match, f"no __version__ in {version['input']}"
    sys.path.insert(0, str(ROOT / "python"))
    try:
        import vnm
    finally:
        sys.path.pop(0)
    assert match.group("value") == vnm.__version__


def test_wheel_packages_are_the_package(skbuild):
    assert skbuild["wheel"]["packages"] == ["python/vnm"]
    package = ROOT / "python" / "vnm"
    assert (package / "__init__.py").is_file()
    assert (package / "_capi.py").is_file()


def test_cmake_project_builds_and_installs_the_c_api(skbuild):
    source_dir = ROOT / skbuild.get("cmake", {}).get("source-dir", ".")
    assert (source_dir / "CMakeLists.txt").is_file()
    targets = skbuild["build"]["targets"]
    assert targets == ["VNMCAPI"]
    capi = (ROOT / "lib" / "CAPI" / "CMakeLists.txt").read_text()
    assert "add_library(VNMCAPI SHARED" in capi
    # The install rule of the component, and the library name _capi loads.
    python_cmake = (ROOT / "python" / "CMakeLists.txt").read_text()
    for component in skbuild["install"]["components"]:
        assert f"COMPONENT {component}" in python_cmake
    assert "LIBRARY DESTINATION vnm" in python_cmake
    assert 'LIBRARY_NAME = "libVNMCAPI.so"' in (ROOT / "python" / "vnm" / "_capi.py").read_text()


def test_install_command_in_the_package_readme():
    readme = (ROOT / "python" / "README.md").read_text()
    assert "pip install ." in readme
    assert "pip install ./python" not in readme


@pytest.mark.skipif(os.environ.get("VNM_TEST_PIP_INSTALL") != "1",
                    reason="the full pip build runs with VNM_TEST_PIP_INSTALL=1")
def test_pip_install_from_the_root():
    with tempfile.TemporaryDirectory(prefix="vnm-pip-") as tmp:
        venv = Path(tmp) / "venv"
        # numpy from this interpreter's site-packages; the build backend
        # comes from PyPI into pip's isolated build environment.
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       check=True)
        python = str(venv / "bin" / "python")
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VNM_LIBRARY_PATH")}
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--no-deps", str(ROOT)], check=True, env=env)
        script = (
            "import numpy as np, vnm\n"
            "from vnm import format as vf\n"
            "assert vnm.library_path.parent.name == 'vnm', vnm.library_path\n"
            "c = vf.compress(np.ones((64, 64), np.float16), '64:2:8')\n"
            "r = vnm.compile(open(%r).read(), target='sm_90')\n"
            "assert 'mma.sp' in r.ptx\n"
            "print(vnm.__version__)\n" % str(ROOT / "examples" / "linear_spmm.mlir"))
        out = subprocess.run([python, "-c", script], cwd="/", env=env, check=True,
                             capture_output=True, text=True).stdout
        assert out.strip()
