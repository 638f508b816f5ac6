"""Run work in child processes so that a crash, a hang or a memory blow-up becomes a result.

A compiler can abort the whole process (`LLVM ERROR: out of memory` calls abort(), exit 134) or run for
minutes (ptxas has no timeout), and a kernel's module may do anything at import. Every job therefore runs
in a child: a fresh interpreter (`python -c`, spawned like multiprocessing's "spawn" but without re-running
the caller's __main__), in its own process group, so that a timeout or a cancel kills the child together
with any ptxas it started.

One engine, two modes: persistent workers for sweeps (a worker runs job after job; one that dies or runs
out of time is replaced) and per-job children (`fresh=True`: one interpreter per job, as a sandbox wants).

- One memory rule: RLIMIT_DATA = `Limits.memory_mb` (0: no limit), set by the child itself before it
  imports anything. Not RLIMIT_AS: file-backed mappings of shared objects count against RLIMIT_AS (CUDA
  builds of torch map GBs of libraries), but not against RLIMIT_DATA. Measured with
  `benchmarks/isolate_rlimit.py --compile` (triton 3.9.0, torch 2.13 CPU, a shared 2-core box): importing
  triton + torch peaks at 813 MiB of address space but 221 MiB of data; under RLIMIT_AS=300 MB
  libtorch_cpu.so fails to map, under RLIMIT_DATA=300 MB it loads. The 512x512x64 fp16 matmul with 4 warps
  (full mode, sm_90) under 600 MB aborts with `LLVM ERROR: out of memory` (SIGABRT) under either limit
  (RLIMIT_DATA: after 12 to 33 s, peak RSS 624 MiB), so it stays "oom".
- One timeout rule: a job's deadline is `Limits.timeout_s` (> 0 and finite) after it is sent; past it
  the child's whole process group is killed with SIGKILL.
- One result type: `Outcome(status, value, returncode, stderr_tail, seconds, message)`.
- Bounded: a child's stderr goes to a file of which only the tail is read (seek, never a whole read);
  a result frame is at most `_MAX_FRAME` bytes and is unpickled under a guard.
- No orphans: a try/finally kills every child group and removes the temporary directory on return,
  error, Ctrl-C (KeyboardInterrupt) and SIGTERM/SIGHUP (raised as `Terminated`, a SystemExit with code
  143/129, while the runner holds the main thread); a child whose parent vanished kills its own group.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing.connection import wait
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from tilefit.errors import CompileError, SettingsError
from tilefit.isolate_child import HEADER, LOG_ENV, child_stderr, file_size, tail
from tilefit.settings import memory_problem, timeout_problem

__all__ = ["Job", "Limits", "Outcome", "Terminated", "call_job", "child_stderr", "run_many", "run_one"]

Status = Literal["ok", "error", "timeout", "oom", "crashed"]

_MAX_FRAME = 64 * 1024 * 1024  # a result larger than this is not read (a Usage is a few hundred bytes)
_TAIL = 8000  # bytes of a child's stderr kept in an Outcome
_CHILD = "from tilefit.isolate_child import main; main()"
# Text by which a child that could not even load its modules shows a memory limit too small for them.
_LOAD_FAILURES = ("failed to map segment from shared object", "OpenBLAS error: Memory allocation")
_OOM_WORDS = ("out of memory", "memoryerror", "bad_alloc", "cannot allocate memory")


class Terminated(SystemExit):
    """SIGTERM or SIGHUP arrived while children ran; they are gone. The exit code is 128 + the signal."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(128 + signum)


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one job may use: seconds (> 0, finite) and MB of data (RLIMIT_DATA; 0 = no limit)."""

    timeout_s: float = 120.0
    memory_mb: int = 4096

    def __post_init__(self) -> None:
        problem = timeout_problem(self.timeout_s) or memory_problem(self.memory_mb)
        if problem:
            raise SettingsError(f"compile limits (timeout_s={self.timeout_s!r}, memory_mb={self.memory_mb!r}): "
                                f"{problem}")

    @classmethod
    def of(cls, settings: Any) -> Limits:
        """The limits a Settings object gives (compile_timeout_s, compile_memory_mb)."""
        return cls(float(settings.compile_timeout_s), int(settings.compile_memory_mb))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How one job ended; `value` is the job's return value when status is "ok"."""

    status: Status
    value: Any = None
    returncode: int | None = None
    stderr_tail: str = ""
    seconds: float = 0.0
    message: str = ""

    @property
    def failure_kind(self) -> Literal["compile", "crash", "timeout", "oom"] | None:
        """The matching `Failure.kind` of estimate/base.py (None when ok)."""
        kinds: dict[str, Literal["compile", "crash", "timeout", "oom"]] = {
            "error": "compile", "crashed": "crash", "timeout": "timeout", "oom": "oom"}
        return kinds.get(self.status)

    def raise_for_status(self) -> Any:
        """The value, or a CompileError saying what stopped the job (its stderr tail in `.log`)."""
        if self.status == "ok":
            return self.value
        raise CompileError(self.message or self.status, stage=f"isolate:{self.status}", log=self.stderr_tail)


