"""Ask Triton's own compiler for the on-chip memory of one config on one target, with no GPU.

`specialise` runs the JIT's own binder (triton.runtime.jit) on stand-in arguments, so signature,
constexprs and `tt.divisibility` attributes are exactly what a launch would produce. `compile_fast` lowers
to TTGIR and runs only the passes of the backend's `make_llir` up to and including the shared-memory
allocation; `compile_full` runs `triton.compile` to cubin/hsaco and reads registers and spills.

Triton is imported inside functions: this module is only loaded by estimate/triton.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tilefit.errors import InputError, UnsupportedTarget

LAUNCH_OPTIONS = (
    "num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim", "kpack",
)


@dataclasses.dataclass(frozen=True)
class Specialised:
    """What the JIT would pass to triton.compile for one launch."""

    signature: dict[str, str]
    constexprs: dict[tuple[int, ...], Any]
    attrs: dict[tuple[int, ...], Any]
    options: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Measured:
    """What the compiler reports for one config."""

    shared: int
    tensor_memory: int | None
    num_warps: int
    registers: int | None = None
    spills: int | None = None
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def gpu_target(backend: str, arch: int | str, warp_size: int) -> Any:
    """Triton's GPUTarget."""
    from triton.backends.compiler import GPUTarget

    return GPUTarget(backend, arch, warp_size)


def specialise(kernel: Any, target: Any, args: Mapping[str, Any], config: Mapping[str, Any]) -> Specialised:
    """Run the JIT's binder and _pack_args (both triton 3.6 and 3.9) on stand-in arguments."""
    backend, binder = _binder(kernel, target)
    kwargs = {**args, **config}
    kwargs.setdefault("debug", bool(getattr(kernel, "debug", False)))
    with warnings.catch_warnings():  # 3.9 warns once that TRITON_DEFAULT_FP_FUSION is unset
        warnings.simplefilter("ignore")
        return _bind(kernel, backend, binder, kwargs)


_BINDERS: dict[tuple[int, str], tuple[Any, Any, Any]] = {}


def _binder(kernel: Any, target: Any) -> tuple[Any, Any]:
    """(backend, the JIT's binder function) of a kernel on a target: generated once per process (the binder
    is Python source compiled from the kernel's parameters and the backend, nothing else)."""
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature

    key = (id(kernel), repr(target))
    found = _BINDERS.get(key)
    if found is None or found[0] is not kernel:
        backend = make_backend(target)
        found = _BINDERS[key] = (kernel, backend, create_function_from_signature(kernel.signature, kernel.params,
                                                                                 backend))
    return found[1], found[2]


def _bind(kernel: Any, backend: Any, binder: Any, kwargs: dict[str, Any]) -> Specialised:
    try:
        bound, spec, opts = binder(**kwargs)
    except TypeError as exc:
        raise InputError(f"{kernel.__name__}: {exc}; give every argument in args/signature or config") from exc
    except ModuleNotFoundError as exc:  # triton 3.6's AMD backend imports torch to size tensors
        raise InputError(f"triton {_version()} needs {exc.name} to specialise arguments for AMD targets; "
                         "install it or triton>=3.7") from exc
    try:
        options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound, spec, opts)
    except KeyError as exc:
        name = re.sub(r"^Keyword argument (\S+) .*$", r"\1", str(exc.args[0]))
        raise InputError(f"config key {name!r} is neither an argument of {kernel.__name__} "
                         f"nor a launch option ({', '.join(LAUNCH_OPTIONS)})") from exc
    return Specialised(signature, constexprs, attrs, dict(options.__dict__))


def _version() -> str:
    import triton

    return str(triton.__version__)


