"""Compiles in isolated children: an abort (LLVM out of memory), a hang or a memory limit too small to load
the compiler is a reported result, and the CLI leaves no process behind on a timeout or Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.errors import CompileError
from tilefit.estimate.triton import TritonEstimator, load_module_file
from tilefit.guard.sandbox import Job, Sandbox, SandboxEstimator

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "examples" / "kernels"
# The matmul's declared argument types, from its spec (what torch tensors give the JIT).
SIG = yaml.safe_load((KERNELS / "matmul.yaml").read_text())["args"]
# 512x512x64 with 4 warps on sm_90 needs about 1 GB of host memory and about 52 s to compile (full mode).
HUGE = {"BLOCK_M": 512, "BLOCK_N": 512, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
SMALL = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
# A kernel module that, imported in a compile child, starts a tool that hangs (like a ptxas that never ends).
HANGING = '''
import os, subprocess, sys, time
import triton
import triton.language as tl
if os.environ.get("TILEFIT_ISOLATE_LOG"):
    subprocess.run([sys.executable, "-c", "import time; time.sleep(301)", "{marker}"])
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32))
'''


@pytest.fixture(scope="module")
def matmul() -> Any:
    return load_module_file(str(KERNELS / "matmul.py")).matmul_kernel


@pytest.fixture(autouse=True)
def _fresh_triton_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A cached cubin would skip the compile whose failure these tests need.
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))


@pytest.mark.slow
def test_llvm_out_of_memory_is_a_reported_result(matmul: Any) -> None:
    box = Sandbox(memory_mb=500, timeout_s=120)
    start = time.monotonic()
    usage = box.estimate(matmul, HUGE, "sm_90", signature=SIG, mode="full")
    assert time.monotonic() - start < 60
    assert usage.fits is None and usage.bytes is None and usage.failure is not None
    assert usage.failure.kind == "oom" and "LLVM ERROR: out of memory" in usage.failure.stderr
    assert "out of host memory under the 500 MB limit" in (usage.error or "")
    # An abort, not a Python exception: SIGABRT; this process lives on and compiles the next one.
    assert usage.failure.returncode == -signal.SIGABRT
    ok = box.estimate(matmul, SMALL, "sm_90", signature=SIG, mode="full")
    assert ok.error is None and ok.fits is True and ok.bytes == 24576 and ok.registers


def test_a_memory_limit_too_small_to_load_the_compiler_says_so(matmul: Any) -> None:
    # D27: the child could not map libtriton.so and the message never named the memory limit.
    usage = Sandbox(memory_mb=10, timeout_s=60).estimate(matmul, SMALL, "sm_90", signature=SIG, mode="fast")
    assert usage.failure is not None and usage.failure.kind == "oom"
    assert "TILEFIT_COMPILE_MEMORY_MB=10 is too small to load the compiler (needs about" in (usage.error or "")


def test_hung_compile_is_killed_and_raised_on_check(matmul: Any) -> None:
    box = Sandbox(memory_mb=0, timeout_s=3)
    start = time.monotonic()
    with pytest.raises(CompileError, match="ran past 3 s") as info:
        box.check(matmul, HUGE, "sm_90", signature=SIG, mode="full")
    assert info.value.stage == "isolate:timeout" and time.monotonic() - start < 15


def test_per_job_isolation_is_an_estimator(matmul: Any) -> None:
    est = SandboxEstimator(matmul, signature=SIG, workers=2)
    assert isinstance(est, TritonEstimator) and est.isolation == "per-job"
    usages = est.estimate_many([SMALL, {**SMALL, "BLOCK_K": 64}], ["sm_90"], mode="fast")
    assert [u.bytes for u in usages] == [24576, 49152]


def test_job_exception_is_an_error_outcome() -> None:
    outcome = Sandbox(memory_mb=0, timeout_s=30).run(Job(f"{__name__}:fail", "boom"))
    assert outcome.status == "error" and "ValueError: boom" in outcome.message
    with pytest.raises(CompileError):
        outcome.raise_for_status()


def _cli(tmp_path: Path, marker: str, **env: str) -> subprocess.Popen[str]:
    (tmp_path / "hanging.py").write_text(HANGING.replace("{marker}", marker))
    # Ctrl-C raises KeyboardInterrupt even where this test runs with SIGINT ignored (a `&` job)
    main = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from tilefit.cli import main; sys.exit(main(sys.argv[1:]))")
    cmd = [sys.executable, "-c", main, "estimate", "hanging.py:k", "--target", "sm_90",
           "--arg", "x_ptr=*fp32:16", "--config", "BLOCK=64,128", "--workers", "2"]
    return subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "TMPDIR": str(tmp_path),
                                 "TILEFIT_USE_CACHE": "0", **env})


def test_cli_timeout_stops_the_tools_a_compile_started(tmp_path: Path) -> None:
    # D5: the pool killed only its worker; the hung tool lived on with ppid 1.
    marker = f"tilefit-cli-timeout-{os.getpid()}"
    proc = _cli(tmp_path, marker, TILEFIT_COMPILE_TIMEOUT_S="3")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1 and out.count("ran past 3 s") == 2, out + err
    assert _gone(marker)


@pytest.mark.parametrize(("signum", "code", "last"), [
    (signal.SIGINT, 130, "tilefit: interrupted"),
    (signal.SIGTERM, 143, "tilefit: stopped by signal 15; its compile processes were stopped"),
], ids=["ctrl-c", "sigterm"])
def test_cli_interrupted_exits_with_one_line_and_leaves_nothing(tmp_path: Path, signum: int, code: int,
                                                                last: str) -> None:
    # D4: Ctrl-C or SIGTERM left the compile children running with no timeout, and their temporary directory.
    marker = f"tilefit-cli-interrupted-{os.getpid()}-{signum}"
    proc = _cli(tmp_path, marker)
    try:
        deadline = time.monotonic() + 60
        while len(_pids_with(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _pids_with(marker), "the compile children never started"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == code and err.strip().splitlines() == [last], err
    assert _gone(marker) and not list(tmp_path.glob("tilefit-isolate-*"))


def _pids_with(text: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmd and state != "Z":
            found.append(int(pid))
    return found


def _gone(marker: str) -> bool:
    deadline = time.monotonic() + 5
    while _pids_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _pids_with(marker)
    for pid in left:  # clean up what this test started before failing
        os.kill(pid, signal.SIGKILL)
    return not left


# A job for the sandbox children, imported by this module's name (the child inherits sys.path).
def fail(message: str) -> None:
    raise ValueError(message)
