"""On-disk cache of estimates: one JSON file per key under Settings.cache_dir.

A key hashes everything the compiler's answer depends on (kernel source with its callees, signature,
specialisation, options, target, mode, compiler version); a value is a Usage. Writes are atomic
(tmp file + os.replace) so parallel sweeps can share a cache.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tilefit.estimate.base import Usage

_FORMAT = 1


def cache_key(parts: Mapping[str, Any]) -> str:
    """A stable sha256 of `parts` (keys sorted; non-JSON values by repr)."""
    text = json.dumps({"format": _FORMAT, **parts}, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True)
class DiskCache:
    """Usages stored as JSON files under `root`."""

    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Usage | None:
        """The cached Usage, or None (missing or unreadable entries are misses)."""
        try:
            raw = json.loads(self._path(key).read_text(encoding="utf-8"))
            return usage_from_dict(raw)
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def put(self, key: str, usage: Usage) -> None:
        """Store a Usage; a cache that cannot be written is silently skipped."""
        path = self._path(key)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(usage.to_dict(), f, default=repr)
            os.replace(tmp, path)


def usage_from_dict(raw: Mapping[str, Any]) -> Usage:
    """Inverse of Usage.to_dict()."""
    return Usage.from_dict(raw)
