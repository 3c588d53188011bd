"""Kernels that read B through the TMA take it as a tensor map: the launch
contract names the parameter's type "tensor_map" and describes the map,
and vnm.launch makes it with the C API (vnmGpuTensorMapEncode) before each
launch. Checked here against the CUDA driver stand-in
(test/lib/FakeCudaDriver.cpp), whose cuTensorMapEncodeTiled records its
arguments in the map; the maps the real driver makes are used on the H200
(bench/device_bench.py).
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

K = 192
PROGRAM = f"""func.func @linear(%w: tensor<256x{K}xf16, #vnm.encoding<v = 64, n = 2, m = 4>>,
    %x: tensor<{K}x?xf16>) -> tensor<256x?xf16> {{
  %y = vnm.spmm %w, %x
      : tensor<256x{K}xf16, #vnm.encoding<v = 64, n = 2, m = 4>>, tensor<{K}x?xf16>
      -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}}"""

PRELUDE = """
import ctypes, json, sys
from pathlib import Path
from vnm import VNMError
from vnm.launch import GpuKernel, encode_tensor_map
fake = ctypes.CDLL(sys.argv[1])
directory = Path(sys.argv[2])
contract = json.loads((directory / "contract.json").read_text())
ptx = (directory / "kernel.ptx").read_text()

def words(box):
    return list((ctypes.c_uint64 * 6).from_buffer(box))

def last_params():
    grid, block = (ctypes.c_uint32 * 3)(), (ctypes.c_uint32 * 3)()
    shared, stream = ctypes.c_uint32(), ctypes.c_void_p()
    params = (ctypes.c_uint64 * 32)()
    count = fake.fakeCudaLastLaunch(grid, block, ctypes.byref(shared),
                                    ctypes.byref(stream), params, 32)
    return list(params[:count])
"""


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    result = vnm.compile(PROGRAM, target="sm_90a", gpu_options="recipe=wgmma-sp-ws")
    directory = tmp_path_factory.mktemp("kernel")
    kernel = result.kernels[0]
    (directory / "kernel.ptx").write_bytes(result.binaries[kernel.binary])
    (directory / "contract.json").write_text(json.dumps(kernel.contract))
    return directory


def run(kernel_dir, body):
    env = dict(os.environ, VNM_CUDA_DRIVER=FAKE)
    process = subprocess.run(
        [sys.executable, "-B", "-c", PRELUDE + textwrap.dedent(body), FAKE, str(kernel_dir)],
        env=env, capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stdout + process.stderr
    return process.stdout


def test_the_contract_describes_the_tensor_map(kernel_dir):
    contract = json.loads((kernel_dir / "contract.json").read_text())
    kinds = dict(zip(contract["params"], contract["param_types"]))
    assert kinds["rhs"] == "tensor_map"
    assert kinds["colidx"] == "ptr" and kinds["n"] == "i32"
    # A's fragment arrays as 32-bit words, one row per 16-row tile (K / 32
    # k-tiles of 512 bytes of values; K / 64 pairs of 32 metadata words),
    # a box of the block's 8 row tiles x one pair.
    assert kinds["frag_values"] == kinds["frag_meta"] == "tensor_map"
    assert contract["tensor_maps"] == {
        "rhs": {"rows": K, "cols": "n", "ld": "ldb", "element_bytes": 2,
                "box_rows": 64, "box_cols": 64, "swizzle_bytes": 128},
        "frag_values": {"rows": 256 // 16, "cols": K // 32 * 128,
                        "ld": K // 32 * 128, "element_bytes": 4,
                        "box_rows": 8, "box_cols": 256, "swizzle_bytes": 0},
        "frag_meta": {"rows": 256 // 16, "cols": K // 64 * 32,
                      "ld": K // 64 * 32, "element_bytes": 4,
                      "box_rows": 8, "box_cols": 32, "swizzle_bytes": 0}}
    assert contract["block"] == [384, 1, 1]
    ptx = (kernel_dir / "kernel.ptx").read_text()
    assert ".param .align 64 .b8 spmm_0_param_3[128]" in ptx
    # The two row blocks of the 256 rows run as one cluster, fixed in the
    # PTX, so that the plain launches below make it.
    assert contract["grid_y"] == 2 and contract["cluster"] == [1, 2, 1]
    assert ".reqnctapercluster 1, 2, 1" in ptx


def test_a_launch_passes_the_map_of_the_given_matrix(kernel_dir):
    run(kernel_dir, """
    kernel = GpuKernel(ptx, contract)
    values = {"frag_values": 0x1000, "frag_meta": 0x2000, "colidx": 0x3000,
              "rhs": 0x40000, "out": 0x5000, "bias": None,
              "n": 100, "ldb": 104, "ldc": 104}
    kernel.launch(values, n=100)
    params = last_params()
    # The maps' first words (the stand-in's record of the address).
    assert params[0] == 0x1000 and params[1] == 0x2000, params
    assert params[3] == 0x40000, params
    assert params[6:] == [100, 104, 104], params
    box = encode_tensor_map(0x40000, contract["tensor_maps"]["rhs"], values)
    # address, cols, rows, pitch in bytes, box (cols | rows << 32),
    # u16 data | 128-byte swizzle << 8 | 256-byte L2 promotion << 16.
    assert words(box) == [0x40000, 100, 192, 208, 64 | 64 << 32,
                          1 | 3 << 8 | 3 << 16], words(box)
    # A's values: 768 words x 16 row tiles, a pitch of 3072 bytes, boxes of
    # 256 words x 8 row tiles, 32-bit elements, no swizzle.
    box = encode_tensor_map(0x1000, contract["tensor_maps"]["frag_values"], values)
    assert words(box)[:5] == [0x1000, 768, 16, 3072, 256 | 8 << 32], words(box)
    assert words(box)[5] & 0xffff == 2, words(box)
    """)


def test_maps_the_driver_would_refuse_are_named(kernel_dir):
    run(kernel_dir, """
    entry = contract["tensor_maps"]["rhs"]
    values = {"n": 100, "ldb": 104}
    for address, ldb, needle in ((0x40008, 104, "16-byte aligned"),
                                 (0x40000, 100, "row pitch of 100 elements"),
                                 (0x40000, 96, "at least the columns")):
        values["ldb"] = ldb
        try:
            encode_tensor_map(address, entry, values)
        except VNMError as error:
            assert needle in str(error), str(error)
        else:
            raise AssertionError(f"encoded {address:#x}, ldb {ldb}")
    try:
        encode_tensor_map(0x40000, entry, {"ldb": 104})
    except VNMError as error:
        assert "parameter n, which has no value" in str(error), str(error)
    else:
        raise AssertionError("encoded without n")
    """)


def test_the_cupy_runtime_refuses_tensor_map_kernels(kernel_dir):
    from vnm.runtime import SpmmKernel

    contract = json.loads((kernel_dir / "contract.json").read_text())
    with pytest.raises(vnm.VNMError, match="launch it through vnm.launch.GpuKernel"):
        SpmmKernel((kernel_dir / "kernel.ptx").read_text(), contract)


def test_clustered_kernels_launch_with_their_plain_grid(kernel_dir):
    """The cluster is fixed in the PTX (.reqnctapercluster), so vnm.launch
    launches the contract's grid as it is, whose rows are a multiple of the
    cluster's."""
    run(kernel_dir, """
    kernel = GpuKernel(ptx, contract)
    kernel.launch({"frag_values": 0x1000, "frag_meta": 0x2000, "colidx": 0x3000,
                   "rhs": 0x40000, "out": 0x5000, "bias": None,
                   "n": 512, "ldb": 512, "ldc": 512}, n=512)
    grid, block = (ctypes.c_uint32 * 3)(), (ctypes.c_uint32 * 3)()
    shared, stream = ctypes.c_uint32(), ctypes.c_void_p()
    params = (ctypes.c_uint64 * 32)()
    fake.fakeCudaLastLaunch(grid, block, ctypes.byref(shared),
                            ctypes.byref(stream), params, 32)
    assert list(grid) == [2, 2, 1], list(grid)
    """)


