"""explain(log or exception) -> Explanation: every known on-chip memory error, diagnosed once."""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Mapping
from typing import Any

from tilefit.diagnosis.advice import Advice, Facts, advise
from tilefit.errors import InputError
from tilefit.kb.model import Entry
from tilefit.kb.repository import KnowledgeBase, load_kb
from tilefit.match.extract import context_rules, decode_input
from tilefit.match.matcher import Match, match
from tilefit.settings import Settings
from tilefit.targets import Target, TargetSet, load_targets

# How much of the log before an error is read for its traceback (framework, phase).
_FRAME_WINDOW = 20000


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    """One distinct error: what it is, its numbers, the devices the limit reveals, what to do."""

    match: Match
    framework: str | None
    phase: str
    vendor: str | None
    device_classes: tuple[Target, ...]
    config: Mapping[str, int | str]
    advice: tuple[Advice, ...]

    @property
    def entry(self) -> Entry:
        return self.match.entry

    @property
    def ratio(self) -> float | None:
        m = self.match
        if m.required is None or not m.limit:
            return None
        return round(m.required / m.limit, 4)


@dataclasses.dataclass(frozen=True)
class Explanation:
    """All diagnoses of one input, in order of appearance."""

    diagnoses: tuple[Diagnosis, ...]

    @property
    def recognised(self) -> bool:
        return bool(self.diagnoses)

    def render(self, fmt: str = "text", lang: str = "en") -> str:
        """Render as text, markdown, json or html, in English or Chinese ('zh')."""
        from tilefit.render import render

        return render(self, fmt, lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The documented JSON contract (see README)."""
        from tilefit.render.json_ import to_json

        return to_json(self, lang)


def _vendor(entry: Entry, classes: tuple[Target, ...]) -> str | None:
    if entry.requires.any_of or entry.requires.limit_vendor:
        return entry.vendor
    vendors = {t.vendor for t in classes}
    if len(vendors) == 1:
        return vendors.pop()
    if not classes and entry.vendor != "any":
        return entry.vendor
    return None


def _device_classes(m: Match, targets: TargetSet) -> tuple[Target, ...]:
    """Targets with the log's limit; a vendor-specific entry (chosen by context) keeps its vendor's."""
    if m.limit is None:
        return ()
    found = targets.with_limit(m.entry.resource, m.limit, tolerance=0.006 if m.approximate else 0.0)
    req = m.entry.requires
    if (req.any_of or req.limit_vendor) and m.entry.vendor != "any":
        found = [t for t in found if t.vendor == m.entry.vendor] or found
    return tuple(found)


def diagnose(text: str, m: Match, targets: TargetSet) -> Diagnosis:
    """Read the context of one match and make its advice specific."""
    rules = context_rules()
    around = text[max(0, m.start - _FRAME_WINDOW): m.end + 2000]
    before = text[max(0, m.start - _FRAME_WINDOW): m.end]
    classes = _device_classes(m, targets)
    config = rules.config(text, m.start, m.end)
    facts = Facts(m.entry.resource, m.required, m.limit, config, classes)
    return Diagnosis(
        match=m,
        framework=rules.framework(around) or m.entry.frameworks[0],
        phase=rules.phase(before) or m.entry.phase,
        vendor=_vendor(m.entry, classes),
        device_classes=classes,
        config=config,
        advice=advise(m.entry.fixes, facts),
    )


def _exception_text(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    required, limit = getattr(exc, "required", None), getattr(exc, "limit", None)
    name = getattr(exc, "name", None)
    if isinstance(required, int) and isinstance(limit, int) and name and str(required) not in text:
        # Triton's OutOfResources keeps the numbers as fields; restate them in its own words.
        text += f"\nout of resource: {name}, Required: {required}, Hardware limit: {limit}\n"
    return text


def explain(
    source: str | bytes | BaseException,
    *,
    kb: KnowledgeBase | None = None,
    targets: TargetSet | None = None,
    settings: Settings | None = None,
) -> Explanation:
    """Diagnose a log (text or bytes) or a live exception (e.g. triton's OutOfResources)."""
    settings = settings or Settings.from_env()
    if isinstance(source, BaseException):
        text = _exception_text(source)
    elif isinstance(source, (str, bytes)):
        text = decode_input(source, max_bytes=settings.max_input_bytes)
    else:
        raise InputError(f"explain() takes a log (str or bytes) or an exception, not {type(source).__name__}")
    kb = kb or load_kb()
    targets = targets or load_targets()
    return Explanation(tuple(diagnose(text, m, targets) for m in match(text, kb, targets)))


__all__ = ["Diagnosis", "Explanation", "diagnose", "explain"]
