"""A progress bar on stderr (tqdm, from the `progress` extra) or nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def progress_bar(total: int, enabled: bool, unit: str = "config", desc: str | None = None) -> Callable[..., None]:
    """step() advances the bar, step(close=True) ends it; silent when disabled, tqdm missing, or total <= 1."""
    bar: Any = None
    if enabled and total > 1:
        try:
            from tqdm import tqdm

            bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, leave=False)
        except ImportError:
            bar = None

    def step(close: bool = False) -> None:
        if bar is None:
            return
        if close:
            bar.close()
        else:
            bar.update(1)

    return step
