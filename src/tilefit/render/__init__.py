"""Renderers: every format is drawn from the one JSON view (render.json_.to_json)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilefit.errors import InputError
from tilefit.render.json_ import dumps, to_json

if TYPE_CHECKING:
    from tilefit.diagnosis import Explanation

FORMATS = ("text", "markdown", "json", "html")
LANGS = ("en", "zh")


def render(explanation: Explanation, fmt: str = "text", lang: str = "en") -> str:
    """Render an explanation; unknown formats or languages raise InputError."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if lang not in LANGS:
        raise InputError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    from tilefit.render import html, markdown, text

    view = to_json(explanation, lang)
    if fmt == "json":
        return dumps(view)
    renderers = {"text": text.render, "markdown": markdown.render, "html": html.render}
    return renderers[fmt](view, lang)


__all__ = ["FORMATS", "LANGS", "dumps", "render", "to_json"]
