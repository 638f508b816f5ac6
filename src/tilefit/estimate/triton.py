"""Exact on-chip memory of Triton kernel configs for any NVIDIA or AMD target, without a GPU.

    est = TritonEstimator(matmul_kernel, signature={"a_ptr": "*fp16:16", ...})
    est.estimate({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "num_stages": 3}, "sm_90").bytes  # 98304

Modes: `fast` (default) lowers to TTGIR and runs only Triton's shared-memory allocation pass, giving
the exact `metadata.shared` of a launch; `full` compiles to cubin/hsaco and adds registers and spills;
`analytic` is an instant formula over tl.dot tiles (triton_analytic.py) for pruning large spaces.
`fits` mirrors what CompiledKernel._init_handles checks at load time: shared memory, tensor memory
(columns) and threads (num_warps x warp size).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal

from tilefit import isolate, store
from tilefit.errors import CompileError, InputError, MissingExtraError, TilefitError, UnsupportedTarget
from tilefit.estimate.base import Backend, Failure, Mode, Overrun, Usage
from tilefit.estimate.triton_args import Arg, arg_from_value, parse_signature
from tilefit.estimate.triton_kernel import KernelRef, kernel_ref, unwrap_kernel
from tilefit.progress import progress_bar
from tilefit.resources import Resource
from tilefit.settings import Settings
from tilefit.targets import Target, load_targets
from tilefit.userfile import load_module_file

__all__ = [
    "BACKEND", "Arg", "TritonEstimator", "estimate", "estimate_many", "load_module_file", "resolve_target",
    "unwrap_kernel",
]

ArgValue = Arg | int | float | bool | None
# Bumped when Usage's stored form changes, so entries of an older tilefit are not read as this one's
# (2: typed `over` and `failure` instead of extra["reason"] / extra["crashed"]).
USAGE_SCHEMA = 2
# "auto": a pool of persistent worker processes when a sweep is long enough to pay for them, else in-process;
# "per-job": every config compiled in a fresh child (a sandbox); "none": always in this process.
Isolation = Literal["auto", "per-job", "none"]


def _triton() -> Any:
    try:
        import triton
    except ImportError as exc:
        raise MissingExtraError("triton", "triton") from exc
    return triton


def resolve_target(name: str | Target) -> Target:
    """A GPU target Triton can compile for; 'auto' is the current GPU."""
    if isinstance(name, Target):
        target = name
    elif name == "auto":
        target = _current_gpu()
    else:
        target = load_targets().get(name)
    if target.triton is None:
        gpus = [t.name for t in load_targets().targets if _compiles_for(t)]
        raise InputError(f"{target.name} is not a Triton target; Triton targets: {', '.join(gpus)}")
    if not _compiles_for(target):
        from tilefit.estimate.triton_compile import FAMILIES

        raise UnsupportedTarget(
            target.name, f"Triton's {target.triton.backend!r} backend ({target.vendor}) has no tilefit "
            "support: its shared-memory allocation passes are not known", [f"{k} targets" for k in FAMILIES],
        )
    return target


def _compiles_for(target: Target) -> bool:
    from tilefit.estimate.triton_compile import FAMILIES

    return target.triton is not None and target.triton.backend in FAMILIES


def _current_gpu() -> Target:
    _triton()
    from triton.runtime.driver import driver

    try:
        gpu = driver.active.get_current_target()
    except RuntimeError as exc:
        raise InputError(f"target 'auto' needs a GPU and none was found ({exc}); name one, e.g. sm_90") from exc
    name = f"sm_{gpu.arch}" if gpu.backend == "cuda" else str(gpu.arch).split(":")[0]
    return load_targets().get(name)


def _as_config(config: Any) -> dict[str, Any]:
    from tilefit.space import as_config

    return {str(k): v for k, v in as_config(config).items() if v is not None}


@dataclasses.dataclass(frozen=True)
class _Task:
    ref: KernelRef | None
    args: Mapping[str, ArgValue]
    config: Mapping[str, Any]
    target: Target
    mode: str


class TritonEstimator:
    """Estimator (estimate/base.py) for one Triton kernel and one argument signature."""

    def __init__(
        self,
        kernel: Any,
        *,
        args: Sequence[Any] | Mapping[str, Any] | None = None,
        signature: Mapping[str, Arg | str] | None = None,
        cache: bool = True,
        settings: Settings | None = None,
        isolation: Isolation = "auto",
    ) -> None:
        self.kernel = unwrap_kernel(kernel)
        self.settings = settings or Settings.from_env()
        self.args: dict[str, ArgValue] = {**_bind_args(self.kernel, args), **parse_signature(signature or {})}
        use = cache and self.settings.use_cache
        self.cache = store.Store(self.settings.cache_dir / "triton", store.USAGE) if use else None
        self._ref = kernel_ref(self.kernel)
        if isolation == "per-job" and self._ref is None:
            raise InputError(f"{self.kernel.__name__} is not defined at module level; a child process must import it")
        self.isolation = isolation
        self._analytic: Any = None

    def estimate(self, config: Mapping[str, Any], target: str | Target = "auto", mode: Mode = "fast") -> Usage:
        """One config on one target; a config that does not compile is a Usage with `error` set."""
        return self.estimate_many([config], [target], mode=mode, workers=1, progress=False)[0]

    def estimate_many(
        self,
        configs: Sequence[Mapping[str, Any]],
        targets: Sequence[str | Target] | str = "auto",
        mode: Mode = "fast",
        *,
        workers: int | None = None,
        progress: bool | None = None,
    ) -> list[Usage]:
        """Every config on every target (config-major); failures are results, never an abort."""
        resolved = [resolve_target(t) for t in ([targets] if isinstance(targets, str) else targets)]
        tasks = [_Task(self._ref, self.args, _as_config(c), t, _check_mode(mode))
                 for c in configs for t in resolved]
        if mode == "analytic":
            return [self._analytic_usage(t) for t in tasks]
        return self._run(tasks, workers, progress)

    def _analytic_usage(self, task: _Task) -> Usage:
        from tilefit.estimate.triton_analytic import AnalyticModel

        start = time.perf_counter()
        try:
            if self._analytic is None:
                self._analytic = AnalyticModel.learn(self.kernel, self.args, task.config)
            shared = self._analytic.shared_bytes(task.config, task.target)
        except TilefitError as exc:
            return _failed(task, Failure("input", str(exc), stage="analytic"), time.perf_counter() - start)
        except Exception as exc:  # the frontend rejected the probe config (e.g. a negative block): a result
            err = compiler_error(exc)
            return _failed(task, Failure("compile", str(err), err.stage), time.perf_counter() - start)
        warps = int(task.config.get("num_warps", 4))
        usage = _usage(task, shared, None, warps, time.perf_counter() - start)
        return dataclasses.replace(usage, compiler=f"analytic (triton {_version()})")

    def _run(self, tasks: list[_Task], workers: int | None, progress: bool | None) -> list[Usage]:
        keys = [self._key(t) for t in tasks]
        results: list[Usage | None] = [self.cache.get(k) if self.cache and k else None for k in keys]
        todo = [i for i, r in enumerate(results) if r is None]
        show = self.settings.progress and sys.stderr.isatty() if progress is None else progress
        bar = progress_bar(len(todo), show)
        n_workers = workers if workers is not None else self.settings.workers or _cpu_count()
        # A worker costs a few seconds to start (it imports triton): pool only when the serial run
        # would take longer than that (about 0.1 s a config in fast mode, 1.5 s in full mode).
        serial_s = len(todo) * (1.5 if tasks and tasks[0].mode == "full" else 0.1)
        pool = len(todo) > 1 and n_workers > 1 and self._ref is not None and (serial_s >= 5 or bool(workers))
        if todo and (self.isolation == "per-job" or (self.isolation == "auto" and pool)):
            out = isolate.run_many(
                _run_task, [tasks[i] for i in todo], limits=isolate.Limits.of(self.settings),
                workers=n_workers, fresh=self.isolation == "per-job", preload=("triton",),
                on_done=lambda _i, _o: bar(),
            )
            fresh = [_from_outcome(tasks[i], o) for i, o in zip(todo, out, strict=True)]
        else:
            fresh = []
            for i in todo:
                fresh.append(_measure(self.kernel, tasks[i]))
                bar()
        for i, usage in zip(todo, fresh, strict=True):
            results[i] = usage
            key = keys[i]
            transient = usage.failure is not None and usage.failure.kind in ("crash", "timeout", "oom")
            if self.cache is not None and key is not None and not transient:
                self.cache.put(key, usage)
        bar(close=True)
        return [r for r in results if r is not None]

    def _key(self, task: _Task) -> str | None:
        """Cache key; None when the config cannot even be specialised (the task then reports why)."""
        if self.cache is None:
            return None
        from tilefit.estimate import triton_compile as tc

        try:
            sp = tc.specialise(self.kernel, _gpu_target(task.target), _stand_ins(task.args), task.config)
        except (TilefitError, Exception):
            return None
        return store.key({
            "kernel": self.kernel.cache_key, "signature": sp.signature, "constexprs": _pairs(sp.constexprs),
            "attrs": _pairs(sp.attrs), "options": sp.options, "target": task.target.name, "mode": task.mode,
            "triton": _version(), "config": task.config, "usage": USAGE_SCHEMA,
        })


def _version() -> str:
    return str(_triton().__version__)


def _pairs(mapping: Mapping[Any, Any]) -> list[list[str]]:
    """Tuple-keyed JIT maps (constexprs, attrs) as sorted [repr(key), repr(value)] pairs for hashing."""
    return sorted([repr(k), repr(v)] for k, v in mapping.items())


def _check_mode(mode: str) -> str:
    if mode == "exact":
        return "fast"
    if mode not in ("fast", "full", "analytic"):
        raise InputError(f"unknown mode {mode!r}; Triton modes: fast, full, analytic")
    return mode


def _bind_args(kernel: Any, args: Sequence[Any] | Mapping[str, Any] | None) -> dict[str, ArgValue]:
    if args is None:
        return {}
    if isinstance(args, Mapping):
        return {str(k): arg_from_value(v) for k, v in args.items()}
    runtime = [p.name for p in kernel.params if not p.is_constexpr]
    names = runtime if len(args) <= len(runtime) else list(kernel.arg_names)
    if len(args) > len(names):
        raise InputError(f"{kernel.__name__} takes {len(names)} arguments, got {len(args)}")
    return {n: arg_from_value(v) for n, v in zip(names, args, strict=False)}


def _stand_ins(args: Mapping[str, ArgValue]) -> dict[str, Any]:
    return {k: v.stand_in() if isinstance(v, Arg) else v for k, v in args.items()}


def _gpu_target(target: Target) -> Any:
    from tilefit.estimate import triton_compile as tc

    assert target.triton is not None
    return tc.gpu_target(target.triton.backend, target.triton.arch, target.triton.warp_size)


def _run_task(task: _Task) -> Usage:
    """Entry point in an isolated child (module level, so the child can import it)."""
    assert task.ref is not None
    try:
        kernel = task.ref.load()
    except Exception as exc:  # the runner names a memory limit too small to load the module
        raise InputError(f"cannot load kernel {task.ref.qualname}: {type(exc).__name__}: {exc}") from exc
    # In a child, fd 2 already is a log file the parent reads: diagnostics survive an abort there.
    return _measure(kernel, task, capture=isolate.child_stderr)


def _from_outcome(task: _Task, o: isolate.Outcome) -> Usage:
    """A child's Usage, or a failed Usage saying why the child gave none (crash/timeout/oom: not cached)."""
    if o.status == "ok" and isinstance(o.value, Usage):
        return o.value
    # "error": the job itself raised; in _run_task that is the kernel's module failing to load
    kind = "input" if o.status == "error" else o.failure_kind or "crash"
    failure = Failure(kind, o.message or o.status, "isolate", o.returncode, o.stderr_tail)
    return _failed(task, failure, o.seconds)


