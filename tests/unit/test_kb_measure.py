"""kb measure without a compiler: rules, rate records, and writing a record the loader accepts."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tilefit.estimate.base import Usage
from tilefit.kb.model import entry_from_dict
from tilefit.measure import Population, gpu_rules, measure, write_record
from tilefit.yamlio import load_yaml

LIMIT = 101376


def _bytes(c: dict[str, Any]) -> int:
    return int(c["num_stages"]) * (c["BLOCK_M"] * c["BLOCK_K"] + c["BLOCK_K"] * c["BLOCK_N"]) * 2


def _usage(c: dict[str, Any]) -> Usage:
    n = _bytes(c)
    return Usage("sm_86", "shared-memory", n, LIMIT, "fast", dict(c), n <= LIMIT)


def _population() -> Population:
    configs = [{"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k, "num_stages": s}
               for m in (64, 128, 256) for n in (64, 128, 256) for k in (32, 64) for s in (1, 3, 5)]
    return Population(kernel="matmul", target="sm_86", usages=[_usage(c) for c in configs], fixed_keys=(),
                      estimate=lambda cs: [_usage(c) for c in cs], score=lambda u: 1.0)


def test_rates_count_every_failing_config_and_match_a_direct_count() -> None:
    pop = _population()
    failing = [u.config for u in pop.failing()]
    results = {r.rule.name: r for r in measure([pop], gpu_rules, {}, "table", None, 0)}
    stages = results["num_stages -> 1"]
    assert stages.n == len(failing)
    assert stages.fixed == sum(_bytes({**c, "num_stages": 1}) <= LIMIT for c in failing if c["num_stages"] > 1)
    k = results["halve the K-loop block (BLOCK_K)"]
    assert k.fixed == sum(_bytes({**c, "BLOCK_K": c["BLOCK_K"] // 2}) <= LIMIT for c in failing)


def test_sampling_is_reproducible() -> None:
    pop = _population()
    a = measure([pop], gpu_rules, {}, "table", 5, 7)
    b = measure([pop], gpu_rules, {}, "table", 5, 7)
    assert [(r.n, r.fixed) for r in a] == [(r.n, r.fixed) for r in b] and a[0].n == 5


def test_record_written_into_an_entry_loads_and_renders(tmp_path: Path) -> None:
    src = resources.files("tilefit") / "data" / "kb" / "triton" / "shared-memory.yaml"
    path = tmp_path / "shared-memory.yaml"
    shutil.copyfile(str(src), path)
    before = path.read_text().count("measured:")
    had = any(f.knob == "num_stages" and f.measured for f in
              entry_from_dict(load_yaml(path), "x", expected_id="triton/shared-memory").fixes)
    result = next(r for r in measure([_population()], gpu_rules, {}, "exact estimate", None, 0)
                  if r.rule.knob == "num_stages")
    assert write_record(path, "num_stages", result.record({"triton": "3.9.0"}))
    assert write_record(path, "num_stages", result.record({"triton": "3.9.0"}))  # replaces, not appends
    entry = entry_from_dict(load_yaml(path), "x", expected_id="triton/shared-memory")
    fix = next(f for f in entry.fixes if f.knob == "num_stages")
    assert fix.measured is not None and fix.measured.n == result.n and fix.measured.fixed == result.fixed
    assert path.read_text().count("measured:") == before + (0 if had else 1)
    assert not write_record(path, "no-such-knob", result.record({}))


def test_the_plan_refers_to_rules_by_id() -> None:
    from tilefit.measure import tpu_rules

    plan = load_yaml(Path(__file__).resolve().parents[2] / "benchmarks" / "kb_measure.yaml")
    ids = {r.id for r in gpu_rules(_population())} | {r.id for r in tpu_rules(_population())}
    named = {rule for section in ("helion", "tpu") for knobs in plan[section]["entries"].values()
             for rule in knobs.values()}
    named |= {rule for group in plan["gpu"]["entries"].values() for knobs in group.values() for rule in knobs.values()}
    assert named and named <= ids, named - ids


def test_store_writes_where_the_caller_says_and_refuses_unknown_ids(tmp_path: Path) -> None:
    import pytest

    from tilefit.errors import InputError
    from tilefit.measure import store

    src = resources.files("tilefit") / "data" / "kb" / "triton" / "shared-memory.yaml"
    (tmp_path / "triton").mkdir()
    shutil.copyfile(str(src), tmp_path / "triton" / "shared-memory.yaml")
    entries = {"triton/shared-memory": {"num_stages": "num-stages-to-1"}}
    results = [(r, {"tilefit": "test"}) for r in measure([_population()], gpu_rules, entries, "table", None, 0)]
    assert store(results, tmp_path) == ["triton/shared-memory: num_stages <- num-stages-to-1"]
    assert "method: table" in (tmp_path / "triton" / "shared-memory.yaml").read_text()
    bad = [(r, t) for r, t in results if r.rule.id == "num-stages-to-1"]
    object.__setattr__(bad[0][0], "entries", {"triton/shared-memory": {"num_stages": "num_stages -> 1"}})
    with pytest.raises(InputError, match="unknown rule ids"):
        store(bad, tmp_path)


def test_sglang_populations_are_folded_into_the_shared_memory_fix_rates() -> None:
    """The KB's populations are benchmarks/kb_populations_sglang.yaml split by vendor, with source and command."""
    from tilefit.kb.repository import load_kb

    measured = load_yaml(Path(__file__).resolve().parents[2] / "benchmarks" / "kb_populations_sglang.yaml")
    kb = {e.id: e for e in load_kb()}
    folded: dict[str, list[Any]] = {}
    for entry_id in ("triton/shared-memory", "triton/shared-memory-amd-lds"):
        for fix in kb[entry_id].fixes:
            for p in fix.measured.populations if fix.measured else ():
                assert p.tools == {"triton": "3.6.0", "sglang": "0.5.23"} and "check_sglang.py" in p.command
                assert ("gfx942" in p.n_by_target) == entry_id.endswith("amd-lds")
                folded.setdefault(p.rule, []).append(p)
    for record in measured["records"]:
        parts = folded[record["rule"]]
        assert {t: n for p in parts for t, n in p.n_by_target.items()} == record["n_by_target"]
        assert {t: n for p in parts for t, n in p.fixed_by_target.items()} == record["fixed_by_target"]
        assert sum(p.n for p in parts) == sum(record["n_by_target"].values())
    stages = next(f for f in kb["triton/shared-memory"].fixes if f.knob == "num_stages")
    assert stages.measured is not None and [p.rule for p in stages.measured.populations] == ["num_stages -> 1"]


