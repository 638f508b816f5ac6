"""Failure logs an H100 printed (tests/data/device/h100_logs.jsonl): each scenario of benchmarks/explain_device_logs.py
run once on the GPU machine, under Triton 3.6, PyTorch 2.11, CuPy 14.2, JAX 0.11.2, Liger-Kernel 0.8.5 and nvcc 13.0,
and labelled by construction (what the program asked for, and the numbers the log prints)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised
from tilefit.match.matcher import match

LOGS = Path(__file__).resolve().parents[1] / "data" / "device" / "h100_logs.jsonl"
KB = load_kb()
RECORDS = [json.loads(line) for line in LOGS.read_text(encoding="utf-8").splitlines() if line.strip()]
# A block the launch refuses is reported by CUDA 13 as "invalid argument" (cudaErrorInvalidValue), not "invalid
# configuration argument": a 2048-thread block, or 512 threads for a __launch_bounds__(256) kernel. The logs name no
# resource, and the block is only in code (CuPy's positional kernel((1,), (2048,), args)) or not printed at all.
KNOWN_MISSES = {"device:h100/cuda-runtime-block-2048", "device:h100/torch-extension-block-2048",
                # the same "CUDA error: invalid argument" from cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 300000)
                # under C10_CUDA_CHECK: torch prints no call, so the log is the 2048-thread block's, word for word
                "device:h100/torch-extension-optin-300000"}


def test_the_recording_covers_every_stack() -> None:
    assert {r["stack"] for r in RECORDS} == {"triton", "torch", "cupy", "jax", "nvcc", "liger"} and len(RECORDS) == 33
    assert all(r["versions"]["triton"] == "3.6.0" and r["versions"]["gpu"].startswith("NVIDIA H100") for r in RECORDS)
    assert sum(r["resource"] == "off-chip" for r in RECORDS) >= 10


@pytest.mark.parametrize("record", [r for r in RECORDS if r["url"] not in KNOWN_MISSES], ids=lambda r: r["url"])
def test_device_log_is_recognised(record: dict[str, Any]) -> None:
    assert recognised(record, KB), [(m.entry.id, m.required, m.limit) for m in match(record["log"], KB)]


@pytest.mark.parametrize("record", [r for r in RECORDS if r["url"] in KNOWN_MISSES], ids=lambda r: r["url"])
def test_known_miss_is_not_read_wrong(record: dict[str, Any]) -> None:
    # a miss says nothing rather than a wrong resource
    assert not [m for m in match(record["log"], KB) if m.entry.on_chip]
