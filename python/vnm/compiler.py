"""Compiling MLIR through vnm: parse, run a pass pipeline, print.

IR crosses into and out of vnm as text (or bytecode), never as Python
objects of another MLIR binding: a JAX or Torch-MLIR program is exported as
text by its own MLIR and parsed here.

    result = vnm.compile(mlir_text)                    # CPU pipeline
    result = vnm.compile(mlir_text, pipeline="builtin.module(vnm-expand-storage)")
    print(result.ir)
    result = vnm.compile(mlir_text, target="sm_90")    # GPU kernels
    print(result.ptx, result.kernels[0].contract)

A Compiler and its modules may be used from one thread at a time.
"""

import ctypes
import json
import os
import re
import tempfile
import weakref
from dataclasses import dataclass, field
from typing import Dict, Mapping, Optional, Tuple, Union

from . import _capi
from ._capi import lib
from ._errors import CompileError, Diagnostic, VNMError

# vnm ops on tensors down to the LLVM dialect (docs/pipeline.md); run the
# result with mlir-runner and libvnm_cpu_runtime.so.
CPU_PIPELINE = "builtin.module(vnm-lower-to-cpu-pipeline)"

Source = Union[str, bytes]


class _Owned:
    """A C API handle released by close(), on leaving a `with` block, or
    when the object is collected; subclasses implement _release(handle)."""

    _handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __del__(self):
        self.close()

    def close(self) -> None:
        handle = self._handle
        if handle is None or not handle.ptr:
            return
        self._release(handle)
        self._handle = type(handle)(None)


class Compiler(_Owned):
    """An MLIR context with every upstream dialect and vnm registered.

    Creating one registers every upstream and vnm pass (once per process).
    Each call records the diagnostics it produced in `diagnostics`; a failing
    call raises CompileError carrying them. Use as a context manager, or call
    close(), to release the context early; its modules are closed with it.
    """

    def __init__(self):
        if not _capi.has_compiler:
            raise VNMError(
                f"{_capi.library_path} holds the format library only; compiling "
                "needs libVNMCAPI.so (set VNM_LIBRARY_PATH to it)")
        self._handle = lib.vnmCompilerCreate()
        self._modules = weakref.WeakSet()

    def _release(self, handle: _capi.Compiler) -> None:
        for module in list(self._modules):
            module.close()
        lib.vnmCompilerDestroy(handle)

    def _checked_handle(self) -> _capi.Compiler:
        if not self._handle.ptr:
            raise ValueError("the compiler is closed")
        return self._handle

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        """The diagnostics of the last call on this compiler or its modules."""
        handle = self._checked_handle()
        return tuple(
            Diagnostic(
                _capi.SEVERITIES[lib.vnmCompilerGetDiagnosticSeverity(handle, i)],
                _capi.read_string_ref(lib.vnmCompilerGetDiagnosticLocation(handle, i)),
                _capi.read_string_ref(lib.vnmCompilerGetDiagnosticMessage(handle, i)),
            )
            for i in range(lib.vnmCompilerGetNumDiagnostics(handle))
        )

    def _check(self, status: _capi.Status) -> None:
        if status.ptr:
            diagnostics = self.diagnostics
            raise CompileError(_capi.status_message(status), diagnostics)

    def parse(self, source: Source, name: str = "<source>") -> "Module":
        """Parses and verifies MLIR text (str or bytes) or bytecode (bytes).

        `name` is the file name diagnostics locations refer to.
        """
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
        source_ref, keep_source = _capi.string_ref(data)
        name_ref, keep_name = _capi.string_ref(name.encode("utf-8"))
        handle = _capi.Module()
        status = lib.vnmModuleParse(
            self._checked_handle(), source_ref, name_ref, ctypes.byref(handle)
        )
        del keep_source, keep_name
        self._check(status)
        module = Module(self, handle)
        self._modules.add(module)
        return module


class Module(_Owned):
    """A builtin.module owned by a Compiler (see Compiler.parse)."""

    def __init__(self, compiler: Compiler, handle: _capi.Module):
        # Keeps the compiler (and its MLIR context) alive as long as the IR.
        self._compiler = compiler
        self._handle = handle

    def _release(self, handle: _capi.Module) -> None:
        lib.vnmModuleDestroy(handle)

    def _checked_handle(self) -> _capi.Module:
        if not self._handle.ptr:
            raise ValueError("the module is closed")
        return self._handle

    @property
    def compiler(self) -> Compiler:
        return self._compiler

    def run(self, pipeline: str) -> "Module":
        """Runs a textual pass pipeline in place and returns self.

        The pipeline names its anchor: "builtin.module(canonicalize,cse)",
        or "func.func(cse)" to run on every function.
        """
        pipeline_ref, keep = _capi.string_ref(pipeline.encode("utf-8"))
        status = lib.vnmModuleRunPipeline(self._checked_handle(), pipeline_ref)
        del keep
        self._compiler._check(status)
        return self

    def to_text(self, *, generic: bool = False, debug_info: bool = False) -> str:
        """The module as MLIR text, optionally in generic form or with locations."""
        flags = (_capi.PRINT_GENERIC if generic else 0) | (
            _capi.PRINT_DEBUG_INFO if debug_info else 0
        )
        text = _capi.String()
        status = lib.vnmModulePrint(self._checked_handle(), flags, ctypes.byref(text))
        self._compiler._check(status)
        return _capi.take_string(text).decode("utf-8")

    def to_bytecode(self) -> bytes:
        """The module as MLIR bytecode (Compiler.parse reads it back)."""
        data = _capi.String()
        status = lib.vnmModuleWriteBytecode(self._checked_handle(), ctypes.byref(data))
        self._compiler._check(status)
        return _capi.take_string(data)

    def __str__(self) -> str:
        return self.to_text()


