"""vnm.torch.lower: a PyTorch MLP through Torch-MLIR and vnm (no GPU needed).

The last test runs the lowered model on the CPU (vnm's CPU pipeline,
mlir-runner and libvnm_cpu_runtime.so) against torch on the pruned weights.
"""

import os
import re

import numpy as np
import pytest
import vnm
from vnm import format as vf

import cpu_runner

REASON = ("needs torch and torch-mlir from pip (scripts/setup.sh installs "
          "them; Debian has no torch-mlir, so a Debian-managed Python lacks them)")
torch = pytest.importorskip("torch", reason=REASON)
pytest.importorskip("torch_mlir", reason=REASON)
import vnm.torch as vt  # noqa: E402

SPARSITY = {"0.weight": "64:2:8", "2.weight": "64:2:16"}


def mlp(dtype=torch.float32):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 256))
    return model.to(dtype).eval()


def example(dtype=torch.float32):
    return torch.randn(8, 256, generator=torch.Generator().manual_seed(1)).to(dtype)


def test_weights_become_encoded_arguments_and_spmm():
    lowering = vt.lower(mlp(), example(), sparsity=SPARSITY)
    ir = lowering.ir
    assert lowering.arguments == (None, "0.weight", "2.weight")
    assert lowering.weights == {"0.weight": 1, "2.weight": 2}
    assert "%arg1: tensor<512x256xf32, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    assert "%arg2: tensor<256x512xf32, #vnm.encoding<v = 64, n = 2, m = 16>>" in ir
    # Each layer's bias, and the first one's ReLU, are the spmm's epilogue.
    spmms = re.findall(r"vnm\.spmm (%\w+), %\w+ bias\(%\w+ : (tensor<\w+>)\) ?"
                       r"(\{[^}]*\})? : (tensor<[^>]*>>)", ir)
    assert spmms == [
        ("%arg1", "tensor<512xf32>", "{activation = #vnm.activation<relu>}",
         "tensor<512x256xf32, #vnm.encoding<v = 64, n = 2, m = 8>>"),
        ("%arg2", "tensor<256xf32>", "",
         "tensor<256x512xf32, #vnm.encoding<v = 64, n = 2, m = 16>>")]
    assert "linalg.matmul" not in ir
    assert lowering.kernels == () and str(lowering) == ir


def test_unnamed_weights_stay_constant_matmuls():
    lowering = vt.lower(mlp(), example(), sparsity={"2.weight": "64:2:8"})
    assert lowering.arguments == (None, "2.weight")
    assert lowering.ir.count("vnm.spmm") == 1
    assert lowering.ir.count("linalg.matmul") == 1


def test_f16_gpu_kernels_for_each_layer():
    lowering = vt.lower(mlp(torch.float16), example(torch.float16),
                        sparsity=SPARSITY, target="sm_90")
    shapes = sorted((k.contract["rows"], k.contract["cols"], k.contract["m"])
                    for k in lowering.kernels)
    assert shapes == [(256, 512, 16), (512, 256, 8)]
    assert lowering.ptx.count(".entry") == 2
    assert "mma.sp::ordered_metadata" in lowering.ptx
    assert lowering.weights == {"0.weight": 1, "2.weight": 2}


def test_unknown_parameter_name():
    with pytest.raises(ValueError, match=r"'3\.weight', not a parameter or buffer"):
        vt.lower(mlp(), example(), sparsity={"3.weight": "64:2:8"})


def test_bias_is_not_a_weight_matrix():
    with pytest.raises(ValueError, match=r"'0\.bias' has shape \(512,\)"):
        vt.lower(mlp(), example(), sparsity={"0.bias": "64:2:8"})


class EmbeddingThenLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.nn.Embedding(512, 256)
        self.fc = torch.nn.Linear(256, 512)

    def forward(self, x):
        return self.fc(self.table.weight[:8] + x)


def test_parameter_no_matmul_reads():
    with pytest.raises(ValueError, match=r"no matmul .* reads 'table\.weight'"):
        vt.lower(EmbeddingThenLinear(), example(), sparsity={"table.weight": "64:2:8"})


def test_element_type_the_format_rejects():
    with pytest.raises(vnm.CompileError, match="'0.weight'") as info:
        vt.lower(mlp(torch.float64), example(torch.float64),
                 sparsity={"0.weight": "64:2:8"})
    assert any("encoding C6" in d.message for d in info.value.diagnostics)


