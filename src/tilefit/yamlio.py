"""YAML loading with the fast C loader when PyYAML has it, and a JSON copy of each parsed file.

This environment's PyYAML has no libyaml, and importing it and parsing the knowledge base and the target
tables was most of `tilefit explain`'s start-up. Each file's parsed content is kept as JSON under the cache
folder, named by a hash of the file's text, so an edited file is parsed again; a file whose content JSON
cannot hold exactly (dates, non-string keys) is parsed every time. TILEFIT_USE_CACHE=0 turns the copies off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Protocol

from tilefit.errors import KnowledgeBaseError

_OFF = ("0", "false", "no", "off")


class _Readable(Protocol):
    def read_text(self, encoding: str = ...) -> str: ...


def load_yaml(path: _Readable) -> Any:
    """Parse one YAML file; errors name the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KnowledgeBaseError(f"{path}: {exc}") from exc
    copy = _copy_path(text)
    if copy is not None:
        with contextlib.suppress(OSError, ValueError):
            return json.loads(copy.read_text(encoding="utf-8"))
    data = _parse(text, path)
    if copy is not None:
        _keep(copy, data)
    return data


def _parse(text: str, path: _Readable) -> Any:
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        raise KnowledgeBaseError(f"{path}: {exc}") from exc


def _copy_path(text: str) -> Path | None:
    if os.environ.get("TILEFIT_USE_CACHE", "1").strip().lower() in _OFF:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilefit" / "yaml" / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"


def _keep(copy: Path, data: Any) -> None:
    """Write the JSON copy atomically when it round-trips exactly; any failure only skips the copy."""
    try:
        text = json.dumps(data, ensure_ascii=False)
        if json.loads(text) != data:
            return
    except (TypeError, ValueError):
        return
    tmp = copy.with_name(f"{copy.name}.{os.getpid()}.tmp")
    try:
        copy.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, copy)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