def _measure(kernel: Any, task: _Task, capture: Callable[[], AbstractContextManager[Callable[[], str]]] | None = None
             ) -> Usage:
    """Compile one task in this process; every compiler failure becomes a Usage with `error`.

    `capture` is the context manager that collects compiler diagnostics (fd 2); the default redirects
    fd 2 into a temporary file.
    """
    from tilefit.estimate import triton_compile as tc

    start = time.perf_counter()
    with (capture or tc.captured_stderr)() as log:
        try:
            target = _gpu_target(task.target)
            sp = tc.specialise(kernel, target, _stand_ins(task.args), task.config)
            run = tc.compile_full if task.mode == "full" else tc.compile_fast
            m = run(kernel, target, sp)
        except (InputError, UnsupportedTarget) as exc:
            return _failed(task, Failure("input", str(exc), "specialise"), time.perf_counter() - start)
        except Exception as exc:
            err = compiler_error(exc, log())
            failure = Failure("compile", str(err), err.stage, stderr=err.log[-2000:])
            return _failed(task, failure, time.perf_counter() - start)
    usage = _usage(task, m.shared, m.tensor_memory, m.num_warps, time.perf_counter() - start)
    return dataclasses.replace(usage, registers=m.registers, spills=m.spills, extra={**usage.extra, **m.extra},
                               compiler=f"triton {_version()}")


