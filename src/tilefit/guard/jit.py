"""Guard @triton.jit launches where Triton compiles: once per specialisation, never per launch.

    g = guard(matmul_kernel)                          # or a @triton.heuristics / @triton.autotune stack
    g[grid](a, b, c, M, N, K, ..., BLOCK_M=256, num_stages=5)   # any argument style Triton accepts

`guard` installs a `CompileCheck` in the innermost JITFunction's `_do_compile`, the method its `run` calls
only when its own cache has no kernel for a launch's key (specialisation and options). So Triton's binder
does the binding (positional, keyword, defaults, do_not_specialize, constexprs of any type, None,
TensorDescriptor), heuristics and autotuners outside it run as usual, and once a specialisation is compiled
Triton's cache serves every later launch: the guard costs nothing per launch.

The check sizes the requested config for the device (Triton's allocation pass against the driver's own
limit; guard/decide.py). When it does not fit, a fallback that only changes launch options (num_stages,
the default) is compiled in its place under the same key: later launches get it from Triton's cache. A
fallback that changes constexprs (tile sizes, allowed by `tunable` or `space`) must re-run the launch, since
the grid is computed from them: the check raises `Relaunch`, which the guarded launcher catches and
re-launches with the new values (a launch of that oversized config costs one more binding).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import InputError, NoConfigFits, TilefitError, TilefitWarning
from tilefit.guard.decide import Decision, DeviceInfo, current_device, decide, specialisation_key, triton_handle
from tilefit.settings import Settings

# Launch options a fallback may change without changing the kernel's result or its grid.
_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim", "kpack")


class Relaunch(TilefitError):
    """The check replaced constexprs of a launch; only a guarded launcher can apply them (it re-launches)."""

    def __init__(self, name: str, changes: Mapping[str, Any]) -> None:
        self.name = name
        self.changes = dict(changes)
        text = " ".join(f"{k}={v}" for k, v in self.changes.items())
        super().__init__(f"tilefit: {name}: the launched config does not fit and the guard chose {text}; "
                         "launch through the object guard() returned to apply it")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Relaunch, (self.name, self.changes))


@dataclasses.dataclass
class Policy:
    """What a fallback may change: the user's space, else fewer stages and (for `tunable` keys) halved tiles."""

    space: list[dict[str, Any]] | None = None
    tunable: tuple[str, ...] = ()
    device: Callable[[int], DeviceInfo] = current_device
    settings: Settings = dataclasses.field(default_factory=Settings.from_env)

    def candidates(self, config: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.space is not None:
            return [{**config, **c} for c in self.space]
        stages = int(config.get("num_stages", 3))
        out = [{**config, "num_stages": s} for s in range(stages - 1, 0, -1)]
        for key in (k for k in self.tunable if k in config):
            size = int(config[key])
            out += [{**c, key: size >> i} for i in (1, 2, 3) if size >> i >= 16 for c in [config, *out]]
        return out

    @property
    def relaunches(self) -> bool:
        """True when a decision may change constexprs (then launches go through a relauncher)."""
        keys = set(self.tunable) | {k for c in self.space or [] for k in c}
        return bool(keys - set(_OPTIONS))


class CompileCheck:
    """Stands in for one JITFunction's `_do_compile`: sizes each new specialisation before Triton compiles it."""

    def __init__(self, fn: Any, policy: Policy) -> None:
        self.fn = fn
        self.original = fn._do_compile  # the bound method of the class
        self.policy = policy
        self.decisions: dict[tuple[int, str], Decision] = {}
        self.devices: dict[int, DeviceInfo] = {}

    def __call__(self, key: Any, signature: Any, device: Any, constexprs: Any, options: Any, attrs: Any,
                 warmup: Any) -> Any:
        memo = (int(device), str(key))
        decision = self.decisions.get(memo)
        if decision is None:
            decision = self.decisions[memo] = self._checked(int(device), signature, constexprs, options, attrs)
        changes = decision.changes
        if changes and set(changes) <= set(_OPTIONS):
            options = dataclasses.replace(options, **changes)
        elif changes:
            raise Relaunch(self.fn.__name__, changes)
        return self.original(key, signature, device, constexprs, options, attrs, warmup)

    def _checked(self, device: int, signature: Any, constexprs: Any, options: Any, attrs: Any) -> Decision:
        """`decide`, except that a failure of tilefit itself launches the config as asked (with a warning):
        a guard must never stop a kernel that might run. NoConfigFits is the one error it raises."""
        try:
            return self.decide(device, signature, constexprs, options, attrs)
        except NoConfigFits:
            raise
        except Exception as exc:
            warnings.warn(f"tilefit: {self.fn.__name__}: could not check this launch ({type(exc).__name__}: "
                          f"{exc}); launched as asked", TilefitWarning, stacklevel=4)
            return Decision({}, {})

    def decide(self, device: int, signature: Any, constexprs: Any, options: Any, attrs: Any) -> Decision:
        """Size this specialisation's config on the device; fall back or raise NoConfigFits per the policy."""
        from tilefit.estimate.triton_args import from_specialisation

        try:
            args, config = from_specialisation(self.fn.params, signature, constexprs, attrs)
        except InputError:  # a kind of argument tilefit cannot re-specialise: let Triton decide
            return Decision({}, {})
        config.update(self._launch_options(options))
        dev = self.devices.get(device) or self.devices.setdefault(device, self.policy.device(device))
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module="triton")  # e.g. 3.9's TRITON_DEFAULT_FP_FUSION notice
            handle = triton_handle(self.fn, args)
        return decide(handle, config, self.policy.candidates(config), specialisation_key(args), dev,
                      settings=self.policy.settings)

    def _launch_options(self, options: Any) -> dict[str, Any]:
        fields = vars(options)
        out = {k: fields[k] for k in ("num_warps", "num_stages")}
        for k in _OPTIONS[2:]:
            if fields.get(k) not in (None, 1 if k == "num_ctas" else 0):
                out[k] = fields[k]
        return out


