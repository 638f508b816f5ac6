"""`explain()`: the public entry point, from a log or a live exception to a renderable report.

Imports flow one way: report -> render -> diagnosis -> match -> kb. `Report` is an `Explanation` that
can render itself; the diagnosis layer never imports a renderer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, BinaryIO

from tilefit.diagnosis import Explanation, diagnose_pieces, exception_text
from tilefit.errors import InputError
from tilefit.match.source import byte_pieces, decode_blocks, stream_blocks, text_pieces
from tilefit.render import render, to_json

if TYPE_CHECKING:
    from tilefit.kb.repository import KnowledgeBase
    from tilefit.match.extract import ContextRules
    from tilefit.render.view import ExplainView
    from tilefit.settings import Settings
    from tilefit.targets import TargetSet


@dataclasses.dataclass(frozen=True)
class Report(Explanation):
    """An Explanation with its renderings (the README's `result.render()` / `result.to_json()`)."""

    def render(self, fmt: str = "text", lang: str = "en") -> str:
        """Render as text, markdown, json or html, in English or Chinese ('zh')."""
        return render(self, fmt, lang)

    def to_json(self, lang: str = "en") -> ExplainView:
        """The documented JSON contract (see README and data/schemas/explain.schema.json)."""
        return to_json(self, lang)


def _pieces(source: str | bytes | BinaryIO | BaseException, max_bytes: int) -> Iterable[str]:
    if isinstance(source, BaseException):
        return text_pieces(exception_text(source), max_bytes=max_bytes)
    if isinstance(source, str):
        return text_pieces(source, max_bytes=max_bytes)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return byte_pieces(bytes(source), max_bytes=max_bytes)
    if hasattr(source, "read"):
        return decode_blocks(stream_blocks(source, max_bytes=max_bytes), max_bytes=max_bytes)
    raise InputError(f"explain() takes a log (str, bytes or a binary stream) or an exception, not "
                     f"{type(source).__name__}")


def explain(
    source: str | bytes | BinaryIO | BaseException,
    *,
    kb: KnowledgeBase | None = None,
    targets: TargetSet | None = None,
    settings: Settings | None = None,
    rules: ContextRules | None = None,
) -> Report:
    """Diagnose a log (text, bytes or an open binary stream) or a live exception (e.g. triton's OutOfResources)."""
    from tilefit.kb.repository import load_kb
    from tilefit.match.extract import context_rules
    from tilefit.settings import Settings
    from tilefit.targets import load_targets

    settings = settings or Settings.from_env()
    pieces = _pieces(source, settings.max_input_bytes)
    found = diagnose_pieces(pieces, kb or load_kb(), targets or load_targets(), rules or context_rules())
    return Report(found.diagnoses, found.omitted)


__all__ = ["Report", "explain"]