TOKEN_MAJOR = f"""func.func @linear(%w: tensor<256x{K}xf16, #vnm.encoding<v = 64, n = 2, m = 4>>,
    %tokens: tensor<?x{K}xf16>) -> tensor<256x?xf16> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %tokens, %c0 : tensor<?x{K}xf16>
  %e = tensor.empty(%n) : tensor<{K}x?xf16>
  %x = linalg.transpose ins(%tokens : tensor<?x{K}xf16>) outs(%e : tensor<{K}x?xf16>)
      permutation = [1, 0]
  %y = vnm.spmm %w, %x
      : tensor<256x{K}xf16, #vnm.encoding<v = 64, n = 2, m = 4>>, tensor<{K}x?xf16>
      -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}}"""


def test_token_major_activations_are_mapped_as_they_are(tmp_path):
    """A linear layer's x[N][K] reaches the warp-specialized kernel as it
    is: the map's rows are the N tokens, its columns K, its box 256 tokens
    x 64 K values (one 128-byte swizzled row per token)."""
    result = vnm.compile(TOKEN_MAJOR, target="sm_90a", gpu_options="recipe=wgmma-sp-ws")
    kernel = result.kernels[0]
    contract = kernel.contract
    assert contract["rhs_layout"] == "token_major"
    assert contract["tensor_maps"]["rhs"] == {
        "rows": "n", "cols": K, "ld": "ldb", "element_bytes": 2,
        "box_rows": 256, "box_cols": 64, "swizzle_bytes": 128}
    (tmp_path / "kernel.ptx").write_bytes(result.binaries[kernel.binary])
    (tmp_path / "contract.json").write_text(json.dumps(contract))
    run(tmp_path, """
    values = {"n": 100, "ldb": 200}
    box = encode_tensor_map(0x40000, contract["tensor_maps"]["rhs"], values)
    # address, cols (K), rows (N), pitch in bytes, box (cols | rows << 32).
    assert words(box)[:5] == [0x40000, 192, 100, 400, 64 | 256 << 32], words(box)
    """)
