"""Search spaces: a list of configs (dicts or triton.Config) or a grid of values per key.

A leaf module (it imports only errors): the estimate backends, fit and the CLI all read it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tilefit.errors import InputError

Config = dict[str, Any]
# A list of configs, or a grid {"BLOCK_M": [64, 128], "num_stages": [2, 3]} (every combination).
Space = Iterable[Any] | Mapping[str, Sequence[Any]]

# Launch options that are not constexpr values (Triton's Config fields).
LAUNCH_KEYS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def as_config(config: Any) -> Config:
    """A plain dict from a Mapping or a triton.Config (its kwargs plus num_warps/num_stages/...)."""
    if isinstance(config, Mapping):
        return dict(config)
    if hasattr(config, "all_kwargs"):
        return {k: v for k, v in config.all_kwargs().items() if v is not None}
    if hasattr(config, "kwargs"):
        out = dict(config.kwargs)
        for key in LAUNCH_KEYS:
            value = getattr(config, key, None)
            if value is not None:
                out[key] = value
        return out
    raise InputError(f"a config must be a mapping or a triton.Config, not {type(config).__name__}")


# The most configs expand() materialises unless told otherwise: a 10^6-config grid would take gigabytes of
# dicts and results and hours of compiles; spaces people tune are hundreds to a few thousand configs.
MAX_CONFIGS = 20_000


def _grid(space: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    keys = [str(k) for k in space]
    values = [list(v) if isinstance(v, (list, tuple, range)) else [v] for v in space.values()]
    return keys, values


def count(space: Space) -> int | None:
    """How many configs a grid space has (before removing duplicates); None for a list of configs."""
    if not isinstance(space, Mapping):
        return len(space) if isinstance(space, Sequence) else None
    return math.prod(len(v) for v in _grid(space)[1])


def check_size(space: Space, limit: int | None = MAX_CONFIGS) -> None:
    """InputError when a grid or list space has more than `limit` configs (None: no cap); builds nothing."""
    n = count(space)
    if limit is not None and n is not None and n > limit:
        raise InputError(f"the space has {n} configs, more than the cap of {limit}; narrow the space or raise "
                         "the cap (--max-configs N on the command line, max_configs= in the API)")


def expand(space: Space, *, limit: int | None = MAX_CONFIGS) -> list[Config]:
    """Every config of a space, in order, without duplicates; InputError above `limit` configs (None: no cap).

    The size of a grid is checked before any config is built, so a huge space is refused at once.
    """
    check_size(space, limit)
    if isinstance(space, Mapping):
        keys, values = _grid(space)
        configs = [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*values)]
    else:
        configs = [as_config(c) for c in itertools.islice(space, None if limit is None else limit + 1)]
        if limit is not None and len(configs) > limit:
            raise InputError(f"the space has more than {limit} configs, the cap; narrow the space or raise the "
                             "cap (--max-configs N on the command line, max_configs= in the API)")
    seen: set[tuple[tuple[str, Any], ...]] = set()
    out = []
    for cfg in configs:
        key = config_key(cfg)
        if key not in seen:
            seen.add(key)
            out.append(cfg)
    if not out:
        raise InputError("the search space is empty")
    return out


def config_key(config: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable, order-independent key of a config."""
    return tuple(sorted((str(k), _hashable(v)) for k, v in config.items()))


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    return value


def format_config(config: Mapping[str, Any]) -> str:
    """'BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3' (constexprs first, launch options last)."""
    head = [f"{k}={v}" for k, v in config.items() if k not in LAUNCH_KEYS]
    tail = [f"{k}={config[k]}" for k in LAUNCH_KEYS if k in config]
    return " ".join(head + tail)


def block_keys(config: Mapping[str, Any]) -> list[str]:
    """Keys of a config that are tile sizes: BLOCK_*, *_BLOCK, *_SIZE*, TILE_* with integer values."""
    out = []
    for key, value in config.items():
        if key in LAUNCH_KEYS or isinstance(value, bool) or not isinstance(value, int):
            continue
        upper = key.upper()
        if "BLOCK" in upper or "TILE" in upper or "SIZE" in upper:
            out.append(key)
    return out
