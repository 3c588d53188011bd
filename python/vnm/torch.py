"""PyTorch integration: whole models made sparse in one call, drop-in
sparse layers, and the Torch-MLIR frontend.

    model = vnm.torch.sparsify(model, "64:2:8", calibration=batches,
                               target="sm_90")   # prune, compile, swap
    torch.compile(model)                          # VNMLinear is a custom op

`sparsify` replaces each selected nn.Linear by a VNMLinear (docs/torch.md):
its kernel comes from the disk cache of compiled kernels and launches
through vnm's runtime on PyTorch's current stream; on the CPU the layer
computes the same product through the format library.

The layers below launch through CuPy and run one precompiled kernel each:

    kernel = vnm.runtime.SpmmKernel.from_result(
        vnm.compile(linear_mlir, target="sm_90"))   # R x K weight, bias
    layer = vnm.torch.SparseLinear(kernel, dense_linear.weight, dense_linear.bias)
    y = layer(x)            # x @ W_pruned.T + b, on the sparse tensor cores

The kernel computes Y^T = W X^T (R x N from the R x K weight), so the layer
transposes the activations into a padded K x ldb buffer and back.

Whole models come through Torch-MLIR (the torch-mlir package):

    lowering = vnm.torch.lower(model, x, sparsity={"0.weight": "64:2:8"},
                               target="sm_90")
    lowering.ir, lowering.kernels       # as vnm.compile's CompileResult
    lowering.weights                    # {"0.weight": 1}: argument of @main

The named parameters become arguments of @main after the flattened example
inputs, in the order of `sparsity`; the other parameters stay constants.
"""

import contextlib
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import torch

from ._errors import CompileError
from ._frontend import (annotate_arguments, argument_types, find_function,
                        is_quantized_weight)
from ._frontend import sparsify as _lower_sparsity
from .compiler import CompileResult, compile
from . import format as vf
from .format import as_encoding
from .runtime import SpmmKernel
from ._sparse_linear import VNMLinear, sparse_linear  # noqa: F401 (re-exported)
from ._sparsify import layer_program, sparsify  # noqa: F401 (re-exported)

_TORCH_TYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


