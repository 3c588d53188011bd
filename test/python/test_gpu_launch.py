"""vnm.launch.GpuKernel and the C API's launcher (vnm-c/GPURuntime.h)
against a CUDA driver stand-in (test/lib/FakeCudaDriver.cpp, named by
$VNM_FAKE_CUDA_DRIVER), on a kernel vnm generates: what reaches
cuLaunchKernel (grid, block, shared memory, stream, every parameter's value
at the width its PTX declares), the context and module bookkeeping, and the
errors. The launcher opens the driver once per process, so each case runs
in its own interpreter. Real launches run on the H200
(test_gpu_runtime.py).
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import vnm

FAKE = os.environ.get("VNM_FAKE_CUDA_DRIVER")
pytestmark = pytest.mark.skipif(not FAKE or not Path(FAKE).is_file(),
                                reason="VNM_FAKE_CUDA_DRIVER is not built")

PROGRAM = """func.func @linear(%w: tensor<256x128xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
    %x: tensor<128x?xf16>, %b: tensor<256xf32>) -> tensor<256x?xf32> {
  %y = vnm.spmm %w, %x bias(%b : tensor<256xf32>)
      : tensor<256x128xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<128x?xf16>
      -> tensor<256x?xf32>
  return %y : tensor<256x?xf32>
}"""

PRELUDE = """
import ctypes, json, sys
from pathlib import Path
import vnm
from vnm.launch import GpuKernel, launch_grid
fake = ctypes.CDLL(sys.argv[1])
directory = Path(sys.argv[2])
contract = json.loads((directory / "contract.json").read_text())
ptx = (directory / "kernel.ptx").read_text()

def last_launch():
    grid, block = (ctypes.c_uint32 * 3)(), (ctypes.c_uint32 * 3)()
    shared, stream = ctypes.c_uint32(), ctypes.c_void_p()
    params = (ctypes.c_uint64 * 32)()
    count = fake.fakeCudaLastLaunch(grid, block, ctypes.byref(shared), ctypes.byref(stream),
                                    params, 32)
    return (tuple(grid), tuple(block), shared.value, stream.value or 0,
            list(params[:count]))

def counter(name):
    return fake.fakeCudaCounter(name.encode())
