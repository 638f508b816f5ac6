"""A Pallas TPU kernel family as tilefit sees it: `build(config, **params) -> (fn, abstract args)`."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.errors import InputError
from tilefit.userfile import load_module_file

Built = tuple[Callable[..., Any], Sequence[Any]]
Build = Callable[..., Built]


@dataclasses.dataclass(frozen=True)
class PallasKernel:
    """A Pallas TPU kernel family: `build(config, **params) -> (fn, abstract args)` and its space."""

    build: Build
    space: Mapping[str, Sequence[int]] = dataclasses.field(default_factory=dict)
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    name: str = ""

    def configs(self) -> list[dict[str, int]]:
        """Every config of the space (cartesian product, in key order)."""
        keys = list(self.space)
        return [dict(zip(keys, vals, strict=True)) for vals in itertools.product(*(self.space[k] for k in keys))]

    def instantiate(self, config: Mapping[str, Any], target: str | None = None) -> Built:
        """Call build for one config (and the target's name, when build takes `target`)."""
        params = dict(self.params)
        if target is not None and "target" not in params and _takes_target(self.build):
            params["target"] = target
        return self.build(dict(config), **params)

    def checked_instantiate(self, config: Mapping[str, Any], target: str | None = None) -> tuple[Built, str | None]:
        """instantiate, and why the config is wrong when build did not read one of its keys (D12)."""
        seen = _Recording(config)
        params = dict(self.params)
        if target is not None and "target" not in params and _takes_target(self.build):
            params["target"] = target
        built = self.build(seen, **params)
        unread = [k for k in config if k not in seen.read]
        if not unread or seen.whole:
            return built, None
        return built, (
            f"config key(s) {', '.join(map(str, unread))} not used by {self.name or 'build'} "
            f"(it reads {', '.join(map(str, sorted(seen.read))) or 'no key'})"
        )

    def with_spec(self, spec: Mapping[str, Any]) -> PallasKernel:
        """This kernel with a CLI spec's `space` and `params` laid over its own."""
        space = {str(k): [_as_int(k, x) for x in _as_list(v)] for k, v in (spec.get("space") or {}).items()}
        params = {**self.params, **dict(spec.get("params") or {})}
        return dataclasses.replace(self, space={**self.space, **space}, params=params)


def _as_int(key: Any, value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(f"config {key}={value!r}: Pallas config values must be integers") from None


class _Recording(Mapping[str, Any]):
    """A config that records which keys build reads (iterating it counts as reading them all)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)
        self.read: set[str] = set()
        self.whole = False

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _takes_target(build: Callable[..., Any]) -> bool:
    import inspect

    try:
        return "target" in inspect.signature(build).parameters
    except (TypeError, ValueError):
        return False


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return [v for v in value.split(",") if v.strip()]
    return [value]


def load_kernel(ref: str) -> PallasKernel:
    """Load 'path/to/file.py:name' (a PallasKernel or a build function); InputError when it cannot."""
    path_s, sep, name = ref.rpartition(":")
    if not sep or not path_s or not name:
        raise InputError(f"kernel reference {ref!r} must look like path/to/file.py:name")
    path = Path(path_s)
    if not path.is_file():
        raise InputError(f"kernel file {path} does not exist")
    module = load_module_file(path)
    obj = getattr(module, name, None)
    if obj is None:
        raise InputError(f"{path} defines no {name!r}")
    if isinstance(obj, PallasKernel):
        return obj
    if callable(obj):
        return PallasKernel(build=obj, name=name)
    raise InputError(f"{ref} is neither a PallasKernel nor a build function")