class SparseLinear(torch.nn.Module):
    """y = x W^T + b with W pruned to the kernel's V:N:M format."""

    def __init__(self, kernel: SpmmKernel, weight: torch.Tensor, bias=None):
        super().__init__()
        if kernel.contract["activation"] != "none" or kernel.contract["accumulate"]:
            raise ValueError("SparseLinear needs a kernel without activation or accumulator")
        self.kernel = kernel
        self.dtype = _TORCH_TYPES[kernel.dtype]
        self.out_dtype = _TORCH_TYPES[kernel.result_type]
        host = weight.detach().to("cpu", self.dtype)
        bits = host.view(torch.int16).numpy().view(np.uint16)
        if kernel.dtype == "f16":
            bits = bits.view(np.float16)
        self._weight = kernel.pack(bits)
        # The pruned dense weight, for references and inspection.
        pruned = torch.from_numpy(self._weight.pruned.view(np.int16)).view(self.dtype)
        self.register_buffer("pruned_weight", pruned, persistent=False)
        self.bias = None if bias is None else bias.detach().to("cuda", self.out_dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import cupy

        lead = x.shape[:-1]
        x2 = x.reshape(-1, x.shape[-1]).to(self.dtype)
        n = x2.shape[0]
        ld = (n + 7) // 8 * 8
        rhs = torch.zeros(self.kernel.cols, ld, dtype=self.dtype, device=x.device)
        rhs[:, :n] = x2.t()
        out = torch.empty(self.kernel.rows, ld, dtype=self.out_dtype, device=x.device)
        stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
        self.kernel(self._weight, cupy.asarray(rhs), cupy.asarray(out), n=n,
                    bias=None if self.bias is None else cupy.asarray(self.bias),
                    stream=stream)
        return out[:, :n].t().reshape(*lead, self.kernel.rows)


def quantize_per_token(x: torch.Tensor):
    """Symmetric i8 quantization of each row (token) of x, as
    vnm.format.quantize does per scale group (docs/format.md): scale =
    max|x| / 127 in f32 (1 for a row of zeros), q = clamp(roundeven(x /
    scale), -127, 127). Returns (q int8, scales float32)."""
    x32 = x.float()
    amax = x32.abs().amax(dim=-1)
    scales = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
    q = torch.round(x32 / scales[..., None]).clamp(-127, 127).to(torch.int8)
    return q, scales


class QuantizedSparseLinear(torch.nn.Module):
    """y = x W^T + b with W pruned to the kernel's V:N:M format and
    quantized per output channel (vnm.format.quantize_weights: prune first,
    then quantize the kept values), on a quantized kernel:

    * W8A8 / W4A8 (i8 activations): x is quantized per token on the GPU
      (quantize_per_token) and read token-major, as PyTorch holds it;
    * W8A16 / W4A16 (f16/bf16 activations): x is read token-major where
      the kernel does (its contract's rhs_layout), else as a K x N copy.

    `dequantized_weight` holds W as the kernel multiplies it (f32), and
    `weight_storage` the quantized storage, for references."""

    def __init__(self, kernel: SpmmKernel, weight: torch.Tensor, bias=None):
        super().__init__()
        contract = kernel.contract
        if contract["activation"] != "none" or contract["accumulate"]:
            raise ValueError("QuantizedSparseLinear needs a kernel without activation "
                             "or accumulator")
        if not kernel.integer_weight or "weight_scales" not in kernel.params:
            raise ValueError("QuantizedSparseLinear needs a quantized kernel (an i8 or "
                             "i4 weight with weight scales); SparseLinear runs float ones")
        self.kernel = kernel
        self.out_dtype = _TORCH_TYPES[kernel.result_type]
        self.int8_activations = kernel.rhs_type == "i8"
        host = weight.detach().to("cpu", torch.float32).numpy()
        storage, scales = vf.quantize_weights(host, kernel.encoding, target=kernel.dtype)
        self.weight_storage = storage
        self._weight = kernel.pack((storage, scales))
        dequantized = vf.dequantize(vf.decompress(storage), scales.reshape(-1, 1),
                                    target=kernel.dtype, axis=0)
        self.register_buffer("dequantized_weight", torch.from_numpy(dequantized),
                             persistent=False)
        self.bias = None if bias is None else bias.detach().to("cuda", self.out_dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import cupy

        lead = x.shape[:-1]
        x2 = x.reshape(-1, x.shape[-1])
        n = x2.shape[0]
        k = self.kernel
        ldc = (n + 7) // 8 * 8
        out = torch.empty(k.rows, ldc, dtype=self.out_dtype, device=x.device)
        stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
        bias = None if self.bias is None else cupy.asarray(self.bias)
        if self.int8_activations:
            q, scales = quantize_per_token(x2)
            ldb = (k.cols + 15) // 16 * 16
            rhs = torch.zeros(n, ldb, dtype=torch.int8, device=x.device)
            rhs[:, :k.cols] = q
            k(self._weight, cupy.asarray(rhs), cupy.asarray(out), n=n, bias=bias,
              input_scales=cupy.asarray(scales.contiguous()), stream=stream)
        elif k.token_major:
            # x[N][K] itself, in rows of a multiple of 8 elements.
            dtype = _TORCH_TYPES[k.rhs_type]
            ldb = (k.cols + 7) // 8 * 8
            rhs = torch.nn.functional.pad(x2.to(dtype), (0, ldb - k.cols)).contiguous()
            k(self._weight, cupy.asarray(rhs), cupy.asarray(out), n=n, bias=bias,
              stream=stream)
        else:
            dtype = _TORCH_TYPES[k.rhs_type]
            rhs = torch.zeros(k.cols, ldc, dtype=dtype, device=x.device)
            rhs[:, :n] = x2.to(dtype).t()
            k(self._weight, cupy.asarray(rhs), cupy.asarray(out), n=n, bias=bias,
              stream=stream)
        return out[:, :n].t().reshape(*lead, k.rows)


# Torch-MLIR's own dialects, which its linalg-on-tensors output may still
# hold (tm_tensor for sort, scan, scatter, attention) and vnm cannot read.
_TORCH_MLIR_DIALECTS = ("torch", "torch_c", "tm_tensor")


@dataclass(frozen=True)
class Lowering:
    """What vnm.torch.lower produced: `result`, the CompileResult (vnm IR,
    or with a target the GPU kernels), whose fields it also offers.

    `arguments` names each argument of @main: None for the flattened
    example inputs (first, in order), then the parameter names of
    `sparsity` in its order, each quantized one followed by
    "<name>.scales". `weights` maps those names to their argument
    index. A weight argument whose type carries `#vnm.encoding` takes the
    V:N:M matrix (vnm.format.compress of the weight as the module holds it,
    R x K; for a quantized weight the storage that
    vnm.format.quantize_weights returns, and its scales in the next
    argument, per row as an R vector or R x groups); a weight that a matmul
    reads transposed (x @ W with W held K x R) stays a dense argument that
    the function compresses (and quantizes) on entry.
    """

    result: CompileResult
    arguments: Tuple[Optional[str], ...]
    weights: Dict[str, int] = field(default_factory=dict)

    @property
    def ir(self) -> str:
        return self.result.ir

    @property
    def pipeline(self):
        return self.result.pipeline

    @property
    def diagnostics(self):
        return self.result.diagnostics

    @property
    def binaries(self):
        return self.result.binaries

    @property
    def kernels(self):
        return self.result.kernels

    @property
    def ptx(self) -> str:
        return self.result.ptx

    def write(self, directory: str) -> None:
        self.result.write(directory)

    def __str__(self) -> str:
        return self.result.ir


class _WithParameters(torch.nn.Module):
    """`module` with its keyword inputs `keywords` and then the parameters
    `names` taken as trailing positional arguments, so that export makes the
    parameters function arguments instead of constants, after every input."""

    def __init__(self, module: torch.nn.Module, keywords, names):
        super().__init__()
        self.module = module
        self.keywords = tuple(keywords)
        self.names = tuple(names)

    def forward(self, *args):
        weights = len(args) - len(self.names)
        positional = weights - len(self.keywords)
        return torch.func.functional_call(
            self.module, dict(zip(self.names, args[weights:])),
            args[:positional], dict(zip(self.keywords, args[positional:weights])))


@contextlib.contextmanager
def _buffers_persistent(module: torch.nn.Module):
    """Non-persistent buffers (a BERT's position_ids) counted as persistent
    while the module is exported: Torch-MLIR's importer finds constants
    through the state dict. The module is as it was afterwards."""
    saved = [(sub, set(sub._non_persistent_buffers_set)) for sub in module.modules()
             if sub._non_persistent_buffers_set]
    try:
        for sub, _ in saved:
            sub._non_persistent_buffers_set.clear()
        yield
    finally:
        for sub, names in saved:
            sub._non_persistent_buffers_set.update(names)


def _import_torch_mlir():
    try:
        from torch_mlir import fx, ir
        from torch_mlir.extras.fx_decomp_util import get_decomposition_table
    except ImportError as error:
        raise ImportError(
            "vnm.torch.lower needs the torch-mlir package (scripts/setup.sh "
            "installs the pinned torch and torch-mlir): " + str(error)) from error
    return fx, ir, get_decomposition_table


def _decompositions(get_decomposition_table):
    # torch's addmm decomposition computes f16/bf16 in f32 (it casts the
    # weight up before the matmul, which vnm-sparsify cannot see through);
    # Torch-MLIR lowers aten.addmm itself to a matmul on the stored type.
    return {op: fn for op, fn in get_decomposition_table().items()
            if "addmm" not in str(op)}


def _foreign_ops(module) -> Tuple[str, ...]:
    names = set()

    def walk(op):
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    name = child.operation.name
                    if name.split(".", 1)[0] in _TORCH_MLIR_DIALECTS:
                        names.add(name)
                    walk(child.operation)

    walk(module.operation)
    return tuple(sorted(names))


_GENERIC_OP = re.compile(r'^\s*(%[\w$.-]+)(?::\d+)?\s*=\s*"([\w.]+)"\(([^)]*)\)',
                         re.MULTILINE)


def _spmm_weights(generic_ir: str) -> set:
    """The block arguments ("%argN") that reach the weight operand of a
    vnm.spmm, directly or through linalg.transpose / vnm.compress."""
    body = generic_ir.split("{-#", 1)[0]
    readers = {}  # value -> [(op name, result)] of ops taking it first
    for result, name, operands in _GENERIC_OP.findall(body):
        first = operands.split(",", 1)[0].strip()
        if first:
            readers.setdefault(first, []).append((name, result))
    found = set()
    for value in {v for v in readers if v.startswith("%arg")}:
        pending = [value]
        while pending:
            current = pending.pop()
            for name, result in readers.get(current, ()):
                if name == "vnm.spmm":
                    found.add(value)
                elif name in ("linalg.transpose", "vnm.compress"):
                    pending.append(result)
    return found


def lower(module: torch.nn.Module, *example_args,
          sparsity: Mapping[str, Union[str, tuple]],
          example_kwargs: Optional[Mapping[str, Any]] = None,
          dynamic_shapes: Optional[Sequence[Any]] = None,
          quantization: Optional[Mapping[str, str]] = None,
          target: Optional[str] = None, gpu_options: str = "") -> Lowering:
    """Lowers `module` at `example_args` through Torch-MLIR
    (torch_mlir.fx.export_and_import to linalg on tensors) with the
    parameters named in `sparsity` ({"fc1.weight": "64:2:8"}, names as
    in module.named_parameters() or named_buffers()) in the V:N:M format.

    `example_kwargs` are keyword inputs of the module's forward (they
    become @main arguments after the positional ones, in their order);
    `dynamic_shapes` gives torch.export's dynamic dimensions of each
    positional input and then each keyword input, in order (e.g.
    `({0: torch.export.Dim("batch")}, None)`). Non-persistent buffers are
    exported as constants. `quantization` gives weights of `sparsity` a
    quantization ({"fc1.weight": "w8a8"}: w8a8, w4a8, w8a16 or w4a16,
    optionally "-g<group size>", docs/spec.md "Quantized spmm"), applied by
    vnm-quantize; the CPU pipeline runs every form. With a GPU target the
    W8A16/W4A16 kernels need f16/bf16 activations; the W8A8/W4A8 kernels,
    and the f16/bf16 ones at M = 4 and 8, read a linear layer's activations
    x[N][K] as they are (the contract's rhs_layout says "token_major"; the
    lowered program hands them x, not a transposed copy).
    The module is exported as it is (call .eval()
    for inference) and left unchanged. Without
    `target` the result holds the vnm IR (vnm.spmm on the encoded weights);
    with a chip ("sm_90") the GPU kernels, as vnm.compile returns them.

    Raises ValueError for a name that is not a parameter or buffer, for a
    parameter that is not a matrix or that no matmul turned into vnm.spmm
    reads, and for ops of Torch-MLIR's own dialects (tm_tensor, ...) in the
    lowered program; vnm.VNMError for an invalid format; vnm.CompileError
    (the MLIR diagnostics, with which parameter each argument is) when vnm
    rejects the program, e.g. an element type the format does not hold or
    a shape the GPU kernels cannot tile.
    """
    fx, ir, get_decomposition_table = _import_torch_mlir()
    names = list(sparsity)
    if not names:
        raise ValueError("sparsity names no parameter")
    tensors = dict(module.named_parameters())
    tensors.update(module.named_buffers())
    # A tied weight (one tensor, several modules: an LM head's decoder and
    # the word embeddings) has one name in named_parameters(); its other
    # names are taken for it.
    canonical = {id(tensor): name for name, tensor in tensors.items()}
    aliases = {name: canonical[id(tensor)]
               for name, tensor in module.named_parameters(remove_duplicate=False)
               if name not in tensors and id(tensor) in canonical}
    unknown = [name for name in names if name not in tensors and name not in aliases]
    if unknown:
        raise ValueError(
            f"sparsity names {', '.join(map(repr, unknown))}, not a parameter "
            f"or buffer of {type(module).__name__} (it has "
            f"{', '.join(tensors) or 'none'})")
    requested = {}
    for name in names:
        owner = aliases.get(name, name)
        encoding = as_encoding(sparsity[name])
        if requested.setdefault(owner, encoding) != encoding:
            raise ValueError(
                f"sparsity gives the tied weight {owner!r} two formats "
                f"({requested[owner]} and {encoding}, through {name!r})")
    names = list(requested)
    encodings = requested
    quantized = {}
    for name, choice in (quantization or {}).items():
        owner = aliases.get(name, name)
        if owner not in requested:
            raise ValueError(
                f"quantization names {name!r}, which sparsity does not: only a "
                "V:N:M weight is quantized")
        if quantized.setdefault(owner, choice) != choice:
            raise ValueError(
                f"quantization gives the tied weight {owner!r} two choices "
                f"({quantized[owner]!r} and {choice!r}, through {name!r})")
    for name in names:
        if tensors[name].dim() != 2:
            raise ValueError(
                f"parameter {name!r} has shape {tuple(tensors[name].shape)}: a "
                "V:N:M weight is a matrix that a matmul reads (a linear "
                "layer's weight, not its bias)")

    keywords = tuple(example_kwargs or {})
    inputs = example_args + tuple((example_kwargs or {})[k] for k in keywords)
    weights = tuple(tensors[name].detach() for name in names)
    export_options = {}
    if dynamic_shapes is not None:
        dynamic_shapes = tuple(dynamic_shapes)
        if len(dynamic_shapes) != len(inputs):
            raise ValueError(
                f"dynamic_shapes has {len(dynamic_shapes)} entries for "
                f"{len(inputs)} inputs (positional, then keyword)")
        # The wrapper's one parameter (*args): inputs, then static weights.
        export_options["dynamic_shapes"] = (dynamic_shapes + (None,) * len(weights),)
    with _buffers_persistent(module):
        imported = fx.export_and_import(
            _WithParameters(module, keywords, names), *inputs, *weights,
            output_type="linalg-on-tensors",
            decomposition_table=_decompositions(get_decomposition_table),
            **export_options)

    foreign = _foreign_ops(imported)
    if foreign:
        raise ValueError(
            "the Torch-MLIR program holds ops of Torch-MLIR's own dialects, "
            f"which vnm does not read: {', '.join(foreign)}")
    context = imported.context
    context.allow_unregistered_dialects = True
    with context:
        main = find_function(ir, imported, "main")
        count = len(ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).inputs)
        first = count - len(names)
        index = {name: first + i for i, name in enumerate(names)}
        annotate_arguments(ir, imported, {index[n]: encodings[n] for n in names},
                           quantizations={index[n]: quantized[n] for n in quantized})
        text = str(imported)
    arguments = (None,) * first + tuple(names)

    def where() -> str:
        return ", ".join(f"%arg{index[n]} is {n!r}" for n in names)

    def check(result: CompileResult) -> None:
        nonlocal arguments
        # vnm-quantize inserted each quantized weight's scales after it.
        if quantized:
            types = argument_types(result.ir)
            renamed = [None] * first
            for name in names:
                index[name] = len(renamed)
                renamed.append(name)
                if name in quantized and is_quantized_weight(types[index[name]]):
                    index[f"{name}.scales"] = len(renamed)
                    renamed.append(f"{name}.scales")
            arguments = tuple(renamed)
        reached = _spmm_weights(compile(result.ir, None, generic=True).ir)
        missed = [n for n in names if f"%arg{index[n]}" not in reached]
        if missed:
            raise ValueError(
                f"no matmul that vnm-sparsify turned into vnm.spmm reads "
                f"{', '.join(map(repr, missed))} (argument "
                f"{', '.join(str(index[n]) for n in missed)} of @main): only "
                "the weight of a matmul (a linear layer's, or the matrix "
                "operand of torch.mm) can be held in the V:N:M format")

    try:
        result = _lower_sparsity(text, target, gpu_options, check)
    except CompileError as error:
        raise CompileError(f"{error}\nin @main, {where()}",
                           error.diagnostics) from error
    return Lowering(result, arguments, dict(index))
