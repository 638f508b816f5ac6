"""Search spaces (re-exported from tilefit.space, which the estimate backends also use)."""

from __future__ import annotations

from tilefit.space import (
    LAUNCH_KEYS,
    Config,
    Space,
    as_config,
    block_keys,
    check_size,
    config_key,
    count,
    expand,
    format_config,
)

__all__ = [
    "LAUNCH_KEYS", "Config", "Space", "as_config", "block_keys", "check_size", "config_key", "count", "expand",
    "format_config",
]
