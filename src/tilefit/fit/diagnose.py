"""Renamed to fit/nofit.py (what to say when no config fits); re-exported for existing imports."""

from __future__ import annotations

from tilefit.fit.nofit import Probe, fixed_dims, no_config_fits

__all__ = ["Probe", "fixed_dims", "no_config_fits"]
