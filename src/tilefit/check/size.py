"""Size many launches of loaded kernels on many targets, with the exact estimator, reusing what can be reused.

- Launches that specialise identically (same constexprs, same argument types after the JIT's
  divisibility rules, same options, same target) are compiled once: a table's entries for M = 1 and
  M = 2 often differ only in integer values the JIT does not specialise on.
- The TTIR of a specialisation does not depend on num_warps, num_stages or the target within a
  TTIR class (Triton's make_ttir differs only between CUDA below sm_90, which rewrites tensor
  descriptors to pointers, CUDA from sm_90, and HIP), except that the frontend refuses fp8 types a
  target lacks: the frontend and make_ttir run once per class and set of fp8 types, then Triton's own
  shared-memory allocation pass (the `fast` mode of estimate/triton.py) gives `metadata.shared`.
- make_ttgir runs as the pass plan the backend's stage records (estimate/triton_compile.ttgir_plan): the
  passes before the first one that takes num_stages run once per TTIR, num_warps and target, each
  num_stages runs the rest on a copy; compiles with equal TTIR text, plan and allocation arguments run
  once per worker (launch_pdl, read by no pass, does not split them).
- Targets that data/check/same_bytes.yaml groups (under the installed Triton version) compile once per
  group: sm_80, sm_86 and (without fp8 in the TTIR) sm_89 run the same passes, so they are sized from
  one compile, each target against its own limits.
- Compiles run in worker processes (a compiler crash or hang is a result, not an abort) and results are
  cached on disk by kernel source, specialisation, options, target and Triton version.

This module groups jobs into tasks, schedules them and keeps the cache; what a worker runs for a task is
check/compiles.py, and Job, Task and the Usage of a result are check/jobs.py.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Sequence
from typing import Any

from tilefit.check.compiles import _run_task, same_bytes_group, stand_ins, task_keys
from tilefit.check.jobs import Job, Task, config_of, failed, triton_version
from tilefit.estimate.base import Usage
from tilefit.settings import Settings
from tilefit.targets import Target, get_target

__all__ = ["Crash", "Job", "same_bytes_group", "size_jobs", "spec_class", "spec_key", "stand_ins", "task_keys",
           "triton_version"]

Progress = Callable[[int], None]
_Task = Task


def size_jobs(jobs: Sequence[Job], settings: Settings | None = None, *, workers: int | None = None,
              progress: Progress | None = None, executor: str = "local") -> list[Usage]:
    """A Usage for every job, in order; compile failures are Usages with `error` set.

    `executor` "local" compiles in worker processes of this machine; "ray" sends each task to a Ray
    cluster (ray.init() joins RAY_ADDRESS, or starts a local one), for the `tilefit[ray]` extra.
    """
    settings = settings or Settings.from_env()
    from tilefit.store import USAGE, Store

    version = triton_version()
    cache = Store(settings.cache_dir / "check", USAGE, {"triton": version}) if settings.use_cache else None
    keys = [_key(j, version) for j in jobs]
    done: dict[str, Usage] = {}
    for key in dict.fromkeys(keys):
        hit = cache.get(key) if cache else None
        if hit is not None:
            done[key] = hit
    todo: dict[str, Job] = {}
    for key, job in zip(keys, jobs, strict=True):
        if key not in done:
            todo.setdefault(key, job)
    if progress:
        progress(len(set(keys)) - len(todo))
    key_of = {id(job): key for key, job in todo.items()}

    def store(job: Job, usage: Usage) -> None:
        # As each task finishes: an interrupted run resumes from what it had sized.
        if cache is not None and not (usage.failure and usage.failure.kind in ("crash", "timeout")):
            cache.put(key_of[id(job)], usage)

    fresh = _compile(list(todo.values()), settings, workers, progress, executor, store)
    for key, usage in zip(todo, fresh, strict=True):
        done[key] = usage
    return [_relabel(done[k], j) for k, j in zip(keys, jobs, strict=True)]


def _relabel(usage: Usage, job: Job) -> Usage:
    return dataclasses.replace(usage, config={**config_of(job.launch)}, target=job.target)


def spec_class(value: Any) -> Any:
    """What Triton's JIT specialises a runtime argument on: an int by ==1 / %16; everything else as is."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return 1 if value == 1 else "d16" if value % 16 == 0 else "int" if -2**31 <= value < 2**31 else "i64"


_CONSTEXPRS: dict[tuple[str, str], frozenset[str]] = {}


def _constexpr_names(module_path: str, kernel: str) -> frozenset[str]:
    """The kernel's constexpr parameters: their values are the specialisation itself, not a class of it."""
    key = (module_path, kernel)
    if key not in _CONSTEXPRS:
        from tilefit.estimate.triton_kernel import unwrap_kernel
        from tilefit.userfile import load_module_file

        fn = unwrap_kernel(getattr(load_module_file(module_path), kernel))
        _CONSTEXPRS[key] = frozenset(p.name for p in fn.params if p.is_constexpr)
    return _CONSTEXPRS[key]


def spec_key(job: Job) -> Any:
    """What the compile depends on: a trace's record, or the arguments as the JIT specialises them."""
    launch = job.launch
    if launch.recorded is not None:
        return repr(launch.recorded)
    consts = _constexpr_names(job.module_path, job.kernel)
    return tuple(sorted((k, repr(v if k in consts else spec_class(v))) for k, v in launch.args.items()))


