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
    UnsupportedTarget,
)

__version__ = "0.1.0"

# Public names that live in heavier modules, imported on first use so `import tilefit` stays instant.
_LAZY = {
    "explain": "tilefit.report",
    "Explanation": "tilefit.diagnosis",
    "Diagnosis": "tilefit.diagnosis",
    "Usage": "tilefit.estimate.base",
    "Target": "tilefit.targets",
    "get_target": "tilefit.targets",
    "load_targets": "tilefit.targets",
    "KnowledgeBase": "tilefit.kb.repository",
    "load_kb": "tilefit.kb.repository",
    "Settings": "tilefit.settings",
    "install": "tilefit.plugin",
    "uninstall": "tilefit.plugin",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tilefit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

__all__ = [
    "CompileError",
    "Diagnosis",
    "DoesNotFit",
    "Explanation",
    "InputError",
    "KnowledgeBase",
    "KnowledgeBaseError",
    "MissingExtraError",
    "NoConfigFits",
    "Settings",
    "SettingsError",
    "Target",
    "TilefitError",
    "TilefitWarning",
    "UnknownTargetError",
    "UnsupportedTarget",
    "Usage",
    "__version__",
    "explain",
    "get_target",
    "install",
    "load_kb",
    "load_targets",
    "uninstall",
]
