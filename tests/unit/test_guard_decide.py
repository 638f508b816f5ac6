"""The guard's one specialisation key, and its stored decisions through the one store (D10)."""

from __future__ import annotations

from pathlib import Path

from tilefit.guard.decide import specialisation_key
from tilefit.store import DecisionStore


def test_one_specialisation_key_for_declared_types_and_plain_values() -> None:
    key = specialisation_key({"x": "*fp16:16", "n": "i32:16", "one": 1, "none": None,
                              "d": "tensordesc<fp16[64,64]>"})
    assert key == "x=*fp16:16 n=i32:16 one=1 none=None d=tensordesc<fp16[64, 64]>"


def test_a_guard_decision_round_trips_and_stale_indices_are_misses(tmp_path: Path) -> None:
    store = DecisionStore(tmp_path, "0123456789abcdef" * 2, "kern", tools={"triton": "3.9.0"})
    store.put("sm_90:H100:232448", "k1", {"changes": {"num_stages": 4}, "compiler": "triton 3.9.0"})
    store.put("sm_90:H100:232448", "k2", {"keep": [0, 7], "compiler": "triton 3.9.0"})
    assert store.get("sm_90:H100:232448", "k1") == {"changes": {"num_stages": 4}, "compiler": "triton 3.9.0"}
    assert store.keep("sm_90:H100:232448", "k2", 8) == [0, 7]
    assert store.keep("sm_90:H100:232448", "k2", 4) is None  # index 7 is out of a 4-config space
    other = DecisionStore(tmp_path, "0123456789abcdef" * 2, "kern", tools={"triton": "3.6.0"})
    assert other.get("sm_90:H100:232448", "k1") is None  # another Triton's decision is not reused
