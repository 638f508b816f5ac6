"""What surrounds an error in a log: framework, phase and printed config (rules in data/context.yaml)."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from tilefit.yamlio import load_yaml

# A printed config value longer than this stays text: int() of a 5000-digit string raises, and no real
# num_stages or block size has 19 digits.
_MAX_DIGITS = 18


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
            number = value.isdigit() and len(value) <= _MAX_DIGITS
            out.setdefault(m.group("key"), int(value) if number else value)
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
