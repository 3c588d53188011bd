"""Lowering JAX functions through vnm.

    result = vnm.jax.lower(mlp, x, w1, w2, sparsity={1: "64:2:8"},
                           target="sm_90")

JAX lowers `fn` to StableHLO; inside JAX's own MLIR (which has the
StableHLO, func, linalg and tensor dialects) `stablehlo-legalize-to-linalg`
turns it into linalg on tensors, and the arguments named in `sparsity` get
`{vnm.encoding = #vnm.encoding<...>}`. The text then crosses into vnm, where
`vnm-specialize-transposes` recovers the transposes JAX emits for `x @ W.T`
and `vnm-sparsify` turns the matmuls on those arguments into `vnm.spmm`
(the caller then passes those weights in the V:N:M format).
Without `target` the result is that vnm IR; with one, its GPU kernels.
"""

from typing import Mapping, Optional, Union

from ._errors import CompileError
from ._frontend import FRONTEND_PIPELINE, annotate_arguments, find_function, sparsify
from .compiler import CompileResult
from .format import as_encoding


# Arguments JAX adds to @main ahead of the function's own: dimension
# variables of symbolic shapes (jax.export.symbolic_shape) and effect tokens.
_JAX_ADDED_ARGUMENT_ATTRIBUTES = ("jax.global_constant", "jax.token")


def _user_arguments(ir, module):
    """Positions of @main's arguments that are the function's own array
    arguments (flattened), in order: those JAX did not add."""
    main = find_function(ir, module, "main")
    inputs = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).inputs
    if "arg_attrs" not in main.attributes:
        return list(range(len(inputs)))
    positions = []
    for position, attrs in enumerate(ir.ArrayAttr(main.attributes["arg_attrs"])):
        names = {entry.name for entry in ir.DictAttr(attrs)}
        if not names.intersection(_JAX_ADDED_ARGUMENT_ATTRIBUTES):
            positions.append(position)
    return positions


def _argument_leaves(example_args):
    """For each positional argument, the indices of its pytree leaves among
    all the function's flattened array arguments."""
    import jax
    leaves, first = [], 0
    for arg in example_args:
        count = len(jax.tree_util.tree_leaves(arg))
        leaves.append(list(range(first, first + count)))
        first += count
    return leaves, first


def to_linalg(fn, *example_args,
              sparsity: Optional[Mapping[int, Union[str, tuple]]] = None,
              quantization: Optional[Mapping[int, str]] = None) -> str:
    """The linalg-on-tensors text of `jax.jit(fn)` at `example_args`, with
    {vnm.encoding = ...} on the entry function's arguments for the
    positional arguments of `fn` named in `sparsity`, and
    {vnm.quantization = ...} for those named in `quantization`.

    Indices name `fn`'s own positional arguments, whatever JAX adds to the
    entry function (dimension variables of symbolic shapes, effect tokens);
    unused arguments are kept (`keep_unused`) so that none shifts the
    others."""
    import jax
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir.dialects import stablehlo

    sparsity = dict(sparsity or {})
    quantization = dict(quantization or {})
    unknown = [index for index in quantization if index not in sparsity]
    if unknown:
        raise ValueError(
            f"quantization names argument {unknown[0]!r}, which sparsity does "
            "not: only a V:N:M weight is quantized")
    leaves, count = _argument_leaves(example_args)
    for index in sparsity:
        if not isinstance(index, int) or not 0 <= index < len(example_args):
            raise ValueError(f"sparsity names argument {index!r}, but the "
                             f"function has {len(example_args)} positional "
                             "arguments")
        if len(leaves[index]) != 1:
            raise ValueError(
                f"sparsity names argument {index}, which holds "
                f"{len(leaves[index])} arrays: a V:N:M weight is one array "
                "(pass the weight as its own argument)")
    text = jax.jit(fn, keep_unused=True).lower(*example_args).as_text()
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
            positions = _user_arguments(ir, module)
            if len(positions) != count:
                raise ValueError(
                    f"the function's {count} array arguments do not match the "
                    f"{len(positions)} that JAX's entry function takes for "
                    "them; vnm cannot tell which argument is which")
            annotate_arguments(ir, module, {
                positions[leaves[index][0]]: as_encoding(encoding)
                for index, encoding in sparsity.items()}, quantizations={
                positions[leaves[index][0]]: choice
                for index, choice in quantization.items()})
        return str(module)


def lower(fn, *example_args, sparsity: Mapping[int, Union[str, tuple]],
          quantization: Optional[Mapping[int, str]] = None,
          target: Optional[str] = None, gpu_options: str = "") -> CompileResult:
    """Lowers `fn` at `example_args` with the arguments in `sparsity`
    (positional index of `fn`'s arguments -> format, e.g. {1: "64:2:8"}) in
    the V:N:M format, and those in `quantization` (index -> "w8a8", ...,
    as for vnm.torch.lower) quantized: such a weight argument of @main
    takes vnm.format.quantize_weights' storage, and its scales are a new
    argument right after it (the CPU pipeline runs it; no GPU kernels yet).

    Raises ValueError for an index that is not an array argument, and
    vnm.CompileError (with the diagnostics naming the op, and which
    argument of `fn` each entry-function argument is) when a requested
    format cannot apply."""
    text = to_linalg(fn, *example_args, sparsity=sparsity, quantization=quantization)
    try:
        return sparsify(text, target, gpu_options)
    except CompileError as error:
        raise CompileError(f"{error}\nin {_describe(fn)}", error.diagnostics) from error


def _describe(fn) -> str:
    """Where `fn` is defined, for errors that reach the user."""
    import inspect
    name = getattr(fn, "__qualname__", repr(fn))
    try:
        source = inspect.getsourcefile(fn)
        line = inspect.getsourcelines(fn)[1]
        return f"{name} ({source}:{line})"
    except (TypeError, OSError):
        return name
