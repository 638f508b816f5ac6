"""The plug-in's per-process state: which Plugin is active. A leaf, so the patches for Helion and Inductor can
ask whether the plug-in is still on without importing the package that installs them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tilefit.plugin.hook import Plugin

state: dict[str, Any] = {}


def installed() -> Plugin | None:
    """The active plug-in of this process, or None."""
    plugin: Plugin | None = state.get("plugin")
    return plugin
