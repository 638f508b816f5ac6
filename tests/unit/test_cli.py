"""The tilefit command as a user runs it: exit codes, formats, bad input, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SEED = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 526336, Hardware limit: 232448."


def tilefit(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tilefit", *args], input=stdin, capture_output=True, env=env, timeout=120
    )


def test_explain_stdin_json() -> None:
    out = tilefit("explain", "-", "--format", "json", stdin=SEED.encode())
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["matches"][0]["required_bytes"] == 526336


def test_explain_file_and_nothing_found(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("all good, nothing failed\n")
    out = tilefit("explain", str(log))
    assert out.returncode == 1 and b"No known" in out.stdout


@pytest.mark.parametrize("data", [b"", b"\x00" * 5000, os.urandom(20000)])
def test_bad_input_exit_2_without_traceback(data: bytes) -> None:
    out = tilefit("explain", "-", stdin=data)
    assert out.returncode == 2
    assert b"Traceback" not in out.stderr and b"tilefit: error:" in out.stderr


def test_missing_file_and_bad_format() -> None:
    out = tilefit("explain", "/nonexistent/log")
    assert out.returncode == 2 and b"no such file" in out.stderr
    assert tilefit("explain", "-", "--format", "pdf", stdin=SEED.encode()).returncode == 2


def test_oversized_input_is_refused_quickly() -> None:
    env_limit = {"TILEFIT_MAX_INPUT_BYTES": "1000"}
    out = subprocess.run(
        [sys.executable, "-m", "tilefit", "explain", "-"], input=b"x" * 5000, capture_output=True,
        env={**os.environ, **env_limit}, timeout=60,
    )
    assert out.returncode == 2 and b"TILEFIT_MAX_INPUT_BYTES" in out.stderr


def test_kb_list_show_and_targets() -> None:
    listing = tilefit("kb", "list")
    assert listing.returncode == 0 and b"triton/shared-memory" in listing.stdout
    show = tilefit("kb", "show", "triton/shared-memory", "--lang", "zh")
    assert show.returncode == 0 and "共享内存".encode() in show.stdout
    assert tilefit("kb", "show", "no/such-entry").returncode == 2
    targets = tilefit("targets", "--limit", "101376")
    assert targets.returncode == 0 and b"sm_86, sm_89, sm_120" in targets.stdout