@dataclasses.dataclass(frozen=True)
class Job:
    """A job named by text: `function` ('module:name') called with `payload` in the child."""

    function: str
    payload: Any


def call_job(job: Job) -> Any:
    """Child side of a Job: import its function and call it."""
    module, _, name = job.function.partition(":")
    return getattr(importlib.import_module(module), name)(job.payload)


def run_one(fn: Callable[[Any], Any], task: Any, *, limits: Limits, preload: Sequence[str] = (),
            env: Mapping[str, str] | None = None) -> Outcome:
    """fn(task) in a fresh child; never raises for what happens inside it."""
    return run_many(fn, [task], limits=limits, fresh=True, preload=preload, env=env)[0]


def run_many(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    limits: Limits,
    workers: int = 1,
    fresh: bool = False,
    preload: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    on_done: Callable[[int, Outcome], None] | None = None,
) -> list[Outcome]:
    """fn(task) for every task, in input order, `workers` children at a time.

    `fn` must be importable by the child (a module-level function); `preload` names modules each child
    imports before its first job (the compiler), so that a memory limit too small to load them is named.
    """
    if not tasks:
        return []
    with _Session(limits, preload, env) as session:
        return session.run(fn, tasks, max(1, min(workers, len(tasks))), fresh, on_done)


# ---------------------------------------------------------------------------------------------- parent side


