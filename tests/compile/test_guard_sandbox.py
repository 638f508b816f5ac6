"""The sandbox turns a compiler that aborts (LLVM out of memory) or hangs into a reported result."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.errors import CompileError
from tilefit.estimate.triton import load_module_file
from tilefit.guard.sandbox import Job, Sandbox

pytestmark = pytest.mark.compile

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
# The matmul's declared argument types, from its spec (what torch tensors give the JIT).
SIG = yaml.safe_load((KERNELS / "matmul.yaml").read_text())["args"]
# 512x512x64 with 4 warps on sm_90 needs ~1 GB of host memory and ~52 s to compile (measured with
# triton.compile; BENCHMARKS.md, sandbox).
HUGE = {"BLOCK_M": 512, "BLOCK_N": 512, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
SMALL = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}


@pytest.fixture(scope="module")
def matmul() -> Any:
    return load_module_file(str(KERNELS / "matmul.py")).matmul_kernel


@pytest.fixture(autouse=True)
def _fresh_triton_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A cached cubin would skip the compile whose failure these tests need.
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))


def test_llvm_out_of_memory_is_a_reported_result(matmul: Any) -> None:
    box = Sandbox(memory_mb=500, timeout_s=120)
    start = time.monotonic()
    usage = box.estimate(matmul, HUGE, "sm_90", signature=SIG, mode="full")
    assert time.monotonic() - start < 60
    assert usage.fits is None and usage.bytes is None
    assert usage.extra["outcome"] == "out-of-memory"
    assert "out of memory" in (usage.error or "")
    assert "500 MB" in (usage.error or "")
    # An abort, not a Python exception: exit 134 / SIGABRT; this process lives on and compiles the next one.
    assert usage.extra["returncode"] in (-signal.SIGABRT, 134)
    ok = box.estimate(matmul, SMALL, "sm_90", signature=SIG, mode="full")
    assert ok.error is None and ok.fits is True and ok.bytes == 24576 and ok.registers


def test_hung_compile_is_killed_with_its_process_group(matmul: Any) -> None:
    box = Sandbox(memory_mb=0, timeout_s=3)
    start = time.monotonic()
    usage = box.estimate(matmul, HUGE, "sm_90", signature=SIG, mode="full")
    elapsed = time.monotonic() - start
    assert usage.extra["outcome"] == "timeout"
    assert "did not finish in 3 s" in (usage.error or "")
    assert elapsed < 15


def test_raise_for_status_maps_to_compile_error(matmul: Any) -> None:
    box = Sandbox(memory_mb=0, timeout_s=3)
    with pytest.raises(CompileError) as info:
        box.check(matmul, HUGE, "sm_90", signature=SIG, mode="full")
    assert "did not finish" in str(info.value)


def test_timeout_kills_grandchildren() -> None:
    # A job that starts a long-running grandchild (as triton starts ptxas) and then hangs.
    box = Sandbox(memory_mb=0, timeout_s=2)
    marker = os.getpid()
    outcome = box.run(Job(f"{__name__}:spawn_and_hang", marker))
    assert outcome.status == "timeout"
    time.sleep(0.5)
    assert not _processes_with(f"tilefit-sandbox-grandchild-{marker}")


def test_job_exception_is_an_error_outcome() -> None:
    outcome = Sandbox(memory_mb=0, timeout_s=30).run(Job(f"{__name__}:fail", "boom"))
    assert outcome.status == "error" and "ValueError: boom" in outcome.message
    with pytest.raises(CompileError):
        outcome.raise_for_status()


def _processes_with(text: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmd:
            found.append(int(pid))
    return found


# Jobs for the sandbox children, imported by this module's name (the child inherits sys.path).
def spawn_and_hang(marker: int) -> None:
    import subprocess
    import sys

    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", f"tilefit-sandbox-grandchild-{marker}"])
    time.sleep(60)


def fail(message: str) -> None:
    raise ValueError(message)
