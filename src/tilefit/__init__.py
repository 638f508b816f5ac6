"""tilefit: explain, estimate and fit on-chip memory (GPU shared memory, TPU VMEM) of ML kernels."""

from __future__ import annotations

from tilefit.errors import (
    CompileError,
    DoesNotFit,
    InputError,
    KnowledgeBaseError,
    MissingExtraError,
    NoConfigFits,
    SettingsError,
    TilefitError,
    TilefitWarning,
    UnknownTargetError,
)

__version__ = "0.1.0"

__all__ = [
    "CompileError",
    "DoesNotFit",
    "InputError",
    "KnowledgeBaseError",
    "MissingExtraError",
    "NoConfigFits",
    "SettingsError",
    "TilefitError",
    "TilefitWarning",
    "UnknownTargetError",
    "__version__",
]
