"""Plain-text report for terminals."""

from __future__ import annotations

import textwrap

from tilefit.render.common import config_line, devices_line, header_tags, measured_text, numbers_line, omitted_line
from tilefit.render.i18n import label
from tilefit.render.view import ExplainView, MatchView

_W = 100


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _W, initial_indent=indent, subsequent_indent=indent) or [indent]


def _match(i: int, m: MatchView, lang: str, first: int | None) -> list[str]:
    out = [f"[{i}] {m['title']}  ({m['entry']})", f"    {header_tags(m, lang)}"]
    for key, value in (
        ("resource", numbers_line(m, lang)),
        ("devices", devices_line(m)),
        ("framework", f"{m['framework']} · {label(lang, 'phase')}: {m['phase']}"),
        ("config", config_line(m)),
    ):
        if value:
            out += _wrap(f"{label(lang, key)}: {value}", "    ")
    if first is not None:
        out += _wrap(label(lang, "same_as", n=first), "    ")
        for n, fix in enumerate(m["fixes"], 1):
            if fix["specific"]:
                out += _wrap(f"{n}. {fix['action']}: {fix['specific']}", "      ")
        return out
    out += _wrap(f"{label(lang, 'cause')}: {m['root_cause']}", "    ")
    out.append(f"    {label(lang, 'fixes')}:")
    for n, fix in enumerate(m["fixes"], 1):
        out += _wrap(f"{n}. {fix['action']}" + (f": {fix['specific']}" if fix["specific"] else ""), "      ")
        out += _wrap(fix["how"], "         ")
        extra = measured_text(fix, lang)
        if extra:
            out += _wrap(extra, "         ")
        out += _wrap(f"{label(lang, 'evidence')}: {' '.join(fix['evidence'])}", "         ")
    if m["dead_ends"]:
        out.append(f"    {label(lang, 'dead_ends')}:")
        for d in m["dead_ends"]:
            out += _wrap(f"- {d['action']}: {d['why']} ({d['source']})", "      ")
    return out


def render(view: ExplainView, lang: str) -> str:
    matches = view["matches"]
    if not matches:
        return label(lang, "none") + "\n"
    lines: list[str] = []
    seen: dict[str, int] = {}
    for i, m in enumerate(matches, 1):
        lines += [*_match(i, m, lang, seen.get(m["entry"])), ""]
        seen.setdefault(m["entry"], i)
    if any(f["specific"] for m in matches for f in m["fixes"]):
        lines += _wrap(label(lang, "estimate_note"), "")
    more = omitted_line(view, lang)
    if more:
        lines += _wrap(more, "")
    return "\n".join(lines).rstrip() + "\n"
