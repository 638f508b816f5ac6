"""The shipped knowledge base on the shared corpus of real logs: right resource, every stated number, no false on-chip.

Expectations are derived from the corpus labels and from the numbers the log itself states, independently
of the entries' patterns, so a pattern that drifts from real messages fails here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import load_jsonl
from tilefit.kb.repository import load_kb
from tilefit.match.matcher import Match, match
from tilefit.units import parse_size

KB = load_kb()
REAL = load_jsonl("real_logs_dev.jsonl")
NEGATIVES = load_jsonl("negatives_dev.jsonl")

# error_kind prefix -> the resources an entry may call it (longest prefix wins).
_KIND_RESOURCES: dict[str, frozenset[str]] = {
    "triton_shared_memory": frozenset({"shared-memory"}),
    "cuda_launch_smem_exceeds_optin": frozenset({"shared-memory"}),
    "hip_lds": frozenset({"shared-memory"}),
    "pallas_gpu": frozenset({"shared-memory"}),
    "xla_gpu": frozenset({"shared-memory"}),
    "nvfuser": frozenset({"shared-memory"}),
    "inductor_flex": frozenset({"shared-memory"}),
    "flash_attn_headdim_smem_gate": frozenset({"shared-memory"}),
    "ptxas_too_much_shared_data": frozenset({"static-shared-memory"}),
    # "too many resources requested for launch" is registers or threads per block; the entry decides.
    "cuda_launch_out_of_resources": frozenset({"registers", "threads"}),
    "cuda_launch_out_of_resources_registers": frozenset({"registers"}),
    "triton_out_of_resource_threads": frozenset({"threads"}),
    "tpu_scoped_vmem_oom": frozenset({"scoped-vmem"}),
    "tpu_smem_oom": frozenset({"tpu-smem"}),
}
# tpu_vmem_oom is scoped VMEM when the message says so (XLA's E1001 page: "while allocating on stack").
_SCOPED = re.compile(r"while\s+allocating\s+on\s+stack|scoped\s+allocation|CompileTimeScopedVmemOom", re.I)

# Number pairs as logs state them: (required, limit).
_NUM = r"(\d+(?:\.\d+)?[KMGT]?)"
_PAIRS = (
    re.compile(r"Required:\s*(\d+)\W*Hardware\s+limit(?:ation)?:\s*(\d+)", re.I),
    re.compile(rf"Used\s+{_NUM}\s+of\s+{_NUM}\s+(?:vmem|smem|hbm)", re.I),
    re.compile(rf"size\s+{_NUM}\s+and\s+limit\s+{_NUM}", re.I),
    re.compile(rf"{_NUM}\s+vs\.?\s+{_NUM}\s+limit", re.I),
)


def _expected_resources(record: dict[str, Any]) -> frozenset[str]:
    kind = record["error_kind"]
    if kind == "tpu_vmem_oom":
        return frozenset({"scoped-vmem" if _SCOPED.search(record["log"]) else "vmem"})
    prefixes = [p for p in _KIND_RESOURCES if kind.startswith(p)]
    assert prefixes, f"no expected resource for error_kind {kind!r}; add it to _KIND_RESOURCES"
    return _KIND_RESOURCES[max(prefixes, key=len)]


def _stated_pairs(log: str) -> set[tuple[int, int]]:
    pairs = set()
    for regex in _PAIRS:
        for m in regex.finditer(log):
            required, limit = parse_size(m.group(1)), parse_size(m.group(2))
            assert required and limit, m.group(0)
            pairs.add((required[0], limit[0]))
    return pairs


def _describe(found: list[Match]) -> list[tuple[str, str, int | None, int | None]]:
    return [(m.entry.id, m.entry.resource, m.required, m.limit) for m in found]


def _id(record: dict[str, Any]) -> str:
    return record["url"].split("github.com/")[-1]


@pytest.mark.parametrize("record", REAL, ids=[_id(r) for r in REAL])
def test_real_log_is_diagnosed_on_chip_with_its_numbers(record: dict[str, Any]) -> None:
    found = match(record["log"], KB)
    assert found, f"{record['error_kind']}: no entry matches"
    on_chip = [m for m in found if m.entry.on_chip]
    assert on_chip, f"no on-chip match: {_describe(found)}"
    assert on_chip[0].entry.resource in _expected_resources(record), _describe(found)
    extracted = {(m.required, m.limit) for m in found}
    missing = _stated_pairs(record["log"]) - extracted
    assert not missing, f"numbers stated in the log but not extracted: {sorted(missing)}; got {_describe(found)}"


@pytest.mark.parametrize("record", NEGATIVES, ids=[_id(r) for r in NEGATIVES])
def test_look_alike_resolves_to_its_own_off_chip_entry(record: dict[str, Any]) -> None:
    found = match(record["log"], KB)
    assert found, f"{record['error_kind']}: no entry explains this look-alike"
    assert not [m for m in found if m.entry.on_chip], _describe(found)
