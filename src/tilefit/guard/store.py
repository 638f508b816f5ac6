"""Guard decisions live in the one on-disk store (tilefit/store.py); this name is kept for guard's imports."""

from tilefit.store import DecisionStore, stable_key

__all__ = ["DecisionStore", "stable_key"]
