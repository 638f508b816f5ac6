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
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature

    backend = make_backend(target)
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    kwargs = {**args, **config}
    kwargs.setdefault("debug", bool(getattr(kernel, "debug", False)))
    with warnings.catch_warnings():  # 3.9 warns once that TRITON_DEFAULT_FP_FUSION is unset
        warnings.simplefilter("ignore")
        return _bind(kernel, backend, binder, kwargs)


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