def _key(job: Job, version: str) -> str:
    args = spec_key(job)
    from tilefit.store import key

    return key({"kernel": _source_hash(job.module_path), "name": job.kernel, "args": args,
                      "options": sorted(job.launch.options.items()), "target": job.target, "triton": version,
                      "mode": "fast", "rev": _KEY_REV})


# 2: an fp8 TTIR is no longer reused for a target without that fp8 type (results of 1 may hide the refusal).
_KEY_REV = 2


_HASHES: dict[str, str] = {}


def _source_hash(path: str) -> str:
    if path not in _HASHES:
        with open(path, "rb") as f:
            _HASHES[path] = hashlib.sha256(f.read()).hexdigest()
    return str(_HASHES[path])


def _ttir_class(target: Target) -> str:
    assert target.triton is not None
    if target.triton.backend == "cuda":
        return "cuda>=90" if int(target.triton.arch) >= 90 else "cuda<90"
    return f"hip:{target.triton.arch}"


def _tasks(jobs: Sequence[Job]) -> list[_Task]:
    """Group jobs by kernel, specialisation (without options) and TTIR class; one task per group."""
    groups: dict[tuple[Any, ...], list[Job]] = {}
    for job in jobs:
        key = (job.module_path, job.kernel, spec_key(job), _ttir_class(get_target(job.target)))
        groups.setdefault(key, []).append(job)
    return [_Task(k[0], k[1], tuple(v)) for k, v in groups.items()]


def _compile(jobs: list[Job], settings: Settings, workers: int | None, progress: Progress | None,
             executor: str = "local", store: Callable[[Job, Usage], None] | None = None) -> list[Usage]:
    if not jobs:
        return []
    from tilefit.isolate import Limits, Outcome, run_many

    # Largest tasks first: the last ones to start are short, so no worker idles while one finishes alone.
    tasks = sorted(_tasks(jobs), key=lambda t: -len(t.jobs))

    def done(i: int, out: list[Usage] | Crash) -> None:
        if isinstance(out, Crash):
            return
        if store is not None:
            for job, usage in zip(tasks[i].jobs, out, strict=True):
                store(job, usage)
        if progress:
            progress(len(out))

    if executor == "ray":
        return _collect(tasks, _on_ray(tasks, done), jobs, progress)
    n = workers if workers is not None else (settings.workers or os.cpu_count() or 1)
    if n <= 1 or len(tasks) == 1:
        outs: list[list[Usage] | Crash] = []
        for i, t in enumerate(tasks):
            outs.append(_run_task(t))
            done(i, outs[-1])
    else:
        # A task compiles a few launches of one kernel: it may take a few compile timeouts.
        limits = Limits(float(settings.compile_timeout_s) * 4, int(settings.compile_memory_mb))

        def finished(i: int, outcome: Outcome) -> None:
            done(i, _unwrap(outcome))

        from tilefit.estimate import mlir_verifier

        probed = {mlir_verifier.PROBED: "1" if mlir_verifier.usable() else "0"}
        outcomes = run_many(_run_task, tasks, limits=limits, workers=n, preload=("triton",), on_done=finished,
                            env=probed)
        outs = [_unwrap(o) for o in outcomes]
    return _collect(tasks, outs, jobs, progress)


@dataclasses.dataclass(frozen=True)
class Crash:
    """A task whose worker died, ran out of time or memory: every job of it fails with this message."""

    message: str
    kind: str = "crash"


def _unwrap(outcome: Any) -> list[Usage] | Crash:
    if outcome.status == "ok":
        return list(outcome.value)
    return Crash(outcome.message or outcome.status, outcome.failure_kind or "crash")


def _collect(tasks: Sequence[_Task], outs: Sequence[Any], jobs: Sequence[Job],
             progress: Progress | None) -> list[Usage]:
    """Usages in the order of `jobs` from per-task outputs (a Crash fails every job of its task)."""
    index = {id(j): i for i, j in enumerate(jobs)}
    results: dict[int, Usage] = {}
    for task, out in zip(tasks, outs, strict=True):
        for pos, job in enumerate(task.jobs):
            if isinstance(out, Crash):
                usage = failed(job, out.message, out.kind)
                if progress:
                    progress(1)
            else:
                usage = out[pos]
            results[index[id(job)]] = usage
    return [results[i] for i in range(len(jobs))]


def _on_ray(tasks: Sequence[_Task], done: Callable[[int, Any], None]) -> list[Any]:
    """Run every task as a Ray task; a task whose worker dies becomes a Crash."""
    from tilefit.errors import MissingExtraError

    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError("ray", "ray") from exc
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)
    remote = ray.remote(max_retries=0)(_run_task)
    refs = [remote.remote(t) for t in tasks]
    outs: list[Any] = []
    for i, ref in enumerate(refs):
        out: list[Usage] | Crash
        try:
            out = ray.get(ref)
        except Exception as exc:  # RayTaskError, WorkerCrashedError: the task is a result, not an abort
            out = Crash(f"ray task failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
        done(i, out)
        outs.append(out)
    return outs


