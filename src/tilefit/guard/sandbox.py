"""Compile candidates in a child process with an address-space limit and a timeout.

`LLVM ERROR: out of memory` calls abort() (exit 134): no Python exception, the process is gone
(512x512x64 fp16 with 4 warps for sm_90 takes ~1 GB and 52 s in triton.compile; under a 600 MB limit
it aborts: BENCHMARKS.md, sandbox).
ptxas runs with no timeout. So each job runs in a fresh interpreter in its own process group, under
RLIMIT_AS = Settings.compile_memory_mb and a deadline of Settings.compile_timeout_s; on the deadline the
whole group (the interpreter and any ptxas it started) is killed. What happened is an `Outcome`; a
Usage with `error` set for estimator jobs, or a CompileError on request.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from tilefit.errors import CompileError, DoesNotFit
from tilefit.estimate.base import Mode, Usage
from tilefit.guard.jobs import EstimatePayload, Job, kernel_ref_of, portable_args
from tilefit.settings import Settings

Status = Literal["ok", "error", "out-of-memory", "timeout", "crashed"]

_CHILD = "from tilefit.guard.jobs import child_main; child_main()"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How one job ended."""

    status: Status
    value: Any = None
    returncode: int | None = None
    stderr: str = ""
    seconds: float = 0.0
    message: str = ""

    def raise_for_status(self) -> Any:
        """The value, or a CompileError saying what killed the compile (the log kept in `.log`)."""
        if self.status == "ok":
            return self.value
        raise CompileError(self.message, stage=f"sandbox:{self.status}", log=self.stderr)


