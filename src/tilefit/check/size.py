"""Size many launches of loaded kernels on many targets, with the exact estimator, reusing what can be reused.

- Launches that specialise identically (same constexprs, same argument types after the JIT's
  divisibility rules, same options, same target) are compiled once: a table's entries for M = 1 and
  M = 2 often differ only in integer values the JIT does not specialise on.
- The TTIR of a specialisation does not depend on num_warps, num_stages or the target within a
  TTIR class (Triton's make_ttir differs only between CUDA below sm_90, which rewrites tensor
  descriptors to pointers, CUDA from sm_90, and HIP): the frontend and make_ttir run once per class and
  every (options, target) pair starts from a re-parsed copy at make_ttgir, then Triton's own
  shared-memory allocation pass (the `fast` mode of estimate/triton.py) gives `metadata.shared`.
- Targets that data/check/same_bytes.yaml groups (under the installed Triton version) compile once per
  group: sm_80, sm_86 and (without fp8 in the TTIR) sm_89 run the same passes, so they are sized from
  one compile, each target against its own limits.
- Compiles run in worker processes (a compiler crash or hang is a result, not an abort) and results are
  cached on disk by kernel source, specialisation, options, target and Triton version.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.check.moe import Desc, Launch, TlType
from tilefit.errors import TilefitError
from tilefit.estimate.base import Overrun, Usage
from tilefit.estimate.triton_args import Arg
from tilefit.settings import Settings
from tilefit.targets import Target, get_target

Progress = Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class Job:
    """One launch of one kernel (loaded from `module_path`) on one target."""

    module_path: str
    kernel: str
    launch: Launch
    target: str


@dataclasses.dataclass(frozen=True)
class _Task:
    """What one worker call compiles: jobs that share a kernel and a TTIR class."""

    module_path: str
    kernel: str
    jobs: tuple[Job, ...]


def triton_version() -> str:
    """The installed Triton's version (what sizes every result of this process)."""
    import triton

    return str(triton.__version__)


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
    return dataclasses.replace(usage, config={**_config(job.launch)}, target=job.target)


def _config(launch: Launch) -> dict[str, Any]:
    """The config a report shows: block sizes (a trace's constexprs) and launch options."""
    if launch.recorded is not None:
        names = [n for n, _ in launch.recorded.signature]
        consts = {names[p[0]]: v for p, v in launch.recorded.constexprs if len(p) == 1 and p[0] < len(names)
                  and isinstance(v, (int, bool)) and v is not None}
        return {**consts, **{k: launch.options[k] for k in ("num_warps", "num_stages") if k in launch.options}}
    blocks = {k: v for k, v in launch.args.items() if k.startswith(("BLOCK_SIZE", "GROUP_SIZE"))}
    return {**blocks, **launch.options}


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


def _spec_key(job: Job) -> Any:
    """What the compile depends on: a trace's record, or the arguments as the JIT specialises them."""
    launch = job.launch
    if launch.recorded is not None:
        return repr(launch.recorded)
    consts = _constexpr_names(job.module_path, job.kernel)
    return tuple(sorted((k, repr(v if k in consts else spec_class(v))) for k, v in launch.args.items()))


def _key(job: Job, version: str) -> str:
    args = _spec_key(job)
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
        key = (job.module_path, job.kernel, _spec_key(job), _ttir_class(get_target(job.target)))
        groups.setdefault(key, []).append(job)
    return [_Task(k[0], k[1], tuple(v)) for k, v in groups.items()]


def _compile(jobs: list[Job], settings: Settings, workers: int | None, progress: Progress | None,
             executor: str = "local", store: Callable[[Job, Usage], None] | None = None) -> list[Usage]:
    if not jobs:
        return []
    from tilefit.isolate import Limits, Outcome, run_many

    tasks = _tasks(jobs)

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

        outcomes = run_many(_run_task, tasks, limits=limits, workers=n, preload=("triton",), on_done=finished)
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
                usage = _failed(job, out.message, out.kind)
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


