"""YAML loading with the fast C loader when PyYAML has it."""

from __future__ import annotations

from typing import Any, Protocol

import yaml

from tilefit.errors import KnowledgeBaseError

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Readable(Protocol):
    def read_text(self, encoding: str = ...) -> str: ...


def load_yaml(path: _Readable) -> Any:
    """Parse one YAML file; errors name the file."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeBaseError(f"{path}: {exc}") from exc