class Sandbox:
    """Runs jobs in child processes under a memory limit and a timeout (both from Settings)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        memory_mb: int | None = None,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        s = settings or Settings.from_env()
        self.memory_mb = s.compile_memory_mb if memory_mb is None else memory_mb
        self.timeout_s = s.compile_timeout_s if timeout_s is None else timeout_s
        self.env = dict(env or {})

    def run(self, job: Job) -> Outcome:
        """Run one job; never raises for what happens inside the child."""
        return self.run_many([job], workers=1)[0]

    def run_many(self, jobs: Sequence[Job], workers: int = 1) -> list[Outcome]:
        """Run jobs, `workers` children at a time, in order of the input."""
        results: list[Outcome | None] = [None] * len(jobs)
        pending = list(range(len(jobs)))[::-1]
        running: list[_Child] = []
        with tempfile.TemporaryDirectory(prefix="tilefit-sandbox-") as tmp:
            while pending or running:
                while pending and len(running) < max(1, workers):
                    i = pending.pop()
                    running.append(_Child.start(i, jobs[i], Path(tmp), self))
                time.sleep(0.02)
                for child in list(running):
                    outcome = child.poll(self.timeout_s)
                    if outcome is not None:
                        results[child.index] = outcome
                        running.remove(child)
        return [r if r is not None else Outcome("crashed", message="not run") for r in results]

    def estimate(
        self,
        kernel: Any,
        config: Mapping[str, Any],
        target: str,
        *,
        args: Sequence[Any] | Mapping[str, Any] | None = None,
        signature: Mapping[str, Any] | None = None,
        mode: Mode = "full",
    ) -> Usage:
        """Usage of one config, compiled in a child; a crash or timeout is a Usage with `error`."""
        return self.estimate_many(kernel, [config], target, args=args, signature=signature, mode=mode)[0]

    def estimate_many(
        self,
        kernel: Any,
        configs: Sequence[Mapping[str, Any]],
        target: str,
        *,
        args: Sequence[Any] | Mapping[str, Any] | None = None,
        signature: Mapping[str, Any] | None = None,
        mode: Mode = "full",
        workers: int = 1,
    ) -> list[Usage]:
        """Usages of many configs, each in its own child."""
        ref = kernel_ref_of(kernel)
        bound = portable_args(kernel, args, signature)
        jobs = [
            Job("tilefit.guard.jobs:estimate_job", EstimatePayload(ref, bound, dict(c), target, mode))
            for c in configs
        ]
        outcomes = self.run_many(jobs, workers=workers)
        return [_usage(o, c, target, mode) for o, c in zip(outcomes, configs, strict=True)]

    def check(
        self,
        kernel: Any,
        config: Mapping[str, Any],
        target: str,
        *,
        args: Sequence[Any] | Mapping[str, Any] | None = None,
        signature: Mapping[str, Any] | None = None,
        mode: Mode = "full",
    ) -> Usage:
        """Like estimate, but raise: CompileError for a crash/timeout/error, DoesNotFit when over the limit."""
        u = self.estimate(kernel, config, target, args=args, signature=signature, mode=mode)
        if u.error is not None:
            raise CompileError(u.error, stage=str(u.extra.get("outcome", "compile")),
                               log=str(u.extra.get("stderr", "")))
        if u.fits is False:
            raise DoesNotFit(u.resource, u.bytes or 0, u.limit or 0, u.target)
        return u


class SandboxEstimator:
    """The Estimator protocol over a Sandbox, so fit() can compile risky spaces in children."""

    def __init__(
        self,
        kernel: Any,
        *,
        args: Sequence[Any] | Mapping[str, Any] | None = None,
        signature: Mapping[str, Any] | None = None,
        sandbox: Sandbox | None = None,
        workers: int = 1,
    ) -> None:
        self.kernel = kernel
        self.args = args
        self.signature = signature
        self.sandbox = sandbox or Sandbox()
        self.workers = workers

    def estimate(self, config: Mapping[str, Any], target: str, mode: Mode = "fast") -> Usage:
        return self.estimate_many([config], [target], mode)[0]

    def estimate_many(
        self, configs: Sequence[Mapping[str, Any]], targets: Sequence[Any], mode: Mode = "fast", *,
        workers: int | None = None, progress: bool | None = None,
    ) -> list[Usage]:
        if mode == "analytic":  # instant and in-process: nothing to isolate
            from tilefit.estimate.triton import TritonEstimator

            est = TritonEstimator(self.kernel, args=self.args, signature=self.signature)
            return est.estimate_many(configs, list(targets), mode="analytic")
        return [
            u
            for t in targets
            for u in self.sandbox.estimate_many(
                self.kernel, configs, getattr(t, "name", t), args=self.args, signature=self.signature, mode=mode,
                workers=self.workers,
            )
        ]


@dataclasses.dataclass
class _Child:
    index: int
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path
    started: float
    memory_mb: int

    @classmethod
    def start(cls, index: int, job: Job, tmp: Path, box: Sandbox) -> _Child:
        inp, out, err = tmp / f"{index}.in", tmp / f"{index}.out", tmp / f"{index}.err"
        inp.write_bytes(pickle.dumps(job))
        env = {**os.environ, **box.env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
               "TILEFIT_SANDBOX_STDERR": str(err)}
        memory = box.memory_mb
        with open(err, "wb") as err_file:
            proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(inp), str(out)],
                stdin=subprocess.DEVNULL, stdout=err_file, stderr=err_file, env=env,
                start_new_session=True,  # its own process group: a timeout kills ptxas too
                preexec_fn=(lambda: _limit_memory(memory)) if memory > 0 else None,
            )
        return cls(index, proc, out, err, time.monotonic(), memory)

    def poll(self, timeout_s: float) -> Outcome | None:
        elapsed = time.monotonic() - self.started
        code = self.proc.poll()
        if code is None:
            if timeout_s > 0 and elapsed > timeout_s:
                _kill_group(self.proc)
                return Outcome(
                    "timeout", returncode=self.proc.returncode, stderr=_tail(self.err), seconds=elapsed,
                    message=f"the compile did not finish in {timeout_s:g} s and its process group was "
                    "killed (TILEFIT_COMPILE_TIMEOUT_S)",
                )
            return None
        _kill_group(self.proc)  # anything the child left behind (a ptxas) goes with it
        return _finished(code, self.out, _tail(self.err), elapsed, self.memory_mb)


def _finished(code: int, out: Path, stderr: str, seconds: float, memory_mb: int) -> Outcome:
    if code == 0 and out.exists():
        status, value = pickle.loads(out.read_bytes())
        if status == "ok":
            return Outcome("ok", value, code, stderr, seconds)
        return Outcome("error", None, code, stderr, seconds, message=str(value))
    oom = "out of memory" in stderr.lower() or "memoryerror" in stderr.lower()
    if oom:
        return Outcome(
            "out-of-memory", None, code, stderr, seconds,
            message=f"the compiler ran out of host memory under the {memory_mb} MB address-space limit "
            f"(exit {_describe_code(code)}: {_first_line(stderr, 'out of memory')}); the tile holds too "
            "many elements per thread: lower the BLOCK sizes or raise num_warps, or raise "
            "TILEFIT_COMPILE_MEMORY_MB",
        )
    return Outcome(
        "crashed", None, code, stderr, seconds,
        message=f"the compiler process died (exit {_describe_code(code)}): {_first_line(stderr, 'error')}",
    )


def _usage(o: Outcome, config: Mapping[str, Any], target: str, mode: Mode) -> Usage:
    if o.status == "ok" and isinstance(o.value, Usage):
        # LLVM can also report running out of memory as an MLIR diagnostic instead of aborting.
        oom = o.value.error is not None and "out of memory" in o.value.error.lower()
        return dataclasses.replace(o.value, extra={**o.value.extra, "outcome": "out-of-memory" if oom else "ok"})
    from tilefit.targets import get_target

    limit = get_target(target).limit_for("shared-memory")
    return Usage(
        target=target, resource="shared-memory", bytes=None, limit=limit, mode=mode, config=dict(config),
        fits=None, error=o.message or o.status, seconds=o.seconds,
        extra={"outcome": o.status, "returncode": o.returncode, "stderr": o.stderr[-2000:],
               "crashed": o.status != "error"},
    )


def _limit_memory(memory_mb: int) -> None:
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)


def _describe_code(code: int | None) -> str:
    if code is None:
        return "none"
    if code < 0:
        try:
            return f"{code}, {signal.Signals(-code).name}"
        except ValueError:
            return str(code)
    return str(code)


def _first_line(text: str, needle: str) -> str:
    for line in text.splitlines():
        if needle.lower() in line.lower():
            return line.strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "no output"


def _tail(path: Path, n: int = 8000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-n:].decode("utf-8", "replace")
