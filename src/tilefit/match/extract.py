"""Reading logs safely, and what surrounds an error: framework, phase and printed config."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from tilefit.errors import InputError
from tilefit.yamlio import load_yaml

# Printable share below which input is called binary, measured on its first 64 KiB.
_BINARY_SHARE = 0.85
_PROBE = 65536


def decode_input(data: bytes | str, *, max_bytes: int) -> str:
    """Turn raw input into text: empty, binary or oversized input raises InputError."""
    if isinstance(data, str):
        text = data
        if len(text) > max_bytes:
            raise InputError(f"input has {len(text)} characters; the limit is {max_bytes} (TILEFIT_MAX_INPUT_BYTES)")
    else:
        if len(data) > max_bytes:
            raise InputError(f"input has {len(data)} bytes; the limit is {max_bytes} (TILEFIT_MAX_INPUT_BYTES)")
        if _looks_binary(data[:_PROBE]):
            raise InputError("input is not text (it looks binary); pass the error log as text")
        text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise InputError("input is empty; pass an error log (a file, '-' for stdin, or text)")
    return text


def _looks_binary(head: bytes) -> bool:
    if not head:
        return False
    if b"\x00" in head[:8192]:
        return True
    text = head.decode("utf-8", errors="replace")
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\n\r\t\x1b")
    return printable / len(text) < _BINARY_SHARE


@dataclasses.dataclass(frozen=True)
class _Rule:
    regex: re.Pattern[str]
    value: str


@dataclasses.dataclass(frozen=True)
class ContextRules:
    """Rules that read framework, phase and config around an error (data/context.yaml)."""

    frameworks: tuple[_Rule, ...]
    phases: tuple[_Rule, ...]
    config_pair: re.Pattern[str]
    launcher_line: re.Pattern[str]
    launcher_param: re.Pattern[str]

    def framework(self, text: str) -> str | None:
        return _first(self.frameworks, text)

    def phase(self, text: str) -> str | None:
        """The phase whose marker is nearest the end of `text` (the frame closest to the error)."""
        best, best_pos = None, -1
        for rule in self.phases:
            for m in rule.regex.finditer(text):
                if m.start() > best_pos:
                    best, best_pos = rule.value, m.start()
        return best

    def config(self, text: str, start: int, end: int) -> dict[str, int | str]:
        """The config printed on the error's own line, the next line, or the nearest launcher line before it."""
        line_start = text.rfind("\n", 0, start) + 1
        next_nl = text.find("\n", end)
        after = text.find("\n", next_nl + 1) if next_nl >= 0 else -1
        own = text[line_start: after if after >= 0 else len(text)]
        pairs = self._pairs(own)
        if pairs:
            return pairs
        before = text[max(0, line_start - 8000): line_start]
        launches = list(self.launcher_line.finditer(before))
        if launches:
            return self._launcher(launches[-1])
        return {}

    def _pairs(self, text: str) -> dict[str, int | str]:
        out: dict[str, int | str] = {}
        for m in self.config_pair.finditer(text):
            value = m.group("value")
            out.setdefault(m.group("key"), int(value) if value.isdigit() else value)
        return out

    def _launcher(self, m: re.Match[str]) -> dict[str, int | str]:
        out: dict[str, int | str] = {"kernel": m.group("kernel")}
        for name in dict.fromkeys(self.launcher_param.findall(m.group("args"))):
            out[name] = "?"
        out.update(self._pairs(m.group("args")))
        return out


def _first(rules: tuple[_Rule, ...], text: str) -> str | None:
    for rule in rules:
        if rule.regex.search(text):
            return rule.value
    return None


def _rules(raw: Any, key: str) -> tuple[_Rule, ...]:
    return tuple(_Rule(re.compile(r["regex"]), r[key]) for r in raw)


@functools.lru_cache(maxsize=1)
def context_rules() -> ContextRules:
    """Load data/context.yaml."""
    raw: Mapping[str, Any] = load_yaml(resources.files("tilefit") / "data" / "context.yaml")
    return ContextRules(
        frameworks=_rules(raw["frameworks"], "framework"),
        phases=_rules(raw["phases"], "phase"),
        config_pair=re.compile(raw["config_pair"]),
        launcher_line=re.compile(raw["launcher_line"]),
        launcher_param=re.compile(raw["launcher_param"]),
    )
