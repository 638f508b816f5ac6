"""The worker side of `tilefit check`: one Task's compiles, from the frontend to Triton's allocation pass.

- The frontend and make_ttir run once per task and set of fp8 types (check/size.py explains the TTIR
  classes); a TTIR lowered for a target with more fp8 types serves another only without fp8 in it.
- make_ttgir runs as the pass plan the backend's stage records (estimate/triton_compile.ttgir_plan): the
  passes before the first one that takes num_stages run once per TTIR, num_warps and target, each
  num_stages runs the rest on a copy; compiles with equal TTIR text, plan and allocation arguments run
  once per worker (the memo _SIZED).
- Targets that data/check/same_bytes.yaml groups compile once per group.
- Per worker, what does not change the bytes is made once: each JIT function's parsed source (Triton parses
  it on every lowering; its code generator only reads the tree) and the MLIR context per target family
  (a context only interns types and attributes; a fresh one every _CONTEXT_USES parses bounds its growth).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tilefit.check.jobs import Job, Task, failed, triton_version, usage_of
from tilefit.check.moe import Desc, Launch, TlType
from tilefit.errors import TilefitError
from tilefit.estimate.base import Usage
from tilefit.estimate.triton_args import Arg
from tilefit.targets import get_target

if TYPE_CHECKING:
    from tilefit.estimate.triton_compile import Plan


def _run_task(task: Task) -> list[Usage]:
    """Worker entry point: lower to TTIR once, then make_ttgir + allocation per distinct compile."""
    from tilefit.userfile import load_module_file

    try:
        from tilefit.estimate.triton_kernel import unwrap_kernel

        kernel = unwrap_kernel(getattr(load_module_file(task.module_path), task.kernel))
    except (TilefitError, AttributeError) as exc:
        return [failed(j, f"cannot load {task.kernel}: {exc}", "input") for j in task.jobs]
    keys, results = task_keys(kernel, task)
    _fill(keys, results)
    return [_as_usage(job, _filled(r)) for job, r in zip(task.jobs, results, strict=True)]


def task_keys(kernel: Any, task: Task) -> tuple[list[tuple[_Key, _Compile] | None], list[Sized | None]]:
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

    with tc.captured_stderr() as log, tc.parse_once():
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
        return failed(job, *sized.failure)
    return usage_of(job, get_target(job.target), *sized.sizes, sized.seconds)


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


# False keeps MLIR's verifier after every pass (what the tests compare switching it off against).
VERIFIER_OFF = True


def _fill(keys: Sequence[tuple[_Key, _Compile] | None], results: list[Sized | None]) -> None:
    """Compile what the memo does not hold, once per key; keys sharing a plan prefix share its passes."""
    from tilefit.estimate import mlir_verifier

    with mlir_verifier.verifier_off(VERIFIER_OFF and mlir_verifier.usable()):
        _compile_missing(keys, results)


def _compile_missing(keys: Sequence[tuple[_Key, _Compile] | None], results: list[Sized | None]) -> None:
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
            prefixed = _parse(first.ttir, first.gpu)
            tc.run_plan(prefixed, first.prefix)
            text = str(prefixed)
            out = []
            for i, c in enumerate(compiles):
                assert c.plan is not None and c.prefix == first.prefix and c.gpu == first.gpu
                # the last one runs on the module itself: no copy is left to protect
                module = prefixed if i == len(compiles) - 1 else _parse(text, c.gpu)
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

    from tilefit.estimate import mlir_verifier
    from tilefit.estimate import triton_compile as tc

    pm = ir.pass_manager(module.context)
    tc.family(gpu.backend).allocation(pm, gpu, options)
    pm.run(module, "tilefit_allocate_shared_memory")
    mlir_verifier.verified(module)
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


