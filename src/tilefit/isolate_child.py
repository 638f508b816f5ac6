"""The child side of tilefit.isolate: the entry point of a compile process and its framing.

A child reads length-prefixed pickles (index, job) on stdin and writes ("ready",), ("load-failed", text)
or ("done", index, "ok" | "error", value) frames on its original stdout; its fd 1 and 2 go to a log
file that the parent reads the tail of. Kept apart from the parent side so that a child imports
nothing but this module before its job (no subprocess or multiprocessing machinery).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HEADER = struct.Struct(">Q")
LOG_ENV = "TILEFIT_ISOLATE_LOG"  # the child's stderr file, for child_stderr()


@contextlib.contextmanager
def child_stderr() -> Iterator[Callable[[], str]]:
    """Inside a child: what the job prints to fd 2 from now on (its tail), read from the child's log file.

    The estimator passes this as its capture strategy in a child instead of redirecting fd 2 into an
    unlinked temporary file, which an abort would take with it ("LLVM ERROR: out of memory" lost).
    """
    log = os.environ.get(LOG_ENV, "")
    if not log:
        raise RuntimeError("child_stderr() is only available inside a tilefit.isolate child")
    start = file_size(Path(log))

    def read() -> str:
        sys.stderr.flush()
        return tail(Path(log), start, 1 << 20)

    yield read


def main() -> None:
    """Entry of a child: argv = [memory_mb, comma-separated modules to preload]; frames on stdin/stdout."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever a job prints must not corrupt the protocol
    _watch_parent()
    try:
        _limit_memory(int(sys.argv[1]))
        for name in filter(None, sys.argv[2].split(",")):
            importlib.import_module(name)
    except BaseException as exc:  # reported as data; the parent decides what it means
        _write(out, ("load-failed", f"{type(exc).__name__}: {exc}"))
        return
    _write(out, ("ready",))
    while True:
        frame = _read(sys.stdin.buffer)
        if frame is None:
            return
        index, payload = pickle.loads(frame)
        try:
            fn, task = pickle.loads(payload)
            result: tuple[Any, ...] = ("done", index, "ok", fn(task))
        except BaseException as exc:  # SystemExit in a job is a failed job, not a silent success
            result = ("done", index, "error", f"{type(exc).__name__}: {exc}")
        _write(out, result, index)


def _limit_memory(memory_mb: int) -> None:
    if memory_mb > 0:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _watch_parent() -> None:
    """Kill this child's process group when the parent disappears (SIGKILLed: no finally ran)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.killpg(os.getpgid(0), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()


def _write(out: Any, message: tuple[Any, ...], index: int | None = None) -> None:
    try:
        data = pickle.dumps(message)
    except Exception as exc:  # an unpicklable result is a failed job
        data = pickle.dumps(("done", index, "error", f"the result cannot be sent back: {type(exc).__name__}: {exc}"))
    out.write(HEADER.pack(len(data)) + data)
    out.flush()


def _read(inp: Any) -> bytes | None:
    head = inp.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data: bytes = inp.read(size)
    return data if len(data) == size else None


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def tail(path: Path, start: int, limit: int) -> str:
    """At most `limit` bytes from the end of `path`, not before `start` (never reads the whole file)."""
    try:
        with open(path, "rb") as f:
            end = f.seek(0, os.SEEK_END)
            f.seek(max(start, end - limit))
            data = f.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", "replace")
