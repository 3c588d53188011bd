"""Lowering JAX functions through vnm.

    result = vnm.jax.lower(mlp, x, w1, w2, sparsity={1: "64:2:8"},
                           target="sm_90")

JAX lowers `fn` to StableHLO; inside JAX's own MLIR (which has the
StableHLO, func, linalg and tensor dialects) `stablehlo-legalize-to-linalg`
turns it into linalg on tensors, and the arguments named in `sparsity` get
`{vnm.encoding = #vnm.encoding<...>}`. The text then crosses into vnm, where
`linalg-specialize-generic-ops` recovers the transposes JAX emits for
`x @ W.T` and `vnm-sparsify` turns the matmuls on those arguments into
`vnm.spmm` (the caller then passes those weights in the V:N:M format).
Without `target` the result is that vnm IR; with one, its GPU kernels.
"""

from typing import Mapping, Optional, Union

from ._frontend import FRONTEND_PIPELINE, annotate_arguments, sparsify
from .compiler import CompileResult
from .format import as_encoding


def to_linalg(fn, *example_args,
              sparsity: Optional[Mapping[int, Union[str, tuple]]] = None) -> str:
    """The linalg-on-tensors text of `jax.jit(fn)` at `example_args`, with
    {vnm.encoding = ...} on the entry function's arguments in `sparsity`."""
    import jax
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir.dialects import stablehlo

    text = jax.jit(fn).lower(*example_args).as_text()
    context = jax_mlir.make_ir_context()
    # JAX's MLIR does not know vnm: the encodings are held as opaque
    # attributes and printed back verbatim for vnm to parse.
    context.allow_unregistered_dialects = True
    with context:
        stablehlo.register_stablehlo_passes()
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(
            "builtin.module(func.func(stablehlo-legalize-to-linalg))").run(
                module.operation)
        if sparsity:
            annotate_arguments(ir, module, {index: as_encoding(e)
                                            for index, e in sparsity.items()})
        return str(module)


def lower(fn, *example_args, sparsity: Mapping[int, Union[str, tuple]],
          target: Optional[str] = None, gpu_options: str = "") -> CompileResult:
    """Lowers `fn` at `example_args` with the arguments in `sparsity`
    (positional index -> format, e.g. {1: "64:2:8"}) in the V:N:M format.

    Raises ValueError for an index that is not an argument, and
    vnm.CompileError (with the diagnostics naming the op) when a requested
    format cannot apply."""
    for index in sparsity:
        if not 0 <= index < len(example_args):
            raise ValueError(f"sparsity names argument {index}, but the "
                             f"function has {len(example_args)}")
    text = to_linalg(fn, *example_args, sparsity=sparsity)
    return sparsify(text, target, gpu_options)
