"""Inductor under the plug-in: a kernel whose every config is rejected gets Inductor's own num_stages=1 retry.

Inductor's CachingAutotuner (torch >= 2.12, `compile_by_disabling_pipelining`) retries a kernel whose every
compiled config fails at load with OutOfResources once more with num_stages=1 (`dynamic_disable_pipelining`).
That retry lives in `_make_launchers`, after the compile; a config the plug-in rejects fails earlier, in
`_precompile_worker`, which raises NoTritonConfigsError and has no retry. Without this patch the plug-in
would turn Inductor's stock recovery into a failed kernel (or a failed autotune choice, so a different
winner). With it, the same num_stages=1 config is compiled, now straight away instead of after a full
compile of the oversized one. torch 2.11 has no retry: nothing is patched there.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from typing import Any

MODULE = "torch._inductor.runtime.triton_heuristics"
_saved: dict[tuple[Any, str], Callable[..., Any]] = {}


def patch() -> None:
    """Wrap CachingAutotuner._precompile_worker once Inductor's runtime module is imported."""
    from tilefit.plugin.boot_env import on_import

    on_import(MODULE, _patch)


def _patch() -> None:
    from tilefit.plugin.state import installed

    cls = getattr(sys.modules[MODULE], "CachingAutotuner", None)
    if installed() is None or cls is None or not hasattr(cls, "compile_by_disabling_pipelining"):
        return
    if (cls, "_precompile_worker") not in _saved and hasattr(cls, "_precompile_worker"):
        _saved[(cls, "_precompile_worker")] = cls._precompile_worker
        cls._precompile_worker = _worker(cls._precompile_worker)


def unpatch() -> None:
    """Restore Inductor's own method."""
    for (owner, name), original in list(_saved.items()):
        setattr(owner, name, original)
    _saved.clear()


def stage_one(config: Any) -> Any:
    """The config Inductor's compile_by_disabling_pipelining compiles: a copy with num_stages (and NUM_STAGES) 1."""
    cfg = copy.deepcopy(config)
    cfg.num_stages = 1
    if "NUM_STAGES" in cfg.kwargs:
        cfg.kwargs["NUM_STAGES"] = 1
    return cfg


def _retries(self: Any, config: Any, exc: BaseException) -> bool:
    """Stock would retry: every config failed, the last one with OutOfResources, pipelining on, stages > 1."""
    # NoTritonConfigsError names the last config's exception type; only the plug-in's is retried here.
    return ("TilefitOutOfResources" in str(exc)
            and (config.num_stages > 1 or config.kwargs.get("NUM_STAGES", 1) > 1)
            and bool(self.inductor_meta.get("dynamic_disable_pipelining", True)))


def _worker(original: Callable[..., Any]) -> Callable[..., Any]:
    def _precompile_worker(self: Any) -> Any:
        configs = list(self.configs or ())
        try:
            return original(self)
        except Exception as exc:
            if type(exc).__name__ != "NoTritonConfigsError" or not configs or not _retries(self, configs[-1], exc):
                raise
            self.compile_results = [self._precompile_config(stage_one(configs[-1]))]
            self.configs = None
            return None

    return _precompile_worker
