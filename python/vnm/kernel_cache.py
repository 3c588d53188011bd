"""A disk cache of compiled GPU kernels.

An entry is keyed by what determines the kernels: the MLIR source, the
target, the PTX features, the binary format, the tiling options and the
package version. It holds the binaries, the launch contracts and the
identity of the compiler that made them (a digest of libVNMCAPI.so). Where
the compiler is loaded, an entry made by another build of it is stale and
is compiled again; a host that only has the format library
(libVNMFormatC.so, a GPU host without LLVM) uses the entries it finds and
cannot compile missing ones.

    result = cached_compile(mlir_text, target="sm_90")    # a CompileResult
    cache_directory()       # $VNM_CACHE_DIR, else ~/.cache/vnm/kernels

Entries are written to a temporary directory and renamed into place, so
that concurrent processes never read a partial entry.
"""

import base64
import functools
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional, Union

from . import __version__, _capi
from ._errors import VNMError
from .compiler import CompileResult, Kernel, compile

_FORMAT = 1  # of an entry's files; part of the key


def cache_directory(directory: Optional[Union[str, os.PathLike]] = None) -> Path:
    """The cache's root: `directory`, else $VNM_CACHE_DIR, else
    $XDG_CACHE_HOME/vnm/kernels (~/.cache/vnm/kernels)."""
    if directory is not None:
        return Path(directory)
    if os.environ.get("VNM_CACHE_DIR"):
        return Path(os.environ["VNM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "vnm" / "kernels"


@functools.lru_cache(maxsize=None)
def compiler_identity() -> Optional[str]:
    """A digest of the loaded compiler library, or None on a host with the
    format library only."""
    if not _capi.has_compiler:
        return None
    digest = hashlib.sha256(Path(_capi.library_path).read_bytes()).hexdigest()
    return f"{__version__}+{digest[:16]}"


def cache_key(source: str, target: str, features: str, binary_format: str,
              gpu_options: str) -> str:
    fields = {"format": _FORMAT, "version": __version__, "source": source,
              "target": target, "features": features,
              "binary_format": binary_format, "gpu_options": gpu_options}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _read_entry(path: Path) -> Optional[dict]:
    try:
        return json.loads((path / "entry.json").read_text())
    except (OSError, ValueError):
        return None


def _result(entry: dict) -> CompileResult:
    binaries = {name: base64.b64decode(data) for name, data in entry["binaries"].items()}
    kernels = tuple(Kernel(k["name"], k["binary"], k["contract"]) for k in entry["kernels"])
    return CompileResult(ir=entry["ir"], pipeline=entry["pipeline"], diagnostics=(),
                         binaries=binaries, kernels=kernels)


def _write_entry(root: Path, key: str, result: CompileResult, identity: str) -> None:
    binaries = {name: base64.b64encode(data).decode() for name, data in result.binaries.items()}
    entry = {"key": key, "compiler": identity, "ir": result.ir,
             "pipeline": result.pipeline, "binaries": binaries,
             "kernels": [{"name": k.name, "binary": k.binary, "contract": k.contract}
                         for k in result.kernels]}
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key[:16]}-", dir=root))
    try:
        (staging / "entry.json").write_text(json.dumps(entry))
        final = root / key
        if final.exists():
            shutil.rmtree(final, ignore_errors=True)
        try:
            os.replace(staging, final)
        except OSError:
            pass  # another process put an entry there first; either is valid
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def cached_compile(source: str, *, target: str, features: str = "+ptx85",
                   binary_format: str = "isa", gpu_options: str = "",
                   directory: Optional[Union[str, os.PathLike]] = None) -> CompileResult:
    """vnm.compile(source, target=...) through the cache (see the module's
    docstring). Raises CompileError as vnm.compile does, and VNMError when
    no valid entry exists on a host that cannot compile."""
    root = cache_directory(directory)
    key = cache_key(source, target, features, binary_format, gpu_options)
    entry = _read_entry(root / key)
    identity = compiler_identity()
    if entry is not None and entry.get("key") == key:
        if identity is None or entry.get("compiler") == identity:
            return _result(entry)
    if identity is None:
        raise VNMError(f"no cached kernels for this program in {root} (key {key[:16]}), "
                       f"and {_capi.library_path} cannot compile: compile them where "
                       "libVNMCAPI.so is available, with the same cache directory")
    result = compile(source, target=target, features=features,
                     binary_format=binary_format, gpu_options=gpu_options)
    _write_entry(root, key, result, identity)
    return result
