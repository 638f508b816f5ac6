"""tilefit.store: what is read from disk is validated; wrong-shape, forged or stale records are misses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilefit.estimate.base import Failure, Overrun, Usage, VmemDetail
from tilefit.store import USAGE, DecisionStore, Store, key, stable_key

SRC = Path(__file__).resolve().parents[2] / "src"
GOOD = Usage(target="sm_90", resource="shared-memory", bytes=98304, limit=232448, mode="fast",
             config={"BLOCK_M": 128, "num_warps": 4}, fits=True, threads=128, compiler="triton 3.9.0",
             extra={"num_warps": 4})
TOOLS = {"triton": "3.9.0"}


def _store(root: Path) -> Store[Usage]:
    return Store(root, USAGE, TOOLS)


def test_key_is_stable_and_sensitive() -> None:
    parts = {"kernel": "abc", "options": {"num_warps": 4, "num_stages": 3}, "target": "sm_90"}
    same = {"target": "sm_90", "options": {"num_stages": 3, "num_warps": 4}, "kernel": "abc"}
    assert key(parts) == key(same) and len(key(parts)) == 64
    assert key(parts) != key({**parts, "target": "sm_86"})
    assert key(parts) != key({**parts, "options": {"num_warps": 4, "num_stages": 4}})
    with pytest.raises(ValueError, match="hex"):
        _store(Path("/nonexistent")).get("../../etc/passwd")


def test_usages_round_trip_with_their_typed_parts(tmp_path: Path) -> None:
    store, k = _store(tmp_path), key({"k": 1})
    failed = Usage(target="v5e", resource="scoped-vmem", bytes=None, limit=16 << 20, mode="exact", config={},
                   fits=None, error="boom", failure=Failure("oom", "boom", "isolate", -6, "LLVM ERROR"))
    over = Usage(target="sm_86", resource="shared-memory", bytes=200000, limit=101376, mode="fast",
                 config={"BLOCK": 64}, fits=False, over=(Overrun("shared-memory", 200000, 101376, "sm_86"),),
                 vmem=VmemDetail(physical=1 << 27, buffers=(("x", 4096),), prefetched_inputs=("y",)))
    assert store.get(k) is None
    for usage in (GOOD, failed, over):
        assert store.put(k, usage)
        assert store.get(k) == usage
    assert not list(tmp_path.rglob("*.tmp"))


POISON = {
    "truncated": None, "empty": "", "garbage": "\x80\x81garbage", "json_list": "[1, 2]", "json_string": '"hello"',
    "json_null": "null",
    "wrong_types": {"bytes": "lots"}, "config_not_map": {"config": 7}, "config_nested": {"config": {"a": {"b": 1}}},
    "forged_fits": {"bytes": 999999999, "fits": True},  # D9: 4300x the limit, said to fit
    "fits_without_bytes": {"bytes": None}, "failed_without_error": {"fits": None},
    "error_but_fits": {"error": "x"}, "negative_bytes": {"bytes": -1}, "bool_bytes": {"bytes": True},
    "nan_seconds": {"seconds": "NaN"}, "bad_mode": {"mode": "turbo"}, "bad_over": {"over": [{"resource": "x"}]},
    "bad_failure": {"failure": {"kind": "meltdown", "message": "x"}}, "bad_vmem": {"vmem": {"physical": "big"}},
    "extra_not_map": {"extra": [1]},
}


@pytest.mark.parametrize("case", list(POISON))
def test_wrong_shape_and_forged_records_are_misses(tmp_path: Path, case: str) -> None:
    # D8: valid JSON of the wrong shape crashed every later estimate; D9: a forged `fits` was printed.
    store, k = _store(tmp_path), key({"case": case})
    store.put(k, GOOD)
    path = store.path(k)
    good = path.read_text()
    change = POISON[case]
    if change is None:
        text = good[:40]
    elif isinstance(change, str):
        text = change
    else:
        doc = json.loads(good)
        doc["value"].update(change)
        text = json.dumps(doc).replace('"NaN"', "NaN")
    path.write_text(text)
    assert store.get(k) is None
    assert store.put(k, GOOD) and store.get(k) == GOOD  # recomputed and stored again


def test_unknown_fields_are_ignored_not_trusted(tmp_path: Path) -> None:
    store, k = _store(tmp_path), key({"k": 2})
    store.put(k, GOOD)
    doc = json.loads(store.path(k).read_text())
    doc["value"].update({"__class__": "x", "evil": "__import__('os')"})
    store.path(k).write_text(json.dumps(doc))
    assert store.get(k) == GOOD


def test_records_of_another_triton_schema_or_kind_are_misses(tmp_path: Path) -> None:
    k = key({"k": 3})
    _store(tmp_path).put(k, GOOD)
    assert Store(tmp_path, USAGE, {"triton": "3.6.0"}).get(k) is None
    doc = json.loads(_store(tmp_path).path(k).read_text())
    for field, value in (("schema", 1), ("kind", "guard-decision")):
        _store(tmp_path).path(k).write_text(json.dumps({**doc, field: value}))
        assert _store(tmp_path).get(k) is None


def test_a_directory_or_a_fifo_in_place_of_a_record(tmp_path: Path) -> None:
    store, k = _store(tmp_path), key({"k": 4})
    store.path(k).parent.mkdir(parents=True)
    store.path(k).mkdir()
    assert store.get(k) is None and store.put(k, GOOD) is False
    store.path(k).rmdir()
    os.mkfifo(store.path(k))
    assert store.get(k) is None  # never blocks on a FIFO


def test_symlinks_planted_in_the_store_are_not_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "cache", tmp_path / "elsewhere"
    outside.mkdir()
    store, k = _store(root), key({"k": 5})
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    store.path(k).parent.mkdir(parents=True)
    store.path(k).symlink_to(victim)
    assert store.get(k) is None and store.put(k, GOOD)
    assert victim.read_text() == "precious" and not store.path(k).is_symlink()
    # a shard directory that is a symlink: nothing is written through it, nothing read from it
    k2 = key({"k": 6})
    (root / k2[:2]).symlink_to(outside, target_is_directory=True)
    _store(outside.parent / "x").put(k2, GOOD)
    (outside / f"{k2}.json").write_text((outside.parent / "x" / k2[:2] / f"{k2}.json").read_text())
    assert store.get(k2) is None
    assert store.put(k2, GOOD) is False
    assert sorted(p.name for p in outside.iterdir()) == [f"{k2}.json"]


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    # D25: on a full disk every failed write left an empty tmp*.tmp. A file-size limit fails the write the
    # same way (EFBIG instead of ENOSPC) without needing a small filesystem.
    code = (
        "import resource, signal, sys; from pathlib import Path; "
        "from tilefit.estimate.base import Usage; from tilefit.store import USAGE, Store, key; "
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64)); "
        "u = Usage('sm_90', 'shared-memory', 1, 2, 'fast', {'k': 'x' * 1000}, True); "
        "print([Store(Path(sys.argv[1]), USAGE).put(key({'i': i}), u) for i in range(3)])"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=60)
    assert out.stdout.strip() == "[False, False, False]", out.stderr
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []


def test_an_unwritable_store_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = _store(blocker / "cache")
    assert store.put(key({"k": 7}), GOOD) is False and store.get(key({"k": 7})) is None


DECISION_POISON = ["[1,2]", "null", '{"kernel": "k", "decis', "\x00\x01", '{"value": [1, 2]}', '"x"']


def test_guard_decisions_survive_poison_and_stale_indices(tmp_path: Path) -> None:
    # D10: wrong-shape decision files crashed the store; out-of-range `keep` raised IndexError in the autotuner.
    store = DecisionStore(tmp_path, "0123456789abcdef" * 2, "kern", tools=TOOLS)
    assert store.put("sm_90", "key", {"keep": [0, 2], "dropped": ["BLOCK=256"]})
    assert store.keep("sm_90", "key", 3) == [0, 2]
    assert store.keep("sm_90", "key", 2) is None  # index 2 of 2 configs: stale, recompute
    assert store.keep("sm_86", "key", 3) is None
    path = next(store.path.rglob("*.json"))
    for text in DECISION_POISON:
        path.write_text(text)
        assert store.get("sm_90", "key") is None and store.keep("sm_90", "key", 3) is None
    for value in ({"keep": [-1]}, {"keep": [True]}, {"keep": []}, {"keep": [0, 0]}, {"keep": "0"},
                  {"config": [1]}, {"config": {"BLOCK": {"x": 1}}}, {"dropped": [1]}, {"changes": 3},
                  {"compiler": 3}):
        doc = {"schema": 2, "kind": "guard-decision", "tools": TOOLS, "value": value}
        path.write_text(json.dumps(doc))
        assert store.get("sm_90", "key") is None, value
    assert store.put("sm_90", "key", {"config": {"BLOCK": 64, "num_stages": 2}})
    assert store.config("sm_90", "key", like={"BLOCK": 128, "num_stages": 3}) == {"BLOCK": 64, "num_stages": 2}
    assert store.config("sm_90", "key", like={"BLOCK": 128}) is None  # keys differ: forged or stale


def test_decisions_of_another_triton_are_not_reused(tmp_path: Path) -> None:
    DecisionStore(tmp_path, "ab" * 16, "kern", tools={"triton": "3.6.0"}).put("sm_90", "k", {"keep": [0]})
    assert DecisionStore(tmp_path, "ab" * 16, "kern", tools=TOOLS).get("sm_90", "k") is None


def test_hostile_kernel_names_stay_inside_the_guard_directory(tmp_path: Path) -> None:
    store = DecisionStore(tmp_path, "../../x", "../../../../tmp/evil", tools=TOOLS)
    assert store.path.resolve().parent == (tmp_path / "guard").resolve()
    assert len(stable_key({"a": 1})) == 24