def compiler_error(exc: BaseException, log: str = "") -> CompileError:
    """The one place where Triton, MLIR, LLVM and ptxas errors become tilefit errors."""
    kind = type(exc).__name__
    message = str(exc).strip() or kind
    diagnostics = [ln.strip() for ln in log.splitlines() if "error" in ln.lower()]
    if diagnostics and "PassManager" in message:
        message = f"{message}: {'; '.join(diagnostics[:3])}"
    stage = {"CompilationError": "frontend", "CompileTimeAssertionFailure": "frontend",
             "PTXASError": "ptxas"}.get(kind, "compile")
    err = CompileError(f"{kind}: {message}", stage=stage, log=log[-4000:])
    err.__cause__ = exc
    return err


def _usage(task: _Task, shared: int, tmem: int | None, warps: int, seconds: float) -> Usage:
    """What CompiledKernel._init_handles checks at load: shared memory, threads, tensor-memory columns."""
    target = task.target
    assert target.triton is not None
    threads = warps * target.triton.warp_size
    tmem_limit = target.limit_for("tensor-memory") or target.limit("triton_tensor_memory_columns")
    checks: list[tuple[Resource, int, int | None]] = [
        ("shared-memory", shared, target.limit_for("shared-memory")),
        ("threads", threads, target.limit_for("threads")),
        ("tensor-memory", tmem or 0, tmem_limit),
    ]
    over = tuple(Overrun(r, n, lim, target.name) for r, n, lim in checks if lim is not None and n > lim)
    return Usage(
        target=target.name, resource="shared-memory", bytes=shared, limit=checks[0][2], mode=task.mode,  # type: ignore[arg-type]
        config=task.config, fits=not over, seconds=seconds, threads=threads, tensor_memory=tmem, over=over,
        extra={"num_warps": warps},
    )