def install(fn: Any, policy: Policy) -> CompileCheck:
    """Put a CompileCheck in `fn` (once; a later guard of the same function replaces its policy).

    Kernels Triton compiled before, which cannot load on their device (an unguarded launch that died of
    OutOfResources keeps its kernel in the cache), are dropped so that their next launch is checked.
    """
    check = fn.__dict__.get("_do_compile")
    if isinstance(check, CompileCheck):
        check.policy = policy
        check.decisions.clear()
        check.devices.clear()
    else:
        check = CompileCheck(fn, policy)
        fn._do_compile = check
    _drop_unloadable(fn, policy)
    return check


def _drop_unloadable(fn: Any, policy: Policy) -> None:
    for device, caches in list(fn.device_caches.items()):
        kernel_cache = caches[0]
        oversized = [k for k, v in kernel_cache.items() if _shared(v) is not None]
        if not oversized:
            continue
        try:
            limit = policy.device(int(device)).max_shared
        except Exception:  # no driver to ask: leave Triton's cache as it is
            continue
        for key in oversized:
            if (_shared(kernel_cache[key]) or 0) > limit:
                del kernel_cache[key]


def _shared(kernel: Any) -> int | None:
    md = getattr(kernel, "metadata", None)  # a CompiledKernel (not a pending asynchronous compile)
    shared = getattr(md, "shared", None)
    return int(shared) if isinstance(shared, int) else None


def uninstall(fn: Any) -> None:
    """Remove the CompileCheck from `fn`; kernels compiled with a replaced config leave Triton's cache too."""
    check = fn.__dict__.get("_do_compile")
    if not isinstance(check, CompileCheck):
        return
    del fn._do_compile
    for (device, key), decision in check.decisions.items():
        caches = fn.device_caches.get(device) if decision.changes else None
        if caches is not None:
            caches[0].pop(key, None)


class GuardedKernel:
    """A @triton.jit kernel (bare, or inside heuristics/autotune) whose launches are checked where Triton compiles.

    Launch it as the kernel itself: `g[grid](...)`, `g.run(..., grid=, warmup=)`, `g.warmup(..., grid=)`.
    """

    def __init__(
        self,
        kernel: Any,
        *,
        space: Sequence[Mapping[str, Any]] | None = None,
        tunable: Sequence[str] = (),
        device: Callable[[int], DeviceInfo] | None = None,
        settings: Settings | None = None,
    ) -> None:
        from tilefit.estimate.triton import unwrap_kernel

        self.kernel = kernel
        self.fn = unwrap_kernel(kernel)
        self.policy = Policy([dict(c) for c in space] if space is not None else None, tuple(tunable),
                             device or current_device, settings or Settings.from_env())
        self.check = install(self.fn, self.policy)
        self._relaunch = self.policy.relaunches

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        if not self._relaunch:
            launcher: Callable[..., Any] = self.kernel[grid]  # nothing to add per launch: Triton's own
            return launcher
        # One frame, like Triton's own launcher lambda; `try` costs nothing until Relaunch is raised.
        kernel_run, apply = self.kernel.run, self._apply

        def launch(*args: Any, **kwargs: Any) -> Any:
            try:
                return kernel_run(*args, grid=grid, warmup=False, **kwargs)
            except Relaunch as r:
                args, kwargs = apply(args, kwargs, r.changes)
            return kernel_run(*args, grid=grid, warmup=False, **kwargs)

        return launch

    def run(self, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        """Triton's `run`, re-launched once with the guard's constexprs when the check replaced them."""
        try:
            return self.kernel.run(*args, grid=grid, warmup=warmup, **kwargs)
        except Relaunch as r:
            args, kwargs = self._apply(args, kwargs, r.changes)
        return self.kernel.run(*args, grid=grid, warmup=warmup, **kwargs)

    def warmup(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        """Compile without launching (Triton's warmup), with the guard's decision applied."""
        try:
            return self.kernel.warmup(*args, grid=grid, **kwargs)
        except Relaunch as r:
            args, kwargs = self._apply(args, kwargs, r.changes)
        return self.kernel.warmup(*args, grid=grid, **kwargs)

    def _apply(self, args: tuple[Any, ...], kwargs: dict[str, Any],
               changes: Mapping[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        names = self.fn.arg_names
        positional = list(args)
        for key, value in changes.items():
            if key in names[: len(positional)]:
                positional[names.index(key)] = value
            else:
                kwargs = {**kwargs, key: value}
        return tuple(positional), kwargs

    def close(self) -> None:
        """Stop checking this kernel's compiles."""
        uninstall(self.fn)