"""


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    result = vnm.compile(PROGRAM, target="sm_90")
    directory = tmp_path_factory.mktemp("kernel")
    kernel = result.kernels[0]
    (directory / "kernel.ptx").write_bytes(result.binaries[kernel.binary])
    (directory / "contract.json").write_text(json.dumps(kernel.contract))
    return directory


def run(kernel_dir, body, driver=None):
    env = dict(os.environ, VNM_CUDA_DRIVER=driver or FAKE)
    code = PRELUDE + textwrap.dedent(body)
    process = subprocess.run([sys.executable, "-B", "-c", code, FAKE, str(kernel_dir)],
                             env=env, capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stdout + process.stderr
    return process.stdout


def test_launch_passes_the_contract_configuration_and_every_parameter(kernel_dir):
    run(kernel_dir, """
    kernel = GpuKernel(ptx, contract)
    assert counter("retained") == 1 and counter("modules") == 1
    assert counter("context_depth") == 0, "the caller's context must be restored"
    types = contract["param_types"]
    values, expected = {}, []
    for i, (name, kind) in enumerate(zip(contract["params"], types)):
        value = (0x7F0000001000 + 0x100 * i) if kind == "ptr" else 40 + i
        if name == "bias":
            value = None
        values[name] = value
        expected.append(0 if value is None else value)
    n = 77
    kernel.launch(values, n=n, stream=0xABC0)
    grid, block, shared, stream, params = last_launch()
    assert grid == launch_grid(contract, n), (grid, contract)
    assert grid[0] == -(-n // contract["grid_x_divisor"]) and grid[2] == 1
    assert block == tuple(contract["block"])
    assert shared == contract["dynamic_shared_bytes"]
    assert stream == 0xABC0
    assert params == expected, (params, expected)
    assert counter("launches") == 1 and counter("context_depth") == 0
    kernel.close()
    assert counter("retained") == 0 and counter("modules") == 0
    """)


def test_large_dynamic_shared_memory_is_allowed_before_launch(kernel_dir):
    run(kernel_dir, """
    contract["dynamic_shared_bytes"] = 150 * 1024
    kernel = GpuKernel(ptx, contract)
    assert counter("max_dynamic_shared") == 150 * 1024
    contract["dynamic_shared_bytes"] = 300 * 1024
    try:
        GpuKernel(ptx, contract)
        raise AssertionError("300 KiB was accepted")
    except vnm.VNMError as e:
        assert "cannot use 307200 bytes of dynamic shared memory" in str(e), e
        assert "CUDA_ERROR_INVALID_VALUE" in str(e), e
    # The failed load released what it took.
    assert counter("retained") == 1 and counter("modules") == 1
    assert counter("context_depth") == 0
    """)


def test_dynamic_shared_memory_is_allowed_below_48_kib_too(kernel_dir):
    # A kernel with static shared memory beside its dynamic part (an A ring
    # next to B's) needs the dynamic part allowed even at 48 KiB: the
    # default limit counts both. None is asked for a kernel without any.
    run(kernel_dir, """
    contract["dynamic_shared_bytes"] = 0
    GpuKernel(ptx, contract).close()
    assert counter("max_dynamic_shared") == 0
    contract["dynamic_shared_bytes"] = 48 * 1024
    kernel = GpuKernel(ptx, contract)
    assert counter("max_dynamic_shared") == 48 * 1024
    """)


def test_driver_errors_are_reported_with_their_names_and_logs(kernel_dir):
    run(kernel_dir, """
    def error_of(fn):
        try:
            fn()
        except vnm.VNMError as e:
            return str(e)
        raise AssertionError("no error")

    message = error_of(lambda: GpuKernel("not ptx", contract))
    assert "cannot load the kernel image: CUDA error 200 CUDA_ERROR_INVALID_IMAGE" in message
    assert "fake ptxas: no .entry in the image" in message
    message = error_of(lambda: GpuKernel(ptx, dict(contract, kernel="nope")))
    assert "the kernel image has no kernel 'nope'" in message and "NOT_FOUND" in message
    message = error_of(lambda: GpuKernel(ptx, contract, device=3))
    assert "no CUDA device 3" in message and "INVALID_DEVICE" in message
    assert error_of(lambda: GpuKernel(b"", contract)).endswith("the kernel image is empty")
    assert counter("retained") == 0 and counter("modules") == 0
    assert counter("context_depth") == 0
    """)


def test_launch_arguments_are_checked_before_the_driver(kernel_dir):
    run(kernel_dir, """
    kernel = GpuKernel(ptx, contract)
    values = {name: 1 for name in contract["params"]}
    for bad, text in [(dict(values, n=None), "parameter n (i32) needs a value"),
                      ({k: v for k, v in values.items() if k != "out"},
                       "no value for the kernel parameters ['out']"),
                      (dict(values, ldb=2**31), "parameter ldb (i32) cannot hold 2147483648")]:
        try:
            kernel.launch(bad, n=8)
            raise AssertionError("accepted")
        except vnm.VNMError as e:
            assert text in str(e), e
    try:
        kernel.launch(values, n=0)
        raise AssertionError("accepted")
    except vnm.VNMError as e:
        assert "n > 0" in str(e)
    assert counter("launches") == 0
    kernel.close()
    try:
        kernel.launch(values, n=8)
        raise AssertionError("accepted")
    except vnm.VNMError as e:
        assert "closed" in str(e)
    bad_types = dict(contract, param_types=["ptr"] * (len(contract["params"]) - 1))
    try:
        GpuKernel(ptx, bad_types)
        raise AssertionError("accepted")
    except vnm.VNMError as e:
        assert "do not describe its params" in str(e)
    """)


def test_a_host_without_a_driver_gets_a_clear_error(kernel_dir, tmp_path):
    run(kernel_dir, """
    try:
        GpuKernel(ptx, contract)
        raise AssertionError("loaded without a driver")
    except vnm.VNMError as e:
        assert "cannot open the CUDA driver" in str(e), e
        assert "is an NVIDIA GPU driver installed?" in str(e), e
    """, driver=str(tmp_path / "libcuda.so.1"))