@dataclasses.dataclass
class _Child:
    proc: subprocess.Popen[bytes]
    log: Path
    buf: bytearray = dataclasses.field(default_factory=bytearray)
    ready: bool = False
    load_error: str | None = None
    index: int | None = None
    started: float = 0.0
    log_start: int = 0
    dead: bool = False

    @property
    def fd(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()


class _Session:
    """Children, their temporary directory and the signal handlers of one run_many call."""

    def __init__(self, limits: Limits, preload: Sequence[str], env: Mapping[str, str] | None) -> None:
        self.limits = limits
        self.preload = ",".join(preload)
        self.env = dict(env or {})
        self.children: list[_Child] = []
        self.tmp: Path | None = None
        self.saved: dict[int, Any] = {}
        self.started = 0

    def __enter__(self) -> _Session:
        self.tmp = Path(tempfile.mkdtemp(prefix="tilefit-isolate-"))
        self._trap_signals()
        return self

    def __exit__(self, *exc: object) -> None:
        with _signals_blocked():
            for child in self.children:
                _kill(child)
            if self.tmp is not None:
                shutil.rmtree(self.tmp, ignore_errors=True)
            for signum, handler in self.saved.items():
                signal.signal(signum, handler)

    def _trap_signals(self) -> None:
        """SIGTERM/SIGHUP raise Terminated (unwinding through __exit__) where they would kill silently."""
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) == signal.SIG_DFL:
                self.saved[signum] = signal.signal(signum, _raise_terminated)

    def start(self) -> _Child:
        assert self.tmp is not None
        self.started += 1
        log = self.tmp / f"child-{self.started}.log"
        env = {**os.environ, **self.env, LOG_ENV: str(log),
               # the caller's sys.path, so children import tilefit and kernel modules exactly as it does
               "PYTHONPATH": os.pathsep.join(p or os.getcwd() for p in sys.path)}
        with open(log, "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(self.limits.memory_mb), self.preload],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env,
                start_new_session=True,  # its own process group: a kill takes the ptxas it started too
            )
        child = _Child(proc, log)
        self.children.append(child)
        return child

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[Any], workers: int, fresh: bool,
            on_done: Callable[[int, Outcome], None] | None) -> list[Outcome]:
        results: list[Outcome | None] = [None] * len(tasks)
        pending = deque(range(len(tasks)))
        pool = [self.start() for _ in range(workers)]
        while pending or any(c.index is not None for c in pool):
            for child in pool:
                while child.index is None and pending:
                    index = pending.popleft()
                    unsent = self._send(child, index, fn, tasks)
                    if unsent is not None:
                        results[index] = unsent
                        if on_done is not None:
                            on_done(index, unsent)
            busy = [c for c in pool if c.index is not None]
            if not busy:
                continue
            now = time.monotonic()
            ready = set(wait([c.fd for c in busy], timeout=max(0.0, min(c.started for c in busy)
                                                                + self.limits.timeout_s - now)))
            for i, child in enumerate(pool):
                outcome = self._poll(child, child.fd in ready) if child.index is not None else None
                if outcome is None:
                    continue
                assert child.index is not None
                results[child.index] = outcome
                if on_done is not None:
                    on_done(child.index, outcome)
                child.index = None
                if child.dead or fresh:
                    _kill(child)
                    self.children.remove(child)
                    if pending:
                        pool[i] = self.start()
        return [r if r is not None else Outcome("crashed", message="not run") for r in results]

    def _send(self, child: _Child, index: int, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> Outcome | None:
        """Give the child a job; an Outcome (error) when the job cannot be pickled for it."""
        try:
            frame = pickle.dumps((index, pickle.dumps((fn, tasks[index]))))
        except Exception as exc:
            return Outcome("error", message=f"the job cannot be sent to a child process: {type(exc).__name__}: {exc}")
        child.index, child.started, child.log_start = index, time.monotonic(), file_size(child.log)
        assert child.proc.stdin is not None
        try:
            child.proc.stdin.write(HEADER.pack(len(frame)) + frame)
            child.proc.stdin.flush()
        except OSError:  # the child is already gone; its end of stdout shows it
            pass
        return None

    def _poll(self, child: _Child, readable: bool) -> Outcome | None:
        """The outcome of the child's job if it ended (result, death or deadline), else None."""
        elapsed = time.monotonic() - child.started
        if readable:
            try:
                data = os.read(child.fd, 1 << 16)
            except OSError:
                data = b""
            if not data:
                return self._death(child, elapsed)
            child.buf += data
            return self._frames(child, elapsed)
        if elapsed >= self.limits.timeout_s:
            child.dead = True
            _kill(child)
            return Outcome("timeout", None, child.proc.returncode, self._stderr(child), elapsed,
                           f"the compiler ran past {self.limits.timeout_s:g} s (TILEFIT_COMPILE_TIMEOUT_S) "
                           "and its process group was killed")
        return None

    def _frames(self, child: _Child, elapsed: float) -> Outcome | None:
        while len(child.buf) >= HEADER.size:
            (size,) = HEADER.unpack_from(child.buf)
            if size > _MAX_FRAME:
                return self._unreadable(child, elapsed, f"a result of {size} B (the limit is {_MAX_FRAME} B)")
            if len(child.buf) < HEADER.size + size:
                return None
            frame = bytes(child.buf[HEADER.size:HEADER.size + size])
            del child.buf[:HEADER.size + size]
            try:
                message = pickle.loads(frame)
                kind = message[0]
                if kind == "load-failed":
                    child.load_error = str(message[1])
                elif kind == "done":
                    status, value = str(message[2]), message[3]
            except Exception as exc:  # a truncated or foreign frame: the child is not trusted to be sane
                return self._unreadable(child, elapsed, f"{type(exc).__name__}: {exc}")
            if kind == "ready":
                child.ready = True
            elif kind == "done":
                return self._done(child, status, value, elapsed)
        return None

    def _done(self, child: _Child, status: str, value: Any, elapsed: float) -> Outcome:
        if status == "ok":
            return Outcome("ok", value, None, "", elapsed)
        text = str(value)
        stderr = self._stderr(child)
        if self.limits.memory_mb and any(s in text for s in _LOAD_FAILURES):
            return Outcome("oom", None, None, stderr, elapsed, self._too_small(text))
        if self.limits.memory_mb and "MemoryError" in text:
            return Outcome("oom", None, None, stderr, elapsed, self._out_of_memory(None, text))
        return Outcome("error", None, None, stderr, elapsed, text)

    def _death(self, child: _Child, elapsed: float) -> Outcome:
        child.dead = True
        code = _kill(child)
        stderr = self._stderr(child)
        low = stderr.lower()
        if self.limits.memory_mb and not child.ready and (
                child.load_error or code == -signal.SIGABRT or any(w in low for w in _OOM_WORDS)):
            return Outcome("oom", None, code, stderr, elapsed, self._too_small(child.load_error or stderr))
        if child.load_error:
            return Outcome("error", None, code, stderr, elapsed,
                           f"the compile process could not import {self.preload}: {child.load_error}")
        if any(w in low for w in _OOM_WORDS):
            return Outcome("oom", None, code, stderr, elapsed, self._out_of_memory(code, stderr))
        return Outcome("crashed", None, code, stderr, elapsed,
                       f"the compiler process died ({_describe(code)}): {_line(stderr, 'error')}")

    def _unreadable(self, child: _Child, elapsed: float, why: str) -> Outcome:
        child.dead = True
        code = _kill(child)
        return Outcome("crashed", None, code, self._stderr(child), elapsed,
                       f"the compiler process sent an unreadable result: {why}")

    def _stderr(self, child: _Child) -> str:
        return tail(child.log, child.log_start, _TAIL)

    def _too_small(self, text: str) -> str:
        mb = self.limits.memory_mb
        need = _loaded_mb()
        about = f"needs about {need} MB" if need and need > mb else f"needs more than {mb} MB"
        return (f"TILEFIT_COMPILE_MEMORY_MB={mb} is too small to load the compiler ({about}; "
                f"{_line(text, 'memory') if text else 'no output'})")

    def _out_of_memory(self, code: int | None, text: str) -> str:
        how = _line(text, "memory") if code is None else f"{_describe(code)}: {_line(text, 'memory')}"
        return (f"the compiler ran out of host memory under the {self.limits.memory_mb} MB limit "
                f"(TILEFIT_COMPILE_MEMORY_MB; {how}); the tile holds too many elements per thread: lower the "
                "BLOCK sizes or raise num_warps, or raise the limit")


def _raise_terminated(signum: int, _frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while children are killed, so a second one cannot cut the cleanup short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _kill(child: _Child) -> int | None:
    """SIGKILL the child's process group (grandchildren too), reap the child, close its pipes."""
    proc = child.proc
    if proc.returncode is None:  # once reaped, the group id may belong to someone else
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # before reaping: the group id cannot be reused yet
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    return proc.returncode


def _describe(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _line(text: str, needle: str) -> str:
    """The first line mentioning `needle`, else the last non-empty line (at most 300 characters)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    hit = next((ln for ln in lines if needle.lower() in ln.lower()), lines[-1] if lines else "no output")
    return hit[:300]


def _loaded_mb() -> int | None:
    """This process's data size in MB, rounded up to 64 MB: what a child needs to import what it did."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            kb = next(int(ln.split()[1]) for ln in f if ln.startswith("VmData:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return None
    return -(-kb // (64 * 1024)) * 64