def lower(kernel: Any, target: Any, sp: Specialised, last: str = "ttgir") -> tuple[Any, Any, Any]:
    """Frontend, make_ttir and (last="ttgir") make_ttgir as triton.compile runs them: (module, backend, options)."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import Language
    from triton.compiler import ASTSource, make_backend

    backend = make_backend(target)
    options = backend.parse_options(dict(sp.options))
    src = ASTSource(kernel, sp.signature, sp.constexprs, sp.attrs)
    stages: dict[str, Callable[[Any, dict[str, Any]], Any]] = {}
    backend.add_stages(stages, options, Language.TRITON)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen = backend.get_codegen_implementation(options)
    module = src.make_ir(target, options, codegen, backend.get_module_map(), context)
    metadata: dict[str, Any] = {"hash": "", "target": target, **options.__dict__}
    for stage in ("ttir", "ttgir")[: 1 if last == "ttir" else 2]:
        module = stages[stage](module, metadata)
    return module, backend, options


_TREES: dict[str, Any] = {}
_TREES_MAX = 512


@contextlib.contextmanager
def parse_once() -> Iterator[None]:
    """While in effect, a JIT function's `parse()` gives one tree per source text.

    Triton parses each JIT function's source with ast.parse on every lowering and on every call of a helper
    (277 parses for 52 lowerings of SGLang's kernel), and nothing keeps the tree. Its readers only read it
    (triton 3.6 and 3.9: the CodeGenerator builds new nodes where it rewrites, visit_AugAssign deep-copies
    its target, and DependenciesFinder is a NodeVisitor), so one tree per source serves every lowering.
    """
    from triton.runtime import jit

    owner = next(c for c in jit.JITFunction.__mro__ if "parse" in c.__dict__)
    real = owner.__dict__["parse"]

    def parse(self: Any) -> Any:
        src = getattr(self, "_src", None)
        if not isinstance(src, str):
            return real(self)
        tree = _TREES.get(src)
        if tree is None:
            if len(_TREES) >= _TREES_MAX:
                _TREES.clear()
            tree = _TREES[src] = real(self)
        return tree

    setattr(owner, "parse", parse)  # noqa: B010 (a class attribute of Triton's, put back below)
    try:
        yield
    finally:
        setattr(owner, "parse", real)  # noqa: B010


def _add(fn: Callable[..., Any], *variants: tuple[Any, ...]) -> None:
    """Add a pass whose binding changed across Triton versions: try each argument list in turn."""
    for i, args in enumerate(variants):
        try:
            fn(*args)
            return
        except TypeError:
            if i == len(variants) - 1:
                raise


@dataclasses.dataclass(frozen=True)
class Family:
    """What differs between Triton's GPU families: the allocation passes and the binary's resource reader."""

    name: str
    allocation: Callable[[Any, Any, Any], None]  # (pass manager, GPUTarget, options)
    binary: str  # the key of CompiledKernel.asm holding the binary compile_full reads
    resources: Callable[[Any], tuple[int | None, int | None, dict[str, Any]]]


def family(backend: str) -> Family:
    """The Family of a Triton backend name ("cuda", "hip"); UnsupportedTarget for any other (e.g. "xpu")."""
    found = FAMILIES.get(backend)
    if found is None:
        raise UnsupportedTarget(
            f"Triton backend {backend!r}", "tilefit does not know this family's shared-memory allocation passes",
            [f"{k} ({f.name})" for k, f in FAMILIES.items()],
        )
    return found


def allocation_key(target: Any, options: Any) -> tuple[Any, ...]:
    """Everything the allocation passes below read: two compiles with equal keys run the same passes."""
    if target.backend == "cuda":
        return (target.backend, target.arch, options.ptx_version)
    return (target.backend, target.arch, options.arch)


def _nvidia_allocation(pm: Any, target: Any, options: Any) -> None:
    # The head of CUDABackend.make_llir (3.6 and 3.9) up to add_allocate_tensor_memory; consan/gsan off.
    from triton._C.libtriton import nvidia, passes
    from triton.backends.nvidia.compiler import get_ptx_version_from_options

    ptx_version = get_ptx_version_from_options(options, target.arch)
    passes.ttgpuir.add_combine_tensor_select_and_if(pm)
    _add(passes.ttgpuir.add_allocate_warp_groups, (pm, False), (pm,))
    passes.convert.add_scf_to_cf(pm)
    passes.gluon.add_inliner(pm)
    nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, target.arch, ptx_version)
    nvidia.passes.ttnvgpuir.add_allocate_tensor_memory(pm)


def _amd_allocation(pm: Any, target: Any, options: Any) -> None:
    # The head of HIPBackend.make_llir: 3.6 runs optimize_lds_usage (which can shrink LDS), 3.9 runs
    # warp_pipeline_conversion instead; both end with add_allocate_shared_memory.
    from triton._C.libtriton import amd, passes

    tt = amd.passes.ttgpuir
    tt.add_update_async_wait_count(pm, options.arch)
    if hasattr(tt, "add_warp_pipeline_conversion"):
        tt.add_warp_pipeline_conversion(pm, options.arch)
    if hasattr(tt, "add_optimize_lds_usage"):
        tt.add_optimize_lds_usage(pm, options.arch, 0)
    passes.convert.add_scf_to_cf(pm)
    passes.gluon.add_inliner(pm)
    passes.convert.add_index_to_llvmir(pm)
    _add(tt.add_allocate_shared_memory, (pm, options.arch), (pm,))


def compile_fast(kernel: Any, target: Any, sp: Specialised) -> Measured:
    """Stop after TTGIR and run only the shared-memory allocation: the exact `metadata.shared`."""
    from triton._C.libtriton import ir

    fam = family(target.backend)
    module, _backend, options = lower(kernel, target, sp)
    pm = ir.pass_manager(module.context)
    fam.allocation(pm, target, options)
    pm.run(module, "tilefit_allocate_shared_memory")
    warps = module.get_int_attr("ttg.total-num-warps") or options.num_warps
    return Measured(
        shared=int(module.get_int_attr("ttg.shared") or 0),
        tensor_memory=module.get_int_attr("ttg.tensor_memory_size"),
        num_warps=int(warps),
    )


def compile_full(kernel: Any, target: Any, sp: Specialised) -> Measured:
    """triton.compile to cubin/hsaco; registers and spills from the binary."""
    import triton
    from triton.compiler import ASTSource

    fam = family(target.backend)
    src = ASTSource(kernel, sp.signature, sp.constexprs, sp.attrs)
    compiled = triton.compile(src, target=target, options=dict(sp.options))
    md = compiled.metadata
    regs, spills, extra = fam.resources(compiled.asm[fam.binary])
    return Measured(
        shared=int(md.shared), tensor_memory=getattr(md, "tmem_size", None), num_warps=int(md.num_warps),
        registers=regs, spills=spills, extra=extra,
    )


def _cuda_resources(cubin: bytes) -> tuple[int | None, int | None, dict[str, Any]]:
    """REG, STACK and LOCAL from the wheel's cuobjdump -res-usage; spills as Triton's n_spills."""
    from triton import knobs

    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run(
            [knobs.nvidia.cuobjdump.path, "-res-usage", f.name], capture_output=True, text=True, check=True,
            timeout=60,
        ).stdout
    fields = dict(re.findall(r"\b(REG|STACK|SHARED|LOCAL):(\d+)", out))
    local, stack = int(fields.get("LOCAL", 0)), int(fields.get("STACK", 0))
    # The driver's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES is the stack frame (spills live there) plus
    # LOCAL; Triton reports n_spills as that / 4. Checked equal on an H200 (BENCHMARKS.md).
    extra = {"local_bytes": local, "stack_bytes": stack}
    return (int(fields["REG"]) if "REG" in fields else None), (local + stack) // 4, extra


def _amd_resources(amdgcn: str) -> tuple[int | None, int | None, dict[str, Any]]:
    """.vgpr_count, .sgpr_count, .vgpr_spill_count and .sgpr_spill_count of the amdgcn metadata."""
    def field(name: str) -> int | None:
        m = re.search(rf"\.{name}:\s+(\d+)", amdgcn)
        return int(m.group(1)) if m else None

    extra = {"sgpr_count": field("sgpr_count"), "sgpr_spill_count": field("sgpr_spill_count")}
    return field("vgpr_count"), field("vgpr_spill_count"), extra


FAMILIES: Mapping[str, Family] = {
    "cuda": Family("NVIDIA", _nvidia_allocation, "cubin", _cuda_resources),
    "hip": Family("AMD", _amd_allocation, "amdgcn", _amd_resources),
}


@contextlib.contextmanager
def captured_stderr() -> Iterator[Callable[[], str]]:
    """Redirect file descriptor 2 (where MLIR and LLVM print diagnostics) and give its text back."""
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield lambda: _read(tmp)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _read(tmp: Any) -> str:
    tmp.flush()
    tmp.seek(0)
    return bytes(tmp.read()).decode("utf-8", "replace")


# ------------------------------------------------------------------------------- make_ttgir as a pass plan
#
# A backend's make_ttgir builds pass managers from Triton's pass bindings and runs them; which passes and
# arguments it adds depends only on the options, the target and Triton's knobs, never on the module. Calling
# it once with stand-ins for `ir`, the pass modules and the module records that list (a Plan) without any
# MLIR: compiles whose TTIR and Plan are equal run the same passes on the same input, and compiles that
# differ only in num_stages share the Plan's prefix before the first pass that takes num_stages.

Plan = tuple[tuple[Any, ...], ...]
_ROOTS = ("ir", "passes", "nvidia", "amd")
_SIMPLE = (bool, int, float, str, type(None))


class NotRecordable(Exception):
    """make_ttgir did something a Plan cannot hold (a module attribute, an unknown call): compile directly."""


class _FakePM:
    def __init__(self, events: list[tuple[Any, ...]], dump: bool) -> None:
        self.events, self.dump = events, dump
        events.append(("pm",))

    def enable_debug(self) -> bool:
        self.events.append(("debug",))
        return self.dump

    def run(self, _module: Any, tag: str) -> None:
        self.events.append(("run", tag))


class _FakeIR:
    def __init__(self, events: list[tuple[Any, ...]], dump: bool) -> None:
        self.events, self.dump = events, dump

    def pass_manager(self, _context: Any) -> _FakePM:
        return _FakePM(self.events, self.dump)

    def __getattr__(self, name: str) -> Any:
        raise NotRecordable(f"ir.{name}")


class _FakePasses:
    """A pass module (passes.ttgpuir, nvidia.passes.hopper, ...): a call with the pass manager is recorded."""

    def __init__(self, events: list[tuple[Any, ...]], path: str) -> None:
        self._events, self._path = events, path

    def __getattr__(self, name: str) -> Any:
        return _FakePasses(self._events, f"{self._path}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs or not args or not isinstance(args[0], _FakePM) or not all(isinstance(a, _SIMPLE) for a in args[1:]):
            raise NotRecordable(self._path)
        self._events.append(("add", self._path, args[1:]))


class _FakeModule:
    context = None

    def get_tensordesc_metadata(self) -> Any:
        return None

    def __getattr__(self, name: str) -> Any:
        raise NotRecordable(f"module.{name}")


def ttgir_plan(backend: Any, options: Any) -> Plan:
    """The passes the backend's make_ttgir runs for `options`, recorded without MLIR (NotRecordable if not)."""
    from triton.backends.compiler import Language

    stages: dict[str, Callable[[Any, dict[str, Any]], Any]] = {}
    backend.add_stages(stages, options, Language.TRITON)
    names = type(backend).make_ttgir.__globals__
    events: list[tuple[Any, ...]] = []
    fakes = {"ir": _FakeIR(events, _dump_enabled())} | {r: _FakePasses(events, r) for r in _ROOTS[1:]}
    saved = {r: names[r] for r in _ROOTS if r in names}
    names.update({r: fakes[r] for r in saved})
    try:
        stages["ttgir"](_FakeModule(), {})
    except NotRecordable:
        raise
    except Exception as exc:  # anything the stand-ins cannot answer
        raise NotRecordable(f"{type(exc).__name__}: {exc}") from exc
    finally:
        names.update(saved)
    return tuple(events)


_DUMP: list[bool] = []


def _dump_enabled() -> bool:
    """What enable_debug() returns in this process (Triton's MLIR dump variables); a make_ttgir argument."""
    if not _DUMP:
        from triton._C.libtriton import ir

        _DUMP.append(bool(ir.pass_manager(ir.context()).enable_debug()))
    return _DUMP[0]


def run_plan(module: Any, plan: Plan) -> None:
    """Run a Plan's passes on `module`; a plan cut in the middle of a pass manager runs what it added."""
    import triton._C.libtriton as lib
    from triton._C.libtriton import ir

    pm: Any = None
    pending = False
    for event in plan:
        if event[0] == "pm":
            pm = ir.pass_manager(module.context)
        elif event[0] == "debug":
            pm.enable_debug()
        elif event[0] == "add":
            fn: Any = lib
            for part in event[1].split("."):
                fn = getattr(fn, part)
            fn(pm, *event[2])
            pending = True
        else:
            pm.run(module, event[1])
            pending = False
    if pending:
        pm.run(module, "tilefit_plan")


def split_plan(plan: Plan, other: Plan) -> tuple[Plan, Plan]:
    """`plan` as (the prefix it shares with `other`, the rest); the rest opens its own pass manager."""
    n = 0
    while n < min(len(plan), len(other)) and plan[n] == other[n]:
        n += 1
    while n and plan[n - 1][0] in ("pm", "debug"):
        n -= 1
    rest = plan[n:]
    if rest and rest[0][0] != "pm" and any(e[0] == "pm" for e in plan[:n]):
        rest = (("pm",), ("debug",), *rest)
    return plan[:n], rest
