"""The child side of the sandbox: its entry point, and the jobs it runs (an estimator compile).

A child is a fresh interpreter started by guard/sandbox.py; it reads a pickled Job, runs it and writes a
pickled ("ok", value) or ("error", message). If the compiler aborts, nothing is written and the parent
reads the exit status and the log instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Mode, Usage
from tilefit.estimate.triton_kernel import KernelRef


@dataclasses.dataclass(frozen=True)
class Job:
    """What a child runs: `function` ('module:name') called with `payload`; it must return a picklable."""

    function: str
    payload: Any


def kernel_ref_of(kernel: Any) -> KernelRef:
    """Where a child finds a @triton.jit kernel (or a wrapper of one) again; it must be module-level."""
    from tilefit.estimate.triton_kernel import kernel_ref, unwrap_kernel

    ref = kernel_ref(unwrap_kernel(kernel))
    if ref is None:
        raise InputError(f"{kernel!r} is not defined at module level; the sandbox must import it")
    return ref


@dataclasses.dataclass(frozen=True)
class EstimatePayload:
    """An estimator job: one config of one kernel on one target."""

    kernel: KernelRef
    args: Mapping[str, Any]
    config: Mapping[str, Any]
    target: str
    mode: Mode


def estimate_job(payload: EstimatePayload) -> Usage:
    """Child side of Sandbox.estimate: the Triton estimator, in this (sacrificial) process."""
    from tilefit.estimate.triton import TritonEstimator

    est = TritonEstimator(payload.kernel.load(), args=payload.args, cache=False)
    return est.estimate(payload.config, payload.target, payload.mode)


def portable_args(kernel: Any, args: Any, signature: Mapping[str, Any] | None) -> dict[str, Any]:
    """Args a child can unpickle: tensors become Arg types (the estimator's own conversion)."""
    from tilefit.estimate.triton import TritonEstimator

    est = TritonEstimator(kernel, args=args, signature=signature, cache=False)
    return dict(est.args)


def child_main() -> None:
    """Entry point of a sandbox child: argv = [input pickle, output pickle]."""
    import importlib

    inp, out = sys.argv[1], sys.argv[2]
    _keep_stderr_on_abort()
    job: Job = pickle.loads(Path(inp).read_bytes())
    module, _, name = job.function.partition(":")
    fn = getattr(importlib.import_module(module), name)
    try:
        result: tuple[str, Any] = ("ok", fn(job.payload))
    except Exception as exc:  # reported to the parent as data
        result = ("error", f"{type(exc).__name__}: {exc}")
    Path(out).write_bytes(pickle.dumps(result))


def _keep_stderr_on_abort() -> None:
    """Let compiler diagnostics reach the sandbox's log file even if the child aborts.

    The estimator captures fd 2 into an unlinked temporary file to read MLIR/LLVM diagnostics; when LLVM
    aborts, that file dies with the process and "LLVM ERROR: out of memory" is lost. In a child, fd 2
    already is a file the parent reads, so capturing reads that file from the current offset instead.
    """

    log = os.environ.get("TILEFIT_SANDBOX_STDERR")
    if not log:
        return
    try:
        from tilefit.estimate import triton_compile
    except ImportError:
        return

    @contextlib.contextmanager
    def passthrough() -> Iterator[Callable[[], str]]:
        start = os.path.getsize(log)

        def read() -> str:
            sys.stderr.flush()
            with open(log, "rb") as f:
                f.seek(start)
                return f.read().decode("utf-8", "replace")

        yield read

    triton_compile.captured_stderr = passthrough
