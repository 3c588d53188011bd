"""Exceptions and diagnostics of the vnm package."""

from dataclasses import dataclass
from typing import Tuple


class VNMError(ValueError):
    """An error reported by the vnm library (its message is the library's)."""


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic.

    `severity` is "error", "warning", "note" or "remark"; `location` is
    "file:line:col" (or another location's text, or "" when unknown). A note
    attached to a diagnostic follows it in a list of diagnostics.
    """

    severity: str
    location: str
    message: str

    def __str__(self) -> str:
        prefix = f"{self.location}: " if self.location else ""
        return f"{prefix}{self.severity}: {self.message}"


class CompileError(VNMError):
    """Parsing or compiling MLIR failed.

    `str(error)` is a summary followed by the diagnostics, one per line, as
    mlir-opt prints them; `diagnostics` holds them as Diagnostic objects.
    """

    def __init__(self, message: str, diagnostics: Tuple[Diagnostic, ...] = ()):
        super().__init__(message)
        self.diagnostics = tuple(diagnostics)
