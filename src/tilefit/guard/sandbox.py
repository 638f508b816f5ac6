"""Compile in child processes under a memory limit and a timeout: the public names over tilefit.isolate.

`Sandbox` runs jobs (`tilefit.isolate.Job`) each in a fresh child and sizes Triton configs with
`TritonEstimator(isolation="per-job")`; `SandboxEstimator` is that estimator for fit(). An abort (`LLVM
ERROR: out of memory`), a hang or a dead child is an Outcome / a Usage with `failure` set, never a dead
or hung caller.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit import isolate
from tilefit.errors import CompileError, DoesNotFit
from tilefit.estimate.base import Mode, Usage
from tilefit.isolate import Job, Outcome
from tilefit.settings import Settings

__all__ = ["Job", "Outcome", "Sandbox", "SandboxEstimator"]


class Sandbox:
    """Runs jobs in fresh children under Settings' compile limits (or the ones given here)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        memory_mb: int | None = None,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        s = settings or Settings.from_env()
        self.settings = dataclasses.replace(
            s,
            compile_memory_mb=s.compile_memory_mb if memory_mb is None else memory_mb,
            compile_timeout_s=s.compile_timeout_s if timeout_s is None else timeout_s,
        )
        self.env = dict(env or {})

    @property
    def limits(self) -> isolate.Limits:
        return isolate.Limits.of(self.settings)

    def run(self, job: Job) -> Outcome:
        """Run one job in a fresh child; never raises for what happens inside it."""
        return isolate.run_one(isolate.call_job, job, limits=self.limits, env=self.env)

    def run_many(self, jobs: Sequence[Job], workers: int = 1) -> list[Outcome]:
        """Run jobs, each in a fresh child, `workers` at a time, in input order."""
        return isolate.run_many(isolate.call_job, jobs, limits=self.limits, workers=workers, fresh=True,
                                env=self.env)

    def estimate(self, kernel: Any, config: Mapping[str, Any], target: str, *,
                 args: Sequence[Any] | Mapping[str, Any] | None = None,
                 signature: Mapping[str, Any] | None = None, mode: Mode = "full") -> Usage:
        """Usage of one config, compiled in a child; a crash or timeout is a Usage with `failure` set."""
        return self.estimate_many(kernel, [config], target, args=args, signature=signature, mode=mode)[0]

    def estimate_many(self, kernel: Any, configs: Sequence[Mapping[str, Any]], target: str, *,
                      args: Sequence[Any] | Mapping[str, Any] | None = None,
                      signature: Mapping[str, Any] | None = None, mode: Mode = "full",
                      workers: int = 1) -> list[Usage]:
        """Usages of many configs, each compiled in its own child (nothing cached: each is compiled)."""
        from tilefit.estimate.triton import TritonEstimator

        est = TritonEstimator(kernel, args=args, signature=signature, cache=False, settings=self.settings,
                              isolation="per-job")
        return est.estimate_many(configs, [target], mode=mode, workers=workers, progress=False)

    def check(self, kernel: Any, config: Mapping[str, Any], target: str, *,
              args: Sequence[Any] | Mapping[str, Any] | None = None,
              signature: Mapping[str, Any] | None = None, mode: Mode = "full") -> Usage:
        """Like estimate, but raise: CompileError when it failed, DoesNotFit when it is over the limit."""
        u = self.estimate(kernel, config, target, args=args, signature=signature, mode=mode)
        if u.error is not None:
            stage = f"isolate:{u.failure.kind}" if u.failure else "compile"
            raise CompileError(u.error, stage=stage, log=u.failure.stderr if u.failure else "")
        if u.fits is False:
            raise DoesNotFit(u.resource, u.bytes or 0, u.limit or 0, u.target)
        return u


def SandboxEstimator(  # the name of the class this replaced, kept for callers
    kernel: Any,
    *,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    signature: Mapping[str, Any] | None = None,
    sandbox: Sandbox | None = None,
    workers: int = 1,
) -> Any:
    """A TritonEstimator that compiles every config in a fresh child (isolation="per-job")."""
    from tilefit.estimate.triton import TritonEstimator

    settings = dataclasses.replace((sandbox or Sandbox()).settings, workers=workers)
    return TritonEstimator(kernel, args=args, signature=signature, settings=settings, isolation="per-job")
