"""vnm.torch.sparsify: prune, compile and swap a model's linear layers in
one call (docs/torch.md)."""

from typing import Any, Callable, Dict, Optional

import torch

from . import format as vf
from ._errors import CompileError
from ._linear_layer import WEIGHT_ONLY_FORMS, layer_program
from ._sparse_linear import _ELEMENT_TYPES, VNMLinear


def _parent(model: torch.nn.Module, name: str):
    if "." not in name:
        return model, name
    path, attribute = name.rsplit(".", 1)
    return model.get_submodule(path), attribute


def _compile_layers(model, layers, dtype, target, gpu_options, cache_dir,
                    quantization=None) -> Dict[str, Any]:
    """{layer name: CompileResult}, each distinct layer program compiled
    once through the kernel cache; a CompileError names the layer."""
    from .kernel_cache import cached_compile

    compiled: Dict[str, Any] = {}
    kernels = {}
    for name, (_, encoding) in layers.items():
        linear = model.get_submodule(name)
        encoding = vf.as_encoding(encoding)
        program = layer_program(linear.out_features, linear.in_features, encoding,
                                _ELEMENT_TYPES[dtype or linear.weight.dtype],
                                _ELEMENT_TYPES.get(linear.weight.dtype, "f32"),
                                linear.bias is not None, quantization)
        if program not in compiled:
            try:
                compiled[program] = cached_compile(program, target=target,
                                                   gpu_options=gpu_options,
                                                   directory=cache_dir)
            except CompileError as error:
                raise CompileError(f"layer {name!r} ({linear.out_features} x "
                                   f"{linear.in_features}, {encoding}) does not compile "
                                   f"for {target}: {error}", error.diagnostics) from error
        kernels[name] = compiled[program]
    return kernels


def sparsify(model: torch.nn.Module, sparsity, calibration=None, *,
             method: Optional[str] = None, target: Optional[str] = None,
             dtype: Optional[torch.dtype] = None, prune: bool = True,
             refit: bool = False, compensate: bool = False, damp: float = 0.01,
             forward: Optional[Callable] = None, gpu_options: str = "",
             cache_dir: Optional[str] = None,
             quantization: Optional[str] = None) -> torch.nn.Module:
    """Prunes the nn.Linear layers named in `sparsity`, compiles a kernel for
    each and replaces them by VNMLinear layers, in place; returns `model`.

    sparsity     as vnm.pruning.prune_model takes it: {"fc1": "64:2:8",
                 "fc2.weight": "2:4"} or one encoding for every nn.Linear
    calibration  model inputs for the data-aware methods (prune_model's
                 `calibration`; `forward` runs an item)
    method       "sparsegpt" (default with calibration), "wanda" or
                 "magnitude" (default without); `refit`, `compensate`, `damp`
                 as prune_model takes them
    prune        False: the weights are V:N:M already (pruned, perhaps
                 distilled, by the caller); a weight that is not is refused
    target       a GPU chip ("sm_90"): each distinct layer program is
                 compiled once, through the kernel cache (vnm.kernel_cache,
                 `cache_dir`), with `gpu_options`; None: CPU only (the
                 layers compute through the format library)
    dtype        the weights' element type: torch.float16 (default with a
                 target, for an f32 model) or bfloat16; f32 only without a
                 target. The layers return the model's dtype.
    quantization "w8a16" or "w4a16": after pruning, each layer's kept values
                 are quantized to i8 or i4 per output row (weight-only; x
                 keeps `dtype`); None: float weights

    Every selected layer's PrunedWeight (mask, calibration rows, error) is
    in its VNMLinear's `pruning` attribute (None with prune=False). Raises
    ValueError for a bad name, encoding or method or a weight that is not
    V:N:M with prune=False, and vnm.CompileError naming the layer whose
    kernel does not compile. Kernels are compiled before anything is
    pruned: a layer that does not compile leaves the model unchanged.
    """
    from . import pruning as vp

    if target is not None and dtype is None:
        dtype = torch.float16
    if dtype is not None and dtype not in _ELEMENT_TYPES:
        raise ValueError(f"dtype must be torch.float16, bfloat16 or float32, not {dtype}")
    if target is not None and dtype == torch.float32:
        raise ValueError("the GPU kernels take f16 or bf16 weights; pass dtype=torch.float16 "
                         "or torch.bfloat16 with a target")
    if quantization is not None and quantization not in WEIGHT_ONLY_FORMS:
        raise ValueError(f"quantization must be one of {sorted(WEIGHT_ONLY_FORMS)}, not "
                         f"{quantization!r}")
    layers = vp._resolve_sparsity(model, sparsity)
    if "" in layers:
        raise ValueError("the model is itself an nn.Linear; wrap it in a module to replace it")
    for name in layers:
        weight_dtype = model.get_submodule(name).weight.dtype
        if weight_dtype not in _ELEMENT_TYPES:
            raise ValueError(f"layer {name!r} is {weight_dtype}; vnm layers take f16, bf16 "
                             "or f32 models")
    # Kernels first: they depend on the shapes and types only, and a layer
    # that does not compile must leave the model untouched (unpruned).
    kernels: Dict[str, Any] = {}
    if target is not None:
        kernels = _compile_layers(model, layers, dtype, target, gpu_options, cache_dir,
                                  quantization)
    results: Dict[str, Any] = {}
    if prune:
        method = method or ("sparsegpt" if calibration is not None else "magnitude")
        results = vp.prune_model(model, {parameter: enc for parameter, enc in layers.values()},
                                 calibration, method, forward=forward, refit=refit,
                                 compensate=compensate, damp=damp)
    elif method is not None or calibration is not None:
        raise ValueError("prune=False takes no calibration or method")

    replacements = {}
    for name, (parameter, encoding) in layers.items():
        linear = model.get_submodule(name)
        layer = VNMLinear(linear, encoding, dtype=dtype or linear.weight.dtype,
                          kernel=kernels.get(name), name=name, quantization=quantization)
        layer.pruning = results.get(parameter)
        replacements[name] = layer.to(linear.weight.device)
    for name, layer in replacements.items():
        parent, attribute = _parent(model, name)
        setattr(parent, attribute, layer)
    return model
