"""The guard's decision store and its stored `keep` lists survive files of the wrong shape (D10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilefit.guard.decide import _valid_indices, specialisation_key
from tilefit.guard.store import DecisionStore

POISON = {"truncated": '{"kernel": "k", "decis', "garbage": "\x00\x01", "list": "[1,2]", "null": "null",
          "decisions_list": '{"decisions": [1, 2]}', "device_list": '{"decisions": {"sm_90": [1]}}'}


@pytest.mark.parametrize("text", POISON.values(), ids=POISON.keys())
def test_a_poisoned_file_holds_nothing_and_is_replaced(text: str, tmp_path: Path) -> None:
    store = DecisionStore(tmp_path, "0123456789abcdef" * 2, "kern")
    store.path.parent.mkdir(parents=True)
    store.path.write_text(text)
    assert store.get("sm_90", "key") is None
    store.put("sm_90", "key", {"changes": {"num_stages": 2}})
    again = DecisionStore(tmp_path, "0123456789abcdef" * 2, "kern")
    assert again.get("sm_90", "key") == {"changes": {"num_stages": 2}}
    assert list(store.path.parent.glob("*.tmp")) == []


@pytest.mark.parametrize(("keep", "ok"), [([0, 2], True), ([0, 8], False), ([-1], False), ([], False),
                                          (["0"], False), ([True], False), ([1, 1], False), ("0", False)])
def test_stored_keep_indices_are_bounds_checked(keep: object, ok: bool) -> None:
    assert (_valid_indices(keep, 8) is not None) == ok


def test_one_specialisation_key_for_declared_types_and_plain_values() -> None:
    key = specialisation_key({"x": "*fp16:16", "n": "i32:16", "one": 1, "none": None, "d": "tensordesc<fp16[64,64]>"})
    assert key == "x=*fp16:16 n=i32:16 one=1 none=None d=tensordesc<fp16[64, 64]>"