def _failed(task: _Task, failure: Failure, seconds: float) -> Usage:
    return Usage(
        target=task.target.name, resource="shared-memory", bytes=None,
        limit=task.target.limit_for("shared-memory"), mode=task.mode,  # type: ignore[arg-type]
        config=task.config, fits=None, error=failure.message, seconds=seconds, failure=failure,
    )


def _cpu_count() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def estimate(
    kernel: Any,
    config: Mapping[str, Any],
    target: str | Target = "auto",
    *,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    signature: Mapping[str, Arg | str] | None = None,
    mode: Mode = "fast",
) -> Usage:
    """On-chip memory of one config of a @triton.jit kernel on one target."""
    return TritonEstimator(kernel, args=args, signature=signature).estimate(config, target, mode)


def estimate_many(
    kernel: Any,
    configs: Sequence[Mapping[str, Any]],
    targets: Sequence[str | Target] | str = "auto",
    *,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    signature: Mapping[str, Arg | str] | None = None,
    mode: Mode = "fast",
    workers: int | None = None,
    progress: bool | None = None,
) -> list[Usage]:
    """Every config on every target, in a process pool, cached on disk."""
    est = TritonEstimator(kernel, args=args, signature=signature)
    return est.estimate_many(configs, targets, mode=mode, workers=workers, progress=progress)




class _Backend:
    """The registry's view of this file (estimate/__init__.py): @triton.jit kernels for NVIDIA and AMD."""

    name = "triton"

    def accepts(self, target: Target) -> bool:
        return _compiles_for(target)

    def load(self, ref: str, spec: Mapping[str, Any]) -> Any:
        from tilefit.userfile import load_ref

        return unwrap_kernel(load_ref(ref))

    def estimator(self, kernel: Any, spec: Mapping[str, Any]) -> TritonEstimator:
        return TritonEstimator(kernel, signature={str(k): str(v) for k, v in (spec.get("args") or {}).items()})

    def space(self, kernel: Any, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
        from tilefit.space import expand

        return expand(spec["space"], limit=None) if spec.get("space") else [{}]

    def mode(self, requested: str) -> Mode:
        return _check_mode(requested)  # type: ignore[return-value]


BACKEND: Backend = _Backend()
