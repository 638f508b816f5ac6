"""The Triton hooks of the plug-in: size every compile after TTGIR; reject what cannot fit before LLVM.

`add_stages_inspection_hook` is Triton's own knob (3.6 and 3.9): the backend's `add_stages` calls it with
(backend, stages, options, language, capability) and the hook may replace stages. The plug-in wraps the
"ttgir" stage: after Triton's make_ttgir it sizes a copy of the module (plugin/size.py) and, when the
config cannot fit the device, raises Triton's OutOfResources (same fields and message, plus a tilefit
hint), which every autotuner already treats as "skip this config". Triton 3.9 also calls the hook with no
arguments to extend its cache key: the plug-in answers ("", "") so cache keys stay exactly as without it.

Triton is imported at module load: this module is only imported by `install()`.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from triton.runtime.errors import OutOfResources

from tilefit.plugin.size import Verdict, limits_for, size_module, target_name, verdict
from tilefit.trace import KernelRecord, Sized, TraceWriter, sha256_text

_MAX_SOURCE = 4 * 1024 * 1024  # a kernel source file larger than this is not copied into a trace


class TilefitOutOfResources(OutOfResources):  # type: ignore[misc]
    """Triton's OutOfResources raised by tilefit after TTGIR: same fields, Triton's message plus a hint."""

    def __init__(self, required: int, limit: int, name: str, hint: str = "", kernel: str = "",
                 config: dict[str, Any] | None = None, target: str = "") -> None:
        super().__init__(required, limit, name)
        self.hint = hint
        self.kernel = kernel
        self.config = dict(config or {})
        self.target = target

    def __str__(self) -> str:
        return f"{super().__str__()} [tilefit: {self.hint}]" if self.hint else super().__str__()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.required, self.limit, self.name, self.hint, self.kernel, self.config, self.target))


def _rebuild(required: int, limit: int, name: str, hint: str, kernel: str, config: dict[str, Any],
             target: str) -> TilefitOutOfResources:
    return TilefitOutOfResources(required, limit, name, hint, kernel, config, target)


@dataclasses.dataclass
class Stats:
    """What the plug-in did in this process."""

    sized: int = 0
    rejected: int = 0
    seconds: float = 0.0
    failures: int = 0


def calling_source() -> Any:
    """The ASTSource `triton.compile` is compiling (its `src` local, a few frames up), or None.

    None also when the stages are built outside `triton.compile` (tilefit's own sizing calls the backend's
    add_stages directly): those compiles are not checked.
    """
    frame = sys._getframe(1)
    for _ in range(8):
        frame = frame.f_back  # type: ignore[assignment]
        if frame is None:
            return None
        if frame.f_code.co_name == "compile" and "triton" in frame.f_code.co_filename:
            src = frame.f_locals.get("src")
            return src if hasattr(src, "fn") and hasattr(src, "signature") else None
    return None


def kernel_name(src: Any) -> str:
    """module.qualname of the JIT function an ASTSource compiles ('?' when unknown)."""
    fn = getattr(getattr(src, "fn", None), "fn", None)
    if fn is None:
        return str(getattr(src, "name", "?"))
    return f"{fn.__module__}.{fn.__qualname__}"


def config_of(src: Any, options: Any) -> dict[str, Any]:
    """The constexpr arguments by name and the launch options that shape on-chip memory."""
    out: dict[str, Any] = {}
    params = list(getattr(getattr(src, "fn", None), "params", []))
    for path, value in (getattr(src, "constants", None) or {}).items():
        declared = len(path) == 1 and path[0] < len(params) and params[path[0]].is_constexpr
        if declared and isinstance(value, (int, float, bool, str)):
            out[params[path[0]].name] = value
    for key in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        value = getattr(options, key, None)
        if value is not None:
            out[key] = value
    return out


class Plugin:
    """Process-wide state behind the hooks: previous hooks to chain to, an optional trace, stats."""

    def __init__(self, writer: TraceWriter | None = None, log: Callable[[str], None] | None = None) -> None:
        from triton import knobs

        self.knobs = knobs
        self.previous = knobs.runtime.add_stages_inspection_hook
        self.previous_listener = knobs.compilation.listener
        self.writer = writer
        self.stats = Stats()
        self._log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self._logged = False
        self._local = threading.local()
        self.rejected: dict[str, tuple[Any, Any, Any]] = {}  # kernel name -> last rejected (src, target, options)
        self.verdicts: dict[str, Verdict] = {}  # Triton's compile hash -> verdict: a recompile is not sized again

    # ---- the hooks -----------------------------------------------------------------------------------

    def stages_hook(self, *args: Any) -> Any:
        """Triton's add_stages_inspection_hook: () -> cache-key parts; (backend, stages, ...) -> wrap ttgir."""
        if not args:
            return self.previous() if self.previous is not None else ("", "")
        if self.previous is not None:
            self.previous(*args)
        if getattr(self._local, "busy", False):  # tilefit's own compiles (fit suggestions) are not checked
            return None
        try:
            self._wrap(args[0], args[1], args[2])
        except Exception as exc:  # never break the user's compile
            self.fault(exc, "wrapping the ttgir stage")
        return None

    def listener(self, *, src: Any, metadata: Any, metadata_group: Any, times: Any, cache_hit: bool) -> None:
        """Triton's compilation listener: records kernels served from Triton's cache (only when tracing)."""
        if self.previous_listener is not None:
            self.previous_listener(src=src, metadata=metadata, metadata_group=metadata_group, times=times,
                                   cache_hit=cache_hit)
        if not cache_hit or self.writer is None or not hasattr(src, "fn"):
            return
        try:
            self._record_cached(src, metadata)
        except Exception as exc:
            self.fault(exc, "recording a cached kernel")

    # ---- work ----------------------------------------------------------------------------------------

    def _wrap(self, backend: Any, stages: dict[str, Any], options: Any) -> None:
        inner = stages.get("ttgir")
        src = calling_source()
        if inner is None or src is None:
            return

        def ttgir(module: Any, metadata: dict[str, Any]) -> Any:
            out = inner(module, metadata)
            self.check(out, backend.target, options, src, str(metadata.get("hash") or ""))
            return out

        stages["ttgir"] = ttgir

    def check(self, module: Any, target: Any, options: Any, src: Any, key: str = "") -> None:
        """Size a TTGIR module; raise TilefitOutOfResources when it cannot fit.

        `key` is Triton's compile hash (source, options, target, environment): the same key is the same TTGIR,
        so a kernel compiled again (always_compile, a cleared cache, another autotuner) is not sized twice.
        """
        start = time.perf_counter()
        try:
            v = self.verdicts.get(key) if key else None
            if v is None:
                v = verdict(size_module(module, target, options), limits_for(target), target_name(target))
                if key:
                    self.verdicts[key] = v
            if self.writer is not None and src is not None:
                self._record(src, target, options, v, "compile")
        except Exception as exc:
            self.fault(exc, f"sizing {kernel_name(src)}")
            return
        finally:
            self.stats.seconds += time.perf_counter() - start
        self.stats.sized += 1
        if not v.fits:
            self.stats.rejected += 1
            self.rejected[kernel_name(src)] = (src, target, options)
            raise self.error(v, src, options)

    def error(self, v: Verdict, src: Any, options: Any) -> TilefitOutOfResources:
        """The OutOfResources for a verdict that does not fit."""
        required, limit, name = v.first()
        config = config_of(src, options)
        shown = ", ".join(f"{k}={val}" for k, val in config.items())
        unit = {"shared memory": " B", "tensor memory": " columns"}.get(name, "")
        hint = (f"{kernel_name(src)} ({shown}) needs {required}{unit} of {name} > {limit}{unit} on {v.target} "
                f"({required / max(limit, 1):.2f}x); rejected after TTGIR, before LLVM and ptxas")
        return TilefitOutOfResources(required, limit, name, hint, kernel_name(src), config, v.target)

    def fault(self, exc: BaseException, what: str) -> None:
        """Log an internal failure once per process; Triton proceeds as if the plug-in were off."""
        self.stats.failures += 1
        if not self._logged:
            self._logged = True
            self._log(f"tilefit plug-in: internal error while {what}: {type(exc).__name__}: {exc}; "
                      "Triton proceeds without the check (further errors are not shown)")

    # ---- trace ---------------------------------------------------------------------------------------

    def _source(self, src: Any) -> tuple[str, int, str, str]:
        """(file, line, file sha256, function-source sha256), writing the file's text to the trace."""
        jit = src.fn
        fn = getattr(jit, "fn", None)
        file = inspect.getsourcefile(fn) if fn is not None else None
        line = int(getattr(jit, "starting_line_number", 0) or 0)
        digest = ""
        if file and self.writer is not None:
            path = Path(file)
            if path.is_file() and path.stat().st_size <= _MAX_SOURCE:
                digest = self.writer.add_source(str(path.resolve()), path.read_text(encoding="utf-8"))
        return str(file or "?"), line, digest, sha256_text(str(getattr(jit, "src", "")))

    def _record(self, src: Any, target: Any, options: Any, v: Verdict, via: str) -> None:
        assert self.writer is not None
        file, line, file_sha, src_sha = self._source(src)
        self.writer.add(KernelRecord(
            pid=os.getpid(), name=kernel_name(src), fn=str(src.fn.__name__), file=file, line=line,
            file_sha256=file_sha, src_sha256=src_sha, signature=dict(src.signature),
            constexprs=dict(src.constants), attrs={k: tuple(tuple(p) for p in val) for k, val in src.attrs.items()},
            options=dict(vars(options)) if not isinstance(options, dict) else dict(options),
            target={"name": target_name(target), "backend": target.backend, "arch": target.arch,
                    "warp_size": target.warp_size},
            sized=v.sized, limits=v.limits, fits=v.fits, over=v.over, via=via,  # type: ignore[arg-type]
            time=time.time(),
        ))

    def _record_cached(self, src: Any, metadata: Any) -> None:
        md = dict(metadata)
        target = md["target"]
        if isinstance(target, (list, tuple)):  # metadata JSON holds the target as [backend, arch, warp_size]
            from triton.backends.compiler import GPUTarget

            target = GPUTarget(*target)
        tmem = md.get("tmem_size")
        sized = Sized(shared=int(md.get("shared") or 0), tmem=None if tmem is None else int(tmem),
                      threads=int(md.get("num_warps", 4)) * int(target.warp_size))
        v = verdict(sized, limits_for(target), target_name(target))
        options = {k: md[k] for k in ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
                                      "launch_cooperative_grid", "arch") if k in md}
        self._record(src, target, options, v, "cache")

    # ---- reentrancy ----------------------------------------------------------------------------------

    def quiet(self) -> _Quiet:
        """A context in which this thread's compiles are not checked (tilefit's own fit search)."""
        return _Quiet(self._local)


class _Quiet:
    def __init__(self, local: threading.local) -> None:
        self.local = local

    def __enter__(self) -> None:
        self.local.busy = True

    def __exit__(self, *exc: object) -> None:
        self.local.busy = False