def test_format_the_gpu_kernel_cannot_tile():
    with pytest.raises(vnm.CompileError, match="64-row block tile"):
        vt.lower(mlp(torch.float16), example(torch.float16),
                 sparsity={"0.weight": "16:2:8"}, target="sm_90")


def test_invalid_format():
    with pytest.raises(vnm.VNMError):
        vt.lower(mlp(), example(), sparsity={"0.weight": "64:3:8"})


class LinearThenSort(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(256, 512)

    def forward(self, x):
        return torch.sort(self.fc(x), dim=1)[0]


def test_torch_mlir_dialect_ops_are_named():
    with pytest.raises(ValueError, match=r"tm_tensor\.sort"):
        vt.lower(LinearThenSort(), example(), sparsity={"fc.weight": "64:2:8"})


# --- running the lowered model on the CPU ---------------------------------

def _dense(array: np.ndarray) -> str:
    shape = "x".join(map(str, array.shape))
    data = np.ascontiguousarray(array, np.float32).tobytes().hex().upper()
    return f'dense<"0x{data}"> : tensor<{shape}xf32>'


def _driver(lowering, x: np.ndarray, weights) -> str:
    """The lowered module with @main renamed @model and a new @main that
    compresses the weights (vnm.compress), calls it and prints the result."""
    body, marker, resources = lowering.ir.partition("{-#")
    body = body.replace("func.func @main(", "func.func @model(", 1)
    rows = x.shape[0]
    out_type = f"tensor<{rows}x{weights[-1][1].shape[0]}xf32>"
    lines = ["func.func private @printMemrefF32(memref<*xf32>)",
             "func.func @main() {",
             f"  %x = arith.constant {_dense(x)}"]
    args, types = ["%x"], [f"tensor<{rows}x{x.shape[1]}xf32>"]
    for i, (encoding, w) in enumerate(weights):
        dense = f"tensor<{w.shape[0]}x{w.shape[1]}xf32>"
        encoded = (f"tensor<{w.shape[0]}x{w.shape[1]}xf32, #vnm.encoding<v = "
                   f"{encoding.v}, n = {encoding.n}, m = {encoding.m}>>")
        lines += [f"  %d{i} = arith.constant {_dense(w)}",
                  f"  %w{i} = vnm.compress %d{i} : {dense} -> {encoded}"]
        args.append(f"%w{i}")
        types.append(encoded)
    memref = out_type.replace("tensor", "memref")
    lines += [
        f"  %y = func.call @model({', '.join(args)}) : ({', '.join(types)}) -> {out_type}",
        f"  %b = bufferization.to_buffer %y : {out_type} to {memref}",
        f"  %u = memref.cast %b : {memref} to memref<*xf32>",
        "  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()",
        "  return",
        "}"]
    end = body.rstrip().rfind("}")
    return body[:end] + "\n".join(lines) + "\n}\n" + marker + resources


def _run_cpu(tmp_path, driver: str, shape) -> np.ndarray:
    """Compiles `driver` through the CPU pipeline, runs it with mlir-runner
    (skipping the test where the runner is missing) and returns the printed
    memref (six significant digits) as float64 of `shape`."""
    out = cpu_runner.run(tmp_path, driver)
    numbers = re.findall(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)",
                         out.split("data =", 1)[1])
    return np.array(numbers, np.float64).reshape(shape)


def test_cpu_run_matches_torch_on_pruned_weights(tmp_path):
    model, x = mlp(), example()
    lowering = vt.lower(model, x, sparsity=SPARSITY)
    params = dict(model.named_parameters())
    weights = [(vf.as_encoding(SPARSITY[name]), params[name].detach().numpy())
               for name in lowering.arguments[1:]]
    y = _run_cpu(tmp_path, _driver(lowering, x.numpy(), weights), (8, 256))

    with torch.no_grad():
        dense = model(x).numpy()
        for name in lowering.arguments[1:]:
            pruned = vf.prune(params[name].detach().numpy(), vf.as_encoding(SPARSITY[name]))
            params[name].copy_(torch.from_numpy(pruned))
        reference = model(x).numpy()
    assert np.abs(reference - dense).max() > 1e-2  # pruning changed the model
    np.testing.assert_allclose(y, reference, rtol=1e-4, atol=1e-5)


def _bf16_constant(tensor) -> str:
    bits = tensor.detach().contiguous().view(torch.int16).numpy().astype("<i2")
    shape = "x".join(map(str, bits.shape))
    return f'dense<"0x{bits.tobytes().hex().upper()}"> : tensor<{shape}xbf16>'


