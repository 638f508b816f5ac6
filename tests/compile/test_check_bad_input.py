"""Bad input to `tilefit check` / `tilefit refit`, from the command line as a user meets it: one line on
stderr, exit 2 (130 for Ctrl-C), no traceback, nothing written, no compile process left behind.

Malformed and truncated tables, unknown device names, newer trace formats and changed kernel sources are
covered beside their features (tests/unit/test_check_tables.py, test_check_sglang.py, test_check_trace.py);
this file holds the rest of issue 12's list, on SGLang's real kernel and tables.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from test_check_sglang import BF16, _wheel
from test_check_trace import _record

from tilefit.check import moe
from tilefit.trace import FORMAT_VERSION, Header, TraceWriter

pytestmark = pytest.mark.compile
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sglang(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sglang")
    with zipfile.ZipFile(_wheel()) as z:
        for name in (moe.SOURCE, BF16):
            z.extract(name, out)
    return out


def _cli(sglang: Path, tmp_path: Path, *argv: str, **env: str) -> subprocess.Popen[str]:
    # Ctrl-C raises KeyboardInterrupt even where this test runs with SIGINT ignored (a `&` job)
    main = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from tilefit.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.Popen(
        [sys.executable, "-c", main, *argv], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "TILEFIT_SGLANG_ROOT": str(sglang),
             "TILEFIT_CACHE_DIR": str(tmp_path / "cache"), "TILEFIT_PROGRESS": "0", **env})


def _children(pid: int) -> set[int]:
    """Every descendant of pid (Linux /proc)."""
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            # (a worker may exit between being listed and being read: its /proc entry is gone)
            tasks = list(Path(f"/proc/{p}/task").glob("*"))
        except OSError:
            continue
        for task in tasks:
            try:
                kids = {int(c) for c in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += list(kids - out)
            out |= kids
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_ctrl_c_during_a_refit_stops_everything_and_writes_nothing(sglang: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _cli(sglang, tmp_path, "refit", str(sglang / BF16), "--target", "gfx942", "--device-name",
                "AMD Instinct MI300X", "--out", str(out), "--workers", "2")
    try:
        deadline = time.monotonic() + 60
        kids: set[int] = set()
        while len(kids) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            kids = _children(proc.pid)
        assert len(kids) >= 2, "the compile workers never started"
        time.sleep(0.5)  # compiling now
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err.strip().splitlines() == ["tilefit: interrupted"], err
    assert not out.exists()
    deadline = time.monotonic() + 10
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(k) for k in kids), "compile workers outlived tilefit"


def test_a_bad_output_place_is_refused_before_any_compile(sglang: Path, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    for argv, message in [
        (["refit", str(sglang / BF16), "--target", "sm_86", "--device-name", "NVIDIA A10", "--out",
          str(tmp_path / "a-file" / "x")], "is not a folder"),
        (["check", str(sglang / BF16), "--target", "sm_86", "--output", str(tmp_path)], "is a folder"),
        (["check", str(sglang / BF16), "--target", "sm_86", "--output", str(tmp_path / "a-file" / "r.json")],
         "is not a folder"),
    ]:
        t0 = time.monotonic()
        proc = _cli(sglang, tmp_path, *argv)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and len(err.strip().splitlines()) == 1 and message in err, err
        assert "Traceback" not in err and time.monotonic() - t0 < 20
        assert not (tmp_path / "cache" / "check").exists()  # nothing was compiled
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == ["a-file"]  # nothing written


def test_huge_tables_and_traces_are_refused_before_reading(sglang: Path, tmp_path: Path) -> None:
    table = tmp_path / "E=8,N=64,device_name=NVIDIA_A10.json"
    with table.open("wb") as f:
        f.truncate(17 * 1024 * 1024)  # sparse: nothing is read
    for argv in (["check", str(table), "--target", "sm_86"],
                 ["refit", str(table), "--device-name", "NVIDIA A10", "--out", str(tmp_path / "out")]):
        proc = _cli(sglang, tmp_path, *argv)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and "larger than any config table" in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "out").exists()
    trace = tmp_path / "huge.jsonl"
    trace.write_text(json.dumps({"kind": "header"}) + "\n")
    with trace.open("r+b") as f:
        f.truncate(3 * 1024 * 1024)  # sparse
    proc = _cli(sglang, tmp_path, "check", str(trace), "--target", "sm_90", TILEFIT_MAX_INPUT_BYTES="1048576")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "larger than TILEFIT_MAX_INPUT_BYTES" in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_a_trace_from_a_newer_triton_that_cannot_be_provisioned(sglang: Path, tmp_path: Path) -> None:
    """Recorded under a Triton this machine cannot install: one line naming the version and the way out;
    no half-made environment is left (pip is kept offline, so this needs no network)."""
    kernel_file = sglang / moe.SOURCE
    rec, _ = _record(kernel_file, tmp_path, 3)
    trace = tmp_path / "newer.jsonl"
    writer = TraceWriter(trace, Header(FORMAT_VERSION, "9.0.0", "99.0.0", os.getpid(), None, time.time()))
    writer.add_source(str(kernel_file), kernel_file.read_text())
    writer.add(rec)
    writer.close()
    proc = _cli(sglang, tmp_path, "check", str(trace), "--target", "sm_90", PIP_NO_INDEX="1",
                PIP_FIND_LINKS=str(tmp_path))
    _, err = proc.communicate(timeout=300)
    lines = err.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, err
    assert "could not provision triton 99.0.0" in lines[0] and "--triton installed" in lines[0]
    assert not (tmp_path / "cache" / "triton-envs" / "99.0.0").exists()