def _run_task(task: _Task) -> list[Usage]:
    """Worker entry point: lower to TTIR once, then make_ttgir + allocation per (options, same-bytes group)."""
    from tilefit.userfile import load_module_file

    try:
        from tilefit.estimate.triton_kernel import unwrap_kernel

        kernel = unwrap_kernel(getattr(load_module_file(task.module_path), task.kernel))
    except (TilefitError, AttributeError) as exc:
        return [_failed(j, f"cannot load {task.kernel}: {exc}", "input") for j in task.jobs]
    ttir: str | None = None
    built_for = ""
    sized: dict[str, Sized] = {}
    out = []
    for job in task.jobs:
        reuse = ttir if ttir is not None and _ttir_serves(ttir, built_for, job.target) else None
        if reuse is not None and _memo(job, reuse) in sized:
            out.append(_as_usage(job, sized[_memo(job, reuse)]))
            continue
        result, made = _size_one(kernel, job, reuse)
        if made is not None:
            if reuse is None:
                ttir, built_for = made, job.target
            sized[_memo(job, made)] = result
        out.append(_as_usage(job, result))
    return out


def _ttir_serves(ttir: str, built_for: str, target: str) -> bool:
    """Whether a TTIR lowered for `built_for` stands for `target`'s frontend too.

    The frontend refuses fp8 types the target lacks (Triton's dtype.to_ir checks the backend option
    supported_fp8_dtypes: e4m3 "fp8e4nv" needs sm_89+), so a TTIR with fp8 in it, lowered for a target that
    supports more fp8 types, must be lowered again for this one to get the refusal.
    """
    return "f8E" not in ttir or _fp8_types(built_for) <= _fp8_types(target)


@functools.lru_cache(maxsize=64)
def _fp8_types(target: str) -> frozenset[str]:
    from triton.compiler import make_backend

    from tilefit.estimate import triton_compile as tc

    t = get_target(target)
    assert t.triton is not None
    backend = make_backend(tc.gpu_target(t.triton.backend, t.triton.arch, t.triton.warp_size))
    return frozenset(getattr(backend.parse_options({}), "supported_fp8_dtypes", ()))


def _memo(job: Job, ttir: str) -> str:
    """Jobs of one task with equal keys compile to the same bytes: same options, same-bytes group."""
    return repr((sorted(job.launch.options.items()), same_bytes_group(job.target, ttir)))


@dataclasses.dataclass(frozen=True)
class Sized:
    """What one compile gave: (shared, tensor memory, warps), or a failure (message, kind)."""

    sizes: tuple[int, int | None, int] | None
    failure: tuple[str, str] | None
    seconds: float = 0.0


def _as_usage(job: Job, sized: Sized) -> Usage:
    if sized.sizes is None:
        assert sized.failure is not None
        return _failed(job, *sized.failure)
    return _usage(job, get_target(job.target), *sized.sizes, sized.seconds)


@functools.lru_cache(maxsize=1)
def _groups() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(targets, TTIR strings that void the group) of each group verified under the installed Triton."""
    from importlib import resources

    from tilefit.yamlio import load_yaml

    doc = load_yaml(resources.files("tilefit") / "data" / "check" / "same_bytes.yaml")
    version = triton_version()
    return tuple((tuple(str(t) for t in g["targets"]), tuple(str(u) for u in g.get("unless_ttir_contains", ())))
                 for g in doc["groups"] if version in [str(v) for v in g["triton"]])


def same_bytes_group(target: str, ttir: str) -> str:
    """The target whose compile stands for `target` (data/check/same_bytes.yaml), else `target` itself."""
    if not GROUPING:
        return target
    for targets, unless in _groups():
        if target in targets and not any(u in ttir for u in unless):
            return targets[0]
    return target


# False compiles every target (what the tests compare the groups against, in-process with workers=1).
GROUPING = True


def _size_one(kernel: Any, job: Job, ttir: str | None) -> tuple[Sized, str | None]:
    from tilefit.estimate import triton_compile as tc
    from tilefit.estimate.triton import compiler_error

    target = get_target(job.target)
    assert target.triton is not None
    gpu = tc.gpu_target(target.triton.backend, target.triton.arch, target.triton.warp_size)
    start = time.perf_counter()
    with tc.captured_stderr() as log:
        try:
            sp = _specialised(kernel, gpu, job.launch)
            if ttir is None:
                module, _, _ = tc.lower(kernel, gpu, sp, last="ttir")
                ttir = str(module)
            sizes = _from_ttir(ttir, gpu, sp)
        except TilefitError as exc:
            return Sized(None, (str(exc), "input")), ttir
        except Exception as exc:
            return Sized(None, (str(compiler_error(exc, log())), "compile")), ttir
    return Sized(sizes, None, time.perf_counter() - start), ttir


def _specialised(kernel: Any, gpu: Any, launch: Launch) -> Any:
    """What the JIT passes to triton.compile: rebuilt from a trace record, or by the JIT's own binder."""
    from tilefit.estimate import triton_compile as tc

    rec = launch.recorded
    if rec is None:
        return tc.specialise(kernel, gpu, stand_ins(launch.args), dict(launch.options))
    constexprs = {p: _constexpr(kernel, v) for p, v in rec.constexprs}
    attrs = {p: [list(a) for a in pairs] for p, pairs in rec.attrs}
    return tc.Specialised(dict(rec.signature), constexprs, attrs, dict(launch.options))


