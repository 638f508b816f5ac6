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
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tilefit.check.moe import Desc, Launch, TlType
from tilefit.errors import TilefitError
from tilefit.estimate.base import Overrun, Usage
from tilefit.estimate.triton_args import Arg
from tilefit.settings import Settings
from tilefit.targets import Target, get_target

if TYPE_CHECKING:
    from tilefit.estimate.triton_compile import Plan

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
    """Worker entry point: lower to TTIR once, then make_ttgir + allocation per distinct compile."""
    from tilefit.userfile import load_module_file

    try:
        from tilefit.estimate.triton_kernel import unwrap_kernel

        kernel = unwrap_kernel(getattr(load_module_file(task.module_path), task.kernel))
    except (TilefitError, AttributeError) as exc:
        return [_failed(j, f"cannot load {task.kernel}: {exc}", "input") for j in task.jobs]
    keys, results = task_keys(kernel, task)
    _fill(keys, results)
    return [_as_usage(job, _filled(r)) for job, r in zip(task.jobs, results, strict=True)]


def task_keys(kernel: Any, task: _Task) -> tuple[list[tuple[_Key, _Compile] | None], list[Sized | None]]:
    """Each job's (memo key, compile), or None with its failure; results the memo already holds.

    The task lowers once per set of fp8 types its targets support (what the frontend can differ on), and
    not even that when an earlier TTIR serves (_ttir_serves): a frontend refusal is lowered once too.
    """
    lowered: dict[frozenset[str], tuple[str | None, Sized | None]] = {}
    built_for: dict[frozenset[str], str] = {}
    results: list[Sized | None] = []
    keys: list[tuple[_Key, _Compile] | None] = []
    for job in task.jobs:
        types = _fp8_types(job.target)
        if types not in lowered:
            served = [t for t, (ttir, _) in lowered.items() if ttir and _ttir_serves(ttir, built_for[t], job.target)]
            lowered[types] = lowered[served[0]] if served else _lower(kernel, job)
            built_for[types] = built_for[served[0]] if served else job.target
        ttir, failed = lowered[types]
        if ttir is None:
            assert failed is not None
            results.append(failed)
            keys.append(None)
            continue
        try:
            pair = _compile_key(job, kernel, ttir)
        except Exception as exc:
            results.append(_error(exc, ""))
            keys.append(None)
            continue
        keys.append(pair)
        results.append(_SIZED.get(pair[0]))
    return keys, results


def _filled(result: Sized | None) -> Sized:
    assert result is not None, "every job of a task has a result after _fill"
    return result


def _lower(kernel: Any, job: Job) -> tuple[str | None, Sized | None]:
    """(TTIR text, None), or (None, the failure) when the frontend or make_ttir refuses the launch."""
    from tilefit.estimate import triton_compile as tc

    with tc.captured_stderr() as log:
        try:
            gpu = _gpu(job.target)
            module, _, _ = tc.lower(kernel, gpu, _specialised(kernel, gpu, job.launch), last="ttir")
            return str(module), None
        except Exception as exc:
            return None, _error(exc, log())


def _ttir_serves(ttir: str, built_for: str, target: str) -> bool:
    """Whether a TTIR lowered for `built_for` stands for `target`'s frontend too.

    The frontend refuses fp8 types the target lacks (Triton's dtype.to_ir checks the backend option
    supported_fp8_dtypes: e4m3 "fp8e4nv" needs sm_89+), so a TTIR with fp8 in it, lowered for a target that
    supports more fp8 types, must be lowered again for this one to get the refusal.
    """
    return "f8E" not in ttir or _fp8_types(built_for) <= _fp8_types(target)


@functools.lru_cache(maxsize=64)
def _fp8_types(target: str) -> frozenset[str]:
    options = _parsed(_gpu(target), {})[1]
    return frozenset(getattr(options, "supported_fp8_dtypes", ()))


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


_Key = tuple[Any, ...]
# Worker-global: what each distinct compile gave, by _compile_key. Equal keys run the same passes with the
# same arguments on the same TTIR text, so they give the same bytes whichever task or table they come from.
_SIZED: dict[_Key, Sized] = {}
_SIZED_MAX = 50_000


@dataclasses.dataclass(frozen=True)
class _Compile:
    """One distinct compile of a task: the TTIR, the target that stands for its group, the specialisation."""

    ttir: str
    gpu: Any
    sp: Any
    plan: Plan | None  # None: make_ttgir could not be recorded, so only the stage itself runs it
    prefix: Plan = ()  # the part of `plan` that does not depend on num_stages


def _compile_key(job: Job, kernel: Any, ttir: str) -> tuple[_Key, _Compile]:
    """(memo key, compile) of a job: TTIR text, same-bytes group, recorded make_ttgir plan, allocation."""
    from tilefit.estimate import triton_compile as tc

    gpu = _gpu(same_bytes_group(job.target, ttir))
    sp = _specialised(kernel, gpu, job.launch)
    backend, options = _parsed(gpu, sp.options)
    digest = hashlib.sha256(ttir.encode()).hexdigest()
    alloc = tc.allocation_key(gpu, options)
    try:
        plan = tc.ttgir_plan(backend, options)
    except tc.NotRecordable:
        return (digest, repr(gpu), repr(sorted(sp.options.items())), alloc), _Compile(ttir, gpu, sp, None)
    other = _parsed(gpu, {**sp.options, "num_stages": int(options.num_stages) + 1})[1]
    prefix = tc.split_plan(plan, tc.ttgir_plan(backend, other))[0] if PREFIX else ()
    return (digest, repr(gpu), plan, alloc, options.num_warps), _Compile(ttir, gpu, sp, plan, prefix)


