"""Run one picklable function over many tasks in spawned worker processes, surviving crashes.

A compiler can abort the whole process (LLVM "out of memory" calls abort(): a 512x512x64 fp16
matmul with 4 warps for sm_90 took 52 s and ~1 GB in triton.compile, and aborted with exit 134 under
`ulimit -v 600000`; BENCHMARKS.md, sandbox) or run for minutes
(ptxas has no timeout). Each task therefore runs in a worker process; a worker that dies or passes the
timeout is replaced and its task becomes a `Crash` result, so one bad config never aborts a sweep.

Workers are fresh interpreters (`python -m tilefit.estimate.pool`), spawned like multiprocessing's
"spawn" context (no forked CUDA/LLVM state) but without re-running the caller's __main__ module, so a
script without an `if __name__ == "__main__"` guard is safe. Tasks and results travel pickled over pipes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


@dataclasses.dataclass(frozen=True)
class Crash:
    """A task whose worker died or ran out of time."""

    message: str


def _serve(memory_mb: int) -> None:
    """Worker loop: read (fn, index, task) pickles on stdin, write (index, result) on stdout."""
    if memory_mb > 0:
        import resource

        # RLIMIT_DATA (heap and private writable mappings), not RLIMIT_AS: CUDA and torch reserve
        # far more address space than they use, and a kernel's module may import them.
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever the kernel's module prints must not corrupt the protocol
    inp = sys.stdin.buffer
    while True:
        try:
            fn, index, task = pickle.load(inp)
        except EOFError:
            return
        try:
            result = fn(task)
        except Exception as exc:  # the function maps its own errors; this is a last resort
            result = Crash(f"{type(exc).__name__}: {exc}")
        pickle.dump((index, result), out)
        out.flush()


@dataclasses.dataclass
class _Slot:
    process: subprocess.Popen[bytes]
    index: int | None = None
    deadline: float = 0.0

    def send(self, payload: Any) -> None:
        assert self.process.stdin is not None
        pickle.dump(payload, self.process.stdin)
        self.process.stdin.flush()

    def fileno(self) -> int:
        assert self.process.stdout is not None
        return self.process.stdout.fileno()

    def receive(self) -> Any:
        assert self.process.stdout is not None
        return pickle.load(self.process.stdout)


def run_isolated(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int,
    timeout_s: float,
    memory_mb: int = 0,
    on_done: Callable[[int, R | Crash], None] | None = None,
) -> list[R | Crash]:
    """fn(task) for every task, in order; results of dead or timed-out workers are Crash values."""
    not_run = Crash("not run")
    results: list[R | Crash] = [not_run] * len(tasks)
    pending = list(range(len(tasks)))[::-1]

    def start() -> _Slot:
        cmd = [sys.executable, "-m", "tilefit.estimate.pool", str(memory_mb)]
        # The caller's sys.path, so workers import tilefit and kernel modules exactly as it does.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p or os.getcwd() for p in sys.path)}
        return _Slot(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env))

    def finish(slot: _Slot, value: R | Crash) -> None:
        assert slot.index is not None
        results[slot.index] = value
        if on_done is not None:
            on_done(slot.index, value)
        slot.index = None

    slots = [start() for _ in range(max(1, min(workers, len(tasks))))]
    try:
        while pending or any(s.index is not None for s in slots):
            for slot in slots:
                if slot.index is None and pending:
                    slot.index = pending.pop()
                    slot.deadline = time.monotonic() + timeout_s
                    slot.send((fn, slot.index, tasks[slot.index]))
            busy = [s for s in slots if s.index is not None]
            wait_s = max(0.0, min(s.deadline for s in busy) - time.monotonic())
            ready = set(wait([s.fileno() for s in busy], timeout=wait_s))
            for i, slot in enumerate(slots):
                if slot.index is None:
                    continue
                if slot.fileno() in ready:
                    try:
                        _, value = slot.receive()
                        finish(slot, value)
                        continue
                    except (EOFError, OSError):
                        finish(slot, Crash(_death(slot.process.wait(5))))
                    except Exception as exc:  # a result the parent cannot unpickle
                        slot.process.kill()
                        finish(slot, Crash(f"unreadable result from the worker: {type(exc).__name__}: {exc}"))
                elif time.monotonic() >= slot.deadline:
                    slot.process.kill()
                    finish(slot, Crash(f"the compiler ran past {timeout_s:g} s "
                                       "(TILEFIT_COMPILE_TIMEOUT_S) and was stopped"))
                else:
                    continue
                slot.process.wait(5)
                if pending:
                    slots[i] = start()
    finally:
        _stop(slots)
    return results


def _death(code: int) -> str:
    how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
    return (f"the compiler process died ({how}); LLVM aborts like this when the host runs out of "
            "memory (TILEFIT_COMPILE_MEMORY_MB)")


def _stop(slots: Sequence[_Slot]) -> None:
    for slot in slots:
        with contextlib.suppress(OSError, ValueError):
            if slot.process.stdin is not None:
                slot.process.stdin.close()
    for slot in slots:
        try:
            slot.process.wait(5)
        except subprocess.TimeoutExpired:
            slot.process.kill()
            slot.process.wait(5)
        for stream in (slot.process.stdout,):
            if stream is not None:
                stream.close()


if __name__ == "__main__":
    # Serve through the package module so that Crash pickles as tilefit.estimate.pool.Crash.
    from tilefit.estimate import pool as _pool

    _pool._serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
