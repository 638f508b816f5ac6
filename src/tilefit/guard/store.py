"""Fallback decisions on disk, per kernel, key and device, so a later process skips the check."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any


class DecisionStore:
    """One JSON file per kernel under <cache_dir>/guard: {device: {key: decision}}."""

    def __init__(self, root: Path, kernel_id: str, kernel_name: str = "") -> None:
        self.path = Path(root) / "guard" / f"{_safe(kernel_name)}-{kernel_id[:16]}.json"
        self.kernel_name = kernel_name
        self._data: dict[str, dict[str, Any]] | None = None

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._data is None:
            try:
                raw = json.loads(self.path.read_text())
            except (OSError, ValueError):
                raw = None
            decisions = raw.get("decisions") if isinstance(raw, dict) else None
            # A file of another shape (edited, truncated into valid JSON, another tool's) holds nothing (D10).
            if not isinstance(decisions, dict):
                decisions = {}
            self._data = {k: v for k, v in decisions.items() if isinstance(v, dict)}
        return self._data

    def get(self, device: str, key: str) -> Mapping[str, Any] | None:
        """The stored decision, or None."""
        found = self._load().get(device, {}).get(key)
        return found if isinstance(found, Mapping) else None

    def put(self, device: str, key: str, decision: Mapping[str, Any]) -> None:
        """Store a decision (atomic replace of the file; a failure to write is not an error)."""
        data = self._load()
        data.setdefault(device, {})[key] = dict(decision)
        doc = {"kernel": self.kernel_name, "decisions": data}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            try:
                with os.fdopen(fd, "w") as f:
                    json.dump(doc, f, indent=1, sort_keys=True, default=str)
                os.replace(tmp, self.path)
            except OSError:
                os.unlink(tmp)  # a full disk leaves no empty temporary behind (D25)
                raise
        except OSError:
            pass


def stable_key(parts: Any) -> str:
    """A short, stable text key of JSON-able parts."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60] or "kernel"