def _bf16_driver(lowering, x, weight, encoding) -> str:
    """The lowered one-layer bf16 model as @model, and a @main that
    compresses the weight, calls it and prints the result widened to f32."""
    body, marker, resources = lowering.ir.partition("{-#")
    body = body.replace("func.func @main(", "func.func @model(", 1)
    rows, cols = x.shape[0], weight.shape[0]
    out = f"tensor<{rows}x{cols}xbf16>"
    out_f32 = f"tensor<{rows}x{cols}xf32>"
    dense = f"tensor<{weight.shape[0]}x{weight.shape[1]}xbf16>"
    encoded = (f"tensor<{weight.shape[0]}x{weight.shape[1]}xbf16, #vnm.encoding<v = "
               f"{encoding.v}, n = {encoding.n}, m = {encoding.m}>>")
    lines = [
        "func.func private @printMemrefF32(memref<*xf32>)",
        "func.func @main() {",
        f"  %x = arith.constant {_bf16_constant(x)}",
        f"  %d = arith.constant {_bf16_constant(weight)}",
        f"  %w = vnm.compress %d : {dense} -> {encoded}",
        f"  %y = func.call @model(%x, %w) : (tensor<{rows}x{x.shape[1]}xbf16>, {encoded}) -> {out}",
        f"  %e = tensor.empty() : {out_f32}",
        "  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
        "affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} "
        f"ins(%y : {out}) outs(%e : {out_f32}) {{",
        "  ^bb0(%in: bf16, %o: f32):",
        "    %v = arith.extf %in : bf16 to f32",
        "    linalg.yield %v : f32",
        f"  }} -> {out_f32}",
        f"  %b = bufferization.to_buffer %f : {out_f32} to {out_f32.replace('tensor', 'memref')}",
        f"  %u = memref.cast %b : {out_f32.replace('tensor', 'memref')} to memref<*xf32>",
        "  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()",
        "  return",
        "}"]
    end = body.rstrip().rfind("}")
    return body[:end] + "\n".join(lines) + "\n}\n" + marker + resources


