"""tilefit in every Triton compile of a process: reject configs that cannot fit right after TTGIR.

    import tilefit
    tilefit.install()                    # or: tilefit run -- python train.py (reaches child processes)
    ...                                  # autotuners skip oversized configs in a fraction of a second
    tilefit.uninstall()

Built on Triton's `knobs.runtime.add_stages_inspection_hook` (plugin/hook.py); `install(record=PATH)` also
appends every compiled specialisation to a JSONL trace (tilefit/trace.py). A config that fits compiles
exactly as without the plug-in: same cache key, same binary. A launch that cannot fit and that nothing
catches ends with tilefit's report (numbers, diagnosis, nearest configs that fit; plugin/report.py).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tilefit.errors import InputError, MissingExtraError
from tilefit.plugin.state import installed
from tilefit.plugin.state import state as _state

if TYPE_CHECKING:
    from tilefit.plugin.hook import Plugin

# The folder `tilefit run` puts first on PYTHONPATH: its sitecustomize installs the plug-in in every child.
BOOT_DIR = Path(__file__).resolve().parent / "boot"
# The one process-wide Plugin and the excepthook it replaced live in plugin/state.py.


def _knobs() -> Any:
    try:
        import triton
        from triton import knobs
    except ImportError as exc:
        raise MissingExtraError("triton", "triton") from exc
    if not hasattr(knobs, "runtime") or not hasattr(type(knobs.runtime), "add_stages_inspection_hook"):
        raise InputError(f"triton {triton.__version__} has no triton.knobs.runtime.add_stages_inspection_hook; "
                         "the tilefit plug-in needs triton >= 3.6 (pip install -U triton)")
    return knobs


def install(record: str | os.PathLike[str] | None = None) -> Plugin:
    """Turn the plug-in on for this process (idempotent); `record` appends a trace of every compile."""
    knobs = _knobs()
    from tilefit.plugin.hook import Plugin

    plugin = installed()
    if plugin is None:
        plugin = Plugin()
        knobs.runtime.add_stages_inspection_hook = plugin.stages_hook
        _state["plugin"] = plugin
        _state["excepthook"] = sys.excepthook
        sys.excepthook = _excepthook
        from tilefit.plugin import helion, inductor

        helion.patch()
        inductor.patch()
        _quiet_inductor(True)
    if record is not None and plugin.writer is None:
        plugin.writer = _writer(record)
        plugin.previous_listener = knobs.compilation.listener
        knobs.compilation.listener = plugin.listener
    return plugin


def uninstall() -> None:
    """Turn the plug-in off: restore the hooks it replaced and close its trace."""
    plugin = _state.pop("plugin", None)
    if plugin is None:
        return
    knobs = plugin.knobs
    if knobs.runtime.add_stages_inspection_hook == plugin.stages_hook:
        knobs.runtime.add_stages_inspection_hook = plugin.previous
    if plugin.writer is not None:
        if knobs.compilation.listener == plugin.listener:
            knobs.compilation.listener = plugin.previous_listener
        plugin.writer.close()
        plugin.writer = None
    from tilefit.plugin import helion, inductor

    helion.unpatch()
    inductor.unpatch()
    _quiet_inductor(False)
    if sys.excepthook is _excepthook:
        sys.excepthook = _state.pop("excepthook", sys.__excepthook__)


# Inductor logs every exception of triton.compile at ERROR with the kernel's whole source, then skips the
# config on OutOfResources (torch/_inductor/runtime/triton_heuristics.py). A config the plug-in rejects is
# the skip Triton would have caused at load time, which Inductor does not log: drop those records.
_INDUCTOR_LOGGER = "torch._inductor.runtime.triton_heuristics"


class _DropRejections(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        from tilefit.plugin.hook import TilefitOutOfResources

        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, TilefitOutOfResources)


_DROP = _DropRejections()


def _quiet_inductor(on: bool) -> None:
    logger = logging.getLogger(_INDUCTOR_LOGGER)
    if on:
        logger.addFilter(_DROP)
    else:
        logger.removeFilter(_DROP)


def _writer(path: str | os.PathLike[str]) -> Any:
    import triton

    import tilefit
    from tilefit.trace import FORMAT_VERSION, Header, TraceWriter

    header = Header(FORMAT_VERSION, tilefit.__version__, str(triton.__version__), os.getpid(), _device(),
                    time.time(), tuple(sys.argv))
    return TraceWriter(Path(path), header)


def _device() -> dict[str, Any] | None:
    try:
        from triton.runtime.driver import driver

        from tilefit.plugin.size import target_name

        target = driver.active.get_current_target()
        name = _device_name()
        return {"name": name, "target": target_name(target), "backend": target.backend, "arch": target.arch,
                "warp_size": target.warp_size}
    except Exception:  # no GPU: the header says so with null
        return None


def _device_name() -> str | None:
    torch = sys.modules.get("torch")
    try:
        return str(torch.cuda.get_device_name()) if torch is not None else None
    except Exception:
        return None


def _excepthook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
    previous = _state.get("excepthook", sys.__excepthook__)
    previous(kind, value, tb)
    try:
        from tilefit.plugin.report import find_rejection, report

        err = find_rejection(value)
        if err is not None:
            sys.stderr.write(report(err, installed()))
    except Exception as exc:  # the report is a courtesy: never hide the original error
        sys.stderr.write(f"tilefit: could not build the report ({type(exc).__name__}: {exc})\n")


def boot(env: dict[str, str] | None = None) -> None:
    """Called by boot/sitecustomize.py: install when TILEFIT_PLUGIN is on, once triton is imported."""
    from tilefit.plugin.boot_env import on_import, plugin_settings

    enabled, trace = plugin_settings(os.environ if env is None else env)
    if enabled:
        on_import("triton", lambda: install(record=trace or None))
