"""Choose the fastest config that fits a target's on-chip memory (fit.core.fit)."""

from __future__ import annotations

from tilefit.fit.core import RankInputs, SearchPolicy, fit
from tilefit.fit.perf import DeviceModel, Score, score
from tilefit.fit.report import Dropped, FitResult, Ranked
from tilefit.space import as_config, expand, format_config

__all__ = [
    "DeviceModel",
    "Dropped",
    "FitResult",
    "RankInputs",
    "Ranked",
    "Score",
    "SearchPolicy",
    "as_config",
    "expand",
    "fit",
    "format_config",
    "score",
]