def _constexpr(kernel: Any, value: Any) -> Any:
    """A trace's encoded constexpr; a JIT function passed by name is looked up in the kernel's module."""
    from tilefit.trace import decode_value

    if isinstance(value, dict) and "jit" in value:
        import sys

        module = sys.modules[kernel.fn.__module__]
        return getattr(module, str(value["jit"]).rsplit(".", 1)[-1])
    return decode_value(value)


def _from_ttir(ttir: str, gpu: Any, sp: Any) -> tuple[int, int | None, int]:
    """make_ttgir on a fresh parse of the TTIR, then the shared-memory allocation (compile_fast's tail)."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import Language
    from triton.compiler import make_backend

    from tilefit.estimate import triton_compile as tc

    backend = make_backend(gpu)
    options = backend.parse_options(dict(sp.options))
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, Language.TRITON)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    with tempfile.NamedTemporaryFile("w", suffix=".ttir", delete=False) as f:
        f.write(ttir)
    try:
        module = ir.parse_mlir_module(f.name, context)
    finally:
        os.unlink(f.name)
    module.context = context
    metadata: dict[str, Any] = {"hash": "", "target": gpu, **options.__dict__}
    module = stages["ttgir"](module, metadata)
    pm = ir.pass_manager(module.context)
    tc.family(gpu.backend).allocation(pm, gpu, options)
    pm.run(module, "tilefit_allocate_shared_memory")
    warps = module.get_int_attr("ttg.total-num-warps") or options.num_warps
    return int(module.get_int_attr("ttg.shared") or 0), module.get_int_attr("ttg.tensor_memory_size"), int(warps)


def stand_ins(args: Mapping[str, Any]) -> dict[str, Any]:
    """Values Triton's JIT binder specialises exactly as it would the real arguments."""
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, Arg):
            out[name] = value.stand_in()
        elif isinstance(value, TlType):
            out[name] = getattr(tl, value.name)
        elif isinstance(value, Desc):
            base = Arg(value.dtype, pointer=True, divisible_by_16=True).stand_in()
            strides = [1] * len(value.shape)
            for i in range(len(value.shape) - 2, -1, -1):
                strides[i] = strides[i + 1] * value.shape[i + 1]
            out[name] = TensorDescriptor(base, list(value.shape), strides, list(value.block))
        else:
            out[name] = value
    return out


def _usage(job: Job, target: Target, shared: int, tmem: int | None, warps: int, seconds: float) -> Usage:
    assert target.triton is not None
    threads = warps * target.triton.warp_size
    checks = [("shared-memory", shared, target.limit_for("shared-memory")),
              ("threads", threads, target.limit_for("threads")),
              ("tensor-memory", tmem or 0, target.limit_for("tensor-memory") or 512)]
    over = tuple(Overrun(r, n, lim, target.name) for r, n, lim in checks  # type: ignore[arg-type]
                 if lim is not None and n > lim)
    return Usage(target=target.name, resource="shared-memory", bytes=shared, limit=checks[0][2], mode="fast",
                 config=_config(job.launch), fits=not over, seconds=seconds, threads=threads, tensor_memory=tmem,
                 over=over, compiler=f"triton {triton_version()}")


def _failed(job: Job, message: str, kind: str) -> Usage:
    from tilefit.estimate.base import Failure

    target = get_target(job.target)
    return Usage(target=job.target, resource="shared-memory", bytes=None, limit=target.limit_for("shared-memory"),
                 mode="fast", config=_config(job.launch), fits=None, error=message,
                 failure=Failure(kind, message), compiler=f"triton {triton_version()}")  # type: ignore[arg-type]
