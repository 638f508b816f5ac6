"""Failure logs a GPU printed (tests/data/device/*.jsonl): each scenario of benchmarks/explain_device_logs.py run once
on the GPU machine, labelled by construction (what the program asked for, and the numbers the log prints). An H100
under Triton 3.6, PyTorch 2.11, CuPy 14.2, JAX 0.11.2, Liger-Kernel 0.8.5 and nvcc 13.0 (h100_logs.jsonl); an H200
under Numba 0.68 with numba-cuda 0.30.4, cuda.core 1.2, CuPy 14.2 and JAX 0.11.2's Mosaic GPU, the same image
(h200_logs.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised
from tilefit.match.matcher import match

DEVICE = Path(__file__).resolve().parents[1] / "data" / "device"
KB = load_kb()


def _records(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DEVICE / name).read_text(encoding="utf-8").splitlines() if line.strip()]


H100, H200 = _records("h100_logs.jsonl"), _records("h200_logs.jsonl")
RECORDS = H100 + H200
# A block the launch refuses is reported by CUDA 13 as "invalid argument" (cudaErrorInvalidValue), not "invalid
# configuration argument": a 2048-thread block, or 512 threads for a __launch_bounds__(256) kernel. The logs name no
# resource, and the block is only in code (CuPy's positional kernel((1,), (2048,), args)) or not printed at all.
KNOWN_MISSES = {"device:h100/cuda-runtime-block-2048", "device:h100/torch-extension-block-2048",
                # the same "CUDA error: invalid argument" from cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 300000)
                # under C10_CUDA_CHECK: torch prints no call, so the log is the 2048-thread block's, word for word
                "device:h100/torch-extension-optin-300000"}


def test_the_recording_covers_every_stack() -> None:
    assert {r["stack"] for r in H100} == {"triton", "torch", "cupy", "jax", "nvcc", "liger"} and len(H100) == 33
    assert all(r["versions"]["triton"] == "3.6.0" and r["versions"]["gpu"].startswith("NVIDIA H100") for r in H100)
    assert {r["stack"] for r in H200} == {"numba", "cupy", "jax", "cuda.core"} and len(H200) == 11
    assert all(r["versions"]["numba-cuda"] == "0.30.4" and r["versions"]["gpu"] == "NVIDIA H200" for r in H200)
    assert sum(r["resource"] == "off-chip" for r in RECORDS) >= 13


@pytest.mark.parametrize("record", [r for r in RECORDS if r["url"] not in KNOWN_MISSES], ids=lambda r: r["url"])
def test_device_log_is_recognised(record: dict[str, Any]) -> None:
    assert recognised(record, KB), [(m.entry.id, m.required, m.limit) for m in match(record["log"], KB)]


@pytest.mark.parametrize("record", [r for r in RECORDS if r["url"] in KNOWN_MISSES], ids=lambda r: r["url"])
def test_known_miss_is_not_read_wrong(record: dict[str, Any]) -> None:
    # a miss says nothing rather than a wrong resource
    assert not [m for m in match(record["log"], KB) if m.entry.on_chip]
