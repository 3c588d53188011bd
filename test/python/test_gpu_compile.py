"""vnm.compile with a GPU target: PTX and launch contracts (no GPU needed)."""

from pathlib import Path

import pytest
import vnm

EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "linear_spmm.mlir").read_text()

V16 = """\
!w = tensor<64x64xf16, #vnm.encoding<v = 16, n = 2, m = 8>>
func.func @f(%w: !w, %x: tensor<64x8xf16>) -> tensor<64x8xf32> {
  %y = vnm.spmm %w, %x : !w, tensor<64x8xf16> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}
"""


@pytest.mark.parametrize("target", ["sm_90", "sm_80"])
def test_example_compiles_to_ptx_with_contract(target):
    result = vnm.compile(EXAMPLE, target=target)
    assert f".target {target}" in result.ptx
    assert "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32" in result.ptx
    assert "cp.async.cg.shared.global" in result.ptx
    assert "ldmatrix.sync.aligned.m8n8.x4.trans" in result.ptx
    (kernel,) = result.kernels
    assert kernel.name == "spmm_0" and kernel.binary == "vnm_kernels"
    contract = kernel.contract
    assert contract["rows"] == 4096 and contract["cols"] == 4096
    assert contract["v"] == 64 and contract["m"] == 8
    assert contract["bias"] is True and contract["activation"] == "relu"
    assert contract["params"][:2] == ["frag_values", "frag_meta"]
    assert contract["block"] == [128, 1, 1] and contract["grid_y"] == 64
    assert f".entry {kernel.name}" in result.ptx
    assert "gpu.binary @vnm_kernels" in result.ir


def test_tiling_options_reach_the_kernel():
    result = vnm.compile(EXAMPLE, target="sm_90",
                         gpu_options="block-rows=64 warps-n=4")
    assert result.kernels[0].contract["warps"] == [2, 4]
    assert result.kernels[0].contract["block"] == [256, 1, 1]


def test_k_splits_reach_the_contract():
    # The example's 4096 columns at M = 8: 32 k-tile pairs, four splits of
    # eight; the grid counts every split, the clusters are in the code.
    result = vnm.compile(EXAMPLE, target="sm_90", gpu_options="k-splits=4")
    contract = result.kernels[0].contract
    assert contract["k_splits"] == 4 and contract["grid_y"] == 4 * 64
    assert contract["cluster"] == [1, 4, 1]
    assert ".reqnctapercluster 1, 4, 1" in result.ptx
    assert "ld.shared::cluster.f32" in result.ptx
    assert vnm.compile(EXAMPLE, target="sm_90").kernels[0].contract["k_splits"] == 1
    with pytest.raises(vnm.CompileError, match="k-splits needs chip sm_90"):
        vnm.compile(EXAMPLE, target="sm_80", gpu_options="k-splits=4")


def test_a_tiling_in_the_source_reaches_the_kernel():
    # An op's own #vnm_gpu.mma_sp_tiling (vnm.config) wins over the default.
    source = """
!w = tensor<512x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @f(%w: !w, %x: tensor<4096x?xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x
      {vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 6, blocks_per_sm = 2>}
      : !w, tensor<4096x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}
"""
    contract = vnm.compile(source, target="sm_90").kernels[0].contract
    assert contract["stages"] == 6 and contract["dynamic_shared_bytes"] == 6 * 16384


def test_quantized_kernels_state_their_operands():
    source = """
!w = tensor<256x512xi4, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @f(%w: !w, %x: tensor<512x?xbf16>, %s: tensor<256xf32>) -> tensor<256x?xbf16> {
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<256xf32>) : !w, tensor<512x?xbf16> -> tensor<256x?xbf16>
  return %y : tensor<256x?xbf16>
}
"""
    contract = vnm.compile(source, target="sm_90").kernels[0].contract
    assert contract["element_type"] == "i4" and contract["rhs_type"] == "bf16"
    assert contract["fragment_class"] == "16bit" and contract["rhs_layout"] == "k_by_n"
    assert "weight_scales" in contract["params"] and "input_scales" not in contract["params"]


def test_unsupported_format_raises_with_diagnostics():
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile(V16, target="sm_90")
    messages = " ".join(d.message for d in info.value.diagnostics)
    assert "vnm-lower-to-gpu" in messages and "multiple of its 64-row block tile" in messages


def test_cpu_result_has_no_gpu_artifacts():
    result = vnm.compile(V16)
    assert result.binaries == {} and result.kernels == ()
    with pytest.raises(ValueError):
        result.ptx


def test_write_produces_what_the_runtime_reads(tmp_path):
    result = vnm.compile(EXAMPLE, target="sm_90")
    result.write(str(tmp_path))
    assert (tmp_path / "vnm_kernels.ptx").read_text() == result.ptx
    import json
    assert json.loads((tmp_path / "spmm_0.json").read_text()) == result.kernels[0].contract