def gpu_pipeline(target: str = "sm_90", features: str = "+ptx85",
                 binary_format: str = "isa", dump_dir: str = "",
                 options: str = "") -> str:
    """The vnm-lower-to-nvvm-pipeline invocation for a chip (docs/gpu.md);
    `options` adds pipeline options such as "block-rows=64"."""
    # Each value becomes one pipeline option: one holding a space, brace or
    # '=' would set other options or break the pipeline's syntax. Which chips
    # and PTX versions are supported is the compiler's to say
    # (docs/pipeline.md, "Supported targets").
    for option, value, pattern in (("target", target, r"[\w.+-]*"),
                                   ("features", features, r"[\w.+,-]*"),
                                   ("binary_format", binary_format, r"\w*")):
        if not isinstance(value, str) or not re.fullmatch(pattern, value):
            raise CompileError(f"{option} {value!r} is not a pipeline option "
                               "value")
    text = f"chip={target} features={features} format={binary_format}"
    if options:
        text += " " + options
    if dump_dir:
        text += f" dump-dir={dump_dir}"
    return f"builtin.module(vnm-lower-to-nvvm-pipeline{{{text}}})"


@dataclass(frozen=True)
class Kernel:
    """One generated GPU kernel: its name, the gpu.binary holding it and its
    launch contract (parameters, block, grid, shared memory; docs/gpu.md)."""

    name: str
    binary: str
    contract: Dict


@dataclass(frozen=True)
class CompileResult:
    """What vnm.compile produced.

    `ir` is the module after the pipeline, as MLIR text; `diagnostics` holds
    the warnings and remarks emitted on the way. With a GPU `target`,
    `binaries` maps each gpu.binary's name to its object (PTX text for
    format "isa", cubin bytes for "bin") and `kernels` lists the kernels with
    their launch contracts; the CPU pipeline produces neither.
    """

    ir: str
    pipeline: Optional[str]
    diagnostics: Tuple[Diagnostic, ...] = ()
    binaries: Mapping[str, bytes] = field(default_factory=dict)
    kernels: Tuple[Kernel, ...] = ()

    def write(self, directory: str) -> None:
        """Writes the binaries and launch contracts as vnm-dump-kernels does
        (<binary>.ptx or .cubin, <kernel>.json), for SpmmKernel.from_files."""
        os.makedirs(directory, exist_ok=True)
        extension = ".ptx" if "format=isa" in (self.pipeline or "") else ".cubin"
        for name, data in self.binaries.items():
            with open(os.path.join(directory, name + extension), "wb") as f:
                f.write(data)
        for kernel in self.kernels:
            with open(os.path.join(directory, kernel.name + ".json"), "w") as f:
                json.dump(kernel.contract, f, indent=1)

    @property
    def ptx(self) -> str:
        """The PTX of the (single) gpu.binary compiled with format "isa"."""
        if len(self.binaries) != 1:
            raise ValueError(f"{len(self.binaries)} binaries; use .binaries")
        return next(iter(self.binaries.values())).decode("utf-8")

    def __str__(self) -> str:
        return self.ir


def _read_gpu_artifacts(directory: str):
    """The binaries and launch contracts vnm-dump-kernels wrote."""
    binaries, contracts = {}, []
    for entry in sorted(os.listdir(directory)):
        path = os.path.join(directory, entry)
        stem, ext = os.path.splitext(entry)
        if ext == ".json":
            with open(path) as f:
                contracts.append(json.load(f))
        elif ext in (".ptx", ".cubin", ".fatbin"):
            with open(path, "rb") as f:
                binaries[stem] = f.read()
    kernels = tuple(Kernel(c["kernel"], c["module"], c) for c in contracts)
    return binaries, kernels


def compile(
    source: Source,
    pipeline: Optional[str] = CPU_PIPELINE,
    *,
    target: Optional[str] = None,
    features: str = "+ptx85",
    binary_format: str = "isa",
    gpu_options: str = "",
    name: str = "<source>",
    generic: bool = False,
    debug_info: bool = False,
) -> CompileResult:
    """Parses `source` (MLIR text or bytecode), runs `pipeline` on it (None:
    parse and verify only) and returns the resulting IR.

    With `target` (a chip such as "sm_90" or "sm_80") the GPU pipeline runs
    instead of `pipeline`: every vnm.spmm becomes a sparse-tensor-core
    kernel, and the result holds the binaries (PTX for `binary_format`
    "isa", which needs no CUDA; "bin" needs ptxas) and each kernel's launch
    contract. `gpu_options` passes tiling options ("block-rows=64 ...").

    Raises CompileError, with the MLIR diagnostics, when the source does not
    parse or verify, when the pipeline is invalid, or when a pass fails.
    """
    if target is not None:
        with tempfile.TemporaryDirectory(prefix="vnm-gpu-") as directory:
            gpu = gpu_pipeline(target, features, binary_format, directory,
                               gpu_options)
            result = compile(source, gpu, name=name, generic=generic,
                             debug_info=debug_info)
            binaries, kernels = _read_gpu_artifacts(directory)
        return CompileResult(ir=result.ir, pipeline=gpu,
                             diagnostics=result.diagnostics,
                             binaries=binaries, kernels=kernels)
    with Compiler() as compiler:
        diagnostics = []
        module = compiler.parse(source, name)
        diagnostics += compiler.diagnostics
        if pipeline is not None:
            module.run(pipeline)
            diagnostics += compiler.diagnostics
        ir = module.to_text(generic=generic, debug_info=debug_info)
        return CompileResult(ir=ir, pipeline=pipeline, diagnostics=tuple(diagnostics))