def test_populations_show_in_explain_and_lint_and_survive_a_remeasure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import jsonschema

    from tilefit.cli import main
    from tilefit.errors import KnowledgeBaseError
    from tilefit.report import explain

    log = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, "
           "Hardware limit: 101376")
    result = explain(log)
    text = " ".join(result.render().split())  # the text wraps
    assert "on SGLang 0.5.23's bundled fused-MoE tables, NVIDIA: 100.0% of 3179 (num_stages -> 1" in text
    doc = json.loads(result.render("json"))
    schema = json.loads((resources.files("tilefit") / "data" / "schemas" / "explain.schema.json").read_text())
    jsonschema.validate(doc, schema)
    pops = doc["matches"][0]["fixes"][0]["measured"]["populations"]
    assert pops[0]["n_by_target"]["sm_86"] == 901 and pops[0]["fixed_by_target"]["sm_86"] == 901
    assert main(["kb", "lint", "--no-probe"]) == 0
    assert "triton/shared-memory: Lower num_stages: num_stages -> 1 fixed 3179/3179" in capsys.readouterr().out
    src = resources.files("tilefit") / "data" / "kb" / "triton" / "shared-memory.yaml"
    path = tmp_path / "shared-memory.yaml"
    shutil.copy(str(src), path)
    result_ = measure([_population()], gpu_rules, {"triton/shared-memory": {"num_stages": "num_stages -> 1"}},
                      "table", None, 0)
    stages = next(r for r in result_ if r.rule.name == "num_stages -> 1")
    assert write_record(path, "num_stages", stages.record({"triton": "3.9.0"}))
    again = entry_from_dict(load_yaml(path), "x", expected_id="triton/shared-memory")
    assert again.fixes[0].measured is not None and again.fixes[0].measured.n == stages.n
    assert again.fixes[0].measured.populations[0].fixed == 3179  # the fold is kept
    raw = load_yaml(path)
    raw["fixes"][0]["measured"]["populations"][0]["fixed_by_target"]["sm_86"] = 902
    with pytest.raises(KnowledgeBaseError, match=r"do not add up|more configs than fail"):
        entry_from_dict(raw, "x")
