"""`tilefit check TRACE`: replaying recorded specialisations of a real kernel (SGLang's fused-MoE kernel) for
other targets, with its source taken from the trace and checked by hash.

The trace is written with tilefit.trace's writer from what Triton's JIT binder produces for SGLang's launch
(the same fields the plug-in records at compile time: signature, constexprs, attrs, options, sized bytes).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from test_check_sglang import BF16, _wheel

from tilefit.check import moe
from tilefit.check.size import Job, size_jobs, stand_ins
from tilefit.check.source import load_source
from tilefit.check.tables import read_table
from tilefit.cli import main
from tilefit.estimate import triton_compile as tc
from tilefit.settings import Settings
from tilefit.targets import get_target
from tilefit.trace import FORMAT_VERSION, Header, KernelRecord, Sized, TraceWriter

pytestmark = pytest.mark.compile


@pytest.fixture()
def kernel_file(tmp_path: Path) -> Path:
    with zipfile.ZipFile(_wheel()) as z:
        z.extract(moe.SOURCE, tmp_path / "pkg")
        z.extract(BF16, tmp_path / "pkg")
    return tmp_path / "pkg" / moe.SOURCE


def _record(kernel_file: Path, tmp_path: Path, stages: int) -> tuple[KernelRecord, int]:
    """What the plug-in records for one launch of fused_moe_kernel on an H100 (sm_90)."""
    loaded = load_source(kernel_file, moe.KERNEL, tmp_path / "cache")
    kernel = loaded.load()
    table = read_table(kernel_file.parents[4] / BF16)
    cfg = {**table.entries[256], "num_stages": stages}
    launch = moe.launch(table, 256, "up", get_target("sm_90"), config=cfg)
    gpu = tc.gpu_target("cuda", 90, 32)
    sp = tc.specialise(kernel, gpu, stand_ins(launch.args), dict(launch.options))
    shared = tc.compile_fast(kernel, gpu, sp).shared
    text = kernel_file.read_text()
    rec = KernelRecord(
        pid=os.getpid(), name=f"sglang.kernels.ops.moe.fused_moe_triton_kernels.{moe.KERNEL}", fn=moe.KERNEL,
        file=str(kernel_file), line=loaded.line, file_sha256=hashlib.sha256(text.encode()).hexdigest(),
        src_sha256=hashlib.sha256(kernel.src.encode()).hexdigest(), signature=dict(sp.signature),
        constexprs=dict(sp.constexprs),  # the writer encodes them (trace.encode_value)
        attrs={k: tuple((str(a), b) for a, b in v) for k, v in sp.attrs.items()},
        options={k: v for k, v in sp.options.items() if isinstance(v, (int, bool, str)) or v is None},
        target={"name": "sm_90", "backend": "cuda", "arch": 90, "warp_size": 32},
        sized=Sized(shared, None, 128 * cfg["num_warps"] // 4), limits=Sized(232448, None, 1024),
        fits=shared <= 232448, over=(), via="compile", time=time.time())
    return rec, shared


def _write(path: Path, kernel_file: Path, records: list[KernelRecord], with_source: bool = True,
           version: int = FORMAT_VERSION) -> None:
    header = Header(version, "0.1.0", "3.9.0", os.getpid(), {"name": "NVIDIA H100 80GB HBM3", "target": "sm_90"},
                    time.time())
    writer = TraceWriter(path, header)
    if with_source:
        writer.add_source(str(kernel_file), kernel_file.read_text())
    for r in records:
        writer.add(r)
    writer.close()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(["check", *argv, "--triton", "installed", "--workers", "1", "--format", "json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out else out.err)


def test_replay_equals_the_recorded_bytes(kernel_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))
    records = [_record(kernel_file, tmp_path, s) for s in (2, 5)]
    trace = tmp_path / "run.trace.jsonl"
    _write(trace, kernel_file, [r for r, _ in records])
    code, doc = _run(capsys, str(trace), "--target", "sm_90,sm_86")
    on_h100 = [r for r in doc["results"] if r["target"] == "sm_90"]
    assert [r["bytes"] for r in on_h100] == [shared for _, shared in records]
    assert all(r["recorded_bytes"] == r["bytes"] for r in on_h100)
    on_3090 = [r for r in doc["results"] if r["target"] == "sm_86"]
    assert len(on_3090) == 2 and all(r["recorded_bytes"] is None for r in on_3090)
    broken = [r for r in doc["results"] if r["status"] == "does not fit"]
    assert code == (1 if broken else 0)
    assert all(r["fix"] and r["fix"]["bytes"] <= r["limit"] for r in broken)


def test_moved_or_changed_source(kernel_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))
    rec, shared = _record(kernel_file, tmp_path, 3)
    with_copy, without = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _write(with_copy, kernel_file, [rec])
    _write(without, kernel_file, [rec], with_source=False)
    edited = kernel_file.read_text().replace("BLOCK_SIZE_K: tl.constexpr,", "BLOCK_SIZE_K: tl.constexpr,  # edited")
    kernel_file.write_text(edited)
    code, doc = _run(capsys, str(with_copy), "--target", "sm_90", "--no-fix")
    assert code == 0 and doc["results"][0]["bytes"] == shared
    assert "changed since recording" in doc["results"][0]["note"]
    code, doc = _run(capsys, str(without), "--target", "sm_90", "--no-fix")
    assert code == 1 and "changed since recording" in doc["results"][0]["error"]
    kernel_file.unlink()
    code, doc = _run(capsys, str(without), "--target", "sm_90", "--no-fix")
    assert "moved" in doc["results"][0]["error"]


def test_a_newer_trace_format_is_a_usage_error(kernel_file: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    rec, _ = _record(kernel_file, tmp_path, 3)
    trace = tmp_path / "new.jsonl"
    _write(trace, kernel_file, [rec], version=FORMAT_VERSION + 1)
    code, err = _run(capsys, str(trace), "--target", "sm_90")
    assert code == 2 and "format version" in err


def test_ttir_reuse_covers_replays(kernel_file: Path, tmp_path: Path) -> None:
    """Replayed jobs for two targets of one TTIR class give what a direct compile gives."""
    rec, shared = _record(kernel_file, tmp_path, 4)
    trace = tmp_path / "t.jsonl"
    _write(trace, kernel_file, [rec])
    from tilefit.check.replay import _launch, load_record, read

    tr = read(str(trace))
    loaded = load_record(tr, tr.records[0], tmp_path / "cache")
    assert loaded.source is not None
    jobs = [Job(str(loaded.source.module_path), rec.fn, _launch(tr.records[0]), t) for t in ("sm_90", "sm_100")]
    usages = size_jobs(jobs, Settings(use_cache=False), workers=1)
    assert usages[0].bytes == shared and usages[1].bytes is not None


@pytest.mark.slow
def test_trace_is_sized_with_its_recording_triton(kernel_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A trace recorded under Triton 3.6.0 is sized with 3.6.0, provisioned in a cached venv (needs PyPI)."""
    import triton

    want = "3.6.0" if triton.__version__ != "3.6.0" else "3.5.1"
    cache = Path(os.environ.get("TILEFIT_PROVISION_CACHE", tmp_path / "cache"))
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(cache))
    rec, _ = _record(kernel_file, tmp_path, 3)
    trace = tmp_path / "old.jsonl"
    header = Header(FORMAT_VERSION, "0.1.0", want, os.getpid(), None, time.time())
    writer = TraceWriter(trace, header)
    writer.add_source(str(kernel_file), kernel_file.read_text())
    writer.add(rec)
    writer.close()
    out = tmp_path / "r.json"
    code = main(["check", str(trace), "--target", "sm_90", "--no-fix", "--format", "json", "--output", str(out)])
    err = capsys.readouterr().err
    if code == 2 and "could not provision" in err:
        pytest.skip(f"PyPI not reachable: {err.strip()}")
    doc = json.loads(out.read_text())
    assert doc["compiler"] == f"triton {want}" and doc["results"][0]["compiler"] == f"triton {want}"
    assert (cache / "triton-envs" / want / ".ready").is_file()


def test_an_unknown_triton_version_is_a_usage_error(kernel_file: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rec, _ = _record(kernel_file, tmp_path, 3)
    trace = tmp_path / "t.jsonl"
    _write(trace, kernel_file, [rec])
    assert main(["check", str(trace), "--triton", "three", "--target", "sm_90"]) == 2
    assert "not a version number" in capsys.readouterr().err
