"""pytest configuration of the vnm package tests (ctest vnm-pytest).

The package is imported from python/ over the library named by
VNM_LIBRARY_PATH (test/CMakeLists.txt sets both); run by hand as

    PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 -m pytest test/python
"""

import sys

import pytest


def pytest_sessionfinish(session, exitstatus):
    # pytest exits with 5 when it collects nothing, which CI would read as
    # neither a pass nor a failure. Collecting nothing here means a broken
    # path or filter, so it is a failure with a reason.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        print(
            "\nvnm-pytest: no tests were collected; check the test path and -k/-m filters",
            file=sys.stderr,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "gpu: needs an NVIDIA GPU, CuPy, PyTorch and precompiled kernels "
        "(VNM_GPU_KERNELS); skipped elsewhere, run by bench/run_python_gpu_tests.sh",
    )
