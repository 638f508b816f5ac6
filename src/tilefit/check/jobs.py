"""What `tilefit check` sizes: a Job (one launch of one kernel on one target), a Task (what one worker call
compiles) and the Usage a result becomes. Shared by check/size.py (scheduling, cache) and check/compiles.py
(the worker's compiles)."""

from __future__ import annotations

import dataclasses
from typing import Any

from tilefit.check.moe import Launch
from tilefit.estimate.base import Overrun, Usage
from tilefit.targets import Target, get_target


@dataclasses.dataclass(frozen=True)
class Job:
    """One launch of one kernel (loaded from `module_path`) on one target."""

    module_path: str
    kernel: str
    launch: Launch
    target: str


@dataclasses.dataclass(frozen=True)
class Task:
    """What one worker call compiles: jobs that share a kernel and a TTIR class."""

    module_path: str
    kernel: str
    jobs: tuple[Job, ...]


def triton_version() -> str:
    """The installed Triton's version (what sizes every result of this process)."""
    import triton

    return str(triton.__version__)


def config_of(launch: Launch) -> dict[str, Any]:
    """The config a report shows: block sizes (a trace's constexprs) and launch options."""
    if launch.recorded is not None:
        names = [n for n, _ in launch.recorded.signature]
        consts = {names[p[0]]: v for p, v in launch.recorded.constexprs if len(p) == 1 and p[0] < len(names)
                  and isinstance(v, (int, bool)) and v is not None}
        return {**consts, **{k: launch.options[k] for k in ("num_warps", "num_stages") if k in launch.options}}
    blocks = {k: v for k, v in launch.args.items() if k.startswith(("BLOCK_SIZE", "GROUP_SIZE"))}
    return {**blocks, **launch.options}


def usage_of(job: Job, target: Target, shared: int, tmem: int | None, warps: int, seconds: float) -> Usage:
    assert target.triton is not None
    threads = warps * target.triton.warp_size
    checks = [("shared-memory", shared, target.limit_for("shared-memory")),
              ("threads", threads, target.limit_for("threads")),
              ("tensor-memory", tmem or 0, target.limit_for("tensor-memory") or 512)]
    over = tuple(Overrun(r, n, lim, target.name) for r, n, lim in checks  # type: ignore[arg-type]
                 if lim is not None and n > lim)
    return Usage(target=target.name, resource="shared-memory", bytes=shared, limit=checks[0][2], mode="fast",
                 config=config_of(job.launch), fits=not over, seconds=seconds, threads=threads, tensor_memory=tmem,
                 over=over, compiler=f"triton {triton_version()}")


def failed(job: Job, message: str, kind: str) -> Usage:
    from tilefit.estimate.base import Failure

    target = get_target(job.target)
    return Usage(target=job.target, resource="shared-memory", bytes=None, limit=target.limit_for("shared-memory"),
                 mode="fast", config=config_of(job.launch), fits=None, error=message,
                 failure=Failure(kind, message), compiler=f"triton {triton_version()}")  # type: ignore[arg-type]
