"""Helion under the plug-in: its two paths that have no shared-memory check get a config that fits.

Helion's autotuner already skips configs that raise OutOfResources (the plug-in makes that fast). Two
paths still take Helion's default config unchecked (Helion issue #470):

- `autotune_effort="none"` launches the default config: the plug-in binds it to the config
  `integrations.helion.fitting_config` chooses (the default itself when it fits; NoConfigFits, naming what
  never fits, when no config can);
- the autotuner's baseline runs the default config and aborts the whole search when it fails
  ("Default config failed while computing baseline"): when the failure is the plug-in's OutOfResources,
  the fitting config becomes the kernel's default (ConfigSpec.compiler_default_config), so the baseline
  and the search's default seed are taken from it.

Applied when helion is imported with the plug-in on; `unpatch` restores Helion's own methods.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

_saved: dict[tuple[Any, str], Callable[..., Any]] = {}


def _replace(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    if (owner, name) not in _saved and hasattr(owner, name):
        original = getattr(owner, name)
        _saved[(owner, name)] = original
        setattr(owner, name, make(original))


def _uses_default(bound: Any) -> bool:
    """True when Helion would launch its default config: effort "none" and no config given."""
    settings = bound.kernel.settings
    return (getattr(bound, "_config", None) is None and getattr(settings, "autotune_effort", "") == "none"
            and len(bound.kernel.configs) == 0)


def _ensure(original: Callable[..., Any]) -> Callable[..., Any]:
    def ensure_config_exists(self: Any, args: Sequence[object]) -> None:
        if _uses_default(self):
            from tilefit.integrations.helion import fitting_config

            self.set_config(fitting_config(self, args))
            return None
        original(self, args)
        return None

    return ensure_config_exists


def _baseline(original: Callable[..., Any]) -> Callable[..., Any]:
    def _compute_baseline(self: Any) -> Any:
        try:
            return original(self)
        except Exception as exc:
            from tilefit.plugin.report import find_rejection

            if find_rejection(exc) is None or getattr(self.settings, "autotune_baseline_fn", None) is not None:
                raise
            from tilefit.integrations.helion import fitting_config

            chosen = fitting_config(self.kernel, self.args)
            spec = self.config_spec
            if hasattr(spec, "compiler_default_config"):
                # Helion's own slot for a default that replaces its fragment default: the baseline and the
                # search's default seed (FROM_BEST_AVAILABLE) both become the fitting config (helion 1.4).
                spec.compiler_default_config = chosen
                return original(self)
            spec.default_config = lambda: chosen  # the instance attribute shadows the method for this retry
            try:
                return original(self)
            finally:
                del spec.default_config

    return _compute_baseline


def patch() -> None:
    """Wrap Helion's methods once their modules are imported (helion 1.4 and 1.5).

    Each is hooked on its own module: triton is often first imported from inside `import helion`, when
    the helion package is still half-initialised and its submodules cannot be imported yet.
    """
    from tilefit.plugin.boot_env import on_import

    on_import("helion.runtime.kernel", _patch_kernel)
    on_import("helion.autotuner.benchmark_provider", _patch_baseline)


def _patch_kernel() -> None:
    from tilefit.plugin.state import installed

    if installed() is not None:  # not uninstalled before helion was imported
        _replace(sys.modules["helion.runtime.kernel"].BoundKernel, "ensure_config_exists", _ensure)


def _patch_baseline() -> None:
    from tilefit.plugin.state import installed

    provider = getattr(sys.modules["helion.autotuner.benchmark_provider"], "LocalBenchmarkProvider", None)
    if installed() is not None and provider is not None:
        _replace(provider, "_compute_baseline", _baseline)


def unpatch() -> None:
    """Restore Helion's own methods."""
    for (owner, name), original in list(_saved.items()):
        setattr(owner, name, original)
    _saved.clear()
