"""Run one picklable function over many tasks in spawned worker processes, surviving crashes.

A compiler can abort the whole process (LLVM "out of memory" calls abort(); FACTS.md) or run for minutes
(ptxas has no timeout). Each task therefore runs in a worker process (spawn context: no forked CUDA or
LLVM state); a worker that dies or passes the timeout is replaced and its task becomes a `Crash` result,
so one bad config never aborts a sweep.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


@dataclasses.dataclass(frozen=True)
class Crash:
    """A task whose worker died or ran out of time."""

    message: str


def _worker(fn: Callable[[Any], Any], conn: Connection, memory_mb: int) -> None:
    if memory_mb > 0:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        job = conn.recv()
        if job is None:
            return
        index, task = job
        try:
            conn.send((index, fn(task)))
        except Exception as exc:  # the function maps its own errors; this is a last resort
            conn.send((index, Crash(f"{type(exc).__name__}: {exc}")))


@dataclasses.dataclass
class _Slot(Generic[T]):
    process: Any
    conn: Connection
    index: int | None = None
    deadline: float = 0.0


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
    ctx = multiprocessing.get_context("spawn")
    results: list[R | Crash | None] = [None] * len(tasks)
    pending = list(range(len(tasks)))[::-1]

    def start() -> _Slot[T]:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(fn, child, memory_mb), daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent)

    def finish(slot: _Slot[T], value: R | Crash) -> None:
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
                    slot.conn.send((slot.index, tasks[slot.index]))
            busy = [s for s in slots if s.index is not None]
            wait_s = max(0.0, min(s.deadline for s in busy) - time.monotonic())
            ready = wait([s.conn for s in busy], timeout=wait_s)
            for i, slot in enumerate(slots):
                if slot.index is None:
                    continue
                if slot.conn in ready:
                    try:
                        _, value = slot.conn.recv()
                        finish(slot, value)
                        continue
                    except (EOFError, OSError):
                        slot.process.join(5)
                        code = slot.process.exitcode
                        finish(slot, Crash(f"the compiler process died (exit code {code}); "
                                           "LLVM aborts like this when the host runs out of memory"))
                elif time.monotonic() >= slot.deadline:
                    slot.process.kill()
                    finish(slot, Crash(f"the compiler ran past {timeout_s:g} s "
                                       "(TILEFIT_COMPILE_TIMEOUT_S) and was stopped"))
                else:
                    continue
                slot.process.join(5)
                if pending:
                    slots[i] = start()
    finally:
        _stop(slots)
    return [r if r is not None else Crash("not run") for r in results]


def _stop(slots: Sequence[_Slot[Any]]) -> None:
    for slot in slots:
        with contextlib.suppress(OSError, ValueError):
            slot.conn.send(None)
    for slot in slots:
        slot.process.join(5)
        if slot.process.is_alive():
            slot.process.kill()
            slot.process.join(5)
