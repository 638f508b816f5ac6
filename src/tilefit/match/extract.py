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
# num_stages or block size has 31 digits.
_MAX_DIGITS = 30
# The context index searches text in blocks; a hit may run this far past its block's end.
_BLOCK = 4096
_REACH = 512
# How far either side of an error its "own line" of config may reach.
_LINE = 2000


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

    def index(self, text: str) -> ContextIndex:
        """Framework and phase lookups over one text, each rule searched once per block of it."""
        return ContextIndex(self, text)

    def config(self, text: str, start: int, end: int) -> dict[str, int | str]:
        """The config printed on the error's own line, the next line, or the nearest launcher line before it."""
        # A "line" is at most _LINE characters either side: a one-line log (JSON-escaped) is not one line.
        line_start = max(text.rfind("\n", max(0, start - _LINE), start) + 1, start - _LINE, 0)
        next_nl = text.find("\n", end, end + _LINE)
        after = text.find("\n", next_nl + 1, end + 2 * _LINE) if next_nl >= 0 else -1
        own = text[line_start: after if after >= 0 else min(len(text), end + _LINE)]
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


class ContextIndex:
    """Framework and phase around positions of one text; each (rule, block) is searched at most once.

    A log with 1,000 distinct errors asks for the framework 1,000 times over overlapping 20 KB windows;
    searching each window again would read the log 1,000 times.
    """

    def __init__(self, rules: ContextRules, text: str) -> None:
        self.rules, self.text = rules, text
        self.memo: dict[tuple[int, int], int] = {}

    def _last(self, rule: _Rule, block: int, end: int | None = None) -> int:
        """Start of the last hit of `rule` that starts in `block` (before `end` if given), or -1."""
        key = (id(rule), block)
        if end is None and key in self.memo:
            return self.memo[key]
        a = block * _BLOCK
        b = min(a + _BLOCK, len(self.text)) if end is None else end
        last = -1
        for m in rule.regex.finditer(self.text, a, min(len(self.text), b + _REACH)):
            if m.start() >= b:
                break
            last = m.start()
        if end is None:
            self.memo[key] = last
        return last

    def framework(self, a: int, b: int) -> str | None:
        """The first framework rule with a hit in text[a:b] (block-aligned)."""
        a, b = max(0, a), min(len(self.text), b)
        for rule in self.rules.frameworks:
            if any(self._last(rule, k) >= 0 for k in range(a // _BLOCK, (b - 1) // _BLOCK + 1)):
                return rule.value
        return None

    def phase(self, a: int, b: int) -> str | None:
        """The phase whose marker is nearest `b` within text[a:b] (the frame closest to the error)."""
        a, b = max(0, a), min(len(self.text), b)
        best, best_pos = None, -1
        last_block = (b - 1) // _BLOCK
        for rule in self.rules.phases:
            for k in range(last_block, a // _BLOCK - 1, -1):
                pos = self._last(rule, k, end=b if k == last_block else None)
                if pos >= 0:
                    if pos > best_pos:
                        best, best_pos = rule.value, pos
                    break
        return best


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