def _fill(keys: Sequence[tuple[_Key, _Compile] | None], results: list[Sized | None]) -> None:
    """Compile what the memo does not hold, once per key; keys sharing a plan prefix share its passes."""
    todo: dict[_Key, _Compile] = {}
    for pair, result in zip(keys, results, strict=True):
        if pair is not None and result is None:
            todo.setdefault(*pair)
    shared: dict[tuple[Any, ...], list[_Key]] = {}
    for key, c in todo.items():
        shared.setdefault((key[0], key[1], c.prefix) if c.prefix else (key,), []).append(key)
    for group in shared.values():
        sized = _split([todo[k] for k in group]) if len(group) > 1 else None
        for key, s in zip(group, sized or [_direct(todo[k]) for k in group], strict=True):
            if len(_SIZED) >= _SIZED_MAX:
                _SIZED.clear()
            _SIZED[key] = s
    for i, pair in enumerate(keys):
        if pair is not None and results[i] is None:
            results[i] = _SIZED[pair[0]]


# False runs make_ttgir whole for every compile (what the tests compare the shared prefixes against).
PREFIX = True


def _direct(c: _Compile) -> Sized:
    """make_ttgir as the backend's stage runs it, then the allocation; a failure is a result."""
    from tilefit.estimate import triton_compile as tc

    start = time.perf_counter()
    with tc.captured_stderr() as log:
        try:
            sizes = _from_ttir(c.ttir, c.gpu, c.sp)
        except Exception as exc:
            return _error(exc, log())
    return Sized(sizes, None, time.perf_counter() - start)


def _split(compiles: Sequence[_Compile]) -> list[Sized] | None:
    """The shared prefix once, then each compile's rest on a copy of its result; None on any failure (the
    caller then compiles each directly, so that an error reads exactly as a direct compile's)."""
    from tilefit.estimate import triton_compile as tc

    start = time.perf_counter()
    first = compiles[0]
    with tc.captured_stderr():
        try:
            module = _parse(first.ttir, first.gpu)
            tc.run_plan(module, first.prefix)
            text = str(module)
            out = []
            for c in compiles:
                assert c.plan is not None and c.prefix == first.prefix and c.gpu == first.gpu
                module = _parse(text, c.gpu)
                tc.run_plan(module, tc.split_plan(c.plan, c.prefix)[1])
                out.append(_allocate(module, c.gpu, _parsed(c.gpu, c.sp.options)[1]))
        except Exception:
            return None
    seconds = (time.perf_counter() - start) / len(compiles)
    return [Sized(sizes, None, seconds) for sizes in out]


def _error(exc: Exception, log: str) -> Sized:
    from tilefit.estimate.triton import compiler_error

    if isinstance(exc, TilefitError):
        return Sized(None, (str(exc), "input"))
    return Sized(None, (str(compiler_error(exc, log)), "compile"))


_BACKENDS: dict[str, Any] = {}


def _gpu(target: str) -> Any:
    from tilefit.estimate import triton_compile as tc

    t = get_target(target)
    assert t.triton is not None
    return tc.gpu_target(t.triton.backend, t.triton.arch, t.triton.warp_size)


def _backend(gpu: Any) -> Any:
    """Triton's backend object of a GPUTarget, one per target and process."""
    from triton.compiler import make_backend

    backend = _BACKENDS.get(repr(gpu))
    if backend is None:
        backend = _BACKENDS[repr(gpu)] = make_backend(gpu)
    return backend


def _parsed(gpu: Any, options: Mapping[str, Any]) -> tuple[Any, Any]:
    """(backend, parsed options) for a GPUTarget."""
    backend = _backend(gpu)
    return backend, backend.parse_options(dict(options))


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
    """make_ttgir (the backend's own stage) on a fresh parse of the TTIR, then the shared-memory allocation."""
    from triton.backends.compiler import Language

    backend, options = _parsed(gpu, sp.options)
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, Language.TRITON)
    metadata: dict[str, Any] = {"hash": "", "target": gpu, **options.__dict__}
    module = stages["ttgir"](_parse(ttir, gpu), metadata)
    return _allocate(module, gpu, options)


def _parse(text: str, gpu: Any) -> Any:
    """A module parsed from MLIR text in a fresh context with Triton's and the backend's dialects."""
    from triton._C.libtriton import ir

    context = ir.context()
    ir.load_dialects(context)
    _backend(gpu).load_dialects(context)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        module = ir.parse_mlir_module(f.name, context)
    finally:
        os.unlink(f.name)
    module.context = context
    return module


def _allocate(module: Any, gpu: Any, options: Any) -> tuple[int, int | None, int]:
    """Triton's shared-memory allocation passes (compile_fast's tail): (shared, tensor memory, warps)."""
    from triton._C.libtriton import ir

    from tilefit.estimate import triton_compile as tc

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