def _round_bf16(values: np.ndarray) -> np.ndarray:
    """Round to nearest even bf16 of float64 values, as float64."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    return values.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)


def test_cpu_run_bf16_linear_rounds_once(tmp_path):
    """A bf16 nn.Linear with bias and ReLU adds the bias and applies relu in
    f32 and rounds once (as torch's addmm does), although Torch-MLIR writes
    the product's rounding to bf16 before the bias add."""
    seed = int.from_bytes(os.urandom(4), "little")
    generator = torch.Generator().manual_seed(seed)
    layer = torch.nn.Linear(256, 128)
    with torch.no_grad():
        layer.weight.copy_(torch.randn(128, 256, generator=generator) * 0.1)
        layer.bias.copy_(torch.randn(128, generator=generator))
    model = torch.nn.Sequential(layer, torch.nn.ReLU()).to(torch.bfloat16).eval()
    x = torch.randn(8, 256, generator=generator).to(torch.bfloat16)
    encoding = vf.as_encoding("64:2:8")
    lowering = vt.lower(model, x, sparsity={"0.weight": "64:2:8"})
    # Printed with six significant digits, which name one bf16 value.
    y = _round_bf16(_run_cpu(
        tmp_path, _bf16_driver(lowering, x, model[0].weight, encoding), (8, 128)))

    weight = model[0].weight.detach().float().numpy()
    pruned = vf.prune(weight, encoding).astype(np.float64)  # bf16 values, exact in f32
    bias = model[0].bias.detach().float().numpy().astype(np.float64)
    product = x.float().numpy().astype(np.float64) @ pruned.T
    exact = np.maximum(product + bias, 0)
    once = _round_bf16(exact)
    twice = np.maximum(_round_bf16(_round_bf16(product) + bias), 0)
    # Where the exact value lies near a midpoint between two bf16 numbers,
    # f32 accumulation in another order may round either way: those
    # elements are not compared.
    ulp = np.abs(_round_bf16(exact * (1 + 2.0**-7)) - once)
    ulp[ulp == 0] = np.finfo(np.float32).tiny
    residue = np.abs(exact - once) / ulp
    decided = residue < 0.49
    assert decided.mean() > 0.9, f"seed {seed}"
    assert (twice != once)[decided].sum() > 0, f"seed {seed}: no element tells one rounding from two"
    wrong = np.argwhere(decided & (y != once))
    assert wrong.size == 0, (
        f"seed {seed}: {len(wrong)} elements not rounded once, e.g. at {tuple(wrong[0])}: "
        f"{y[tuple(wrong[0])]} instead of {once[tuple(wrong[0])]} (twice rounded: "
        f"{twice[tuple(wrong[0])]})")


class _EncoderBlock(torch.nn.Module):
    """A BERT-like encoder layer: attention with softmax, LayerNorms, an
    erf GELU feed-forward; every linear layer's weight sparse."""

    def __init__(self, width=64, heads=2, hidden=128):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(width, 3 * width)
        self.out = torch.nn.Linear(width, width)
        self.norm1 = torch.nn.LayerNorm(width)
        self.fc1 = torch.nn.Linear(width, hidden)
        self.fc2 = torch.nn.Linear(hidden, width)
        self.norm2 = torch.nn.LayerNorm(width)

    def forward(self, x):
        tokens, width = x.shape
        q, k, v = (t.view(tokens, self.heads, -1).transpose(0, 1)
                   for t in self.qkv(x).split(width, dim=-1))
        scores = q @ k.transpose(1, 2) / (width // self.heads) ** 0.5
        attended = (torch.softmax(scores, dim=-1) @ v).transpose(0, 1)
        x = self.norm1(x + self.out(attended.reshape(tokens, width)))
        return self.norm2(x + self.fc2(torch.nn.functional.gelu(self.fc1(x))))


def test_cpu_run_of_an_encoder_block_matches_torch(tmp_path):
    """LayerNorm (math.rsqrt), softmax, erf GELU and attention run on the
    CPU pipeline: the block's output equals torch's on the pruned weights."""
    seed = int.from_bytes(os.urandom(4), "little")
    torch.manual_seed(seed)
    model = _EncoderBlock().eval()
    x = torch.randn(8, 64)
    sparsity = {"qkv.weight": "64:2:8", "out.weight": "64:2:16",
                "fc1.weight": "64:2:8", "fc2.weight": "128:2:8"}
    lowering = vt.lower(model, x, sparsity=sparsity)
    params = dict(model.named_parameters())
    weights = [(vf.as_encoding(sparsity[name]), params[name].detach().numpy())
               for name in lowering.arguments[1:]]
    y = _run_cpu(tmp_path, _driver(lowering, x.numpy(), weights), (8, 64))

    with torch.no_grad():
        dense = model(x).numpy()
        for name in sparsity:
            pruned = vf.prune(params[name].detach().numpy(), vf.as_encoding(sparsity[name]))
            params[name].copy_(torch.from_numpy(pruned))
        reference = model(x).numpy()
    assert np.abs(reference - dense).max() > 1e-2, f"seed {seed}"
    np.testing.assert_allclose(y, reference, rtol=1e-3, atol=1e-4,
                               err_msg=f"seed {seed}")


def test_quantized_mlp_runs_on_the_cpu_against_torch(tmp_path):
    """quantization= makes the weight arguments quantized V:N:M matrices with
    their scales next to them; the lowered MLP run on the CPU pipeline
    matches PyTorch on the same pruned and quantized weights (and the
    activations of the w8a8 layer quantized per token)."""
    seed = int.from_bytes(os.urandom(4), "little")
    generator = torch.Generator().manual_seed(seed)
    model = mlp()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.05)
    x = torch.randn(8, 256, generator=generator)
    quantization = {"0.weight": "w8a8", "2.weight": "w4a16-g16"}
    lowering = vt.lower(model, x, sparsity=SPARSITY, quantization=quantization)
    assert lowering.arguments[1:] == ("0.weight", "0.weight.scales", "2.weight",
                                      "2.weight.scales")
    params = dict(model.named_parameters())
    storages = {}
    for name, target, group in (("0.weight", "i8", None), ("2.weight", "i4", 16)):
        weight = params[name].detach().numpy()
        storage, scales = vf.quantize_weights(weight, SPARSITY[name], target=target,
                                              group_size=group)
        storages[name] = (storage, scales if group else scales.reshape(-1), target, group)

    body, marker, resources = lowering.ir.partition("{-#")
    body = body.replace("func.func @main(", "func.func @model(", 1)
    rows = x.shape[0]
    lines = ["func.func private @printMemrefF32(memref<*xf32>)", "func.func @main() {",
             f"  %x = arith.constant {cpu_runner.literal(x.numpy(), 'f32')}"]
    args, types = ["%x"], [f"tensor<{rows}x{x.shape[1]}xf32>"]
    for i, (name, (storage, scales, target, group)) in enumerate(storages.items()):
        enc = storage.encoding
        encoded = (f"tensor<{storage.shape[0]}x{storage.shape[1]}x{target}, "
                   f"#vnm.encoding<v = {enc.v}, n = {enc.n}, m = {enc.m}>>")
        arrays = ((storage.values, target), (storage.colidx.astype(np.int8), "i8"),
                  (storage.meta.astype(np.int8), "i8"))
        array_types = []
        for j, (array, element) in enumerate(arrays):
            lines.append(f"  %s{i}_{j} = arith.constant {cpu_runner.literal(array, element)}")
            array_types.append("tensor<" + "x".join(map(str, array.shape)) + f"x{element}>")
        lines += [f"  %w{i} = vnm.assemble %s{i}_0, %s{i}_1, %s{i}_2 : "
                  f"{', '.join(array_types)} -> {encoded}",
                  f"  %k{i} = arith.constant {cpu_runner.literal(scales, 'f32')}"]
        args += [f"%w{i}", f"%k{i}"]
        types += [encoded, "tensor<" + "x".join(map(str, scales.shape)) + "xf32>"]
    out_type = f"tensor<{rows}x256xf32>"
    memref = out_type.replace("tensor", "memref")
    lines += [f"  %y = func.call @model({', '.join(args)}) : ({', '.join(types)}) -> {out_type}",
              f"  %b = bufferization.to_buffer %y : {out_type} to {memref}",
              f"  %u = memref.cast %b : {memref} to memref<*xf32>",
              "  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()", "  return", "}"]
    end = body.rstrip().rfind("}")
    driver = body[:end] + "\n".join(lines) + "\n}\n" + marker + resources
    y = _run_cpu(tmp_path, driver, (rows, 256))

    # PyTorch on the dequantized weights; the first layer's input quantized
    # per token (a column of spmm's rhs x.T) as vnm.quantize does.
    x_q, x_s = vf.quantize(np.ascontiguousarray(x.numpy().T), axis=1)
    x_deq = torch.from_numpy((x_q.astype(np.float32) * x_s).T.copy())
    with torch.no_grad():
        for name, (storage, scales, target, group) in storages.items():
            dequantized = vf.dequantize(vf.decompress(storage), scales.reshape(storage.shape[0], -1),
                                        target=target, axis=0, group_size=group)
            params[name].copy_(torch.from_numpy(dequantized))
        reference = model(x_deq).numpy()
    np.testing.assert_allclose(y, reference, rtol=1e-4, atol=1e-4, err_msg=f"seed {seed}")


def test_quantization_names_only_sparse_weights():
    with pytest.raises(ValueError, match="quantization names '2.weight'"):
        vt.lower(mlp(), example(), sparsity={"0.weight": "64:2:8"},
                 quantization={"2.weight": "w8a8"})
    with pytest.raises(vnm.CompileError, match="group size 12 is not a multiple"):
        vt.lower(mlp(), example(), sparsity={"0.weight": "64:2:8"},
                 quantization={"0.weight": "w8a16-g12"})


def test_gpu_kernels_read_a_linear_layers_activations_as_torch_holds_them():
    # W8A8: x is quantized per token as it is and the i8 kernel reads
    # x[N][K] itself (before, the lowered program handed it a transposed
    # copy, which the i8 kernels cannot read).
    lowering = vt.lower(mlp(), example(), sparsity={"0.weight": "64:2:8"},
                        quantization={"0.weight": "w8a8"}, target="sm_90")
    (kernel,) = lowering.kernels
    assert kernel.contract["rhs_layout"] == "token_major"
    assert kernel.contract["rhs_type"] == "i8" and "input_scales" in kernel.contract["params"]
    # f16: the first layer reads x[N][K] at 2:4; the second reads the
    # first's R x N result, which is already K x N for it.
    def layouts(sparsity, gpu_options=""):
        lowering = vt.lower(mlp(torch.float16), example(torch.float16), sparsity=sparsity,
                            target="sm_90", gpu_options=gpu_options)
        return {(k.contract["rows"], k.contract["cols"]): k.contract["rhs_layout"]
                for k in lowering.kernels}
    assert layouts({"0.weight": "64:2:4", "2.weight": "64:2:8"}) == {
        (512, 256): "token_major", (256, 512): "k_by_n"}
    # At M = 8 the kernel that reads x[N][K] selects in registers: only on
    # request.
    assert layouts({"0.weight": "64:2:8"}) == {(512, 256): "k_by_n"}
    assert layouts({"0.weight": "64:2:8"}, "register-gather=true") == {
        (512, 256): "token_major"}
