"""The JSONL trace format: round trip, several writers on one file, and a reader that names bad lines."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from tilefit.errors import InputError
from tilefit.trace import (
    FORMAT_VERSION,
    Header,
    KernelRecord,
    Sized,
    TraceWriter,
    decode_attrs,
    kernel_line,
    read_trace,
)

SOURCE = "import triton\n\n@triton.jit\ndef add(x, y, n, BLOCK: tl.constexpr):\n    pass\n"


def _header(pid: int | None = None) -> Header:
    device = {"name": "NVIDIA H100 80GB HBM3", "target": "sm_90", "backend": "cuda", "arch": 90, "warp_size": 32}
    return Header(FORMAT_VERSION, "0.1.0", "3.9.0", pid or os.getpid(), device, 1.0, ("train.py",))


def _record(block: int = 128, shared: int = 0, file_sha256: str = "") -> KernelRecord:
    return KernelRecord(
        pid=os.getpid(), name="kernels.add", fn="add", file="/tmp/kernels.py", line=3, file_sha256=file_sha256,
        src_sha256="ab" * 32, signature={"x": "*fp32", "y": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={(3,): block, (4,): None}, attrs={(0,): (("tt.divisibility", 16),)},
        options={"num_warps": 4, "num_stages": 3, "num_ctas": 1, "maxnreg": None, "extern_libs": (("a", "b"),)},
        target={"name": "sm_90", "backend": "cuda", "arch": 90, "warp_size": 32},
        sized=Sized(shared, None, 128), limits=Sized(232448, None, 1024), fits=shared <= 232448,
        over=() if shared <= 232448 else ("shared memory",), via="compile", time=2.0,
    )


def test_round_trip_keeps_what_a_replay_needs(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    writer = TraceWriter(path, _header())
    digest = writer.add_source("/tmp/kernels.py", SOURCE)
    writer.add(_record(shared=300000, file_sha256=digest))
    writer.add(_record(block=64, shared=1024))
    writer.close()
    trace = read_trace(path)
    assert len(trace.headers) == 1 and trace.headers[0].triton == "3.9.0"
    assert [r.constexprs[(3,)] for r in trace.records] == [128, 64]
    first = trace.records[0]
    assert not first.fits and first.over == ("shared memory",) and first.sized.shared == 300000
    assert decode_attrs(first) == {(0,): [["tt.divisibility", 16]]}
    assert first.options["extern_libs"] == [["a", "b"]] and first.options["maxnreg"] is None
    src = trace.source_of(first)
    assert src is not None and src.text == SOURCE


def _append(path: str, n: int) -> None:
    writer = TraceWriter(path, _header())
    for i in range(n):
        writer.add(_record(block=i, shared=i))


def test_processes_appending_to_one_file_lose_no_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    ctx = multiprocessing.get_context("spawn")  # separate interpreters, as pytest-xdist workers are
    procs = [ctx.Process(target=_append, args=(str(path), 200)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    trace = read_trace(path)
    assert len(trace.headers) == 4 and len(trace.records) == 800
    per_pid = {h.pid: sorted(r.constexprs[(3,)] for r in trace.records if r.pid == h.pid) for h in trace.headers}
    assert all(v == list(range(200)) for v in per_pid.values())


@pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")  # the child only appends to a file
def test_a_forked_child_writes_its_own_header(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    writer = TraceWriter(path, _header())
    writer.add(_record())
    ctx = multiprocessing.get_context("fork")
    child = ctx.Process(target=lambda: writer.add(_record(block=7)))
    child.start()
    child.join(30)
    trace = read_trace(path)
    assert len(trace.headers) == 2 and {r.pid for r in trace.records} == {h.pid for h in trace.headers}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"kind": "launch"}', "unknown kind 'launch'"),
        ('{"kind": "header", "tilefit_trace": 99}', "format version 99"),
        ("KERNEL_WITHOUT_LINE", "missing field 'line'"),
        ("KERNEL_BAD_SIZED", "field 'shared' is str"),
    ],
)
def test_reader_names_the_bad_line(tmp_path: Path, line: str, message: str) -> None:
    good = kernel_line(_record())
    if line == "KERNEL_WITHOUT_LINE":
        line = json.dumps({k: v for k, v in good.items() if k != "line"})
    elif line == "KERNEL_BAD_SIZED":
        line = json.dumps({**good, "sized": {"shared": "big", "tmem": None, "threads": 1}})
    path = tmp_path / "t.jsonl"
    writer = TraceWriter(path, _header())
    writer.add(_record())
    writer.close()
    with path.open("a") as fh:
        fh.write(line + "\n")
    with pytest.raises(InputError, match=rf"t\.jsonl:3: .*{message}"):
        read_trace(path)
    lenient = read_trace(path, strict=False)
    assert len(lenient.records) == 1 and len(lenient.problems) == 1


def test_a_record_before_its_header_and_a_file_without_header_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(kernel_line(_record())) + "\n")
    with pytest.raises(InputError, match="before that process's header"):
        read_trace(path)
    path.write_text("\n")
    with pytest.raises(InputError, match="no header line"):
        read_trace(path)
    with pytest.raises(InputError, match="cannot read trace"):
        read_trace(tmp_path / "missing.jsonl")


def test_a_tampered_source_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    writer = TraceWriter(path, _header())
    writer.add_source("/tmp/k.py", SOURCE)
    writer.close()
    path.write_text(path.read_text().replace("def add", "def sub"))
    with pytest.raises(InputError, match="does not match its sha256"):
        read_trace(path)
