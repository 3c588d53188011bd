"""What the framework frontends (vnm.jax, vnm.torch) share.

A frontend brings its program to linalg on tensors inside its own MLIR
Python binding, marks the weight arguments with `{vnm.encoding = ...}`
(`annotate_arguments`, with that binding's `ir` module) and hands the text to
`sparsify`, which runs `FRONTEND_PIPELINE` in vnm and, with a `target`, the
GPU pipeline.
"""

import re
from typing import Callable, List, Mapping, Optional

from .compiler import CompileResult, compile
from .format import Encoding

# vnm-specialize-transposes recovers the linalg.transpose of `x @ W.T` from
# the generic JAX writes (upstream's linalg-specialize-generic-ops would
# also mis-specialize einsum attention); vnm-flatten-broadcast-matmuls makes
# matmuls of PyTorch's bmm(x, expand(W.T)); vnm-sparsify then turns the
# matmuls on encoded weights into vnm.spmm; the inliner brings JAX's private
# activation functions (@relu) next to them, and vnm-fuse-epilogue folds
# bias, relu and conversion into the spmm, so that they are applied before
# its single rounding.
# vnm-quantize applies the quantization choices of the weight arguments
# (vnm.quantization next to vnm.encoding), which vnm-sparsify hands to the
# spmm ops.
FRONTEND_PIPELINE = (
    "builtin.module(func.func(vnm-specialize-transposes, "
    "vnm-flatten-broadcast-matmuls), vnm-sparsify, vnm-quantize, "
    "inline, vnm-fuse-epilogue)")


def encoding_attribute_text(encoding: Encoding) -> str:
    return f"#vnm.encoding<v = {encoding.v}, n = {encoding.n}, m = {encoding.m}>"


def find_function(ir, module, name: str):
    """The func.func `name` in `module` (an `ir.Module` of any binding)."""
    for op in module.body.operations:
        if ("sym_name" in op.attributes
                and ir.StringAttr(op.attributes["sym_name"]).value == name):
            return op
    raise ValueError(f"the module has no function @{name}")


def annotate_arguments(ir, module, encodings: Mapping[int, Encoding],
                       function: str = "main",
                       quantizations: Optional[Mapping[int, str]] = None) -> None:
    """Adds {vnm.encoding = ...} to the arguments of `function` in `module`
    (index -> Encoding), and {vnm.quantization = "w8a8"} to those in
    `quantizations` (index -> choice), keeping their other attributes.

    `ir` is the binding's ir module (jaxlib.mlir.ir, torch_mlir.ir); its
    context must allow unregistered dialects, since it does not know vnm:
    the attribute is held opaque and printed back verbatim for vnm."""
    func = find_function(ir, module, function)
    inputs = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs
    old = (list(ir.ArrayAttr(func.attributes["arg_attrs"]))
           if "arg_attrs" in func.attributes else [ir.DictAttr.get({})] * len(inputs))
    new = []
    for index in range(len(inputs)):
        entries = {n.name: n.attr for n in ir.DictAttr(old[index])}
        if index in encodings:
            entries["vnm.encoding"] = ir.Attribute.parse(
                encoding_attribute_text(encodings[index]))
        if index in (quantizations or {}):
            entries["vnm.quantization"] = ir.StringAttr.get(quantizations[index])
        new.append(ir.DictAttr.get(entries))
    func.attributes["arg_attrs"] = ir.ArrayAttr.get(new)


def argument_types(ir_text: str, function: str = "main") -> List[str]:
    """The argument types of `function` in vnm IR text, in order."""
    start = ir_text.index(f"func.func @{function}(") + len(f"func.func @{function}(")
    depth, entries, current = 0, [], ""
    for char in ir_text[start:]:
        if char in "<({[":
            depth += 1
        elif char in ">)}]":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            entries.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        entries.append(current)
    return [re.sub(r"\s*\{.*$", "", entry.split(":", 1)[1]).strip() for entry in entries]


def is_quantized_weight(argument_type: str) -> bool:
    """Whether an argument type is an i8/i4 V:N:M matrix, which vnm-quantize
    makes of a quantized weight argument (its scales are the next one)."""
    return re.search(r"x(i8|i4), #vnm\.encoding", argument_type) is not None


def sparsify(text: str, target: Optional[str] = None, gpu_options: str = "",
             check: Optional[Callable[[CompileResult], None]] = None
             ) -> CompileResult:
    """Runs FRONTEND_PIPELINE on annotated linalg text; with `target`, then
    the GPU pipeline on its result. `check`, if given, sees the vnm IR
    before the GPU pipeline (and raises to reject it). Raises
    vnm.CompileError."""
    result = compile(text, FRONTEND_PIPELINE)
    if check is not None:
        check(result)
    if target is None:
        return result
    return compile(result.ir, target=target, gpu_options=gpu_options)
